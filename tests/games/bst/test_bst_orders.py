"""Rules §1, §3, §4: what players type, read tolerantly, and the canonical text of orders."""

from __future__ import annotations

import pytest

from bot.games.base import OrderSyntaxError
from bot.games.bst import BST, Move, Pass, Place, Rotate, Shoot
from bot.games.bst.cells import Cell, parse_cell
from bot.games.bst.fleet import Direction, ShipKind

H14 = Cell(7, 13)


@pytest.mark.parametrize(
    "text",
    [
        "H14",
        "h14",
        "h 14",
        "H-14",
        "#bst H14",
        "#BST h14",
        "H14 #bst",
        "shoot H14",
        "fire H14",
        "Fire at h14",
        "@bstbot #bst H14",
        "#bst H14 #fun",
    ],
)
def test_1_cells_tolerant_input(text: str) -> None:
    assert BST.rules.parse(text) == Shoot(H14)


def test_1_rows_are_letters_from_the_top_columns_numbers_from_the_left() -> None:
    assert parse_cell("A1") == Cell(0, 0)
    assert parse_cell("AA3") == Cell(26, 2)
    assert str(Cell(701, 998)) == "ZZ999"
    assert BST.words.describe(BST.rules.parse("#bst e5")) == "shoot E5"


@pytest.mark.parametrize(
    "text",
    [
        "move cruiser at G7 3 up",
        "my cruiser at G7 3 up",
        "move my cruiser at G7 3 up",
        "move cruiser G7 3 up",
        "MOVE Cruiser at g7 3 UP",
        "#bst move cruiser at G7 3 up",
    ],
)
def test_4_move_syntax_variants(text: str) -> None:
    assert BST.rules.parse(text) == Move(ShipKind.CRUISER, Cell(6, 6), 3, Direction.UP)


def test_4_move_sub_and_rotate_syntax() -> None:
    assert BST.rules.parse("move sub at E5 1 right") == Move(
        ShipKind.SUBMARINE, Cell(4, 4), 1, Direction.RIGHT
    )
    assert BST.rules.parse("rotate carrier at E8") == Rotate(ShipKind.CARRIER, Cell(4, 7))
    assert BST.rules.parse("rotate aircraft carrier at E8") == Rotate(ShipKind.CARRIER, Cell(4, 7))
    assert BST.rules.parse("rotate cv E8") == Rotate(ShipKind.CARRIER, Cell(4, 7))
    assert BST.rules.parse("pass") == Pass()
    assert BST.rules.parse("#bst PASS") == Pass()


def test_4_forward_is_refused_ships_have_no_bow() -> None:
    with pytest.raises(OrderSyntaxError, match="up, down, left or right"):
        BST.rules.parse("move cruiser at G7 2 forward")


def test_3_placement_syntax_from_the_rules() -> None:
    order = BST.rules.parse("sub: A2\ncarrier: C1-C5")
    assert order == Place(
        (
            (ShipKind.SUBMARINE, (Cell(0, 1),)),
            (ShipKind.CARRIER, tuple(Cell(2, c) for c in range(5))),
        )
    )
    two = BST.rules.parse("cruiser: B2-B4, cruiser: E5-G5")
    assert isinstance(two, Place) and two.ships is not None
    assert [len(cells) for _, cells in two.ships] == [3, 3]
    assert two.ships[1][1] == (Cell(4, 4), Cell(5, 4), Cell(6, 4))


@pytest.mark.parametrize(
    "text",
    [
        "sub: A2\ncarrier: C1-C5",
        "sub: A2, carrier: C1-C5",
        "sub: A2; carrier: C5-C1",
        "submarine A2\naircraft carrier: C1-C5",
        "cv: C1-C5; sub: A2",
        "#bst sub: a2, CARRIER: c1-c5",
    ],
)
def test_3_placement_separators_and_ranges_either_way(text: str) -> None:
    assert BST.words.describe(BST.rules.parse(text)) in (
        "place submarine A2, carrier C1-C5",
        "place carrier C1-C5, submarine A2",
    )


def test_3_random_placement() -> None:
    assert BST.rules.parse("random") == Place(None)
    assert BST.rules.parse("#bst Random") == Place(None)
    assert BST.words.describe(Place(None)) == "random placement"


