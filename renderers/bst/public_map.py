"""The public map (rules §6): the board, this turn's shots with their shooters, the wrecks,
and a caption with the turn, the next deadline and the captains still alive.

The input is a :class:`~bot.games.bst.views.PublicView`, which has no field for live ships:
the public map cannot show one because it is never given one. The private board draws on
the same picture through :func:`compose_map`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.bst.cells import Cell
from bot.games.bst.views import Phase, PublicView, ShotView
from renderers import grid, header, marks, style
from renderers.avatars import generated_avatar, round_avatar
from renderers.bst import board
from renderers.encode import png_bytes
from renderers.grid import GridLayout
from renderers.legend import LegendSpacing, draw_legend, legend_rows
from renderers.style import RGB

MAX_WIDTH = 1600
MAX_BOARD_HEIGHT = 1800
MIN_WIDTH = 760
MIN_CELL = 20  # the smallest cell that still shows an avatar and a wreck's owner (rules §6)
MAX_CELL = 64
TARGET_BOARD = 800
PAD = 20
LEGEND_SIZE = 18
LEGEND_ROW = LEGEND_SIZE + 14
LEGEND_ICON = LEGEND_SIZE + 6
LEGEND_SPACING = LegendSpacing(
    text_size=LEGEND_SIZE,
    icon_gap=8,
    entry_gap=24,
    row_height=LEGEND_ROW,
    middle=LEGEND_SIZE / 2 + 2,
)

Layer = Callable[[Image.Image, GridLayout], None]


@dataclass(frozen=True)
class LegendItem:
    kind: str  # "hit", "miss", "wreck", "own", "damage", "collision"
    label: str


@dataclass
class MapExtras:
    """What the private board adds to the public picture."""

    lines: list[str] = field(default_factory=list)
    legend: list[LegendItem] = field(default_factory=list)
    under_shots: list[Layer] = field(default_factory=list)
    over_shots: list[Layer] = field(default_factory=list)
    badged: frozenset[Cell] = frozenset()
    """Cells whose bottom-right corner a badge of ``over_shots`` takes (the viewer's damage
    where someone shot): their shooters' avatars keep out of it."""


