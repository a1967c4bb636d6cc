"""bst's clock and turns as the host sees them (rules §3, §4): who may order, which
timers run, which orders stand when a turn closes, and what a timer's end does.

* Setup runs without a timer, or for ``setup_deadline`` when one is set. When that
  window ends the host starts the battle; if fewer than two captains are in, setup
  stays open for another window of one turn's length, and again, each window
  named by how many closed before it (``setup:0``, ``setup:1``, …).
* In the battle one timer runs, ``turn:N``, one turn's length. When it ends, the
  turn closes with the orders given in it (§4): one per captain, **the newest
  stands** (the latest given; ``pass`` withdraws it, leaving no order), and the
  order of a captain who is no longer in the battle (left, kicked) does not stand.
  The same orders give the same result whatever the order they arrived in.
* A finished game runs no timer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import (
    Given,
    IllegalOrderError,
    Notice,
    PlayerId,
    Resolution,
    Timer,
)
from bot.games.bst.codec import encode_order
from bot.games.bst.orders import Order, Pass
from bot.games.bst.resolution import resolve_battle
from bot.games.bst.state import BstState
from bot.games.bst.views import CaptainStatus, Phase

SETUP_TIMER = "setup"
TURN_TIMER = "turn"
SETUP_EXTENDED = (
    "setup needs at least two captains; it stays open, a turn at a time, until two have "
    "joined. Send `join` to play."
)
"""The public notice when the first setup window ends with fewer than two captains in:
once a game (posted at every window, a game with one captain and ``turn=1m`` posted it
60 times an hour, for ever)."""


def to_act(state: BstState) -> frozenset[PlayerId]:
    """In setup the captains in (they may place); in battle those who may order now."""
    if state.phase is Phase.SETUP:
        return frozenset(c.id for c in state.captains if c.status is CaptainStatus.ALIVE)
    if state.phase is Phase.BATTLE:
        return frozenset(c.id for c in state.captains if c.in_battle)
    return frozenset()


def timers(state: BstState) -> tuple[Timer, ...]:
    """The one deadline that runs now, if any (see the module docstring)."""
    options = state.options
    if state.phase is Phase.SETUP:
        first_window = options.setup_seconds
        if first_window is None:
            return ()
        seconds = first_window if state.setup_windows == 0 else options.turn_seconds
        return (Timer(f"{SETUP_TIMER}:{state.setup_windows}", seconds, "Setup"),)
    if state.phase is Phase.BATTLE:
        return (Timer(f"{TURN_TIMER}:{state.turn}", options.turn_seconds, f"Turn {state.turn}"),)
    return ()


def standing_orders(state: BstState, orders: Sequence[Given[Order]]) -> dict[PlayerId, Order]:
    """The order that stands for each captain at the close (§4), by player id.

    The newest is the one with the highest ``sequence`` (the host numbers a turn's
    orders as they arrive; of two with the same number, the later in ``orders``)."""
    newest: dict[PlayerId, tuple[int, int, Order]] = {}
    for position, given in enumerate(orders):
        mark = (given.sequence, position)
        held = newest.get(given.player)
        if held is None or mark > held[:2]:
            newest[given.player] = (*mark, given.order)
    acting = to_act(state)
    return {
        player: order
        for player, (_, _, order) in sorted(newest.items())
        if not isinstance(order, Pass) and player in acting
    }


def resolve_turn(
    state: BstState, orders: Sequence[Given[Order]], rng: random.Random
) -> Resolution[BstState]:
    """Close the turn in progress with every order given in it."""
    standing = standing_orders(state, orders)
    resolution = resolve_battle(state, standing, rng)
    records: tuple[dict[str, Any], ...] = tuple(
        {"player": player, **encode_order(order)} for player, order in standing.items()
    )
    return replace(resolution, orders=records)


def expire(
    state: BstState, timer: str, orders: Sequence[Given[Order]], rng: random.Random
) -> Resolution[BstState]:
    """The timer ``timer`` ran out: a turn closes, or a setup window that could not
    start the battle (the host tried ``start`` first) gives way to another."""
    due = {t.key for t in timers(state)}
    if timer not in due:
        running = ", ".join(sorted(due)) or "none"
        raise IllegalOrderError(f"no timer {timer!r} runs in this game (running: {running})")
    if timer.startswith(f"{TURN_TIMER}:"):
        return resolve_turn(state, orders, rng)
    extended = replace(state, setup_windows=state.setup_windows + 1)
    said = state.setup_windows > 0
    return Resolution(extended, (), frozenset(), notices=() if said else (Notice(SETUP_EXTENDED),))
