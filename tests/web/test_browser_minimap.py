"""The minimap of a big board (issue 43, item 3) in a real browser at 1280 and 390 px:
zoomed into a 250×250 live game's tiles, a small overview of the whole board shows the
part in view outlined; the outline follows the view as it pans, and a click on the
overview moves the view there. A board small enough for its one picture has none, and
without a script there is none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser import (
    BIG,
    Watched,
    _not_blank,
    _shots,
    browser,
    in_thread,
    needs_chromium,
    played_with_link,
)
from web_kit import play, served

__all__ = ["browser"]  # (the fixture, shared with test_browser)

pytestmark = needs_chromium

WIDTHS = [1280, 390]

NAME = "Overview of the whole board, the part in view outlined"

OUTLINE = """() => { const mini = document.querySelector('.minimap'),
    f = mini.querySelector('.inview').getBoundingClientRect(), m = mini.getBoundingClientRect(),
    left = m.left + mini.clientLeft, top = m.top + mini.clientTop;
    return [(f.left - left) / mini.clientWidth, (f.top - top) / mini.clientHeight,
            f.width / mini.clientWidth, f.height / mini.clientHeight]; }"""

IN_VIEW = """() => { const v = document.querySelector('.tiles'),
    p = document.querySelector('.plane').getBoundingClientRect();
    return [(v.scrollLeft + v.clientWidth / 2) / p.width,
            (v.scrollTop + v.clientHeight / 2) / p.height]; }"""


def _zoomed_in(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('.board img').complete")
    page.get_by_role("button", name="+").click()
    page.get_by_role("button", name="+").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.minimap img').length > 0 && "
        "Array.from(document.querySelectorAll('.minimap img, .tiles img.tile'))"
        ".every(t => t.complete && t.naturalWidth === 256)"
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_a_big_boards_minimap_follows_the_view_and_moves_it(
    browser: Any, tmp_path: Path, width: int
) -> None:
    database = tmp_path / "big.sqlite"
    in_thread(lambda: play(database, BIG, tmp_path / "scripts"))
    with served(database) as site:
        watched = Watched(browser, width=width, height=800)
        page = watched.page
        page.emulate_media(color_scheme="dark")
        page.goto(f"{site.base}/games/1")
        minimap = page.get_by_role("img", name=NAME)
        assert minimap.is_hidden()  # the whole board is in sight: nothing to outline
        _zoomed_in(page)
        assert minimap.is_visible()
        box = minimap.bounding_box()
        assert box["width"] <= (96 if width < 600 else 160) + 2  # small on a phone
        # out of the way: inside the map's frame, in its top right corner
        frame = page.locator(".tiles").bounding_box()
        assert box["x"] + box["width"] <= frame["x"] + frame["width"]
        assert box["x"] > frame["x"] + frame["width"] / 2
        # the tiles it is drawn from are the public board's, at the smallest scale
        sources = page.eval_on_selector_all(
            ".minimap img", "ts => ts.map(t => new URL(t.src).pathname)"
        )
        assert sources == ["/games/1/tiles/1-0/0/0/0.png"]
        before = page.evaluate(OUTLINE)
        assert 0 < before[2] < 1 and 0 < before[3] < 1
        # the view pans to the far right and bottom: the outline follows
        page.locator(".tiles").evaluate(
            "v => { v.scrollLeft = v.scrollWidth; v.scrollTop = v.scrollHeight; }"
        )
        page.wait_for_function(f"() => {{ const o = ({OUTLINE})(); return o[0] + o[2] > 0.98; }}")
        panned = page.evaluate(OUTLINE)
        assert abs(panned[0] + panned[2] - 1) < 0.02 and abs(panned[1] + panned[3] - 1) < 0.02
        dark = _shots(tmp_path) / f"minimap-{width}-dark.png"
        page.screenshot(path=str(dark))
        # a click on the overview's middle brings the board's middle into view
        minimap.click(position={"x": box["width"] * 0.5, "y": box["height"] * 0.5})
        page.wait_for_function(f"() => {{ const o = ({OUTLINE})(); return o[0] + o[2] < 0.98; }}")
        centre = page.evaluate(IN_VIEW)
        assert abs(centre[0] - 0.5) < 0.02 and abs(centre[1] - 0.5) < 0.02, centre
        moved = page.evaluate(OUTLINE)
        assert abs(moved[0] + moved[2] / 2 - 0.5) < 0.02, moved
        assert abs(moved[1] + moved[3] / 2 - 0.5) < 0.02, moved
        page.emulate_media(color_scheme="light")
        light = _shots(tmp_path) / f"minimap-{width}-light.png"
        page.screenshot(path=str(light))
        # folded away by its button, and back
        overview = page.get_by_role("button", name="Overview")
        assert overview.get_attribute("aria-pressed") == "true"
        overview.click()
        assert minimap.is_hidden() and overview.get_attribute("aria-pressed") == "false"
        overview.click()
        assert minimap.is_visible()
        page.get_by_role("button", name="Fit").click()
        assert minimap.is_hidden() and overview.is_hidden()
        watched.close()
    _not_blank(dark)
    _not_blank(light)
    assert watched.errors == []


def test_the_minimap_is_measured_again_when_the_window_changes(
    browser: Any, tmp_path: Path
) -> None:
    """A window narrowed to a phone's width (or a phone turned) gets the phone's small
    overview, drawn again at that size, and the wide one back when it widens."""
    database = tmp_path / "big.sqlite"
    in_thread(lambda: play(database, BIG, tmp_path / "scripts"))
    width = "() => document.querySelector('.minimap').getBoundingClientRect().width"
    with served(database) as site:
        watched = Watched(browser, width=1280, height=800)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        _zoomed_in(page)
        assert 158 <= page.evaluate(width) <= 162
        page.set_viewport_size({"width": 390, "height": 800})
        page.wait_for_function(f"() => ({width})() <= 98")
        page.wait_for_function(
            "() => { const ts = document.querySelectorAll('.minimap img');"
            " return ts.length > 0 && Array.from(ts).every(t => t.complete &&"
            " t.getBoundingClientRect().width < 100); }"
        )
        narrowed = page.evaluate(OUTLINE)
        assert 0 < narrowed[2] <= 1 and 0 < narrowed[3] <= 1
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function(f"() => ({width})() >= 158")
        watched.close()
    assert watched.errors == []


def test_a_small_board_has_no_minimap_and_no_script_none(browser: Any, tmp_path: Path) -> None:
    database = tmp_path / "small.sqlite"
    in_thread(lambda: play(database, BIG.replace("250x250", "12x12"), tmp_path / "small"))
    big = tmp_path / "big.sqlite"
    in_thread(lambda: play(big, BIG, tmp_path / "big"))
    with served(database) as site:
        watched = Watched(browser, width=390, height=800)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.wait_for_function("() => document.querySelector('.board img').complete")
        page.get_by_role("button", name="+").click()
        assert page.locator(".minimap").count() == 0
        assert page.get_by_role("button", name="Overview").count() == 0
        watched.close()
    assert watched.errors == []
    with served(big) as site:
        plain = browser.new_context(java_script_enabled=False)
        page = plain.new_page()
        page.goto(f"{site.base}/games/1")
        assert page.locator(".board img").is_visible()
        assert page.locator(".minimap").count() == 0
        assert page.get_by_role("button", name="Overview").count() == 0
        plain.close()


def test_a_players_minimap_draws_their_own_tiles(browser: Any, tmp_path: Path) -> None:
    """On ahab's private page the minimap is drawn from ahab's own tiles, under his link
    (the same view his tiles draw from), never from the public ones."""
    database = tmp_path / "big.sqlite"
    token = "ahab-minimap-token-0123456789abcdef"
    played_with_link(database, BIG, tmp_path / "scripts", token)
    with served(database) as site:
        watched = Watched(browser, width=390, height=844)
        page = watched.page
        fetched: list[str] = []
        page.on("response", lambda r: fetched.append(r.url))
        page.goto(f"{site.base}/p/{token}")
        _zoomed_in(page)
        assert page.get_by_role("img", name=NAME).is_visible()
        sources = page.eval_on_selector_all(
            ".minimap img", "ts => ts.map(t => new URL(t.src).pathname)"
        )
        assert sources == [f"/p/{token}/tiles/1-0/0/0/0.png"]
        assert not [url for url in fetched if "/games/1/tiles/" in url]
        watched.close()
    assert watched.errors == []
