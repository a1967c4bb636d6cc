"""A fake Discord for the adapter's tests: a local aiohttp server speaking Discord's HTTP API.

The real discord.py client talks to it over real HTTP (``Route.BASE`` points
at it), so every request the bot makes — interaction callbacks, follow-up
webhooks, channel messages with nonces, DM channel creation, history reads,
command sync — is recorded with its method, path and JSON body, and answered
with payloads in Discord's own shapes. Errors are scripted per route
(``fail_next``). Gateway events are fed to the client's own parsers
(``parse_interaction_create``, ``parse_message_create``), as the gateway does.

The OpenAPI description of Discord's API (``shared/specs`` beside the repo)
checks both sides: request bodies the bot sends and the fake's responses.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import parse_qsl, unquote, urlsplit

import aiohttp
import discord
import pytest
from aiohttp import FormData, web
from aiohttp.test_utils import TestServer
from multidict import CIMultiDict

from bot.adapters.discord import DiscordAdapter
from bot.config import DiscordConfig
from bot.games.catalog import games
from bot.host.messages import Inbound

SPECS = Path(__file__).resolve().parents[3] / ".." / "shared" / "specs"
SPEC_FILE = SPECS / "discord-api-openapi.json"

APP_ID = 1100000000000000001
BOT_ID = 1100000000000000002
GUILD_ID = 1100000000000000003
CHANNEL_ID = 1100000000000000004
USER_ID = 1100000000000000005
DM_CHANNEL_ID = 1100000000000000006
OTHER_USER_ID = 1100000000000000007
HOST_ROLE_ID = 1100000000000000008

MANAGE_GUILD = 1 << 5
# What Discord computes for an ordinary member: view, send, read history, use commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)


def user_payload(
    user_id: int = USER_ID, name: str = "ahab", *, bot: bool = False
) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name.title(),
        "discriminator": "0",
        "avatar": "a1b2c3d4e5f60718293a4b5c6d7e8f90",
        "public_flags": 0,
        "flags": 0,
        "bot": bot,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
    }


BOT_USER = user_payload(BOT_ID, "bst", bot=True)
# GET /users/@me adds the account's own fields.
BOT_ME = {**BOT_USER, "mfa_enabled": True, "locale": "en-US", "verified": True}


@dataclass
class Reply:
    """One answer of the fake, before any transport carries it (``None`` body: 204)."""

    status: int
    body: bytes | None
    headers: dict[str, str] = field(default_factory=dict)

    def web(self) -> web.Response:
        return web.Response(body=self.body, status=self.status, headers=self.headers)


def json_response(body: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    """As Discord answers: ``Content-Type: application/json`` exactly (discord.py checks it)."""
    return Reply(
        status,
        json.dumps(body).encode(),
        {"Content-Type": "application/json", **(headers or {})},
    )


def iso(moment: datetime) -> str:
    return moment.isoformat()


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, str, bytes]]
    authorization: str | None
    at: float = field(default_factory=time.perf_counter)  # when it reached the transport


@dataclass
class Failure:
    method: str
    path: re.Pattern[str]
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


# Gateway intents Discord calls privileged: each must be switched on for the application.
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
# The intents Discord knows today (bits 17–19, 22 and 23 are unassigned).
KNOWN_INTENTS = sum(1 << bit for bit in (*range(17), 20, 21, 24, 25))


class FakeGateway:
    """Discord's gateway for one connection's first minute, as Discord behaves.

    HELLO; then the IDENTIFY is judged as Discord judges it: a token not the bot's →
    close 4004 (authentication failed); intents with bits Discord does not know →
    4013 (invalid intents); a privileged intent the application has not switched on
    (``allowed_privileged``) → 4014 (disallowed intents). Otherwise READY, heartbeats
    acknowledged, and whatever the test ``push``es (INTERACTION_CREATE, MESSAGE_CREATE)
    as dispatches with sequence numbers.
    """

    def __init__(self, token: str, *, allowed_privileged: int = 0) -> None:
        self.token = token
        self.allowed_privileged = allowed_privileged
        self.known_intents = KNOWN_INTENTS
        self.identified: list[dict[str, Any]] = []
        self.closed_with: list[int] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.url = ""
        self._sequence = itertools.count(1)

    def judge(self, identify: dict[str, Any]) -> int | None:
        """The close code Discord answers this IDENTIFY with, or None to accept it."""
        token = str(identify.get("token", "")).removeprefix("Bot ")
        intents = int(identify.get("intents", 0))
        if token != self.token:
            return 4004
        if intents & ~self.known_intents:
            return 4013
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged:
            return 4014
        return None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for message in ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame["op"] == 1:  # heartbeat
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif frame["op"] == 2:  # identify
                self.identified.append(frame["d"])
                code = self.judge(frame["d"])
                if code is not None:
                    self.closed_with.append(code)
                    await ws.close(code=code, message=b"refused")
                    break
                shard = frame["d"].get("shard") or [0, 1]
                await self._dispatch(ws, "READY", {
                    "v": 10,
                    "user": BOT_USER,
                    "guilds": [],
                    "session_id": "fake-session",
                    "resume_gateway_url": self.url,
                    "shard": shard,
                    "application": {"id": str(APP_ID), "flags": 0},
                })  # fmt: skip
        self.sockets.remove(ws)
        return ws

    async def _dispatch(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        await ws.send_json({"op": 0, "t": event, "s": next(self._sequence), "d": data})

    async def push(self, event: str, data: Any) -> None:
        """A dispatch to every connected client (an INTERACTION_CREATE, a MESSAGE_CREATE)."""
        for ws in list(self.sockets):
            await self._dispatch(ws, event, data)


class FakeDiscord:
    """Discord's HTTP API, as far as the bot uses it."""

    def __init__(self) -> None:
        self.gateway = FakeGateway(TOKEN)
        self.application_flags = 0  # GATEWAY_MESSAGE_CONTENT is 1 << 18
        # The servers the bot is in, with the bot's permissions there.
        self.guilds: list[dict[str, Any]] = [
            {"id": str(GUILD_ID), "name": "Harbour", "permissions": str(MEMBER_PERMISSIONS)}
        ]
        self.requests: list[Recorded] = []
        self.responses: list[tuple[str, str, Any]] = []  # (operation, status, body)
        self.failures: list[Failure] = []
        self.history: dict[int, list[dict[str, Any]]] = {}
        self.deleted: list[tuple[int, int]] = []  # (channel id, message id)
        self._ids = itertools.count(1)
        self.base = ""

    # ---- scripting ----------------------------------------------------------------

    def snowflake(self, moment: datetime | None = None) -> int:
        moment = moment or datetime.now(UTC)
        return discord.utils.time_snowflake(moment) + next(self._ids)

    def fail_next(
        self, method: str, path: str, status: int, body: Any, headers: dict[str, str] | None = None
    ) -> None:
        """The next request matching ``method`` and the ``path`` regex gets this error."""
        self.failures.append(Failure(method, re.compile(path), status, body, headers or {}))

    def requests_to(self, method: str, path: str) -> list[Recorded]:
        pattern = re.compile(path)
        return [r for r in self.requests if r.method == method and pattern.fullmatch(r.path)]

    def message(
        self,
        channel_id: int,
        content: str,
        *,
        author: dict[str, Any] | None = None,
        message_id: int | None = None,
        flags: int = 0,
        nonce: Any = None,
        webhook_id: int | None = None,
        files: list[tuple[str, str, bytes]] = (),  # type: ignore[assignment]
        guild_id: int | None = None,
    ) -> dict[str, Any]:
        """A message object as Discord returns it."""
        message_id = message_id or self.snowflake()
        payload: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "type": 0,
            "content": content,
            "author": author or BOT_USER,
            "attachments": [
                {
                    "id": str(self.snowflake()),
                    "filename": filename,
                    "size": len(data),
                    "url": f"https://cdn.discordapp.com/attachments/{channel_id}/1/{filename}",
                    "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/1/{filename}",
                }
                for (_, filename, data) in files
            ],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": iso(discord.utils.snowflake_time(message_id)),
            "edited_timestamp": None,
            "flags": flags,
            "components": [],
        }
        if nonce is not None:
            payload["nonce"] = nonce
        if webhook_id is not None:
            payload["webhook_id"] = str(webhook_id)
            payload["application_id"] = str(APP_ID)
        if guild_id is not None:
            payload["guild_id"] = str(guild_id)
        return payload

    def add_history(
        self, channel_id: int, content: str, *, author: dict[str, Any], guild: bool = True
    ) -> dict[str, Any]:
        """A message that arrived while the bot was away."""
        message = self.message(channel_id, content, author=author)
        self.history.setdefault(channel_id, []).append(message)
        return message

    # ---- the server ---------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle)
        return app

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[tuple[str, str, bytes]] = []
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    files.append((part.name or "", part.filename or "", bytes(data)))  # type: ignore[union-attr]
        reply = self.receive(
            request.method,
            path,
            dict(request.query),
            body,
            files,
            request.headers.get("Authorization"),
        )
        return reply.web()

    def receive(
        self,
        method: str,
        path: str,
        query: dict[str, str],
        body: Any,
        files: list[tuple[str, str, bytes]],
        authorization: str | None,
    ) -> Reply:
        """Record one request (whatever carried it) and answer it, or fail it as scripted."""
        self.requests.append(Recorded(method, path, query, body, files, authorization))
        for failure in self.failures:
            if failure.method == method and failure.path.fullmatch(path):
                self.failures.remove(failure)
                return json_response(failure.body, status=failure.status, headers=failure.headers)
        return self._answer(method, path, query, body, files)

    def _ok(self, operation: str, payload: Any, status: int = 200) -> Reply:
        self.responses.append((operation, str(status), payload))
        if status == 204:
            return Reply(204, None)
        return json_response(payload, status=status)

    def _answer(
        self, method: str, path: str, query: Any, body: Any, files: list[tuple[str, str, bytes]]
    ) -> Reply:
        if method == "GET" and path == "/users/@me":
            return self._ok("GET /users/@me", BOT_ME)
        if method == "GET" and path == "/users/@me/guilds":
            return self._ok(
                "GET /users/@me/guilds",
                [
                    {"icon": None, "banner": None, "owner": False, "features": [], **guild}
                    for guild in self.guilds
                ],
            )
        if method == "GET" and path == "/gateway/bot":
            return self._ok(
                "GET /gateway/bot",
                {
                    "url": self.gateway.url,
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 14400000,
                        "max_concurrency": 1,
                    },
                },
            )
        if method == "GET" and path == "/oauth2/applications/@me":
            return self._ok(
                "GET /oauth2/applications/@me",
                {
                    "id": str(APP_ID),
                    "name": "bst",
                    "description": "BattleshipTwitter host",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user_payload(OTHER_USER_ID, "owner"),
                    "verify_key": "0" * 64,
                    "flags": self.application_flags,
                    "flags_new": "0",
                    "type": None,
                    "redirect_uris": [],
                    "interactions_endpoint_url": None,
                    "role_connections_verification_url": None,
                    "approximate_guild_count": 1,
                    "approximate_user_install_count": 0,
                    "approximate_user_authorization_count": 0,
                    "explicit_content_filter": 0,
                    "team": None,
                    "eligible_oauth2_scopes": ["bot", "applications.commands"],
                    "bot": BOT_USER,
                },
            )
        if m := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            flags = ((body or {}).get("data") or {}).get("flags", 0)
            if str(query.get("with_response", "")).lower() not in ("1", "true"):
                # Without ?with_response Discord answers 204 and no body.
                return self._ok(
                    "POST /interactions/{interaction_id}/{interaction_token}/callback", None, 204
                )
            return self._ok(
                "POST /interactions/{interaction_id}/{interaction_token}/callback",
                {
                    "interaction": {
                        "id": m.group(1),
                        "type": 2,
                        "response_message_loading": body.get("type") == 5,
                        "response_message_ephemeral": bool(flags & 64),
                    }
                },
            )
        if method == "DELETE" and re.fullmatch(r"/webhooks/\d+/[^/]+/messages/@original", path):
            return self._ok(
                "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original", None, 204
            )
        if (m := re.fullmatch(r"/webhooks/(\d+)/([^/]+)", path)) and method == "POST":
            return self._ok(
                "POST /webhooks/{webhook_id}/{webhook_token}",
                self.message(
                    CHANNEL_ID,
                    body.get("content", ""),
                    flags=body.get("flags", 0),
                    webhook_id=int(m.group(1)),
                    files=files,
                ),
            )
        if (m := re.fullmatch(r"/channels/(\d+)/messages", path)) and method == "POST":
            return self._ok(
                "POST /channels/{channel_id}/messages",
                self.message(
                    int(m.group(1)), body.get("content") or "", nonce=body.get("nonce"), files=files
                ),
            )
        if (m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)) and method == "DELETE":
            self.deleted.append((int(m.group(1)), int(m.group(2))))
            return self._ok("DELETE /channels/{channel_id}/messages/{message_id}", None, 204)
        if (m := re.fullmatch(r"/channels/(\d+)/messages", path)) and method == "GET":
            # Discord: the `limit` messages just after `after`, newest first.
            after = int(query.get("after", 0))
            limit = int(query.get("limit", 50))
            newer = [x for x in self.history.get(int(m.group(1)), []) if int(x["id"]) > after]
            newer.sort(key=lambda x: int(x["id"]))
            page = list(reversed(newer[:limit]))
            return self._ok("GET /channels/{channel_id}/messages", page)
        if method == "POST" and path == "/users/@me/channels":
            return self._ok(
                "POST /users/@me/channels",
                {
                    "id": str(DM_CHANNEL_ID),
                    "type": 1,
                    "last_message_id": None,
                    "flags": 0,
                    "recipients": [user_payload(int(body["recipient_id"]))],
                },
            )
        if method == "PUT" and re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", path):
            guild = re.search(r"/guilds/(\d+)/", path)
            answered = []
            for command in body:
                answered.append(
                    {
                        **command,
                        "id": str(self.snowflake()),
                        "application_id": str(APP_ID),
                        "version": str(self.snowflake()),
                        "default_member_permissions": None,
                        # Discord fills the default: installable to servers.
                        "integration_types": command.get("integration_types") or [0],
                        **({"guild_id": guild.group(1)} if guild else {}),
                    }
                )
            operation = (
                "PUT /applications/{application_id}/guilds/{guild_id}/commands"
                if guild
                else "PUT /applications/{application_id}/commands"
            )
            return self._ok(operation, answered)
        return json_response({"message": "404: Not Found", "code": 0}, status=404)


