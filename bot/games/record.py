"""Pieces of a game's record (``KIND-record/1``) that every game's record shares.

The host stores a game's history with player ids; its record shows names. The turns
of a record gather the stored steps by the turn they belong to, the start excluded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import PlayerId, Step


def named(
    entry: Mapping[str, Any], names: Mapping[PlayerId, str], keys: Sequence[str] = ("player",)
) -> dict[str, Any]:
    """An order's or event's entry with the player ids under ``keys`` written as names,
    and its ``winners`` as names in alphabetical order."""
    out = {key: names.get(value, value) if key in keys else value for key, value in entry.items()}
    if "winners" in out:
        out["winners"] = sorted(names.get(w, w) for w in out["winners"])
    return out


def turns_by_number(
    history: Sequence[Step], names: Mapping[PlayerId, str], keys: Sequence[str] = ("player",)
) -> list[dict[str, Any]]:
    """One entry a turn (``number``, ``orders``, ``events``), in turn order: every stored
    step but the start, gathered under the turn it was stored for, names for ids."""
    turns: dict[int, dict[str, Any]] = {}
    for step in history:
        if step.cause == "start":
            continue
        turn = turns.setdefault(step.turn, {"number": step.turn, "orders": [], "events": []})
        turn["orders"] += [named(order, names, keys) for order in step.orders]
        turn["events"] += [named(event, names, keys) for event in step.events]
    return [turns[number] for number in sorted(turns)]
