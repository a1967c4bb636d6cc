"""The record of a bst game, ``bst-record/1``, exactly as
``shared/contracts/script-and-record.md`` defines it (for ``bst script --record`` and
``bst export``).

``game`` holds the host's number and phase, the board, the options, the turn (in a
finished game the last one resolved) and the outcome; ``players`` every captain in
join order with their ships now; ``turns`` every resolved battle turn with the orders
that stood (sorted by name) and its events in resolution order. Players are named
everywhere, from the host's names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import PlayerId, RecordContext, Step
from bot.games.bst.cells import cells_text
from bot.games.bst.lifecycle import outcome
from bot.games.bst.state import BstState

FORMAT = "bst-record/1"
RESOLUTIONS = frozenset({"turn", "timer"})
"""The causes of the stored steps that are resolved turns."""


def game_record(
    state: BstState, history: Sequence[Step], context: RecordContext, kind: str = "bst"
) -> dict[str, Any]:
    """The whole record, from the state now and the stored history (``Step(turn=0)`` is
    the start; the record lists the steps of turns 1 and on)."""
    names = context.names
    ended = outcome(state)
    turns = _turns(history, names)
    if context.phase == "finished":
        turn = max((t["number"] for t in turns), default=0)
    else:
        turn = state.turn
    return {
        "format": FORMAT,
        "game": {
            "id": context.number,
            "kind": kind,
            **record_board(state),
            "options": state.options.text(),
            "phase": context.phase,
            "turn": turn,
            "winners": [names.get(w, w) for w in ended.winners] if ended else [],
            "draw": bool(ended and ended.draw),
        },
        "players": record_players(state, names),
        "turns": turns,
    }


def record_board(state: BstState) -> dict[str, Any]:
    """The board's size, as the record's ``game`` shows it."""
    return {"rows": state.options.rows, "cols": state.options.cols}


def record_players(
    state: BstState, names: Mapping[PlayerId, str] | None = None
) -> list[dict[str, Any]]:
    """The record's ``players``: every captain in join order, with their ships now."""
    return [
        {
            "name": (names or {}).get(c.id, c.name),
            "status": c.status.value,
            "ships": [
                {
                    "kind": ship.kind.value,
                    "cells": cells_text(ship.cells),
                    "damaged": cells_text(ship.damaged_cells),
                    "destroyed": ship.destroyed,
                }
                for ship in c.ships
            ],
        }
        for c in state.captains
    ]


def _turns(history: Sequence[Step], names: Mapping[PlayerId, str]) -> list[dict[str, Any]]:
    """One entry per resolved turn, in order. The record of script-and-record.md lists
    resolved battle turns only: a change between deadlines (a leave, a kick, the host's
    end) shows in ``players`` and the outcome, not as a turn of its own."""
    turns: list[dict[str, Any]] = []
    for step in history:
        if step.turn < 1 or step.cause not in RESOLUTIONS:
            continue
        if not turns or turns[-1]["number"] != step.turn:
            turns.append({"number": step.turn, "orders": [], "events": []})
        entry = turns[-1]
        entry["orders"].extend(
            {"player": names.get(o["player"], o["player"])}
            | {k: v for k, v in o.items() if k != "player"}
            for o in step.orders
        )
        entry["orders"].sort(key=lambda o: o["player"])
        entry["events"].extend(_named_event(e, names) for e in step.events)
    return turns


def _named_event(event: Mapping[str, Any], names: Mapping[PlayerId, str]) -> dict[str, Any]:
    named = dict(event)
    if "player" in named:
        named["player"] = _name(named["player"], names)
    if "winners" in named:
        named["winners"] = [_name(w, names) for w in named["winners"]]
    return named


def _name(value: Any, names: Mapping[PlayerId, str]) -> Any:
    return names.get(value, value) if isinstance(value, str) else value
