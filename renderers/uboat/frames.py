"""The replay of a U-Boat Shootout game: one picture per stored moment, every boat revealed.

A frame is drawn from a :class:`~bot.games.uboat.views.RevealedView` (the game's reveal,
for finished games): the sea with its islands in their owners' colours, every U-boat at its
cell in its colour with its health (a sunk one as a wreck), and — on the frame of a round's
end — that round's blasts and struck tiles, with the round's report beside the sea. A frame
whose round is the previous frame's is an evade window closing (its boats moved unseen);
it is labelled so and shows no blasts again. :mod:`renderers.replay` adds the title and
final cards and encodes the video.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.games.standings import places, plural
from bot.games.uboat.cells import Cell
from bot.games.uboat.state import Phase
from bot.games.uboat.views import IslandView, PublicView, RevealedBoat, RevealedView
from renderers import end_card, grid, replay, style
from renderers.grid import GridLayout
from renderers.pictures import Replay
from renderers.replay import HEADER, MAX_HEIGHT, MAX_WIDTH, PAD
from renderers.uboat import maps, report, sea
from renderers.uboat.report import Row, Words

PANEL = 440
MAX_CELL = 80
MIN_WIDTH = 960


@dataclass(frozen=True)
class Frame:
    board: RevealedView
    label: str
    fresh: bool
    """The round's end: its blasts and report are new in this frame."""


