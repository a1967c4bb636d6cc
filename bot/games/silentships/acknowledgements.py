"""How Silent Ships answers an order that acted at once: one answer a turn, not one an order.

A turn holds many plays and moves; a "Done:" for each (with a board now and then)
made a player's DMs a flood (issue 42: 129 DMs to one player in a 24-turn demo). So
the turn player's plain plays, moves, attacker's supports and ``go`` are *held*: kept,
as they read, in the state (:attr:`SilentShipsState.held`) and told with that player's
next answer — the prompt of the attack they open (one answer a combat), or the reply to
their ``end`` (one a turn). An order whose change brings its sender a new board (a
swap, a reveal, a defender's answer, a retreat's square) is answered by that board
alone: the board shows what the order did, and the host folds the game's words for
the sender into it.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Notice, PlayerId
from bot.games.silentships import text
from bot.games.silentships.changes import Log
from bot.games.silentships.orders import Go, Move, Order, Play, Support, describe_order
from bot.games.silentships.state import SilentShipsState, TurnStep

_HELD = (Play, Move, Support, Go)
"""Orders of the turn player that change nothing they need told at once."""


def answer(
    state: SilentShipsState, player: PlayerId, order: Order, log: Log
) -> tuple[SilentShipsState, tuple[Notice, ...]]:
    """The state with ``order`` held, or the answers it gets (with what was held)."""
    mover = state.to_move
    opens_attack = isinstance(order, Move) and state.step is TurnStep.SUPPORTS
    boarded = player in log.changed and not opens_attack
    if player == mover and isinstance(order, _HELD) and not opens_attack and not boarded:
        return replace(state, held=(*state.held, describe_order(order))), ()
    held: tuple[str, ...] = ()
    if state.held and (player == mover or mover in log.changed):
        held, state = state.held, replace(state, held=())
    notices = []
    if held and (boarded or player != mover):
        # Told with the board this change brings the turn player.
        notices.append(Notice(f"Done: {'; '.join(held)}.", to=mover))
        held = ()
    if not boarded:
        notices.append(Notice(text.acknowledgement(state, player, order, log, held), to=player))
    return state, tuple(notices)


def turn_ended(state: SilentShipsState, player: PlayerId) -> str:
    """The reply to ``end``: the turn's orders not yet acknowledged, then the end."""
    said = f"Turn {state.turn}: you end your turn."
    return f"{said} Done before it: {'; '.join(state.held)}." if state.held else said


def timed_out(state: SilentShipsState) -> tuple[Notice, ...]:
    """What a turn whose move time ran out tells its player with their board."""
    mover = state.to_move
    if mover is None or not state.held:
        return ()
    return (Notice(f"Done this turn: {'; '.join(state.held)}.", to=mover),)
