"""Sonar's still pictures (``shared/rules/sonar.md`` §5): the public board after each turn,
and a captain's own board with the board of the turn before below it, as the original
showed it.

A picture is a header (the game's title and turn, who moves and with how many charges or
how the game ended, the last turn in a line, the deadline, the captains in their colours
with the subs each has left), one or two boards and a legend. A board wider than
:data:`~renderers.sonar.board.BAND_COLUMNS` hexagons is cut into bands stacked one under
the other, so the picture stays :data:`BANDED_WIDTH` wide and reads on a phone. The public picture is drawn
from a :class:`~bot.games.sonar.views.PublicView`, which holds no live sub: it cannot show
one. The private picture adds the viewer's own subs from their
:class:`~bot.games.sonar.views.PrivateView`, and nothing of anyone else's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.sonar.board import Cell, Facing
from bot.games.sonar.state import Phase, ShotResult, Status
from bot.games.sonar.views import BoardView, OwnSubView, PrivateView, PublicView
from renderers import header, marks, style
from renderers.encode import png_bytes
from renderers.header import LINE_HEIGHT, LINE_SIZE, TITLE_SIZE
from renderers.legend import LegendSpacing, draw_legend, legend_rows
from renderers.sonar import board, hexgrid
from renderers.sonar.board import Hull
from renderers.sonar.hexgrid import HexLayout

MIN_WIDTH = 760
BANDED_WIDTH = MIN_WIDTH
"""Every board, in bands of at most :data:`renderers.sonar.board.BAND_COLUMNS` hexagons
(a wide one cut into bands stacked one under the other), is drawn this wide, as wide as
the other games' pictures: shown 390 pixels wide, on a phone, its labels and distances
still read."""
BAND_GAP = 10
PAD = 20
CAPTION_SIZE = 22
LEGEND_SIZE = 18
LEGEND_ROW = LEGEND_SIZE + 16
LINES_TOP = PAD + TITLE_SIZE + 14
"""Where the header's lines start: 2 pixels lower than in the other games' pictures
(:data:`renderers.header.LINES_TOP`), as Sonar's pictures have always been laid out."""

OWN_SUB = style.OWN_SHIP
OWN_SUB_EDGE = style.OWN_SHIP_EDGE


# --- words ---------------------------------------------------------------------------------


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def status_text(view: PublicView) -> str:
    """The short fact at the top right: ``Setup``, ``Turn 5``, ``Finished``."""
    if view.phase is Phase.SETUP:
        return "Setup"
    if view.phase is Phase.FINISHED:
        return "Finished"
    # Named for the turn it shows, as the web page's turn it illustrates is: the board after
    # turn 4 is not "Turn 5"'s (the line below says who moves now).
    return f"After turn {view.turn - 1}" if view.turn > 1 else f"Turn {view.turn}"


def names_of(view: PublicView) -> dict[str, str]:
    return {c.id: c.name for c in view.captains}


def colours_of(view: PublicView) -> dict[str, style.RGB]:
    """Each captain's colour: their dot in the header, the edge of their sunk subs."""
    return board.captain_colours([c.id for c in view.captains])


def result_text(view: PublicView) -> str:
    """How the game ended, or who is to move now."""
    names = names_of(view)
    if view.phase is Phase.SETUP:
        return "Setup: captains join; every fleet is placed when the hunt begins"
    if view.phase is Phase.FINISHED:
        winners = [names.get(w, w) for w in view.winners]
        if not view.draw:
            return f"{winners[0]} wins after turn {view.turn}" if winners else "No winner"
        if len(winners) > 1:
            return f"A draw between {', '.join(winners)} after turn {view.turn}"
        return f"A draw after turn {view.turn}: no captain has a sub afloat"
    mover = names.get(view.to_move or "", "?")
    return f"{mover} to move: up to {plural(view.shots_allowed, 'charge')}"


def turn_text(view: BoardView, names: dict[str, str]) -> str:
    """What happened in the turn a board shows, in a line."""
    if view.after == 0 or view.player is None:
        return "The fleets at the start: every sub sails one step at the start of each turn"
    who = names.get(view.player, view.player)
    head = f"Turn {view.after} ({who})"
    if not view.shots:
        return f"{head}: time ran out, no charges" if view.timed_out else f"{head}: no charges"
    hits = sum(1 for s in view.shots if s.result is not ShotResult.MISS)
    sunk = sum(1 for s in view.shots if s.result is ShotResult.SUNK)
    line = f"{head}: {plural(len(view.shots), 'charge')}, {plural(hits, 'hit')}"
    if sunk:
        line += f", {sunk} sunk"
    if view.timed_out:
        line += " (time ran out: fired at random)"
    elif view.at_random:
        line += f" (at random: never on {who}'s own subs)"
    return line


