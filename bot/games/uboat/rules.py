"""U-Boat Shootout's state machine (``shared/rules/uboat.md``): the game's ``rules`` part
(:class:`bot.games.base.Rules`), as this module's functions.

Two to six players join, each with a U-boat of a free colour; at the start a boat with
no starting cell sent is placed at random on water. Then every round's orders stand
until the round's timer (or, first, its evade window's) runs out and all resolve
together (:mod:`bot.games.uboat.resolution`); which orders are taken is
:mod:`bot.games.uboat.acceptance`. A player shares a seat with their boat's crew. A
player who is removed leaves their crew; a boat with no one left aboard is scuttled,
freeing its islands, and may end the hunt. The host's ``end`` is a draw between every
crew afloat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.games.base import (
    Event,
    Given,
    IllegalOrderError,
    Notice,
    Outcome,
    PlayerId,
    PlayerRef,
    Resolution,
    Timer,
)
from bot.games.uboat import scoring
from bot.games.uboat.acceptance import accept as accept
from bot.games.uboat.options import parse_options
from bot.games.uboat.orders import Order, parse_order
from bot.games.uboat.resolution import close_round, close_window
from bot.games.uboat.standings import standings as standings
from bot.games.uboat.state import Boat, Phase, Player, UboatState
from bot.games.uboat.values import COLOURS, MAX_BOATS, MIN_BOATS

# The part's members written elsewhere in the package are imported ``as`` themselves
# (names this module exports); the orders' parser is the part's ``parse``.
parse = parse_order


def new_game(options: Mapping[str, str]) -> UboatState:
    parsed = parse_options(options)
    return UboatState(options=parsed, owners=tuple(None for _ in parsed.islands))


def options(state: UboatState) -> dict[str, str]:
    return state.options.text()


def join(state: UboatState, player: PlayerRef) -> UboatState:
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over: wait for the next one")
    if state.phase is Phase.BATTLE:
        raise IllegalOrderError("the hunt has begun, so joining is closed: wait for the next game")
    existing = state.player(player.id)
    if existing is not None and not existing.left:
        assert existing.colour is not None
        raise IllegalOrderError(f"you are already in this game, with {existing.colour.title}")
    taken = {p.colour for p in state.present}
    free = [colour for colour in COLOURS if colour not in taken]
    if not free:
        raise IllegalOrderError(f"this game is full: {MAX_BOATS} U-boats at most")
    colour = free[0]
    if existing is not None:  # left during setup, which costs nothing: back on board
        return state.with_player(replace(existing, colour=colour, crew=colour, left=False))
    joined = Player(player.id, player.name, colour, crew=colour)
    return replace(state, players=(*state.players, joined))


def start(state: UboatState, rng: random.Random, first: PlayerId | None) -> Resolution[UboatState]:
    if first is not None:
        raise IllegalOrderError(
            "in U-Boat Shootout everyone acts at once, so no one moves first: start without a name"
        )
    if state.phase is not Phase.SETUP:
        raise IllegalOrderError("the hunt has already started")
    present = state.present
    if len(present) < MIN_BOATS:
        raise IllegalOrderError(
            f"starting needs at least {MIN_BOATS} players; {len(present)} "
            f"{'has' if len(present) == 1 else 'have'} joined"
        )
    water = state.sea.water()
    boats: list[Boat] = []
    notices: list[Notice] = []
    for player in present:
        assert player.colour is not None
        cell = player.start
        if cell is None:
            cell = rng.choice(water)
            notices.append(
                Notice(
                    f"You sent no starting cell, so {player.colour.title} was placed at "
                    f"random: it starts at {cell}.",
                    to=player.id,
                )
            )
        boats.append(Boat(player.colour, player.id, cell, player.start is None, cell))
    boats.sort(key=lambda boat: boat.colour.index)
    new_state = replace(state, phase=Phase.BATTLE, turn=1, boats=tuple(boats))
    return Resolution(new_state, (), frozenset(p.id for p in present), tuple(notices))


def turn(state: UboatState) -> int:
    return state.turn


def timers(state: UboatState) -> tuple[Timer, ...]:
    if state.phase is not Phase.BATTLE:
        return ()
    number = state.turn
    round_timer = Timer(f"round:{number}", float(state.options.round_seconds), f"Round {number}")
    if state.window_open:
        window = Timer(
            f"evade:{number}",
            float(state.options.evade_seconds),
            f"Round {number}'s evade window",
        )
        return (window, round_timer)
    return (round_timer,)


def to_act(state: UboatState) -> frozenset[PlayerId]:
    if state.phase is Phase.SETUP:
        return frozenset(p.id for p in state.present)
    if state.phase is Phase.BATTLE:
        return frozenset(p.id for p in state.present if state.boat_of(p.id) is not None)
    return frozenset()


def resolve(
    state: UboatState, orders: Sequence[Given[Order]], rng: random.Random
) -> Resolution[UboatState]:
    if state.phase is not Phase.BATTLE:
        raise IllegalOrderError("there is no round to resolve: the hunt is not on")
    return close_round(state, orders)


def expire(
    state: UboatState,
    timer: str,
    orders: Sequence[Given[Order]],
    rng: random.Random,
) -> Resolution[UboatState]:
    if state.phase is Phase.BATTLE:
        if timer == f"evade:{state.turn}" and state.window_open:
            return close_window(state, orders)
        if timer == f"round:{state.turn}":
            return close_round(state, orders)
    return Resolution(state, (), frozenset())  # a timer no longer running: nothing to do


def remove(state: UboatState, player: PlayerId) -> Resolution[UboatState]:
    found = state.player(player)
    if found is None:
        raise IllegalOrderError("that player is not in this game")
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over")
    if found.left:
        return Resolution(state, (), frozenset())
    if state.phase is Phase.SETUP:
        gone = replace(found, left=True, colour=None, crew=None, start=None)
        return Resolution(state.with_player(gone), (), frozenset())
    crew = found.crew
    events = [Event("left", {"player": player})]
    new_state = state.with_player(replace(found, left=True, crew=None))
    new_state = replace(
        new_state,
        said=tuple(s for s in new_state.said if s.player != player),
        crew_choices=tuple(c for c in new_state.crew_choices if c[0] != player),
    )
    changed = {p.id for p in new_state.crew_of(crew)} if crew else set()
    boat = new_state.boat(crew) if crew else None
    if boat is not None and boat.afloat and not new_state.crew_of(boat.colour):
        # No one left aboard: the boat is scuttled, and its islands are freed.
        freed = [island.number for island in new_state.islands_of(boat.colour)]
        owners = tuple(None if o is boat.colour else o for o in new_state.owners)
        new_state = replace(
            new_state.with_boat(replace(boat, health=0)),
            owners=owners,
            evaders=new_state.evaders - {boat.colour},
        )
        events.append(Event("destroyed", {"boat": boat.colour.value, "freed": freed}))
        if len(new_state.afloat) <= 1:
            # The boat taken out is the losing one when it leaves one afloat.
            ending = (
                scoring.with_awards(new_state, scoring.last_boat_standing(new_state), boat.colour)
                if new_state.afloat
                else scoring.sunk_together((), (boat.colour,))
            )
            new_state = replace(new_state, phase=Phase.FINISHED, ending=ending, window_open=False)
            events.append(Event("finished", scoring.finished_event_data(ending)))
            changed |= {p.id for p in new_state.present}
    return Resolution(new_state, tuple(events), frozenset(changed))


def finish(state: UboatState) -> Resolution[UboatState]:
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is already over")
    ending = scoring.host_ends(state)
    new_state = replace(state, phase=Phase.FINISHED, ending=ending, window_open=False)
    event = Event("finished", scoring.finished_event_data(ending))
    return Resolution(new_state, (event,), frozenset(p.id for p in state.present))


def outcome(state: UboatState) -> Outcome | None:
    if state.phase is not Phase.FINISHED or state.ending is None:
        return None
    ending = state.ending
    return Outcome(winners=ending.winners, draw=ending.draw, awarded=ending.marks)


def crew(state: UboatState, player: PlayerId) -> tuple[PlayerId, ...]:
    found = state.player(player)
    if found is None or found.crew is None or found.left:
        return (player,)
    return tuple(p.id for p in state.crew_of(found.crew))
