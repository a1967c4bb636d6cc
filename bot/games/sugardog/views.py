"""What each captain is shown, as plain values (shared/rules/sugardog.md §2, §3;
shared/contracts/sugardog.md, "What is public").

Views are the only way secrets leave the rules. The public view holds what the
host has announced: the board, the turn order and who is to move, each turn's
action name (or that time ran out), its contacts, impacts, ping reports,
eliminations and leaves, where submarines went down, and counts anyone can
keep (mines laid, torpedoes fired). A captain's private view adds exactly their
own submarine, mines, torpedoes, starting cell and the private side of their
own turns (silent cell, launches, mines laid, torpedoes lost). The revealed
view (everything) is for finished games and the host's records only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.base import Event, PlayerId
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell, parse_cell
from bot.games.sugardog.orders import Leave, action_name, describe_order
from bot.games.sugardog.state import Captain, Phase, Status, SugarDogState, TurnEntry, UnitKind
from bot.games.sugardog.units import PRIVATE_EVENTS


@dataclass(frozen=True)
class UnitView:
    owner: PlayerId
    owner_name: str
    kind: UnitKind
    torpedo: int | None = None


@dataclass(frozen=True)
class ContactView:
    unit: UnitView
    cell: Cell


@dataclass(frozen=True)
class ImpactView:
    cell: Cell
    unit: UnitView
    """What entered the cell."""
    destroyed: tuple[UnitView, ...]


@dataclass(frozen=True)
class SightingView:
    unit: UnitView
    cell: Cell
    distance: int


@dataclass(frozen=True)
class PingView:
    player: PlayerId
    player_name: str
    cell: Cell
    report: tuple[SightingView, ...]


@dataclass(frozen=True)
class EliminatedView:
    player: PlayerId
    name: str


@dataclass(frozen=True)
class LeftView:
    player: PlayerId
    name: str


@dataclass(frozen=True)
class FinishedView:
    winners: tuple[PlayerId, ...]
    winner_names: tuple[str, ...]
    draw: bool


PublicFact = ContactView | ImpactView | PingView | EliminatedView | LeftView | FinishedView


@dataclass(frozen=True)
class SilentView:
    cell: Cell


@dataclass(frozen=True)
class LaunchedView:
    torpedo: int
    cell: Cell
    direction: Direction


@dataclass(frozen=True)
class MineLaidView:
    cell: Cell
    left: int


@dataclass(frozen=True)
class LostView:
    torpedo: int


PrivateFact = SilentView | LaunchedView | MineLaidView | LostView


@dataclass(frozen=True)
class PublicTurn:
    """One turn as everyone saw it. ``action`` is ``silent``, ``cruise``, ``ping``,
    ``torpedo``, ``mine``, ``leave`` (``player`` left during it) or ``end`` (the
    host ended the game); ``timeout``: time ran out (a silent stay)."""

    number: int
    mover: PlayerId
    mover_name: str
    player: PlayerId
    player_name: str
    action: str
    timeout: bool
    facts: tuple[PublicFact, ...]


@dataclass(frozen=True)
class CaptainView:
    """A captain as everyone knows them. ``wreck`` is the cell where their submarine
    went down (announced by the impact); ``silent`` follows from their last action's
    name; ``mines_laid`` and ``torpedoes_fired`` count their public actions."""

    id: PlayerId
    name: str
    status: Status
    silent: bool
    mines_laid: int
    torpedoes_fired: int
    wreck: Cell | None


@dataclass(frozen=True)
class PublicView:
    """The public picture: ``turn`` is the turn in progress (in a finished game, the
    last one); ``current`` the captain to move (None in setup and when finished)."""

    size: int
    phase: Phase
    turn: int
    current: PlayerId | None
    current_name: str | None
    order: tuple[PlayerId, ...]
    captains: tuple[CaptainView, ...]
    turns: tuple[PublicTurn, ...]
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False

    @property
    def last_turn(self) -> PublicTurn | None:
        return self.turns[-1] if self.turns else None


@dataclass(frozen=True)
class TorpedoView:
    number: int
    cell: Cell
    direction: Direction


@dataclass(frozen=True)
class SideView:
    """One captain's own things: their submarine (``cell`` is where it is, or went
    down), mines (cell order, a cell twice for two), torpedoes by number."""

    id: PlayerId
    name: str
    status: Status
    start_cell: Cell | None
    random_start: bool
    cell: Cell | None
    silent: bool
    mines_left: int
    mines: tuple[Cell, ...]
    torpedoes: tuple[TorpedoView, ...]


@dataclass(frozen=True)
class OwnTurn:
    """One of the viewer's own turns: the order given, where the submarine was after
    it, mines left, and what only they were told."""

    number: int
    order: str
    timeout: bool
    cell_after: Cell | None
    mines_left_after: int
    facts: tuple[PrivateFact, ...]


@dataclass(frozen=True)
class PrivateView:
    viewer: PlayerId
    viewer_name: str
    public: PublicView
    side: SideView
    turns: tuple[OwnTurn, ...]


@dataclass(frozen=True)
class RevealedView:
    """Everything: the replay's frame for one moment of a game."""

    public: PublicView
    sides: tuple[SideView, ...]


