"""The web page on aiohttp's server (a dependency already, and it runs in the bot's own
event loop, so ``bst run`` can serve it beside the platforms).

Every answer carries the same security headers: a strict Content-Security-Policy (the
page's own style and script by hash), ``Referrer-Policy: no-referrer`` (a private
link's address never leaves in a Referer), ``X-Content-Type-Options: nosniff``; private
pages add ``Cache-Control: private, no-cache`` (a record ``private, no-store``); every answer says ``X-Robots-Tag:
noindex`` (see :data:`bot.web.pages.ROBOTS`). The access log writes a private link as
``/p/…``: tokens never reach a log. Held connections and floods are bounded by
:mod:`bot.web.guards`: a refusal is ``503`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from bot.games.catalog import game_names
from bot.host.links import listed
from bot.host.messages import PlatformFace
from bot.store import Store, reads
from bot.web.drawing import DrawingProcess
from bot.web.guards import (
    CLIENT,
    RETRY_AFTER,
    Busy,
    FairQueue,
    GuardedSite,
    Limits,
    Network,
    StreamSlots,
    client_address,
    limit_error_logs,
    raise_file_limit,
)
from bot.web.links import mask_tokens_in_logs, redact
from bot.web.live import LiveHub
from bot.web.pages import CONTENT_SECURITY_POLICY, ROBOTS, STATES
from bot.web.pictures import Drawn, PictureCache
from bot.web.site import LIST, MISSING, Reply, Site, list_version, versions_of
from bot.web.validators import UNSATISFIABLE, Part, byte_range, none_match
from renderers.tiles import TileRect

log = logging.getLogger(__name__)

SITE: web.AppKey[Site] = web.AppKey("site", Site)
HUB: web.AppKey[LiveHub] = web.AppKey("hub", LiveHub)
STREAMS: web.AppKey[StreamSlots] = web.AppKey("streams", StreamSlots)
LIMITS: web.AppKey[Limits] = web.AppKey("limits", Limits)
PROXIES: web.AppKey[tuple[Network, ...]] = web.AppKey("proxies", tuple)

HEARTBEAT = 15.0
"""Seconds between comments on an idle event stream (proxies close silent ones)."""

_NUMBER = re.compile(r"^[0-9]{1,9}$")
_STEP = re.compile(r"^([0-9]{1,9})-([0-9]{1,9})\.png$")
_STEP_NAME = re.compile(r"^([0-9]{1,9})-([0-9]{1,9})$")
_TILE_ROW = re.compile(r"^([0-9]{1,9})\.png$")


class RedactingAccessLogger(AbstractAccessLogger):
    """One line a request, a private link's token left out."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %s %.1f ms", request.method, redact(request.path), response.status, time * 1000
        )


def _security(response: StreamResponse, *, private: bool) -> None:
    headers = response.headers
    headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["X-Robots-Tag"] = ROBOTS
    if private:
        # Kept by the browser alone, and asked again each time (its ETag makes that a
        # 304): a revoked link's page or picture must not outlive it in a cache.
        stored = "no-store" in headers.get("Cache-Control", "")
        headers["Cache-Control"] = "private, no-store" if stored else "private, no-cache"


class _Request(web.Request):
    """aiohttp's request, whose answers to a request it could not parse (a bad request
    line, a bad or too long header: a 400 aiohttp builds itself, before any middleware
    or ``on_response_prepare`` runs) carry the security headers too.

    Private API: ``_prepare_hook`` is the one step every answer passes through (in
    ``StreamResponse.prepare``), and ``_match_info`` is None only when the request never
    reached the router, which a parse error never does. Checked against the aiohttp
    range pinned in pyproject.toml; ``tests/web/test_parser_errors.py`` sends malformed
    bytes to the real server and fails if an upgrade stops this working."""

    async def _prepare_hook(self, response: StreamResponse) -> None:
        if self._match_info is None:
            _security(response, private=False)
            response.headers.setdefault("Cache-Control", "no-store")
        await super()._prepare_hook(response)


def _secure_parser_errors(runner: web.AppRunner) -> None:
    """Make ``runner``'s server build :class:`_Request` requests (``runner`` set up)."""
    server = runner.server
    assert server is not None
    server.request_factory = functools.partial(runner.app._make_request, _cls=_Request)


