"""Directions on a square board are stated once (issue 32, ``bot/games/grid.py``): bst, Sugar
Dog and U-Boat Shootout step with the same ``Direction``, each numbering its rows its own way —
Sugar Dog from the bottom (``A1`` bottom-left), U-Boat and bst from the top — so ``up`` is
toward the top of the picture in all three."""

from __future__ import annotations

import pytest

from bot.games import grid
from bot.games.bst import fleet as bst_fleet
from bot.games.bst.cells import parse_cell as bst_cell
from bot.games.bst.fleet import Orientation, axis_of
from bot.games.bst.movement import shifted
from bot.games.grid import Direction, Rows
from bot.games.sugardog import board as sugardog_board
from bot.games.sugardog.board import parse_cell as sugardog_cell
from bot.games.uboat import cells as uboat_cells
from bot.games.uboat.cells import Sea
from bot.games.uboat.cells import parse_cell as uboat_cell


def test_both_games_step_with_the_one_direction() -> None:
    assert sugardog_board.Direction is grid.Direction
    assert uboat_cells.Direction is grid.Direction
    assert bst_fleet.Direction is grid.Direction
    assert (sugardog_board.ROWS, uboat_cells.ROWS) == (Rows.FROM_BOTTOM, Rows.FROM_TOP)
    assert bst_fleet.ROWS is Rows.FROM_TOP


def test_directions_keep_their_words_and_order() -> None:
    # The records and orders write these words; the robots choose among them in this order.
    assert [d.value for d in Direction] == ["up", "down", "left", "right"]
    assert [d.letter for d in Direction] == ["u", "d", "l", "r"]


@pytest.mark.parametrize(
    ("direction", "delta", "opposite"),
    [
        (Direction.UP, (0, 1), Direction.DOWN),
        (Direction.DOWN, (0, -1), Direction.UP),
        (Direction.LEFT, (-1, 0), Direction.RIGHT),
        (Direction.RIGHT, (1, 0), Direction.LEFT),
    ],
)
def test_a_direction_is_dx_dy_toward_the_right_and_the_top(
    direction: Direction, delta: tuple[int, int], opposite: Direction
) -> None:
    assert direction.delta == delta
    assert direction.opposite is opposite


def test_rows_numbered_from_the_top_turn_a_step_up_into_the_row_before() -> None:
    assert Rows.FROM_BOTTOM.offset(Direction.UP) == (0, 1)
    assert Rows.FROM_TOP.offset(Direction.UP) == (0, -1)
    assert Rows.FROM_TOP.offset(Direction.RIGHT) == Rows.FROM_BOTTOM.offset(Direction.RIGHT)


@pytest.mark.parametrize(
    ("direction", "sugardog", "uboat", "bst"),
    [
        (Direction.UP, "C5", "C3", "B3"),
        (Direction.DOWN, "C3", "C5", "D3"),
        (Direction.LEFT, "B4", "B4", "C2"),
        (Direction.RIGHT, "D4", "D4", "C4"),
    ],
)
def test_each_game_steps_as_its_rules_say(
    direction: Direction, sugardog: str, uboat: str, bst: str
) -> None:
    """Sugar Dog rules §1: rows numbered from the bottom. U-Boat rules §1: rows numbered from
    the top. bst rules §1: rows lettered from the top, columns numbered from the left."""
    assert sugardog_cell("C4").step(direction) == sugardog_cell(sugardog)
    sea = Sea(9, frozenset())
    assert sea.step(uboat_cell("C4"), direction) == uboat_cell(uboat)
    assert shifted((bst_cell("C3"),), direction) == (bst_cell(bst),)


def test_a_bst_ship_moves_along_its_own_line() -> None:
    assert [axis_of(d) for d in Direction] == [Orientation.VERTICAL] * 2 + [
        Orientation.HORIZONTAL
    ] * 2


def test_uboat_steps_still_wrap() -> None:
    sea = Sea(9, frozenset())
    assert sea.step(uboat_cell("A1"), Direction.UP) == uboat_cell("A9")
    assert sea.step(uboat_cell("A1"), Direction.LEFT) == uboat_cell("I1")