# ---- the same fake without a socket ----------------------------------------------------


class RecordedResponse:
    """What discord.py reads of an ``aiohttp.ClientResponse``: status, reason, headers, text."""

    def __init__(self, method: str, url: str, reply: Reply) -> None:
        self.method = method
        self.url = url
        self.status = reply.status
        self.reason = HTTPStatus(reply.status).phrase
        self.headers: CIMultiDict[str] = CIMultiDict(reply.headers)
        self._body = reply.body or b""

    async def text(self, encoding: str | None = None) -> str:
        return self._body.decode(encoding or "utf-8")

    async def read(self) -> bytes:
        return self._body

    async def json(self, **_: Any) -> Any:
        return json.loads(self._body)

    def release(self) -> None:
        return None

    async def __aenter__(self) -> RecordedResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class RecordingSession:
    """An in-process stand-in for the ``aiohttp.ClientSession`` under discord.py.

    discord.py builds every request itself (``HTTPClient.request`` for the bot's
    REST calls, ``AsyncWebhookAdapter.request`` for interaction callbacks and
    follow-ups: routes, JSON bodies, multipart forms, rate-limit bookkeeping,
    error mapping) and hands it to its session's ``request(method, url, …)``.
    This object takes that place: it decodes what discord.py would have put on
    the wire, records it in ``fake.requests`` (with ``Recorded.at``, the moment
    it reached the transport) and answers at once with :meth:`FakeDiscord.receive`'s
    Discord-shaped reply. No socket, no HTTP parsing, no server on the loop.
    """

    def __init__(self, fake: FakeDiscord, base: str = "http://discord.invalid/api/v10") -> None:
        self.fake = fake
        self.base = base.rstrip("/")
        self.closed = False

    def request(
        self,
        method: str,
        url: Any,
        *,
        data: Any = None,
        headers: dict[str, str] | None = None,
        params: dict[str, Any] | None = None,
        **_: Any,
    ) -> RecordedResponse:
        split = urlsplit(str(url))
        path = split.path
        prefix = urlsplit(self.base).path
        if path.startswith(prefix):
            path = path[len(prefix) :] or "/"
        path = unquote(path)
        query = {k: v for k, v in parse_qsl(split.query)}
        query.update({k: str(v) for k, v in (params or {}).items()})
        body, files = _decode(data)
        reply = self.fake.receive(
            method, path, query, body, files, (headers or {}).get("Authorization")
        )
        return RecordedResponse(method, str(url), reply)

    def get(self, url: Any, **kwargs: Any) -> RecordedResponse:
        return self.request("GET", url, **kwargs)

    async def ws_connect(self, url: str, **_: Any) -> Any:
        raise ConnectionError("the recording session has no gateway")

    async def close(self) -> None:
        self.closed = True