def render_public_map(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """The public map as PNG bytes. Same arguments, same bytes."""
    image = compose_map(
        view, title=title, deadline=deadline, now=now, avatars=avatars, extras=MapExtras()
    )
    return png_bytes(image)


def status_line(view: PublicView) -> str:
    if view.phase is Phase.SETUP:
        return "Setup: placing ships"
    if view.phase is Phase.FINISHED:
        names = {c.id: c.name for c in view.captains}
        if view.draw:
            return f"Finished after turn {view.turn}: a draw"
        winners = [names.get(w, w) for w in view.winners]
        if not winners:
            return f"Finished after turn {view.turn}"
        label = "Winner" if len(winners) == 1 else "Winners"
        return f"Finished after turn {view.turn}. {label}: {', '.join(winners)}"
    # The map shows the board as the last turn left it: it is named for that turn, as the
    # web page's turn it illustrates is (the map after turn 1 is not "Turn 2"'s).
    return f"After turn {view.turn - 1}" if view.turn > 1 else f"Turn {view.turn}"


def shots_line(view: PublicView) -> str | None:
    if not view.shots:
        return None if view.phase is Phase.SETUP else "No shots last turn"
    hits = sum(1 for s in view.shots if s.hit)
    which = "Last turn" if view.phase is Phase.FINISHED else f"Turn {view.turn - 1}"
    noun = "shot" if len(view.shots) == 1 else "shots"
    return f"{which}: {len(view.shots)} {noun}, {hits} {'hit' if hits == 1 else 'hits'}"


def group_shots(shots: Sequence[ShotView]) -> list[tuple[Cell, list[ShotView]]]:
    """Shots by cell, cells in board order, shooters in id order (input order never matters)."""
    by_cell: dict[Cell, list[ShotView]] = {}
    for shot in shots:
        by_cell.setdefault(shot.cell, []).append(shot)
    return [
        (cell, sorted(by_cell[cell], key=lambda s: (s.shooter, s.shooter_name)))
        for cell in sorted(by_cell)
    ]


def _header_lines(
    view: PublicView, deadline: datetime | None, now: datetime | None, extras: MapExtras
) -> list[tuple[str, RGB]]:
    lines: list[tuple[str, RGB]] = []
    shots = shots_line(view)
    if shots:
        lines.append((shots, style.TEXT_DIM))
    if view.phase is not Phase.FINISHED:
        when = style.deadline_text(deadline, now)
        if when:
            lines.append((when, style.TEXT))
    lines.extend((line, style.TEXT) for line in extras.lines)
    return lines


def compose_map(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None,
    extras: MapExtras,
) -> Image.Image:
    """The map picture (RGB, opaque) with the public facts and whatever ``extras`` add.

    Layers in ``extras`` draw on an RGB image: blend with :func:`renderers.marks.composite` rather than
    ``Image.alpha_composite``."""
    rows, cols = view.rows, view.cols
    layout = overview_layout(rows, cols)
    left, top = board.margins(rows, cols, layout.label_size)
    board_w = 2 * left + layout.width
    width = min(MAX_WIDTH, max(MIN_WIDTH, board_w))
    width += width % 2
    text_width = width - 2 * PAD

    alive = [c.name for c in view.alive]
    # Every survivor is named, on as many lines as it takes (none hidden behind "+N more").
    captains = style.wrap_names(
        f"Captains alive ({len(alive)}): ", alive, header.LINE_SIZE, text_width
    )
    lines = [
        *_header_lines(view, deadline, now, extras),
        *((line, style.TEXT_DIM) for line in captains),
    ]
    header_h = header.header_height(len(lines))
    legend = legend_rows(
        _legend(layout, extras),
        width=width - 2 * PAD,
        icon_width=_legend_icon_width,
        spacing=LEGEND_SPACING,
    )
    legend_h = len(legend) * LEGEND_ROW + 2 * PAD - (LEGEND_ROW - LEGEND_SIZE)
    board_x = (width - (left + layout.width)) // 2 + left
    board_y = header_h + top
    layout = dataclasses.replace(layout, x0=board_x, y0=board_y)
    height = board_y + layout.height + legend_h
    height += height % 2

    image = _base(width, height, header_h, layout, legend)
    header.draw_header(image, title=title, status=status_line(view), lines=lines)

    draw_wrecks(image, layout, view)
    for layer in extras.under_shots:
        layer(image, layout)
    draw_shots(image, layout, view.shots, avatars, badged=extras.badged)
    for layer in extras.over_shots:
        layer(image, layout)
    return image


def overview_layout(rows: int, cols: int) -> GridLayout:
    """The cells of the one picture of a ``rows``×``cols`` board (at 0, 0): detailed when
    they fit at :data:`MIN_CELL` pixels or more, compact (small cells, flat marks)
    otherwise, which is when the web page also offers the board in tiles."""
    # two passes: margins depend on the label size, which depends on the cell size
    left, _top = board.margins(rows, cols, 20)
    return grid.plan_board(
        rows,
        cols,
        labels=board.LABELS,
        x0=0,
        y0=0,
        max_board_width=MAX_WIDTH - left - PAD,
        max_board_height=MAX_BOARD_HEIGHT,
        min_cell=MIN_CELL,
        max_cell=MAX_CELL,
        target=TARGET_BOARD,
    )


def _base(
    width: int,
    height: int,
    header_h: int,
    layout: GridLayout,
    legend: tuple[tuple[LegendItem, ...], ...],
) -> Image.Image:
    """A fresh copy of the part of the map that depends only on its geometry: background,
    header panel, water, grid, labels and legend. None of these overlap the header text or
    the marks drawn later, so drawing them first gives the same pixels as drawing them in
    the picture's reading order."""
    return _cached_base(width, height, header_h, layout, legend).copy()


@functools.lru_cache(maxsize=4)
def _cached_base(
    width: int,
    height: int,
    header_h: int,
    layout: GridLayout,
    legend: tuple[tuple[LegendItem, ...], ...],
) -> Image.Image:
    image = Image.new("RGB", (width, height), style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, width, header_h - 8), fill=style.PANEL)
    grid.draw_grid(image, layout)
    draw_legend(
        image,
        legend,
        left=PAD,
        top=layout.y0 + layout.height + PAD,
        icon_width=_legend_icon_width,
        draw_icon=functools.partial(_draw_legend_icon, detailed=layout.detailed),
        spacing=LEGEND_SPACING,
    )
    return image