@web.middleware
async def guard(
    request: web.Request, handler: Callable[[web.Request], Awaitable[StreamResponse]]
) -> StreamResponse:
    """Security headers on every answer; too much asked at once answers 503 with
    Retry-After; any failure answers a plain 500 and logs the redacted path (an
    exception's text could hold the address). Notes who asks (:data:`CLIENT`)."""
    private = request.path.startswith("/p/")
    CLIENT.set(_client(request))
    try:
        response = await handler(request)
    except Busy:
        response = _busy()
    except web.HTTPException as error:
        response = error
        if error.status == 404:
            response = _reply(MISSING)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("web: failed to answer %s %s", request.method, redact(request.path))
        response = web.Response(status=500, text="Something went wrong.\n")
    if not response.prepared:
        response = _unchanged(request, response)
        _security(response, private=private)
    return response


def _unchanged(request: web.Request, response: StreamResponse) -> StreamResponse:
    """A 304 for a client whose ``If-None-Match`` names the answer's ETag."""
    etag = response.headers.get("ETag")
    if response.status != 200 or etag is None:
        return response
    if not none_match(request.headers.getall("If-None-Match", []), etag):
        return response
    kept = {k: v for k, v in response.headers.items() if k in ("ETag", "Cache-Control")}
    return web.Response(status=304, headers=kept)


def _client(request: web.Request) -> str:
    return client_address(
        request.remote, request.headers.get("X-Forwarded-For"), request.app[PROXIES]
    )


def _busy() -> web.Response:
    return web.Response(
        status=503,
        text="Too much asked at once: try again in a few seconds.\n",
        headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"},
    )


def _reply(reply: Reply) -> web.Response:
    response = web.Response(status=reply.status, body=reply.body)
    response.headers["Content-Type"] = reply.content_type
    if "Cache-Control" not in reply.headers:
        response.headers["Cache-Control"] = "no-cache"
    response.headers.update(reply.headers)
    return response


def _drawn(request: web.Request, drawn: Drawn | None, *, private: bool) -> web.StreamResponse:
    if drawn is None:
        return _reply(MISSING)
    headers = {
        "ETag": drawn.etag,
        # A stored step's picture never changes: keep it (its address names the step).
        "Cache-Control": "private, no-cache" if private else "public, max-age=31536000, immutable",
    }
    return _partial(request, drawn.data, drawn.content_type, headers)


def _partial(
    request: web.Request, data: bytes, content_type: str, headers: dict[str, str]
) -> web.Response:
    """``data`` under ``headers`` (its ETag among them): 304 to a client that has it,
    the part a ``Range`` asks for (206, or 416 past its end), else the whole."""
    etag = headers["ETag"]
    headers = {**headers, "Accept-Ranges": "bytes"}
    if none_match(request.headers.getall("If-None-Match", []), etag):
        return web.Response(status=304, headers=headers)
    if_range = request.headers.get("If-Range")
    part = (
        None
        if if_range not in (None, etag)
        else byte_range(request.headers.get("Range"), len(data))
    )
    if part == UNSATISFIABLE:
        headers["Content-Range"] = f"bytes */{len(data)}"
        return web.Response(status=416, headers=headers)
    if isinstance(part, Part):
        headers["Content-Range"] = part.content_range
        response = web.Response(status=206, body=data[part.start : part.end + 1], headers=headers)
    else:
        response = web.Response(status=200, body=data, headers=headers)
    response.headers["Content-Type"] = content_type
    return response


def _number(text: str) -> int | None:
    return int(text) if _NUMBER.match(text) else None


# --- public ------------------------------------------------------------------------


async def home(request: web.Request) -> web.StreamResponse:
    """``/?kind=KIND&state=live|finished&page=N``: a page of the list of games, of one
    kind, live or finished when asked (anything else names nothing)."""
    site = request.app[SITE]
    page = _number(request.query.get("page", "1"))
    kind = request.query.get("kind", "")
    state = request.query.get("state", "")
    if page is None or (kind and kind not in game_names()) or (state and state not in STATES):
        return _reply(MISSING)
    # (a list someone watches live is read again as soon as the hub sees it change)
    newest = request.app[HUB].known(LIST)
    return _reply(await asyncio.to_thread(site.games_list, page, kind, state, newest))


