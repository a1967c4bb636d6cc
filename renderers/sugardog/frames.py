"""The replay of a Sugar Dog game: one picture per moment (the start, then each turn),
with everything revealed — every submarine, mine and torpedo where it was, in its
captain's colour — and the turn's contacts (rings), impacts and ping as they were
announced. :mod:`renderers.replay` adds the title and final cards and makes the video.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.games.sugardog.state import Phase, Status
from bot.games.sugardog.views import PublicView, RevealedView
from renderers import end_card, grid, replay, style
from renderers.grid import GridLayout
from renderers.pictures import Replay
from renderers.replay import HEADER, MAX_HEIGHT, MAX_WIDTH, PAD
from renderers.sugardog import board
from renderers.sugardog.chart import revealed_chart
from renderers.sugardog.sea import (
    LEGEND_ROW,
    arrange_legend,
    captains_key,
    draw_chart,
    draw_legend_rows,
    last_turn_text,
)


@dataclass(frozen=True)
class ReplayFrame:
    board: RevealedView
    label: str


def result_text(public: PublicView) -> str:
    names = {c.id: c.name for c in public.captains}
    winners = [names.get(w, w) for w in public.winners]
    if public.draw:
        return "A draw" if len(winners) != 1 else f"A draw: {winners[0]}"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return "No winner" if public.phase is Phase.FINISHED else "Game in progress"


def key_rows(public: PublicView, width: int) -> int:
    """Rows the captains' key takes at its widest (every captain sunk)."""
    widest = tuple(
        dataclasses.replace(item, label=f"{item.label} (sunk)") for item in captains_key(public)
    )
    return len(arrange_legend(widest, width - 2 * PAD))


def frame_layout(public: PublicView) -> tuple[GridLayout, tuple[int, int]]:
    """Where the board goes in a replay picture, and the picture's size (even, in limits),
    with room under the board for the captains' key."""
    size = max(1, public.size)
    left, top = board.margins(size, 18)
    key_h = PAD + LEGEND_ROW * key_rows(public, MAX_WIDTH)
    plan = grid.plan_board(
        size,
        size,
        labels=board.labels(size),
        x0=0,
        y0=0,
        max_board_width=MAX_WIDTH - 2 * left,
        max_board_height=MAX_HEIGHT - HEADER - top - PAD - key_h,
        min_cell=16,
        max_cell=80,
        target=800,
    )
    left, top = board.margins(size, plan.label_size)
    width = min(MAX_WIDTH, max(640, 2 * left + plan.width))
    key_h = PAD + LEGEND_ROW * key_rows(public, width)
    height = min(MAX_HEIGHT, HEADER + top + plan.height + PAD + key_h)
    width -= width % 2
    height -= height % 2
    layout = dataclasses.replace(plan, x0=(width - plan.width - left) // 2 + left, y0=HEADER + top)
    return layout, (width, height)


@functools.lru_cache(maxsize=2)
def _backdrop(layout: GridLayout, size: tuple[int, int]) -> Image.Image:
    """What every picture of a replay shares: background, header panel, water, grid and
    names (shared between calls; callers copy it)."""
    image = replay.blank_frame(size)
    grid.draw_grid(image, layout)
    return image


def frame_label(frame: ReplayFrame) -> str:
    """The frame's label, with what its turn did when the frame is a turn's."""
    last = frame.board.public.last_turn
    if last is not None and frame.label == f"Turn {last.number}":
        return last_turn_text(frame.board.public) or frame.label
    return frame.label


def board_picture(
    frame: ReplayFrame, *, title: str, layout: GridLayout, size: tuple[int, int]
) -> Image.Image:
    image = _backdrop(layout, size).copy()
    public = frame.board.public
    afloat = sum(1 for c in public.captains if c.status is Status.ALIVE)
    replay.draw_header(
        image, title, frame_label(frame), f"{afloat} of {len(public.captains)} afloat"
    )
    draw_chart(image, layout, revealed_chart(frame.board))
    rows = arrange_legend(captains_key(public), size[0] - 2 * PAD)
    draw_legend_rows(image, rows, top=layout.y0 + layout.height + PAD)
    return image


CARD_LABELS = 20
"""The row and column names on the end card: 10 px on a phone."""


def card_board(last: RevealedView) -> Image.Image:
    """The board as the game ended, for the end card: every submarine, mine and torpedo
    revealed, the last turn's contacts, and the captains' key under it."""
    public = last.public
    size = max(1, public.size)
    layout = grid.centred_board(size, labels=board.labels(size),
                                margins=board.margins(size, CARD_LABELS), label_size=CARD_LABELS,
                                width=end_card.WIDTH, max_cell=96)  # fmt: skip
    rows = arrange_legend(captains_key(public), end_card.WIDTH - 2 * PAD)
    height = layout.y0 + layout.height + PAD + LEGEND_ROW * len(rows) + PAD
    image = Image.new("RGB", (end_card.WIDTH, height + height % 2), style.BACKGROUND)
    grid.draw_grid(image, layout)
    draw_chart(image, layout, revealed_chart(last))
    draw_legend_rows(image, rows, top=layout.y0 + layout.height + PAD)
    return image


def standings(frames: Sequence[ReplayFrame]) -> list[end_card.Placing]:
    """The top of the standings as the frames show it: the winner, then the last sunk."""
    last = frames[-1].board.public
    players = [(c.id, c.name) for c in last.captains]
    return end_card.survival_placings(
        players,
        (
            (
                frame.board.public.turns[-1].number if frame.board.public.turns else 0,
                frozenset(c.id for c in frame.board.public.captains if c.status is Status.ALIVE),
            )
            for frame in frames
        ),
        last.winners,
        moment="turn",
    )


def end_picture(frames: Sequence[ReplayFrame], *, title: str) -> Image.Image:
    """The end post's card (:mod:`renderers.end_card`): who won, the top of the standings,
    and the board with everything revealed."""
    last = frames[-1].board.public
    turns = last.turns[-1].number if last.turns else 0
    return end_card.render_end_card(
        card_board(frames[-1].board),
        title=title,
        result=result_text(last),
        detail=f"after {turns} {'turn' if turns == 1 else 'turns'}, {len(last.captains)} captains",
        standings=standings(frames),
    )


def render_replay(
    frames: Sequence[ReplayFrame], *, title: str, seconds_per_turn: float = 1.0, gif: bool = True
) -> Replay:
    """The whole game as MP4 (and GIF). Same frames in, same bytes out (same installation)."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    first = frames[0].board.public
    layout, size = frame_layout(first)
    last = frames[-1].board.public
    turns = last.turns[-1].number if last.turns else 0

    def pictures() -> Iterator[Image.Image]:
        for frame in frames:
            yield board_picture(frame, title=title, layout=layout, size=size)

    opening = replay.title_card(
        title,
        size,
        facts=f"{first.size} × {first.size} board, {len(first.captains)} captains",
        names=[c.name for c in first.captains],
    )
    noun = "turn" if turns == 1 else "turns"
    return replay.encode_replay(
        opening,
        pictures(),
        count=len(frames),
        closing=lambda picture: replay.final_card(
            picture, result_text(last), f"after {turns} {noun}"
        ),
        seconds_per_frame=seconds_per_turn,
        gif=gif,
        card=end_picture(frames, title=title),
    )
