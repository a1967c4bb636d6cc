"""What each address of the web page answers, from the read-only store.

Public pages show only what every player may know: a step's public report
(``Words.public_report_in_full``: a crowd's turn in full, where its chat post is a digest), the public map (``view(state, None)``), the public text
(``summary(state, None)``), names, phases and deadlines; the record and the replay only
once the game is over. A private link shows its holder's own reports, board and text
(``private_report``, ``view(state, player)``, ``summary(state, player)``) and nobody
else's. Every answer is a function of the database alone (no clock, no random ids), so
two games that differ only in hidden facts serve the same public bytes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Event, GameError, GamePhase
from bot.games.catalog import games as all_games
from bot.games.catalog import get_game
from bot.host import timers
from bot.host.links import listed
from bot.host.messages import PlatformFace
from bot.host.record import game_record
from bot.host.yielding import off_loop
from bot.store import Store, Tx, loads, reads, records
from bot.store.rooms import rooms_of
from bot.store.seats import seat_changes
from bot.web import pages, players_pages
from bot.web.links import Holder, holder_of
from bot.web.pictures import Drawn, PictureCache, title_of
from renderers.tiles import LEVELS, TILE, TileRect, cell_of

SUMMARY_LIMIT = 6000
"""Longer text boards (a huge board's) are left out: the picture shows them."""

NOT_FOUND = pages.not_found()
"""The one answer to any address that names nothing (an unknown game or turn, a wrong
or revoked link, a record asked for before the game ends): the same bytes for all."""


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


MISSING = Reply(404, NOT_FOUND)

PAGE_SIZE = 50
"""Games on one page of the list of games."""

LIST_SECONDS = 5.0
"""How long the list of games is served as it was read (it changes with every turn of
every game: read afresh for each visitor, it cost 50 ms of CPU a hit at 3,000 games)."""


LINE_EVENTS = 200_000
"""Characters of a turn's stored events at most for its line in the list of turns."""

LINE_LENGTH = 120
"""A turn's line in the list of turns, at most."""

STALE_SECONDS = 30.0
"""How recently a game's page must have been read at its version before a change for
that page to stand in while the changed one is drawn (else the first visitor waits)."""


def _validator(body: bytes) -> dict[str, str]:
    """A page's ETag: its bytes' hash (a page is a function of the database alone)."""
    return {"ETag": '"' + hashlib.sha256(body).hexdigest()[:32] + '"'}


def version_of(game: records.Game, steps: int) -> str:
    """A word that changes whenever the game's page would (live updates compare it);
    ``steps``: how many of its steps are stored (see :func:`reads.step_counts`)."""
    return f"{steps}-{game.turn}-{game.phase}-{game.deadline}-{game.paused_remaining is not None}"


def versions_of(tx: Tx, ids: Sequence[int]) -> dict[int, str]:
    """The :func:`version_of` each game of ``ids`` that exists."""
    steps = reads.step_counts(tx, ids)
    return {g.id: version_of(g, steps.get(g.id, 0)) for g in tx.games_numbered(ids)}


def where_of(game: records.Game, faces: Mapping[str, PlatformFace]) -> tuple[str, str]:
    """(where the game is played, a link to it where one can be made), see
    :func:`where_is`."""
    return where_is(game.platform, game.channel, faces)


def where_is(
    platform_name: str, channel: str, faces: Mapping[str, PlatformFace]
) -> tuple[str, str]:
    """(a room in words, a link to it where the platform's face says one can be made
    without asking the platform). A platform without a face (the console, a script) is
    named by its name."""
    face = faces.get(platform_name) or PlatformFace(platform_name)
    url = face.channel_url(channel) if face.channel_url and channel else ""
    if url:
        return f"{face.title} thread {channel}", url
    return (f"{face.title} channel {channel}" if channel else face.title), ""


@dataclass(frozen=True)
class Public:
    """What a game's page says of it besides its turns, all of it public: the options
    it was opened with, the rooms it is bridged to, and who plays each seat since
    when, when a substitute does."""

    options: str = "{}"
    rooms: tuple[tuple[str, str], ...] = ()
    substitutes: tuple[tuple[str, int, str], ...] = ()


HIDDEN_OPTIONS = frozenset({"seed"})
"""Options the page leaves out (the seed's place is the record, once the game ends)."""


def options_said(stored: str) -> str:
    """The options as typed: ``size=10x10 turn=8h``."""
    given = loads(stored or "{}") or {}
    return " ".join(f"{k}={v}" for k, v in given.items() if k not in HIDDEN_OPTIONS)


LIST = 0
"""The number the list of games is watched by for live updates (games count from 1)."""


def list_version(shown: Sequence[records.GameHeading]) -> str:
    """A word that changes whenever a game is listed, starts or ends (what the list of
    games shows in sections): an open list follows it live."""
    said = ";".join(f"{g.id}:{g.phase}" for g in shown)
    return hashlib.sha256(said.encode()).hexdigest()[:16]


def _events(stored: str) -> list[Event]:
    return [
        Event(str(record["type"]), {k: v for k, v in record.items() if k != "type"})
        for record in loads(stored) or []
    ]


def _running(stored: str) -> tuple[tuple[str, float], ...]:
    return tuple(
        (entry.label, float(entry.deadline))
        for entry in timers.running(timers.decode(stored))
        if entry.deadline is not None
    )


class Site:
    def __init__(
        self,
        store: Store,
        *,
        pictures: PictureCache | None = None,
        site_url: str = "",
        faces: Mapping[str, PlatformFace] | None = None,
    ) -> None:
        """``site_url``: the page's public address (``[web] base_url``), for the
        absolute addresses of link previews' pictures ("": previews without one).
        ``faces``: how each platform is named and linked (its declaration's)."""
        self.store = store
        self.faces = dict(faces or {})
        self.site_url = site_url
        self.pictures = pictures or PictureCache(store)
        self._results: dict[int, str] = {}  # a finished game's result line, once worked out
        self._pages: dict[tuple[Any, ...], bytes] = {}
        self._building: dict[tuple[Any, ...], asyncio.Future[bytes | None]] = {}
        # (game, viewer, base) → (its version, the newest page built of the game's newest turn)
        self._newest: dict[tuple[Any, ...], tuple[str, bytes]] = {}
        # game → (its version as last read, when); game → (its new version, the one
        # before when that was read a moment before the change, else None)
        self._seen: dict[int, tuple[str, float]] = {}
        self._changed: dict[int, tuple[str, str | None]] = {}
        self._listed: dict[int, bool] = {}
        # (game, turn, its steps stored) → the turn's line in the list of turns
        self._lines: dict[tuple[int, int, int], str] = {}  # (a game's reach never changes)
        # (when read, the listed games newest first, their version, the pages built)
        self._ratings: tuple[float, list[records.Rating]] | None = None
        self._listing: (
            tuple[float, list[records.GameHeading], str, dict[tuple[int, str, str], Reply]] | None
        ) = None

    # --- reading -----------------------------------------------------------------

    def facts(self, game_id: int) -> records.Game | None:
        """The game's record (its state never read here), None for no such game."""
        with self.store.transaction() as tx:
            return tx.game(game_id)

    def _versioned(self, game_id: int) -> tuple[records.Game, str] | None:
        """The game's record and its page's version (:func:`version_of`), read at once."""
        with self.store.transaction() as tx:
            game = tx.game(game_id)
            if game is None:
                return None
            return game, version_of(game, reads.step_counts(tx, [game_id]).get(game_id, 0))

    def is_listed(self, game_id: int) -> bool:
        """Whether the game's public pages are served (see :func:`listed`); False for a
        game that does not exist."""
        known = self._listed.get(game_id)
        if known is not None:
            return known
        facts = self.facts(game_id)
        if facts is None:
            return False
        shown = self._listed[game_id] = listed(facts.platform, facts.open_to_all)
        return shown

    async def public(self, game_id: int) -> bool:
        """:meth:`is_listed`, off the event loop unless known."""
        known = self._listed.get(game_id)
        return known if known is not None else await asyncio.to_thread(self.is_listed, game_id)

    def holder(self, token: str) -> Holder | None:
        return holder_of(self.store, token)

    def _result(self, facts: records.Game, names: dict[str, str]) -> str:
        if facts.phase != GamePhase.FINISHED:
            return ""
        known = self._results.get(facts.id)
        if known is not None:
            return known
        with self.store.transaction() as tx:
            final = reads.final_state(tx, facts.id)
        result = ""
        if final is not None:
            try:
                game = get_game(facts.kind)
                state = game.codec.decode_state(loads(final))
            except (GameError, ValueError, KeyError):
                # A kind no longer played, or a state this version cannot read: no
                # result line, rather than no list of games at all.
                self._results[facts.id] = ""
                return ""
            result = game.words.result(state, names)
            outcome = game.rules.outcome(state)
            if not result and outcome is not None:
                winners = ", ".join(names.get(key, key) for key in outcome.winners)
                result = "A draw." if outcome.draw else f"Won by {winners}." if winners else ""
        self._results[facts.id] = result
        return result

    # --- the list of games -------------------------------------------------------------

    def _read_list(
        self, newest: str | None = None
    ) -> tuple[float, list[records.GameHeading], str, dict[tuple[int, str, str], Reply]]:
        """(when read, the listed games newest first, the list's version (see
        :func:`list_version`), the pages built of it), read again at most every
        :data:`LIST_SECONDS`, or at once when ``newest`` (the version live updates
        announced) is not the one read."""
        now = time.monotonic()
        listing = self._listing
        stale = listing is not None and newest is not None and newest != listing[2]
        if listing is None or stale or now - listing[0] >= LIST_SECONDS:
            with self.store.transaction() as tx:
                shown = [g for g in reads.listing(tx) if listed(g.platform, g.open_to_all)]
            listing = self._listing = (now, shown, list_version(shown), {})
        return listing

    def games_list(
        self, page: int = 1, kind: str = "", state: str = "", newest: str | None = None
    ) -> Reply:
        """Page ``page`` of the listed games, :data:`PAGE_SIZE` a page: the live ones
        first, then the finished, newest first in each; only games of ``kind`` and in
        ``state`` (``live``, ``finished``) when given. Each page is built once from a
        reading of the list (see :meth:`_read_list`, and its ``newest``)."""
        _, every, version, built = self._read_list(newest)
        known = built.get((page, kind, state))
        if known is not None:
            return known
        chosen = [
            g
            for g in every
            if (not kind or g.kind == kind)
            and (not state or (g.phase == GamePhase.FINISHED) == (state == "finished"))
        ]
        chosen.sort(key=lambda g: g.phase == GamePhase.FINISHED)  # (stable: newest first)
        count = max(1, math.ceil(len(chosen) / PAGE_SIZE))
        if not 1 <= page <= count:
            return MISSING
        shown = [g.id for g in chosen[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]]
        with self.store.transaction() as tx:
            by_id = {g.id: g for g in tx.games_numbered(shown)}
            counts = reads.player_counts(tx, shown)
            robot_counts = reads.robot_counts(tx, shown)
            finished = {
                g.id: dict(reads.player_names(tx, g.id))
                for g in by_id.values()
                if g.phase == GamePhase.FINISHED and g.id not in self._results
            }
        lines = []
        for facts in (by_id[i] for i in shown if i in by_id):
            where, url = where_of(facts, self.faces)
            running = _running(facts.timers)
            names = finished.get(facts.id, {})
            lines.append(
                pages.GameLine(
                    number=facts.id,
                    title=title_of(facts.kind, facts.id),
                    kind=facts.kind,
                    where=where,
                    where_url=url,
                    phase=_phase_word(facts.kind, facts.phase),
                    turn=facts.turn,
                    players=counts.get(facts.id, 0),
                    robots=robot_counts.get(facts.id, 0),
                    deadline=running[0][1] if running else None,
                    result=self._result(facts, names),
                    live=facts.phase != GamePhase.FINISHED,
                    turn_word=turn_word(facts.kind),
                )
            )
        body = pages.games_list(
            lines,
            page=page,
            pages=count,
            kinds=tuple(sorted({g.kind for g in every})),
            kind=kind,
            state=state,
            version=version,
        )
        reply = built[(page, kind, state)] = Reply(200, body, headers=_validator(body))
        return reply

    # --- players ----------------------------------------------------------------------

    def _rated(self) -> list[records.Rating]:
        """The ratings shown (see :func:`reads.shown_ratings`), read again at most every
        :data:`LIST_SECONDS`."""
        now = time.monotonic()
        if self._ratings is None or now - self._ratings[0] >= LIST_SECONDS:
            with self.store.transaction() as tx:
                self._ratings = (now, reads.shown_ratings(tx))
        return self._ratings[1]

    def leaderboards(self) -> Reply:
        """Each kind's leaderboard, of the persons who let the web show them."""
        by_kind: dict[str, list[records.Rating]] = {}
        for rated in self._rated():
            by_kind.setdefault(rated.kind, []).append(rated)
        body = players_pages.leaderboards(list(by_kind.items()), _awards())
        return Reply(200, body, headers=_validator(body))

    def player(self, address: str) -> Reply:
        """A person's page (``/players/DIGEST``): their ratings, and the listed games
        any of their accounts played; the one 404 for anyone else."""
        rated = [r for r in self._rated() if players_pages.player_address(r.person) == address]
        if not rated:
            return MISSING
        person = rated[0].person
        with self.store.transaction() as tx:
            ids = reads.games_of_person(tx, person)
            games = [g for g in tx.games_numbered(ids) if listed(g.platform, g.open_to_all)]
            names = {
                g.id: dict(reads.player_names(tx, g.id))
                for g in games
                if g.phase == GamePhase.FINISHED and g.id not in self._results
            }
        played = [
            players_pages.PlayedGame(
                g.id,
                title_of(g.kind, g.id),
                _phase_word(g.kind, g.phase),
                self._result(g, names.get(g.id, {})),
            )
            for g in games[:PAGE_SIZE]
        ]
        name = max(rated, key=lambda r: r.played).name or "someone"
        body = players_pages.player_page(name, rated, played, _awards())
        return Reply(200, body, headers=_validator(body))

    # --- one game's page ---------------------------------------------------------------

    async def game_page(
        self, game_id: int, turn: int | None, *, viewer: str | None = None, base: str = ""
    ) -> Reply:
        """The public page of a game (``viewer`` None), or a player's own page at
        ``base`` (their link's path); ``turn`` None shows the newest turn. Built once per
        version of the game (concurrent asks wait for the one building), off the event
        loop: a big game's state takes a while to decode."""
        versioned = await asyncio.to_thread(self._versioned, game_id)
        if versioned is None:
            return MISSING
        facts, version = versioned
        if viewer is None and not listed(facts.platform, facts.open_to_all):
            return MISSING
        base = base or f"/games/{game_id}"
        if viewer is not None and facts.phase == GamePhase.SETUP:
            # A placement changes a player's own page and not the game's version: built
            # afresh for each ask (a game in setup is small and its page cheap).
            body = await self._build(facts, version, turn, viewer, base)
            return MISSING if body is None else Reply(200, body, headers=_validator(body))
        before = self._just_before(game_id, version)
        key = (game_id, version, turn, viewer, base)
        cached = self._pages.get(key)
        if cached is not None:
            return Reply(200, cached, headers=_validator(cached))
        building = self._building.get(key)
        if building is None:
            building = asyncio.ensure_future(self._build(facts, version, turn, viewer, base))
            self._building[key] = building
            building.add_done_callback(lambda done: self._built(key, done))
        # The newest turn's page, while its next version is being drawn: the one before
        # (a moment old; an open page's script asks again until it has the new one).
        # Only the version just before, read a moment before the change: a page nobody
        # asked for since an older turn is built anew, not served turns behind.
        previous = self._newest.get((game_id, viewer, base)) if turn is None else None
        if previous is not None and previous[0] == before and not building.done():
            # (kept by nobody: the next ask gets the new page)
            return Reply(200, previous[1], headers={"Cache-Control": "no-store"})
        body = await asyncio.shield(building)
        return MISSING if body is None else Reply(200, body, headers=_validator(body))

    def _just_before(self, game_id: int, version: str) -> str | None:
        """The game's version before ``version`` when it was read at most
        :data:`STALE_SECONDS` before this one was first (its page may stand in for a
        moment while the new one is drawn); None otherwise."""
        now = time.monotonic()
        seen = self._seen.get(game_id)
        if seen is not None and seen[0] != version:
            recent = now - seen[1] <= STALE_SECONDS
            self._changed[game_id] = (version, seen[0] if recent else None)
        self._seen[game_id] = (version, now)
        changed = self._changed.get(game_id)
        return changed[1] if changed is not None and changed[0] == version else None

    def _built(self, key: tuple[Any, ...], done: asyncio.Future[bytes | None]) -> None:
        self._building.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return
        body = done.result()
        if body is None:
            return
        if len(self._pages) > 2048:
            self._pages.clear()
            self._newest.clear()
        self._pages[key] = body
        if key[2] is None:
            self._newest[(key[0], key[3], key[4])] = (key[1], body)

    async def _build(
        self,
        facts: records.Game,
        version: str,
        turn: int | None,
        viewer: str | None,
        base: str,
    ) -> bytes | None:
        game_id = facts.id

        def read() -> tuple[dict[str, str], list[reads.StepFacts], Public, dict[str, str]]:
            with self.store.transaction() as tx:
                public = Public(
                    facts.options,
                    tuple((r.platform, r.channel) for r in rooms_of(tx, game_id)),
                    tuple((c.player_key, c.turn, c.to_name) for c in seat_changes(tx, game_id)),
                )
                names = dict(reads.player_names(tx, game_id))
                robots = reads.robot_levels(tx, game_id)
                return names, reads.steps(tx, game_id), public, robots

        names, steps, public, robots = await asyncio.to_thread(read)
        if viewer is not None and viewer not in names:
            return None
        turns = tuple(sorted({s.number for s in steps}))
        if turn is not None and turn not in turns:
            return None
        shown = turn if turn is not None else (turns[-1] if turns else None)
        of_turn = [s for s in steps if s.number == shown]
        drawn = None
        text = None
        placed = None
        standing = None
        if viewer is not None and not of_turn and facts.phase == GamePhase.SETUP:
            placed = await self.pictures.run("setup_text", game_id, viewer)
        if of_turn:
            last = of_turn[-1]
            drawn = await self.pictures.board(game_id, last.number, last.step, viewer)
            # (the state decoded where the picture was drawn, not here)
            text = await self.pictures.run("step_text", game_id, last.number, last.step, viewer)
            standing = await self.pictures.run("standing", game_id, last.number, last.step)
        if placed is not None:
            text = (placed, None)
        newest = (steps[-1].number, steps[-1].step) if steps and drawn is not None else None
        return await off_loop(
            self._page,
            facts,
            version,
            turn,
            viewer,
            base,
            names,
            turns,
            of_turn,
            drawn,
            text,
            newest,
            steps,
            public,
            standing,
            tuple(_shown(name, robots.get(key, "")) for key, name in names.items()),
        )

    def _page(
        self,
        facts: records.Game,
        version: str,
        turn: int | None,
        viewer: str | None,
        base: str,
        names: dict[str, str],
        turns: tuple[int, ...],
        of_turn: list[reads.StepFacts],
        drawn: Drawn | None,
        text: tuple[str, tuple[int, int] | None] | None,
        newest: tuple[int, int] | None = None,
        steps: Sequence[reads.StepFacts] = (),
        public: Public = Public(),
        standing: tuple[tuple[str, tuple[str, ...]], ...] | None = None,
        players: tuple[str, ...] = (),  # as the list shows them: robots marked
    ) -> bytes:
        game_id = facts.id
        game = get_game(facts.kind)
        report: list[str] = []
        own: list[str] = []
        shots_at = ships_at = ""
        picture: pages.MapShown | None = None
        tiled: pages.TiledBoard | None = None
        summary = ""
        # A player's page tells what everyone was told (as the channel was: a crowd's
        # digest, not its every shot for each of its captains), then what only they were.
        for stored in of_turn:
            events = _events(stored.events)
            if viewer is None:
                report += game.words.public_report_in_full(events, names)
            else:
                report += game.words.public_report(events, names)
                own += game.words.private_report(events, viewer)
        if text is not None and not of_turn:
            summary = text[0] if len(text[0]) <= SUMMARY_LIMIT else ""
        if of_turn:
            last = of_turn[-1]
            if drawn is not None:
                picture = pages.MapShown(
                    f"{base}/map/{last.number}-{last.step}.png",
                    drawn.alt,
                    drawn.width,
                    drawn.height,
                )
            if text is not None:
                summary = text[0] if len(text[0]) <= SUMMARY_LIMIT else ""
                size = text[1] if picture is not None else None
                if size is not None:
                    shots_at = _spots(report, *size)
                    if viewer is not None:
                        mine = [line for line in text[0].splitlines() if "Your" in line]
                        ships_at = _spots(mine, *size)
                    tiled = pages.TiledBoard(
                        src=f"{base}/tiles/{last.number}-{last.step}",
                        rows=size[0],
                        cols=size[1],
                        tile=TILE,
                        cells=tuple(cell_of(level) for level in range(LEVELS)),
                    )
        lines = self._turn_lines(facts.id, game, steps, names)
        finished = facts.phase == GamePhase.FINISHED
        shown_publicly = listed(facts.platform, facts.open_to_all)
        where, url = where_of(facts, self.faces)
        page = pages.GamePage(
            title=title_of(facts.kind, game_id),
            kind=facts.kind,
            where=where,
            where_url=url,
            phase=game.phase_word(facts.phase),
            turn=facts.turn,
            deadlines=_running(facts.timers) if not finished else (),
            paused=facts.paused_remaining is not None,
            players=players,
            roster=_roster(
                names, standing or (), public.substitutes, turn_word(facts.kind), players
            ),
            options=options_said(public.options),
            rooms=tuple(where_is(*room, self.faces) for room in public.rooms),
            join=(f"{game.tag} join" if facts.phase == GamePhase.SETUP and viewer is None else ""),
            result=self._result(facts, names),
            base=base,
            turns=turns,
            shown=of_turn[0].number if of_turn else None,
            latest=turn is None,
            report=tuple(report),
            own_report=tuple(own),
            picture=picture,
            tiled=tiled,
            summary=summary,
            rules=game.words.rules_text(),
            version=version,
            # An unlisted game's public replay and record are not served at a public
            # address: its players' page offers their own replay and the record there.
            replay_src=f"/games/{game_id}/replay.mp4" if finished and shown_publicly else "",
            own_replay_src=f"{base}/replay.mp4" if finished and viewer is not None else "",
            record_src=(
                ""
                if not finished
                else f"/games/{game_id}/record.json"
                if shown_publicly
                else f"{base}/record.json"
            ),
            record_name=record_name(game_id) if finished else "",
            # The replay a frame at a time: the public pictures (an unlisted game's
            # only at its players' own page, where they are their own).
            frames=(
                tuple((s.number, s.step) for s in steps)
                if finished and drawn is not None and (shown_publicly or viewer is not None)
                else ()
            ),
            frames_base=base,
            viewer=names[viewer] if viewer is not None else "",
            turn_word=turn_word(facts.kind),
            turn_lines=lines,
            site_url=self.site_url,
            shots_at=shots_at,
            ships_at=ships_at,
            # A replay's poster: the last picture of the game (Safari shows a blank
            # box without one; the video itself loads only once asked to play).
            replay_poster=(
                f"/games/{game_id}/map/{newest[0]}-{newest[1]}.png"
                if newest is not None and finished and shown_publicly
                else ""
            ),
            own_replay_poster=(
                f"{base}/map/{newest[0]}-{newest[1]}.png"
                if newest is not None and finished and viewer is not None
                else ""
            ),
        )
        return pages.game_page(page)

    def _turn_lines(
        self,
        game_id: int,
        game: Any,
        steps: Sequence[reads.StepFacts],
        names: dict[str, str],
    ) -> tuple[str, ...]:
        """Each stored turn's line in the list of turns: the first line of its public
        report (a crowd's digest), worked out once per turn and its steps; a turn whose
        events are too many to read for a line has none."""
        by_turn: dict[int, list[reads.StepFacts]] = {}
        for stored in steps:
            by_turn.setdefault(stored.number, []).append(stored)
        lines = []
        for number, of_turn in sorted(by_turn.items()):
            key = (game_id, number, len(of_turn))
            line = self._lines.get(key)
            if line is None:
                line = ""
                if sum(len(s.events) for s in of_turn) <= LINE_EVENTS:
                    events = [e for s in of_turn for e in _events(s.events)]
                    said = game.words.public_report(events, names)
                    line = said[0] if said else game.words.quiet_report()
                    if len(line) > LINE_LENGTH:
                        line = line[: LINE_LENGTH - 1].rstrip() + "…"
                if len(self._lines) > 65536:
                    self._lines.clear()
                self._lines[key] = line
            lines.append(line)
        return tuple(lines)

    async def board(
        self, game_id: int, number: int, step: int, viewer: str | None = None
    ) -> Drawn | None:
        """A stored step's picture, for the public or one player. A stored step never
        changes: a picture drawn is served from the cache with no database read (an
        unknown game or step draws nothing, and nothing is kept)."""
        return await self.pictures.board(game_id, number, step, viewer)

    async def tile(
        self, game_id: int, number: int, step: int, rect: TileRect, viewer: str | None = None
    ) -> Drawn | None:
        """A tile of the board after a stored step, the public one or ``viewer``'s own:
        only of a board drawn in tiles, only within its edges (anything else is not
        found, and not kept)."""
        return await self.pictures.tile(game_id, number, step, rect, viewer)

    async def replay(self, game_id: int) -> Drawn | None:
        facts = await asyncio.to_thread(self.facts, game_id)
        if facts is None or facts.phase != GamePhase.FINISHED:
            return None
        return await self.pictures.replay(game_id)

    async def own_replay(self, game_id: int, player: str) -> Drawn | None:
        """A player's own replay (the game as they saw it), once the game is over."""
        facts = await asyncio.to_thread(self.facts, game_id)
        if facts is None or facts.phase != GamePhase.FINISHED:
            return None

        def result() -> str:
            with self.store.transaction() as tx:
                names = dict(reads.player_names(tx, game_id))
            return self._result(facts, names)

        return await self.pictures.own_replay(game_id, player, await asyncio.to_thread(result))

    def record(self, game_id: int) -> Reply:
        """The full record, hidden facts and all: only once the game is over."""
        facts = self.facts(game_id)
        if facts is None or facts.phase != GamePhase.FINISHED:
            return MISSING
        record = game_record(self.store, game_id)
        body = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        # Saved as ``bst-game-12.json``, not as ``record.json`` of every game alike.
        named = {"Content-Disposition": f'attachment; filename="{record_name(game_id)}"'}
        return Reply(200, body, "application/json; charset=utf-8", named)


def record_name(game_id: int) -> str:
    """The file a game's record is saved as."""
    return f"bst-game-{game_id}.json"


def _roster(
    names: dict[str, str],
    standing: Sequence[tuple[str, tuple[str, ...]]],
    substitutes: Sequence[tuple[str, int, str]],
    word: str = "turn",
    shown: Sequence[str] = (),
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(name, what is public of them) of each player, in the order they joined: their
    standing in the game (see :mod:`bot.web.players`), and who plays their seat since
    which turn when a substitute does; ``shown``: each name as the page shows it."""
    facts = {key: list(said) for key, said in standing}
    for key, turn, name in substitutes:
        since = f" since {word} {turn}" if turn else ""
        facts.setdefault(key, []).append(f"played by {name}{since}")
    # (each name as the list shows it, ``shown``: robots marked with their level)
    named = shown or tuple(names.values())
    return tuple((name, tuple(facts.get(key, ()))) for key, name in zip(names, named, strict=True))


_CELL = re.compile(r"\b([A-Z]{1,3})([0-9]{1,4})\b")

SPOTS = 400
"""Cells named for a "go to" button at most (it goes to their middle)."""


def _spots(lines: list[str], rows: int, cols: int) -> str:
    """The board cells named in ``lines`` (``H14``: row letters from the top, ``A``…``Z``,
    ``AA``…, then the column from 1, as the tiled boards' games write them), as
    ``row,column`` from 0, by spaces; names off the board are left out."""
    found: dict[str, None] = {}
    for line in lines:
        for letters, number in _CELL.findall(line):
            row = 0
            for letter in letters:
                row = row * 26 + ord(letter) - ord("A") + 1
            row, col = row - 1, int(number) - 1
            if 0 <= row < rows and 0 <= col < cols:
                found[f"{row},{col}"] = None
            if len(found) >= SPOTS:
                return " ".join(found)
    return " ".join(found)


def _awards() -> dict[str, tuple[str, str]]:
    """Each kind's award (singular, plural), for the kinds that give one."""
    return {g.name: g.award for g in all_games() if g.award is not None}


def turn_word(kind: str) -> str:
    """The game's own word for a turn (``turn``, U-Boat's ``round``), as its reports'
    titles name one (:meth:`Words.report_title`)."""
    try:
        title = get_game(kind).words.report_title(7)
    except GameError:
        return "turn"
    word = title.partition("7")[0].strip()
    return word if word.isalpha() else "turn"


def _phase_word(kind: str, phase: str) -> str:
    """A game's phase as players read it (its own word for its running phase); a game of a
    kind this host no longer plays shows the stored phase."""
    try:
        return get_game(kind).phase_word(phase)
    except GameError:
        return phase


def _shown(name: str, robot: str) -> str:
    """A seat as the players list shows it: a robot's marked with its level (a seat
    handed to a robot keeps its player's name: ``bob (strong robot)``)."""
    return f"{name} ({robot} robot)" if robot else name