# ------------------------------------------------------------------ building


def _unit(entry: Mapping[str, Any], state: SugarDogState) -> UnitView:
    owner = str(entry["player"])
    torpedo = entry.get("torpedo")
    return UnitView(
        owner, state.name(owner), UnitKind(entry["unit"]), None if torpedo is None else int(torpedo)
    )


def public_fact(event: Event, state: SugarDogState) -> PublicFact | None:
    """The public side of an event (None for the private ones)."""
    data = event.data
    if event.type == "contact":
        return ContactView(_unit(data, state), parse_cell(data["cell"]))
    if event.type == "impact":
        return ImpactView(
            parse_cell(data["cell"]),
            _unit(data, state),
            tuple(_unit(unit, state) for unit in data["destroyed"]),
        )
    if event.type == "ping":
        player = str(data["player"])
        return PingView(
            player,
            state.name(player),
            parse_cell(data["cell"]),
            tuple(
                SightingView(_unit(item, state), parse_cell(item["cell"]), int(item["distance"]))
                for item in data["report"]
            ),
        )
    if event.type == "eliminated":
        return EliminatedView(str(data["player"]), state.name(str(data["player"])))
    if event.type == "left":
        return LeftView(str(data["player"]), state.name(str(data["player"])))
    if event.type == "finished":
        winners = tuple(str(p) for p in data["winners"])
        return FinishedView(winners, tuple(state.name(p) for p in winners), bool(data["draw"]))
    return None


def private_fact(event: Event) -> PrivateFact | None:
    data = event.data
    if event.type == "silent":
        return SilentView(parse_cell(data["cell"]))
    if event.type == "launched":
        return LaunchedView(
            int(data["torpedo"]), parse_cell(data["cell"]), Direction(data["direction"])
        )
    if event.type == "mine":
        return MineLaidView(parse_cell(data["cell"]), int(data["left"]))
    if event.type == "lost":
        return LostView(int(data["torpedo"]))
    return None


def _public_turn(entry: TurnEntry, state: SugarDogState) -> PublicTurn:
    facts = tuple(
        fact
        for event in entry.events
        if event.type not in PRIVATE_EVENTS
        for fact in (public_fact(event, state),)
        if fact is not None
    )
    return PublicTurn(
        number=entry.number,
        mover=entry.mover,
        mover_name=state.name(entry.mover),
        player=entry.player,
        player_name=state.name(entry.player),
        action="end" if entry.order is None else action_name(entry.order),
        timeout=entry.timeout,
        facts=facts,
    )


def _captain_view(captain: Captain, state: SugarDogState) -> CaptainView:
    own = [entry for entry in state.history if entry.player == captain.id]
    last_action = next((entry for entry in reversed(own) if entry.order is not None), None)
    wreck: Cell | None = None
    for entry in state.history:
        for event in entry.events:
            if event.type != "impact":
                continue
            for unit in event.data["destroyed"]:
                if unit["player"] == captain.id and unit["unit"] == UnitKind.SUBMARINE.value:
                    wreck = parse_cell(event.data["cell"])
    silent = (
        captain.status is Status.ALIVE
        and last_action is not None
        and last_action.order is not None
        and action_name(last_action.order) == "silent"
    )
    return CaptainView(
        id=captain.id,
        name=captain.name,
        status=captain.status,
        silent=silent,
        mines_laid=_count(own, "mine", captain.id),
        torpedoes_fired=_count(own, "launched", captain.id),
        wreck=wreck,
    )


def _count(entries: list[TurnEntry], kind: str, player: PlayerId) -> int:
    """Mines laid or torpedoes fired: private events, but whether one happened is public
    (the action's name, unless a public impact sank the captain before they acted)."""
    return sum(
        1
        for e in entries
        for event in e.events
        if event.type == kind and event.data["player"] == player
    )


def public_view(state: SugarDogState) -> PublicView:
    return PublicView(
        size=state.board,
        phase=state.phase,
        turn=state.turn,
        current=state.current,
        current_name=None if state.current is None else state.name(state.current),
        order=state.order,
        captains=tuple(_captain_view(c, state) for c in state.captains),
        turns=tuple(_public_turn(entry, state) for entry in state.history),
        winners=state.winners,
        draw=state.draw,
    )


def side_view(captain: Captain) -> SideView:
    return SideView(
        id=captain.id,
        name=captain.name,
        status=captain.status,
        start_cell=captain.start_cell,
        random_start=captain.random_start,
        cell=captain.cell,
        silent=captain.silent,
        mines_left=captain.mines_left,
        mines=captain.mines,
        torpedoes=tuple(TorpedoView(t.number, t.cell, t.direction) for t in captain.torpedoes),
    )


