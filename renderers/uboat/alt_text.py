"""The words that describe a U-Boat Shootout picture to someone who cannot see it.

Built from the same view as the picture, so they say no more than it shows: the public
map's alt text names no boat's cell; a crew's board adds its own boat.
"""

from __future__ import annotations

from datetime import datetime

from bot.games.uboat.views import PrivateView, PublicView
from renderers.alt_text import cut_to_limit, deadline_sentences
from renderers.uboat import report
from renderers.uboat.board import own_lines
from renderers.uboat.report import Arrows, Chip, Row


def _row_text(row: Row) -> str:
    words = []
    for piece in row:
        if isinstance(piece, Chip):
            continue
        if isinstance(piece, Arrows):
            words.append(", ".join(step.value for step in piece.route))
        else:
            words.append(piece.text)
    return " ".join(words)


def _public_words(
    view: PublicView, title: str, deadline: datetime | None, now: datetime | None
) -> list[str]:
    parts = [f"{title}: U-Boat Shootout on a {view.size}x{view.size} sea, {report.status(view)}."]
    ended = report.result(view)
    if ended:
        parts.append(f"{ended}.")
    else:
        parts += deadline_sentences(deadline, now)
    rows = report.round_rows(view)
    if rows:
        parts.append(f"{report.heading(view)}: " + "; ".join(_row_text(row) for row in rows) + ".")
    owned = [f"{island.number} by {island.owner.title}" for island in view.islands if island.owner]
    if owned:
        parts.append("Islands held: " + ", ".join(owned) + ".")
    return parts


def public_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    return cut_to_limit(" ".join(_public_words(view, title, deadline, now)))


def private_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    own = [f"{text}." for text, _ in own_lines(view)]
    return cut_to_limit(
        " ".join(
            [
                f"{view.name}'s private board.",
                *own,
                *_public_words(view.public, title, deadline, now),
            ]
        )
    )
