"""Alt text for the maps: what a screen reader says instead of the picture.

X limits alt text to 1000 characters, so long lists (shots, wrecks, captains) are cut to what
fits and end with "and N more"; the board size, turn and deadline always come first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.games.bst.cells import Cell
from bot.games.bst.views import Phase, PrivateView, PublicView
from renderers.bst.private_board import ship_text
from renderers.bst.public_map import group_shots, status_line
from renderers.style import ELLIPSIS, deadline_text

MAX_ALT_TEXT = 1000


def _limited(items: Sequence[str], budget: int) -> str:
    """``a, b, c and 4 more`` within ``budget`` characters (all of them when they fit)."""
    if not items:
        return ""
    full = ", ".join(items)
    if len(full) <= budget:
        return full
    for shown in range(len(items) - 1, -1, -1):
        rest = len(items) - shown
        text = ", ".join(items[:shown]) + (" and " if shown else "") + f"{rest} more"
        if len(text) <= budget:
            return text
    return f"{len(items)}"


def _shot_items(view: PublicView) -> list[str]:
    hits, misses = [], []
    for cell, group in group_shots(view.shots):
        for shot in group:
            if shot.hit:
                hits.append(f"{shot.shooter_name} hit {cell}")
            else:
                misses.append(f"{shot.shooter_name} missed {cell}")
    return hits + misses  # hits matter more when the list is cut


def _run(cells: Sequence[Cell]) -> str:
    ordered = sorted(cells)
    return str(ordered[0]) if len(ordered) == 1 else f"{ordered[0]}-{ordered[-1]}"


def _compose(head: list[str], lists: list[tuple[str, list[str], str]], tail: list[str]) -> str:
    """Sentences ``head``, then each (prefix, items, empty-text) list sharing what room is
    left fairly, then ``tail``; cut to :data:`MAX_ALT_TEXT` in any case."""
    fixed = " ".join(head + tail)
    room = MAX_ALT_TEXT - len(fixed) - 1
    sentences: list[str] = []
    pending = [entry for entry in lists]
    for index, (prefix, items, empty) in enumerate(pending):
        if not items:
            sentence = empty
        else:
            share = room // (len(pending) - index)
            sentence = f"{prefix}{_limited(items, max(8, share - len(prefix) - 2))}."
        if sentence:
            sentences.append(sentence)
            room -= len(sentence) + 1
    text = " ".join(part for part in [*head, *sentences, *tail] if part)
    if len(text) > MAX_ALT_TEXT:
        text = text[: MAX_ALT_TEXT - 1].rstrip() + ELLIPSIS
    return text


def _public_parts(
    view: PublicView, title: str, deadline: datetime | None, now: datetime | None
) -> tuple[list[str], list[tuple[str, list[str], str]], list[str]]:
    head = [f"{title}: map of the {view.rows} by {view.cols} board. {status_line(view)}."]
    shots = _shot_items(view)
    which = "Last turn" if view.phase is Phase.FINISHED else f"Turn {view.turn - 1}"
    lists = [
        (
            f"{which}: {len(shots)} {'shot' if len(shots) == 1 else 'shots'}, "
            f"{sum(1 for s in view.shots if s.hit)} hit: ",
            shots,
            "" if view.phase is Phase.SETUP else f"{which}: no shots.",
        ),
        (
            "Wrecks: ",
            [f"{w.owner_name}'s {w.kind.value} at {_run(w.cells)}" for w in view.wrecks],
            "",
        ),
        (f"Captains alive ({len(view.alive)}): ", [c.name for c in view.alive], ""),
    ]
    tail: list[str] = []
    if view.phase is not Phase.FINISHED:
        when = deadline_text(deadline, now)
        if when:
            tail.append(when + ".")
    return head, lists, tail


def public_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    """Screen-reader text for :func:`~renderers.bst.public_map.render_public_map` (<= 1000 chars)."""
    head, lists, tail = _public_parts(view, title, deadline, now)
    return _compose(head, lists, tail)


def private_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    """Screen-reader text for the private board: the public facts plus the viewer's fleet,
    its damage and their collisions (<= 1000 chars)."""
    head, lists, tail = _public_parts(view.public, title, deadline, now)
    head[0] = head[0].replace(": map of", f": {view.viewer_name}'s private board of", 1)
    fleet = [ship_text(s) for s in view.ships]
    lists.insert(0, ("Your fleet: ", fleet, "Your fleet: none placed."))
    if view.collisions:
        collisions = [str(c) for c in sorted(set(view.collisions))]
        lists.insert(1, ("Your ships collided at ", collisions, ""))
    return _compose(head, lists, tail)