def own_turns(state: SugarDogState, viewer: PlayerId) -> tuple[OwnTurn, ...]:
    return tuple(
        OwnTurn(
            number=entry.number,
            order="leave" if isinstance(entry.order, Leave) else describe_order(entry.order),
            timeout=entry.timeout,
            cell_after=entry.cell_after,
            mines_left_after=entry.mines_left_after,
            facts=tuple(
                fact
                for event in entry.events
                if event.type in PRIVATE_EVENTS and event.data.get("player") == viewer
                for fact in (private_fact(event),)
                if fact is not None
            ),
        )
        for entry in state.history
        if entry.player == viewer and entry.order is not None
    )


def private_view(state: SugarDogState, viewer: PlayerId) -> PrivateView | None:
    captain = state.captain(viewer)
    if captain is None:
        return None
    return PrivateView(
        viewer=viewer,
        viewer_name=captain.name,
        public=public_view(state),
        side=side_view(captain),
        turns=own_turns(state, viewer),
    )


def revealed_view(state: SugarDogState) -> RevealedView:
    return RevealedView(public_view(state), tuple(side_view(c) for c in state.captains))


def view_of(state: SugarDogState, viewer: PlayerId | None) -> PublicView | PrivateView:
    """A captain's own view; the public one for anyone else (and for ``None``)."""
    if viewer is not None:
        private = private_view(state, viewer)
        if private is not None:
            return private
    return public_view(state)


view = view_of
"""The Views part (``bot/games/base.py``) is this module: ``view`` and ``reveal``."""
reveal = revealed_view


# ------------------------------------------------------------------ what a map shows


@dataclass(frozen=True)
class Heard:
    """Where a unit was last heard (a contact) or seen (a ping report), and on which turn:
    what a captain marks on their paper map and keeps until it is heard again."""

    unit: UnitView
    cell: Cell
    turn: int
    pinged: bool


@dataclass(frozen=True)
class Blast:
    """An impact: the cell, the turn, and whether a submarine went down in it."""

    cell: Cell
    turn: int
    sank: bool


def _unit_key(unit: UnitView) -> tuple[PlayerId, UnitKind, int | None]:
    return (unit.owner, unit.kind, unit.torpedo)


def last_heard(public: PublicView) -> tuple[Heard, ...]:
    """Every unit's last public position, folded over the announced facts: a contact or
    a ping moves its mark, an impact takes away what it destroyed, a captain who left
    takes away their submarine, and a torpedo not heard on its owner's next turn has run
    off the board (anyone can tell: a torpedo in the water always runs then). A ping
    reports everything in the water, so it replaces all that was known before. Mines
    are never heard, only pinged, so each pinged mine keeps its own mark (a mine does
    not move). In turn order, then cell order."""
    known: dict[tuple[PlayerId, UnitKind, int | None, Cell | None], Heard] = {}

    def key(unit: UnitView, cell: Cell) -> tuple[PlayerId, UnitKind, int | None, Cell | None]:
        # Mines carry no number: they are told apart by where they lie.
        return (*_unit_key(unit), cell if unit.kind is UnitKind.MINE else None)

    # A ping reports everything in the water: nothing heard before it still counts.
    turns = public.turns
    start = next(
        (
            index
            for index in range(len(turns) - 1, -1, -1)
            if any(isinstance(fact, PingView) for fact in turns[index].facts)
        ),
        0,
    )
    for turn in turns[start:]:
        if turn.action not in ("leave", "end") and not any(
            isinstance(fact, FinishedView) for fact in turn.facts
        ):
            # Every torpedo of the captain to move runs (and is heard) at the start of
            # their turn: one that is not heard then has left the board.
            running = {
                (fact.unit.owner, fact.unit.torpedo)
                for fact in turn.facts
                if isinstance(fact, ContactView) and fact.unit.kind is UnitKind.TORPEDO
            }
            for gone in [
                k
                for k in known
                if k[0] == turn.player and k[1] is UnitKind.TORPEDO and (k[0], k[2]) not in running
            ]:
                del known[gone]
        for fact in turn.facts:
            if isinstance(fact, ContactView):
                known[key(fact.unit, fact.cell)] = Heard(fact.unit, fact.cell, turn.number, False)
            elif isinstance(fact, PingView):
                known.clear()
                for sighting in fact.report:
                    known[key(sighting.unit, sighting.cell)] = Heard(
                        sighting.unit, sighting.cell, turn.number, True
                    )
            elif isinstance(fact, ImpactView):
                for unit in fact.destroyed:
                    known.pop(key(unit, fact.cell), None)
            elif isinstance(fact, LeftView):
                known.pop((fact.player, UnitKind.SUBMARINE, None, None), None)
    return tuple(sorted(known.values(), key=lambda h: (h.turn, h.cell)))


def blasts(public: PublicView) -> tuple[Blast, ...]:
    """Every impact announced, in turn order."""
    return tuple(
        Blast(
            fact.cell,
            turn.number,
            any(unit.kind is UnitKind.SUBMARINE for unit in fact.destroyed),
        )
        for turn in public.turns
        for fact in turn.facts
        if isinstance(fact, ImpactView)
    )
