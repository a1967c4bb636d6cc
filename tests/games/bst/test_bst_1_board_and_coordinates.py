"""Rules §1 at the edges of the board's size: rows past ``ZZ`` go on ``AAA``, ``AAB``…
up to 1000 rows (``ALL``), and cells round-trip through orders, states and records."""

from __future__ import annotations

import pytest
from bst_helpers import pid, records, setup, turn

from bot.games.base import OrderSyntaxError
from bot.games.bst import BST, Shoot
from bot.games.bst.cells import Cell, parse_cell, row_index, row_label, stored_cell
from bot.games.bst.codec import decode_order, decode_state, encode_order, encode_state

# (1-based row number, its letters): the boundaries where a letter is added.
BOUNDARIES = [
    (1, "A"),
    (26, "Z"),
    (27, "AA"),
    (702, "ZZ"),
    (703, "AAA"),
    (704, "AAB"),
    (1000, "ALL"),
]


@pytest.mark.parametrize(("number", "letters"), BOUNDARIES)
def test_1_row_letters_at_the_boundaries(number: int, letters: str) -> None:
    assert row_label(number - 1) == letters
    assert row_index(letters.lower()) == number - 1


def test_1_every_row_up_to_1000_round_trips_and_labels_are_unique() -> None:
    labels = [row_label(row) for row in range(1000)]
    assert len(set(labels)) == 1000
    assert [row_index(label) for label in labels] == list(range(1000))
    assert labels == sorted(labels, key=lambda label: (len(label), label))


@pytest.mark.parametrize(("number", "letters"), BOUNDARIES)
def test_1_cells_and_shots_round_trip_at_the_boundaries(number: int, letters: str) -> None:
    cell = Cell(number - 1, 999)
    assert str(cell) == f"{letters}1000"
    for typed in (f"{letters}1000", f"{letters.lower()} 1000", f"{letters}-1000"):
        assert parse_cell(typed) == cell
        assert BST.rules.parse(f"#bst {typed}") == Shoot(cell)
    assert decode_order(encode_order(Shoot(cell))) == Shoot(cell)


@pytest.mark.parametrize("text", ["top 5", "lol 3", "ZZZ1", "AAAA1"])
def test_1_three_letter_words_not_starting_with_a_are_not_cells(text: str) -> None:
    with pytest.raises(OrderSyntaxError):
        BST.rules.parse(text)


def test_1_a_1000x1000_game_plays_and_records_at_the_last_rows() -> None:
    state = setup(
        {
            "ann": "sub: ALL1000, carrier: AAA1-AAA5",
            "bob": "cruiser: ZZ1-ZZ3, cruiser: AAB10-AAB12",
        },
        size="1000",
    )
    assert decode_state(encode_state(state)) == state
    resolution = turn(state, {"ann": "AAB11", "bob": "all 1000"})
    assert records(resolution) == [
        {"type": "shot", "player": pid("ann"), "cell": "AAB11", "result": "hit"},
        {"type": "shot", "player": pid("bob"), "cell": "ALL1000", "result": "hit"},
        {"type": "destroyed", "player": pid("ann"), "ship": "submarine", "cells": ["ALL1000"]},
    ]
    assert decode_state(encode_state(resolution.state)) == resolution.state


def test_1_a_stored_cell_reads_as_its_typed_cell_at_every_row() -> None:
    # (A state's cells are read without the typed cell's pattern: issue 33.)
    for row in range(1000):
        for col in (0, 9, 999):
            text = str(Cell(row, col))
            assert stored_cell(text) == parse_cell(text) == Cell(row, col)


@pytest.mark.parametrize("text", ["h14", "H 14", "H-14", "A0", "A01", "ZZZ5", "5", "A", ""])
def test_1_a_cell_not_as_stored_is_read_as_typed_with_its_errors(text: str) -> None:
    try:
        typed: Cell | str = parse_cell(text)
    except OrderSyntaxError as error:
        typed = str(error)
    try:
        stored: Cell | str = stored_cell(text)
    except OrderSyntaxError as error:
        stored = str(error)
    assert stored == typed
