"""The Sugar Dog maps: the public map (every contact, impact and ping announced, each unit
where it was last heard, fading with age) and a captain's own map (the same, with their
submarine, torpedoes and mines where they are), drawn from the views only.

The public map takes a :class:`~bot.games.sugardog.views.PublicView`, which holds no
position that was not announced; a captain's map takes their
:class:`~bot.games.sugardog.views.PrivateView`, which adds only their own things.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.grid import Direction
from bot.games.sugardog.state import Phase, Status
from bot.games.sugardog.text import action_words, fact_text, result_sentence
from bot.games.sugardog.views import (
    ContactView,
    EliminatedView,
    ImpactView,
    PingView,
    PrivateView,
    PublicView,
)
from renderers import grid, header, marks, style
from renderers.encode import png_bytes
from renderers.grid import GridLayout
from renderers.legend import LegendSpacing, draw_legend, legend_rows
from renderers.style import RGB
from renderers.sugardog import board, glyphs
from renderers.sugardog.board import square
from renderers.sugardog.chart import Chart, Glyph, private_chart, public_chart

MAX_WIDTH = 1400
MIN_WIDTH = 760
MAX_BOARD_HEIGHT = 1400
MIN_CELL = 40
MAX_CELL = 96
TARGET_BOARD = 720
PAD = 20
LEGEND_SIZE = 18
LEGEND_ROW = LEGEND_SIZE + 16
LEGEND_ICON = 30
LEGEND_SPACING = LegendSpacing(
    text_size=LEGEND_SIZE,
    icon_gap=8,
    entry_gap=24,
    row_height=LEGEND_ROW,
    middle=LEGEND_SIZE / 2 + 2,
)


@dataclass(frozen=True)
class LegendItem:
    """One entry of the key: a glyph (None: the turn badge) and its words; ``owner``
    draws it in that captain's colour (the captains' key), ``own`` in the viewer's gold."""

    glyph: Glyph | None
    label: str
    own: bool = False
    owner: str | None = None


PUBLIC_LEGEND = (
    LegendItem(Glyph.SUBMARINE, "submarine"),
    LegendItem(Glyph.TORPEDO, "torpedo"),
    LegendItem(Glyph.MINE, "mine"),
    LegendItem(Glyph.IMPACT, "impact"),
    LegendItem(Glyph.WRECK, "wreck"),
    LegendItem(None, "turn heard (older marks fade)"),
)
PRIVATE_LEGEND = (LegendItem(Glyph.SUBMARINE, "yours", own=True), *PUBLIC_LEGEND)


# ------------------------------------------------------------------ words on the map


def status_text(public: PublicView) -> str:
    if public.phase is Phase.SETUP:
        return "Setup"
    if public.phase is Phase.FINISHED:
        return "Finished"
    # Named for the turn it shows (see renderers.sonar.picture.status_text).
    return f"After turn {public.turn - 1}" if public.turn > 1 else f"Turn {public.turn}"


def last_turn_text(public: PublicView) -> str | None:
    """``Turn 6, ahab: cruise. Contacts B3, B4.``: the last turn in short."""
    turn = public.last_turn
    if turn is None:
        return None
    parts = [f"Turn {turn.number}, {turn.player_name}: {action_words(turn.action, turn.timeout)}."]
    contacts = [str(f.cell) for f in turn.facts if isinstance(f, ContactView)]
    if contacts:
        parts.append(f"Contact{'s' if len(contacts) > 1 else ''} {', '.join(contacts)}.")
    for fact in turn.facts:
        if isinstance(fact, ImpactView):
            parts.append(f"Impact at {fact.cell}!")
        elif isinstance(fact, PingView):
            # The whole report, nearest first: it is what the turn told everyone.
            parts.append(fact_text(fact))
        elif isinstance(fact, EliminatedView):
            parts.append(f"{fact.name} is out.")
    return " ".join(parts)


