"""A strict in-process Mastodon instance: the real Mastodon.py client talks to it over
HTTP (``api_base_url``), so the SDK calls the adapter makes are proved right.

Built from Mastodon's API documentation (docs.joinmastodon.org, 4.3):

* entities with their documented fields: Account (``CredentialAccount`` with
  ``source``), Status, MediaAttachment, Notification, Context, Application,
  NotificationPolicy, Instance (v1, still served) and Instance v2;
* ``Authorization: Bearer`` on every call (401 ``{"error": …}`` otherwise);
* the rate limits as Mastodon counts them, each in windows aligned to the epoch
  (rack-attack's and ``RateLimiter``'s): every API request 300 per 5 minutes (the
  ``X-RateLimit-*`` headers of most answers; ``Reset`` in ISO 8601); **posting a
  status 300 per 3 hours**, which only ``POST /api/v1/statuses`` reports in its headers
  (``override_rate_limit_headers``, family ``statuses``); media uploads 30 per 30
  minutes, which only their 429 shows; a 429 carries the headers of the limit that
  refused it;
* statuses: 422 over ``max_characters`` (URLs count 23, a mention its username) or
  over ``max_media_attachments``; ``Idempotency-Key`` returns the first status posted
  with the key for an hour (``IDEMPOTENCY_SECONDS``, Mastodon's Redis expiry), by
  :attr:`clock`; **a direct status's audience is every account it ``@mentions``**; a
  deleted status is 404 and its replies' ``context`` stops at the gap;
* media processed in the background when :attr:`processing_polls` says so:
  ``POST /api/v2/media`` answers 202 with ``url`` null, ``GET /api/v1/media/:id`` 206
  until it is done (never, when processing fails), and a status naming unprocessed
  media is 422;
* :meth:`fail_next` makes the next matching requests fail (a 503, a 429, a 404);
* notifications paged by ``max_id`` / ``since_id`` / ``min_id`` (``min_id``: the page
  just after it), ``types[]``, ``limit`` ≤ 80;
* the user's notification stream as server-sent events on
  ``/api/v1/streaming/user/notification``, with heartbeats; :meth:`drop_streams`
  closes every connection, as a restarting streaming server does.

Whatever the adapter does that Mastodon would refuse or that breaks a house rule (a
status without an idempotency key, a direct status heard by someone else than its one
recipient) is also listed in :attr:`violations`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape
from typing import Any

from aiohttp import web

TOKEN = "FAKE-MASTODON-TOKEN-0123456789abcdefABCDEF"
DOMAIN = "harbour.social"
MENTION = re.compile(
    r"(?<![=/\w])@((?:[a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?)(?:@[\w.-]+\w+)?)", re.IGNORECASE
)
URL = re.compile(r"https?://\S+")
SCOPES = ["read", "write"]
STATUSES_LIMIT, STATUSES_PERIOD = 300, 3 * 3600  # Mastodon's RateLimiter, family statuses
MEDIA_LIMIT, MEDIA_PERIOD = 30, 30 * 60  # rack-attack's throttle_api_media
IDEMPOTENCY_SECONDS = 3600  # PostStatusService keeps an Idempotency-Key an hour


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _headers(limit: int, remaining: int, reset: datetime) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": reset.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    }


@dataclass
class Account:
    id: str
    username: str
    display_name: str
    domain: str = ""  # "" = this instance
    bot: bool = False

    @property
    def acct(self) -> str:
        return f"{self.username}@{self.domain}" if self.domain else self.username

    def entity(self) -> dict[str, Any]:
        host = self.domain or DOMAIN
        return {
            "id": self.id,
            "username": self.username,
            "acct": self.acct,
            "url": f"https://{host}/@{self.username}",
            "display_name": self.display_name,
            "note": "",
            "avatar": f"https://{host}/avatars/{self.id}.png",
            "avatar_static": f"https://{host}/avatars/{self.id}.png",
            "header": f"https://{host}/headers/missing.png",
            "header_static": f"https://{host}/headers/missing.png",
            "locked": False,
            "fields": [],
            "emojis": [],
            "bot": self.bot,
            "group": False,
            "discoverable": None,
            "created_at": "2025-01-01T00:00:00.000Z",
            "last_status_at": None,
            "statuses_count": 0,
            "followers_count": 0,
            "following_count": 0,
        }


@dataclass
class Posted:
    """A status as the fake keeps it (and what the test reads)."""

    id: str
    account: Account
    text: str
    visibility: str
    created_at: datetime
    in_reply_to_id: str | None = None
    media: list[dict[str, Any]] = field(default_factory=list)
    audience: set[str] = field(default_factory=set)  # account ids a direct status reaches
    mentions: list[Account] = field(default_factory=list)
    idempotency_key: str | None = None


class FakeMastodon:
    def __init__(
        self,
        *,
        max_characters: int = 500,
        requests_per_window: int = 300,
        media_per_window: int = 30,
    ) -> None:
        self.media_per_window = media_per_window
        self._ids = itertools.count(110_000_000_000_000_000)
        self.accounts: dict[str, Account] = {}
        self.bot = self.add_account("bstbot", "Battleship host")
        self.statuses: dict[str, Posted] = {}
        self.notifications: list[dict[str, Any]] = []  # the bot's, oldest first
        self.media: dict[str, dict[str, Any]] = {}
        self.idempotency: dict[str, tuple[str, float]] = {}  # key → (status id, posted at)
        self.policy = {
            "for_not_following": "accept",
            "for_not_followers": "accept",
            "for_new_accounts": "accept",
            "for_private_mentions": "filter",  # Mastodon's default
            "for_limited_accounts": "filter",
            "summary": {"pending_requests_count": 0, "pending_notifications_count": 0},
        }
        self.filtered: list[dict[str, Any]] = []  # notifications the policy held back
        self.max_characters = max_characters
        self.clock = time.time
        self.requests_per_window = requests_per_window
        self.window_started = time.time()
        self.requests_in_window = 0
        self.statuses_per_window = STATUSES_LIMIT
        self.statuses_in_window: dict[int, int] = {}  # window number → statuses posted
        self.uploads: list[float] = []
        self.uploads_in_window: dict[int, int] = {}  # window number → uploads
        # GETs of an upload answered 206 before it is processed (None: it never is).
        self.processing_polls: int | None = 0
        self._processing: dict[str, int] = {}  # media id → polls left before it is done
        # method, path prefix, status, n, matching requests let through first
        self._failures: list[tuple[str, str, int, int, int]] = []
        self.deleted: set[str] = set()
        self.requests: list[tuple[str, str]] = []
        self.violations: list[str] = []
        self.scopes = list(SCOPES)
        self.streams: list[web.StreamResponse] = []
        self.streaming_down = False  # the streaming server answers 502 (it is down)
        self.stream_connections = 0
        self.base_url = ""

    # -- the world ----------------------------------------------------------------

    def next_id(self) -> str:
        return str(next(self._ids))

    def add_account(self, username: str, display_name: str, domain: str = "") -> Account:
        account = Account(self.next_id(), username, display_name, domain)
        self.accounts[account.id] = account
        return account

    def by_acct(self, acct: str) -> Account | None:
        acct = acct.lower()
        for account in self.accounts.values():
            if account.acct.lower() == acct or (
                not account.domain and f"{account.username}@{DOMAIN}".lower() == acct
            ):
                return account
        return None

    def _mentioned(self, text: str) -> list[Account]:
        found: list[Account] = []
        for match in MENTION.finditer(text):
            account = self.by_acct(match.group(1))
            if account is not None and account not in found:
                found.append(account)
        return found

    def _html(self, text: str, mentions: list[Account]) -> str:
        """Mastodon's rendering: paragraphs, <br>, mentions and hashtags as links."""
        by_name = {a.acct.lower(): a for a in mentions}

        def linked(line: str) -> str:
            out = escape(line, quote=False)
            out = MENTION.sub(
                lambda m: (
                    f'<span class="h-card" translate="no"><a href="{by_name[m.group(1).lower()].entity()["url"]}" '
                    f'class="u-url mention">@<span>{m.group(1).split("@")[0]}</span></a></span>'
                    if m.group(1).lower() in by_name
                    else m.group(0)
                ),
                out,
            )
            return re.sub(
                r"(?<![\w&])#(\w+)",
                lambda m: (
                    f'<a href="https://{DOMAIN}/tags/{m.group(1).lower()}" class="mention hashtag" '
                    f'rel="tag">#<span>{m.group(1)}</span></a>'
                ),
                out,
            )

        paragraphs = [p for p in text.split("\n\n")]
        return "".join("<p>" + "<br />".join(linked(x) for x in p.split("\n")) + "</p>"
                       for p in paragraphs)  # fmt: skip

    def status_entity(self, status: Posted) -> dict[str, Any]:
        parent = self.statuses.get(status.in_reply_to_id or "")
        return {
            "id": status.id,
            "uri": f"https://{DOMAIN}/users/{status.account.username}/statuses/{status.id}",
            "url": f"https://{DOMAIN}/@{status.account.username}/{status.id}",
            "created_at": iso(status.created_at),
            "account": status.account.entity(),
            "content": self._html(status.text, status.mentions),
            "visibility": status.visibility,
            "sensitive": False,
            "spoiler_text": "",
            "media_attachments": status.media,
            "application": None,
            "mentions": [
                {"id": a.id, "username": a.username, "url": a.entity()["url"], "acct": a.acct}
                for a in status.mentions
            ],
            "tags": [
                {"name": t.lower(), "url": f"https://{DOMAIN}/tags/{t.lower()}"}
                for t in re.findall(r"(?<!\w)#(\w+)", status.text)
            ],
            "emojis": [],
            "reblogs_count": 0,
            "favourites_count": 0,
            "replies_count": 0,
            "in_reply_to_id": status.in_reply_to_id,
            "in_reply_to_account_id": parent.account.id if parent else None,
            "reblog": None,
            "poll": None,
            "card": None,
            "language": "en",
            "text": None,
            "edited_at": None,
        }

    def post(
        self,
        account: Account,
        text: str,
        *,
        visibility: str = "public",
        in_reply_to_id: str | None = None,
        created_at: datetime | None = None,
    ) -> str:
        """A person posts a status; each local account it mentions is notified (the bot
        through its stream, and its notifications), unless the policy filters it."""
        mentions = self._mentioned(text)
        status = Posted(
            self.next_id(),
            account,
            text,
            visibility,
            created_at or datetime.now(UTC),
            in_reply_to_id,
            mentions=mentions,
            audience={a.id for a in mentions} if visibility == "direct" else set(),
        )
        self.statuses[status.id] = status
        if self.bot in mentions:
            notification = {
                "id": self.next_id(),
                "type": "mention",
                "group_key": f"ungrouped-{status.id}",
                "created_at": iso(status.created_at),
                "account": account.entity(),
                "status": self.status_entity(status),
            }
            if visibility == "direct" and self.policy["for_private_mentions"] != "accept":
                self.filtered.append(notification)
            else:
                self.notifications.append(notification)
                self._push("notification", notification)
        return status.id

    def mention(self, account: Account, text: str, **kwargs: Any) -> str:
        return self.post(account, f"@{self.bot.username} {text}", **kwargs)

    def dm(self, account: Account, text: str, **kwargs: Any) -> str:
        return self.post(account, f"@{self.bot.username} {text}", visibility="direct", **kwargs)

    def delete(self, status_id: str) -> None:
        """Its author deletes a status: it is 404 from now on (its replies stay, their
        ``in_reply_to_id`` naming it, as Mastodon keeps them)."""
        self.statuses.pop(status_id)
        self.deleted.add(status_id)

    def fail_next(
        self, method: str, path: str, status: int, times: int = 1, *, after: int = 0
    ) -> None:
        """The next ``times`` requests ``method`` to a path starting with ``path`` are
        answered ``status`` (503: the instance is down; 429: a limit; 404: gone), once
        ``after`` such requests have been answered as usual."""
        self._failures.append((method, path, status, times, after))

    def posts_by_bot(self, visibility: str | None = None) -> list[Posted]:
        return [
            s
            for s in self.statuses.values()
            if s.account is self.bot and (visibility is None or s.visibility == visibility)
        ]

    def direct_to(self, account: Account) -> list[Posted]:
        return [s for s in self.posts_by_bot("direct") if account.id in s.audience]

    # -- the stream -----------------------------------------------------------------

    def _push(self, event: str, payload: dict[str, Any]) -> None:
        data = f"event: {event}\ndata: {json.dumps(payload)}\n\n".encode()
        for response in list(self.streams):
            asyncio.get_event_loop().create_task(self._write(response, data))

    async def _write(self, response: web.StreamResponse, data: bytes) -> None:
        try:
            await response.write(data)
        except (ConnectionError, RuntimeError):
            if response in self.streams:
                self.streams.remove(response)

    async def drop_streams(self) -> None:
        """Every stream connection ends (a streaming server restarts)."""
        for response in list(self.streams):
            self.streams.remove(response)
            task = getattr(response, "_bst_task", None)
            if task is not None:
                task.cancel()
            transport = getattr(response, "_bst_transport", None)
            if transport is not None:
                transport.close()

    # -- HTTP --------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware])
        r = app.router
        r.add_get("/api/v1/accounts/verify_credentials", self.verify_credentials)
        r.add_patch("/api/v1/accounts/update_credentials", self.update_credentials)
        r.add_get("/api/v1/accounts/{id}", self.account)
        r.add_get("/api/v1/apps/verify_credentials", self.app_credentials)
        # Rails routes take a trailing slash too (Mastodon.py asks for "/api/v2/instance/").
        for slash in ("", "/"):
            r.add_get("/api/v1/instance" + slash, self.instance_v1)
            r.add_get("/api/v2/instance" + slash, self.instance_v2)
        r.add_get("/api/v2/notifications/policy", self.get_policy)
        r.add_patch("/api/v2/notifications/policy", self.patch_policy)
        r.add_get("/api/v1/notifications", self.list_notifications)
        r.add_get("/api/v1/statuses/{id}/context", self.context)
        r.add_post("/api/v1/statuses", self.create_status)
        r.add_post("/api/v2/media", self.upload)
        r.add_get("/api/v1/media/{id}", self.get_media)
        r.add_get("/api/v1/streaming/user/notification", self.stream)
        return app

    def _rate_headers(self) -> dict[str, str]:
        reset = datetime.fromtimestamp(self.window_started + 300, UTC)
        remaining = max(0, self.requests_per_window - self.requests_in_window)
        return _headers(self.requests_per_window, remaining, reset)

    def _family_headers(self, limit: int, period: int, used: int) -> dict[str, str]:
        now = self.clock()
        reset = datetime.fromtimestamp(now + (period - now % period), UTC)
        return _headers(limit, max(0, limit - used), reset)

    def statuses_headers(self) -> dict[str, str]:
        window = int(self.clock() // STATUSES_PERIOD)
        used = self.statuses_in_window.get(window, 0)
        return self._family_headers(self.statuses_per_window, STATUSES_PERIOD, used)

    def spend_statuses(self, count: int | None = None) -> None:
        """The account has posted ``count`` statuses in this 3-hour window (all of them)."""
        window = int(self.clock() // STATUSES_PERIOD)
        self.statuses_in_window[window] = self.statuses_per_window if count is None else count

    def _failure(self, request: web.Request) -> int | None:
        for index, (method, path, status, times, after) in enumerate(self._failures):
            if request.method == method and request.path.startswith(path):
                if after:
                    self._failures[index] = (method, path, status, times, after - 1)
                elif times <= 1:
                    del self._failures[index]
                else:
                    self._failures[index] = (method, path, status, times - 1, 0)
                if not after:
                    return status
        return None

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.requests.append((request.method, request.path))
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            return web.json_response({"error": "The access token is invalid"}, status=401)
        if request.path.startswith("/api/v1/streaming"):
            return await handler(request)
        now = time.time()
        if now >= self.window_started + 300:
            self.window_started, self.requests_in_window = now, 0
        self.requests_in_window += 1
        if self.requests_in_window > self.requests_per_window:
            return web.json_response(
                {"error": "Too many requests"}, status=429, headers=self._rate_headers()
            )
        failure = self._failure(request)
        if failure == 429:
            return web.json_response(
                {"error": "Too many requests"}, status=429, headers=self._rate_headers()
            )
        if failure is not None:
            reason = {404: "Record not found", 403: "This action is not allowed"}
            return web.json_response(
                {"error": reason.get(failure, "Service unavailable")}, status=failure
            )
        response = await handler(request)
        for name, value in self._rate_headers().items():
            # An answer that reports another family (posting a status) keeps its own.
            response.headers.setdefault(name, value)
        return response

    async def verify_credentials(self, request: web.Request) -> web.Response:
        entity = self.bot.entity()
        entity["source"] = {"privacy": "public", "sensitive": False, "language": "en",
                            "note": "", "fields": []}  # fmt: skip
        return web.json_response(entity)

    async def update_credentials(self, request: web.Request) -> web.Response:
        form = await request.post()
        if "bot" in form:
            if form["bot"] not in ("0", "1", "true", "false"):
                return web.json_response({"error": "Validation failed"}, status=422)
            self.bot.bot = form["bot"] in ("1", "true")
        return web.json_response(self.bot.entity())

    async def account(self, request: web.Request) -> web.Response:
        account = self.accounts.get(request.match_info["id"])
        if account is None:
            return web.json_response({"error": "Record not found"}, status=404)
        return web.json_response(account.entity())

    async def app_credentials(self, request: web.Request) -> web.Response:
        return web.json_response({"id": "7", "name": "bst", "website": None,
                                  "scopes": self.scopes, "redirect_uris": []})  # fmt: skip

    def _configuration(self) -> dict[str, Any]:
        return {
            "statuses": {
                "max_characters": self.max_characters,
                "max_media_attachments": 4,
                "characters_reserved_per_url": 23,
            },
            "media_attachments": {
                "supported_mime_types": ["image/png", "image/jpeg", "image/gif", "image/webp"],
                "image_size_limit": 16777216,
                "image_matrix_limit": 33177600,
                "video_size_limit": 103809024,
                "video_frame_rate_limit": 120,
                "video_matrix_limit": 8294400,
                "description_limit": 1500,
            },
        }

    async def instance_v1(self, request: web.Request) -> web.Response:
        return web.json_response({
            "uri": DOMAIN, "title": "Harbour", "short_description": "", "description": "",
            "email": "", "version": "4.3.0",
            "urls": {"streaming_api": self.base_url.replace("http", "ws", 1)},
            "stats": {"user_count": 3, "status_count": 0, "domain_count": 1},
            "thumbnail": None, "languages": ["en"], "registrations": False,
            "approval_required": False, "invites_enabled": False,
            "configuration": self._configuration(), "contact_account": None, "rules": [],
        })  # fmt: skip

    async def instance_v2(self, request: web.Request) -> web.Response:
        configuration = self._configuration()
        configuration["urls"] = {"streaming": self.base_url.replace("http", "ws", 1)}
        configuration["accounts"] = {"max_featured_tags": 10, "max_pinned_statuses": 5}
        return web.json_response({
            "domain": DOMAIN, "title": "Harbour", "version": "4.3.0",
            "source_url": "https://github.com/mastodon/mastodon", "description": "",
            "usage": {"users": {"active_month": 3}}, "thumbnail": {"url": ""},
            "languages": ["en"], "configuration": configuration,
            "registrations": {"enabled": False, "approval_required": False, "message": None},
            "api_versions": {"mastodon": 2},
            "contact": {"email": "", "account": None}, "rules": [],
        })  # fmt: skip

    async def get_policy(self, request: web.Request) -> web.Response:
        return web.json_response(self.policy)

    async def patch_policy(self, request: web.Request) -> web.Response:
        form = await request.post()
        for key, value in form.items():
            if key not in self.policy or value not in ("accept", "filter", "drop"):
                return web.json_response({"error": f"Validation failed: {key}"}, status=422)
            self.policy[key] = value
        return web.json_response(self.policy)

    async def list_notifications(self, request: web.Request) -> web.Response:
        query = request.query
        known = {"max_id", "since_id", "min_id", "limit", "types[]", "exclude_types[]",
                 "account_id", "include_filtered"}  # fmt: skip
        unknown = set(query) - known
        if unknown:
            self.violations.append(f"GET /api/v1/notifications with unknown {sorted(unknown)}")
        limit = min(int(query.get("limit", "40")), 80)
        types = query.getall("types[]", [])
        items = [n for n in self.notifications if not types or n["type"] in types]
        if "max_id" in query:
            items = [n for n in items if int(n["id"]) < int(query["max_id"])]
        if "since_id" in query:
            items = [n for n in items if int(n["id"]) > int(query["since_id"])]
        if "min_id" in query:
            # The page just after min_id (oldest ones), returned newest first.
            items = [n for n in items if int(n["id"]) > int(query["min_id"])][:limit]
        else:
            items = items[-limit:]
        return web.json_response(list(reversed(items)))

    async def context(self, request: web.Request) -> web.Response:
        status = self.statuses.get(request.match_info["id"])
        if status is None:
            return web.json_response({"error": "Record not found"}, status=404)
        ancestors = []
        parent = self.statuses.get(status.in_reply_to_id or "")
        while parent is not None:
            ancestors.insert(0, self.status_entity(parent))
            parent = self.statuses.get(parent.in_reply_to_id or "")
        descendants = [self.status_entity(s) for s in self.statuses.values()
                       if s.in_reply_to_id == status.id]  # fmt: skip
        return web.json_response({"ancestors": ancestors, "descendants": descendants})

    @staticmethod
    def counted_length(text: str, mentions: list[Account]) -> int:
        """Mastodon's count: a URL is 23, a remote mention only its @username."""
        length = len(URL.sub("x" * 23, text))
        for account in mentions:
            if account.domain:
                length -= len(account.domain) + 1
        return length

    async def create_status(self, request: web.Request) -> web.Response:
        form = await request.post()
        key = request.headers.get("Idempotency-Key")
        if not key:
            self.violations.append("a status posted without an Idempotency-Key")
        elif key in self.idempotency:
            status_id, posted_at = self.idempotency[key]
            if self.clock() - posted_at < IDEMPOTENCY_SECONDS:
                return web.json_response(self.status_entity(self.statuses[status_id]))
        text = str(form.get("status", ""))
        media_ids = form.getall("media_ids[]", [])
        visibility = str(form.get("visibility", "public"))
        if visibility not in ("public", "unlisted", "private", "direct"):
            return web.json_response({"error": "Validation failed: Visibility"}, status=422)
        if not text and not media_ids:
            return web.json_response({"error": "Validation failed: Text can't be blank"},
                                     status=422)  # fmt: skip
        mentions = self._mentioned(text)
        if self.counted_length(text, mentions) > self.max_characters:
            return web.json_response(
                {"error": f"Validation failed: Text character limit of {self.max_characters} "
                          "exceeded"}, status=422)  # fmt: skip
        if len(media_ids) > 4:
            return web.json_response({"error": "Validation failed: Media attachments too many"},
                                     status=422)  # fmt: skip
        media = []
        for media_id in media_ids:
            if media_id not in self.media:
                return web.json_response({"error": "Record not found"}, status=404)
            if media_id in self._processing:
                return web.json_response(
                    {"error": "Cannot attach files that have not finished processing. "
                              "Try again in a moment!"}, status=422)  # fmt: skip
            media.append(self.media[media_id])
            if not self.media[media_id]["description"]:
                self.violations.append(f"media {media_id} posted without alt text")
        reply_to = form.get("in_reply_to_id")
        if reply_to and reply_to not in self.statuses:
            return web.json_response({"error": "Record not found"}, status=404)
        window = int(self.clock() // STATUSES_PERIOD)
        if self.statuses_in_window.get(window, 0) >= self.statuses_per_window:
            return web.json_response(
                {"error": "Too many requests"}, status=429, headers=self.statuses_headers()
            )
        self.statuses_in_window[window] = self.statuses_in_window.get(window, 0) + 1
        status = Posted(
            self.next_id(), self.bot, text, visibility, datetime.now(UTC),
            str(reply_to) if reply_to else None, media, mentions=mentions,
            audience={a.id for a in mentions} if visibility == "direct" else set(),
            idempotency_key=key,
        )  # fmt: skip
        if visibility == "direct" and len(status.audience) != 1:
            self.violations.append(
                f"direct status {status.id} reaches {len(status.audience)} accounts: {text!r}"
            )
        self.statuses[status.id] = status
        if key:
            self.idempotency[key] = (status.id, self.clock())
        return web.json_response(self.status_entity(status), headers=self.statuses_headers())

    async def upload(self, request: web.Request) -> web.Response:
        now = self.clock()
        window = int(now // MEDIA_PERIOD)
        used = self.uploads_in_window.get(window, 0)
        if used >= self.media_per_window:
            return web.json_response(
                {"error": "Too many requests"},
                status=429,
                headers=self._family_headers(self.media_per_window, MEDIA_PERIOD, used),
            )
        self.uploads_in_window[window] = used + 1
        self.uploads.append(now)
        form = await request.post()
        upload = form.get("file")
        if not isinstance(upload, web.FileField):
            return web.json_response({"error": "Validation failed: File can't be blank"},
                                     status=422)  # fmt: skip
        if (
            upload.content_type
            not in self._configuration()["media_attachments"]["supported_mime_types"]
        ):
            return web.json_response({"error": "Validation failed: File type"}, status=422)
        data = upload.file.read()
        media_id = self.next_id()
        self.media[media_id] = {
            "id": media_id,
            "type": "image",
            "url": f"https://{DOMAIN}/media/{media_id}.png",
            "preview_url": f"https://{DOMAIN}/media/{media_id}_small.png",
            "remote_url": None,
            "meta": {"original": {"size": len(data)}},
            "description": str(form.get("description") or "") or None,
            "blurhash": "UFBWY:8_0Jxv",
        }
        if self.processing_polls == 0:
            return web.json_response(self.media[media_id])
        # Processed in the background: 202, no URL yet (a GIF, a video, a big picture).
        self._processing[media_id] = -1 if self.processing_polls is None else self.processing_polls
        return web.json_response({**self.media[media_id], "url": None}, status=202)

    async def get_media(self, request: web.Request) -> web.Response:
        media_id = request.match_info["id"]
        media = self.media.get(media_id)
        if media is None:
            return web.json_response({"error": "Record not found"}, status=404)
        left = self._processing.get(media_id)
        if left is not None:
            if left != 0:  # -1: processing failed, it never ends
                self._processing[media_id] = left - 1 if left > 0 else -1
                return web.json_response({**media, "url": None}, status=206)
            del self._processing[media_id]
        return web.json_response(media)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        if self.streaming_down:
            return web.json_response({"error": "Bad gateway"}, status=502)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        response._bst_task = asyncio.current_task()  # type: ignore[attr-defined]
        response._bst_transport = request.transport  # type: ignore[attr-defined]
        self.streams.append(response)
        self.stream_connections += 1
        try:
            await response.write(b":)\n")
            while True:
                await asyncio.sleep(1)
                await response.write(b":thump\n")
        except (asyncio.CancelledError, ConnectionError, RuntimeError):
            pass
        finally:
            if response in self.streams:
                self.streams.remove(response)
        return response