def _decode(data: Any) -> tuple[Any, list[tuple[str, str, bytes]]]:
    """The JSON body (a string from discord.py) or a multipart form's payload and files."""
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        return json.loads(data), []
    if isinstance(data, FormData):
        body: Any = None
        files: list[tuple[str, str, bytes]] = []
        for options, _headers, value in data._fields:
            name = options.get("name", "")
            if name == "payload_json":
                body = json.loads(value)
                continue
            if hasattr(value, "read"):
                position = value.tell() if hasattr(value, "tell") else None
                content = value.read()
                if position is not None:
                    value.seek(position)
            else:
                content = value
            if isinstance(content, str):
                content = content.encode()
            files.append((name, options.get("filename", ""), bytes(content)))
        return body, files
    raise TypeError(f"the recording session cannot read a {type(data).__name__} body")


@contextlib.contextmanager
def recording_transport(fake: FakeDiscord) -> Iterator[RecordingSession]:
    """While open, a discord.py client that logs in gets the recorder as its session.

    ``HTTPClient.static_login`` creates its ``aiohttp.ClientSession`` itself and
    every interaction copies it (``Interaction._session``); patching the class it
    instantiates, for the length of the login, is the one seam that keeps the
    rest of discord.py's request path untouched.
    """
    recorder = RecordingSession(fake, discord.http.Route.BASE)
    with (
        mock.patch.object(aiohttp, "ClientSession", lambda **_: recorder),
        mock.patch.object(aiohttp, "TCPConnector", lambda **_: None),
    ):
        yield recorder


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    server = TestServer(fake.app())
    await server.start_server()
    fake.base = str(server.make_url("/api/v10"))
    fake.gateway.url = str(server.make_url("/gateway")).replace("http://", "ws://")
    # discord.py keeps the API base on Route, and the gateway on DiscordWebSocket, for
    # the process: restore both afterwards.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    try:
        yield fake
    finally:
        await server.close()


