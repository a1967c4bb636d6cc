"""A fake Discord for the adapter's tests: a local aiohttp server speaking Discord's HTTP API.

The real discord.py client talks to it over real HTTP (``Route.BASE`` points
at it), so every request the bot makes — interaction callbacks, follow-up
webhooks, channel messages with nonces, DM channel creation, history reads,
command sync, threads, edits — is recorded with its method, path and JSON body,
and answered with payloads in Discord's own shapes. The fake keeps a model of
the channels and threads (``channels``), the bot's permissions in each
(``bot_permissions``) and every message that appeared (``posted``, ``pinged``),
and refuses what Discord refuses, with Discord's codes: missing permissions,
locked threads, components and embeds over their limits, conflicting
allowed_mentions, a second acknowledgement. Other errors are scripted per route
(``fail_next``). Gateway events are fed to the client's own parsers
(``parse_interaction_create``, ``parse_message_create``), as the gateway does.

The OpenAPI description of Discord's API (``shared/specs`` beside the repo)
checks both sides: request bodies the bot sends and the fake's responses.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
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

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:  # loaded by its path (a benchmark, the live-run test)
    sys.path.append(_HERE)
from discord_limits import RateLimits  # noqa: E402

# shared/specs beside the repository, or where BST_SPECS_DIR says (a git worktree).
SPECS = Path(
    os.environ.get("BST_SPECS_DIR")
    or Path(__file__).resolve().parents[3] / ".." / "shared" / "specs"
)
SPEC_FILE = SPECS / "discord-api-openapi.json"

APP_ID = 1100000000000000001
BOT_ID = 1100000000000000002
GUILD_ID = 1100000000000000003
CHANNEL_ID = 1100000000000000004
USER_ID = 1100000000000000005
DM_CHANNEL_ID = 1100000000000000006
OTHER_USER_ID = 1100000000000000007
HOST_ROLE_ID = 1100000000000000008

# Every answer comes through Discord's edge (discord.py reads a 429 without it as a
# Cloudflare ban): sent with the rate-limit headers when ``FakeDiscord.limits`` is on.
EDGE = {"Via": "1.1 google"}

MANAGE_GUILD = 1 << 5
# An interaction's token answers for 15 minutes (follow-ups, @original), then 10015.
INTERACTION_TOKEN_LIFETIME = timedelta(minutes=15)
# What Discord computes for an ordinary member: view, send, read history, use commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)

# The bot's permission bits the fake models (Discord's names and values).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
# Everything a game bot needs in its channel, and no more: the default in every channel
# the fake knows. Not MANAGE_THREADS, so a thread a moderator locked stays locked to it.
GAME_BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | MANAGE_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# Channel types (Discord's numbers).
GUILD_TEXT, DM, GUILD_ANNOUNCEMENT = 0, 1, 5
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
# Channels a message can be sent in (voice and stage channels have a text chat too).
TEXT_TYPES = frozenset({GUILD_TEXT, DM, 2, 3, GUILD_ANNOUNCEMENT, 13, *THREAD_TYPES})
AUTO_ARCHIVE_MINUTES = frozenset({60, 1440, 4320, 10080})

# Message types and flags the fake produces.
DEFAULT_MESSAGE, THREAD_CREATED = 0, 18
HAS_THREAD, EPHEMERAL = 1 << 5, 1 << 6
# Interaction types, and the callback types each accepts.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
CALLBACKS_FOR = {
    APPLICATION_COMMAND: frozenset({CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL}),
    MESSAGE_COMPONENT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL}
    ),
    AUTOCOMPLETE: frozenset({AUTOCOMPLETE_RESULT}),
    MODAL_SUBMIT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}
    ),
}
# Component types: an action row holds up to five buttons, or one select (a select is
# as wide as the row).
ACTION_ROW, BUTTON = 1, 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})


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


# ---- Discord's errors ------------------------------------------------------------------
#
# The JSON error codes and texts are Discord's (developers/topics/opcodes-and-status-codes
# in discord/discord-api-docs); where the docs give a description rather than the text
# the API sends, the text is the one observed on the wire (cited beside each).


def discord_error(status: int, code: int, message: str, errors: Any = None) -> Reply:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return json_response(body, status=status)


def unknown_channel() -> Reply:
    return discord_error(404, 10003, "Unknown Channel")


def unknown_message() -> Reply:
    return discord_error(404, 10008, "Unknown Message")


def unknown_webhook() -> Reply:
    # An interaction's webhook exists once the interaction is acknowledged.
    return discord_error(404, 10015, "Unknown Webhook")


def missing_access() -> Reply:
    # Without VIEW_CHANNEL the channel is invisible to the bot: 50001, not 50013.
    return discord_error(403, 50001, "Missing Access")


def missing_permissions() -> Reply:
    return discord_error(403, 50013, "Missing Permissions")


def wrong_channel_type() -> Reply:
    return discord_error(400, 50024, "Cannot execute action on this channel type")


def thread_archived() -> Reply:
    # What Discord answers a send to (or an edit in) an archived thread it will not
    # unarchive for the bot -- one a moderator locked: {"message": "Thread is archived",
    # "code": 50083}, status 400 (discord/discord-api-docs#6884, #5517; 400 as seen in
    # victornpb/undiscord#399).
    return discord_error(400, 50083, "Thread is archived")


def thread_locked() -> Reply:
    # A locked thread that is still active: nobody without MANAGE_THREADS may post
    # (docs, topics/threads "Locked Threads"); code 160005 "Thread is locked".
    return discord_error(400, 160005, "Thread is locked")


def field_error(code: str, message: str) -> dict[str, Any]:
    """One entry of an Invalid Form Body's ``errors`` tree, as Discord writes it."""
    return {"_errors": [{"code": code, "message": message}]}


