"""A board too big for one picture is served in tiles at several scales (issue 28):
``/games/N/tiles/T-S/LEVEL/X/Y.png``, each a 256-pixel square drawn by the renderers
from the public view, kept and served with an ETag (never drawn twice); addresses
beyond the board, or of a board shown whole in one picture, answer the one 404."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image
from web_kit import Served, play, served

from bot.store import Store
from bot.store.links import issue_link, renew_link
from bot.web.site import NOT_FOUND
from bot.wiring import sqlite_url
from renderers import style

BIG = """\
@game bst size=250x250 turn=8h
ahab dm: join
ahab dm: random
nemo dm: join
nemo dm: random
@start
ahab public: #bst F3
nemo public: #bst B2
@close
"""

SMALL = """\
@game bst size=10x10 turn=8h
ahab dm: join
ahab dm: random
nemo dm: join
nemo dm: random
@start
"""

_TILES = re.compile(
    r'data-tiles="([^"]+)" data-rows="(\d+)" data-cols="(\d+)" data-tile="(\d+)" '
    r'data-cells="([0-9,]+)"'
)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big")
    database = folder / "big.sqlite"
    play(database, BIG, folder / "scripts")
    return database


def _tiles_of(site: Served, path: str = "/games/1") -> tuple[str, int, int, int, list[int]]:
    found = _TILES.search(site.get(path).text)
    assert found, "the page offers no tiles"
    src, rows, cols, tile, cells = found.groups()
    return src, int(rows), int(cols), int(tile), [int(c) for c in cells.split(",")]


def test_a_big_boards_page_offers_tiles_at_several_scales(big: Path) -> None:
    with served(big) as site:
        src, rows, cols, tile, cells = _tiles_of(site)
        assert src == "/games/1/tiles/1-0"  # the newest step's board
        assert (rows, cols, tile) == (250, 250, 256)
        assert cells == [1, 2, 4, 8, 16, 32, 64]
        # Without JavaScript the one picture is still there.
        assert re.search(
            r'<div class="board"[^>]*><img src="/games/1/map/1-0\.png"', site.get("/games/1").text
        )
        for level, cell in enumerate(cells):
            across = -(-cols * cell // tile)
            last = site.get(f"{src}/{level}/{across - 1}/{across - 1}.png")
            assert last.status == 200 and last.headers["Content-Type"] == "image/png"
            with Image.open(io.BytesIO(last.body)) as image:
                assert image.size == (256, 256)
            beyond = site.get(f"{src}/{level}/{across}/0.png")
            assert (beyond.status, beyond.body) == (404, NOT_FOUND)
        for wrong in ("7/0/0.png", "0/0/0.gif", "-1/0/0.png", "0/0/x.png"):
            answer = site.get(f"{src}/{wrong}")
            assert (answer.status, answer.body) == (404, NOT_FOUND), wrong
        assert site.get("/games/1/tiles/9-0/0/0/0.png").status == 404  # no such step
        assert site.get("/games/7/tiles/1-0/0/0/0.png").status == 404  # no such game


def test_a_tile_is_drawn_once_and_kept_with_its_etag(big: Path) -> None:
    with served(big) as site:
        src = _tiles_of(site)[0]
        pictures = site.server.app_site.pictures
        before = pictures.drawn
        first = site.get(f"{src}/5/1/2.png")
        assert pictures.drawn == before + 1
        again = site.get(f"{src}/5/1/2.png")
        assert again.body == first.body and pictures.drawn == before + 1  # not drawn again
        etag = first.headers["ETag"]
        assert "immutable" in first.headers["Cache-Control"]
        cached = site.get(f"{src}/5/1/2.png", headers={"If-None-Match": etag})
        assert cached.status == 304 and cached.body == b""


def test_a_shot_shows_on_its_tile_at_every_scale(big: Path) -> None:
    """ahab shot F3 (row 5, column 2): at every scale from 4 pixels a cell, the middle of
    that cell on its tile is a shot's mark, not water."""
    water = {style.WATER, style.WATER_ALT}
    with served(big) as site:
        src = _tiles_of(site)[0]
        for level in range(2, 7):
            cell = 1 << level
            middle_x, middle_y = 2 * cell + cell // 2, 5 * cell + cell // 2
            x, y = middle_x // 256, middle_y // 256
            tile = site.get(f"{src}/{level}/{x}/{y}.png").body
            with Image.open(io.BytesIO(tile)) as image:
                pixel = image.convert("RGB").getpixel((middle_x % 256, middle_y % 256))
            assert pixel not in water, (level, pixel)


