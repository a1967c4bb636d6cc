"""The record of a Sonar game, ``sonar-record/1`` (``shared/contracts/sonar.md``, Record).

Built whole from the state now and the host's stored history: the game (board size,
options with ``ships`` as ``auto`` until the start, phase, turn, who is to move,
winners, draw), the players in join order with their subs where they are now (a live
sub after the last resolved turn, a sunk one where it sank, a leaver's where they
left), the start (who moved first and every fleet at turn 0), and one entry per
resolved turn with its orders and events. The record writes names, never ids; every
list of a sub's cells goes bow first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import PlayerId, RecordContext, Step
from bot.games.sonar.state import Captain, Phase, SonarState

RECORD_FORMAT = "sonar-record/1"

_ID_KEYS = ("player", "owner")
"""Keys of orders and events whose value is a player id, written as a name."""


def build_record(
    state: SonarState, history: Sequence[Step], context: RecordContext
) -> dict[str, Any]:
    names = {c.id: c.name for c in state.captains}
    names.update(context.names)

    def name(player: PlayerId | None) -> str | None:
        return None if player is None else names.get(player, player)

    board = state.board
    options = state.options.text(state.ships)
    if context.seed is not None:
        # Only a seed the script gave is shown (shared/contracts/games.md, Records).
        options["seed"] = context.seed
    return {
        "format": RECORD_FORMAT,
        "game": {
            "kind": "sonar",
            "rows": board.rows,
            "cols": board.cols,
            "options": options,
            "phase": state.phase.value,
            "turn": state.turn,
            "to_move": name(state.to_move) if state.phase is Phase.BATTLE else None,
            "winners": [name(w) for w in state.winners],
            "draw": state.draw,
        },
        "players": [_player(state, c, names) for c in state.captains],
        "start": _start(state, names),
        "turns": _turns(history, names),
    }


def _player(state: SonarState, captain: Captain, names: Mapping[PlayerId, str]) -> dict[str, Any]:
    board = state.board
    subs = []
    for sub in captain.fleet:
        cells = captain.sub_cells(board, sub, state.moves)
        hit = sub.hit_segments()
        subs.append(
            {
                "id": sub.id,
                "length": sub.length,
                "facing": sub.facing.value,
                "cells": [str(cell) for cell in cells],
                "hits": [str(cells[i]) for i in sorted(hit)],
                "sunk": sub.sunk,
            }
        )
    return {
        "name": names.get(captain.id, captain.name),
        "status": captain.status.value,
        "subs": subs,
    }


def _start(state: SonarState, names: Mapping[PlayerId, str]) -> dict[str, Any] | None:
    if state.phase is Phase.SETUP or state.first is None:
        # A game the host ended in setup never began: it has no start to replay.
        return None
    board = state.board
    return {
        "first": names.get(state.first or "", state.first),
        "players": [
            {
                "name": names.get(c.id, c.name),
                "subs": [
                    {
                        "id": sub.id,
                        "length": sub.length,
                        "facing": sub.facing.value,
                        "cells": [str(cell) for cell in sub.course.cells(board)],
                    }
                    for sub in c.fleet
                ],
            }
            for c in state.in_battle
        ],
    }


def _turns(history: Sequence[Step], names: Mapping[PlayerId, str]) -> list[dict[str, Any]]:
    """One entry per resolved turn: the steps stored for turn ``k`` (its resolution, and
    any change that added nothing, such as a leave that waits) gathered in order."""
    turns: dict[int, dict[str, Any]] = {}
    for step in history:
        if step.turn < 1 or not (step.orders or step.events):
            continue
        entry = turns.setdefault(
            step.turn, {"number": step.turn, "player": None, "orders": [], "events": []}
        )
        entry["orders"] += [_named(order, names) for order in step.orders]
        entry["events"] += [_named(event, names) for event in step.events]
        if entry["player"] is None and entry["orders"]:
            entry["player"] = entry["orders"][0]["player"]
    return [turns[number] for number in sorted(turns)]


def _named(entry: Mapping[str, Any], names: Mapping[PlayerId, str]) -> dict[str, Any]:
    named = dict(entry)
    for key in _ID_KEYS:
        if key in named and isinstance(named[key], str):
            named[key] = names.get(named[key], named[key])
    if "winners" in named:
        named["winners"] = [names.get(w, w) for w in named["winners"]]
    return named
