"""The Silent Ships replay: one picture per stored step of the game, every card face-up.

Each frame is drawn from a :class:`~bot.games.silentships.views.RevealedView` (a finished
game's, shown to everyone): the board with every unit's ship (face-down ones marked), the
attack in progress or the turn's last combat, and both admirals with their hands as cards.
The board is on the left and the words on the right, so that the video is landscape;
:mod:`renderers.replay` adds the title and final cards and encodes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from PIL import Image

from bot.games.silentships.views import PublicView, RevealedView
from renderers import end_card, replay, style
from renderers.pictures import Replay
from renderers.silentships import board, panels
from renderers.silentships.board import Token

SIZE = (1280, 784)
CELL = 116
BOARD_X = 56
BOARD_Y = replay.HEADER + 34
COLUMN_X = BOARD_X + 5 * CELL + 40
GAP = 14
SECONDS_PER_FRAME = 0.8


def revealed_tokens(view: RevealedView) -> list[Token]:
    """Every unit with its ship; a face-down one marked as such."""
    ships = {unit.cell: unit.ship for cards in view.cards for unit in cards.units}
    return [
        Token(u.cell, u.owner, ships.get(u.cell, u.ship), hidden=not u.face_up)
        for u in view.public.units
    ]


def sunk_text(view: PublicView) -> str:
    """``ships sunk 1-0``, in seat order."""
    seated = sorted(view.admirals, key=lambda a: not a.moves_first)
    return "ships sunk " + "-".join(str(len(a.sank)) for a in seated)


def frame_picture(view: RevealedView, *, title: str, label: str) -> Image.Image:
    """One moment of the game, everything shown."""
    public = view.public
    image = replay.blank_frame(SIZE)
    replay.draw_header(image, title, label, sunk_text(public))
    layout = board.layout(BOARD_X, BOARD_Y, CELL, public.rows, public.cols)
    board.draw_board(image, layout, public, revealed_tokens(view), avatars={})
    right = SIZE[0] - panels.PAD
    y = replay.HEADER
    if public.attack is not None:
        lines = panels.attack_lines(public)
        for i, (text, colour) in enumerate(lines):
            fitted = style.fit_text(text, panels.SMALL_SIZE, right - COLUMN_X)
            style.draw_text(
                image,
                (COLUMN_X, y + 4 + 28 * i),
                fitted,
                size=panels.SMALL_SIZE,
                fill=colour,
                background=style.BACKGROUND,
            )
        y += 12 + 28 * len(lines)
    elif public.combat is not None:
        height = panels.combat_height(public.combat)
        panels.draw_combat(image, (COLUMN_X, y, right, y + height), public, public.combat)
        y += height + GAP
    hands = {cards.admiral: cards.hand for cards in view.cards}
    seated = sorted(public.admirals, key=lambda a: not a.moves_first)
    y = max(y, SIZE[1] - 2 * (panels.ADMIRAL_HEIGHT + GAP))
    for admiral in seated[:2]:
        panels.draw_admiral(
            image,
            (COLUMN_X, y, right, y + panels.ADMIRAL_HEIGHT),
            public,
            admiral,
            avatars={},
            hand=hands.get(admiral.id, ()),
        )
        y += panels.ADMIRAL_HEIGHT + GAP
    return image


CARD_CELL = 132
"""The board's squares on the end card: as wide as the card allows beside the row names."""


def card_board(view: RevealedView) -> Image.Image:
    """The board as the game ended, for the end card: every unit's ship face-up (the
    face-down ones marked), then both admirals with their hands and what they sank."""
    public = view.public
    top = 44
    left = (end_card.WIDTH - public.cols * CARD_CELL + BOARD_X) // 2
    layout = board.layout(left, top, CARD_CELL, public.rows, public.cols)
    panels_top = top + public.rows * CARD_CELL + 2 * GAP
    seated = sorted(public.admirals, key=lambda a: not a.moves_first)[:2]
    height = panels_top + len(seated) * (panels.ADMIRAL_HEIGHT + GAP) + GAP
    image = Image.new("RGB", (end_card.WIDTH, height), style.BACKGROUND)
    board.draw_board(image, layout, public, revealed_tokens(view), avatars={})
    hands = {cards.admiral: cards.hand for cards in view.cards}
    y = panels_top
    for admiral in seated:
        panels.draw_admiral(
            image,
            (panels.PAD, y, end_card.WIDTH - panels.PAD, y + panels.ADMIRAL_HEIGHT),
            public,
            admiral,
            avatars={},
            hand=hands.get(admiral.id, ()),
        )
        y += panels.ADMIRAL_HEIGHT + GAP
    return image


def standings(public: PublicView) -> list[end_card.Placing]:
    """The winner first, then the other admiral, each with the ships they sank."""
    seated = sorted(public.admirals, key=lambda a: not a.moves_first)
    return [
        end_card.Placing(
            1 if admiral.id in public.winners or public.draw else 2,
            admiral.name,
            f"sank {len(admiral.sank)} {'ship' if len(admiral.sank) == 1 else 'ships'}",
            board.colour_of(admiral.id),
        )
        for admiral in sorted(seated, key=lambda a: a.id not in public.winners)
    ]


def end_picture(view: RevealedView, *, title: str) -> Image.Image:
    """The end post's card (:mod:`renderers.end_card`): who won and why, both admirals, and
    the board with every card face-up."""
    public = view.public
    result = panels.result_line(public) if public.winners else "The game is over"
    winner, _, why = result.partition(": ")
    turns = public.turn
    return end_card.render_end_card(
        card_board(view),
        title=title,
        result=winner,
        detail=f"{why}, after {turns} {'turn' if turns == 1 else 'turns'}"
        if why
        else f"after {turns} {'turn' if turns == 1 else 'turns'}",
        standings=standings(public),
    )


def render_replay(frames: Sequence[tuple[RevealedView, str]], *, title: str, gif: bool) -> Replay:
    """The whole game as MP4 (and GIF): the title card, one picture per frame, the result."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    last = frames[-1][0].public
    names = [a.name for a in sorted(last.admirals, key=lambda a: not a.moves_first)]
    opening = replay.title_card(
        title, SIZE, facts=f"Silent Ships · 5 × 4 board · {last.turn} turns", names=names
    )

    def pictures() -> Iterator[Image.Image]:
        for view, label in frames:
            yield frame_picture(view, title=title, label=label)

    result = panels.result_line(last) if last.winners else "The game goes on"
    winner, _, why = result.partition(": ")
    return replay.encode_replay(
        opening,
        pictures(),
        count=len(frames),
        closing=lambda picture: replay.final_card(picture, winner, why or sunk_text(last)),
        seconds_per_frame=SECONDS_PER_FRAME,
        gif=gif,
        card=end_picture(frames[-1][0], title=title),
    )
