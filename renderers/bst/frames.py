"""The pictures of a bst replay: one per moment of the game, with everything revealed.

One :class:`ReplayFrame` per moment (the board after setup, then after each resolved turn,
whose ``public.shots`` are that turn's shots). Every captain's ships are shown in the
captain's colour (names on small boards), with each turn's shots and hits and the ships
going down; :mod:`renderers.replay` adds the title and final cards and makes the video.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.games.bst.cells import Cell
from bot.games.bst.views import FleetView, Phase, PublicView, RevealedView
from renderers import end_card, grid, marks, replay, style
from renderers.bst import board
from renderers.bst.public_map import group_shots
from renderers.grid import GridLayout
from renderers.pictures import Replay
from renderers.replay import HEADER, MAX_HEIGHT, MAX_WIDTH, PAD


@dataclass(frozen=True)
class ReplayFrame:
    board: RevealedView
    label: str


def result_text(public: PublicView) -> str:
    names = {c.id: c.name for c in public.captains}
    if public.draw:
        return "A draw"
    winners = [names.get(w, w) for w in public.winners]
    if len(winners) == 1:
        return f"{winners[0]} wins"
    if winners:
        return "Winners: " + ", ".join(winners)
    if public.phase is Phase.FINISHED:
        return "No winner"
    return "Game in progress"


def frame_layout(rows: int, cols: int) -> tuple[GridLayout, tuple[int, int]]:
    """Where the board goes in a replay picture, and the picture's size (even, in limits)."""
    left, top = board.margins(rows, cols, 18)
    plan = grid.plan_board(
        rows,
        cols,
        labels=board.LABELS,
        x0=0,
        y0=0,
        max_board_width=MAX_WIDTH - 2 * left,
        max_board_height=MAX_HEIGHT - HEADER - top - PAD,
        min_cell=16,
        max_cell=48,
        target=880,
    )
    left, top = board.margins(rows, cols, plan.label_size)
    width = min(MAX_WIDTH, max(640, 2 * left + plan.width))
    height = min(MAX_HEIGHT, HEADER + top + plan.height + PAD)
    width -= width % 2
    height -= height % 2
    layout = dataclasses.replace(plan, x0=(width - plan.width - left) // 2 + left, y0=HEADER + top)
    return layout, (width, height)


@functools.lru_cache(maxsize=2)
def _backdrop(layout: GridLayout, size: tuple[int, int]) -> Image.Image:
    """What every board picture of a replay shares: background, header panel, water, grid and
    labels (shared between calls; callers copy it). The header text drawn later does not
    overlap the grid or its labels, so the pixels are those of drawing in reading order."""
    image = replay.blank_frame(size)
    grid.draw_grid(image, layout)
    return image


def _draw_fleet(
    image: Image.Image, layout: GridLayout, fleet: FleetView, new_wrecks: set[tuple[Cell, ...]]
) -> None:
    colour = style.owner_colour(fleet.owner)
    for ship in fleet.ships:
        cells = tuple(sorted(ship.cells))
        if ship.destroyed:
            if cells in new_wrecks and layout.detailed:
                marks.capsule(
                    image, marks.inset(layout.span(cells), layout.cell * 0.02), style.NEW_WRECK
                )
            elif cells in new_wrecks:
                grid.hull(image, layout, cells, style.NEW_WRECK, style.NEW_WRECK)
                continue
            grid.hull(image, layout, cells, style.WRECK, colour)
        else:
            grid.hull(image, layout, cells, colour, style.darker(colour, 0.5))
    for ship in fleet.ships:
        if ship.destroyed:
            continue  # a wreck is drawn dark; crosses on every segment would only clutter it
        for cell in sorted(ship.damaged):
            if not layout.on_board(cell):
                continue
            if layout.detailed:
                box = marks.inset(layout.box(cell), layout.cell * 0.27)
                marks.cross(image, box, style.TEXT, layout.cell * 0.15)
                marks.cross(image, box, style.HIT, layout.cell * 0.09)
            else:
                grid.cell_marker(image, layout, cell, style.HIT)


def _draw_names(image: Image.Image, layout: GridLayout, fleets: Sequence[FleetView]) -> None:
    if not layout.detailed or layout.cell < 24:
        return
    for fleet in fleets:
        for ship in fleet.ships:
            if len(ship.cells) > 1:
                grid.hull_label(
                    image,
                    layout,
                    tuple(sorted(ship.cells)),
                    fleet.owner_name,
                    colour=style.TEXT,
                    background=style.WRECK_EDGE,
                )


def _draw_shots(image: Image.Image, layout: GridLayout, public: PublicView) -> None:
    groups = group_shots(public.shots)
    if not layout.detailed:
        for cell, group in groups:
            colour = style.HIT if any(s.hit for s in group) else style.MISS_MARKER
            grid.cell_marker(image, layout, cell, colour)
        return
    c = layout.cell
    for cell, group in groups:
        if not layout.on_board(cell):
            continue
        x0, y0, _, _ = layout.box(cell)
        centre = (x0 + c / 2, y0 + c / 2)
        if any(s.hit for s in group):
            marks.burst(image, centre, c * 0.5, style.HIT, points=10, inner=0.55)
            marks.burst(image, centre, c * 0.36, style.HIT_LIGHT, points=10, inner=0.6)
        else:
            marks.ring(image, centre, c * 0.34, max(2.0, c * 0.08), style.MISS)
        # the shooters' colours as small dots in the middle
        dots = group[:4]
        radius = c * (0.14 if len(dots) == 1 else 0.1)
        for i, shot in enumerate(dots):
            offset = (i - (len(dots) - 1) / 2) * radius * 2.1
            spot = (centre[0] + offset, centre[1])
            marks.disc(image, spot, radius + 1.5, style.BACKGROUND)
            marks.disc(image, spot, radius, style.owner_colour(shot.shooter))


def board_picture(
    frame: ReplayFrame,
    *,
    title: str,
    layout: GridLayout,
    size: tuple[int, int],
    previous: RevealedView | None,
) -> Image.Image:
    """One moment of the game with everything revealed (RGB: it is opaque, and drawing
    in RGB gives the pixels drawing in RGBA and converting would)."""
    image = _backdrop(layout, size).copy()
    public = frame.board.public
    alive = len(public.alive)
    replay.draw_header(image, title, frame.label, f"{alive} of {len(public.captains)} afloat")
    before = (
        {tuple(sorted(w.cells)) for w in previous.public.wrecks} if previous is not None else set()
    )
    new_wrecks = {tuple(sorted(w.cells)) for w in public.wrecks} - before
    for fleet in sorted(frame.board.fleets, key=lambda f: f.owner):
        _draw_fleet(image, layout, fleet, new_wrecks)
    _draw_names(image, layout, sorted(frame.board.fleets, key=lambda f: f.owner))
    _draw_shots(image, layout, public)
    return image


def title_card(title: str, first: RevealedView, size: tuple[int, int]) -> Image.Image:
    public = first.public
    return replay.title_card(
        title,
        size,
        facts=f"{public.rows} x {public.cols} board, {len(public.captains)} captains",
        names=[c.name for c in public.captains],
    )


CARD_LABELS = 18
"""The row and column names on the end card at most: 9 px on a phone (smaller only where
a board of more than 20 columns leaves its cells too narrow)."""


def card_layout(rows: int, cols: int) -> tuple[GridLayout, tuple[int, int]]:
    """Where the board goes on the end card (as wide as the card allows, the names big
    enough for a phone), and the size of the picture holding it."""
    width = end_card.WIDTH
    left, top = board.margins(rows, cols, CARD_LABELS)
    plan = grid.plan_board(
        rows,
        cols,
        labels=board.LABELS,
        x0=0,
        y0=0,
        max_board_width=width - 2 * left,
        max_board_height=4 * width,
        min_cell=8,
        max_cell=64,
        target=(width - 2 * left) * max(rows, cols) // cols,
    )
    # as big as a cell holds them (9 px on a phone down to 20 columns); a compact board
    # (too many cells for names) keeps the labels its steps were chosen for
    labels = max(12, min(CARD_LABELS, int(plan.cell * 0.6))) if plan.detailed else plan.label_size
    layout = dataclasses.replace(
        plan, label_size=labels, x0=(width - plan.width - left) // 2 + left, y0=top
    )
    return layout, (width, top + plan.height + PAD)


def card_board(last: RevealedView, previous: RevealedView | None) -> Image.Image:
    """The board as the game ended, for the end card: every ship revealed, the last turn's
    shots, and the owners' names on their ships over everything (a hit's burst never hides
    one), in letters a phone can read."""
    public = last.public
    layout, size = card_layout(public.rows, public.cols)
    image = Image.new("RGB", size, style.BACKGROUND)
    grid.draw_grid(image, layout)
    before = (
        {tuple(sorted(w.cells)) for w in previous.public.wrecks} if previous is not None else set()
    )
    new_wrecks = {tuple(sorted(w.cells)) for w in public.wrecks} - before
    fleets = sorted(last.fleets, key=lambda f: f.owner)
    for fleet in fleets:
        _draw_fleet(image, layout, fleet, new_wrecks)
    _draw_shots(image, layout, public)
    if layout.detailed and layout.cell >= 24:  # smaller, a name would be cut to nothing
        names = max(14, min(22, round(layout.cell * 0.5)))
        for fleet in fleets:
            for ship in fleet.ships:
                grid.hull_label(
                    image,
                    layout,
                    tuple(sorted(ship.cells)),
                    fleet.owner_name,
                    colour=style.TEXT,
                    background=style.WRECK_EDGE,
                    size=names,
                )
    return image


def standings(frames: Sequence[ReplayFrame]) -> list[end_card.Placing]:
    """The top of the standings as the frames show it: the winner, then the last out."""
    last = frames[-1].board
    sailed = {fleet.owner for fleet in last.fleets if fleet.ships}
    players = [(c.id, c.name) for c in last.public.captains if c.id in sailed]
    return end_card.survival_placings(
        players,
        (
            (number, frozenset(c.id for c in frame.board.public.alive))
            for number, frame in enumerate(frames)
        ),
        last.public.winners,
        moment="turn",
        colours={player: style.owner_colour(player) for player, _ in players},
    )


def end_picture(frames: Sequence[ReplayFrame], *, title: str) -> Image.Image:
    """The end post's card (:mod:`renderers.end_card`): who won, the top of the standings,
    and the board with everything revealed."""
    last = frames[-1].board
    previous = frames[-2].board if len(frames) > 1 else None
    turns = max(0, len(frames) - 1)
    captains = len(standings(frames))
    return end_card.render_end_card(
        card_board(last, previous),
        title=title,
        result=result_text(last.public),
        detail=f"after {turns} {'turn' if turns == 1 else 'turns'}, {captains} captains",
        standings=standings(frames),
    )


def final_card(last: Image.Image, public: PublicView, turns: int) -> Image.Image:
    noun = "turn" if turns == 1 else "turns"
    return replay.final_card(last, result_text(public), f"after {turns} {noun}")


def render_replay(
    frames: Sequence[ReplayFrame],
    *,
    title: str,
    seconds_per_turn: float = 1.0,
    gif: bool = True,
) -> Replay:
    """The whole game as MP4 and GIF. Same frames in, same bytes out (same installation).

    With ``gif=False`` only the MP4 is made (the GIF takes about as long again) and
    :attr:`Replay.gif` is ``b""``."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    first = frames[0].board.public
    layout, size = frame_layout(first.rows, first.cols)
    last = frames[-1].board.public
    turns = max(0, len(frames) - 1)

    def pictures() -> Iterator[Image.Image]:
        previous: RevealedView | None = None
        for frame in frames:
            yield board_picture(frame, title=title, layout=layout, size=size, previous=previous)
            previous = frame.board

    return replay.encode_replay(
        title_card(title, frames[0].board, size),
        pictures(),
        count=len(frames),
        closing=lambda picture: final_card(picture, last, turns),
        seconds_per_frame=seconds_per_turn,
        gif=gif,
        card=end_picture(frames, title=title),
    )
