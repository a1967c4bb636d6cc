"""The record of a Sugar Dog game, ``sugardog-record/1`` (shared/contracts/sugardog.md).

Built from the state now and the host's stored history: ``game`` (board,
options, phase, turn, who is to move, result), ``players`` in join order with
what they hold now, ``start`` (turn order, every starting cell, who got a
random one) and ``turns``, one per resolved turn with the one order of the
captain whose turn it was and the events in resolution order. The record writes
names, never ids. With the options, ``start`` and the orders, the rules give
every event again: the record replays. A captain who leaves during the battle
appears in the turn in progress as a ``leave`` order and a ``left`` event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import PlayerId, RecordContext, Step
from bot.games.sugardog.board import cells_text
from bot.games.sugardog.state import Captain, Phase, SugarDogState

RECORD_FORMAT = "sugardog-record/1"


class _Names:
    def __init__(self, state: SugarDogState, context: RecordContext) -> None:
        self.state = state
        self.names = context.names

    def __call__(self, player: PlayerId) -> str:
        return self.names.get(player) or self.state.name(player)

    def entry(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        """An order or event record with its player ids written as names."""
        named = dict(entry)
        if "player" in named and named["player"] is not None:
            named["player"] = self(str(named["player"]))
        if "winners" in named:
            named["winners"] = [self(str(p)) for p in named["winners"]]
        for key in ("destroyed", "report"):
            if key in named:
                named[key] = [self.entry(item) for item in named[key]]
        return named


def _player(captain: Captain, name: str, state: SugarDogState) -> dict[str, Any]:
    cell = captain.start_cell if state.phase is Phase.SETUP else captain.cell
    return {
        "name": name,
        "status": captain.status.value,
        "cell": None if cell is None else str(cell),
        "silent": captain.silent,
        "mines_left": captain.mines_left,
        "mines": cells_text(list(captain.mines)),
        "torpedoes": [
            {"torpedo": t.number, "cell": str(t.cell), "direction": t.direction.value}
            for t in sorted(captain.torpedoes, key=lambda t: t.number)
        ],
    }


def _start(state: SugarDogState, name: _Names) -> dict[str, Any]:
    if state.phase is Phase.SETUP or not state.order:
        return {}
    starters = [c for c in state.captains if c.id in state.order]
    return {
        "order": [name(p) for p in state.order],
        "cells": {
            name(c.id): str(c.start_cell)
            for c in sorted(starters, key=lambda c: name(c.id))
            if c.start_cell is not None
        },
        "random": sorted(name(c.id) for c in starters if c.random_start),
    }


def _turns(state: SugarDogState, history: Sequence[Step], name: _Names) -> list[dict[str, Any]]:
    movers = {entry.number: entry.mover for entry in state.history}
    # The turn in progress is listed once it is over (or the game is).
    last = state.turn if state.phase is Phase.FINISHED else state.turn - 1
    turns: dict[int, dict[str, Any]] = {}
    for step in history:
        if not 1 <= step.turn <= last or not (step.orders or step.events):
            continue
        turn = turns.get(step.turn)
        if turn is None:
            mover = movers.get(step.turn)
            if mover is None and step.orders:
                mover = str(step.orders[0]["player"])
            turn = turns[step.turn] = {
                "number": step.turn,
                "player": None if mover is None else name(mover),
                "orders": [],
                "events": [],
            }
        turn["orders"] += [name.entry(order) for order in step.orders]
        turn["events"] += [name.entry(event) for event in step.events]
    return [turns[number] for number in sorted(turns)]


def build_record(
    state: SugarDogState, history: Sequence[Step], context: RecordContext
) -> dict[str, Any]:
    """The whole ``sugardog-record/1``, with the game's seed among its options when the host
    gave one."""
    options = state.options.text()
    if context.seed is not None and "seed" not in options:
        options["seed"] = str(context.seed)
    name = _Names(state, context)
    size = state.board
    return {
        "format": RECORD_FORMAT,
        "game": {
            "kind": "sugardog",
            "rows": size,
            "cols": size,
            "options": options,
            "phase": state.phase.value,
            "turn": state.turn,
            "current": None if state.current is None else name(state.current),
            "winners": [name(p) for p in state.winners],
            "draw": state.draw,
        },
        "players": [_player(c, name(c.id), state) for c in state.captains],
        "start": _start(state, name),
        "turns": _turns(state, history, name),
    }