def too_long(limit: int) -> dict[str, Any]:
    return field_error("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def invalid_form_body(errors: dict[str, Any]) -> Reply:
    """400 50035 with the tree of what was wrong, keyed by field and index.

    Discord's field-level codes are strings (``BASE_TYPE_MAX_LENGTH``); its OpenAPI file
    types them as integers, so only the top level of this body matches the file.
    """
    return discord_error(400, 50035, "Invalid Form Body", errors)


def _put(tree: dict[str, Any], path: tuple[Any, ...], error: dict[str, Any]) -> None:
    node = tree
    for key in path[:-1]:
        node = node.setdefault(str(key), {})
    node.setdefault(str(path[-1]), error)


# ---- components, embeds, mentions: Discord's limits and echoes ------------------------


def component_errors(components: list[dict[str, Any]]) -> dict[str, Any]:
    """Discord's checks of a message's action rows (the classic layout, no v2 flag)."""
    tree: dict[str, Any] = {}
    if len(components) > 5:
        _put(tree, ("components",), too_long(5))
    seen: set[str] = set()
    for r, row in enumerate(components):
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            _put(
                tree,
                ("components", r, "components"),
                field_error("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."),
            )
        elif sum(5 if c.get("type") in SELECT_TYPES else 1 for c in children) > 5:
            _put(
                tree,
                ("components", r, "components"),
                field_error(
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                ),
            )
        for c, child in enumerate(children):
            where = ("components", r, "components", c)
            custom_id = child.get("custom_id")
            if isinstance(custom_id, str):
                if len(custom_id) > 100:
                    _put(tree, (*where, "custom_id"), too_long(100))
                elif custom_id in seen:
                    # As Discord words it (discord/discord-api-docs#3673).
                    _put(
                        tree,
                        (*where, "custom_id"),
                        field_error(
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id was already specified",
                        ),
                    )
                seen.add(custom_id)
            if child.get("type") == BUTTON and len(child.get("label") or "") > 80:
                _put(tree, (*where, "label"), too_long(80))
            if child.get("type") == BUTTON:
                # A link button (style 5) has a url and no custom id; any other button a
                # custom id and no url (Discord: "Link buttons must have a url" etc.).
                link, url = child.get("style") == 5, child.get("url")
                if link and (not isinstance(url, str) or custom_id is not None):
                    _put(tree, (*where, "url"), field_error(
                        "BUTTON_COMPONENT_URL_REQUIRED", "A url is required"))  # fmt: skip
                elif link and (
                    len(url or "") > 512 or not str(url).startswith(("http://", "https://"))
                ):
                    _put(tree, (*where, "url"), field_error(
                        "URL_TYPE_INVALID_URL", "Not a well formed URL."))  # fmt: skip
                elif not link and (url is not None or not isinstance(custom_id, str)):
                    _put(tree, (*where, "custom_id"), field_error(
                        "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required"))  # fmt: skip
    return tree


def _without_nulls(value: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in value.items() if v is not None}


def echo_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord returns them: nulls dropped, every component numbered
    (``id``, depth first, from 1, unless the bot chose one), selects with their defaults."""
    numbers = itertools.count(1)

    def echo(component: dict[str, Any]) -> dict[str, Any]:
        out = _without_nulls(component)
        out["id"] = component.get("id") or next(numbers)
        if component.get("type") in SELECT_TYPES:
            out.setdefault("min_values", 1)
            out.setdefault("max_values", 1)
            if "options" in out:
                out["options"] = [_without_nulls(o) for o in out["options"]]
        if "components" in out:
            out["components"] = [echo(child) for child in out["components"]]
        return out

    return [echo(row) for row in components]


# Embed limits (docs, resources/message "Embed Limits"); counted after trimming.
EMBED_TEXT_LIMITS = {"title": 256, "description": 4096}
EMBED_TOTAL_LIMIT = 6000


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def embed_errors(embeds: list[dict[str, Any]]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    if len(embeds) > 10:
        _put(tree, ("embeds",), too_long(10))
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_TEXT_LIMITS.items():
            text = _text(embed.get(key))
            total += len(text)
            if len(text) > limit:
                _put(tree, ("embeds", i, key), too_long(limit))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            _put(tree, ("embeds", i, "fields"), too_long(25))
        for f, item in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                text = _text(item.get(key))
                total += len(text)
                if len(text) > limit:
                    _put(tree, ("embeds", i, "fields", f, key), too_long(limit))
        for part, key, limit in (("footer", "text", 2048), ("author", "name", 256)):
            text = _text((embed.get(part) or {}).get(key))
            total += len(text)
            if len(text) > limit:
                _put(tree, ("embeds", i, part, key), too_long(limit))
    if total > EMBED_TOTAL_LIMIT and not tree:
        _put(
            tree,
            ("embeds",),
            field_error("MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"),
        )
    return tree


def echo_embed(embed: dict[str, Any], attachments: list[dict[str, Any]]) -> dict[str, Any]:
    """A rich embed as Discord stores it: trimmed, nulls dropped, ``type`` "rich", fields
    with ``inline``, and ``attachment://name`` images pointing at the uploaded file."""
    by_name = {a["filename"]: a for a in attachments}
    out: dict[str, Any] = {"type": embed.get("type") or "rich"}
    for key in ("title", "description", "url", "timestamp"):
        if embed.get(key) is not None:
            out[key] = _text(embed[key]) if key in EMBED_TEXT_LIMITS else embed[key]
    if embed.get("color") is not None:
        out["color"] = embed["color"]
    if embed.get("fields"):
        out["fields"] = [
            {
                "name": _text(f.get("name")),
                "value": _text(f.get("value")),
                "inline": bool(f.get("inline")),
            }
            for f in embed["fields"]
        ]
    for part in ("footer", "author"):
        if embed.get(part):
            out[part] = _without_nulls(embed[part])
    for part in ("image", "thumbnail"):
        url = (embed.get(part) or {}).get("url")
        if url:
            uploaded = by_name.get(url.removeprefix("attachment://"))
            if url.startswith("attachment://") and uploaded is not None:
                out[part] = {"url": uploaded["url"], "proxy_url": uploaded["proxy_url"]}
            else:
                out[part] = {"url": url, "proxy_url": url}
    return out


USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE_MENTION = re.compile(r"@(?:everyone|here)\b")
# What Discord parses when a body carries no allowed_mentions (docs, resources/message
# "Default Settings for Allowed Mentions"): everything in a channel message, only users
# in an interaction response or a webhook message.
PARSE_ALL = ("users", "roles", "everyone")
PARSE_USERS = ("users",)


@dataclass(frozen=True)
class Mentions:
    users: list[int]
    roles: list[int]
    everyone: bool


def mention_errors(allowed: Any) -> dict[str, Any]:
    """``parse`` naming a kind and a non-empty list of that kind: Discord refuses both."""
    tree: dict[str, Any] = {}
    if not isinstance(allowed, dict):
        return tree
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if len(allowed.get(kind) or ()) > 100:
            # Discord lets a message allow at most 100 users and 100 roles.
            _put(
                tree,
                ("allowed_mentions", kind),
                field_error("BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."),
            )
        if kind in parse and allowed.get(kind):
            # The text Discord sends (discord-haskell/discord-haskell#75,
            # Mephisto5558/Teufelsbot#287).
            _put(
                tree,
                ("allowed_mentions",),
                field_error(
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                ),
            )
    return tree


def resolve_mentions(
    content: str, allowed: Any, *, default_parse: tuple[str, ...], may_ping_everyone: bool
) -> Mentions:
    """Who the message notifies, by Discord's rules: a mention must be in the content
    (no "phantom" pings), and ``allowed_mentions`` -- when present -- lets through only
    the kinds in ``parse`` and the ids listed; ``@everyone``/``@here`` needs the
    MENTION_EVERYONE permission besides."""
    if isinstance(allowed, dict):
        parse = tuple(allowed.get("parse") or ())
        listed_users = {str(u) for u in allowed.get("users") or ()}
        listed_roles = {str(r) for r in allowed.get("roles") or ()}
    else:
        parse, listed_users, listed_roles = default_parse, set(), set()
    users = list(dict.fromkeys(int(m) for m in USER_MENTION.findall(content)))
    roles = list(dict.fromkeys(int(m) for m in ROLE_MENTION.findall(content)))
    return Mentions(
        users=[u for u in users if "users" in parse or str(u) in listed_users],
        roles=[r for r in roles if "roles" in parse or str(r) in listed_roles],
        everyone=(
            "everyone" in parse and may_ping_everyone and bool(EVERYONE_MENTION.search(content))
        ),
    )


# ---- interaction tokens --------------------------------------------------------------
#
# Discord's tokens are opaque. The fake's carry what it needs to route an interaction's
# callback and webhook without having seen the interaction: its id, its type, its channel
# and, for a component, the message the component is on.

TOKEN_PATTERN = re.compile(
    r"aW50ZXJhY3Rpb246(?P<id>\d+):(?P<kind>\d+):(?P<channel>\d+):(?P<message>\d+)"
    r":fake-interaction-token"
)


@dataclass(frozen=True)
class InteractionRef:
    interaction_id: int
    kind: int
    channel_id: int
    message_id: int | None


def interaction_token(
    interaction_id: int, *, kind: int, channel_id: int, message_id: int | None = None
) -> str:
    return (
        f"aW50ZXJhY3Rpb246{interaction_id}:{kind}:{channel_id}:{message_id or 0}"
        ":fake-interaction-token"
    )


def read_token(token: str) -> InteractionRef:
    """What the fake's token says; a token made by hand counts as a slash command in
    CHANNEL_ID."""
    found = TOKEN_PATTERN.fullmatch(token)
    if found is None:
        return InteractionRef(0, APPLICATION_COMMAND, CHANNEL_ID, None)
    return InteractionRef(
        int(found["id"]),
        int(found["kind"]),
        int(found["channel"]),
        int(found["message"]) or None,
    )


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
        # Every dispatch of the session (sequence, event, data): a RESUME replays those
        # after the sequence the client names, including any pushed while it was away.
        self.dispatched: list[tuple[int, str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        # Discord no longer resumes the session (it expired): INVALID_SESSION (op 9, d
        # false) answers the RESUME, and the client must IDENTIFY afresh.
        self.refuse_resume = False

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
                # READY names the bot's servers as unavailable; each then arrives whole
                # as a GUILD_CREATE (discord.py waits for them before on_ready).
                await self._dispatch(ws, "READY", {
                    "v": 10,
                    "user": BOT_USER,
                    "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                    "session_id": "fake-session",
                    "resume_gateway_url": self.url,
                    "shard": shard,
                    "application": {"id": str(APP_ID), "flags": 0},
                })  # fmt: skip
                await self._dispatch(ws, "GUILD_CREATE", self.guild_create())
            elif frame["op"] == 6:  # resume: what was missed, then RESUMED
                self.resumes.append(frame["d"])
                if str(frame["d"].get("token", "")).removeprefix("Bot ") != self.token:
                    self.closed_with.append(4004)
                    await ws.close(code=4004, message=b"refused")
                    break
                if self.refuse_resume:
                    await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
                    continue
                after = int(frame["d"].get("seq") or 0)
                for sequence, event, data in self.dispatched:
                    if sequence > after:
                        await ws.send_json({"op": 0, "t": event, "s": sequence, "d": data})
                await self._dispatch(ws, "RESUMED", {})
        if ws in self.sockets:
            self.sockets.remove(ws)
        return ws

    def guild_create(self) -> dict[str, Any]:
        """The server as GUILD_CREATE brings it after READY (its channels and roles)."""
        return {
            "id": str(GUILD_ID),
            "name": "Harbour",
            "icon": None,
            "owner_id": str(OTHER_USER_ID),
            "unavailable": False,
            "joined_at": "2025-01-01T00:00:00+00:00",
            "large": False,
            "member_count": 3,
            "features": [],
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "channels": [
                {
                    "id": str(CHANNEL_ID),
                    "type": GUILD_TEXT,
                    "name": "bst-game",
                    "position": 0,
                    "permission_overwrites": [],
                    "nsfw": False,
                    "parent_id": None,
                    "topic": None,
                    "last_message_id": None,
                    "rate_limit_per_user": 0,
                    "flags": 0,
                }
            ],
            "threads": [],
            "members": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    async def _dispatch(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        sequence = next(self._sequence)
        self.dispatched.append((sequence, event, data))
        await ws.send_json({"op": 0, "t": event, "s": sequence, "d": data})

    async def push(self, event: str, data: Any) -> None:
        """A dispatch to every connected client (an INTERACTION_CREATE, a MESSAGE_CREATE);
        with none connected, kept for the RESUME that follows."""
        if not self.sockets:
            self.dispatched.append((next(self._sequence), event, data))
        for ws in list(self.sockets):
            await self._dispatch(ws, event, data)

    async def drop(self, code: int = 4000) -> None:
        """Close every connection as Discord does when it restarts a gateway node (4000,
        unknown error): the client may RESUME its session."""
        for ws in list(self.sockets):
            self.sockets.remove(ws)
            await ws.close(code=code, message=b"reconnect")


class FakeDiscord:
    """Discord's HTTP API, as far as the bot uses it.

    It keeps a model of the channels (``channels``, ``bot_permissions``) and of what
    appeared in them (``posted``), and answers from it as Discord would, errors included:
    threads, messages with components, embeds and mentions, interaction callbacks and
    their webhooks, edits.
    """

    def __init__(self) -> None:
        self.gateway = FakeGateway(TOKEN)
        self.application_flags = 0  # GATEWAY_MESSAGE_CONTENT is 1 << 18
        # The servers the bot is in, with the bot's permissions there.
        self.guilds: list[dict[str, Any]] = [
            {"id": str(GUILD_ID), "name": "Harbour", "permissions": str(MEMBER_PERMISSIONS)}
        ]
        self.requests: list[Recorded] = []
        self.responses: list[tuple[str, str, Any]] = []  # (operation, status, body)
        # Discord's own refusals (not the scripted ``fail_next`` ones): (method and
        # path, status, body).
        self.refusals: list[tuple[str, int, Any]] = []
        self.failures: list[Failure] = []
        self.history: dict[int, list[dict[str, Any]]] = {}
        self.deleted: list[tuple[int, int]] = []  # (channel id, message id)
        self._ids = itertools.count(1)
        self.base = ""
        # Channel objects as GET /channels/{id} returns them, and the bot's computed
        # permissions in each channel (a thread has none of its own: Discord takes the
        # parent's, threads have no permission overwrites).
        self.channels: dict[int, dict[str, Any]] = {}
        self.bot_permissions: dict[int, int] = {}
        self.add_channel(CHANNEL_ID, name="bst-game")
        self.channels[DM_CHANNEL_ID] = {
            "id": str(DM_CHANNEL_ID),
            "type": DM,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user_payload(USER_ID)],
        }
        # Every message that appeared in a channel, oldest first: the bot's posts,
        # interaction responses and follow-ups, Discord's system messages (type 18 when
        # the bot starts a thread). Edits change them in place and are listed in ``edits``.
        self.posted: dict[int, list[dict[str, Any]]] = {}
        # The members the bot added to each thread (PUT …/thread-members/{user_id}).
        self.thread_members: dict[int, list[int]] = {}
        self.edits: list[tuple[int, int, dict[str, Any]]] = []  # (channel, message, body)
        self._notified: dict[int, list[int]] = {}  # message id -> users pinged when posted
        # Interaction token -> the callback that acknowledged it, and the message that
        # is its "@original" once there is one.
        self.callbacks: dict[str, int] = {}
        self._originals: dict[str, int] = {}
        # Discord's cap on active (unarchived) threads per server (160006 beyond it), and
        # the PATCH /channels/{id} bodies the bot sent to threads (archiving them).
        self.active_thread_limit = 1000
        # The application's commands as Discord holds them (None: global; else a server).
        self.registered: dict[str | None, list[dict[str, Any]]] = {}
        # Nonces the bot sent with enforce_nonce, by channel: the message each posted.
        self._nonces: dict[tuple[int, str], dict[str, Any]] = {}
        self._deferred_flags: dict[str, int] = {}  # interaction token → EPHEMERAL or 0
        self._dm_channels: dict[int, int] = {}  # user id → their DM channel's id
        # Requests Discord carries out whose answer never reaches the bot (the connection
        # drops): (method, path pattern), each used once.
        self.lost: list[tuple[str, re.Pattern[str]]] = []
        self.modified: list[tuple[int, dict[str, Any]]] = []
        # New DM channels Discord lets a bot open: at most this many in this many seconds,
        # then 403 40003 "You are opening direct messages too fast".
        self.dm_open_limit: tuple[int, float] = (20, 10.0)
        self._dm_opens: list[float] = []
        # The clock that window is counted on (a test on a virtual clock gives its own).
        self.clock: Callable[[], float] = time.monotonic
        # Discord's global limit and route buckets (:mod:`discord_limits`), when a test
        # or benchmark switches them on; the requests they refused with 429.
        self.limits: RateLimits | None = None
        self.rate_limited: list[Recorded] = []
        # A benchmark sending thousands of pictures keeps their sizes, not their bytes.
        self.keep_files = True
        # Discord's round trip as the bot meets it (about 100 ms from most hosts): each
        # answer waits this long, so reading one channel after another shows its cost.
        # ``most_in_flight``: the most requests the fake held at once.
        self.latency = 0.0
        self.in_flight = 0
        self.most_in_flight = 0

    # ---- scripting ----------------------------------------------------------------

    def snowflake(self, moment: datetime | None = None) -> int:
        moment = moment or datetime.now(UTC)
        return discord.utils.time_snowflake(moment) + next(self._ids)

    def fail_next(
        self, method: str, path: str, status: int, body: Any, headers: dict[str, str] | None = None
    ) -> None:
        """The next request matching ``method`` and the ``path`` regex gets this error."""
        self.failures.append(Failure(method, re.compile(path), status, body, headers or {}))

    def dm_channel_of(self, user_id: int) -> dict[str, Any]:
        """The one DM channel between the bot and ``user_id`` (Discord keeps one per user:
        opening it again gives the same). USER_ID's is DM_CHANNEL_ID."""
        channel_id = DM_CHANNEL_ID if user_id == USER_ID else self._dm_channels.get(user_id)
        if channel_id is None:
            channel_id = self._dm_channels[user_id] = self.snowflake()
        channel = self.channels.setdefault(
            channel_id,
            {
                "id": str(channel_id),
                "type": DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [user_payload(user_id)],
            },
        )
        return channel

    def lose_next(self, method: str, path: str) -> None:
        """The next request matching the ``method`` and ``path`` regexes is carried out, and
        its answer lost on the way back (the connection drops)."""
        self.lost.append((method, re.compile(path)))

    def answer_lost(self, method: str, path: str) -> bool:
        for lost in self.lost:
            if re.fullmatch(lost[0], method) and lost[1].fullmatch(path):
                self.lost.remove(lost)
                return True
        return False

    def requests_to(self, method: str, path: str) -> list[Recorded]:
        pattern = re.compile(path)
        return [r for r in self.requests if r.method == method and pattern.fullmatch(r.path)]

    def add_channel(
        self,
        channel_id: int | None = None,
        *,
        name: str = "bst-game",
        channel_type: int = GUILD_TEXT,
        guild_id: int = GUILD_ID,
        permissions: int = GAME_BOT_PERMISSIONS,
    ) -> dict[str, Any]:
        """A guild channel (text by default) where the bot has ``permissions``."""
        channel_id = channel_id or self.snowflake()
        channel: dict[str, Any] = {
            "id": str(channel_id),
            "type": channel_type,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "topic": None,
            "flags": 0,
            "default_auto_archive_duration": 1440,
        }
        self.channels[channel_id] = channel
        self.bot_permissions[channel_id] = permissions
        return channel

    def add_thread(
        self,
        parent_id: int = CHANNEL_ID,
        *,
        thread_id: int | None = None,
        name: str = "game",
        channel_type: int = PUBLIC_THREAD,
        owner_id: int = BOT_ID,
        archived: bool = False,
        locked: bool = False,
        auto_archive_duration: int = 1440,
    ) -> dict[str, Any]:
        """A thread that already exists under ``parent_id`` (started by ``owner_id``)."""
        parent = self.channels[parent_id]
        thread = self._new_thread(
            thread_id or self.snowflake(),
            parent,
            name=name,
            channel_type=channel_type,
            owner_id=owner_id,
            auto_archive_duration=auto_archive_duration,
        )
        if archived or locked:
            self.archive(int(thread["id"]), locked=locked, archived=archived)
        return thread

    def archive(self, thread_id: int, locked: bool = False, *, archived: bool = True) -> None:
        """Archive a thread (as inactivity or a moderator does), locked or not."""
        metadata = self.channels[thread_id]["thread_metadata"]
        metadata.update(archived=archived, locked=locked, archive_timestamp=iso(datetime.now(UTC)))

    def permissions_in(self, channel_id: int) -> int | None:
        """The bot's permissions where a message would go; None in a DM (no permissions)."""
        channel = self.channels.get(channel_id)
        if channel is None or channel["type"] == DM:
            return None
        if channel["type"] in THREAD_TYPES:
            return self.bot_permissions.get(int(channel["parent_id"]), 0)
        return self.bot_permissions.get(channel_id, 0)

    def pinged(self, channel_id: int) -> list[list[int]]:
        """Per message that appeared in the channel, the users it notified when posted."""
        return [self._notified.get(int(m["id"]), []) for m in self.posted.get(channel_id, [])]

    def interaction_payload(
        self, subcommand: str, options: list[dict[str, Any]] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """:func:`interaction_payload` in a channel of this fake (a thread too), with the
        bot's permissions there as ``app_permissions``."""
        return interaction_payload(subcommand, options, **self._where(kwargs))

    def component_payload(
        self, custom_id: str, *, message: dict[str, Any], **kwargs: Any
    ) -> dict[str, Any]:
        """:func:`component_payload` for a message this fake holds, with its channel and
        the bot's permissions there."""
        kwargs.setdefault("channel_id", int(message["channel_id"]))
        return component_payload(custom_id, message=message, **self._where(kwargs))

    def _where(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        guild = kwargs.get("guild", True)
        channel_id = kwargs.get("channel_id") or (CHANNEL_ID if guild else DM_CHANNEL_ID)
        channel = self.channels.get(channel_id)
        if guild and channel is not None and channel["type"] != DM:
            kwargs.setdefault("channel", channel)
            kwargs.setdefault("app_permissions", self.permissions_in(channel_id))
        return kwargs

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
            "type": DEFAULT_MESSAGE,
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
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.latency:
                await asyncio.sleep(self.latency)
            return await self._handle_now(request)
        finally:
            self.in_flight -= 1

    async def _handle_now(self, request: web.Request) -> web.StreamResponse:
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
        if self.answer_lost(request.method, path) and request.transport is not None:
            request.transport.close()  # done, and the answer never reaches the bot
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
        """Record one request (whatever carried it) and answer it, or fail it as scripted
        (or, with ``limits`` on, refuse it with 429 as Discord's rate limits do)."""
        kept = files if self.keep_files else [(n, f, b"") for n, f, _ in files]
        recorded = Recorded(method, path, query, body, kept, authorization)
        self.requests.append(recorded)
        if self.limits is not None:
            refused = self.limits.admit(method, path)
            if refused is not None:
                self.rate_limited.append(recorded)
                status, headers, error = refused
                return json_response(error, status=status, headers={**headers, **EDGE})
            reply = self._scripted_or_answered(method, path, query, body, files)
            reply.headers.update({**self.limits.headers(method, path), **EDGE})
            return reply
        return self._scripted_or_answered(method, path, query, body, files)

    def _scripted_or_answered(
        self, method: str, path: str, query: Any, body: Any, files: list[tuple[str, str, bytes]]
    ) -> Reply:
        for failure in self.failures:
            if failure.method == method and failure.path.fullmatch(path):
                self.failures.remove(failure)
                return json_response(failure.body, status=failure.status, headers=failure.headers)
        reply = self._answer(method, path, query, body, files)
        if reply.status >= 400:
            self.refusals.append(
                (f"{method} {path}", reply.status, json.loads(reply.body or b"{}"))
            )
        return reply

    def _ok(self, operation: str, payload: Any, status: int = 200) -> Reply:
        # A copy: the fake's messages and channels change later (edits, archiving).
        self.responses.append((operation, str(status), copy.deepcopy(payload)))
        if status == 204:
            return Reply(204, None)
        return json_response(payload, status=status)

    def _answer(
        self, method: str, path: str, query: Any, body: Any, files: list[tuple[str, str, bytes]]
    ) -> Reply:
        if method == "GET" and path == "/users/@me":
            return self._ok("GET /users/@me", BOT_ME)
        if method == "GET" and path == "/users/@me/guilds":
            # Discord: at most `limit` (1–200, default 200) servers, by id, after `after`.
            limit = int(query.get("limit", 200))
            if not 1 <= limit <= 200:
                return invalid_form_body(
                    {"limit": field_error("NUMBER_TYPE_MAX", "int value should be <= 200.")}
                )
            after = int(query.get("after", 0))
            ordered = sorted(self.guilds, key=lambda guild: int(guild["id"]))
            page = [guild for guild in ordered if int(guild["id"]) > after][:limit]
            return self._ok(
                "GET /users/@me/guilds",
                [
                    {"icon": None, "banner": None, "owner": False, "features": [], **guild}
                    for guild in page
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
            return self._callback(m.group(2), body or {}, query, files)
        if m := re.fullmatch(r"/webhooks/\d+/([^/]+)/messages/@original", path):
            if method == "DELETE":
                return self._delete_original(m.group(1))
            if method == "PATCH":
                return self._edit_original(m.group(1), body or {}, files)
        if (m := re.fullmatch(r"/webhooks/(\d+)/([^/]+)", path)) and method == "POST":
            return self._follow_up(int(m.group(1)), m.group(2), body or {}, files)
        if (m := re.fullmatch(r"/channels/(\d+)", path)) and method == "GET":
            return self._get_channel(int(m.group(1)))
        if (m := re.fullmatch(r"/channels/(\d+)", path)) and method == "PATCH":
            return self._modify_thread(int(m.group(1)), body or {})
        if (m := re.fullmatch(r"/channels/(\d+)/threads", path)) and method == "POST":
            return self._start_thread(int(m.group(1)), body or {})
        if (
            m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", path)
        ) and method == "POST":
            return self._start_thread_from(int(m.group(1)), int(m.group(2)), body or {})
        if (m := re.fullmatch(r"/channels/(\d+)/messages", path)) and method == "POST":
            return self._create_message(int(m.group(1)), body or {}, files)
        if (m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)) and method == "PATCH":
            return self._edit_message(int(m.group(1)), int(m.group(2)), body or {}, files)
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
            now = self.clock()
            count, window = self.dm_open_limit
            self._dm_opens = [t for t in self._dm_opens if now - t < window]
            if len(self._dm_opens) >= count:
                # Discord's anti-spam answer to a burst of new DMs (no published figure;
                # davidhozic/discord-advertisement-framework#82 shows the response).
                return discord_error(403, 40003, "You are opening direct messages too fast.")
            self._dm_opens.append(now)
            return self._ok(
                "POST /users/@me/channels", self.dm_channel_of(int(body["recipient_id"]))
            )
        if method == "PUT" and re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", path):
            return self._put_commands(path, body)
        if method == "GET" and (
            m := re.fullmatch(r"/applications/\d+(?:/guilds/(\d+))?/commands", path)
        ):
            operation = (
                "GET /applications/{application_id}/guilds/{guild_id}/commands"
                if m.group(1)
                else "GET /applications/{application_id}/commands"
            )
            return self._ok(operation, self.registered.get(m.group(1), []))
        if method == "PUT" and (m := re.fullmatch(r"/channels/(\d+)/thread-members/(\d+)", path)):
            return self._add_thread_member(int(m.group(1)), int(m.group(2)))
        if method == "DELETE" and (
            m := re.fullmatch(r"/channels/(\d+)/thread-members/(\d+)", path)
        ):
            return self._remove_thread_member(int(m.group(1)), int(m.group(2)))
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    def _add_thread_member(self, thread_id: int, user_id: int) -> Reply:
        """PUT /channels/{id}/thread-members/{user_id}: Discord adds a member to a thread
        that is not archived, for a bot that may send messages in it; 204, also when the
        user is a member already."""
        thread = self.channels.get(thread_id)
        if thread is None:
            return unknown_channel()
        if thread["type"] not in THREAD_TYPES:
            return wrong_channel_type()
        if thread["thread_metadata"]["archived"]:
            return thread_archived()
        permissions = self.permissions_in(thread_id) or 0
        if not permissions & SEND_MESSAGES_IN_THREADS:
            return missing_permissions()
        members = self.thread_members.setdefault(thread_id, [])
        if user_id not in members:
            members.append(user_id)
            thread["member_count"] = len(members) + 1  # and the bot
        return self._ok("PUT /channels/{channel_id}/thread-members/{user_id}", None, 204)

    def _remove_thread_member(self, thread_id: int, user_id: int) -> Reply:
        """DELETE /channels/{id}/thread-members/{user_id}: removing someone else needs
        MANAGE_THREADS, or the bot to have started the (private) thread... for a public
        thread Discord lets the bot remove members it may send to; 204, also when the
        user was no member. Archived: refused."""
        thread = self.channels.get(thread_id)
        if thread is None:
            return unknown_channel()
        if thread["type"] not in THREAD_TYPES:
            return wrong_channel_type()
        if thread["thread_metadata"]["archived"]:
            return thread_archived()
        permissions = self.permissions_in(thread_id) or 0
        if not (permissions & MANAGE_THREADS or thread["owner_id"] == str(BOT_ID)):
            return missing_permissions()
        members = self.thread_members.setdefault(thread_id, [])
        if user_id in members:
            members.remove(user_id)
            thread["member_count"] = len(members) + 1
        return self._ok("DELETE /channels/{channel_id}/thread-members/{user_id}", None, 204)

    # ---- commands -----------------------------------------------------------------

    def _put_commands(self, path: str, body: Any) -> Reply:
        guild = re.search(r"/guilds/(\d+)/", path)
        # Only a top-level command has default_member_permissions (docs, interactions/
        # application-commands "Permissions"): one on a subcommand would do nothing, so
        # the fake refuses it rather than let it pass unnoticed.
        errors: dict[str, Any] = {}
        for c, command in enumerate(body):
            for path_to, option in _options_of(command.get("options") or [], (c, "options")):
                if "default_member_permissions" in option:
                    _put(
                        errors,
                        (*path_to, "default_member_permissions"),
                        field_error(
                            "UNKNOWN_FIELD",
                            "Only top-level commands take default_member_permissions",
                        ),
                    )
        if errors:
            return invalid_form_body(errors)
        answered = []
        for command in body:
            permissions = command.get("default_member_permissions")
            answered.append(
                {
                    **command,
                    "id": str(self.snowflake()),
                    "application_id": str(APP_ID),
                    "version": str(self.snowflake()),
                    # Sent as a number or a string; Discord answers a string (or null).
                    "default_member_permissions": None if permissions is None else str(permissions),
                    # Discord fills the default: installable to servers.
                    "integration_types": command.get("integration_types") or [0],
                    **({"guild_id": guild.group(1)} if guild else {}),
                }
            )
        self.registered[guild.group(1) if guild else None] = answered
        operation = (
            "PUT /applications/{application_id}/guilds/{guild_id}/commands"
            if guild
            else "PUT /applications/{application_id}/commands"
        )
        return self._ok(operation, answered)

    # ---- channels and threads -----------------------------------------------------

    def _get_channel(self, channel_id: int) -> Reply:
        channel = self.channels.get(channel_id)
        if channel is None:
            return unknown_channel()
        permissions = self.permissions_in(channel_id)
        if permissions is not None and not permissions & VIEW_CHANNEL:
            return missing_access()
        return self._ok("GET /channels/{channel_id}", channel)

    def _new_thread(
        self,
        thread_id: int,
        parent: dict[str, Any],
        *,
        name: str,
        channel_type: int,
        owner_id: int,
        auto_archive_duration: int,
        invitable: bool = True,
    ) -> dict[str, Any]:
        now = iso(datetime.now(UTC))
        thread: dict[str, Any] = {
            "id": str(thread_id),
            "type": channel_type,
            "guild_id": parent["guild_id"],
            "parent_id": parent["id"],
            "owner_id": str(owner_id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": auto_archive_duration,
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
            },
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
        }
        if channel_type == PRIVATE_THREAD:
            thread["thread_metadata"]["invitable"] = invitable
        if owner_id == BOT_ID:
            # The thread's starter is its first member; GET /channels/{id} shows the
            # bot its own membership.
            thread["member"] = {
                "id": str(thread_id),
                "user_id": str(BOT_ID),
                "join_timestamp": now,
                "flags": 0,
            }
        self.channels[thread_id] = thread
        return thread

    def _thread_form_errors(self, body: dict[str, Any]) -> dict[str, Any]:
        errors: dict[str, Any] = {}
        name = body.get("name")
        if not name:
            _put(errors, ("name",), field_error("BASE_TYPE_REQUIRED", "This field is required"))
        elif len(name) > 100:
            _put(errors, ("name",), too_long(100))
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in AUTO_ARCHIVE_MINUTES:
            _put(
                errors,
                ("auto_archive_duration",),
                field_error("BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}."),
            )
        return errors

    def _thread_parent_refusal(self, parent: dict[str, Any] | None, needed: int) -> Reply | None:
        """Why Discord would not start a thread here, or None."""
        if parent is None:
            return unknown_channel()
        # Threads grow in text and announcement channels only: not in a DM, not in a
        # thread (no threads in threads).
        if parent["type"] not in (GUILD_TEXT, GUILD_ANNOUNCEMENT):
            return wrong_channel_type()
        permissions = self.permissions_in(int(parent["id"])) or 0
        if not permissions & VIEW_CHANNEL:
            return missing_access()
        if not permissions & needed:
            return missing_permissions()
        return None

    def _start_thread(self, parent_id: int, body: dict[str, Any]) -> Reply:
        """POST /channels/{id}/threads: a thread with no starter message."""
        parent = self.channels.get(parent_id)
        # Without `type` Discord (API v10) starts a private thread.
        channel_type = body.get("type") or PRIVATE_THREAD
        if parent is not None and parent["type"] == GUILD_ANNOUNCEMENT:
            channel_type = ANNOUNCEMENT_THREAD
        needed = CREATE_PRIVATE_THREADS if channel_type == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        refusal = self._thread_parent_refusal(parent, needed)
        if refusal is not None:
            return refusal
        assert parent is not None
        if errors := self._thread_form_errors(body):
            return invalid_form_body(errors)
        if (cap := self._thread_cap_refusal(parent)) is not None:
            return cap
        thread = self._new_thread(
            self.snowflake(),
            parent,
            name=body["name"],
            channel_type=channel_type,
            owner_id=BOT_ID,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=body.get("invitable", True) is not False,
        )
        # Discord says so in the parent: a THREAD_CREATED system message by the thread's
        # starter, its content the thread's name, referring to the thread.
        notice = self.message(parent_id, thread["name"])
        notice.update(
            type=THREAD_CREATED,
            message_reference={
                "type": 0,
                "channel_id": thread["id"],
                "guild_id": thread["guild_id"],
            },
        )
        self._record(parent_id, notice, notified=[])
        return self._ok("POST /channels/{channel_id}/threads", thread, 201)

    def _start_thread_from(self, parent_id: int, message_id: int, body: dict[str, Any]) -> Reply:
        """POST /channels/{id}/messages/{id}/threads: the thread takes the message's id."""
        parent = self.channels.get(parent_id)
        refusal = self._thread_parent_refusal(parent, CREATE_PUBLIC_THREADS)
        if refusal is not None:
            return refusal
        assert parent is not None
        starter = self._find_message(parent_id, message_id)
        if starter is None:
            return unknown_message()
        if starter["flags"] & HAS_THREAD:
            return discord_error(400, 160004, "A thread has already been created for this message")
        if errors := self._thread_form_errors(body):
            return invalid_form_body(errors)
        if (cap := self._thread_cap_refusal(parent)) is not None:
            return cap
        thread = self._new_thread(
            message_id,
            parent,
            name=body["name"],
            channel_type=(
                ANNOUNCEMENT_THREAD if parent["type"] == GUILD_ANNOUNCEMENT else PUBLIC_THREAD
            ),
            owner_id=BOT_ID,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
        )
        starter["flags"] |= HAS_THREAD
        starter["thread"] = {k: v for k, v in thread.items() if k != "member"}
        return self._ok("POST /channels/{channel_id}/messages/{message_id}/threads", thread, 201)

    def _thread_cap_refusal(self, parent: dict[str, Any]) -> Reply | None:
        """Discord's 1,000 active (unarchived) threads per server: the next is refused
        (400, 160006) until one is archived."""
        active = sum(
            1
            for channel in self.channels.values()
            if channel["type"] in THREAD_TYPES
            and channel["guild_id"] == parent["guild_id"]
            and not channel["thread_metadata"]["archived"]
        )
        if active >= self.active_thread_limit:
            return discord_error(400, 160006, "Maximum number of active threads reached")
        return None

    def _modify_thread(self, channel_id: int, body: dict[str, Any]) -> Reply:
        """PATCH /channels/{id} on a thread: its creator (or MANAGE_THREADS) may archive it;
        only MANAGE_THREADS may lock it or open a locked one."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return unknown_channel()
        if channel["type"] not in THREAD_TYPES:
            return missing_permissions()  # (the fake models threads only)
        moderator = bool((self.permissions_in(channel_id) or 0) & MANAGE_THREADS)
        metadata = channel["thread_metadata"]
        owner = channel["owner_id"] == str(BOT_ID)
        if not moderator and (body.get("locked") or metadata["locked"] or not owner):
            return missing_permissions()
        for key in ("archived", "locked"):
            if key in body:
                metadata[key] = bool(body[key])
        metadata["archive_timestamp"] = iso(datetime.now(UTC))
        self.modified.append((channel_id, dict(body)))
        return self._ok("PATCH /channels/{channel_id}", channel)

    def _thread_refusal(
        self, channel: dict[str, Any], permissions: int | None, *, editing: bool = False
    ) -> Reply | None:
        """Why Discord would not let the bot post (or edit) in this thread, or None.

        A message unarchives an archived thread (``_wake``), unless a moderator locked it:
        then only MANAGE_THREADS may. An edit never unarchives.
        """
        if channel["type"] not in THREAD_TYPES:
            return None
        metadata = channel["thread_metadata"]
        moderator = permissions is not None and bool(permissions & MANAGE_THREADS)
        if metadata["archived"] and (editing or (metadata["locked"] and not moderator)):
            return thread_archived()
        if metadata["locked"] and not moderator:
            return thread_locked()
        return None

    def _wake(self, channel: dict[str, Any]) -> None:
        if channel["type"] in THREAD_TYPES and channel["thread_metadata"]["archived"]:
            channel["thread_metadata"].update(
                archived=False, archive_timestamp=iso(datetime.now(UTC))
            )

    # ---- messages -----------------------------------------------------------------

    def _find_message(self, channel_id: int, message_id: int) -> dict[str, Any] | None:
        for message in [*self.posted.get(channel_id, []), *self.history.get(channel_id, [])]:
            if int(message["id"]) == message_id:
                return message
        return None

    def _record(self, channel_id: int, message: dict[str, Any], *, notified: list[int]) -> None:
        self.posted.setdefault(channel_id, []).append(message)
        self._notified[int(message["id"])] = notified
        channel = self.channels.get(channel_id)
        if channel is not None:
            channel["last_message_id"] = message["id"]
            if channel["type"] in THREAD_TYPES and message["type"] == DEFAULT_MESSAGE:
                channel["message_count"] += 1
                channel["total_message_sent"] += 1

    def _form_errors(self, body: dict[str, Any], *, content_limit: int) -> dict[str, Any]:
        errors: dict[str, Any] = {}
        content = body.get("content")
        if isinstance(content, str) and len(content) > content_limit:
            _put(errors, ("content",), too_long(content_limit))
        errors.update(component_errors(body.get("components") or []))
        errors.update(embed_errors(body.get("embeds") or []))
        errors.update(mention_errors(body.get("allowed_mentions")))
        return errors

    def _compose(
        self,
        message: dict[str, Any],
        body: dict[str, Any],
        *,
        embeds_allowed: bool,
        default_parse: tuple[str, ...],
        may_ping_everyone: bool,
    ) -> list[int]:
        """Put the body's content, embeds, components and mentions on ``message`` (a new
        one, or one being edited: only the fields the body names change). Returns the
        users notified."""
        if "content" in body:
            message["content"] = body["content"] or ""
        if "components" in body:
            message["components"] = echo_components(body["components"] or [])
        if "embeds" in body:
            # Without EMBED_LINKS Discord drops the embeds and posts the rest, silently.
            embeds = (body["embeds"] or []) if embeds_allowed else []
            message["embeds"] = [echo_embed(e, message["attachments"]) for e in embeds]
        mentions = resolve_mentions(
            message["content"],
            body.get("allowed_mentions"),
            default_parse=default_parse,
            may_ping_everyone=may_ping_everyone,
        )
        message["mentions"] = [self._user(u) for u in mentions.users]
        message["mention_roles"] = [str(r) for r in mentions.roles]
        message["mention_everyone"] = mentions.everyone
        return mentions.users

    @staticmethod
    def _user(user_id: int) -> dict[str, Any]:
        names = {USER_ID: "ahab", OTHER_USER_ID: "ishmael", BOT_ID: "bst"}
        return user_payload(user_id, names.get(user_id, f"user{user_id}"), bot=user_id == BOT_ID)

    def _publish(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes]],
        *,
        embeds_allowed: bool = True,
        default_parse: tuple[str, ...],
        webhook_id: int | None = None,
    ) -> dict[str, Any] | Reply:
        """A message appears in the channel, or Discord's 400 says why not."""
        content_limit = 2000
        if errors := self._form_errors(body, content_limit=content_limit):
            return invalid_form_body(errors)
        if not (body.get("content") or body.get("embeds") or body.get("components") or files):
            return discord_error(400, 50006, "Cannot send an empty message")
        channel = self.channels.get(channel_id)
        if channel is not None:
            self._wake(channel)
        permissions = self.permissions_in(channel_id)
        message = self.message(
            channel_id,
            "",
            flags=body.get("flags") or 0,
            nonce=body.get("nonce"),
            webhook_id=webhook_id,
            files=files,
        )
        notified = self._compose(
            message,
            {**body, "content": body.get("content") or ""},
            embeds_allowed=embeds_allowed,
            default_parse=default_parse,
            may_ping_everyone=permissions is not None and bool(permissions & MENTION_EVERYONE),
        )
        self._record(channel_id, message, notified=notified)
        return message

    def _create_message(
        self, channel_id: int, body: dict[str, Any], files: list[tuple[str, str, bytes]]
    ) -> Reply:
        """POST /channels/{id}/messages: the bot's own message, under its permissions."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return unknown_channel()
        if channel["type"] not in TEXT_TYPES:
            return discord_error(400, 50008, "Cannot send messages in a non-text channel")
        permissions = self.permissions_in(channel_id)
        if permissions is not None:
            if not permissions & VIEW_CHANNEL:
                return missing_access()
            # In a thread the parent's SEND_MESSAGES_IN_THREADS counts, not SEND_MESSAGES.
            needed = SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES
            if not permissions & needed:
                return missing_permissions()
            if files and not permissions & ATTACH_FILES:
                return missing_permissions()
        refusal = self._thread_refusal(channel, permissions)
        if refusal is not None:
            return refusal
        # Discord: with enforce_nonce, a nonce the author used in this channel in the last
        # few minutes answers with that message instead of posting another.
        nonce = body.get("nonce")
        seen = (channel_id, str(nonce))
        if nonce is not None and body.get("enforce_nonce") and seen in self._nonces:
            return self._ok("POST /channels/{channel_id}/messages", self._nonces[seen])
        posted = self._publish(
            channel_id,
            body,
            files,
            embeds_allowed=permissions is None or bool(permissions & EMBED_LINKS),
            default_parse=PARSE_ALL,
        )
        if isinstance(posted, Reply):
            return posted
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[seen] = posted
        return self._ok("POST /channels/{channel_id}/messages", posted)

    def _edit(
        self,
        channel_id: int,
        message: dict[str, Any],
        body: dict[str, Any],
        files: list[tuple[str, str, bytes]],
        *,
        default_parse: tuple[str, ...],
        embeds_allowed: bool = True,
    ) -> dict[str, Any] | Reply:
        if errors := self._form_errors(body, content_limit=2000):
            return invalid_form_body(errors)
        if "attachments" in body:
            # The attachments listed stay; the others go; new files join.
            kept = {str(a.get("id")) for a in body["attachments"] or []}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in kept]
        if files:
            message["attachments"] += self.message(channel_id, "", files=files)["attachments"]
        if body.get("flags") is not None:
            message["flags"] = (message["flags"] & ~4) | (body["flags"] & 4)  # SUPPRESS_EMBEDS
        permissions = self.permissions_in(channel_id)
        self._compose(
            message,
            body,
            embeds_allowed=embeds_allowed,
            default_parse=default_parse,
            may_ping_everyone=permissions is not None and bool(permissions & MENTION_EVERYONE),
        )
        message["edited_timestamp"] = iso(datetime.now(UTC))
        self.edits.append((channel_id, int(message["id"]), body))
        return message

    def _edit_message(
        self,
        channel_id: int,
        message_id: int,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes]],
    ) -> Reply:
        """PATCH /channels/{id}/messages/{id}: the bot edits one of its messages."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return unknown_channel()
        message = self._find_message(channel_id, message_id)
        if message is None:
            return unknown_message()
        permissions = self.permissions_in(channel_id)
        if permissions is not None and not permissions & VIEW_CHANNEL:
            return missing_access()
        if message["author"]["id"] != str(BOT_ID):
            return discord_error(403, 50005, "Cannot edit a message authored by another user")
        refusal = self._thread_refusal(channel, permissions, editing=True)
        if refusal is not None:
            return refusal
        edited = self._edit(
            channel_id,
            message,
            body,
            files,
            default_parse=PARSE_ALL,
            embeds_allowed=permissions is None or bool(permissions & EMBED_LINKS),
        )
        if isinstance(edited, Reply):
            return edited
        return self._ok("PATCH /channels/{channel_id}/messages/{message_id}", edited)

    # ---- interactions -------------------------------------------------------------

    def _interaction_refusal(self, channel_id: int, *, status: int) -> Reply | None:
        # A response in a thread a moderator locked and archived fails (discord/
        # discord-api-docs#6884; a 403 for the callback itself, #7707).
        channel = self.channels.get(channel_id)
        if channel is None or channel["type"] not in THREAD_TYPES:
            return None
        metadata = channel["thread_metadata"]
        if metadata["archived"] and metadata["locked"]:
            return discord_error(status, 50083, "Thread is archived")
        return None

    def _callback(
        self,
        token: str,
        body: dict[str, Any],
        query: Any,
        files: list[tuple[str, str, bytes]],
    ) -> Reply:
        """The interaction's one acknowledgement: a message (4), a deferral (5), a silent
        deferral of a component's message (6), an update of it (7), choices (8), a modal."""
        ref = read_token(token)
        callback = body.get("type")
        if token in self.callbacks:
            return discord_error(400, 40060, "Interaction has already been acknowledged.")
        if callback not in CALLBACKS_FOR.get(ref.kind, frozenset()):
            # (The fake's wording: Discord's own text for this refusal is not documented.)
            return invalid_form_body(
                {
                    "type": field_error(
                        "INTERACTION_CALLBACK_TYPE_INVALID",
                        f"Callback type {callback} is not valid for an interaction of type "
                        f"{ref.kind}",
                    )
                }
            )
        if callback in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            refusal = self._interaction_refusal(ref.channel_id, status=403)
            if refusal is not None:
                return refusal
        data = body.get("data") or {}
        resource: dict[str, Any] | None = None
        if callback == CHANNEL_MESSAGE:
            posted = self._publish(
                ref.channel_id, data, files, default_parse=PARSE_USERS, webhook_id=APP_ID
            )
            if isinstance(posted, Reply):
                return posted
            self._originals[token] = int(posted["id"])
            resource = {"type": CHANNEL_MESSAGE, "message": posted}
        elif callback == UPDATE_MESSAGE:
            message = self._find_message(ref.channel_id, ref.message_id) if ref.message_id else None
            if message is None:
                return unknown_message()
            edited = self._edit(ref.channel_id, message, data, files, default_parse=PARSE_USERS)
            if isinstance(edited, Reply):
                return edited
            self._originals[token] = int(edited["id"])
            resource = {"type": UPDATE_MESSAGE, "message": edited}
        self.callbacks[token] = callback
        if callback == DEFERRED_CHANNEL_MESSAGE:
            # The "thinking…" placeholder keeps the deferral's visibility: its answer too.
            self._deferred_flags[token] = int(data.get("flags") or 0) & EPHEMERAL
        operation = "POST /interactions/{interaction_id}/{interaction_token}/callback"
        if str(query.get("with_response", "")).lower() not in ("1", "true"):
            # Without ?with_response Discord answers 204 and no body.
            return self._ok(operation, None, 204)
        interaction: dict[str, Any] = {
            "id": str(ref.interaction_id or 0),
            "type": ref.kind,
            "response_message_loading": callback == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
        }
        answer: dict[str, Any] = {"interaction": interaction}
        if resource is not None:
            interaction["response_message_id"] = resource["message"]["id"]
            answer["resource"] = resource
        return self._ok(operation, answer)

    @staticmethod
    def _token_expired(token: str) -> bool:
        """An interaction's token works for 15 minutes after the interaction (Discord's
        rule); "now" is discord.py's own clock (a test on a virtual clock moves both)."""
        ref = read_token(token)
        if not ref.interaction_id:
            return False
        born = discord.utils.snowflake_time(ref.interaction_id)
        return discord.utils.utcnow() - born > INTERACTION_TOKEN_LIFETIME

    def _follow_up(
        self, webhook_id: int, token: str, body: dict[str, Any], files: list[tuple[str, str, bytes]]
    ) -> Reply:
        """POST /webhooks/{app}/{token}: a follow-up, in the interaction's channel."""
        if token not in self.callbacks or self._token_expired(token):
            return unknown_webhook()
        ref = read_token(token)
        refusal = self._interaction_refusal(ref.channel_id, status=400)
        if refusal is not None:
            return refusal
        # A webhook message: no bot permissions apply, mentions default to users only.
        posted = self._publish(
            ref.channel_id, body, files, default_parse=PARSE_USERS, webhook_id=webhook_id
        )
        if isinstance(posted, Reply):
            return posted
        return self._ok("POST /webhooks/{webhook_id}/{webhook_token}", posted)

    def _edit_original(
        self, token: str, body: dict[str, Any], files: list[tuple[str, str, bytes]]
    ) -> Reply:
        """PATCH @original: the response message -- for a deferral (5), the first edit is
        the answer; for a component's 6 or 7, the component's own message."""
        callback = self.callbacks.get(token)
        if callback is None or self._token_expired(token):
            return unknown_webhook()
        ref = read_token(token)
        operation = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
        message_id = self._originals.get(token)
        if message_id is None and callback in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            message_id = ref.message_id
        if message_id is None and callback == DEFERRED_CHANNEL_MESSAGE:
            refusal = self._interaction_refusal(ref.channel_id, status=400)
            if refusal is not None:
                return refusal
            flags = int(body.get("flags") or 0) | self._deferred_flags.get(token, 0)
            posted = self._publish(
                ref.channel_id,
                {**body, "flags": flags} if flags else body,
                files,
                default_parse=PARSE_USERS,
                webhook_id=APP_ID,
            )
            if isinstance(posted, Reply):
                return posted
            self._originals[token] = int(posted["id"])
            return self._ok(operation, posted)
        message = self._find_message(ref.channel_id, message_id) if message_id else None
        if message is None:
            return unknown_message()
        edited = self._edit(ref.channel_id, message, body, files, default_parse=PARSE_USERS)
        if isinstance(edited, Reply):
            return edited
        return self._ok(operation, edited)

    def _delete_original(self, token: str) -> Reply:
        if self._token_expired(token):
            return unknown_webhook()
        self._originals.pop(token, None)
        return self._ok(
            "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original", None, 204
        )


def _options_of(
    options: list[dict[str, Any]], where: tuple[Any, ...]
) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every option of a command, nested ones too, with its place in the body."""
    for o, option in enumerate(options):
        here = (*where, o)
        yield here, option
        yield from _options_of(option.get("options") or [], (*here, "options"))


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
        if self.fake.answer_lost(method, path):
            raise aiohttp.ServerDisconnectedError()
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

    async def forget(self, platform: str, key: str) -> None:
        self.values.pop((platform, key), None)


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


def _payload_channel(
    channel_id: int, channel: dict[str, Any] | None, *, guild: bool, permissions: int, user: Any
) -> dict[str, Any]:
    """The ``channel`` of an interaction: the channel object, with the member's
    ``permissions`` there (a thread's has no ``member`` of the bot's)."""
    if not guild:
        return {"id": str(channel_id), "type": DM, "flags": 0, "recipients": [user]}
    if channel is not None:
        shown = {k: v for k, v in channel.items() if k != "member"}
        return {**shown, "permissions": str(permissions)}
    return {
        "id": str(channel_id),
        "type": GUILD_TEXT,
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
    }


def _interaction(
    interaction_id: int,
    kind: int,
    data: dict[str, Any],
    *,
    guild: bool,
    permissions: int,
    roles: list[int] | None,
    user_id: int,
    channel_id: int | None,
    channel: dict[str, Any] | None,
    app_permissions: int,
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An INTERACTION_CREATE ``d`` as Discord sends it, in a guild channel or a DM."""
    user = user_payload(user_id)
    channel_id = channel_id or (CHANNEL_ID if guild else DM_CHANNEL_ID)
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(APP_ID),
        "type": kind,
        "data": data,
        "token": interaction_token(
            interaction_id,
            kind=kind,
            channel_id=channel_id,
            message_id=int(message["id"]) if message else None,
        ),
        "version": 1,
        "locale": "en-GB",
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "channel_id": str(channel_id),
        "channel": _payload_channel(
            channel_id, channel, guild=guild, permissions=permissions, user=user
        ),
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
    }
    if message is not None:
        payload["message"] = message
    if guild:
        payload.update(
            guild_id=str(GUILD_ID),
            guild_locale="en-US",
            guild={"id": str(GUILD_ID), "locale": "en-US", "features": []},
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
            context=0,
        )
    else:
        payload.update(user=user, context=1)
    return payload


def interaction_payload(
    subcommand: str,
    options: list[dict[str, Any]] | None = None,
    *,
    interaction_id: int,
    guild: bool = True,
    permissions: int = MEMBER_PERMISSIONS,
    roles: list[int] | None = None,
    resolved: dict[str, Any] | None = None,
    kind: int = APPLICATION_COMMAND,
    user_id: int = USER_ID,
    group: str = "bst",
    channel_id: int | None = None,
    channel: dict[str, Any] | None = None,
    app_permissions: int = GAME_BOT_PERMISSIONS,
) -> dict[str, Any]:
    """An INTERACTION_CREATE ``d`` as Discord sends it for ``/<group> <subcommand> …``.

    ``channel_id`` defaults to CHANNEL_ID (DM_CHANNEL_ID with ``guild=False``);
    ``channel`` is its object (``fake.channels[id]``: a thread, say), else a text
    channel. ``app_permissions``: the bot's permissions there, as Discord computes them
    (:meth:`FakeDiscord.interaction_payload` fills both from the fake's model).
    """
    data: dict[str, Any] = {
        "id": "1100000000000000100",
        "name": group,
        "type": 1,
        "options": [{"type": 1, "name": subcommand, "options": options or []}],
    }
    if resolved:
        data["resolved"] = resolved
    return _interaction(
        interaction_id,
        kind,
        data,
        guild=guild,
        permissions=permissions,
        roles=roles,
        user_id=user_id,
        channel_id=channel_id,
        channel=channel,
        app_permissions=app_permissions,
    )


def component_payload(
    custom_id: str,
    *,
    interaction_id: int,
    message: dict[str, Any],
    channel_id: int | None = None,
    guild: bool = True,
    user_id: int = USER_ID,
    component_type: int = BUTTON,
    values: list[str] | None = None,
    permissions: int = MEMBER_PERMISSIONS,
    roles: list[int] | None = None,
    channel: dict[str, Any] | None = None,
    app_permissions: int = GAME_BOT_PERMISSIONS,
) -> dict[str, Any]:
    """An INTERACTION_CREATE ``d`` of type 3 (MESSAGE_COMPONENT) as Discord sends it for a
    click on the button ``custom_id`` of ``message`` (a message the fake returned), or a
    choice of ``values`` in a select (``component_type=3``).

    ``channel_id`` defaults to the message's channel.
    """
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if component_type in SELECT_TYPES:
        data["values"] = values or []
    return _interaction(
        interaction_id,
        MESSAGE_COMPONENT,
        data,
        guild=guild,
        permissions=permissions,
        roles=roles,
        user_id=user_id,
        channel_id=channel_id or int(message["channel_id"]),
        channel=channel,
        app_permissions=app_permissions,
        message=message,
    )


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
