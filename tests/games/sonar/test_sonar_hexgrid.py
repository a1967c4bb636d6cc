"""The hex board's geometry (shared/rules/sonar.md §2): centres, corners, the cell under a
point, and the size of a labelled board.

The neighbours below are the rules' six, wrapped as the rules wrap them (columns every
``2n``; leaving the top row up-right enters the bottom row ``n/2`` columns on): drawn, each
is one cell-width away on the picture's torus (the picture repeated left, right, up, down).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from renderers import style
from renderers.encode import png_bytes
from renderers.sonar import hexgrid
from renderers.sonar.hexgrid import HexCell, HexLayout


def sonar_neighbours(rows: int, cell: HexCell) -> list[HexCell]:
    """Rules §2: left, right, up-right, up-left, down-left, down-right, wrapped."""
    r, c = cell.row, cell.col
    steps = [(r, c - 1), (r, c + 1), (r + 1, c), (r + 1, c - 1), (r - 1, c), (r - 1, c + 1)]
    return [wrapped(rows, row, col) for row, col in steps]


def wrapped(rows: int, row: int, col: int) -> HexCell:
    """``(r + n, c)`` is ``(r, c + n/2)``; columns wrap every ``2n``."""
    while row >= rows:
        row, col = row - rows, col + rows // 2
    while row < 0:
        row, col = row + rows, col - rows // 2
    return HexCell(row, col % (2 * rows))


def torus_distance(layout: HexLayout, a: tuple[float, float], b: tuple[float, float]) -> float:
    across, down = layout.cols * layout.cell, layout.rows * layout.pitch
    return min(
        math.dist(a, (b[0] + i * across, b[1] + j * down)) for i in (-1, 0, 1) for j in (-1, 0, 1)
    )


@st.composite
def boards(draw: st.DrawFn) -> HexLayout:
    """A Sonar board (``n`` even, 4..24, twice as wide) at any scale and place."""
    rows = draw(st.integers(2, 12)) * 2
    return HexLayout(
        rows=rows,
        cols=2 * rows,
        cell=draw(st.floats(6.0, 80.0)),
        x0=draw(st.floats(0.0, 300.0)),
        y0=draw(st.floats(0.0, 300.0)),
        label_size=14,
    )


@st.composite
def board_and_cell(draw: st.DrawFn) -> tuple[HexLayout, HexCell]:
    layout = draw(boards())
    row = draw(st.integers(0, layout.rows - 1))
    return layout, HexCell(row, draw(st.integers(0, layout.cols - 1)))


@given(board_and_cell())
def test_the_cell_under_a_cells_centre_is_that_cell(case: tuple[HexLayout, HexCell]) -> None:
    layout, cell = case
    assert hexgrid.cell_at(layout, hexgrid.centre(layout, cell)) == cell


@given(board_and_cell(), st.floats(0.0, 2 * math.pi), st.floats(0.0, 0.99))
def test_every_point_inside_a_hexagon_is_that_cell(
    case: tuple[HexLayout, HexCell], angle: float, fraction: float
) -> None:
    layout, cell = case
    x, y = hexgrid.centre(layout, cell)
    reach = fraction * layout.cell / 2  # within the circle the hexagon's sides touch
    point = (x + reach * math.cos(angle), y + reach * math.sin(angle))
    assert hexgrid.cell_at(layout, point) == cell


@given(board_and_cell())
def test_2_neighbouring_centres_are_one_cell_width_apart(case: tuple[HexLayout, HexCell]) -> None:
    layout, cell = case
    here = hexgrid.centre(layout, cell)
    for neighbour in sonar_neighbours(layout.rows, cell):
        there = hexgrid.centre(layout, neighbour)
        assert torus_distance(layout, here, there) == pytest.approx(layout.cell), neighbour


@given(board_and_cell())
def test_the_corners_make_a_regular_pointy_top_hexagon(case: tuple[HexLayout, HexCell]) -> None:
    layout, cell = case
    x, y = hexgrid.centre(layout, cell)
    points = hexgrid.corners(layout, cell)
    assert len(points) == 6
    assert points[0] == pytest.approx((x, y - layout.radius))  # a corner on top
    for i, point in enumerate(points):
        assert math.dist(point, (x, y)) == pytest.approx(layout.radius)
        assert math.dist(point, points[(i + 1) % 6]) == pytest.approx(layout.radius)


@given(boards(), st.floats(0.5, 40.0))
def test_points_off_the_board_are_no_cell(layout: HexLayout, away: float) -> None:
    middle_y = layout.y0 + layout.height / 2
    middle_x = layout.x0 + layout.width / 2
    assert hexgrid.cell_at(layout, (layout.x0 - away, middle_y)) is None
    assert hexgrid.cell_at(layout, (layout.x0 + layout.width + away, middle_y)) is None
    assert hexgrid.cell_at(layout, (middle_x, layout.y0 - away)) is None
    assert hexgrid.cell_at(layout, (middle_x, layout.y0 + layout.height + away)) is None


def default_board() -> HexLayout:
    return hexgrid.plan_board(16, 32, cell=30.0, label_size=14)


def test_2_rows_start_where_the_rules_say_and_are_offset_by_half_a_cell() -> None:
    layout = default_board()
    # "the displayed window of row r starts at column 1 + floor((n-1-r)/2)": p1 top left,
    # a8 bottom left on the default board
    top_left = (layout.x0 + layout.cell, layout.y0 + layout.radius)
    bottom_left = (layout.x0 + layout.cell / 2, layout.y0 + layout.height - layout.radius)
    assert str(hexgrid.cell_at(layout, top_left)) == "p1"
    assert str(hexgrid.cell_at(layout, bottom_left)) == "a8"
    p1, o1 = hexgrid.centre(layout, HexCell(15, 0)), hexgrid.centre(layout, HexCell(14, 0))
    assert p1[0] - o1[0] == pytest.approx(layout.cell / 2)
    assert o1[1] - p1[1] == pytest.approx(layout.pitch)


def test_2_up_right_of_p27_is_a3_straight_across_the_top_edge() -> None:
    layout = default_board()
    p27 = hexgrid.centre(layout, HexCell(15, 26))
    a3 = hexgrid.centre(layout, HexCell(0, 2))
    # a3 drawn one row above p27 (the picture repeated upwards) is up-right of it
    above = (a3[0], a3[1] - layout.rows * layout.pitch)
    assert above[0] - p27[0] == pytest.approx(layout.cell / 2)
    assert p27[1] - above[1] == pytest.approx(layout.pitch)


@pytest.mark.parametrize(("rows", "cell"), [(4, 24.0), (16, 30.0), (24, 19.5)])
def test_the_labelled_board_fits_its_size(rows: int, cell: float) -> None:
    cols = 2 * rows
    width, height = hexgrid.board_size(rows, cols, cell=cell, label_size=12)
    layout = hexgrid.plan_board(rows, cols, cell=cell, label_size=12)
    side, edge = hexgrid.margins(rows, 12)
    assert width >= layout.x0 + layout.width + side
    assert height >= layout.y0 + layout.height + edge
    for row in range(rows):
        for col in range(cols):
            for x, y in hexgrid.corners(layout, HexCell(row, col)):
                assert side - 1e-9 <= x <= width - side + 1e-9
                assert edge - 1e-9 <= y <= height - edge + 1e-9


def test_plain_hex_grid_draws_water_under_every_centre_and_labels_in_the_margins() -> None:
    image = hexgrid.plain_hex_grid(16, 32, cell=30.0, label_size=14)
    assert image.size == hexgrid.board_size(16, 32, cell=30.0, label_size=14)
    layout = default_board()
    for row in range(16):
        for col in range(32):
            x, y = hexgrid.centre(layout, HexCell(row, col))
            # every other column a lighter stripe: the slanted columns read at a glance
            water = hexgrid.WATER_STRIPE if col % 2 else style.WATER
            assert image.getpixel((round(x), round(y))) == water
    # something (the labels) was drawn in each margin, which is background otherwise
    left = image.crop((0, 0, round(layout.x0), image.height))
    top = image.crop((0, 0, image.width, round(layout.y0)))
    for margin in (left, top):
        assert margin.getcolors(1 << 16) != [(margin.width * margin.height, style.BACKGROUND)]
    assert png_bytes(image) == png_bytes(hexgrid.plain_hex_grid(16, 32, cell=30.0, label_size=14))


def test_cells_print_as_sonar_names_them() -> None:
    assert [str(HexCell(5, 14)), str(HexCell(0, 8))] == ["f15", "a9"]


def test_each_row_is_labelled_with_the_names_of_its_end_cells() -> None:
    """A player counts along a row from the cell named at its end: on the default board
    the top row runs p1 … p32 and the bottom one a8 … a7 (rules §2: the drawn window of
    row r starts at column 1 + floor((n-1-r)/2))."""
    assert hexgrid.end_labels(16, 32, 15) == ("p1", "p32")
    assert hexgrid.end_labels(16, 32, 0) == ("a8", "a7")
    assert hexgrid.end_labels(12, 24, 7) == ("h3", "h2")
    layout = hexgrid.plan_board(12, 24, cell=40.0, label_size=18)
    for row in range(12):
        first, last = hexgrid.end_labels(12, 24, row)
        leftmost = min(range(24), key=lambda col: hexgrid.centre(layout, HexCell(row, col))[0])
        rightmost = max(range(24), key=lambda col: hexgrid.centre(layout, HexCell(row, col))[0])
        assert (str(HexCell(row, leftmost)), str(HexCell(row, rightmost))) == (first, last)