class MemoryCursors:
    """The host's CursorStore, in memory."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}
        self.writes: list[tuple[str, str, str]] = []

    async def get(self, platform: str, key: str) -> str | None:
        return self.values.get((platform, key))

    async def set(self, platform: str, key: str, value: str) -> None:
        self.values[(platform, key)] = value
        self.writes.append((platform, key, value))

    async def all(self, platform: str) -> dict[str, str]:
        return {k: v for (p, k), v in self.values.items() if p == platform}


@pytest.fixture
def cursors() -> MemoryCursors:
    return MemoryCursors()


class Inbox:
    """The host's on_inbound: records what arrived and what Discord had seen by then."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.items: list[Inbound] = []
        self.requests_seen: list[int] = []
        self.fail_with: Exception | None = None
        self.during: Callable[[Inbound], Any] | None = None

    async def __call__(self, inbound: Inbound) -> None:
        self.requests_seen.append(len(self.fake.requests))
        if self.fail_with is not None:
            raise self.fail_with
        self.items.append(inbound)
        if self.during is not None:
            result = self.during(inbound)
            if asyncio.iscoroutine(result):
                await result


@pytest.fixture
def inbox(fake_discord: FakeDiscord) -> Inbox:
    return Inbox(fake_discord)


TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMg.fake.token-never-printed"