async def players(request: web.Request) -> web.StreamResponse:
    """``/players``: each kind's leaderboard."""
    return _reply(await asyncio.to_thread(request.app[SITE].leaderboards))


async def player(request: web.Request) -> web.StreamResponse:
    """``/players/DIGEST``: a person's page (see :mod:`bot.web.players_pages`)."""
    address = f"/players/{request.match_info['person']}"
    return _reply(await asyncio.to_thread(request.app[SITE].player, address))


async def list_live(request: web.Request) -> web.StreamResponse:
    """The list of games' live updates: a new version whenever a game is listed,
    starts or ends."""
    return await _stream(request, LIST)


async def game(request: web.Request) -> web.StreamResponse:
    game_id = _number(request.match_info["game"])
    turn_text = request.match_info.get("turn")
    turn = None if turn_text is None else _number(turn_text)
    if game_id is None or (turn_text is not None and turn is None):
        return _reply(MISSING)
    return _reply(await request.app[SITE].game_page(game_id, turn))


async def game_map(request: web.Request) -> web.StreamResponse:
    game_id = _number(request.match_info["game"])
    step = _STEP.match(request.match_info["file"])
    if game_id is None or step is None or not await request.app[SITE].public(game_id):
        return _reply(MISSING)
    drawn = await request.app[SITE].board(game_id, int(step[1]), int(step[2]))
    return _drawn(request, drawn, private=False)


def _tile_address(request: web.Request) -> tuple[int, int, TileRect] | None:
    """(turn, step, tile) of ``…/tiles/T-S/LEVEL/X/Y.png``; None when malformed."""
    step = _STEP_NAME.match(request.match_info["step"])
    level, x = _number(request.match_info["level"]), _number(request.match_info["x"])
    y = _TILE_ROW.match(request.match_info["file"])
    if step is None or level is None or x is None or y is None:
        return None
    return int(step[1]), int(step[2]), TileRect(level, x, int(y[1]))


async def game_tile(request: web.Request) -> web.StreamResponse:
    """``/games/N/tiles/T-S/LEVEL/X/Y.png``: a tile of the public board after step S of
    turn T (:mod:`renderers.tiles`)."""
    game_id = _number(request.match_info["game"])
    address = _tile_address(request)
    if game_id is None or address is None or not await request.app[SITE].public(game_id):
        return _reply(MISSING)
    drawn = await request.app[SITE].tile(game_id, *address)
    return _drawn(request, drawn, private=False)


async def replay(request: web.Request) -> web.StreamResponse:
    game_id = _number(request.match_info["game"])
    if game_id is None or not await request.app[SITE].public(game_id):
        return _reply(MISSING)
    return _drawn(request, await request.app[SITE].replay(game_id), private=False)


async def record(request: web.Request) -> web.StreamResponse:
    game_id = _number(request.match_info["game"])
    if game_id is None or not await request.app[SITE].public(game_id):
        return _reply(MISSING)
    site = request.app[SITE]
    return _reply(await asyncio.to_thread(site.record, game_id))


async def _stream(request: web.Request, game_id: int) -> web.StreamResponse:
    """The game's live updates, for :attr:`Limits.stream_seconds` at most (the page's
    script reconnects), within the caps of :class:`StreamSlots` (else 503)."""
    limits = request.app[LIMITS]
    async with request.app[STREAMS].slot(CLIENT.get()):
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        _security(response, private=request.path.startswith("/p/"))
        await response.prepare(request)
        changes = request.app[HUB].watch(game_id).__aiter__()
        ends = asyncio.get_running_loop().time() + limits.stream_seconds

        async def write(data: bytes) -> None:
            # A client that reads nothing would hold this write (and its slot) forever.
            await asyncio.wait_for(response.write(data), limits.write_seconds)

        try:
            await write(b"retry: 3000\n\n")
            while (left := ends - asyncio.get_running_loop().time()) > 0:
                try:
                    version = await asyncio.wait_for(changes.__anext__(), min(HEARTBEAT, left))
                except TimeoutError:
                    await write(b": still here\n\n")
                    continue
                except StopAsyncIteration:
                    break
                await write(f"event: change\ndata: {version}\n\n".encode())
        except (ConnectionResetError, TimeoutError, asyncio.CancelledError):
            pass
        finally:
            await changes.aclose()  # type: ignore[attr-defined]
        return response


