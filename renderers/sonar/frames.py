"""The replay of a Sonar game: one picture per turn with every sub revealed.

Each frame is a :class:`~bot.games.sonar.views.RevealedView` (the host folds the stored
turns and reveals each state of a finished game): every captain's subs in their colour,
sailing with a propeller at the stern, the hits they took, the sunk ones dark, and that
turn's charges with their marks. :mod:`renderers.replay` adds the title and final cards
and makes the video, within what X and Discord accept.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from PIL import Image

from bot.games.sonar.board import Cell
from bot.games.sonar.state import Phase, Status
from bot.games.sonar.views import FleetView, PublicView, RevealedView
from renderers import end_card, marks, replay, style
from renderers.pictures import Replay
from renderers.replay import HEADER, MAX_HEIGHT, MAX_WIDTH, PAD
from renderers.sonar import board
from renderers.sonar.board import Hull
from renderers.sonar.hexgrid import HexLayout
from renderers.sonar.picture import BAND_GAP, board_cell, names_of

NAMES_SIZE = 20
NAMES_ROW = NAMES_SIZE + 22
MIN_FRAME_WIDTH = 640


def frame_layout(rows: int, cols: int) -> tuple[HexLayout, tuple[int, int]]:
    """Where the board goes in a replay picture, and the picture's size (even, in limits)."""
    cell = board.cell_for(
        rows,
        cols,
        max_width=MAX_WIDTH - 2 * PAD,
        max_height=MAX_HEIGHT - HEADER - NAMES_ROW - PAD,
    )
    board_w, board_h = board.size_of(rows, cols, cell)
    width = min(MAX_WIDTH, max(MIN_FRAME_WIDTH, board_w + 2 * PAD))
    height = min(MAX_HEIGHT, HEADER + board_h + NAMES_ROW + PAD)
    width -= width % 2
    height -= height % 2
    layout = board.plan(rows, cols, cell, left=(width - board_w) // 2, top=HEADER)
    return layout, (width, height)


@functools.lru_cache(maxsize=2)
def _backdrop(
    layout: HexLayout, size: tuple[int, int], names: tuple[tuple[str, str], ...]
) -> Image.Image:
    """What every board picture of a replay shares: the header panel, the water, and the
    captains in their colours below the board (shared between calls; callers copy it)."""
    image = replay.blank_frame(size)
    board.draw_water(image, layout)
    colours = board.captain_colours([player for player, _ in names])
    y = size[1] - NAMES_ROW + 6
    x = float(PAD)
    dot = NAMES_SIZE * 0.32
    for player, name in names:
        label = style.fit_text(name, NAMES_SIZE, 200)
        if x + 2 * dot + 6 + style.text_width(label, NAMES_SIZE) > size[0] - PAD:
            break
        marks.disc(image, (x + dot, y + NAMES_SIZE / 2 + 2), dot, colours[player])
        x += 2 * dot + 6
        style.draw_text(
            image, (x, y), label, size=NAMES_SIZE, fill=style.TEXT_DIM, background=style.BACKGROUND
        )
        x += style.text_width(label, NAMES_SIZE) + 22
    return image


def fleet_hulls(fleet: FleetView, colour: style.RGB) -> list[Hull]:
    """A captain's subs in their colour (sunk ones dark, edged in it)."""
    hulls = []
    for sub in fleet.subs:
        if sub.sunk:
            hulls.append(Hull(sub.cells, sub.facing, style.WRECK, colour, sunk=True, number=sub.id))
        else:
            edge = style.darker(colour, 0.45)
            hulls.append(Hull(sub.cells, sub.facing, colour, edge, hits=sub.hits, number=sub.id))
    return hulls


def afloat_text(view: RevealedView) -> str:
    afloat = sum(1 for fleet in view.fleets for sub in fleet.subs if not sub.sunk)
    return f"{afloat} {'sub' if afloat == 1 else 'subs'} afloat"


def board_picture(
    view: RevealedView,
    label: str,
    *,
    title: str,
    layout: HexLayout,
    size: tuple[int, int],
) -> Image.Image:
    """One moment of the game with everything revealed."""
    names = tuple((c.id, c.name) for c in view.public.captains)
    image = _backdrop(layout, size, names).copy()
    replay.draw_header(image, title, label, afloat_text(view))
    draw_revealed(image, layout, view)
    return image


def draw_revealed(image: Image.Image, layout: HexLayout, view: RevealedView) -> None:
    """Every sub where it is, in its captain's colour, with its hits, and the turn's charges."""
    left = {c.id for c in view.public.captains if c.status is Status.LEFT}
    afloat_hits: set[Cell] = set()
    colours = board.captain_colours([c.id for c in view.public.captains])
    for fleet in view.fleets:
        for hull in fleet_hulls(fleet, colours.get(fleet.owner, style.LABEL)):
            if fleet.owner in left and not hull.sunk:
                continue  # a captain who left took their subs off the board (rules §4)
            board.draw_hull(image, layout, hull)
            afloat_hits |= set(hull.hits) if not hull.sunk else set()
    shots = view.public.board.shots
    board.draw_shots(image, layout, shots)
    for shot in shots:
        if shot.cell in afloat_hits:
            board.draw_hit_mark(image, layout, shot.cell)


def card_board(view: RevealedView) -> Image.Image:
    """The ocean as the game ended, for the end card: cut in the public map's bands (each
    at most 16 hexagons wide), so its labels read on a phone as the map's do."""
    rows, cols = view.public.rows, view.public.cols
    cell = board_cell(rows, cols)
    widest = max(stop - first for first, stop in board.band_places(cols))
    board_w = board.size_of(rows, widest, cell)[0]
    top = 6
    bands, height = board.plan_bands(
        rows, cols, cell, left=(end_card.WIDTH - board_w) // 2, top=top, gap=BAND_GAP
    )
    image = Image.new("RGB", (end_card.WIDTH, top + height + PAD), style.BACKGROUND)
    for band in bands:
        board.draw_band_water(image, band)
    board.paint(image, bands, lambda target, layout: draw_revealed(target, layout, view))
    return image


def standings(frames: Sequence[tuple[RevealedView, str]]) -> list[end_card.Placing]:
    """The top of the standings as the frames show it: the winner, then the last out."""
    last = frames[-1][0].public
    players = [(c.id, c.name) for c in last.captains]
    colours = board.captain_colours([player for player, _ in players])
    return end_card.survival_placings(
        players,
        (
            (
                view.public.turn,
                frozenset(c.id for c in view.public.captains if c.status is Status.ALIVE),
            )
            for view, _ in frames
        ),
        last.winners,
        moment="turn",
        colours=colours,
    )


def result_text(public: PublicView) -> str:
    names = names_of(public)
    winners = [names.get(w, w) for w in public.winners]
    if public.phase is not Phase.FINISHED:
        return "Game in progress"
    if public.draw:
        return "A draw" if len(winners) < 2 else "A draw: " + " and ".join(winners)
    return f"{winners[0]} wins" if winners else "No winner"


def render_replay(
    frames: Sequence[tuple[RevealedView, str]],
    *,
    title: str,
    seconds_per_turn: float = 1.0,
    gif: bool = True,
) -> Replay:
    """The whole game as MP4 (and GIF). Same frames in, same bytes out (same installation)."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    first = frames[0][0].public
    layout, size = frame_layout(first.rows, first.cols)
    last = frames[-1][0].public
    turns = last.turn

    def pictures() -> Iterator[Image.Image]:
        for view, label in frames:
            yield board_picture(view, label, title=title, layout=layout, size=size)

    opening = replay.title_card(
        title,
        size,
        facts=f"{first.rows} x {first.cols} hex ocean, {len(first.captains)} captains",
        names=[c.name for c in first.captains],
    )
    detail = f"after {turns} {'turn' if turns == 1 else 'turns'}"
    card = end_card.render_end_card(
        card_board(frames[-1][0]),
        title=title,
        result=result_text(last),
        detail=f"{detail}, {len(last.captains)} captains",
        standings=standings(frames),
    )
    return replay.encode_replay(
        opening,
        pictures(),
        count=len(frames),
        closing=lambda picture: replay.final_card(picture, result_text(last), detail),
        seconds_per_frame=seconds_per_turn,
        gif=gif,
        card=card,
    )
