"""Rules §2, the board: hex cells, the wrapping ocean, distance, and the period; and the
geometry checks the rules list (§2, §3) that placement relies on, and §4.3's distance of a
miss; it spans §2 to §4, so the file keeps its name."""

from __future__ import annotations

import random
from collections import deque

import pytest

from bot.games.base import IllegalOrderError, OrderSyntaxError
from bot.games.sonar.board import Board, Cell, Facing, parse_cell, parse_facing, plane_distance
from bot.games.sonar.encounters import (
    Course,
    MaskShifter,
    ever_meet,
    first_meeting,
    indices_of,
    mask_of,
)

SIZES = (4, 6, 8, 12, 16, 24)


def cell(text: str) -> Cell:
    return parse_cell(text)


def test_2_cells_are_row_letter_from_the_bottom_then_column() -> None:
    assert cell("a1") == Cell(0, 0)
    assert cell("F11") == Cell(5, 10)
    assert str(Cell(15, 26)) == "p27"


@pytest.mark.parametrize("text", ["11f", "f", "ff11", "f 11", "", "f0"])
def test_2_cell_syntax_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="such as"):
        parse_cell(text)


@pytest.mark.parametrize("text", ["q1", "a33", "z5"])
def test_2_input_never_wraps_a_cell_off_the_board_is_refused(text: str) -> None:
    with pytest.raises(IllegalOrderError, match="off the board"):
        Board(16).check(parse_cell(text))


def test_2_six_neighbours() -> None:
    board = Board(16)
    here = cell("f11")
    steps = {facing: str(board.step(here, facing)) for facing in Facing}
    assert steps == {
        Facing.LEFT: "f10",
        Facing.RIGHT: "f12",
        Facing.UP_RIGHT: "g11",
        Facing.UP_LEFT: "g10",
        Facing.DOWN_LEFT: "e11",
        Facing.DOWN_RIGHT: "e12",
    }


def test_2_facing_words_and_opposites() -> None:
    assert parse_facing("Up-Right") is Facing.UP_RIGHT
    assert parse_facing("dl") is Facing.DOWN_LEFT
    assert all(f.opposite.opposite is f and f.opposite is not f for f in Facing)
    with pytest.raises(OrderSyntaxError, match="ul, ur"):
        parse_facing("north")


def test_2_columns_wrap() -> None:
    board = Board(16)
    assert str(board.step(cell("f32"), Facing.RIGHT)) == "f1"
    assert str(board.step(cell("f1"), Facing.LEFT)) == "f32"


def test_2_up_right_of_p27_is_a3_on_the_default_board() -> None:
    assert str(Board(16).step(cell("p27"), Facing.UP_RIGHT)) == "a3"


