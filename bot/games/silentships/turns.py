"""Turns and the end of a game of Silent Ships (rules §3 and §5).

A turn begins with a draw: 2 cards, 3 when the player has a unit on an island;
a draw that finds the deck empty first shuffles the discards into a new deck
(never the sunk ships), and with no discards either the player draws fewer. A
turn ends with ``end`` or when the move time runs out. Then, in this order: a
player who ends their own turn with an enemy unit on their country loses;
after turn ``max_turns`` the player who sank more ships wins (the second
player wins ties); otherwise the other player's turn begins. A draw offer
stands until the end of the turn it was made in. A sunk Flag Ship, an agreed
stop, a player who leaves and the host's ``end`` also end the game, which never
ends in a draw. See ``shared/rules/silentships.md``.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.base import PlayerId
from bot.games.silentships.cells import ISLANDS
from bot.games.silentships.changes import Log
from bot.games.silentships.orders import End, order_entry
from bot.games.silentships.ships import in_ship_order
from bot.games.silentships.state import (
    INVADED,
    Admiral,
    Phase,
    Reason,
    SilentShipsState,
    Status,
    TurnStep,
)

CARDS_PER_TURN = 2
ISLAND_BONUS = 1
OPENING_HAND = 3


def cards_to_draw(state: SilentShipsState, player: PlayerId) -> int:
    on_island = any(unit.cell in ISLANDS for unit in state.units_of(player))
    return CARDS_PER_TURN + (ISLAND_BONUS if on_island else 0)


def draw(admiral: Admiral, count: int, rng: random.Random, log: Log) -> Admiral:
    """``admiral`` after drawing ``count`` cards (fewer if deck and discards run out)."""
    deck, discards, drawn = list(admiral.deck), list(admiral.discards), []
    for _ in range(count):
        if not deck:
            if not discards:
                break
            deck, discards = discards, []
            rng.shuffle(deck)
            log.event("reshuffled", {"player": admiral.id, "deck": [ship.value for ship in deck]})
        drawn.append(deck.pop(0))
    log.event("drew", {"player": admiral.id, "cards": [ship.value for ship in drawn]})
    return replace(
        admiral,
        deck=tuple(deck),
        discards=tuple(discards),
        hand=in_ship_order([*admiral.hand, *drawn]),
    )


def begin_turn(
    state: SilentShipsState, number: int, rng: random.Random, log: Log
) -> SilentShipsState:
    """Player turn ``number`` begins: its player draws."""
    state = replace(
        state,
        phase=Phase.BATTLE,
        turn=number,
        step=TurnStep.ACTIONS,
        attack=None,
        out_of_time=False,
        combat=None,
        held=(),
    )
    player = state.to_move
    assert player is not None
    admiral = draw(state.admiral(player), cards_to_draw(state, player), rng, log)
    invader = state.invader(player)
    if invader is not None:
        # Words only (the record leaves it out: it is a fact of the board, not a change).
        log.event(INVADED, {"player": player, "by": invader.owner, "cell": str(invader.cell)})
    log.touch(player)
    return state.with_admiral(admiral)


def end_turn(
    state: SilentShipsState, rng: random.Random, log: Log, timeout: bool = False
) -> SilentShipsState:
    """The turn player's ``end`` (or their move time ran out): check who lost, then go on."""
    player = state.to_move
    assert player is not None
    log.order(player, order_entry(End()), timeout=timeout)
    if timeout:
        # Their board, with what the turn did: they did not end it themselves. (An `end`
        # is answered by its reply, and the next board comes as their next turn begins:
        # one board a turn, not two.)
        log.touch(player)
    state = replace(state, offer=None, attack=None, step=TurnStep.ACTIONS, out_of_time=False)
    opponent = state.opponent(player)
    invader = state.unit_at(state.country(player))
    if invader is not None and invader.owner == opponent:
        return finish(state, opponent, Reason.COUNTRY, log)
    if state.turn >= state.options.max_turns:
        return finish(state, decided_by_sinks(state), Reason.MAX_TURNS, log)
    return begin_turn(state, state.turn + 1, rng, log)


def decided_by_sinks(state: SilentShipsState) -> PlayerId:
    """The player who sank more ships; the second player wins ties."""
    first, second = state.seats
    if len(state.admiral(first).sank) > len(state.admiral(second).sank):
        return first
    return second


def finish(
    state: SilentShipsState,
    winner: PlayerId,
    reason: Reason,
    log: Log,
    loser_status: Status = Status.ELIMINATED,
) -> SilentShipsState:
    """The game ends with ``winner``; the other player is eliminated (or has left)."""
    loser = state.opponent(winner)
    state = state.with_admiral(replace(state.admiral(loser), status=loser_status))
    state = replace(
        state,
        phase=Phase.FINISHED,
        step=None,
        attack=None,
        offer=None,
        out_of_time=False,
        winners=(winner,),
        reason=reason,
    )
    log.event(
        "finished",
        {
            "winners": [winner],
            "draw": False,
            "reason": reason.value,
            "sank": {admiral.id: len(admiral.sank) for admiral in state.admirals},
        },
    )
    log.touch(*(admiral.id for admiral in state.admirals))
    return state
