"""What each person may see of a U-Boat Shootout game (rules §4), as values for pictures.

The public sees the board and its islands with their owners and powers, each
boat's colour, crew and whether it is afloat (never its cell or health), and the
last round's public facts: every blast's tile with its shooter and each boat hit
with the damage, captures, every move's and ram's route as directions (none under
Fog), each ram's struck tile and hits, destructions with freed islands, crew joins,
and which boats have an evade window. A crew also sees its own boat: cell, health,
range, what stands for it this round, its evasion, its last Sonar reading, and its
cancelled or healed news. A player adrift sees which crews they may join. The
reveal shows every boat, for the replay. Rules in ``shared/rules/uboat.md``.

This module is the game's ``views`` part (:class:`bot.games.base.Views`): :func:`view`
and :func:`reveal`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import PlayerId
from bot.games.grid import Direction
from bot.games.uboat.cells import Cell, Route, parse_cell
from bot.games.uboat.orders import Evade, describe_order
from bot.games.uboat.state import Phase, Said, Status, UboatState
from bot.games.uboat.values import Colour, Power, power_of


@dataclass(frozen=True)
class IslandView:
    number: int
    cell: Cell
    owner: Colour | None
    power: Power | None  # None when powers are off or the island has none


@dataclass(frozen=True)
class PlayerView:
    id: PlayerId
    name: str
    colour: Colour | None  # their own boat
    crew: Colour | None  # the crew they are on now
    status: Status


@dataclass(frozen=True)
class BoatView:
    """A boat as everyone sees it."""

    colour: Colour
    captain: PlayerId
    captain_name: str
    crew: tuple[PlayerId, ...]
    afloat: bool
    evade_window: bool  # damaged last round: may evade while the window is open


@dataclass(frozen=True)
class HitView:
    boat: Colour
    damage: int


@dataclass(frozen=True)
class BlastView:
    shooter: Colour
    cell: Cell
    hits: tuple[HitView, ...]


@dataclass(frozen=True)
class CourseView:
    """A move or a ram as announced: its route (empty under Fog) and, for a ram, the
    struck tile and the boats hit there."""

    boat: Colour
    ram: bool
    route: Route
    fog: bool
    struck: Cell | None
    hits: tuple[HitView, ...]


@dataclass(frozen=True)
class CaptureView:
    island: int
    boat: Colour
    previous: Colour | None


@dataclass(frozen=True)
class SinkingView:
    boat: Colour
    freed: tuple[int, ...]


@dataclass(frozen=True)
class JoinView:
    player: PlayerId
    name: str
    crew: Colour
    chosen: bool


@dataclass(frozen=True)
class PublicView:
    size: int
    phase: Phase
    round: int  # in progress (the last one resolved once finished)
    rounds: int
    powers: bool
    islands: tuple[IslandView, ...]
    players: tuple[PlayerView, ...]
    boats: tuple[BoatView, ...]
    window_open: bool
    last_round: int  # the round the facts below are from (0: none yet)
    blasts: tuple[BlastView, ...]
    captures: tuple[CaptureView, ...]
    courses: tuple[CourseView, ...]
    sinkings: tuple[SinkingView, ...]
    joins: tuple[JoinView, ...]
    winners: tuple[PlayerId, ...]
    draw: bool
    winning_boats: tuple[Colour, ...]
    scores: tuple[tuple[Colour, int], ...]


@dataclass(frozen=True)
class OwnBoatView:
    """A crew's own boat, as only that crew sees it."""

    colour: Colour
    captain: bool  # the viewer is its captain
    cell: Cell
    health: int
    range: int
    fired_in_a_row: int
    islands: tuple[int, ...]
    evade_window: bool  # the window is open for it now
    standing: str | None  # the order that stands for it now, as typed (None: hold)
    standing_from: PlayerId | None
    evasion: str | None  # the evasion that stands while its window is open
    evaded: tuple[Route, Cell] | None  # this round's invisible move
    sonar: int | None  # the Sonar reading as this round began
    cancelled: str | None  # last round: the move or ram a hit prevented
    healed: int | None  # last round: health after the Dry dock


@dataclass(frozen=True)
class PrivateView:
    viewer: PlayerId
    name: str
    public: PublicView
    boat: OwnBoatView | None  # None in setup, adrift or gone
    start: Cell | None  # setup: the starting cell sent
    adrift: bool
    crew_choices: tuple[Colour, ...]  # adrift: the boats afloat to join
    crew_choice: Colour | None  # adrift: the choice sent this round


@dataclass(frozen=True)
class RevealedBoat:
    colour: Colour
    captain: PlayerId
    start: Cell
    placed_at_random: bool
    cell: Cell
    health: int
    afloat: bool


@dataclass(frozen=True)
class RevealedView:
    public: PublicView
    boats: tuple[RevealedBoat, ...]
    starts: tuple[tuple[PlayerId, Cell | None], ...]  # setup: the cells sent


def _hits(entries: Sequence[Mapping[str, Any]]) -> tuple[HitView, ...]:
    return tuple(HitView(Colour(hit["boat"]), int(hit["damage"])) for hit in entries)