def draw_wrecks(image: Image.Image, layout: GridLayout, view: PublicView) -> None:
    for wreck in view.wrecks:
        grid.hull(image, layout, wreck.cells, style.WRECK, style.owner_colour(wreck.owner))
    for wreck in view.wrecks:
        grid.hull_label(
            image,
            layout,
            wreck.cells,
            wreck.owner_name,
            colour=style.TEXT,
            background=style.WRECK_EDGE,
        )


# Where the avatars of a cell's shooters sit: (outer radius, centres) as fractions of the
# cell, the outer radius taking in the ring. One layout a count: one fills the cell; two
# on the diagonal, three as a triangle, four in the quarters; more, a finer grid. Avatar
# and ring always stay inside the cell (a pixel of margin), never in a neighbour's.
_FANS: dict[int, tuple[float, list[tuple[float, float]]]] = {
    1: (0.47, [(0.5, 0.5)]),
    2: (0.29, [(0.3, 0.3), (0.7, 0.7)]),
    3: (0.25, [(0.26, 0.26), (0.74, 0.26), (0.5, 0.74)]),
    4: (0.235, [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]),
}


def _fan(shooters: int) -> tuple[float, list[tuple[float, float]]]:
    """(outer radius, centres) of the avatars of a cell's shooters, as fractions of the
    cell. Every shooter is drawn (rules §6: several shooters on one cell all visible)."""
    if shooters in _FANS:
        return _FANS[shooters]
    side = math.ceil(math.sqrt(shooters))
    step = 1.0 / side
    spots = [((i % side + 0.5) * step, (i // side + 0.5) * step) for i in range(shooters)]
    return step * 0.47, spots


BADGE = 0.17
"""The radius of a corner badge (the viewer's damage under this turn's shots), of the cell."""
BADGED_FAN = 0.66
"""How far a badged cell's avatars (two or more) shrink toward its top-left corner, so that
the badge in the opposite corner hides none of them (the last of two or four sat right
under it)."""


def _spots(shooters: int, badged: bool) -> tuple[float, list[tuple[float, float]]]:
    outer, spots = _fan(shooters)
    if not badged or shooters == 1:
        return outer, spots  # one avatar fills the cell: the badge takes only its corner
    return outer * BADGED_FAN, [(x * BADGED_FAN, y * BADGED_FAN) for x, y in spots]


def draw_shots(
    image: Image.Image,
    layout: GridLayout,
    shots: Sequence[ShotView],
    avatars: Mapping[str, Image.Image] | None,
    *,
    badged: Collection[Cell] = (),
) -> None:
    """Shots: avatars with hit/miss marks when detailed, coloured markers when compact; in
    the ``badged`` cells the avatars leave the bottom-right corner to a badge."""
    groups = group_shots(shots)
    if not layout.detailed:
        # misses first so that a hit is never hidden under a miss marker
        for cell, group in groups:
            if not any(s.hit for s in group):
                grid.cell_marker(image, layout, cell, style.MISS_MARKER)
        for cell, group in groups:
            if any(s.hit for s in group):
                grid.cell_marker(image, layout, cell, style.HIT)
        return
    cache: dict[tuple[str, int], Image.Image] = {}
    c = layout.cell
    for cell, group in groups:
        if not layout.on_board(cell):
            continue
        x0, y0, _, _ = layout.box(cell)
        hit = any(s.hit for s in group)
        centre = (x0 + c / 2, y0 + c / 2)
        if hit:
            marks.burst(image, centre, c * 0.54, style.HIT, points=12, inner=0.6)
            marks.burst(image, centre, c * 0.44, style.HIT_LIGHT, points=12, inner=0.68)
        outer_f, spots = _spots(len(group), cell in badged)
        outer = c * outer_f
        ring_w = max(1.0, min(outer * 0.2, c * 0.09))
        radius = max(1.0, outer - ring_w)
        for shot, (fx, fy) in zip(group, spots, strict=True):
            spot = (x0 + c * fx, y0 + c * fy)
            diameter = max(4, round(radius * 2))
            key = (shot.shooter, diameter)
            if key not in cache:
                source = (avatars or {}).get(shot.shooter)
                if source is None:
                    cache[key] = _generated_round(shot.shooter, shot.shooter_name, diameter)
                else:
                    cache[key] = round_avatar(source, diameter)
            marks.disc(image, spot, radius + ring_w, style.HIT if hit else style.MISS)
            avatar = cache[key]
            marks.composite(
                image, avatar, (round(spot[0] - diameter / 2), round(spot[1] - diameter / 2))
            )


@functools.lru_cache(maxsize=128)
def _generated_round(player_id: str, name: str, diameter: int) -> Image.Image:
    """The round stand-in for a captain without an avatar (shared; only ever composited)."""
    return round_avatar(generated_avatar(player_id, name, diameter * 2), diameter)


def _legend(layout: GridLayout, extras: MapExtras) -> list[LegendItem]:
    items = [LegendItem("hit", "hit"), LegendItem("miss", "miss"), LegendItem("wreck", "wreck")]
    if layout.detailed:
        items.append(LegendItem("shooter", "avatar: who shot here"))
    return items + extras.legend


def _legend_icon_width(item: LegendItem) -> int:
    # a hull is drawn longer than the round marks
    return LEGEND_ICON + (10 if item.kind in ("wreck", "own") else 0)


def _draw_legend_icon(
    image: Image.Image, item: LegendItem, x: float, cy: float, *, detailed: bool
) -> None:
    icon = LEGEND_ICON
    box = (x, cy - icon / 2, x + icon, cy + icon / 2)
    centre = (x + icon / 2, cy)
    if item.kind == "hit":
        if detailed:
            marks.burst(image, centre, icon / 2, style.HIT, points=10, inner=0.6)
            marks.disc(image, centre, icon * 0.26, style.HIT_LIGHT)
        else:
            marks.disc(image, centre, icon * 0.4, style.HIT)
    elif item.kind == "miss":
        if detailed:
            marks.ring(image, centre, icon * 0.42, max(2.0, icon * 0.12), style.MISS)
        else:
            marks.disc(image, centre, icon * 0.4, style.MISS_MARKER)
    elif item.kind == "wreck":
        marks.capsule(image, (box[0], box[1] + 4, box[2] + 10, box[3] - 4), style.WRECK)
    elif item.kind == "own":
        marks.capsule(
            image,
            (box[0], box[1] + 4, box[2] + 10, box[3] - 4),
            style.OWN_SHIP,
            style.OWN_SHIP_EDGE,
            1.5,
        )
    elif item.kind == "shooter":
        marks.disc(image, centre, icon * 0.46, style.MISS)
        marks.disc(image, centre, icon * 0.34, style.TEXT_DIM)
        marks.disc(image, (centre[0], centre[1] - icon * 0.1), icon * 0.12, style.PANEL)
    elif item.kind == "damage":
        marks.cross(
            image,
            marks.inset((round(box[0]), round(box[1]), round(box[2]), round(box[3])), 3),
            style.HIT,
            3,
        )
    elif item.kind == "collision":
        draw = ImageDraw.Draw(image)
        draw.rectangle(box, outline=style.COLLISION, width=3)
        draw.text(centre, "!", font=style.font(LEGEND_SIZE), fill=style.COLLISION, anchor="mm")