@pytest.mark.parametrize("rows", SIZES)
def test_2_rows_wrap_half_a_board_further_along(rows: int) -> None:
    board = Board(rows)
    for col in range(board.cols):
        assert board.wrap(rows, col) == Cell(0, (col + rows // 2) % board.cols)
        assert board.wrap(-1, col) == Cell(rows - 1, (col - rows // 2) % board.cols)


def test_2_distance_checks_of_the_rules() -> None:
    board = Board(16)
    assert [board.distance(cell("f11"), cell(c)) for c in ("f9", "e10", "d11")] == [2, 2, 2]
    assert board.distance(cell("f11"), cell("c12")) == 3


def test_2_plane_distance_formula() -> None:
    assert plane_distance(0, 0) == 0
    assert plane_distance(-3, 1) == 3
    assert plane_distance(2, -1) == 2
    assert plane_distance(1, 1) == 2


@pytest.mark.parametrize("rows", SIZES)
def test_2_distance_is_the_shortest_path_over_the_wrapped_board(rows: int) -> None:
    board = Board(rows)
    origin = Cell(0, 0)
    steps = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for facing in Facing:
            there = board.step(here, facing)
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    assert len(steps) == board.size
    assert all(board.distance(origin, c) == steps[c] for c in board.cells())
    rng = random.Random(rows)
    for _ in range(200):
        a, b = (board.cell_at(rng.randrange(board.size)) for _ in range(2))
        assert board.distance(a, b) == board.distance(b, a) == steps[board.offset(a, b)]


@pytest.mark.parametrize("rows", SIZES)
def test_2_lines_close_after_2n_along_rows_and_4n_otherwise(rows: int) -> None:
    board = Board(rows)
    start = Cell(1, 2)
    for facing in Facing:
        closes = 2 * rows if facing.horizontal else 4 * rows
        path = [board.step(start, facing, t) for t in range(1, closes + 1)]
        assert path[-1] == start
        assert start not in path[:-1]
    assert board.period == 4 * rows


def test_2_displayed_window_of_each_row() -> None:
    board = Board(16)
    assert board.window_start(15) == 0  # the top row starts at column 1
    assert board.window_start(0) == 7  # the bottom row starts at column 8
    assert [board.window_start(r) for r in (14, 13)] == [0, 1]


# --- §3: when subs meet (the geometry placement is pruned by) -----------------------


@pytest.mark.parametrize("rows", (4, 6, 8, 10))
def test_3_ever_meet_agrees_with_walking_a_whole_period(rows: int) -> None:
    board = Board(rows)
    rng = random.Random(rows)
    for _ in range(400):
        a, b = (
            Course(
                board.cell_at(rng.randrange(board.size)),
                rng.choice(list(Facing)),
                rng.randint(2, 5),
            )
            for _ in range(2)
        )
        assert ever_meet(board, a, b) == (first_meeting(board, a, b) is not None)
        assert ever_meet(board, a, b) == ever_meet(board, b, a)


@pytest.mark.parametrize("rows", (4, 6, 8, 10, 12, 16))
def test_3_a_row_sub_and_any_other_meet_unless_their_lengths_add_up_to_at_most_half_n(
    rows: int,
) -> None:
    board = Board(rows)
    a_bow = Cell(0, 0)
    for horizontal in (Facing.LEFT, Facing.RIGHT):
        for other in Facing:
            if other.horizontal:
                continue
            for length_a in range(2, 6):
                for length_b in range(2, 6):
                    a = Course(a_bow, horizontal, length_a)
                    room = [
                        c
                        for c in board.cells()
                        if not ever_meet(board, a, Course(c, other, length_b))
                    ]
                    assert bool(room) == (length_a + length_b <= rows // 2), (
                        horizontal,
                        other,
                        length_a,
                        length_b,
                    )


def test_3_subs_facing_the_same_way_meet_only_if_they_overlap_now() -> None:
    board = Board(8)
    a = Course(cell("c3"), Facing.UP_RIGHT, 3)
    assert not ever_meet(board, a, Course(cell("c4"), Facing.UP_RIGHT, 3))
    assert ever_meet(board, a, Course(cell("d3"), Facing.UP_RIGHT, 2))  # its stern is on c3


def test_3_subs_sailing_head_on_along_one_line_always_meet() -> None:
    board = Board(16)
    a = Course(cell("f1"), Facing.RIGHT, 2)
    for col in range(1, 33):
        assert ever_meet(board, a, Course(Cell(5, col - 1), Facing.LEFT, 2))


def test_3_cell_masks_move_across_the_torus_as_cells_do() -> None:
    for rows in SIZES:
        board = Board(rows)
        shifter = MaskShifter(board)
        rng = random.Random(rows)
        for _ in range(50):
            cells = {rng.randrange(board.size) for _ in range(15)}
            by = board.cell_at(rng.randrange(board.size))
            moved = {
                board.index(
                    board.wrap(board.cell_at(i).row + by.row, board.cell_at(i).col + by.col)
                )
                for i in cells
            }
            assert indices_of(shifter.shift(mask_of(cells), by)) == sorted(moved)


@pytest.mark.parametrize("rows", SIZES)
def test_4_3_a_miss_is_marked_with_the_distance_to_the_nearest_segment(rows: int) -> None:
    """``Board.nearest`` (the loop a turn's misses run) is the least of ``Board.distance``."""
    board = Board(rows)
    rng = random.Random(rows)
    cells = list(board.cells())
    for _ in range(300):
        shot = rng.choice(cells)
        segments = rng.sample(cells, rng.randint(1, 12))
        assert board.nearest(shot, segments) == min(board.distance(shot, s) for s in segments)
