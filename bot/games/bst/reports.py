"""What a turn's events say in words: to everyone, and to one captain.

The public report holds only public facts (shots, wrecks, eliminations); the
private one only the captain's own movement (where their ships went or
collided). Neither ever mentions another captain's live ship.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.games.base import Event, PlayerId


def _where(cells: Sequence[str]) -> str:
    return f"{cells[0]}-{cells[-1]}" if len(cells) > 1 else "".join(cells)


DIGEST_SHOTS = 100
"""A turn with more shots than this (a crowd's) is reported as a digest: counts, and the
sinkings and eliminations by name up to :data:`NAMED`; smaller turns in full, as ever."""

NAMED = 20


def public_report(
    events: Sequence[Event], names: Mapping[PlayerId, str], *, named: int | None = NAMED
) -> list[str]:
    """Only the facts the public may know: shots, wrecks, eliminations. A crowd's turn is a
    digest naming up to ``named`` sinkings and eliminations (None: every one, as the turn's
    web page lists them)."""

    def name(key: object) -> str:
        return names.get(str(key), str(key))

    lines = []
    shots = [e for e in events if e.type == "shot"]
    if len(shots) > DIGEST_SHOTS:
        return _digest(events, shots, name, named)
    if shots:
        parts = [f"{name(e.data['player'])} {e.data['result']} {e.data['cell']}" for e in shots]
        lines.append("Shots: " + ", ".join(parts) + ".")
    for event in events:
        if event.type == "destroyed":
            where = _where(event.data.get("cells", []))
            lines.append(
                f"{name(event.data['player'])}'s {event.data['ship']} went down at {where}."
            )
        elif event.type == "eliminated":
            lines.append(f"{name(event.data['player'])} is out of the battle.")
    return lines


def public_report_in_full(events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
    """The public report with every sinking and elimination named, however many shots:
    what the turn's web page shows beside a crowd's digest."""
    return public_report(events, names, named=None)


def _digest(
    events: Sequence[Event],
    shots: Sequence[Event],
    name: Callable[[object], str],
    named: int | None,
) -> list[str]:
    """A crowd's turn in a few lines (issue 33): the picture beside it shows where."""
    hits = sum(1 for e in shots if e.data["result"] == "hit")
    sunk = [
        f"{name(e.data['player'])}'s {e.data['ship']} at {_where(e.data.get('cells', []))}"
        for e in events
        if e.type == "destroyed"
    ]
    out = [name(e.data["player"]) for e in events if e.type == "eliminated"]
    lines = [
        f"{len(shots):,} shots, {hits:,} {'hit' if hits == 1 else 'hits'}; "
        f"{len(sunk):,} {'ship' if len(sunk) == 1 else 'ships'} sunk; "
        f"{len(out):,} {'captain' if len(out) == 1 else 'captains'} out of the battle."
    ]
    if sunk:
        lines.append("Sunk: " + _some(sunk, named) + ".")
    if out:
        lines.append("Out of the battle: " + _some(out, named) + ".")
    lines.append("Every shot and sinking of the turn is in the game's record.")
    return lines


def _some(items: Sequence[str], named: int | None) -> str:
    """The first ``named`` items, then how many more (None: every one)."""
    if named is None or len(items) <= named:
        return ", ".join(items)
    return ", ".join(items[:named]) + f" and {len(items) - named:,} more"


INDEXED_EVENTS = 1_000
"""A turn with more events than this (a crowd's) is grouped by captain once, so the host's
call per captain reads that captain's events, not the whole crowd's: a turn's private
reports then grow with the crowd, not with its square. Smaller turns are read in full."""

_index: tuple[Sequence[Event], int, dict[object, list[Event]]] | None = None
"""The last crowd turn's events grouped by captain (the host asks once per captain with
the same events object); kept with the object and its length, so another turn rebuilds it."""


def _events_of(events: Sequence[Event], viewer: PlayerId) -> Sequence[Event]:
    global _index
    if len(events) <= INDEXED_EVENTS:
        return events
    if _index is None or _index[0] is not events or _index[1] != len(events):
        grouped: dict[object, list[Event]] = {}
        for event in events:
            grouped.setdefault(event.data.get("player"), []).append(event)
        _index = (events, len(events), grouped)
    return _index[2].get(viewer, [])


def private_report(events: Sequence[Event], viewer: PlayerId) -> list[str]:
    """The captain's own movement facts: where their ships went."""
    lines = []
    for event in _events_of(events, viewer):
        if event.data.get("player") != viewer:
            continue
        where = _where(event.data.get("cells", []))
        if event.type == "moved":
            lines.append(f"Your {event.data['ship']} moved to {where}.")
        elif event.type == "rotated":
            lines.append(f"Your {event.data['ship']} turned to {where}.")
    # (A collision, and a hit on one of the captain's ships, is told by the turn's notice
    # to them, which says where and what: once, not again here.)
    return lines