def test_a_board_shown_whole_in_one_picture_has_no_tiles(tmp_path: Path) -> None:
    database = tmp_path / "small.sqlite"
    play(database, SMALL, tmp_path / "scripts")
    with served(database) as site:
        page = site.get("/games/1").text
        assert 'data-tiles="' not in page and "data-zoom" in page
        answer = site.get("/games/1/tiles/0-0/0/0/0.png")
        assert (answer.status, answer.body) == (404, NOT_FOUND)


def _link(database: Path, name: str, token: str, *, renew: bool = False) -> str:
    store = Store(sqlite_url(database))
    try:
        with store.transaction() as tx:
            [key] = [p.key for p in tx.players(1) if p.name == name]
            give = renew_link if renew else issue_link
            return give(tx, 1, key, token=token, now=0.0)
    finally:
        store.dispose()


def test_a_players_own_page_of_a_big_board_pans_and_zooms_their_own_tiles(
    tmp_path: Path,
) -> None:
    """The private page of a big board offers the holder's own board in tiles, under
    their link: drawn once and kept (ETag, 304), sent as the private page is (noindex,
    no referrer, the strict policy, never stored by a shared cache); a wrong or revoked
    token, or a tile off the board, answers the one 404 and draws nothing."""
    database = tmp_path / "big.sqlite"
    play(database, BIG, tmp_path / "scripts")
    old = _link(database, "ahab", "ahab-old-token-0123456789abcdef")
    token = _link(database, "ahab", "ahab-new-token-0123456789abcdef", renew=True)
    with served(database) as site:
        src, rows, cols, tile, cells = _tiles_of(site, f"/p/{token}")
        assert src == f"/p/{token}/tiles/1-0"
        assert (rows, cols, tile) == (250, 250, 256) and cells == [1, 2, 4, 8, 16, 32, 64]
        pictures = site.server.app_site.pictures
        before = pictures.drawn
        first = site.get(f"{src}/0/0/0.png")
        assert first.status == 200 and first.headers["Content-Type"] == "image/png"
        assert pictures.drawn == before + 1
        with Image.open(io.BytesIO(first.body)) as image:
            assert image.size == (256, 256)
        # ahab's own fleet is on it: the whole board at a pixel a cell differs from the
        # public one, which shows no live ship
        assert first.body != site.get("/games/1/tiles/1-0/0/0/0.png").body
        assert first.headers["X-Robots-Tag"] == "noindex, nofollow"
        assert first.headers["Referrer-Policy"] == "no-referrer"
        assert first.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert first.headers["Cache-Control"] == "private, no-cache"
        cached = site.get(f"{src}/0/0/0.png", headers={"If-None-Match": first.headers["ETag"]})
        assert cached.status == 304 and cached.body == b""
        assert site.get(f"{src}/0/0/0.png").body == first.body
        drawn = pictures.drawn
        assert drawn == before + 2  # (the public tile) and not ahab's again
        for wrong in (
            f"/p/{old}/tiles/1-0/0/0/0.png",
            "/p/not-a-token/tiles/1-0/0/0/0.png",
            f"{src}/0/1/0.png",
            f"/p/{token}/tiles/9-0/0/0/0.png",
        ):
            answer = site.get(wrong)
            assert (answer.status, answer.body) == (404, NOT_FOUND), wrong
        assert pictures.drawn == drawn
