"""A big board in tiles (issue 28, :mod:`renderers.tiles`): each tile a pure function
of the public view and its rectangle, drawn with the map's own marks."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image
from render_views import big_public, small_public

from renderers import style
from renderers.bst import TILES
from renderers.bst.tiles import draw_public_tile
from renderers.tiles import LEVELS, TILE, TileRect, on_board, tile_counts


def test_only_a_board_too_big_for_the_one_pictures_detail_is_tiled() -> None:
    assert TILES.board_size(small_public()) is None
    assert TILES.board_size(big_public()) == (250, 250)
    assert TILES.board_size(big_public(rows=1000, cols=1000, shots=10)) == (1000, 1000)


def test_the_tiles_of_each_scale_cover_the_board_and_no_more() -> None:
    assert [tile_counts(250, 250, level) for level in range(LEVELS)] == [
        (1, 1), (2, 2), (4, 4), (8, 8), (16, 16), (32, 32), (63, 63)
    ]  # fmt: skip
    assert tile_counts(1000, 999, 6) == (250, 250)
    assert on_board(250, 250, TileRect(6, 62, 62))
    assert not on_board(250, 250, TileRect(6, 63, 0))
    assert not on_board(250, 250, TileRect(7, 0, 0))
    assert not on_board(250, 250, TileRect(0, -1, 0))


def test_same_view_and_tile_same_bytes_and_every_tile_is_a_full_square() -> None:
    view = big_public()
    for rect in (TileRect(0, 0, 0), TileRect(3, 7, 7), TileRect(6, 62, 0)):
        png = TILES.public_tile(view, rect)
        assert png == TILES.public_tile(dataclasses.replace(view), rect)
        with Image.open(io.BytesIO(png)) as image:
            assert image.size == (TILE, TILE)


def test_a_tile_shows_a_wreck_and_a_shot_where_the_map_puts_them() -> None:
    view = big_public(shots=0)
    # the first wreck: row 10, columns 20-22; at 32 pixels a cell, tile (2, 1) holds it
    empty = draw_public_tile(dataclasses.replace(view, wrecks=()), TileRect(5, 2, 1))
    wrecked = draw_public_tile(view, TileRect(5, 2, 1))
    x, y = 21 * 32 + 16 - 2 * TILE, 10 * 32 + 16 - TILE
    assert empty.getpixel((x, y)) in (style.WATER, style.WATER_ALT)
    assert wrecked.getpixel((x, y)) not in (style.WATER, style.WATER_ALT)
    # beyond the board's edge: the background, not water
    edge = draw_public_tile(view, TileRect(6, 62, 62))
    assert edge.getpixel((TILE - 1, TILE - 1)) == style.BACKGROUND


def _has_label_ink(tile: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether a label's letters colour a pixel of ``box`` (their edges are smoothed)."""
    left, top, right, bottom = box

    def ink(pixel: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 24 for a, b in zip(pixel, style.LABEL, strict=True))

    return any(ink(tile.getpixel((x, y))) for x in range(left, right) for y in range(top, bottom))


def test_a_label_on_a_tiles_edge_runs_on_into_the_next_tile() -> None:
    view = big_public(shots=0)  # (no shot's light marker where the labels are looked for)
    # At 8 pixels a cell, column 159 ("160") is the last of tile x=4, centred 4 pixels
    # from its right edge: its last digit is drawn on tile x=5, at its left edge.
    assert _has_label_ink(draw_public_tile(view, TileRect(3, 4, 1)), (TILE - 8, 0, TILE, 16))
    assert _has_label_ink(draw_public_tile(view, TileRect(3, 5, 1)), (0, 0, 6, 16))
    # Row 159 is the last of tile y=4: its letters run onto the top of tile y=5.
    assert _has_label_ink(draw_public_tile(view, TileRect(3, 1, 4)), (0, TILE - 6, 24, TILE))
    assert _has_label_ink(draw_public_tile(view, TileRect(3, 1, 5)), (0, 0, 24, 4))