@pytest.fixture
def make_adapter(
    fake_discord: FakeDiscord, cursors: MemoryCursors
) -> Callable[..., DiscordAdapter]:
    def make(**config: Any) -> DiscordAdapter:
        """An adapter for the games registered now (a test may register its own first)."""
        return DiscordAdapter(
            DiscordConfig(enabled=True, **config),
            token=TOKEN,
            cursors=cursors,
            games=games(),
            http=fake_discord.base,
        )

    return make


@pytest.fixture
async def adapter(
    make_adapter: Callable[..., DiscordAdapter], inbox: Inbox
) -> AsyncIterator[DiscordAdapter]:
    """Logged in over HTTP to the fake; no gateway."""
    made = make_adapter(host_role="Harbour Master")
    await made.login(inbox)
    try:
        yield made
    finally:
        await made.stop()


def interaction_payload(
    subcommand: str,
    options: list[dict[str, Any]] | None = None,
    *,
    interaction_id: int,
    guild: bool = True,
    permissions: int = MEMBER_PERMISSIONS,
    roles: list[int] | None = None,
    resolved: dict[str, Any] | None = None,
    kind: int = 2,
    user_id: int = USER_ID,
    group: str = "bst",
) -> dict[str, Any]:
    """An INTERACTION_CREATE ``d`` as Discord sends it for ``/<group> <subcommand> …``."""
    user = user_payload(user_id)
    data: dict[str, Any] = {
        "id": "1100000000000000100",
        "name": group,
        "type": 1,
        "options": [{"type": 1, "name": subcommand, "options": options or []}],
    }
    if resolved:
        data["resolved"] = resolved
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(APP_ID),
        "type": kind,
        "data": data,
        "token": f"aW50ZXJhY3Rpb246{interaction_id}:fake-interaction-token",
        "version": 1,
        "locale": "en-GB",
        "app_permissions": str(MEMBER_PERMISSIONS),
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if guild:
        payload.update(
            guild_id=str(GUILD_ID),
            guild_locale="en-US",
            guild={"id": str(GUILD_ID), "locale": "en-US", "features": []},
            channel_id=str(CHANNEL_ID),
            channel={
                "id": str(CHANNEL_ID),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "bst-game",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "topic": None,
                "flags": 0,
                "permissions": str(permissions),
            },
            member={
                "user": user,
                "roles": [str(r) for r in roles or []],
                "permissions": str(permissions),
                "joined_at": "2025-01-01T00:00:00+00:00",
                "nick": None,
                "avatar": None,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "premium_since": None,
            },
            authorizing_integration_owners={"0": str(GUILD_ID)},
            context=0,
        )
    else:
        payload.update(
            user=user,
            channel_id=str(DM_CHANNEL_ID),
            channel={"id": str(DM_CHANNEL_ID), "type": 1, "flags": 0, "recipients": [user]},
            authorizing_integration_owners={"0": str(GUILD_ID)},
            context=1,
        )
    return payload


