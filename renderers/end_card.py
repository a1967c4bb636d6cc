"""The end card: the picture of a finished game's end post, worth sharing.

Every game's end post shows one picture: the game as it ended with everything revealed. A
replay frame did that, but it named no winner and was a landscape video frame whose labels
shrank to a few pixels on a phone. The card is portrait and :data:`WIDTH` wide, so shown
390 px wide (a phone) every word on it is at least half its drawn size: the game's title,
the result in large letters (``ahab wins``), the top of the standings, then the board,
which the game draws at most :data:`WIDTH` wide for the card.

The standings here are read from the replay's revealed views (who was still in at each
moment), the way every game's own standings rank players who went out: the winners, then
the later a player went out the better, equals sharing a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.standings import places
from renderers import header, marks, style
from renderers.style import RGB

WIDTH = 780
"""Twice a phone's 390 px: what is drawn here at ``size`` reads at ``size / 2`` there."""
PAD = 24
TITLE_SIZE = 28
RESULT_SIZE = 48
DETAIL_SIZE = 24
LINE_SIZE = 26
LINE_HEIGHT = LINE_SIZE + 14
TOP_PLACES = 3
"""How many places of the standings the card names (the end post lists them all)."""


@dataclass(frozen=True)
class Placing:
    """One line of the card's standings: ``2. nemo, out in turn 150``."""

    place: int
    name: str
    note: str
    colour: RGB | None = None
    """The player's colour on the board, shown beside the name; None for none."""


def survival_placings(
    players: Sequence[tuple[str, str]],
    still_in: Iterable[tuple[int, frozenset[str]]],
    winners: Sequence[str],
    *,
    moment: str,
    colours: Mapping[str, RGB] | None = None,
    afloat: str = "afloat at the end",
) -> list[Placing]:
    """The standings of a last-one-standing game, best first: ``players`` as ``(id, name)``
    in join order, ``still_in`` the players still in at each moment of the game (its
    number, ``moment`` naming it: ``turn``, ``round``), ``winners`` from the last view. A
    player out at moment N is ranked by N (later is better); winners come first."""
    out: dict[str, int] = {}
    for number, inside in still_in:
        for player, _ in players:
            if player not in inside:
                out.setdefault(player, number)
    keys = {
        player: (1 if player in winners else 0, out.get(player, float("inf")))
        for player, _ in players
    }
    place = places(keys)
    order = sorted(players, key=lambda p: (place[p[0]], players.index(p)))
    return [
        Placing(
            place[player],
            name,
            afloat if player not in out else f"out in {moment} {out[player]}",
            (colours or {}).get(player),
        )
        for player, name in order
    ]


def _standings_lines(standings: Sequence[Placing]) -> list[Placing]:
    """The top of the standings: the first :data:`TOP_PLACES` places (all who share them)."""
    return [p for p in standings if p.place <= TOP_PLACES][: TOP_PLACES + 2]


def _rows(lines: int) -> tuple[int, int, int, int, int]:
    """The tops of the result, the detail, the standings, the panel's bottom and the board,
    with ``lines`` lines of standings."""
    result_top = PAD + TITLE_SIZE + 18
    detail_top = result_top + RESULT_SIZE + 14
    standings_top = detail_top + DETAIL_SIZE + 22
    panel_bottom = standings_top + LINE_HEIGHT * lines + 6
    return result_top, detail_top, standings_top, panel_bottom, panel_bottom + PAD // 2


def board_top(standings: Sequence[Placing]) -> int:
    """Where the board starts on the card of these ``standings``."""
    return _rows(len(_standings_lines(standings)))[4]


def render_end_card(
    board: Image.Image,
    *,
    title: str,
    result: str,
    detail: str,
    standings: Sequence[Placing],
) -> Image.Image:
    """The card: title, ``result`` (``ahab wins``), ``detail`` (``after 153 turns``), the
    top of ``standings``, and the revealed ``board`` under them (shrunk to the card's
    width if it is wider, centred)."""
    if board.width > WIDTH:
        height = max(1, round(board.height * WIDTH / board.width))
        board = board.resize((WIDTH, height), Image.Resampling.LANCZOS)
    lines = _standings_lines(standings)
    text_w = WIDTH - 2 * PAD
    result_top, detail_top, standings_top, panel_bottom, top = _rows(len(lines))
    height = top + board.height + PAD // 2
    height += height % 2
    image = Image.new("RGB", (WIDTH, height), style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, WIDTH, panel_bottom), fill=style.PANEL)
    header.draw_title(image, (PAD, PAD), title, size=TITLE_SIZE, max_width=text_w)
    style.draw_text(
        image,
        (PAD, result_top),
        style.fit_text(result, RESULT_SIZE, text_w),
        size=RESULT_SIZE,
        fill=style.HIT_LIGHT,
        background=style.PANEL,
        stroke_width=1,
        stroke_fill=style.HIT_LIGHT,
    )
    style.draw_text(
        image,
        (PAD, detail_top),
        style.fit_text(detail, DETAIL_SIZE, text_w),
        size=DETAIL_SIZE,
        fill=style.TEXT_DIM,
        background=style.PANEL,
    )
    y = standings_top
    for placing in lines:
        number = f"{placing.place}."
        style.draw_text(
            image, (PAD, y), number, size=LINE_SIZE, fill=style.TEXT, background=style.PANEL
        )
        x = PAD + style.text_width("00.", LINE_SIZE) + 8
        if placing.colour is not None:
            dot = LINE_SIZE * 0.32
            marks.disc(image, (x + dot, y + LINE_SIZE * 0.6), dot, placing.colour)
            x += round(2 * dot) + 10
        name = style.fit_text(placing.name, LINE_SIZE, (WIDTH - PAD - x) // 2)
        style.draw_text(
            image, (x, y), name, size=LINE_SIZE, fill=style.TEXT, background=style.PANEL
        )
        x += style.text_width(name, LINE_SIZE) + 14
        style.draw_text(
            image,
            (x, y),
            style.fit_text(placing.note, LINE_SIZE, WIDTH - PAD - x),
            size=LINE_SIZE,
            fill=style.TEXT_DIM,
            background=style.PANEL,
        )
        y += LINE_HEIGHT
    image.paste(board, ((WIDTH - board.width) // 2, top))
    return image


__all__ = [
    "PAD",
    "WIDTH",
    "Placing",
    "board_top",
    "render_end_card",
    "survival_placings",
]
