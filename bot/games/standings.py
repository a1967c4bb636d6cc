"""Places in a finished game's standings, shared by every game (pure).

A game says how good each player's end was as a sort key (higher is better: a win,
then the later a player went out, or a score); players with equal keys share a place,
and the next place skips as many as shared it (1, 2, 2, 4), as in any sports table.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from bot.games.base import PlayerId, Standing, Step


def places(keys: Mapping[PlayerId, tuple[Any, ...]]) -> dict[PlayerId, int]:
    """Each player's place from their key (higher is better; equal keys share a place)."""
    return {
        player: 1 + sum(1 for other in keys.values() if other > key) for player, key in keys.items()
    }


def ranked(
    players: Sequence[PlayerId],
    keys: Mapping[PlayerId, tuple[Any, ...]],
    figures: Callable[[PlayerId], tuple[str, ...]],
) -> tuple[Standing, ...]:
    """The standings, best place first (join order among equals)."""
    place = places(keys)
    order = sorted(players, key=lambda p: (place[p], players.index(p)))
    return tuple(Standing(p, place[p], figures(p)) for p in order)


def survival_key(
    player: PlayerId, winners: Collection[PlayerId], out: Mapping[PlayerId, int]
) -> tuple[int, float]:
    """A win first, then the later a player went out the better (still in: best)."""
    return (1 if player in winners else 0, out.get(player, float("inf")))


def events_of(history: Sequence[Step], kind: str) -> list[tuple[int, Mapping[str, Any]]]:
    """Every event of type ``kind`` in the history, with the turn it happened in."""
    return [(step.turn, e) for step in history for e in step.events if e.get("type") == kind]


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 shot``, ``3 shots``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def removed_at(history: Sequence[Step]) -> dict[PlayerId, int]:
    """The turn in which each player who left or was kicked did so (from the stored
    causes: the step's record names who in its orders or events)."""
    gone: dict[PlayerId, int] = {}
    for step in history:
        if step.cause not in ("leave", "kick"):
            continue
        for entry in (*step.orders, *step.events):
            who = entry.get("player")
            if isinstance(who, str):
                gone.setdefault(who, step.turn)
    return gone
