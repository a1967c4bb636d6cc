"""The legend under a board: entries, each an icon and its words, laid out from the left in
as many rows as the picture's width takes.

What an icon looks like is the game's (its ``draw_icon``); how wide an entry is, where a row
breaks, where each icon and its words go and how the words are written is the same for bst,
Sonar, U-Boat Shootout and Sugar Dog, each with its own :class:`LegendSpacing`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from PIL import Image, ImageDraw

from renderers import style


class LegendEntry(Protocol):
    """What a legend entry says; the rest of it is for the game's ``draw_icon``."""

    @property
    def label(self) -> str: ...


EntryT = TypeVar("EntryT", bound=LegendEntry)

IconWidth = Callable[[EntryT], float]
"""How wide an entry's icon is drawn."""

DrawIcon = Callable[[Image.Image, EntryT, float, float], None]
"""Draws an entry's icon with its left edge at ``x``, centred on the height ``middle``:
``draw_icon(image, entry, x, middle)``."""


@dataclass(frozen=True)
class LegendSpacing:
    """How a game spaces its legend (pixels)."""

    text_size: int
    """The size of the words."""
    icon_gap: int
    """Between an icon and its words."""
    entry_gap: int
    """After an entry's words, before the next icon."""
    row_height: int
    """From the top of a row to the top of the next."""
    middle: float
    """From the top of a row to the middle of its icons and words."""


def legend_rows(
    entries: Sequence[EntryT],
    *,
    width: float,
    icon_width: IconWidth[EntryT],
    spacing: LegendSpacing,
) -> tuple[tuple[EntryT, ...], ...]:
    """``entries`` in order in rows of at most ``width`` pixels (a row holds at least one
    entry, however wide)."""
    rows: list[list[EntryT]] = [[]]
    used: float = 0
    for entry in entries:
        entry_width = (
            icon_width(entry)
            + spacing.icon_gap
            + style.text_width(entry.label, spacing.text_size)
            + spacing.entry_gap
        )
        # the gap after a row's last entry needs no room
        if rows[-1] and used + entry_width - spacing.entry_gap > width:
            rows.append([])
            used = 0
        rows[-1].append(entry)
        used += entry_width
    return tuple(tuple(row) for row in rows)


def draw_legend(
    image: Image.Image,
    rows: Sequence[Sequence[EntryT]],
    *,
    left: float,
    top: float,
    icon_width: IconWidth[EntryT],
    draw_icon: DrawIcon[EntryT],
    spacing: LegendSpacing,
) -> None:
    """The ``rows`` of :func:`legend_rows`, the first at ``top``, each from ``left``: every
    entry's icon, then its words, dimmed."""
    draw = ImageDraw.Draw(image)
    y = top
    for row in rows:
        middle = y + spacing.middle
        x = float(left)
        for entry in row:
            draw_icon(image, entry, x, middle)
            x += icon_width(entry) + spacing.icon_gap
            draw.text(
                (x, middle),
                entry.label,
                font=style.font(spacing.text_size, entry.label),
                fill=style.TEXT_DIM,
                anchor="lm",
            )
            x += style.text_width(entry.label, spacing.text_size) + spacing.entry_gap
        y += spacing.row_height
