"""The end card (issue 42, item 8): portrait, as wide as twice a phone, the result and the
top of the standings in letters that read at 390 px, the revealed board under them."""

from __future__ import annotations

from PIL import Image

from renderers import end_card, style
from renderers.end_card import Placing, render_end_card, survival_placings

PLAYERS = [("p1", "ann"), ("p2", "bob"), ("p3", "cy"), ("p4", "dee")]


def test_the_standings_put_the_winner_first_then_the_last_out_sharing_a_turn() -> None:
    still_in = [
        (0, frozenset({"p1", "p2", "p3", "p4"})),
        (1, frozenset({"p1", "p2", "p3"})),
        (2, frozenset({"p1", "p2", "p3"})),
        (3, frozenset({"p2"})),
    ]
    placings = survival_placings(PLAYERS, still_in, ["p2"], moment="turn")
    assert [(p.place, p.name, p.note) for p in placings] == [
        (1, "bob", "afloat at the end"),
        (2, "ann", "out in turn 3"),
        (2, "cy", "out in turn 3"),
        (4, "dee", "out in turn 1"),
    ]


def test_the_card_is_portrait_and_a_wide_board_is_shrunk_to_its_width() -> None:
    wide = Image.new("RGB", (1600, 500), style.WATER)
    card = render_end_card(
        wide,
        title="#bst game 1",
        result="bob wins",
        detail="after 3 turns",
        standings=[Placing(1, "bob", "afloat at the end", (200, 0, 0))],
    )
    assert card.width == end_card.WIDTH
    assert card.height > card.width / 2
    # the board fills the card's width under the words
    bottom = card.height - end_card.PAD // 2 - 2
    assert card.getpixel((1, bottom)) == style.WATER
    assert card.getpixel((end_card.WIDTH - 2, bottom)) == style.WATER


def test_the_top_of_the_standings_is_three_places() -> None:
    lines = [Placing(n, f"p{n}", "") for n in range(1, 9)]
    short = render_end_card(
        Image.new("RGB", (100, 100)), title="t", result="r", detail="d", standings=lines[:3]
    )
    long = render_end_card(
        Image.new("RGB", (100, 100)), title="t", result="r", detail="d", standings=lines
    )
    assert short.size == long.size
