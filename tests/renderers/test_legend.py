"""The legend under a board (``renderers/legend.py``): entries in order, in as many rows as
the width takes, each icon followed by its words."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from renderers import style
from renderers.legend import LegendSpacing, draw_legend, legend_rows

SPACING = LegendSpacing(text_size=18, icon_gap=8, entry_gap=24, row_height=32, middle=11)


@dataclass(frozen=True)
class Entry:
    label: str
    icon: float = 30


def icon_width(entry: Entry) -> float:
    return entry.icon


def width_of(entry: Entry) -> float:
    """What an entry takes, the gap after it included."""
    return entry.icon + 8 + style.text_width(entry.label, 18) + 24


def test_entries_stay_in_one_row_while_they_fit_the_last_ones_gap_aside() -> None:
    entries = [Entry("hit"), Entry("miss"), Entry("wreck", icon=40)]
    exact = sum(width_of(e) for e in entries) - SPACING.entry_gap
    rows = legend_rows(entries, width=exact, icon_width=icon_width, spacing=SPACING)
    assert rows == (tuple(entries),)
    rows = legend_rows(entries, width=exact - 1, icon_width=icon_width, spacing=SPACING)
    assert rows == (tuple(entries[:2]), (entries[2],))


def test_an_entry_wider_than_the_picture_still_gets_a_row() -> None:
    entries = [Entry("a"), Entry("a very long explanation"), Entry("b")]
    rows = legend_rows(entries, width=10, icon_width=icon_width, spacing=SPACING)
    assert rows == tuple((entry,) for entry in entries)


def test_each_icon_is_drawn_after_the_words_before_it_and_rows_go_down() -> None:
    entries = (Entry("hit"), Entry("sunk sub", icon=60))
    calls: list[tuple[str, float, float]] = []

    def draw_icon(image: Image.Image, entry: Entry, x: float, middle: float) -> None:
        calls.append((entry.label, x, middle))

    image = Image.new("RGB", (400, 120), style.BACKGROUND)
    draw_legend(
        image,
        (entries, entries[:1]),
        left=20,
        top=10,
        icon_width=icon_width,
        draw_icon=draw_icon,
        spacing=SPACING,
    )
    assert calls == [
        ("hit", 20, 21),
        ("sunk sub", 20 + width_of(entries[0]), 21),
        ("hit", 20, 53),
    ]
    words = image.crop((20 + 30 + 8, 12, 20 + width_of(entries[0]) - 24, 30))
    assert words.getextrema() != tuple((v, v) for v in style.BACKGROUND)  # "hit" is written
