"""A fake X API v2 for the adapter's tests: an in-process aiohttp server on
127.0.0.1 that speaks X's shapes and checks both directions against the
official OpenAPI description (``shared/specs/x-api-v2-openapi.json``).

Every response body it serves is validated against the spec's response schema
for that operation and status; every JSON request body against the request
schema; multipart appends against ``AppendMediaUploadRequest``; query
parameters against the operation's parameter schemas. It also verifies the
OAuth 1.0a HMAC-SHA1 signature of every request with the test credentials, so
a signing mistake fails like it would on X (401).

Error bodies: X sends ``{title, detail, type, status}``; the spec's ``Error``
schema requires ``code`` and ``message``. The fake sends both sets of keys so
the bodies are spec-valid and still look like X's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import itertools
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from aiohttp import web
from oauthlib.oauth1.rfc5849 import signature as oauth_signature
from oauthlib.oauth1.rfc5849.utils import parse_authorization_header
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

# shared/specs beside the repository, or where BST_SPECS_DIR says (a git worktree).
SPEC_DIR = Path(
    os.environ.get("BST_SPECS_DIR")
    or Path(__file__).resolve().parents[3] / ".." / "shared" / "specs"
)
SPEC_PATH = SPEC_DIR / "x-api-v2-openapi.json"
SPEC_URI = "urn:x-api-v2-openapi"

# tweepy (and X's docs) call the Post fields parameter ``tweet.fields``; the
# 2.167 spec names it ``post.fields``. Same parameter, same enumeration.
PARAMETER_ALIASES = {"tweet.fields": "post.fields"}


class SpecViolation(AssertionError):
    """A payload or request that X's OpenAPI description does not allow."""


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class XSpec:
    """The OpenAPI document, with lookups by (method, concrete path)."""

    def __init__(self, path: Path = SPEC_PATH) -> None:
        self.document = json.loads(path.read_text(encoding="utf-8"))
        resource = Resource.from_contents(self.document, default_specification=DRAFT4)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._routes = []
        for template in self.document["paths"]:
            pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
            self._routes.append((template.count("{"), template, re.compile(pattern)))
        self._routes.sort()

    def template(self, method: str, path: str) -> str:
        for _, template, pattern in self._routes:
            if pattern.match(path) and method.lower() in self.document["paths"][template]:
                return template
        raise SpecViolation(f"{method} {path}: no such operation in the X API spec")

    def _validate(self, pointer: str, instance: Any, what: str) -> None:
        validator = OAS30Validator({"$ref": f"{SPEC_URI}#/{pointer}"}, registry=self.registry)
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
        if errors:
            details = "; ".join(f"{list(e.path)}: {e.message[:200]}" for e in errors[:3])
            raise SpecViolation(f"{what} does not match the X API spec: {details}")

    def validate_schema(self, name: str, instance: Any) -> None:
        self._validate(_pointer("components", "schemas", name), instance, name)

    def validate_response(
        self, method: str, path: str, status: int, content_type: str, body: Any
    ) -> None:
        template = self.template(method, path)
        responses = self.document["paths"][template][method.lower()]["responses"]
        code = str(status) if str(status) in responses else "default"
        content = responses[code].get("content", {})
        if content_type not in content:
            raise SpecViolation(f"{method} {template} {status}: {content_type} not in the spec")
        pointer = _pointer(
            "paths", template, method.lower(), "responses", code, "content", content_type, "schema"
        )
        self._validate(pointer, body, f"response {method} {template} {status}")

    def validate_request(self, method: str, path: str, content_type: str, body: Any) -> None:
        template = self.template(method, path)
        operation = self.document["paths"][template][method.lower()]
        content = operation.get("requestBody", {}).get("content", {})
        if content_type not in content:
            raise SpecViolation(f"{method} {template}: request body {content_type} not in spec")
        pointer = _pointer(
            "paths", template, method.lower(), "requestBody", "content", content_type, "schema"
        )
        self._validate(pointer, body, f"request {method} {template}")

    def validate_query(self, method: str, path: str, query: Mapping[str, str]) -> None:
        template = self.template(method, path)
        operation = self.document["paths"][template][method.lower()]
        parameters = {}
        for parameter in operation.get("parameters", []):
            if "$ref" in parameter:
                parameter = self.document["components"]["parameters"][
                    parameter["$ref"].rsplit("/", 1)[-1]
                ]
            if parameter.get("in") == "query":
                parameters[parameter["name"]] = parameter
        for raw_name, raw_value in query.items():
            if raw_name.startswith("oauth_"):
                continue
            name = PARAMETER_ALIASES.get(raw_name, raw_name)
            if name not in parameters:
                raise SpecViolation(f"{method} {template}: unknown query parameter {raw_name}")
            # Anchor the spec's local $refs so they resolve from this wrapper.
            schema = json.loads(
                json.dumps(parameters[name]["schema"]).replace('"#/', f'"{SPEC_URI}#/')
            )
            kind = schema.get("type")
            value: Any = raw_value
            if kind == "array":
                value = raw_value.split(",")
            elif kind == "integer":
                value = int(raw_value)
            wrapper = {"type": "object", "properties": {"v": schema}}
            validator = OAS30Validator(wrapper, registry=self.registry)
            errors = list(validator.iter_errors({"v": value}))
            if errors:
                raise SpecViolation(
                    f"{method} {template} {raw_name}={raw_value}: {errors[0].message}"
                )


