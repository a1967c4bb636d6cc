"""One turn of Sugar Dog, resolved (rules §2–§6; contract "Record", events).

When the captain to move orders (or their time runs out, a silent stay), first
their torpedoes in the water run two cells each, lowest number first, cell by
cell; then the action takes effect. Whenever a torpedo or a cruising submarine
enters a cell there is a public contact. A torpedo entering a cell with
anything in it is an impact; a cruising submarine entering a cell with a mine,
a torpedo or a submarine that is not silent is one too; either way everything
in that cell is destroyed, silent submarines included. A silent submarine
(silent running until its own next action) never sets anything off and is
passed by cruisers and mines; a mine never hits its layer as it is laid. A
ping reports every unit in the water, nearest first. The game ends the moment
at most one submarine is afloat: nothing more of that turn happens.

**Decisions** of this module where the rules (shared/rules/sugardog.md) leave a
gap: a torpedo fired toward the edge is lost with no contact. A captain who
leaves during the battle takes their submarine out of the water (where it was
stays secret); their mines and torpedoes stay, as a destroyed captain's do; if it
was their turn, the turn ends. The host's ``end`` is a draw between the captains
afloat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.games.base import Event, PlayerId
from bot.games.sugardog import units
from bot.games.sugardog.board import Cell
from bot.games.sugardog.orders import (
    Action,
    Cruise,
    FireTorpedo,
    LayMine,
    Leave,
    Ping,
    SilentRunning,
)
from bot.games.sugardog.state import (
    Captain,
    Phase,
    Status,
    SugarDogState,
    Torpedo,
    TurnEntry,
    UnitKind,
)
from bot.games.sugardog.units import Sighting, Unit


@dataclass(frozen=True)
class Change:
    """A change of the game: the new state, its events (record order, player ids), and
    the captains whose own board changed."""

    state: SugarDogState
    events: tuple[Event, ...]
    changed: frozenset[PlayerId]


class _GameOver(Exception):
    """At most one submarine is afloat: the turn stops where it is (rules §6)."""


class _Sea:
    """A working copy of the water for one change: captains replaced as things happen."""

    def __init__(self, state: SugarDogState) -> None:
        self.state = state
        self.size = state.size
        self.captains: dict[PlayerId, Captain] = {c.id: c for c in state.captains}
        self.events: list[Event] = []
        self.changed: set[PlayerId] = set()
        self.winners: tuple[PlayerId, ...] = ()
        self.draw = False
        self.over = False

    def name(self, player: PlayerId) -> str:
        return self.captains[player].name

    def set(self, captain: Captain) -> None:
        self.captains[captain.id] = captain

    def units_in(self, cell: Cell, besides: Unit) -> list[Unit]:
        """Everything in ``cell`` but ``besides``: submarines afloat, each mine, torpedoes."""
        # This runs for every cell a torpedo or a cruiser enters: plain loops, no lists
        # built for the (usual) captains with nothing there.
        found: list[Unit] = []
        for captain in self.captains.values():
            if captain.cell == cell and captain.afloat:
                found.append(units.submarine(captain.id))
            if captain.mines and cell in captain.mines:
                found += [units.mine(captain.id)] * captain.mines.count(cell)
            for t in captain.torpedoes:
                if t.cell == cell:
                    found.append(units.torpedo(captain.id, t.number))
        return [unit for unit in found if unit != besides]

    # ------------------------------------------------------------- collisions

    def impact(self, cell: Cell, entering: Unit, victims: list[Unit]) -> None:
        """Everything in ``cell`` is destroyed, ``entering`` included (rules §3)."""
        destroyed = units.sorted_units([*victims, entering], self.name)
        self.events.append(units.impact(cell, entering, destroyed))
        sunk: list[PlayerId] = []
        for unit in destroyed:
            captain = self.captains[unit.owner]
            self.changed.add(captain.id)
            if unit.kind is UnitKind.SUBMARINE:
                self.set(replace(captain, status=Status.ELIMINATED, cell=cell, silent=False))
                sunk.append(captain.id)
            elif unit.kind is UnitKind.MINE:
                mines = list(captain.mines)
                mines.remove(cell)
                self.set(replace(captain, mines=tuple(mines)))
            else:
                self.set(
                    replace(
                        captain,
                        torpedoes=tuple(t for t in captain.torpedoes if t.number != unit.torpedo),
                    )
                )
        for player in sorted(sunk, key=lambda p: (self.name(p), p)):
            self.events.append(units.eliminated(player))
        afloat = [c.id for c in self.captains.values() if c.afloat]
        if len(afloat) <= 1:
            if afloat:
                self.winners, self.draw = tuple(afloat), False
            else:
                self.winners = tuple(sorted(sunk, key=lambda p: (self.name(p), p)))
                self.draw = True
            self.events.append(units.finished(self.winners, self.draw))
            self.over = True
            raise _GameOver

    # ------------------------------------------------------------- torpedoes

    def run_torpedo(self, owner: PlayerId, number: int) -> None:
        """Two cells straight on, each entered one at a time (rules §5)."""
        for _ in range(2):
            captain = self.captains[owner]
            running = next((t for t in captain.torpedoes if t.number == number), None)
            if running is None:
                return  # destroyed on the way
            ahead = running.cell.step(running.direction)
            if not ahead.on_board(self.size):
                rest = tuple(t for t in captain.torpedoes if t.number != number)
                self.set(replace(captain, torpedoes=rest))
                self.events.append(units.lost(owner, number))
                self.changed.add(owner)
                return
            # (Torpedo(...), not dataclasses.replace: this runs for every cell entered.)
            moved = tuple(
                Torpedo(t.number, ahead, t.direction) if t.number == number else t
                for t in captain.torpedoes
            )
            self.set(replace(captain, torpedoes=moved))
            self.changed.add(owner)
            unit = units.torpedo(owner, number)
            self.events.append(units.contact(unit, ahead))
            victims = self.units_in(ahead, besides=unit)
            if victims:
                self.impact(ahead, unit, victims)
                return

    def run_torpedoes(self, owner: PlayerId) -> None:
        for number in sorted(t.number for t in self.captains[owner].torpedoes):
            self.run_torpedo(owner, number)

    # ------------------------------------------------------------- actions

    def act(self, player: PlayerId, action: Action) -> None:
        captain = self.captains[player]
        assert captain.cell is not None
        self.changed.add(player)
        if isinstance(action, SilentRunning):
            cell = captain.cell if action.direction is None else captain.cell.step(action.direction)
            self.set(replace(captain, cell=cell, silent=True))
            self.events.append(units.silent(player, cell))
            return
        self.set(replace(captain, silent=False))
        if isinstance(action, Cruise):
            self.cruise(player, action)
        elif isinstance(action, Ping):
            self.events.append(self.ping(player))
        elif isinstance(action, FireTorpedo):
            captain = self.captains[player]
            assert captain.cell is not None
            number = captain.launched + 1
            fired = Torpedo(number, captain.cell, action.direction)
            self.set(replace(captain, launched=number, torpedoes=(*captain.torpedoes, fired)))
            self.events.append(units.launched(player, number, captain.cell, action.direction))
            self.run_torpedo(player, number)
        elif isinstance(action, LayMine):
            captain = self.captains[player]
            assert captain.cell is not None
            left = captain.mines_left - 1
            mines = tuple(sorted((*captain.mines, captain.cell)))
            self.set(replace(captain, mines=mines, mines_left=left))
            self.events.append(units.mine_laid(player, captain.cell, left))

    def cruise(self, player: PlayerId, order: Cruise) -> None:
        for direction in order.directions:
            captain = self.captains[player]
            if not captain.afloat:
                return
            assert captain.cell is not None
            ahead = captain.cell.step(direction)
            self.set(replace(captain, cell=ahead))
            unit = units.submarine(player)
            self.events.append(units.contact(unit, ahead))
            present = self.units_in(ahead, besides=unit)
            # A silent submarine is passed by; anything else in the cell is hit (rules §3).
            triggers = [
                u
                for u in present
                if not (u.kind is UnitKind.SUBMARINE and self.captains[u.owner].silent)
            ]
            if triggers:
                self.impact(ahead, unit, present)
                return

    def ping(self, player: PlayerId) -> Event:
        """Everyone revealed, the pinger's own units first (rules §4)."""
        pinger = self.captains[player]
        origin = pinger.cell
        assert origin is not None
        own: list[Sighting] = []
        others: list[Sighting] = []
        for captain in self.captains.values():
            found: list[tuple[Unit, Cell]] = []
            if captain.afloat and captain.id != player:
                assert captain.cell is not None
                found.append((units.submarine(captain.id), captain.cell))
            found += [(units.mine(captain.id), cell) for cell in captain.mines]
            found += [(units.torpedo(captain.id, t.number), t.cell) for t in captain.torpedoes]
            sightings = [Sighting(unit, cell, origin.distance(cell)) for unit, cell in found]
            (own if captain.id == player else others).extend(sightings)
        order = units.unit_order(self.name)

        def nearest(s: Sighting) -> tuple[int, Cell, tuple[str, int, int, str]]:
            return (s.distance, s.cell, order(s.unit))

        report = [
            Sighting(units.submarine(player), origin, 0),
            *sorted(own, key=nearest),
            *sorted(others, key=nearest),
        ]
        return units.ping(player, origin, report)

    # ------------------------------------------------------------- the result

    def next_mover(self, after: PlayerId) -> PlayerId | None:
        order = self.state.order
        start = order.index(after)
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if self.captains[candidate].afloat:
                return candidate
        return None

    def state_after(self, entry: TurnEntry, advance: bool) -> SugarDogState:
        """The new state: captains, history, and (unless the game is over) the next turn."""
        captains = tuple(self.captains[c.id] for c in self.state.captains)
        state = replace(self.state, captains=captains, history=(*self.state.history, entry))
        if self.over:
            return replace(
                state, phase=Phase.FINISHED, current=None, winners=self.winners, draw=self.draw
            )
        if advance and self.state.current is not None:
            return replace(state, turn=state.turn + 1, current=self.next_mover(self.state.current))
        return state

    def entry(self, player: PlayerId, order: Action | Leave | None, timeout: bool) -> TurnEntry:
        captain = self.captains[player]
        return TurnEntry(
            number=self.state.turn,
            mover=self.state.current or player,
            player=player,
            order=order,
            timeout=timeout,
            events=tuple(self.events),
            cell_after=captain.cell,
            mines_left_after=captain.mines_left,
        )