def captains_items(view: PublicView) -> list[tuple[str, str]]:
    """Each captain (id, words): subs left, or out, or left."""
    items = []
    for captain in view.captains:
        if captain.status is Status.LEFT:
            words = f"{captain.name} (left)"
        elif captain.status is Status.ELIMINATED:
            words = f"{captain.name} (out)"
        elif view.phase is Phase.SETUP:
            words = captain.name
        else:
            words = f"{captain.name}: {plural(captain.subs_left, 'sub')}"
        items.append((captain.id, words))
    return items


# --- the legend ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LegendItem:
    kind: str  # "miss", "hit", "sunk_shot", "hit_afloat", "sunk", "own"
    label: str


PUBLIC_LEGEND = (
    LegendItem("miss", "miss: distance to the nearest sub"),
    LegendItem("hit", "hit"),
    LegendItem("sunk_shot", "killer shot"),
    LegendItem("hit_afloat", "hit on a sub afloat"),
    LegendItem("sunk", "sunk sub"),
)
PRIVATE_LEGEND = (*PUBLIC_LEGEND, LegendItem("own", "your sub, propeller at the stern"))

_ICON = 30.0
LEGEND_SPACING = LegendSpacing(
    text_size=LEGEND_SIZE,
    icon_gap=8,
    entry_gap=26,
    row_height=LEGEND_ROW,
    middle=LEGEND_SIZE / 2 + 3,
)
_ICON_LAYOUT = HexLayout(rows=1, cols=1, cell=_ICON, x0=0.0, y0=0.0, label_size=12)
"""Where a sub of the legend is drawn from: a cell of :data:`_ICON`, as on the board."""


def _icon_width(item: LegendItem) -> float:
    return _ICON * (2.0 if item.kind in ("sunk", "own") else 1.0)


def _draw_legend_icon(image: Image.Image, item: LegendItem, x: float, cy: float) -> None:
    """An entry's mark, drawn as on the board at a cell of :data:`_ICON`."""
    centre = (x + _ICON / 2, cy)
    if item.kind == "miss":
        board.draw_distance(image, centre, _ICON, 2)
    elif item.kind in ("hit", "sunk_shot"):
        if item.kind == "sunk_shot":
            marks.ring(image, centre, _ICON * 0.5, 2.5, style.MISS)
        marks.burst(image, centre, _ICON * 0.46, style.HIT, points=10, inner=0.58)
        marks.burst(image, centre, _ICON * 0.32, style.HIT_LIGHT, points=10, inner=0.62)
    elif item.kind == "hit_afloat":
        _cross(image, centre, _ICON * 1.2)
    else:
        colour = (style.WRECK, style.LABEL) if item.kind == "sunk" else (OWN_SUB, OWN_SUB_EDGE)
        _legend_hull(image, _ICON_LAYOUT, (x, cy), colour, propeller=item.kind == "own")


def _cross(image: Image.Image, centre: tuple[float, float], cell: float) -> None:
    x, y = centre
    box = (x - cell * 0.24, y - cell * 0.24, x + cell * 0.24, y + cell * 0.24)
    marks.cross(image, box, style.TEXT, cell * 0.16)
    marks.cross(image, box, style.HIT, cell * 0.09)


def _legend_hull(
    image: Image.Image,
    layout: HexLayout,
    left: tuple[float, float],
    colours: tuple[style.RGB, style.RGB],
    *,
    propeller: bool,
) -> None:
    """A two-segment sub sailing right, drawn at ``left`` (its stern end)."""
    x, y = left
    cell = _ICON * 0.8
    # One row of cells whose first two centres sit at x + 0.55·cell and x + 1.55·cell, on y.
    shifted = HexLayout(
        rows=1, cols=3, cell=cell, x0=x - cell * 0.45, y0=y - cell / 3**0.5, label_size=12
    )
    fill, edge = colours
    cells = (Cell(0, 1), Cell(0, 0))
    if propeller:
        board.draw_hull(image, shifted, Hull(cells, Facing.RIGHT, fill, edge))
    else:
        board.draw_hull(image, shifted, Hull(cells, Facing.RIGHT, fill, edge, sunk=True))


# --- the picture ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Where everything goes: the picture's size, the header's height, each board's layout
    with the caption above it (if any), and the legend's rows and top."""

    size: tuple[int, int]
    header: int
    boards: tuple[tuple[tuple[board.Band, ...], str], ...]
    legend: tuple[tuple[LegendItem, ...], ...]
    legend_top: int


