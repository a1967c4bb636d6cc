"""A bst game from setup to its end, outside the turns: joining, starting, leaving, ending.

Captains join during setup (again, after leaving it: leaving setup costs nothing),
or during the battle with ``late_join=on``, when they are placed at random as the
turn closes (§3). The battle starts with at least two captains; whoever has no
placement then is placed at random and told so (§3, §4). Setup's closing settles the
overlaps that ``random`` leaves (it never avoids anyone's ships, so that its answer
depends on no one else's fleet): in the order the fleets were placed, first come, a
fleet that overlaps one kept before it is placed again at random, and only its owner
is told. A captain who leaves or
is kicked during the battle turns their ships into wrecks, which may end the game;
the host's ``end`` is a draw between the captains still alive (§7).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from bot.games.base import (
    OVERLAP_REFUSALS,
    Event,
    IllegalOrderError,
    Notice,
    Outcome,
    PlayerId,
    PlayerRef,
    Resolution,
)
from bot.games.bst.cells import Cell
from bot.games.bst.events import finished, ship_event
from bot.games.bst.fleet import Ship
from bot.games.bst.options import parse_options
from bot.games.bst.placement import fleet_text, place_many_at_random
from bot.games.bst.state import BstState, Captain
from bot.games.bst.views import CaptainStatus, Phase


def new_game(options: Mapping[str, str]) -> BstState:
    """A game in setup with these options (raises OptionError naming the known keys)."""
    return BstState(options=parse_options(options))


def join(state: BstState, player: PlayerRef) -> BstState:
    """Add a captain, or take back one who left during setup."""
    existing = state.captain(player.id)
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over: wait for the host to start a new one")
    if existing is not None:
        if state.phase is Phase.SETUP and existing.status is CaptainStatus.LEFT:
            # Leaving during setup costs nothing, so coming back is allowed.
            return state.with_captain(replace(existing, status=CaptainStatus.ALIVE))
        if existing.status is CaptainStatus.LEFT:
            raise IllegalOrderError(
                "you left this game, and the battle is on: wait for the next one"
            )
        raise IllegalOrderError("you are already in this game")
    if state.phase is Phase.BATTLE and not state.options.late_join:
        raise IllegalOrderError("the battle has started, so joining is closed in this game")
    captain = Captain(id=player.id, name=player.name, awaiting=state.phase is Phase.BATTLE)
    return state.with_newcomer(captain)


def start(
    state: BstState, rng: random.Random, first: PlayerId | None = None
) -> Resolution[BstState]:
    """Close setup: place the unplaced at random, and turn 1 begins; everyone gets a board."""
    if first is not None:
        raise IllegalOrderError(
            "in bst every captain orders at once each turn, so no one moves first: "
            "send `start` without a name"
        )
    if state.phase is not Phase.SETUP:
        raise IllegalOrderError("the battle has already started")
    present = [c for c in state.captains if c.status is CaptainStatus.ALIVE]
    if len(present) < 2:
        raise IllegalOrderError(
            f"starting needs at least two captains; {len(present)} has joined"
            if len(present) == 1
            else f"starting needs at least two captains; {len(present)} have joined"
        )
    captains = list(state.captains)
    displaced, taken = _settle_overlaps(state)
    notices: list[Notice] = []
    unplaced = [
        i
        for i, captain in enumerate(captains)
        if captain.status is CaptainStatus.ALIVE and (not captain.ships or i in displaced)
    ]
    fleets = place_many_at_random(state.options, taken, len(unplaced), rng)
    for i, ships in zip(unplaced, fleets, strict=True):
        captain = captains[i]
        captains[i] = replace(captain, ships=ships, placed_at_random=True)
        if i in displaced:
            why = "Your fleet overlapped another captain's, placed before it"
        elif captain.placed_by_host:
            why = f"After {OVERLAP_REFUSALS} refusals for overlapping other captains' ships"
        else:
            why = "You sent no placement"
        notices.append(
            Notice(f"{why}, so you were placed at random: {fleet_text(ships)}.", to=captain.id)
        )
    if state.placements:
        # The order of placement matters only in setup: battle states keep none of it.
        captains = [replace(c, placed_seq=0) if c.placed_seq else c for c in captains]
    new_state = replace(
        state,
        phase=Phase.BATTLE,
        turn=1,
        captains=tuple(captains),
        setup_windows=0,
        placements=0,
    )
    return Resolution(
        new_state,
        (),
        frozenset(c.id for c in present),
        notices=tuple(notices),
    )


def _settle_overlaps(state: BstState) -> tuple[set[int], Mapping[Cell, object]]:
    """The captains (by position) whose fleet overlaps one placed before it and kept, to
    be placed again at random, and the cells of the fleets kept (§3, no probing with
    ``random``). Only fleets drawn at random can overlap (a placement by hand that
    overlaps is refused or withdrawn), so a setup without them costs nothing here."""
    if not state.overlapping():
        return set(), state.occupancy(exclude=None)
    kept: dict[Cell, object] = {}
    displaced: set[int] = set()
    placed = [
        (captain.placed_seq, i, captain)
        for i, captain in enumerate(state.captains)
        if captain.status is CaptainStatus.ALIVE and captain.ships
    ]
    for _, i, captain in sorted(placed, key=lambda item: item[:2]):
        cells = [cell for ship in captain.ships for cell in ship.cells]
        if any(cell in kept for cell in cells):
            displaced.add(i)
        else:
            kept.update(dict.fromkeys(cells, True))
    return displaced, kept


def remove(state: BstState, player: PlayerId) -> Resolution[BstState]:
    """A captain leaves or is kicked: in battle their ships become wrecks (§7)."""
    captain = state.captain(player)
    if captain is None:
        raise IllegalOrderError("that captain is not in this game")
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over")
    if captain.status is not CaptainStatus.ALIVE:
        return Resolution(state, (), frozenset())
    if state.phase is Phase.SETUP:
        left = replace(
            captain, status=CaptainStatus.LEFT, ships=(), placed_at_random=False, placed_seq=0
        )
        return Resolution(state.with_captain(left), (), frozenset())
    events: list[Event] = []
    wrecks: list[Ship] = []
    for ship in captain.ships:
        if ship.destroyed:
            wrecks.append(ship)
            continue
        wreck = replace(ship, damaged=frozenset(range(len(ship.cells))))
        wrecks.append(wreck)
        events.append(ship_event("destroyed", captain.id, wreck))
    left = replace(captain, status=CaptainStatus.LEFT, ships=tuple(wrecks), awaiting=False)
    new_state = state.with_captain(left)
    alive = [c for c in new_state.captains if c.status is CaptainStatus.ALIVE]
    if len(alive) <= 1:
        winners = tuple(c.id for c in alive)
        new_state = replace(new_state, phase=Phase.FINISHED, winners=winners, draw=False)
        events.append(finished(winners, draw=False))
    return Resolution(new_state, tuple(events), frozenset({captain.id}))


def finish(state: BstState) -> Resolution[BstState]:
    """The host's ``end``: a draw between the captains still alive."""
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is already over")
    winners = tuple(c.id for c in state.captains if c.status is CaptainStatus.ALIVE)
    new_state = replace(state, phase=Phase.FINISHED, winners=winners, draw=True)
    return Resolution(new_state, (finished(winners, draw=True),), frozenset())


def outcome(state: BstState) -> Outcome | None:
    """Who won or drew; None while the game runs."""
    if state.phase is not Phase.FINISHED:
        return None
    return Outcome(winners=state.winners, draw=state.draw)