def next_text(public: PublicView, deadline: datetime | None, now: datetime | None) -> str:
    if public.phase is Phase.SETUP:
        return "Captains join and DM their secret starting cells."
    if public.phase is Phase.FINISHED:
        names = {c.id: c.name for c in public.captains}
        return result_sentence([names.get(w, w) for w in public.winners], public.draw)
    when = style.deadline_text(deadline, now)
    mover = f"{public.current_name} to move."
    return f"{mover} {when}." if when else mover


MAX_KEY_NAME = 150
"""Pixels a captain's name may take in the key (longer names are cut)."""


def captains_key(public: PublicView) -> tuple[LegendItem, ...]:
    """Each captain's colour, in join order: a submarine afloat, a wreck when sunk."""
    items = []
    for captain in public.captains:
        name = style.fit_text(captain.name, LEGEND_SIZE, MAX_KEY_NAME)
        if captain.status is Status.ALIVE:
            items.append(LegendItem(Glyph.SUBMARINE, name, owner=captain.id))
        elif captain.status is Status.ELIMINATED:
            items.append(LegendItem(Glyph.WRECK, f"{name} (sunk)", owner=captain.id))
        else:
            items.append(LegendItem(Glyph.SUBMARINE, f"{name} (left)", owner=captain.id))
    return tuple(items)


def own_text(view: PrivateView) -> str:
    """``ahab's map. You: D5, silent. 2 mines left. Torpedo 1: B5, heading left.``"""
    side = view.side
    parts = [f"{view.viewer_name}'s map."]
    if side.status is Status.ELIMINATED:
        parts.append(f"Your submarine went down at {side.cell}.")
    elif side.status is Status.LEFT:
        parts.append("You left the game.")
    elif side.cell is not None:
        parts.append(f"You: {side.cell}{', silent' if side.silent else ''}.")
    elif side.start_cell is not None:
        parts.append(f"You start at {side.start_cell}.")
    parts.append(f"{side.mines_left} mine{'' if side.mines_left == 1 else 's'} left.")
    for t in side.torpedoes:
        parts.append(f"Torpedo {t.number}: {t.cell}, heading {t.direction.value}.")
    return " ".join(parts)


# ------------------------------------------------------------------ the picture