async def live(request: web.Request) -> web.StreamResponse:
    game_id = _number(request.match_info["game"])
    if game_id is None or not await request.app[SITE].public(game_id):
        return _reply(MISSING)
    return await _stream(request, game_id)


# --- private ------------------------------------------------------------------------


async def _holder(request: web.Request) -> tuple[int, str] | None:
    site = request.app[SITE]
    found = await asyncio.to_thread(site.holder, request.match_info["token"])
    return None if found is None else (found.game_id, found.player_key)


async def own_page(request: web.Request) -> web.StreamResponse:
    found = await _holder(request)
    turn_text = request.match_info.get("turn")
    turn = None if turn_text is None else _number(turn_text)
    if found is None or (turn_text is not None and turn is None):
        return _reply(MISSING)
    game_id, player = found
    base = f"/p/{request.match_info['token']}"
    return _reply(await request.app[SITE].game_page(game_id, turn, viewer=player, base=base))


async def own_map(request: web.Request) -> web.StreamResponse:
    found = await _holder(request)
    step = _STEP.match(request.match_info["file"])
    if found is None or step is None:
        return _reply(MISSING)
    game_id, player = found
    drawn = await request.app[SITE].board(game_id, int(step[1]), int(step[2]), player)
    return _drawn(request, drawn, private=True)


async def own_tile(request: web.Request) -> web.StreamResponse:
    """``/p/TOKEN/tiles/T-S/LEVEL/X/Y.png``: a tile of the link holder's own board, drawn
    from their view alone."""
    found = await _holder(request)
    address = _tile_address(request)
    if found is None or address is None:
        return _reply(MISSING)
    game_id, player = found
    drawn = await request.app[SITE].tile(game_id, *address, viewer=player)
    return _drawn(request, drawn, private=True)


async def own_replay(request: web.Request) -> web.StreamResponse:
    found = await _holder(request)
    if found is None:
        return _reply(MISSING)
    game_id, player = found
    return _drawn(request, await request.app[SITE].own_replay(game_id, player), private=True)


async def own_record(request: web.Request) -> web.StreamResponse:
    """The record of a finished game, at its player's link (an unlisted game's record
    has no public address)."""
    found = await _holder(request)
    if found is None:
        return _reply(MISSING)
    site = request.app[SITE]
    reply = await asyncio.to_thread(site.record, found[0])
    if reply.status == 200:
        private = {**reply.headers, "Cache-Control": "private, no-store"}
        reply = Reply(200, reply.body, reply.content_type, private)
    return _reply(reply)


async def own_live(request: web.Request) -> web.StreamResponse:
    found = await _holder(request)
    if found is None:
        return _reply(MISSING)
    return await _stream(request, found[0])


async def no_icon(_request: web.Request) -> web.StreamResponse:
    """Browsers ask for an icon on every page: an empty answer, not a 404 in the console."""
    return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})


def _versions(store: Store) -> Callable[[Sequence[int]], Mapping[int, str]]:
    def versions(ids: Sequence[int]) -> Mapping[int, str]:
        with store.transaction() as tx:
            found = versions_of(tx, ids)
            if LIST in ids:
                shown = [g for g in reads.listing(tx) if listed(g.platform, g.open_to_all)]
                found[LIST] = list_version(shown)
            return found

    return versions