@dataclass
class Credentials:
    api_key: str
    api_secret: str
    access_token: str
    access_secret: str
    bearer: str = ""


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def x_error(status: int, title: str, detail: str, code: int) -> dict[str, Any]:
    """X's error body, plus the code/message keys the spec's Error schema requires."""
    return {
        "title": title,
        "detail": detail,
        "type": "about:blank",
        "status": status,
        "code": code,
        "message": detail,
    }


# twitter-text (v3) weighs a character 1 in these ranges and 2 elsewhere (CJK, emoji);
# a URL counts 23 whatever its length. Written out here, apart from the bot's own count.
_LIGHT = ((0, 4351), (8192, 8205), (8208, 8223), (8242, 8247))
_URL = re.compile(r"https?://\S+")


def x_weighted_length(text: str) -> int:
    """How long X counts a post (its limit is 280)."""
    urls = _URL.findall(text)
    rest = _URL.sub("", text)
    light = sum(1 for c in rest if any(a <= ord(c) <= b for a, b in _LIGHT))
    return 23 * len(urls) + light + 2 * (len(rest) - light)


@dataclass
class Failure:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"


@dataclass
class FakeX:
    """The state of a tiny X: users, mentions, DM events, and what the bot did."""

    spec: XSpec
    credentials: Credentials
    bot_id: str = "1500000000000000001"
    bot_username: str = "bstbot"
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    dm_events: list[dict[str, Any]] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)
    dms: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    uploads: dict[str, dict[str, Any]] = field(default_factory=dict)
    metadata: list[dict[str, Any]] = field(default_factory=list)
    status_polls: list[str] = field(default_factory=list)
    log: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    failures: dict[str, list[Failure]] = field(default_factory=dict)
    closed_dms: set[str] = field(default_factory=set)
    # "METHOD template" → how many calls X carries out but whose answer never arrives
    lost_responses: dict[str, int] = field(default_factory=dict)
    # the DMs the bot sent, as X keeps them (MessageCreate events of the bot)
    sent_dm_events: list[dict[str, Any]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    extra_headers: dict[str, dict[str, str]] = field(default_factory=dict)
    mention_page_size: int = 100
    dm_page_size: int = 100
    # posts of others that did not mention the bot: X refuses the bot's replies to them
    foreign_posts: set[str] = field(default_factory=set)
    # when X stamps the DMs the bot sends (a test moves it along)
    dm_sent_at: str = "2026-07-26T10:06:00.000Z"
    processing_states: list[str] = field(default_factory=lambda: ["in_progress", "succeeded"])
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _links: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.add_user(self.bot_id, self.bot_username, "BattleshipTwitter bot")

    # -- building the world --------------------------------------------------

    def new_id(self) -> str:
        """Snowflake-like ids: increasing, 19 digits."""
        return str(1_800_000_000_000_000_000 + next(self._ids) * 1000)

    def add_user(self, user_id: str, username: str, name: str) -> dict[str, Any]:
        user = {
            "id": user_id,
            "username": username,
            "name": name,
            "profile_image_url": f"https://pbs.twimg.com/profile_images/{user_id}/a_normal.jpg",
        }
        self.users[user_id] = user
        return user

    def mention(self, author_id: str, text: str, **extra: Any) -> str:
        post_id = self.new_id()
        self.mentions.append(
            {
                "id": post_id,
                "text": text,
                "author_id": author_id,
                "created_at": "2026-07-26T10:00:00.000Z",
                "conversation_id": post_id,
                "edit_history_tweet_ids": [post_id],
                **extra,
            }
        )
        return post_id

    def dm(self, sender_id: str, text: str, created_at: str = "2026-07-26T10:05:00.000Z") -> str:
        event_id = self.new_id()
        self.dm_events.append(
            {
                "id": event_id,
                "event_type": "MessageCreate",
                "text": text,
                "sender_id": sender_id,
                "dm_conversation_id": f"{min(sender_id, self.bot_id)}-{max(sender_id, self.bot_id)}",
                "created_at": created_at,
            }
        )
        return event_id

    def fail(self, route: str, failure: Failure, times: int = 1) -> None:
        """``route`` like ``POST /2/tweets``: the next ``times`` calls fail."""
        self.failures.setdefault(route, []).extend([failure] * times)

    def calls(self, method: str, template: str) -> list[dict[str, str]]:
        return [q for m, t, q in self.log if m == method and t == template]

    # -- the server ----------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=8 * 1024 * 1024)  # X takes 5 MB segments
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        return app

    def _respond(
        self,
        request: web.Request,
        status: int,
        body: dict[str, Any],
        headers: Mapping[str, str] | None = None,
        content_type: str = "application/json",
    ) -> web.Response:
        self.spec.validate_response(request.method, request.path, status, content_type, body)
        return web.Response(
            status=status,
            text=json.dumps(body),
            content_type=content_type,
            headers=dict(headers or {}),
        )

    def _signature_ok(self, request: web.Request) -> bool:
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer ") and request.method == "GET":  # app-only reads
            return bool(self.credentials.bearer) and auth == f"Bearer {self.credentials.bearer}"
        if not auth.startswith("OAuth "):
            return False
        oauth = dict(parse_authorization_header(auth))
        creds = self.credentials
        if oauth.get("oauth_consumer_key") != creds.api_key:
            return False
        if oauth.get("oauth_token") != creds.access_token:
            return False
        params = oauth_signature.collect_parameters(
            uri_query=request.url.raw_query_string, headers={"Authorization": auth}
        )
        base = oauth_signature.signature_base_string(
            request.method,
            oauth_signature.base_string_uri(str(request.url.with_query(None))),
            oauth_signature.normalize_parameters(params),
        )
        key = f"{quote(creds.api_secret, safe='')}&{quote(creds.access_secret, safe='')}"
        expected = base64.b64encode(
            hmac.new(key.encode(), base.encode(), hashlib.sha1).digest()
        ).decode()
        return hmac.compare_digest(expected, unquote(oauth.get("oauth_signature", "")))

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        """Serve one call; a spec violation is recorded (tests assert none) and
        answered with a bare 500, as a server would."""
        try:
            return await self._serve(request)
        except AssertionError as error:  # SpecViolation included
            self.violations.append(f"{request.method} {request.path}: {error}")
            return web.Response(status=500, text="spec violation")

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        template = self.spec.template(request.method, request.path)
        query = dict(request.query)
        self.log.append((request.method, template, query))
        self.spec.validate_query(request.method, request.path, query)
        if not self._signature_ok(request):
            return self._respond(
                request, 401, x_error(401, "Unauthorized", "Could not authenticate you", 32)
            )
        route = f"{request.method} {template}"
        if "/dm_" in template and request.headers.get("Authorization", "").startswith("Bearer "):
            # X: DMs are a user's; an app-only (bearer) token may not read or send them.
            return self._respond(
                request,
                403,
                x_error(
                    403,
                    "Unsupported Authentication",
                    "Authenticating with OAuth 2.0 Application-Only is forbidden for this "
                    "endpoint.  Supported authentication types are [OAuth 1.0a User Context, "
                    "OAuth 2.0 User Context].",
                    453,
                ),
            )
        queued = self.failures.get(route)
        if queued:
            failure = queued.pop(0)
            return self._respond(
                request, failure.status, failure.body, failure.headers, failure.content_type
            )
        body: Any = None
        if request.content_type == "application/json":
            body = await request.json()
            self.spec.validate_request(request.method, request.path, "application/json", body)
        elif request.content_type == "multipart/form-data":
            form = await request.post()
            media = form["media"]
            chunk = media.file.read() if hasattr(media, "file") else str(media).encode()
            fields = {"media": "<binary>", "segment_index": int(str(form["segment_index"]))}
            self.spec.validate_request(request.method, request.path, "multipart/form-data", fields)
            body = {"chunk": chunk, "segment_index": fields["segment_index"]}
        handler = getattr(self, "_" + re.sub(r"\W+", "_", route).strip("_").lower())
        status, payload, *content_type = handler(request, body)
        if self.lost_responses.get(route):
            self.lost_responses[route] -= 1  # done on X's side, but the answer is lost
            return self._respond(request, 503, x_error(503, "Service Unavailable", "", 130))
        return self._respond(request, status, payload, self.extra_headers.get(route), *content_type)

    # -- endpoints (named after "METHOD template") ---------------------------

    def _get_2_users_me(self, request: web.Request, body: Any) -> tuple[int, dict[str, Any]]:
        return 200, {"data": self.users[self.bot_id]}

    def _page(
        self, items: list[dict[str, Any]], size: int, token: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        start = int(token.removeprefix("page")) if token else 0
        page = items[start : start + size]
        more = start + size < len(items)
        return page, (f"page{start + size:012d}" if more else None)

    # -- only what was asked for, as X does --------------------------------
    # X returns a post's id, text and edit history, a DM event's id, type and text, and
    # a user's id, name and username; anything else only when a request names it in
    # its ``*.fields``, or brings it in through an expansion (``author_id``,
    # ``sender_id``), which also fills ``includes.users``.

    POST_DEFAULT = ("id", "text", "edit_history_tweet_ids")
    DM_DEFAULT = ("id", "event_type", "text")
    USER_DEFAULT = ("id", "name", "username")

    @staticmethod
    def _asked(request: web.Request, name: str) -> set[str]:
        return {v for v in request.query.get(name, "").split(",") if v}

    def _user_shape(self, request: web.Request, user_id: str) -> dict[str, Any]:
        wanted = set(self.USER_DEFAULT) | self._asked(request, "user.fields")
        return {k: v for k, v in self.users[user_id].items() if k in wanted}

    def _post_shape(self, request: web.Request, post: dict[str, Any]) -> dict[str, Any]:
        wanted = set(self.POST_DEFAULT) | self._asked(request, "tweet.fields")
        expansions = self._asked(request, "expansions")
        if "author_id" in expansions:
            wanted.add("author_id")
        if "referenced_posts" in expansions:
            wanted.add("referenced_tweets")
        if "in_reply_to_user_id" in expansions:
            wanted.add("in_reply_to_user_id")
        return {k: v for k, v in post.items() if k in wanted}

    def _dm_shape(self, request: web.Request, event: dict[str, Any]) -> dict[str, Any]:
        wanted = set(self.DM_DEFAULT) | self._asked(request, "dm_event.fields")
        if "sender_id" in self._asked(request, "expansions"):
            wanted.add("sender_id")
        return {k: v for k, v in event.items() if k in wanted}

    def _includes(self, request: web.Request, ids: set[str], expansion: str) -> dict[str, Any]:
        if not ids or expansion not in self._asked(request, "expansions"):
            return {}
        return {"includes": {"users": [self._user_shape(request, i) for i in sorted(ids)]}}

    def _timeline(self, request: web.Request, posts: list[dict[str, Any]]) -> dict[str, Any]:
        since_id = request.query.get("since_id")
        size = min(int(request.query.get("max_results", 10)), self.mention_page_size)
        token = request.query.get("pagination_token") or request.query.get("next_token")
        newest_first = sorted(posts, key=lambda p: int(p["id"]), reverse=True)
        if since_id:
            newest_first = [p for p in newest_first if int(p["id"]) > int(since_id)]
        start_time = request.query.get("start_time")
        if start_time:  # the oldest moment wanted, inclusive
            oldest = _moment(start_time)
            newest_first = [p for p in newest_first if _moment(p["created_at"]) >= oldest]
        page, next_token = self._page(newest_first, size, token)
        meta: dict[str, Any] = {"result_count": len(page)}
        if page:
            meta["newest_id"], meta["oldest_id"] = page[0]["id"], page[-1]["id"]
        if next_token:
            meta["next_token"] = next_token
        result: dict[str, Any] = {"meta": meta}
        if page:
            result["data"] = [self._post_shape(request, p) for p in page]
            result.update(self._includes(request, {p["author_id"] for p in page}, "author_id"))
        return result

    def _get_2_users_id_tweets(self, request: web.Request, body: Any) -> tuple[int, Any]:
        """A user's posts, newest first: the bot's own, as X keeps them."""
        assert request.match_info["tail"].split("/")[2] == self.bot_id
        kept = [
            {**{k: v for k, v in p.items() if k not in ("kept_text", "reply", "media")},
             "text": p["kept_text"], "edit_history_tweet_ids": [p["id"]]}
            for p in self.posts
        ]  # fmt: skip
        return 200, self._timeline(request, kept)

    def _get_2_users_id_mentions(self, request: web.Request, body: Any) -> tuple[int, Any]:
        assert request.match_info["tail"].split("/")[2] == self.bot_id
        return 200, self._timeline(request, self.mentions)

    def _get_2_tweets_search_recent(self, request: web.Request, body: Any) -> tuple[int, Any]:
        # Only the query's tags (``(#bst OR #tug) -is:retweet …``): a post carries one of them.
        tags = re.findall(r"#\w+", request.query["query"].split(" -", 1)[0].lower())
        found = [
            p for p in self.mentions if set(re.findall(r"#\w+", p["text"].lower())) & set(tags)
        ]
        return 200, self._timeline(request, found)

    def _get_2_dm_events(self, request: web.Request, body: Any) -> tuple[int, Any]:
        newest_first = sorted(self.dm_events, key=lambda e: int(e["id"]), reverse=True)
        size = min(int(request.query.get("max_results", 100)), self.dm_page_size)
        page, next_token = self._page(newest_first, size, request.query.get("pagination_token"))
        result: dict[str, Any] = {"meta": {"result_count": len(page)}}
        if next_token:
            result["meta"]["next_token"] = next_token
        if page:
            result["data"] = [self._dm_shape(request, e) for e in page]
            result.update(self._includes(request, {e["sender_id"] for e in page}, "sender_id"))
        return 200, result

    def _get_2_dm_conversations_with_participant_id_dm_events(
        self, request: web.Request, body: Any
    ) -> tuple[int, Any]:
        participant = request.match_info["tail"].split("/")[3]
        theirs = [e for e in self.dm_events if e["sender_id"] == participant]
        ours = [
            {k: v for k, v in e.items() if k != "participant"}
            for e in self.sent_dm_events
            if e["participant"] == participant
        ]
        newest_first = sorted(theirs + ours, key=lambda e: int(e["id"]), reverse=True)
        size = min(int(request.query.get("max_results", 100)), self.dm_page_size)
        page, next_token = self._page(newest_first, size, request.query.get("pagination_token"))
        result: dict[str, Any] = {"meta": {"result_count": len(page)}}
        if next_token:
            result["meta"]["next_token"] = next_token
        if page:
            result["data"] = [self._dm_shape(request, e) for e in page]
            result.update(self._includes(request, {e["sender_id"] for e in page}, "sender_id"))
        return 200, result

    def _post_2_tweets(self, request: web.Request, body: Any) -> tuple[int, Any]:
        if x_weighted_length(str(body.get("text") or "")) > 280:
            return 400, {
                "errors": [
                    {
                        "parameters": {"text": [str(body.get("text"))[:40]]},
                        "message": "text must be at most 280 weighted characters",
                    }
                ],
                "title": "Invalid Request",
                "detail": "One or more parameters to your request was invalid.",
                "type": "https://api.twitter.com/2/problems/invalid-request",
                # (the spec's Error schema also requires these)
                "code": 400,
                "message": "One or more parameters to your request was invalid.",
            }
        replied = str((body.get("reply") or {}).get("in_reply_to_tweet_id") or "")
        if replied in self.foreign_posts:
            # X (2026): a bot replies only to posts whose author mentioned or engaged it.
            return 403, x_error(
                403,
                "Forbidden",
                "Reply to this conversation is not allowed because you have not been "
                "mentioned or otherwise engaged by the author of the post you are replying to.",
                403,
            )
        if any(p["text"] == body.get("text") for p in self.posts):
            return 403, x_error(
                403,
                "Forbidden",
                "You are not allowed to create a Tweet with duplicate content.",
                187,
            )
        post_id = self.new_id()
        media = list((body.get("media") or {}).get("media_ids") or [])
        # As X keeps it (what the bot's timeline shows): its author and time, the post it
        # answers, and its text with each link in t.co, a media link at its end, and
        # &, <, > as HTML entities (X's v2 text is escaped so).
        kept = {
            "author_id": self.bot_id,
            "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "conversation_id": replied or post_id,
            "kept_text": html.escape(
                self._dm_event_text(str(body.get("text") or ""), media), quote=False
            ),
            **({"referenced_tweets": [{"type": "replied_to", "id": replied}]} if replied else {}),
        }
        self.posts.append({"id": post_id, **body, **kept})
        return 201, {
            "data": {"id": post_id, "text": body["text"], "edit_history_post_ids": [post_id]}
        }

    def _post_2_dm_conversations_with_participant_id_messages(
        self, request: web.Request, body: Any
    ) -> tuple[int, Any]:
        participant = request.match_info["tail"].split("/")[3]
        if participant in self.closed_dms:
            return (
                403,
                {
                    "type": "https://api.x.com/2/problems/not-authorized-for-resource",
                    "title": "Forbidden",
                    "detail": "You cannot send messages to this user.",
                    "resource_type": "user",
                    "resource_id": participant,
                    "status": 403,
                },
                "application/problem+json",
            )
        self.dms.append((participant, body))
        event_id = self.new_id()
        media = [str(a["media_id"]) for a in body.get("attachments") or () if "media_id" in a]
        self.sent_dm_events.append(
            {
                "id": event_id,
                "event_type": "MessageCreate",
                "text": self._dm_event_text(str(body.get("text") or ""), media),
                "sender_id": self.bot_id,
                "dm_conversation_id": f"{min(participant, self.bot_id)}-{max(participant, self.bot_id)}",
                "created_at": self.dm_sent_at,
                "participant": participant,
                **({"attachments": {"media_keys": [f"3_{m}" for m in media]}} if media else {}),
            }
        )
        return 201, {
            "data": {"dm_conversation_id": f"{self.bot_id}-{participant}", "dm_event_id": event_id}
        }

    def _dm_event_text(self, text: str, media: list[str]) -> str:
        """A DM's text as X keeps it: each link wrapped in a t.co one, and a DM with media
        ends with the media's own t.co link (the event's ``attachments`` name it)."""
        kept = _URL.sub(lambda _: self._short_link(), text)
        if media:
            kept = f"{kept} {self._short_link()}" if kept else self._short_link()
        return kept

    def _short_link(self) -> str:
        return f"https://t.co/{next(self._links):010d}"  # 23 characters, as X's are

    def _post_2_media_upload_initialize(self, request: web.Request, body: Any) -> tuple[int, Any]:
        media_id = self.new_id()
        self.uploads[media_id] = {**body, "chunks": {}, "finalized": False}
        return 200, {
            "data": {"id": media_id, "media_key": f"3_{media_id}", "expires_after_secs": 86400}
        }

    def _post_2_media_upload_id_append(self, request: web.Request, body: Any) -> tuple[int, Any]:
        upload = self.uploads[request.match_info["tail"].split("/")[3]]
        upload["chunks"][body["segment_index"]] = body["chunk"]
        return 200, {"data": {"expires_at": 1785000000}}

    def _post_2_media_upload_id_finalize(self, request: web.Request, body: Any) -> tuple[int, Any]:
        media_id = request.match_info["tail"].split("/")[3]
        upload = self.uploads[media_id]
        data = b"".join(upload["chunks"][i] for i in sorted(upload["chunks"]))
        assert len(data) == upload["total_bytes"], "appended bytes differ from total_bytes"
        upload["data"], upload["finalized"] = data, True
        result: dict[str, Any] = {
            "id": media_id,
            "media_key": f"3_{media_id}",
            "size": len(data),
            "expires_after_secs": 86400,
        }
        if upload["media_type"].startswith("video/") or upload["media_type"] == "image/gif":
            upload["states"] = list(self.processing_states)
            result["processing_info"] = {"state": "pending", "check_after_secs": 5}
        else:
            result["image"] = {"image_type": upload["media_type"], "w": 640, "h": 640}
        return 200, {"data": result}

    def _get_2_media_upload(self, request: web.Request, body: Any) -> tuple[int, Any]:
        media_id = request.query["media_id"]
        self.status_polls.append(media_id)
        upload = self.uploads[media_id]
        state = upload["states"].pop(0) if len(upload["states"]) > 1 else upload["states"][0]
        info: dict[str, Any] = {
            "state": state,
            "progress_percent": 100 if state == "succeeded" else 40,
        }
        if state in ("pending", "in_progress"):
            info["check_after_secs"] = 10
        return 200, {
            "data": {
                "id": media_id,
                "media_key": f"7_{media_id}",
                "processing_info": info,
                "video": {"video_type": upload["media_type"]},
            }
        }

    def _post_2_media_metadata(self, request: web.Request, body: Any) -> tuple[int, Any]:
        self.metadata.append(body)
        return 200, {"data": {"id": body["id"], "associated_metadata": body.get("metadata", {})}}