def render_public_map(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """The public map as PNG bytes. Same arguments, same bytes. Avatars are not drawn: a captain is their colour (the key names them)."""
    image = compose(
        view,
        public_chart(view),
        title=title,
        deadline=deadline,
        now=now,
        extra=(),
        legend=PUBLIC_LEGEND,
    )
    return png_bytes(image)


def render_private_map(
    view: PrivateView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """A captain's own map as PNG bytes. Same arguments, same bytes. Avatars are not drawn: a captain is their colour (the key names them)."""
    image = compose(
        view.public,
        private_chart(view),
        title=title,
        deadline=deadline,
        now=now,
        extra=(own_text(view),),
        legend=PRIVATE_LEGEND,
    )
    return png_bytes(image)


def plan(size: int) -> tuple[GridLayout, int, int]:
    """The board's layout (at the origin), and the left and top margins of its names."""
    left, _ = board.margins(size, 20)
    layout = grid.plan_board(
        size,
        size,
        labels=board.labels(size),
        x0=0,
        y0=0,
        max_board_width=MAX_WIDTH - left - PAD,
        max_board_height=MAX_BOARD_HEIGHT,
        min_cell=MIN_CELL,
        max_cell=MAX_CELL,
        target=TARGET_BOARD,
    )
    left, top = board.margins(size, layout.label_size)
    return layout, left, top


def compose(
    public: PublicView,
    chart: Chart,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    extra: Sequence[str],
    legend: Sequence[LegendItem],
) -> Image.Image:
    """The map (RGB, opaque): header, board, the chart's marks, legend."""
    size = max(1, public.size)
    layout, left, top = plan(size)
    width = min(MAX_WIDTH, max(MIN_WIDTH, 2 * left + layout.width))
    width += width % 2
    text_width = width - 2 * PAD
    lines: list[tuple[str, RGB]] = []
    last = last_turn_text(public)
    if last:
        lines += [(line, style.TEXT) for line in header.wrap_line(last, text_width)]
    lines.append(
        (
            next_text(public, deadline, now),
            style.HIT_LIGHT if public.phase is Phase.FINISHED else style.TEXT,
        )
    )
    lines += [(text, style.OWN_SHIP) for text in extra]
    header_h = header.header_height(len(lines))
    rows = arrange_legend((*captains_key(public), *legend), text_width)
    legend_h = len(rows) * LEGEND_ROW + 2 * PAD
    board_x = (width - (left + layout.width)) // 2 + left
    layout = dataclasses.replace(layout, x0=board_x, y0=header_h + top)
    height = layout.y0 + layout.height + legend_h
    height += height % 2

    image = _base(width, height, header_h, layout, rows).copy()
    header.draw_header(image, title=title, status=status_text(public), lines=lines)
    draw_chart(image, layout, chart)
    return image


def draw_chart(image: Image.Image, layout: GridLayout, chart: Chart) -> None:
    """The sonar rings of the last ping, then every mark."""
    if chart.ping is not None and layout.detailed:
        glyphs.sonar(image, layout, layout.box(square(chart.ping, chart.size)))
    glyphs.draw_marks(image, layout, chart.marks, chart.size)


@functools.lru_cache(maxsize=8)
def _base(
    width: int,
    height: int,
    header_h: int,
    layout: GridLayout,
    legend: tuple[tuple[LegendItem, ...], ...],
) -> Image.Image:
    """What depends only on the map's geometry: background, header panel, water, grid,
    names and legend (shared between calls; callers copy it). Nothing drawn later overlaps
    the legend, and the grid is drawn first either way, so the pixels are the same."""
    image = Image.new("RGB", (width, height), style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, width, header_h - 8), fill=style.PANEL)
    grid.draw_grid(image, layout)
    draw_legend_rows(image, legend, top=layout.y0 + layout.height + PAD)
    return image


@functools.lru_cache(maxsize=16)
def arrange_legend(items: tuple[LegendItem, ...], width: int) -> tuple[tuple[LegendItem, ...], ...]:
    """The key's entries in rows of at most ``width`` pixels (the same captains come back in
    every map of a game)."""
    return legend_rows(items, width=width, icon_width=_legend_icon_width, spacing=LEGEND_SPACING)


def draw_legend_rows(
    image: Image.Image, rows: Sequence[Sequence[LegendItem]], *, top: float
) -> None:
    """The rows of :func:`arrange_legend`, the first at ``top``."""
    draw_legend(
        image,
        rows,
        left=PAD,
        top=top,
        icon_width=_legend_icon_width,
        draw_icon=_draw_legend_icon,
        spacing=LEGEND_SPACING,
    )


def _legend_icon_width(item: LegendItem) -> float:
    return LEGEND_ICON


_SAMPLE_OWNER = (150, 200, 235)


def _draw_legend_icon(image: Image.Image, item: LegendItem, x: float, cy: float) -> None:
    box = (x, cy - LEGEND_ICON / 2, x + LEGEND_ICON, cy + LEGEND_ICON / 2)
    sample = _SAMPLE_OWNER if item.owner is None else style.owner_colour(item.owner)
    fill = glyphs.OWN if item.own else sample
    edge = glyphs.OWN_EDGE if item.own else style.darker(sample, 0.45)
    if item.glyph is Glyph.SUBMARINE:
        glyphs.submarine(image, box, fill, edge)
    elif item.glyph is Glyph.TORPEDO:
        glyphs.torpedo(image, box, fill, edge, Direction.RIGHT)
    elif item.glyph is Glyph.MINE:
        glyphs.mine(image, box, edge, fill)
    elif item.glyph is Glyph.IMPACT:
        glyphs.impact(image, box, 0.0)
    elif item.glyph is Glyph.WRECK:
        glyphs.wreck(image, box, sample)
    else:
        marks.capsule(image, box, style.WATER)
        tag = marks.name_tag("7", LEGEND_SIZE - 2, style.TEXT, style.BACKGROUND, False)
        marks.composite(
            image, tag, (round(x + (LEGEND_ICON - tag.width) / 2), round(cy - tag.height / 2))
        )