def build_app(
    store: Store,
    *,
    live_interval: float = 1.0,
    drawer: DrawingProcess | None = None,
    limits: Limits | None = None,
    trusted_proxies: tuple[Network, ...] = (),
    site_url: str = "",
    faces: Mapping[str, PlatformFace] | None = None,
) -> web.Application:
    """The web page's application over ``store`` (open it read-only: the web writes
    nothing). ``drawer``: where pictures are drawn (None: on worker threads).
    ``trusted_proxies``: the peers whose ``X-Forwarded-For`` names the client."""
    limits = limits or Limits()
    app = web.Application(middlewares=[guard])
    queue = FairQueue(
        limits.draw_slots, per_client=limits.draws_per_client, waiting=limits.draws_waiting
    )
    app[SITE] = Site(
        store,
        pictures=PictureCache(store, drawer=drawer, queue=queue),
        site_url=site_url,
        faces=faces,
    )
    app[HUB] = LiveHub(_versions(store), interval=live_interval)
    app[STREAMS] = StreamSlots(limits.streams, limits.streams_per_client)
    app[LIMITS] = limits
    app[PROXIES] = trusted_proxies
    routes = app.router
    routes.add_get("/", home)
    routes.add_get("/live", list_live)
    routes.add_get("/players", players)
    routes.add_get("/players/{person}", player)
    routes.add_get("/favicon.ico", no_icon)
    routes.add_get("/games/{game}", game)
    routes.add_get("/games/{game}/turn/{turn}", game)
    routes.add_get("/games/{game}/map/{file}", game_map)
    routes.add_get("/games/{game}/tiles/{step}/{level}/{x}/{file}", game_tile)
    routes.add_get("/games/{game}/replay.mp4", replay)
    routes.add_get("/games/{game}/record.json", record)
    routes.add_get("/games/{game}/live", live)
    routes.add_get("/p/{token}", own_page)
    routes.add_get("/p/{token}/turn/{turn}", own_page)
    routes.add_get("/p/{token}/map/{file}", own_map)
    routes.add_get("/p/{token}/tiles/{step}/{level}/{x}/{file}", own_tile)
    routes.add_get("/p/{token}/replay.mp4", own_replay)
    routes.add_get("/p/{token}/record.json", own_record)
    routes.add_get("/p/{token}/live", own_live)

    async def stop_hub(app: web.Application) -> None:
        await app[HUB].stop()

    app.on_shutdown.append(stop_hub)
    return app


class PortBusy(Exception):
    """The web page cannot listen where it was told (the port is taken, or not ours)."""


class WebServer:
    """The web page on ``host:port`` (port 0: any free port, see :attr:`port`).

    ``draw_in_process``: draw the pictures in a process of their own
    (:mod:`bot.web.drawing`), as ``bst web`` and ``bst run`` do; else on worker threads
    of this one (the tests: no process to start for each)."""

    def __init__(
        self,
        store: Store,
        host: str,
        port: int,
        *,
        live_interval: float = 1.0,
        draw_in_process: bool = False,
        limits: Limits | None = None,
        trusted_proxies: tuple[Network, ...] = (),
        site_url: str = "",
        faces: Mapping[str, PlatformFace] | None = None,
    ) -> None:
        """``site_url``: the page's public address (``[web] base_url``): link previews
        name their pictures by it. ``faces``: how each platform is named and linked."""
        self.store = store
        self.host = host
        self.port = port
        self.live_interval = live_interval
        self._runner: web.AppRunner | None = None
        self.site: GuardedSite | None = None
        self.drawer = DrawingProcess(store.url) if draw_in_process else None
        # The descriptor limit, raised now: the caps below are fitted to it.
        self.limits = (limits or Limits()).fitted(raise_file_limit())
        self.app = build_app(
            self.store,
            live_interval=self.live_interval,
            drawer=self.drawer,
            limits=self.limits,
            trusted_proxies=trusted_proxies,
            site_url=site_url,
            faces=faces,
        )

    @property
    def app_site(self) -> Site:
        return self.app[SITE]

    async def start(self) -> None:
        if self.drawer is not None:
            self.drawer.start()
        limit_error_logs()
        mask_tokens_in_logs()
        app = self.app
        # shutdown_timeout: open event streams end at once instead of holding a stop.
        # keepalive_timeout: aiohttp runs it from a connection's start too, so it also
        # closes a connection that has not sent a whole request's headers by then.
        runner = web.AppRunner(
            app,
            access_log_class=RedactingAccessLogger,
            shutdown_timeout=1.0,
            keepalive_timeout=self.limits.header_seconds,
        )
        await runner.setup()
        _secure_parser_errors(runner)
        site = GuardedSite(runner, self.host, self.port, connections=self.limits.connections)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            if self.drawer is not None:
                self.drawer.stop()
            raise PortBusy(
                f"the web page cannot listen on {self.host}:{self.port}: "
                f"{error.strerror or error} (another `bst web` or program has it? choose "
                "another with --port or [web] port)"
            ) from None
        self._runner = runner
        self.site = site
        self.port = site.bound_port
        log.info("web page on http://%s:%s/", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.drawer is not None:
            self.drawer.stop()
