"""The web page's images, drawn once and kept: a stored step's public map or one
player's board, the tiles of a board too big for one picture, and a finished game's
replay.

As for chat (:mod:`bot.host.attachments`), a picture is drawn by the game's renderers
from a view (``view(state, None)`` for the public, ``view(state, player)`` for a
player), never from the state. A stored step never changes, so its picture is drawn
once, under a key that names it, and served with a strong ETag (its bytes' hash): a
page view never draws again what is already drawn, and a browser that has it asks
with ``If-None-Match`` and gets ``304``. No avatar is fetched: players are drawn with
their generated avatars, so a picture depends on the database alone.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from PIL import Image

from bot.games.catalog import get_game
from bot.host.attachments import OUTSIDE_PLAY
from bot.host.yielding import off_loop
from bot.store import Store, loads, reads
from bot.web.guards import CLIENT, FairQueue
from bot.web.players import public_standing
from renderers.catalog import pictures_for, tiles_for
from renderers.replay import replay_of_pictures
from renderers.tiles import TILE, TileRect
from renderers.tiles import on_board as tiles_on_board

STATES_KEPT = 8
"""Decoded states kept for drawing tiles: the newest steps of a few games."""

STANDINGS_KEPT = 1024
"""Stored steps whose players' public standing is kept (a few small tuples each)."""


@dataclass(frozen=True)
class Drawn:
    data: bytes
    content_type: str
    alt: str
    width: int
    height: int

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha256(self.data).hexdigest()[:32] + '"'


Key = tuple[Any, ...]


class Drawer(Protocol):
    """Somewhere else to draw: runs a :class:`PictureCache` method by name (see
    :class:`bot.web.drawing.DrawingProcess`)."""

    async def run(self, work: str, *args: Any) -> Any: ...


