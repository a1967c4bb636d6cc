"""Sonar's state machine (``shared/rules/sonar.md``): the game's ``rules`` part
(:class:`bot.games.base.Rules`), as this module's functions.

Setup (joining, the fleets, the start) is :mod:`bot.games.sonar.setup_phase`. In the
battle captains take turns in join order: only the captain to move may fire, and an
accepted order resolves the turn at once (:mod:`bot.games.sonar.resolution`). A turn
whose ``move_time`` runs out fires at random or is skipped (``on_timeout``); a captain
who leaves is gone when the turn in progress ends; the host's ``end`` resolves the turn
in progress without shots. Each captain is their own crew.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.games.base import (
    Accepted,
    Channel,
    Event,
    Given,
    IllegalOrderError,
    Notice,
    Outcome,
    PlayerId,
    Resolution,
    Timer,
)
from bot.games.sonar.options import OnTimeout, Placement, parse_options
from bot.games.sonar.orders import (
    AtRandom,
    Fleet,
    Order,
    Shots,
    check_shots,
    describe_order,
    parse_order,
)
from bot.games.sonar.resolution import Play, resolve_turn
from bot.games.sonar.setup_phase import accept_in_setup, with_captain
from bot.games.sonar.setup_phase import join as join
from bot.games.sonar.setup_phase import start as start
from bot.games.sonar.standings import standings as standings
from bot.games.sonar.state import Action, Phase, SonarState, Status

# The part's members written elsewhere in the package are imported ``as`` themselves
# (names this module exports); the orders' parser is the part's ``parse``.
parse = parse_order


def new_game(options: Mapping[str, str]) -> SonarState:
    return SonarState(options=parse_options(options))


def options(state: SonarState) -> dict[str, str]:
    return state.options.text(state.ships)


def accept(
    state: SonarState,
    player: PlayerId,
    order: Order,
    channel: Channel,
    rng: random.Random,
) -> Accepted[SonarState, Order]:
    captain = state.captain(player)
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over: no more orders")
    if captain is None:
        raise IllegalOrderError("you are not in this game: send `#sonar join` first")
    if captain.status is Status.LEFT:
        raise IllegalOrderError("you have left this game")
    if state.phase is Phase.SETUP:
        return accept_in_setup(state, captain, order, channel)
    if isinstance(order, Fleet):
        raise IllegalOrderError("the battle has started: fleets can no longer be changed")
    if captain.status is Status.ELIMINATED:
        raise IllegalOrderError("you have no subs left: you are out of this battle")
    if state.to_move != player:
        raise IllegalOrderError(
            f"it is not your turn: {state.name_of(state.to_move)} is to move (turn {state.turn})"
        )
    allowed = state.shots_allowed(player)
    if isinstance(order, AtRandom):
        ack = f"Turn {state.turn}: {allowed} charge{'s' if allowed != 1 else ''} at random."
        return Accepted(state, order, (Notice(ack, to=player),), resolve_now=True)
    check_shots(state.board, order, allowed, _charges_rule(state))
    ack = f"Turn {state.turn}: firing at {describe_order(order)}."
    return Accepted(state, order, (Notice(ack, to=player),), resolve_now=True)


def turn(state: SonarState) -> int:
    return state.turn


def timers(state: SonarState) -> tuple[Timer, ...]:
    if state.phase is not Phase.BATTLE:
        return ()
    who = state.name_of(state.to_move)
    return (
        Timer(f"turn:{state.turn}", float(state.options.move_time), f"Turn {state.turn} ({who})"),
    )


def to_act(state: SonarState) -> frozenset[PlayerId]:
    if state.phase is Phase.BATTLE and state.to_move is not None:
        return frozenset({state.to_move})
    if state.phase is Phase.SETUP and state.options.placement is Placement.GIVEN:
        return frozenset(c.id for c in state.present)
    return frozenset()


def resolve(
    state: SonarState, orders: Sequence[Given[Order]], rng: random.Random
) -> Resolution[SonarState]:
    if state.phase is not Phase.BATTLE:
        raise IllegalOrderError("there is no turn to resolve: the battle is not on")
    mine = [
        given.order
        for given in sorted(orders, key=lambda g: g.sequence)
        if given.player == state.to_move and isinstance(given.order, Shots | AtRandom)
    ]
    if not mine:
        raise IllegalOrderError(f"{state.name_of(state.to_move)} has given no shots this turn")
    order = mine[-1]
    if isinstance(order, AtRandom):
        return resolve_turn(state, Play(Action.SHOOT, at_random=True), rng)
    assert isinstance(order, Shots)
    return resolve_turn(state, Play(Action.SHOOT, cells=order.cells), rng)


def expire(
    state: SonarState, timer: str, orders: Sequence[Given[Order]], rng: random.Random
) -> Resolution[SonarState]:
    if state.phase is not Phase.BATTLE or timer != f"turn:{state.turn}":
        return Resolution(state, (), frozenset())
    if state.options.on_timeout is OnTimeout.SKIP:
        return resolve_turn(state, Play(Action.SKIP, timeout=True), rng)
    return resolve_turn(state, Play(Action.SHOOT, at_random=True, timeout=True), rng)


def remove(state: SonarState, player: PlayerId) -> Resolution[SonarState]:
    captain = state.captain(player)
    if captain is None:
        raise IllegalOrderError("that captain is not in this game")
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over")
    if captain.status is Status.LEFT:
        raise IllegalOrderError(f"{captain.name} has already left this game")
    if state.phase is Phase.SETUP:
        left = replace(captain, status=Status.LEFT, fleet=())
        return Resolution(with_captain(state, left), (), frozenset({player}))
    if captain.status is Status.ELIMINATED:
        raise IllegalOrderError(f"{captain.name} has no live subs left: there is nothing to leave")
    if captain.leaving:
        raise IllegalOrderError(f"{captain.name} already leaves when turn {state.turn} ends")
    if state.to_move == player:
        # A turn that ends without shots draws nothing: no randomness is needed.
        return resolve_turn(state, Play(Action.LEAVE), random.Random(0))
    waiting = with_captain(state, replace(captain, leaving=True))
    note = (
        f"You leave when turn {state.turn} ({state.name_of(state.to_move)}'s) ends: "
        "your subs then leave the board."
    )
    return Resolution(waiting, (), frozenset(), notices=(Notice(note, to=player),))


def finish(state: SonarState) -> Resolution[SonarState]:
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is already over")
    if state.phase is Phase.BATTLE:
        # The turn in progress resolves with no shots, so it draws nothing at random.
        return resolve_turn(state, Play(Action.END), random.Random(0))
    winners = tuple(c.id for c in state.present)
    ended = replace(state, phase=Phase.FINISHED, winners=winners, draw=True, to_move=None)
    return Resolution(
        ended, (Event("finished", {"winners": list(winners), "draw": True}),), frozenset()
    )


def outcome(state: SonarState) -> Outcome | None:
    if state.phase is not Phase.FINISHED:
        return None
    return Outcome(winners=state.winners, draw=state.draw)


def crew(state: SonarState, player: PlayerId) -> tuple[PlayerId, ...]:
    return (player,)


def _charges_rule(state: SonarState) -> str:
    """How the charges of the turn in progress are counted, for a refusal (§4.2)."""
    rule = "one_shot: one a turn" if state.options.one_shot else "one per live sub"
    if state.moves == 0:
        rule += "; half of that, rounded up, on the game's first turn"
    return rule