def test_3_diagonal_range_refused_with_example() -> None:
    with pytest.raises(OrderSyntaxError, match="straight line"):
        BST.rules.parse("carrier: C1-G5, sub: A2")


@pytest.mark.parametrize(
    ("text", "written_right"),
    [
        ("carrier A1-A5 submarine C1", "carrier: A1-A5, submarine: C1"),
        ("Carrier: A1-A5 sub: C1", "carrier: A1-A5, submarine: C1"),
        ("cruiser C1-C3 cruiser E1-E3", "cruiser: C1-C3, cruiser: E1-E3"),
    ],
)
def test_3_ships_without_a_separator_are_refused_with_the_placement_written_right(
    text: str, written_right: str
) -> None:
    """#42: §3's separators are newlines, commas or semicolons: ships typed one after the
    other are refused, showing the sender's own placement in the right form (quoted as
    typed, not lower-cased)."""
    with pytest.raises(OrderSyntaxError) as caught:
        BST.rules.parse(text)
    assert f"`{written_right}`" in caught.value.message
    assert repr(text) in caught.value.message


@pytest.mark.parametrize(
    "text", ["battleship: C1-C4", "battleship A1-A4 cruiser C1-C3", "destroyer: B2"]
)
def test_3_a_ship_bst_has_not_is_answered_with_its_fleets_and_its_battle_orders(
    text: str,
) -> None:
    """#42: a placement of a ship bst has not (setup words typed in the battle, too) gets
    bst's help: the fleets it has and the orders of the battle, not a bare refusal."""
    with pytest.raises(OrderSyntaxError) as caught:
        BST.rules.parse(text)
    message = caught.value.message
    assert message.startswith(f"there is no {text.split()[0].rstrip(':')} in bst")
    assert "carrier" in message and "`sub: A2, carrier: C1-C5`" in message
    assert "`move cruiser at G7 3 up`" in message


@pytest.mark.parametrize("text", ["", "hello there", "shoot", "move cruiser 3 up", "rotate", "Z"])
def test_unknown_text_says_what_was_expected(text: str) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        BST.rules.parse(text)
    assert "e.g." in caught.value.message or "such as" in caught.value.message


def test_huge_input_is_refused() -> None:
    # Its time is measured in benchmarks/hostile.py, never asserted in a test.
    with pytest.raises(OrderSyntaxError):
        BST.rules.parse("sub: A2, " * 100_000)
    with pytest.raises(OrderSyntaxError):
        BST.rules.parse("carrier: A1-A9999")


def test_describe_gives_canonical_text() -> None:
    assert BST.words.describe(BST.rules.parse("my cruiser g7 3 UP")) == "move cruiser at G7 3 up"
    assert BST.words.describe(BST.rules.parse("rotate cv at e8")) == "rotate carrier at E8"
    assert BST.words.describe(BST.rules.parse("fire h 14")) == "shoot H14"
    assert BST.words.describe(Pass()) == "pass"


@pytest.mark.parametrize(
    "text",
    [
        "H14",
        "move cruiser at G7 3 up",
        "rotate carrier at E8",
        "pass",
        "random",
        "sub: A2, carrier: C1-C5",
    ],
)
def test_order_record_round_trips(text: str) -> None:
    order = BST.rules.parse(text)
    assert BST.codec.decode_order(BST.codec.encode_order(order)) == order


def test_order_record_shapes() -> None:
    assert BST.codec.encode_order(BST.rules.parse("H14")) == {"action": "shoot", "cell": "H14"}
    assert BST.codec.encode_order(BST.rules.parse("move cruiser at G7 3 up")) == {
        "action": "move",
        "ship": "cruiser",
        "at": "G7",
        "steps": 3,
        "direction": "up",
    }
    assert BST.codec.encode_order(BST.rules.parse("rotate carrier at E8")) == {
        "action": "rotate",
        "ship": "carrier",
        "at": "E8",
    }
    assert BST.codec.encode_order(Pass()) == {"action": "pass"}
    assert BST.codec.encode_order(Place(None)) == {"action": "place", "random": True}
    assert BST.codec.encode_order(BST.rules.parse("sub: A2")) == {
        "action": "place",
        "ships": [{"kind": "submarine", "cells": ["A2"]}],
    }