class PictureCache:
    """Pictures by key, drawn at most once each (concurrent asks wait for the one
    drawing), the least recently used dropped beyond ``max_bytes``."""

    def __init__(
        self,
        store: Store,
        *,
        max_bytes: int = 256 * 1024 * 1024,
        drawer: Drawer | None = None,
        queue: FairQueue | None = None,
    ) -> None:
        """``drawer``: where to draw (a :class:`bot.web.drawing.DrawingProcess`); None:
        on a worker thread of this process. ``queue``: where drawings wait their turn,
        client by client (the web's; None: no waiting, as in the drawing process)."""
        self.store = store
        self.max_bytes = max_bytes
        self.drawer = drawer
        self.queue = queue
        self._kept: OrderedDict[Key, Drawn] = OrderedDict()
        self._size = 0
        self._drawing: dict[Key, asyncio.Future[Drawn | None]] = {}
        self.drawn = 0  # how many pictures were drawn (tests: a second view draws none)
        # Decoded states of recent steps, for their tiles (drawn on worker threads).
        self._states: OrderedDict[tuple[int, int, int], tuple[str, Any] | None] = OrderedDict()
        self._states_lock = threading.Lock()
        self._standings: OrderedDict[tuple[int, int, int], tuple[Any, ...]] = OrderedDict()

    async def run(self, work: str, *args: Any) -> Any:
        """``self.<work>(*args)`` where the drawing is done: in the drawing process when
        there is one (it has a cache of its own over the same database), else on a
        worker thread. Drawing and decoding hold the interpreter lock for long
        stretches: off this process, or with the short switch interval (see
        bot.host.yielding), the event loop keeps answering cached pages meanwhile.

        With a :attr:`queue`, the work waits its client's turn first (:data:`CLIENT`: who
        asked), or raises :class:`~bot.web.guards.Busy` when that client, or everyone, has too much
        waiting."""
        if self.queue is None:
            return await self._run_now(work, *args)
        async with self.queue.turn(CLIENT.get()):
            return await self._run_now(work, *args)

    async def _run_now(self, work: str, *args: Any) -> Any:
        if self.drawer is not None:
            return await self.drawer.run(work, *args)
        return await off_loop(getattr(self, work), *args)

    async def _get(self, key: Key, work: str, *args: Any) -> Drawn | None:
        """The picture ``self.<work>(*args)`` draws, kept under ``key``; drawn once,
        whoever else asks meanwhile waits for that one drawing. None (nothing to draw
        there) is not kept: an address that names nothing fills no memory."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        waiting = self._drawing.get(key)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future: asyncio.Future[Drawn | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            drawn: Drawn | None = await self.run(work, *args)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # (retrieved: nobody else may be waiting)
            raise
        finally:
            self._drawing.pop(key, None)
        if drawn is not None:
            self.drawn += 1
            self._keep(key, drawn)
        future.set_result(drawn)
        return drawn

    def _keep(self, key: Key, drawn: Drawn) -> None:
        self._kept[key] = drawn
        self._size += len(drawn.data)
        while self._size > self.max_bytes and len(self._kept) > 1:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped.data)

    def board(
        self, game_id: int, number: int, step: int, viewer: str | None
    ) -> Awaitable[Drawn | None]:
        """The picture after stored step ``(number, step)``: the public map when
        ``viewer`` is None, else that player's own board. None: the game has no pictures
        or no such step."""
        return self._get(
            ("board", game_id, number, step, viewer), "draw_board", game_id, number, step, viewer
        )

    def replay(self, game_id: int) -> Awaitable[Drawn | None]:
        """The replay video of a finished game (None before it ends)."""
        return self._get(("replay", game_id), "draw_replay", game_id)

    def tile(
        self, game_id: int, number: int, step: int, rect: TileRect, viewer: str | None = None
    ) -> Awaitable[Drawn | None]:
        """One tile of the board after stored step ``(number, step)`` (see
        :mod:`renderers.tiles`): the public board when ``viewer`` is None, else that
        player's own, drawn from their view alone. None: no such step, or a board not
        drawn in tiles, or a tile beyond its edges."""
        key = ("tile", game_id, number, step, viewer, rect.level, rect.x, rect.y)
        return self._get(key, "draw_tile", game_id, number, step, rect, viewer)

    def view_of(
        self, game_id: int, number: int, step: int, viewer: str | None
    ) -> tuple[str, Any] | None:
        """(the game's kind, ``view(state, viewer)`` after stored step ``(number,
        step)``), the state decoded once for all the tiles of that step and every viewer
        (a big game's state takes a while); None when there is no such step or the
        Called off the event loop (the viewer is a player of the game: a private link's
        holder, as for :meth:`board`)."""
        found = self._state(game_id, number, step)
        if found is None:
            return None
        kind, state = found
        return kind, get_game(kind).views.view(state, viewer)

    def step_text(
        self, game_id: int, number: int, step: int, viewer: str | None
    ) -> tuple[str, tuple[int, int] | None] | None:
        """For the page of stored step ``(number, step)``: (the text board
        ``summary(state, viewer)``, the board's (rows, columns) when it is offered in
        tiles, else None); None when there is no such step. Run where the drawing is
        (:meth:`run`): it decodes the state, as the drawing does."""
        found = self._state(game_id, number, step)
        if found is None:
            return None
        kind, state = found
        game = get_game(kind)
        tiles = tiles_for(kind)
        size = None if tiles is None else tiles.board_size(game.views.view(state, viewer))
        return game.words.summary(state, viewer), size

    def standing(self, game_id: int, number: int, step: int) -> tuple[Any, ...] | None:
        """Each player's public standing after stored step ``(number, step)`` (see
        :func:`bot.web.players.public_standing`); None when there is no such step. Run
        where the drawing is (:meth:`run`): it decodes the state, as the drawing does."""
        key = (game_id, number, step)
        with self._states_lock:
            if key in self._standings:
                return self._standings[key]
        found = self._state(game_id, number, step)
        if found is None:
            return None
        kind, state = found
        standing = public_standing(get_game(kind).views.view(state, None))
        with self._states_lock:
            # (a stored step's never changes: every page of that step, public or a
            # player's, shows the one worked out once)
            self._standings[key] = standing
            while len(self._standings) > STANDINGS_KEPT:
                self._standings.popitem(last=False)
        return standing

    def setup_text(self, game_id: int, viewer: str) -> str | None:
        """What ``viewer`` sees of a game still in setup: their own text and board
        (``summary`` and ``text_board`` of their view: the fleet they placed), nothing
        of anyone else's; None once the game has begun. Never kept: a placement may
        change it at any moment."""
        with self.store.transaction() as tx:
            facts = tx.game(game_id)
            state_json = reads.setup_state(tx, game_id)
        if facts is None or state_json is None:
            return None
        game = get_game(facts.kind)
        state = game.codec.decode_state(loads(state_json))
        parts = [game.words.summary(state, viewer), game.words.text_board(state, viewer)]
        return "\n\n".join(part for part in parts if part)

    def _state(self, game_id: int, number: int, step: int) -> tuple[str, Any] | None:
        key = (game_id, number, step)
        with self._states_lock:
            if key in self._states:
                self._states.move_to_end(key)
                return self._states[key]
        with self.store.transaction() as tx:
            facts = tx.game(game_id)
            state_json = reads.step_state(tx, game_id, number, step)
        found = None
        if facts is not None and state_json is not None:
            found = (facts.kind, get_game(facts.kind).codec.decode_state(loads(state_json)))
        with self._states_lock:
            self._states[key] = found
            while len(self._states) > STATES_KEPT:
                self._states.popitem(last=False)
        return found

    def draw_tile(
        self, game_id: int, number: int, step: int, rect: TileRect, viewer: str | None
    ) -> Drawn | None:
        found = self.view_of(game_id, number, step, viewer)
        if found is None:
            return None
        kind, view = found
        tiles = tiles_for(kind)
        size = None if tiles is None else tiles.board_size(view)
        if tiles is None or size is None or not tiles_on_board(*size, rect):
            return None
        png = tiles.public_tile(view, rect) if viewer is None else tiles.private_tile(view, rect)
        return Drawn(png, "image/png", "", TILE, TILE)

    def own_replay(self, game_id: int, player: str, result: str) -> Awaitable[Drawn | None]:
        """One player's replay of a finished game, the game as they saw it: their own
        board after every move of the game, each drawn from ``view(state, player)`` as
        their DMs showed it, closed by the public ``result``. None before the end."""
        return self._get(
            ("own-replay", game_id, player), "draw_own_replay", game_id, player, result
        )

    def draw_own_replay(self, game_id: int, player: str, result: str) -> Drawn | None:
        with self.store.transaction() as tx:
            facts = tx.game(game_id)
            final = reads.final_state(tx, game_id)
            history = reads.all_states(tx, game_id)
            deadlines = {(s.number, s.step): s.deadline for s in reads.steps(tx, game_id)}
            names = dict(reads.player_names(tx, game_id))
        if facts is None or final is None or player not in names:
            return None
        pictures = pictures_for(facts.kind)
        if pictures is None:
            return None
        game = get_game(facts.kind)
        title = title_of(facts.kind, game_id)
        frames = []
        for number, step, cause, state_json in history:
            if cause in OUTSIDE_PLAY:
                continue  # not a move of the game (its end shows in the last frame)
            view = game.views.view(game.codec.decode_state(loads(state_json)), player)
            deadline = deadlines.get((number, step))
            frames.append(
                pictures.private(
                    view,
                    avatars={},
                    title=title,
                    deadline=None if deadline is None else datetime.fromtimestamp(deadline, UTC),
                    now=None,
                ).png
            )
        last = pictures.private(
            game.views.view(game.codec.decode_state(loads(final)), player),
            avatars={},
            title=title,
            deadline=None,
            now=None,
        ).png
        if not frames or frames[-1] != last:
            frames.append(last)
        name = names[player]
        replay = replay_of_pictures(
            frames,
            title=title,
            facts=f"As {name} saw it",
            names=list(names.values()),
            result=result or "The end",
            detail=f"The game as {name} saw it",
        )
        return Drawn(replay.mp4, "video/mp4", f"{title} as {name} saw it", 0, 0)

    def draw_board(self, game_id: int, number: int, step: int, viewer: str | None) -> Drawn | None:
        with self.store.transaction() as tx:
            facts = tx.game(game_id)
            state_json = reads.step_state(tx, game_id, number, step)
            stored = [s for s in reads.steps(tx, game_id) if (s.number, s.step) == (number, step)]
        if facts is None or state_json is None or not stored:
            return None
        pictures = pictures_for(facts.kind)
        if pictures is None:
            return None
        game = get_game(facts.kind)
        state = game.codec.decode_state(loads(state_json))
        deadline = stored[0].deadline
        options: dict[str, Any] = {
            "avatars": {},
            "title": title_of(facts.kind, game_id),
            "deadline": None if deadline is None else datetime.fromtimestamp(deadline, UTC),
            "now": None,
        }
        if viewer is None:
            picture = pictures.public(game.views.view(state, None), **options)
        else:
            picture = pictures.private(game.views.view(state, viewer), **options)
        with Image.open(io.BytesIO(picture.png)) as image:
            width, height = image.size
        return Drawn(picture.png, "image/png", picture.alt, width, height)

    def draw_replay(self, game_id: int) -> Drawn | None:
        with self.store.transaction() as tx:
            facts = tx.game(game_id)
            final = reads.final_state(tx, game_id)
            history = reads.all_states(tx, game_id)
        if facts is None or final is None:
            return None
        pictures = pictures_for(facts.kind)
        if pictures is None:
            return None
        game = get_game(facts.kind)
        boards: list[tuple[Any, str]] = []
        for number, step, cause, state_json in history:
            if cause in OUTSIDE_PLAY:
                continue
            board = game.views.reveal(game.codec.decode_state(loads(state_json)))
            boards.append((board, pictures.frame_label(number, step)))
        last = game.views.reveal(game.codec.decode_state(loads(final)))
        if not boards or boards[-1][0] != last:
            boards.append((last, pictures.end_label()))
        title = title_of(facts.kind, game_id)
        replay = pictures.replay(boards, title=title, gif=False)
        return Drawn(replay.mp4, "video/mp4", f"Replay of {title}", 0, 0)


def title_of(kind: str, game_id: int) -> str:
    """How the host names a game (``#sonar game 12``), as its posts do."""
    return f"{get_game(kind).tag} game {game_id}"