@pytest.fixture
def payload_factory() -> Callable[..., dict[str, Any]]:
    return interaction_payload


# ---- the OpenAPI description -----------------------------------------------------------


class DiscordSpec:
    """Request and response schemas of Discord's OpenAPI description, $refs resolved."""

    URI = "urn:discord-openapi"

    def __init__(self, document: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        self.document = document
        self._registry = Registry().with_resource(
            self.URI, Resource.from_contents(document, default_specification=DRAFT202012)
        )
        self._validator_class = Draft202012Validator

    @staticmethod
    def _pointer(*parts: str) -> str:
        return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)

    def errors(self, instance: Any, *parts: str) -> list[str]:
        schema = {"$ref": f"{self.URI}#/{self._pointer(*parts)}"}
        validator = self._validator_class(schema, registry=self._registry)
        return [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(instance)
        ]

    def request_errors(
        self, method: str, path: str, body: Any, content_type: str = "application/json"
    ) -> list[str]:
        operation = self.document["paths"][path][method.lower()]
        assert "requestBody" in operation, f"{method} {path} takes no body"
        return self.errors(
            body, "paths", path, method.lower(), "requestBody", "content", content_type, "schema"
        )

    def response_errors(self, method: str, path: str, status: str, body: Any) -> list[str]:
        response = self.document["paths"][path][method.lower()]["responses"][status]
        assert "content" in response, f"{method} {path} {status} has no body"
        return self.errors(
            body,
            "paths",
            path,
            method.lower(),
            "responses",
            status,
            "content",
            "application/json",
            "schema",
        )


@pytest.fixture(scope="session")
def spec() -> DiscordSpec:
    if not SPEC_FILE.exists():
        reason = (
            f"Discord's OpenAPI description is not at {SPEC_FILE} "
            "(the shared/specs folder beside the repository): contract checks skipped"
        )
        pytest.skip(reason=reason)
    return DiscordSpec(json.loads(SPEC_FILE.read_text(encoding="utf-8")))