def public_view(state: UboatState) -> PublicView:
    names = {p.id: p.name for p in state.players}
    events = state.last_round
    ending = state.ending
    return PublicView(
        size=state.options.size,
        phase=state.phase,
        round=state.turn,
        rounds=state.options.rounds,
        powers=state.options.island_powers,
        islands=tuple(
            IslandView(
                island.number,
                island.cell,
                owner,
                power_of(island.number) if state.options.island_powers else None,
            )
            for island, owner in zip(state.options.islands, state.owners, strict=True)
        ),
        players=tuple(PlayerView(p.id, p.name, p.colour, p.crew, p.status) for p in state.players),
        boats=tuple(
            BoatView(
                boat.colour,
                boat.captain,
                names.get(boat.captain, boat.captain),
                tuple(p.id for p in state.crew_of(boat.colour)),
                boat.afloat,
                state.window_open and boat.colour in state.evaders,
            )
            for boat in state.boats
        ),
        window_open=state.window_open,
        last_round=_last_round_number(state),
        blasts=tuple(
            BlastView(Colour(e["boat"]), parse_cell(e["cell"]), _hits(e["hits"]))
            for e in events
            if e["type"] == "fire"
        ),
        captures=tuple(
            CaptureView(
                int(e["island"]), Colour(e["boat"]), Colour(e["from"]) if e["from"] else None
            )
            for e in events
            if e["type"] == "captured"
        ),
        courses=tuple(
            CourseView(
                Colour(e["boat"]),
                e["type"] == "rammed",
                () if e["fog"] else tuple(Direction(step) for step in e["route"]),
                bool(e["fog"]),
                parse_cell(e["struck"]) if e["type"] == "rammed" else None,
                _hits(e.get("hits", ())),
            )
            for e in events
            if e["type"] in ("moved", "rammed")
        ),
        sinkings=tuple(
            SinkingView(Colour(e["boat"]), tuple(e["freed"]))
            for e in events
            if e["type"] == "destroyed"
        ),
        joins=tuple(
            JoinView(
                e["player"], names.get(e["player"], e["player"]), Colour(e["crew"]), e["chosen"]
            )
            for e in events
            if e["type"] == "joined"
        ),
        winners=ending.winners if ending else (),
        draw=ending.draw if ending else False,
        winning_boats=ending.boats if ending else (),
        scores=ending.scores if ending else (),
    )


def _last_round_number(state: UboatState) -> int:
    if not state.last_round:
        return 0
    return state.turn if state.phase is Phase.FINISHED else state.turn - 1


def private_view(state: UboatState, viewer: PlayerId) -> PublicView | PrivateView:
    player = state.player(viewer)
    public = public_view(state)
    if player is None:
        return public
    boat = state.boat_of(viewer)
    own: OwnBoatView | None = None
    if boat is not None and state.phase is not Phase.SETUP:
        own = _own_boat(state, viewer, boat.colour)
    adrift = state.phase is Phase.BATTLE and not player.left and player.crew is None
    choice = next((colour for pid, colour in state.crew_choices if pid == viewer), None)
    return PrivateView(
        viewer=viewer,
        name=player.name,
        public=public,
        boat=own,
        start=player.start,
        adrift=adrift,
        crew_choices=tuple(b.colour for b in state.afloat) if adrift else (),
        crew_choice=choice if adrift else None,
    )


def _own_boat(state: UboatState, viewer: PlayerId, colour: Colour) -> OwnBoatView:
    boat = state.boat(colour)
    assert boat is not None
    crew = {p.id for p in state.crew_of(colour)}
    said = [s for s in state.said if s.player in crew]
    stands = _stands([s for s in said if not isinstance(s.order, Evade)], boat.captain)
    evasion = _stands([s for s in said if isinstance(s.order, Evade)], boat.captain)
    mine = [e for e in state.last_round if e.get("boat") == colour.value]
    window = state.window_open and colour in state.evaders
    return OwnBoatView(
        colour=colour,
        captain=boat.captain == viewer,
        cell=boat.cell,
        health=boat.health,
        range=state.range_of(boat),
        fired_in_a_row=boat.fired_in_a_row,
        islands=tuple(island.number for island in state.islands_of(colour)),
        evade_window=window,
        standing=describe_order(stands.order) if stands is not None else None,
        standing_from=stands.player if stands is not None else None,
        evasion=describe_order(evasion.order) if evasion is not None and window else None,
        evaded=next(
            (
                (tuple(Direction(step) for step in e["route"]), parse_cell(e["cell"]))
                for e in state.this_window
                if e["type"] == "evaded" and e["boat"] == colour.value
            ),
            None,
        ),
        sonar=next((int(e["distance"]) for e in mine if e["type"] == "sonar"), None),
        cancelled=next((str(e["action"]) for e in mine if e["type"] == "cancelled"), None),
        healed=next((int(e["health"]) for e in mine if e["type"] == "healed"), None),
    )


def _stands(said: Sequence[Said], captain: PlayerId) -> Said | None:
    """The captain's if given, else the latest (``said`` is in arrival order)."""
    for entry in said:
        if entry.player == captain:
            return entry
    return said[-1] if said else None


def revealed_view(state: UboatState) -> RevealedView:
    return RevealedView(
        public=public_view(state),
        boats=tuple(
            RevealedBoat(
                boat.colour,
                boat.captain,
                boat.start,
                boat.placed_at_random,
                boat.cell,
                boat.health,
                boat.afloat,
            )
            for boat in state.boats
        ),
        starts=tuple((p.id, p.start) for p in state.players),
    )


def view(state: UboatState, viewer: PlayerId | None) -> PublicView | PrivateView:
    """What ``viewer`` may see; ``None`` (anyone) sees the public view."""
    if viewer is None:
        return public_view(state)
    return private_view(state, viewer)


reveal = revealed_view
"""Every boat, for the replay of a finished game (the ``views`` part's ``reveal``)."""
