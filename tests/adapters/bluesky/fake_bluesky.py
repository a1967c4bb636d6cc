"""A strict in-process Bluesky: one PDS with the AppView's reads and the chat service
behind its proxy, served by aiohttp on 127.0.0.1 for the real atproto SDK to talk to.

Strict as the real one where the bot could go wrong:

* every request's parameters or body, and every answer, is checked against the official
  lexicons kept in ./lexicons; every record the bot writes is validated against its
  collection's lexicon (required fields, maxGraphemes and maxLength, facets, reply refs,
  image blobs ≤ 1,000,000 bytes), and its facets' byte ranges must land on the UTF-8
  text they claim (``#tag`` on a tag, ``@handle`` on a mention);
* a record key is the writer's choice, must be a TID, and cannot be used twice;
* chat methods are served only with the ``atproto-proxy`` header of the chat service,
  and only to a session whose app password has access to direct messages ("Bad token
  scope" otherwise); a chat message is at most 1,000 graphemes with no embed but a
  record; a person who does not accept the bot's messages refuses the conversation;
* every answer carries ``RateLimit-Limit``/``-Remaining``/``-Reset``/``-Policy``; a
  spent window answers 429; ``createSession`` is limited (30 per 5 minutes), and writes
  cost points (3 a created record) against 5,000 an hour.

Anything the bot sends that the real service would refuse is refused, and also kept in
``violations`` (the tests assert it stays empty).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web
from bsky_lexicon import Lexicons, graphemes

CHAT_PROXY = "did:web:api.bsky.chat#bsky_chat"
BOT_DID = "did:plc:bstbot0000000000000000aa"
BOT_HANDLE = "bstbot.bsky.social"
APP_PASSWORD = "abcd-efgh-ijkl-mnop"
ALICE = "did:plc:alice00000000000000000000"
BOB = "did:plc:bob0000000000000000000000"
CAROL = "did:plc:carol00000000000000000000"
MALLORY = "did:plc:mallory000000000000000000"
START = datetime(2026, 7, 26, 9, 0, tzinfo=UTC)


def cid_of(data: bytes, codec: int = 0x71) -> str:
    """A CIDv1 (sha-256) of ``data`` as base32 text, as the PDS writes them."""
    raw = bytes([0x01, codec, 0x12, 0x20]) + hashlib.sha256(data).digest()
    return "b" + base64.b32encode(raw).decode().lower().rstrip("=")


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


class XrpcError(Exception):
    def __init__(
        self, status: int, error: str, message: str = "", headers: dict[str, str] | None = None
    ) -> None:
        """``headers``: the answer's own (a 429's RateLimit-Reset), over the window's."""
        super().__init__(message)
        self.status, self.error, self.message = status, error, message
        self.headers = headers or {}


@dataclass
class Person:
    did: str
    handle: str
    display_name: str
    accepts_dms: bool = True


@dataclass
class Window:
    limit: int
    seconds: float
    used: list[float] = field(default_factory=list)