def frame_layout(size: int) -> tuple[GridLayout, tuple[int, int]]:
    """Where the sea goes in a replay picture (the report panel to its right), and the
    picture's size (even, within the video's limits)."""
    left, top = sea.margins(size, 18)
    room_w = MAX_WIDTH - 2 * PAD - left - PANEL
    room_h = MAX_HEIGHT - HEADER - top - PAD
    cell = max(12, min(MAX_CELL, room_w // size, room_h // size))
    plan = grid.plan_square_board(size, cell, labels=sea.LABELS)
    left, top = sea.margins(size, plan.label_size)
    width = min(MAX_WIDTH, max(MIN_WIDTH, PAD + left + plan.width + 2 * PAD + PANEL))
    height = min(MAX_HEIGHT, HEADER + top + plan.height + PAD)
    width -= width % 2
    height -= height % 2
    layout = dataclasses.replace(plan, x0=PAD + left, y0=HEADER + top)
    return layout, (width, height)


@functools.lru_cache(maxsize=4)
def _backdrop(
    layout: GridLayout, size: tuple[int, int], islands: tuple[IslandView, ...]
) -> Image.Image:
    """What every frame with these island owners shares (callers copy it)."""
    image = replay.blank_frame(size)
    grid.draw_grid(image, layout)
    for island in islands:
        sea.draw_island(image, layout, island.cell, island.number, island.owner)
    return image


def _draw_boats(image: Image.Image, layout: GridLayout, boats: Sequence[RevealedBoat]) -> None:
    by_cell: dict[Cell, list[RevealedBoat]] = {}
    for boat in boats:
        by_cell.setdefault(boat.cell, []).append(boat)
    for cell in sorted(by_cell):
        # wrecks under the boats afloat, each kind in colour order
        together = sorted(by_cell[cell], key=lambda b: (b.afloat, b.colour.index))
        for slot, boat in enumerate(together):
            sea.draw_boat(
                image, layout, cell, boat.colour, afloat=boat.afloat, slot=slot, slots=len(together)
            )
            if boat.afloat:
                sea.draw_health(image, layout, cell, boat.health, slot=slot, slots=len(together))


def _afloat_text(board: RevealedView) -> str:
    afloat = sum(1 for boat in board.boats if boat.afloat)
    return f"{afloat} of {len(board.boats)} afloat"


def _panel(frame: Frame) -> tuple[list[Row], list[Row]]:
    """The round's report (or what this frame is), and the boats revealed."""
    public = frame.board.public
    if frame.fresh:
        happened = [(Words(report.heading(public), strong=True),), *report.round_rows(public)]
    else:
        happened = [(Words("Unseen moves" if public.last_round else "The start", strong=True),)]
    names = {p.id: p.name for p in public.players}
    boats: list[Row] = [(Words("U-boats", strong=True),)]
    for boat in frame.board.boats:
        state = f"health {boat.health}" if boat.afloat else "sunk"
        boats.append(
            (report.Chip(boat.colour),
             Words(f"{boat.colour.title} ({names.get(boat.captain, boat.captain)}) {boat.cell},"),
             Words(state, dim=not boat.afloat))
        )  # fmt: skip
    return happened, boats


def board_picture(
    frame: Frame, *, title: str, layout: GridLayout, size: tuple[int, int]
) -> Image.Image:
    public = frame.board.public
    image = _backdrop(layout, size, tuple(public.islands)).copy()
    replay.draw_header(image, title, frame.label, _afloat_text(frame.board))
    if frame.fresh:
        maps.draw_marks(image, layout, public)
    _draw_boats(image, layout, frame.board.boats)
    left = layout.x0 + layout.width + 2 * PAD
    happened, boats = _panel(frame)
    y = maps.draw_rows(image, HEADER + PAD, happened, left, size[0] - PAD)
    maps.draw_rows(image, y + PAD, boats, left, size[0] - PAD)
    return image


def frames_of(boards: Sequence[tuple[RevealedView, str]]) -> list[Frame]:
    """Each board with its label, and whether it is a round's end (new blasts): a board in
    the same round as the one before is an evade window closing."""
    frames = []
    previous: PublicView | None = None
    for board, label in boards:
        public = board.public
        within = (
            previous is not None
            and public.phase is Phase.BATTLE
            and public.round == previous.round
            and public.last_round == previous.last_round
        )
        frames.append(Frame(board, f"{label}: evade window" if within else label, fresh=not within))
        previous = public
    return frames


def title_card(title: str, first: RevealedView, size: tuple[int, int]) -> Image.Image:
    public = first.public
    islands = len(public.islands)
    return replay.title_card(
        title,
        size,
        facts=f"{public.size}x{public.size} sea, {islands} island{'s' if islands != 1 else ''}, "
        f"{len(first.boats)} U-boats",
        names=[p.name for p in public.players if p.colour is not None],
    )


def final_card(last: Image.Image, public: PublicView) -> Image.Image:
    rounds = public.round
    detail = f"after {rounds} round{'s' if rounds != 1 else ''}"
    tally = report.scores(public)
    return replay.final_card(
        last, report.result(public) or "Game in progress", f"{detail}. {tally}" if tally else detail
    )


CARD_LABELS = 20
"""The row and column names on the end card: 10 px on a phone."""


def card_layout(size: int) -> tuple[GridLayout, tuple[int, int]]:
    """Where the sea goes on the end card (as wide as the card, no report beside it), and
    the size of the picture holding it."""
    layout = grid.centred_board(size, labels=sea.LABELS, margins=sea.margins(size, CARD_LABELS),
                                label_size=CARD_LABELS, width=end_card.WIDTH, max_cell=MAX_CELL)  # fmt: skip
    return layout, (end_card.WIDTH, layout.y0 + layout.height + PAD)


def card_board(last: Frame) -> Image.Image:
    """The sea as the hunt ended, for the end card: the islands in their owners' colours,
    every boat revealed, and the last round's blasts."""
    public = last.board.public
    layout, size = card_layout(public.size)
    image = Image.new("RGB", size, style.BACKGROUND)
    grid.draw_grid(image, layout)
    for island in public.islands:
        sea.draw_island(image, layout, island.cell, island.number, island.owner)
    if last.fresh:
        maps.draw_marks(image, layout, public)
    _draw_boats(image, layout, last.board.boats)
    return image


def standings(last: RevealedView) -> list[end_card.Placing]:
    """The boats as the game ranks its crews: the winning boats, then by island score; each
    with its captain, its score and how it ended."""
    public = last.public
    names = {p.id: p.name for p in public.players}
    scores = dict(public.scores)
    keys = {
        boat.colour.value: (
            1 if boat.colour in public.winning_boats else 0,
            scores.get(boat.colour, 0),
        )
        for boat in last.boats
    }
    place = places(keys)
    order = sorted(last.boats, key=lambda b: (place[b.colour.value], b.colour.index))
    return [
        end_card.Placing(
            place[boat.colour.value],
            f"{boat.colour.title} ({names.get(boat.captain, boat.captain)})",
            ", ".join(
                (
                    plural(scores.get(boat.colour, 0), "point") if public.scores else "",
                    f"health {boat.health}" if boat.afloat else "sunk",
                )
            ).lstrip(", "),
            sea.boat_rgb(boat.colour),
        )
        for boat in order
    ]


def end_picture(frames: Sequence[Frame], *, title: str) -> Image.Image:
    """The end post's card (:mod:`renderers.end_card`): the winning boat and its crew, the
    boats by rank, and the sea with every boat revealed."""
    last = frames[-1]
    public = last.board.public
    rounds = public.round
    return end_card.render_end_card(
        card_board(last),
        title=title,
        result=report.result(public) or "Game in progress",
        detail=f"after {rounds} round{'s' if rounds != 1 else ''}, {len(last.board.boats)} U-boats",
        standings=standings(last.board),
    )


def render_replay(
    boards: Sequence[tuple[RevealedView, str]], *, title: str, gif: bool = True
) -> Replay:
    """The whole hunt as MP4 (and GIF). Same boards in, same bytes out (same installation)."""
    if not boards:
        raise ValueError("a replay needs at least one frame")
    frames = frames_of(boards)
    layout, size = frame_layout(frames[0].board.public.size)
    last = frames[-1].board.public

    def pictures() -> Iterator[Image.Image]:
        for frame in frames:
            yield board_picture(frame, title=title, layout=layout, size=size)

    return replay.encode_replay(
        title_card(title, frames[0].board, size),
        pictures(),
        count=len(frames),
        closing=lambda picture: final_card(picture, last),
        gif=gif,
        card=end_picture(frames, title=title),
    )