def resolve_turn(state: SugarDogState, action: Action, timeout: bool = False) -> Change:
    """The current captain's turn: their torpedoes run, then ``action`` takes effect."""
    assert state.phase is Phase.BATTLE and state.current is not None
    player = state.current
    sea = _Sea(state)
    sea.changed.add(player)
    try:
        sea.run_torpedoes(player)
        # (A captain's own torpedoes always run ahead of their submarine, so it is still
        # afloat here; the check keeps "destroyed submarines are out" true regardless.)
        if sea.captains[player].afloat:
            sea.act(player, action)
    except _GameOver:
        pass
    entry = sea.entry(player, action, timeout)
    return Change(sea.state_after(entry, advance=True), entry.events, frozenset(sea.changed))


def leave_battle(state: SugarDogState, player: PlayerId) -> Change:
    """A captain leaves (or is kicked) during the battle: their submarine is gone.

    If it was their turn, the turn ends with the leave; otherwise the turn in
    progress goes on. Either way the leave is stored with the turn in progress."""
    assert state.phase is Phase.BATTLE
    sea = _Sea(state)
    captain = sea.captains[player]
    sea.set(replace(captain, status=Status.LEFT, silent=False))
    sea.changed.add(player)
    sea.events.append(units.left(player))
    afloat = [c.id for c in sea.captains.values() if c.afloat]
    if len(afloat) <= 1:
        sea.winners, sea.draw, sea.over = tuple(afloat), not afloat, True
        sea.events.append(units.finished(sea.winners, sea.draw))
    entry = sea.entry(player, Leave(), False)
    return Change(
        sea.state_after(entry, advance=state.current == player),
        entry.events,
        frozenset(sea.changed),
    )


def end_game(state: SugarDogState) -> Change:
    """The host ends the game: a draw between the captains afloat (none in setup)."""
    sea = _Sea(state)
    afloat = [c.id for c in state.captains if c.afloat] if state.phase is Phase.BATTLE else []
    sea.winners = tuple(sorted(afloat, key=lambda p: (sea.name(p), p)))
    sea.draw, sea.over = True, True
    sea.events.append(units.finished(sea.winners, True))
    if state.phase is Phase.SETUP:
        finished = replace(state, phase=Phase.FINISHED, winners=(), draw=True)
        return Change(finished, tuple(sea.events), frozenset())
    assert state.current is not None
    entry = TurnEntry(state.turn, state.current, state.current, None, False, tuple(sea.events))
    return Change(sea.state_after(entry, advance=False), entry.events, frozenset())