class FakeBluesky:
    def __init__(
        self, *, dm_access: bool = True, clock: Callable[[], float] = time.time, live: bool = False
    ) -> None:
        """``live``: stamp what happens with the clock's time (a bot in another process
        reads it), not a fixed day's."""
        self.lexicons = Lexicons()
        self.clock = clock
        self.dm_access = dm_access
        self.people: dict[str, Person] = {}
        self.add_person(BOT_DID, BOT_HANDLE, "Harbour Bot")
        self.add_person(ALICE, "alice.bsky.social", "Alice")
        self.add_person(BOB, "bob.bsky.social", "Bob")
        self.add_person(CAROL, "carol.bsky.social", "Carol")
        self.records: dict[str, dict[str, Any]] = {}  # at:// uri → {uri, cid, value, indexedAt}
        self.tombstones: dict[str, str] = {}  # a deleted post's uri → its cid
        self.gates: dict[str, dict[str, Any]] = {}  # a root's uri → its threadgate view
        self.blobs: dict[str, tuple[str, int]] = {}  # cid → (mime type, size)
        self.notifications: list[dict[str, Any]] = []
        self.convos: dict[str, list[str]] = {}  # convo id → member DIDs
        self.messages: list[dict[str, Any]] = []  # {convoId, message view}
        self.log: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.requests: list[tuple[str, str]] = []  # (method, nsid)
        self.logins = 0
        self.refreshes = 0
        self.expired: set[str] = set()  # access tokens the PDS takes for expired
        self.logins_a_day = Window(300, 86400)  # createSession: also 300 a day
        self.tokens: dict[str, tuple[str, str]] = {}  # token → (kind, did)
        self._ids = itertools.count(1)
        self._moment = START
        self.live = live
        self.windows: dict[str, Window] = {
            "com.atproto.server.createSession": Window(30, 300),
            "*": Window(3000, 300),
        }
        self.write_points = Window(5000, 3600)
        self.fail_next: dict[str, XrpcError] = {}
        # nsid → (what of its input, error): the next call whose JSON input has it answers
        # with the error (a 429 on a DM's second chat message, say).
        self.fail_matching: dict[str, tuple[Callable[[Any], bool], XrpcError]] = {}
        self.lose_answer_of: set[str] = set()  # nsids whose next answer is lost (a 502)

    # -- the world ----------------------------------------------------------

    def add_person(self, did: str, handle: str, name: str, accepts_dms: bool = True) -> Person:
        self.people[did] = Person(did, handle, name, accepts_dms)
        return self.people[did]

    def delete(self, uri: str) -> None:
        """The author deletes the post ``uri``: reads of it find nothing (getPosts leaves
        it out, getRecord says RecordNotFound), and replies already made stay where they
        are; a new reply may still name it as its thread's root (uri and cid)."""
        self.tombstones[uri] = self.records.pop(uri)["cid"]
        self.notifications = [n for n in self.notifications if n["uri"] != uri]

    def gate(self, root: str, allow: list[dict[str, Any]] | None = None) -> None:
        """The root's author closes its thread with a threadgate (``allow`` [] lets
        nobody reply but them): Bluesky still writes a reply from anyone else, and hides
        it; the root's view tells the bot ``viewer.replyDisabled``."""
        author, _, rkey = root.removeprefix("at://").split("/")
        record = {"$type": "app.bsky.feed.threadgate", "post": root, "allow": allow or [],
                  "createdAt": stamp(self._moment)}  # fmt: skip
        uri = f"at://{author}/app.bsky.feed.threadgate/{rkey}"
        self.gates[root] = {"uri": uri, "cid": cid_of(json.dumps(record).encode()),
                            "record": record, "lists": []}  # fmt: skip

    def hidden(self) -> list[str]:
        """The bot's posts nobody sees in the game's thread: replies into a thread gated
        against it, replies to a deleted post."""
        return [r["uri"] for r in self.bot_posts() if r.get("hidden")]

    def rename(self, did: str, handle: str) -> None:
        """``did`` takes the handle ``handle`` (its DID, its identity, stays): from now on
        its profile, its posts and a mention of it show the new handle, and the old one is
        free for anyone to take."""
        self.people[did].handle = handle

    def tick(self, seconds: float = 1.0) -> str:
        if self.live:
            # The clock's time, a millisecond past the last stamp at least: a step of a
            # second would run the stamps of a busy game (30 captains' posts and the
            # boards sent them) a minute ahead of the clock, into turns not yet open.
            after = self._moment + timedelta(milliseconds=1)
            self._moment = max(after, datetime.fromtimestamp(self.clock(), UTC))
        else:
            self._moment += timedelta(seconds=seconds)
        return stamp(self._moment)

    def _rev(self) -> str:
        return f"{next(self._ids):013d}"

    def profile(self, did: str) -> dict[str, Any]:
        person = self.people[did]
        return {"did": did, "handle": person.handle, "displayName": person.display_name}

    def post(
        self,
        author: str,
        text: str,
        *,
        reply_to: str | None = None,
        notify: bool = True,
        at: datetime | None = None,
    ) -> str:
        """A person posts ``text`` as Bluesky's app would: its hashtags and mentions as
        facets, a reply's refs to its parent and the thread's root. Notifies the bot of a
        mention or of a reply to its post, unless ``notify`` is False (Bluesky drops
        some)."""
        rkey = f"3l{next(self._ids):011d}"[:13]
        uri = f"at://{author}/app.bsky.feed.post/{rkey}"
        record: dict[str, Any] = {"$type": "app.bsky.feed.post", "text": text,
                                  "createdAt": stamp(at or self._moment)}  # fmt: skip
        facets = []
        data = text.encode()
        for word in set(text.split()):
            if word.startswith("#") and len(word) > 1:
                tag, start = word[1:].rstrip(".,!?"), 0
                while (start := data.find(f"#{tag}".encode(), start)) >= 0:
                    facets.append({"index": {"byteStart": start, "byteEnd": start + len(tag.encode()) + 1},
                                   "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": tag}]})  # fmt: skip
                    start += 1
            if word.startswith("@"):
                handle = word[1:].rstrip(".,!?")
                dids = [p.did for p in self.people.values() if p.handle == handle]
                start = data.find(f"@{handle}".encode())
                if dids and start >= 0:
                    facets.append({"index": {"byteStart": start, "byteEnd": start + len(handle.encode()) + 1},
                                   "features": [{"$type": "app.bsky.richtext.facet#mention", "did": dids[0]}]})  # fmt: skip
        if facets:
            record["facets"] = sorted(facets, key=lambda f: f["index"]["byteStart"])
        reason = "mention" if any(f["features"][0].get("did") == BOT_DID for f in facets) else None
        if reply_to is not None:
            parent = self.records[reply_to]
            root = parent["value"].get("reply", {}).get("root") or {
                "uri": reply_to,
                "cid": parent["cid"],
            }
            record["reply"] = {"root": root, "parent": {"uri": reply_to, "cid": parent["cid"]}}
            if reply_to.startswith(f"at://{BOT_DID}/") and reason is None:
                reason = "reply"
        problems = self.lexicons.validate_record("app.bsky.feed.post", record)
        assert not problems, problems
        indexed = self.tick()
        self.records[uri] = {"uri": uri, "cid": cid_of(json.dumps(record).encode()),
                             "value": record, "indexedAt": indexed, "author": author}  # fmt: skip
        if reason and notify:
            self.notifications.append({"uri": uri, "cid": self.records[uri]["cid"],
                                       "author": self.profile(author), "reason": reason,
                                       "record": record, "isRead": False, "indexedAt": indexed})  # fmt: skip
        return uri

    def convo_with(self, did: str) -> str:
        for convo, members in self.convos.items():
            if set(members) == {BOT_DID, did}:
                return convo
        convo = f"convo{next(self._ids)}"
        self.convos[convo] = [BOT_DID, did]
        self.log.append(
            {"$type": "chat.bsky.convo.defs#logBeginConvo", "rev": self._rev(), "convoId": convo}
        )
        return convo

    def _message(self, convo: str, sender: str, text: str) -> dict[str, Any]:
        rev = self._rev()
        view = {"$type": "chat.bsky.convo.defs#messageView", "id": f"msg{rev}", "rev": rev,
                "text": text, "sender": {"did": sender}, "sentAt": self.tick()}  # fmt: skip
        self.messages.append({"convoId": convo, "message": view})
        self.log.append({"$type": "chat.bsky.convo.defs#logCreateMessage", "rev": rev,
                         "convoId": convo, "message": view})  # fmt: skip
        return view

    def dm(self, sender: str, text: str) -> str:
        """A person sends the bot a chat message."""
        return str(self._message(self.convo_with(sender), sender, text)["id"])

    # -- what the bot did -----------------------------------------------------

    def bot_posts(self) -> list[dict[str, Any]]:
        return [r for r in self.records.values() if r["author"] == BOT_DID
                and r["uri"].split("/")[3] == "app.bsky.feed.post"]  # fmt: skip

    def dm_views_to(self, did: str) -> list[dict[str, Any]]:
        return [m["message"] for m in self.messages
                if m["message"]["sender"]["did"] == BOT_DID and did in self.convos[m["convoId"]]]  # fmt: skip

    def dms_to(self, did: str) -> list[str]:
        return [m["message"]["text"] for m in self.messages
                if m["message"]["sender"]["did"] == BOT_DID and did in self.convos[m["convoId"]]]  # fmt: skip

    # -- the server ------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/xrpc/{nsid}", self._handle)
        return app

    def _headers(self, key: str, window: Window) -> dict[str, str]:
        now = self.clock()
        window.used = [t for t in window.used if t > now - window.seconds]
        reset = int((window.used[0] if window.used else now) + window.seconds)
        return {
            "RateLimit-Limit": str(window.limit),
            "RateLimit-Remaining": str(max(0, window.limit - len(window.used))),
            "RateLimit-Reset": str(reset),
            "RateLimit-Policy": f"{window.limit};w={int(window.seconds)}",
        }

    def expire_access_tokens(self) -> None:
        """Every access token given so far is expired for the PDS, whatever its ``exp``
        says (a clock apart, a server's shorter life): a call with one answers 400
        ``ExpiredToken``, and its refresh token still refreshes."""
        self.expired |= {token for token, (kind, _) in self.tokens.items() if kind == "access"}

    def _spend(self, nsid: str) -> tuple[dict[str, str], bool]:
        window = self.windows.get(nsid) or self.windows["*"]
        now = self.clock()
        if nsid == "com.atproto.server.createSession":
            day = self.logins_a_day
            day.used = [t for t in day.used if t > now - day.seconds]
            if len(day.used) >= day.limit:
                return self._headers(nsid, day), False
            day.used.append(now)
        window.used = [t for t in window.used if t > now - window.seconds]
        if len(window.used) >= window.limit:
            return self._headers(nsid, window), False
        window.used.append(now)
        return self._headers(nsid, window), True

    def _auth(self, request: web.Request, nsid: str) -> str:
        header = request.headers.get("Authorization", "")
        token = header.removeprefix("Bearer ").strip()
        kind, did = self.tokens.get(token, ("", ""))
        wanted = "refresh" if nsid == "com.atproto.server.refreshSession" else "access"
        if not header.startswith("Bearer ") or kind != wanted:
            raise XrpcError(401, "AuthenticationRequired" if not kind else "InvalidToken",
                            "Authentication Required" if not kind else "Token could not be verified")  # fmt: skip
        payload = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
        if payload["exp"] < self.clock() or token in self.expired:
            raise XrpcError(400, "ExpiredToken", "Token has expired")
        if nsid.startswith("chat.bsky.") and payload["scope"] != "com.atproto.appPassPrivileged":
            raise XrpcError(401, "InvalidToken", "Bad token scope")
        return did

    def _tokens(self, did: str) -> dict[str, str]:
        now = int(self.clock())
        scope = "com.atproto.appPassPrivileged" if self.dm_access else "com.atproto.appPass"
        made = {}
        for kind, life in (("access", 7200), ("refresh", 90 * 86400)):
            payload = {"scope": scope if kind == "access" else "com.atproto.refresh",
                       "sub": did, "iat": now, "exp": now + life, "jti": str(next(self._ids))}  # fmt: skip
            token = f"{_b64({'typ': 'at+jwt', 'alg': 'ES256K'})}.{_b64(payload)}.c2lnbmF0dXJl"
            self.tokens[token] = (kind, did)
            made[f"{kind}Jwt"] = token
        return made

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        nsid = request.match_info["nsid"]
        self.requests.append((request.method, nsid))
        headers, allowed = self._spend(nsid)
        if not allowed:
            return web.json_response({"error": "RateLimitExceeded", "message": "Rate Limit Exceeded"},
                                     status=429, headers=headers)  # fmt: skip
        try:
            if nsid in self.fail_next:
                raise self.fail_next.pop(nsid)
            method = self.lexicons.method(nsid)
            if method["type"] == "query":
                if request.method != "GET":
                    raise XrpcError(400, "InvalidRequest", f"{nsid} is a query (GET)")
                params = self._params(request, method)
                body: Any = None
            else:
                if request.method != "POST":
                    raise XrpcError(400, "InvalidRequest", f"{nsid} is a procedure (POST)")
                params = {}
                if method.get("input", {}).get("encoding") == "application/json":
                    body = await request.json()
                    problems = self.lexicons._check(method["input"]["schema"], body, nsid, "input")
                    if problems:
                        self.violations.extend(f"{nsid}: {p}" for p in problems)
                        raise XrpcError(400, "InvalidRequest", "; ".join(problems))
                else:
                    body = await request.read()
                if nsid in self.fail_matching and self.fail_matching[nsid][0](body):
                    raise self.fail_matching.pop(nsid)[1]
            if nsid.startswith("chat.bsky.") and request.headers.get("atproto-proxy") != CHAT_PROXY:
                self.violations.append(f"{nsid} without the chat proxy header")
                raise XrpcError(501, "MethodNotImplemented", "Method Not Implemented")
            handler = getattr(self, "x_" + nsid.replace(".", "_"), None)
            if handler is None:
                raise XrpcError(501, "MethodNotImplemented", f"{nsid} is not in this fake")
            did = "" if nsid == "com.atproto.server.createSession" else self._auth(request, nsid)
            answer = handler(did=did, params=params, body=body, request=request)
            output = method.get("output", {}).get("schema")
            if output is not None:
                problems = self.lexicons._check(output, answer, nsid, "output")
                assert not problems, f"the fake's own answer to {nsid} is wrong: {problems}"
            if nsid in self.lose_answer_of:
                self.lose_answer_of.discard(nsid)
                raise XrpcError(502, "UpstreamFailure", "the answer was lost")
            if nsid == "com.atproto.repo.createRecord":
                headers = self._headers("points", self.write_points)
            return web.json_response(answer, headers=headers)
        except XrpcError as error:
            return web.json_response({"error": error.error, "message": error.message},
                                     status=error.status, headers=headers | error.headers)  # fmt: skip

    def _params(self, request: web.Request, method: dict[str, Any]) -> dict[str, Any]:
        schema = method.get("parameters", {"type": "params", "properties": {}})
        params: dict[str, Any] = {}
        for key in request.query:
            if key not in schema["properties"]:
                raise XrpcError(400, "InvalidRequest", f"unknown parameter {key}")
            prop = schema["properties"][key]
            values = request.query.getall(key)
            if prop["type"] == "array":
                params[key] = values
            elif prop["type"] == "integer":
                params[key] = int(values[0])
            elif prop["type"] == "boolean":
                params[key] = values[0] == "true"
            else:
                params[key] = values[0]
        problems = self.lexicons._check(schema, params, "", "params")
        if problems:
            self.violations.extend(problems)
            raise XrpcError(400, "InvalidRequest", "; ".join(problems))
        return params

    # -- com.atproto.server ----------------------------------------------------------

    def x_com_atproto_server_createSession(
        self, *, body: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        self.logins += 1
        person = next((p for p in self.people.values()
                       if body["identifier"] in (p.handle, p.did)), None)  # fmt: skip
        if person is None or person.did != BOT_DID or body["password"] != APP_PASSWORD:
            raise XrpcError(401, "AuthenticationRequired", "Invalid identifier or password")
        return {"did": BOT_DID, "handle": BOT_HANDLE, "active": True, **self._tokens(BOT_DID)}

    def x_com_atproto_server_getSession(self, *, did: str, **_: Any) -> dict[str, Any]:
        return {"did": did, "handle": self.people[did].handle, "active": True}

    def x_com_atproto_server_refreshSession(
        self, *, did: str, request: web.Request, **_: Any
    ) -> dict[str, Any]:
        self.tokens.pop(request.headers["Authorization"].removeprefix("Bearer "), None)
        self.refreshes += 1
        return {"did": did, "handle": self.people[did].handle, "active": True, **self._tokens(did)}

    # -- com.atproto.repo ------------------------------------------------------------

    def _write(self, did: str, body: dict[str, Any], *, create: bool) -> dict[str, Any]:
        if body["repo"] not in (did, self.people[did].handle):
            raise XrpcError(401, "AuthRequired", "the repo is not the session's")
        collection, record = body["collection"], body["record"]
        rkey = body.get("rkey")
        tid = {"type": "string", "format": "tid"}
        if collection == "app.bsky.feed.post" and (
            rkey is None or self.lexicons._check(tid, rkey, "", "rkey")
        ):
            self.violations.append(f"post record key {rkey!r} is not a TID of the bot's choosing")
            raise XrpcError(400, "InvalidRequest", "rkey must be a TID")
        rkey = rkey or "self"
        problems = self.lexicons.validate_record(collection, record) + self._facets_land(record)
        problems += self._refs_exist(record)
        if problems:
            self.violations.extend(f"{collection}: {p}" for p in problems)
            raise XrpcError(400, "InvalidRecord", "; ".join(problems))
        uri = f"at://{did}/{collection}/{rkey}"
        existing = self.records.get(uri)
        if create and existing is not None:
            raise XrpcError(400, "InvalidRequest", f"Record already exists: {uri}")
        if (
            not create
            and "swapRecord" in body
            and (existing or {}).get("cid") != body["swapRecord"]
        ):
            raise XrpcError(400, "InvalidSwap", "Record was at a different cid")
        now = self.clock()
        self.write_points.used = [t for t in self.write_points.used if t > now - 3600]
        cost = 3 if existing is None else 2
        if len(self.write_points.used) + cost > self.write_points.limit:
            raise XrpcError(429, "RateLimitExceeded", "write points spent")
        self.write_points.used.extend([now] * cost)
        cid = cid_of(json.dumps(record, sort_keys=True).encode())
        self.records[uri] = {
            "uri": uri,
            "cid": cid,
            "value": record,
            "indexedAt": self.tick(),
            "author": did,
        }
        root = ((record.get("reply") or {}).get("root") or {}).get("uri")
        parent = ((record.get("reply") or {}).get("parent") or {}).get("uri")
        if root in self.gates and not root.startswith(f"at://{did}/"):
            self.records[uri]["hidden"] = True  # written, and hidden by the threadgate
        if parent in self.tombstones:
            self.records[uri]["hidden"] = True  # under a deleted post: in no thread
        return {"uri": uri, "cid": cid}

    def _facets_land(self, record: dict[str, Any]) -> list[str]:
        """Each facet's byte range must hold what its feature says (UTF-8 bytes)."""
        data = str(record.get("text", "")).encode("utf-8")
        problems = []
        for facet in record.get("facets") or []:
            start, end = facet["index"]["byteStart"], facet["index"]["byteEnd"]
            try:
                words = data[start:end].decode("utf-8")
            except UnicodeDecodeError:
                problems.append(f"facet {start}:{end} cuts a character in half")
                continue
            for feature in facet["features"]:
                kind = feature["$type"].rsplit("#", 1)[-1]
                if kind == "tag" and words != f"#{feature['tag']}":
                    problems.append(
                        f"tag facet {start}:{end} holds {words!r}, not #{feature['tag']}"
                    )
                if kind == "mention":
                    person = self.people.get(feature["did"])
                    if person is None or words.lower() != f"@{person.handle}":
                        problems.append(f"mention facet {start}:{end} holds {words!r}")
                if kind == "link" and words != feature["uri"]:
                    problems.append(f"link facet {start}:{end} holds {words!r}")
        return problems

    def _refs_exist(self, record: dict[str, Any]) -> list[str]:
        problems = []
        reply = record.get("reply")
        if reply:
            for end in ("root", "parent"):
                target = self.records.get(reply[end]["uri"])
                # A deleted post may still be named (the PDS does not look): a deleted root
                # still roots its thread; a reply to a deleted parent is written, and hidden.
                cid = target["cid"] if target else self.tombstones.get(reply[end]["uri"])
                if cid is None or cid != reply[end]["cid"]:
                    problems.append(f"reply.{end} names no post (uri and cid): {reply[end]}")
            parent = self.records.get(reply["parent"]["uri"])
            if parent is not None:
                root = parent["value"].get("reply", {}).get("root", {"uri": parent["uri"]})
                if root["uri"] != reply["root"]["uri"]:
                    problems.append("reply.root is not the parent's thread root")
        for image in (record.get("embed") or {}).get("images") or []:
            link = image["image"]["ref"]["$link"]
            if link not in self.blobs:
                problems.append(f"image blob {link} was never uploaded")
            elif self.blobs[link][1] != image["image"]["size"]:
                problems.append(f"image blob {link}: wrong size")
        return problems

    def x_com_atproto_repo_createRecord(
        self, *, did: str, body: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        return self._write(did, body, create=True)

    def x_com_atproto_repo_putRecord(
        self, *, did: str, body: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        return self._write(did, body, create=False)

    def x_com_atproto_repo_getRecord(self, *, params: dict[str, Any], **_: Any) -> dict[str, Any]:
        repo = params["repo"]
        did = next((p.did for p in self.people.values() if repo in (p.did, p.handle)), repo)
        found = self.records.get(f"at://{did}/{params['collection']}/{params['rkey']}")
        if found is None:
            raise XrpcError(400, "RecordNotFound", "Could not locate record")
        return {"uri": found["uri"], "cid": found["cid"], "value": found["value"]}

    def x_com_atproto_repo_uploadBlob(
        self, *, body: bytes, request: web.Request, **_: Any
    ) -> dict[str, Any]:
        mime = request.headers.get("Content-Type", "")
        if not mime.startswith("image/"):
            self.violations.append(f"uploadBlob of {mime!r}")
        cid = cid_of(body, codec=0x55)
        self.blobs[cid] = (mime, len(body))
        return {
            "blob": {"$type": "blob", "ref": {"$link": cid}, "mimeType": mime, "size": len(body)}
        }

    # -- app.bsky -------------------------------------------------------------------

    def _post_view(self, uri: str) -> dict[str, Any]:
        found = self.records[uri]
        view = {"uri": uri, "cid": found["cid"], "author": self.profile(found["author"]),
                "record": found["value"], "indexedAt": found["indexedAt"]}  # fmt: skip
        if uri in self.gates:  # the viewer (the bot) may not reply in this thread
            view["threadgate"] = self.gates[uri]
            view["viewer"] = {"replyDisabled": True}
        return view

    def x_app_bsky_feed_getPosts(self, *, params: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {"posts": [self._post_view(u) for u in params["uris"] if u in self.records]}

    def x_app_bsky_actor_getProfiles(self, *, params: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {"profiles": [self.profile(d) for d in params["actors"] if d in self.people]}

    def x_app_bsky_notification_listNotifications(
        self, *, params: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        """Newest first, only the ``reasons`` asked for (all without it); the cursor is the
        last item's moment, as Bluesky's is: a page never shifts when new ones arrive."""
        reasons = params.get("reasons")
        newest_first = sorted(
            (n for n in self.notifications if not reasons or n["reason"] in reasons),
            key=lambda n: (n["indexedAt"], n["uri"]),
            reverse=True,
        )
        if params.get("cursor"):
            after = tuple(params["cursor"].split("::", 1))
            newest_first = [n for n in newest_first if (n["indexedAt"], n["uri"]) < after]
        limit = params.get("limit", 50)
        page = newest_first[:limit]
        answer: dict[str, Any] = {"notifications": page}
        if len(newest_first) > limit:
            answer["cursor"] = f"{page[-1]['indexedAt']}::{page[-1]['uri']}"
        return answer

    def noise(self, count: int, reason: str = "like") -> None:
        """``count`` notifications that are no post for the bot: likes, reposts, follows
        of strangers (a popular bot gets thousands)."""
        collection = {"like": "app.bsky.feed.like", "repost": "app.bsky.feed.repost",
                      "follow": "app.bsky.graph.follow"}[reason]  # fmt: skip
        for _ in range(count):
            rkey = f"3l{next(self._ids):011d}"[:13]
            record = {"$type": collection, "createdAt": stamp(self._moment)}
            self.notifications.append({"uri": f"at://{CAROL}/{collection}/{rkey}",
                                       "cid": cid_of(rkey.encode()), "author": self.profile(CAROL),
                                       "reason": reason, "record": record, "isRead": False,
                                       "indexedAt": self.tick(0.01)})  # fmt: skip

    def x_app_bsky_feed_searchPosts(self, *, params: dict[str, Any], **_: Any) -> dict[str, Any]:
        query = params["q"].strip()
        assert query.startswith("#"), f"the bot searches tags, not {query!r}"
        tag = query[1:].lower()
        since, until = params.get("since"), params.get("until")

        def moment(value: str) -> datetime:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))

        hits = [
            r for r in self.records.values()
            if r["uri"].split("/")[3] == "app.bsky.feed.post"
            and any(f["features"][0].get("tag", "").lower() == tag for f in r["value"].get("facets") or [])
            and (since is None or moment(r["indexedAt"]) >= moment(since))
            and (until is None or moment(r["indexedAt"]) < moment(until))
        ]  # fmt: skip
        hits.sort(key=lambda r: r["indexedAt"], reverse=True)
        start = int(params.get("cursor") or 0)
        limit = params.get("limit", 25)
        answer: dict[str, Any] = {
            "posts": [self._post_view(r["uri"]) for r in hits[start : start + limit]]
        }
        if start + limit < len(hits):
            answer["cursor"] = str(start + limit)
        return answer

    # -- chat.bsky.convo -------------------------------------------------------------

    def _convo_view(self, convo: str) -> dict[str, Any]:
        return {"id": convo, "rev": self._rev(), "muted": False, "unreadCount": 0,
                "members": [self.profile(d) for d in self.convos[convo]]}  # fmt: skip

    def x_chat_bsky_convo_getConvoForMembers(
        self, *, did: str, params: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        others = [d for d in params["members"] if d != did]
        if len(others) != 1 or others[0] not in self.people:
            raise XrpcError(400, "RecipientNotFound", "recipient not found")
        if not self.people[others[0]].accepts_dms:
            raise XrpcError(400, "MessagesDisabled", "recipient has disabled incoming messages")
        return {"convo": self._convo_view(self.convo_with(others[0]))}

    def x_chat_bsky_convo_sendMessage(
        self, *, did: str, body: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        convo = body["convoId"]
        if convo not in self.convos or did not in self.convos[convo]:
            raise XrpcError(400, "InvalidConvo", "Convo not found")
        other = next(d for d in self.convos[convo] if d != did)
        if not self.people[other].accepts_dms:
            raise XrpcError(400, "MessagesDisabled", "recipient has disabled incoming messages")
        message = body["message"]
        embed = message.get("embed")
        if embed is not None and embed.get("$type") != "app.bsky.embed.record":
            self.violations.append(f"a chat message with an embed of {embed.get('$type')}")
            raise XrpcError(400, "InvalidRequest", "chat messages embed records only")
        problems = self._facets_land(message)
        if problems:
            self.violations.extend(problems)
            raise XrpcError(400, "InvalidRequest", "; ".join(problems))
        if graphemes(message["text"]) > 1000:
            raise XrpcError(400, "InvalidRequest", "message text too long")
        view = self._message(convo, did, message["text"])
        if message.get("facets"):
            view["facets"] = message["facets"]
        return view

    def x_chat_bsky_convo_getMessages(
        self, *, did: str, params: dict[str, Any], **_: Any
    ) -> dict[str, Any]:
        convo = params["convoId"]
        if did not in self.convos.get(convo, []):
            raise XrpcError(400, "InvalidConvo", "Convo not found")
        found = [m["message"] for m in self.messages if m["convoId"] == convo]
        return {"messages": list(reversed(found))[: params.get("limit", 50)]}

    def x_chat_bsky_convo_getLog(self, *, params: dict[str, Any], **_: Any) -> dict[str, Any]:
        after = params.get("cursor") or ""
        page = [entry for entry in self.log if entry["rev"] > after][:100]
        answer: dict[str, Any] = {"logs": page}
        if page:
            answer["cursor"] = page[-1]["rev"]
        elif after:
            answer["cursor"] = after
        return answer

    def x_chat_bsky_convo_listConvos(self, *, did: str, **_: Any) -> dict[str, Any]:
        return {"convos": [self._convo_view(c) for c, m in self.convos.items() if did in m][:1]}