def header_lines(
    view: PublicView,
    *,
    deadline: datetime | None,
    now: datetime | None,
    extra: Sequence[str] = (),
) -> list[tuple[str, style.RGB]]:
    lines = [(result_text(view), style.TEXT)]
    if view.phase is not Phase.SETUP:
        lines.append((turn_text(view.board, names_of(view)), style.TEXT_DIM))
    if view.phase is not Phase.FINISHED:
        when = style.deadline_text(deadline, now)
        if when:
            lines.append((when, style.TEXT))
    lines += [(text, style.TEXT) for text in extra]
    return lines


def board_cell(rows: int, cols: int) -> float:
    """The hexagons' size in a board's picture: the largest with which its widest band
    fits :data:`BANDED_WIDTH`."""
    widest = max(stop - first for first, stop in board.band_places(cols))
    return board.cell_for(rows, widest, max_width=BANDED_WIDTH - 2 * PAD, max_height=math.inf)


def plan(
    view: PublicView,
    lines: int,
    captions: Sequence[str],
    legend: Sequence[LegendItem],
) -> Plan:
    """The geometry of a picture with ``lines`` header lines and one board per caption
    (``""``: no caption)."""
    rows, cols = view.rows, view.cols
    widest = max(stop - first for first, stop in board.band_places(cols))
    cell = board_cell(rows, cols)
    board_w = board.size_of(rows, widest, cell)[0]
    width = max(MIN_WIDTH, board_w + 2 * PAD)
    width += width % 2
    # the lines, then the captains' row under them
    header_h = LINES_TOP + LINE_HEIGHT * (lines + 1) + 8
    y = header_h + 4
    layouts = []
    for caption in captions:
        if caption:
            y += CAPTION_SIZE + 8
        left = (width - board_w) // 2
        bands, height = board.plan_bands(rows, cols, cell, left=left, top=y, gap=BAND_GAP)
        layouts.append((bands, caption))
        y += height + 6
    rows_of_legend = legend_rows(
        legend, width=width - 2 * PAD, icon_width=_icon_width, spacing=LEGEND_SPACING
    )
    legend_top = y + 6
    height = legend_top + len(rows_of_legend) * LEGEND_ROW + PAD
    height += height % 2
    return Plan((width, height), header_h, tuple(layouts), rows_of_legend, legend_top)


@functools.lru_cache(maxsize=8)
def _backdrop(layout: Plan) -> Image.Image:
    """What depends only on the geometry: background, header panel, water, labels, legend,
    captions aside (shared between calls; callers copy it). None of it is drawn over by
    the header's text, so drawing it first gives the pixels of drawing in reading order."""
    image = Image.new("RGB", layout.size, style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, layout.size[0], layout.header - 8), fill=style.PANEL)
    for bands, _ in layout.boards:
        for band in bands:
            board.draw_band_water(image, band)
    draw_legend(
        image,
        layout.legend,
        left=PAD,
        top=float(layout.legend_top),
        icon_width=_icon_width,
        draw_icon=_draw_legend_icon,
        spacing=LEGEND_SPACING,
    )
    return image


def draw_header(
    image: Image.Image,
    view: PublicView,
    *,
    title: str,
    lines: Sequence[tuple[str, style.RGB]],
) -> None:
    y = header.draw_header(
        image, title=title, status=status_text(view), lines=lines, lines_top=LINES_TOP
    )
    draw_captains(image, view, y=y, width=image.width - 2 * PAD)


def draw_captains(image: Image.Image, view: PublicView, *, y: float, width: float) -> None:
    """The captains in join order, each after a dot of their colour (the colour their sunk
    subs are edged with); those that do not fit are counted."""
    items = captains_items(view)
    colours = colours_of(view)
    gap, dot = 22, LINE_SIZE * 0.32
    shown = len(items)
    while shown > 0:
        used = sum(
            dot * 2 + 6 + style.text_width(words, LINE_SIZE) + gap for _, words in items[:shown]
        )
        rest = len(items) - shown
        if rest:
            used += style.text_width(f"+{rest} more", LINE_SIZE)
        if used <= width:
            break
        shown -= 1
    x = float(PAD)
    cy = y + LINE_SIZE / 2 + 2
    for player, words in items[:shown]:
        marks.disc(image, (x + dot, cy), dot, colours[player])
        x += dot * 2 + 6
        fitted = style.fit_text(words, LINE_SIZE, int(width))
        style.draw_text(
            image, (x, y), fitted, size=LINE_SIZE, fill=style.TEXT_DIM, background=style.PANEL
        )
        x += style.text_width(fitted, LINE_SIZE) + gap
    if shown < len(items):
        more = f"+{len(items) - shown} more"
        style.draw_text(
            image, (x, y), more, size=LINE_SIZE, fill=style.TEXT_DIM, background=style.PANEL
        )


