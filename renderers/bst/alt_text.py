"""Alt text for the maps: what a screen reader says instead of the picture.

X limits alt text to 1000 characters, so long lists (shots, wrecks, captains) are cut to what
fits and end with "and N more"; the board size, turn and deadline always come first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.games.bst.cells import Cell
from bot.games.bst.views import Phase, PrivateView, PublicView
from renderers.alt_text import Listing, compose_alt_text, deadline_sentences
from renderers.bst.private_board import ship_text
from renderers.bst.public_map import group_shots, status_line


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


def _public_parts(
    view: PublicView, title: str, deadline: datetime | None, now: datetime | None
) -> tuple[list[str], list[Listing], list[str]]:
    head = [f"{title}: map of the {view.rows} by {view.cols} board. {status_line(view)}."]
    shots = _shot_items(view)
    which = "Last turn" if view.phase is Phase.FINISHED else f"Turn {view.turn - 1}"
    lists = [
        Listing(
            f"{which}: {len(shots)} {'shot' if len(shots) == 1 else 'shots'}, "
            f"{sum(1 for s in view.shots if s.hit)} hit: ",
            shots,
            "" if view.phase is Phase.SETUP else f"{which}: no shots.",
        ),
        Listing(
            "Wrecks: ",
            [f"{w.owner_name}'s {w.kind.value} at {_run(w.cells)}" for w in view.wrecks],
        ),
        Listing(f"Captains alive ({len(view.alive)}): ", [c.name for c in view.alive]),
    ]
    tail = [] if view.phase is Phase.FINISHED else deadline_sentences(deadline, now)
    return head, lists, tail


def public_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    """Screen-reader text for :func:`~renderers.bst.public_map.render_public_map` (<= 1000 chars)."""
    head, lists, tail = _public_parts(view, title, deadline, now)
    return compose_alt_text(head, lists, tail)


def private_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    """Screen-reader text for the private board: the public facts plus the viewer's fleet,
    its damage and their collisions (<= 1000 chars)."""
    head, lists, tail = _public_parts(view.public, title, deadline, now)
    head[0] = head[0].replace(": map of", f": {view.viewer_name}'s private board of", 1)
    fleet = [ship_text(s) for s in view.ships]
    lists.insert(0, Listing("Your fleet: ", fleet, "Your fleet: none placed."))
    if view.collisions:
        collisions = [str(c) for c in sorted(set(view.collisions))]
        lists.insert(1, Listing("Your ships collided at ", collisions))
    return compose_alt_text(head, lists, tail)
