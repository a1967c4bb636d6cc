"""The Silent Ships pictures the host posts (rules §6): the public board, and a player's
own board with their hand as whole cards.

The public picture is drawn from a :class:`~bot.games.silentships.views.PublicView`, which
has no field for a face-down unit's ship or a card in a hand: it cannot show one because it
is never given one. A player's picture adds what their
:class:`~bot.games.silentships.views.PrivateView` holds — their own units' ships and hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.silentships.ships import Ship
from bot.games.silentships.views import PrivateView, PublicView
from renderers import style
from renderers.encode import png_bytes
from renderers.silentships import board, cards, panels
from renderers.silentships.board import Token

WIDTH = 880
CELL = 128
BOARD_TOP = 34  # room for the column letters
HAND_CARD = (156, 220)
HAND_GAP = 9
PAD = panels.PAD
FOOTER = "Card back: a face-down unit (only its owner knows it). Thick frame: a country."


def public_tokens(view: PublicView) -> list[Token]:
    """Units as everyone sees them: a face-up unit's ship, a face-down unit's owner only."""
    return [Token(u.cell, u.owner, u.ship if u.face_up else None) for u in view.units]


def private_tokens(view: PrivateView) -> list[Token]:
    """Units as their viewer sees them: their own face-down units' ships too."""
    own = {unit.cell: unit for unit in view.units}
    tokens = []
    for unit in view.public.units:
        mine = own.get(unit.cell) if unit.owner == view.viewer else None
        if mine is not None and not unit.face_up:
            tokens.append(Token(unit.cell, unit.owner, mine.ship, hidden=True))
        else:
            tokens.append(Token(unit.cell, unit.owner, unit.ship if unit.face_up else None))
    return tokens


def _middle_height(view: PublicView) -> int:
    if view.attack is not None:
        return 24 + 30 * len(panels.attack_lines(view))
    if view.combat is not None:
        return panels.combat_height(view.combat)
    return 0


def _hand_height(hand: Sequence[Ship]) -> int:
    per_row = (WIDTH - 2 * PAD + HAND_GAP) // (HAND_CARD[0] + HAND_GAP)
    rows = -(-len(hand) // per_row)
    return 40 + rows * (HAND_CARD[1] + HAND_GAP)


def compose(
    view: PublicView,
    tokens: Sequence[Token],
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
    heading: str | None = None,
    hands: Mapping[str, Sequence[Ship]] | None = None,
    own_hand: Sequence[Ship] | None = None,
    own_sank: int = 0,
    footer: str = FOOTER,
) -> Image.Image:
    """The picture: header, board, the attack or last combat, the admirals, then (a player's
    picture) their hand. ``hands``: cards to show in the admirals' panels (the replay);
    ``own_sank``: the ships the hand's owner has sunk (a Salvage Ship's attack now)."""
    board_height = view.rows * CELL
    middle = _middle_height(view)
    hand_height = _hand_height(own_hand) if own_hand is not None else 0
    height = (
        panels.HEADER_HEIGHT
        + BOARD_TOP
        + board_height
        + PAD
        + (middle + PAD if middle else 0)
        + panels.ADMIRAL_HEIGHT
        + PAD
        + hand_height
        + 40
    )
    image = Image.new("RGB", (WIDTH, height), style.BACKGROUND)
    line = panels.status_line(view)
    panels.draw_header(image, title=title, line=heading or line, deadline=deadline, now=now)
    y = panels.HEADER_HEIGHT + BOARD_TOP
    layout = board.layout((WIDTH - view.cols * CELL) // 2 + 10, y, CELL, view.rows, view.cols)
    board.draw_board(image, layout, view, tokens, avatars=avatars)
    y += board_height + PAD
    draw = ImageDraw.Draw(image)
    if view.attack is not None:
        box = (PAD, y, WIDTH - PAD, y + middle)
        draw.rounded_rectangle(box, radius=12, fill=style.PANEL)
        for i, (text, colour) in enumerate(panels.attack_lines(view)):
            fitted = style.fit_text(text, panels.LINE_SIZE, WIDTH - 4 * PAD)
            style.draw_text(
                image,
                (2 * PAD - 6, y + 12 + 30 * i),
                fitted,
                size=panels.LINE_SIZE,
                fill=colour,
                background=style.PANEL,
            )
        y += middle + PAD
    elif view.combat is not None:
        panels.draw_combat(image, (PAD, y, WIDTH - PAD, y + middle), view, view.combat)
        y += middle + PAD
    seated = sorted(view.admirals, key=lambda a: not a.moves_first)
    half = (WIDTH - 3 * PAD) // 2
    for i, admiral in enumerate(seated[:2]):
        x = PAD + i * (half + PAD)
        panels.draw_admiral(
            image,
            (x, y, x + half, y + panels.ADMIRAL_HEIGHT),
            view,
            admiral,
            avatars=avatars,
            hand=None if hands is None else hands.get(admiral.id),
        )
    y += panels.ADMIRAL_HEIGHT + PAD
    if own_hand is not None:
        _draw_hand(image, y, own_hand, own_sank)
        y += hand_height
    style.draw_text(
        image,
        (PAD, height - 30),
        style.fit_text(footer, panels.SMALL_SIZE - 2, WIDTH - 2 * PAD),
        size=panels.SMALL_SIZE - 2,
        fill=style.TEXT_DIM,
        background=style.BACKGROUND,
    )
    return image


def _draw_hand(image: Image.Image, y: int, hand: Sequence[Ship], owner_sank: int) -> None:
    label = f"Your hand ({len(hand)} card{'' if len(hand) == 1 else 's'})"
    style.draw_text(
        image,
        (PAD, y),
        label,
        size=panels.LINE_SIZE,
        fill=style.TEXT,
        background=style.BACKGROUND,
    )
    if not hand:
        return
    width, height = HAND_CARD
    per_row = (WIDTH - 2 * PAD + HAND_GAP) // (width + HAND_GAP)
    for i, ship in enumerate(hand):
        row, col = divmod(i, per_row)
        face = cards.card_face(ship, width, height, attack=ship.card.attack_now(owner_sank))
        x = PAD + col * (width + HAND_GAP)
        image.paste(face, (x, y + 36 + row * (height + HAND_GAP)), face)


def render_public(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
) -> bytes:
    """The public picture as (palette) PNG bytes. Same arguments, same bytes."""
    image = compose(
        view, public_tokens(view), title=title, deadline=deadline, now=now, avatars=avatars
    )
    return png_bytes(image)


def render_private(
    view: PrivateView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
) -> bytes:
    """A player's own picture as (palette) PNG bytes: their units' ships and their hand."""
    public = view.public
    heading = f"{view.viewer_name}'s board · {panels.status_line(public)}"
    image = compose(
        public,
        private_tokens(view),
        title=title,
        deadline=deadline,
        now=now,
        avatars=avatars,
        heading=heading,
        own_hand=view.hand,
        own_sank=next((len(a.sank) for a in public.admirals if a.id == view.viewer), 0),
        footer="Your units marked face-down show your opponent only a card back.",
    )
    return png_bytes(image)