def draw_caption(image: Image.Image, layout: HexLayout, caption: str) -> None:
    if not caption:
        return
    top = layout.y0 - hexgrid.margins(layout.rows, layout.label_size)[1] - CAPTION_SIZE - 6
    style.draw_text(
        image,
        (PAD, top),
        style.fit_text(caption, CAPTION_SIZE, image.width - 2 * PAD),
        size=CAPTION_SIZE,
        fill=style.HIT_LIGHT,
        background=style.BACKGROUND,
    )


def own_hulls(subs: Sequence[OwnSubView]) -> list[Hull]:
    """The viewer's subs: afloat in the own-sub colour with their hits; sunk, darker."""
    return [
        Hull(
            sub.cells,
            sub.facing,
            style.OWN_SHIP_SUNK if sub.sunk else OWN_SUB,
            OWN_SUB_EDGE,
            hits=sub.hits,
            sunk=sub.sunk,
            number=sub.id,
        )
        for sub in subs
    ]


def compose_public(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> Image.Image:
    """The public picture (RGB): everyone's facts after the last turn, and nothing else."""
    lines = header_lines(view, deadline=deadline, now=now)
    layout = plan(view, len(lines), [""], PUBLIC_LEGEND)
    image = _backdrop(layout).copy()
    draw_header(image, view, title=title, lines=lines)
    ((bands, _),) = layout.boards
    colours = colours_of(view)

    def draw(target: Image.Image, hex_layout: HexLayout) -> None:
        board.draw_board_view(target, hex_layout, view.board, colours)

    board.paint(image, bands, draw)
    return image


def compose_private(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> Image.Image:
    """A captain's picture (RGB): the public facts with their own subs, now and (below) a
    turn before."""
    public = view.public
    afloat = sum(1 for sub in view.subs if not sub.sunk)
    mine = (
        f"{view.viewer_name}'s board: {afloat} of {plural(len(view.subs), 'sub')} afloat"
        if view.subs
        else f"{view.viewer_name}'s board: no fleet yet"
    )
    lines = header_lines(public, deadline=deadline, now=now, extra=[mine])
    boards: list[tuple[BoardView, Sequence[OwnSubView], str]] = []
    if public.previous is not None and view.previous_subs is not None:
        boards.append((public.board, view.subs, f"Now, after turn {public.board.after}"))
        before = public.previous.after
        caption = (
            "The turn before, as the fleets began"
            if before == 0
            else f"The turn before, after turn {before}"
        )
        boards.append((public.previous, view.previous_subs, caption))
    else:
        boards.append((public.board, view.subs, ""))
    layout = plan(public, len(lines), [caption for _, _, caption in boards], PRIVATE_LEGEND)
    image = _backdrop(layout).copy()
    draw_header(image, public, title=title, lines=lines)
    for (bands, caption), (shown, subs, _) in zip(layout.boards, boards, strict=True):
        draw_caption(image, bands[0].layout, caption)
        board.paint(image, bands, functools.partial(_draw_own_board, public, shown, subs))
    return image


def _draw_own_board(
    public: PublicView,
    shown: BoardView,
    subs: Sequence[OwnSubView],
    image: Image.Image,
    hex_layout: HexLayout,
) -> None:
    """One board of a captain's picture: the public facts with their own subs."""
    for sunk in shown.sunk:
        colour = colours_of(public).get(sunk.owner, style.LABEL)
        board.draw_sunk(image, hex_layout, sunk.cells, sunk.facing, colour)
    for hull in own_hulls(subs):
        if not hull.sunk:
            board.draw_hull(image, hex_layout, hull)
    own_cells = {cell for sub in subs for cell in sub.cells}
    for cell in shown.hits:
        if cell not in own_cells and cell not in {s.cell for s in shown.shots}:
            board.draw_hit_mark(image, hex_layout, cell)
    board.draw_shots(image, hex_layout, shown.shots)
    for shot in shown.shots:
        if shot.result is ShotResult.HIT and shot.cell in shown.hits:
            board.draw_hit_mark(image, hex_layout, shot.cell)


def render_public(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """The public picture as PNG bytes. Same arguments, same bytes. Avatars are not drawn: a
    captain is their colour."""
    return png_bytes(compose_public(view, title=title, deadline=deadline, now=now))


def render_private(
    view: PrivateView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """A captain's picture as PNG bytes. Same arguments, same bytes."""
    return png_bytes(compose_private(view, title=title, deadline=deadline, now=now))
