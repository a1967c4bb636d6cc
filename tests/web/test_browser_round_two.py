"""The web page's second round (issue 43) in a real browser at 1280 and 390 px: a live
update keeps what the reader had (zoom, scroll, the open Rules, focus) and announces the
new turn politely; zoom to a point; the turn list and keys; link previews."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from host_fakes import HostKit
from test_browser import (
    BIG,
    Watched,
    _resolve,
    battle,
    browser,
    in_thread,
    needs_chromium,
    played_with_link,
)
from test_pages import ENDED
from web_kit import play, served

__all__ = ["battle", "browser"]  # (the fixtures, shared with test_browser)

pytestmark = needs_chromium

WIDTHS = [1280, 390]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_live_update_keeps_the_readers_state_and_announces_the_turn(
    browser: Any, battle: HostKit, width: int
) -> None:
    with served(battle.db_path, live_interval=0.1) as site:
        watched = Watched(browser, width=width, height=700)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        page.locator("details:not(.turns) summary").click()  # the Rules, open
        page.locator("[data-in]").first.click()  # the small board, zoomed
        page.locator("[data-in]").first.click()
        page.evaluate("() => window.scrollTo(0, 200)")
        page.get_by_role("link", name="‹ Previous").focus()
        before = page.evaluate(
            "() => [window.scrollY, document.querySelector('.board img').style.width]"
        )
        page.wait_for_timeout(300)  # the event stream is open
        in_thread(lambda: _resolve(battle, ("bob", "#bst B3")))
        page.wait_for_function(
            "() => document.querySelector('nav.steps strong').textContent === 'Turn 3'",
            timeout=10_000,
        )
        after = page.evaluate(
            "() => [window.scrollY, document.querySelector('.board img').style.width]"
        )
        assert after == before and before[1] != ""
        assert page.locator("details:not(.turns)").evaluate("d => d.open")
        assert not page.locator("details.turns").evaluate("d => d.open")
        assert page.evaluate("() => document.activeElement.textContent") == "‹ Previous"
        said = page.locator("[data-announce]")
        assert said.get_attribute("aria-live") == "polite"
        assert said.inner_text() == "Updated: Turn 3"
        shots = os.environ.get("BST_WEB_SCREENSHOTS")
        if shots:
            page.screenshot(path=f"{shots}/live-kept-{width}.png")
        watched.close()
    assert watched.errors == []


def _fraction_at(page: Any, x: float, y: float) -> list[float]:
    """Where (x, y) on screen falls on the small board's picture, as fractions of it."""
    return list(
        page.evaluate(
            """([x, y]) => { const r = document.querySelector('.board img')
                .getBoundingClientRect(); return [(x - r.left) / r.width, (y - r.top) / r.height]; }""",
            [x, y],
        )
    )


def _pinch(page: Any, selector: str, x: float, y: float, ratio: float) -> None:
    """Two fingers around (x, y) spread (ratio > 1) or closed, as touch events."""
    page.evaluate(
        """([selector, x, y, ratio]) => {
          const el = document.querySelector(selector);
          const touch = (id, dx) => new Touch({identifier: id, target: el,
            clientX: x + dx, clientY: y});
          const fire = (type, d) => el.dispatchEvent(new TouchEvent(type, {bubbles: true,
            cancelable: true, touches: type === 'touchend' ? [] :
            [touch(1, -d), touch(2, d)], changedTouches: [touch(1, -d), touch(2, d)]}));
          fire('touchstart', 40); fire('touchmove', 40 * ratio); fire('touchend', 40 * ratio);
        }""",
        [selector, x, y, ratio],
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_double_tap_pinch_and_plus_zoom_to_a_point(
    browser: Any, battle: HostKit, width: int
) -> None:
    with served(battle.db_path) as site:
        watched = Watched(browser, width=width, height=800)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.wait_for_function("() => document.querySelector('.board img').complete")
        box = page.locator(".board img").bounding_box()
        x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.6
        before = _fraction_at(page, x, y)
        page.mouse.dblclick(x, y)
        after = _fraction_at(page, x, y)
        wider = page.locator(".board img").bounding_box()["width"]
        assert wider > box["width"] * 1.5
        assert abs(after[0] - before[0]) < 0.02 and abs(after[1] - before[1]) < 0.02
        # "+" zooms at the middle of what is in sight, which stays put
        middle = page.evaluate(
            """() => { const r = document.querySelector('.board').getBoundingClientRect();
              return [(Math.max(r.left, 0) + Math.min(r.right, innerWidth)) / 2,
                      (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2]; }"""
        )
        centre = _fraction_at(page, *middle)
        page.locator("[data-in]").first.click()
        moved = _fraction_at(page, *middle)
        assert abs(moved[0] - centre[0]) < 0.02 and abs(moved[1] - centre[1]) < 0.02
        # two fingers closing zoom back out about their middle
        page.locator("[data-fit]").first.click()
        _pinch(page, ".board", x, y, 2.0)
        assert page.locator(".board img").bounding_box()["width"] > box["width"] * 1.5
        pinched = _fraction_at(page, x, y)
        assert abs(pinched[0] - before[0]) < 0.02 and abs(pinched[1] - before[1]) < 0.02
        watched.close()
    assert watched.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_go_to_the_last_shots_on_a_big_board(browser: Any, tmp_path: Path, width: int) -> None:
    database = tmp_path / "big.sqlite"
    in_thread(lambda: play(database, BIG, tmp_path / "scripts"))
    with served(database) as site:
        watched = Watched(browser, width=width, height=800)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.wait_for_function("() => document.querySelector('.board img').complete")
        page.get_by_role("button", name="Go to the last shots").click()
        page.wait_for_function(
            "() => document.querySelectorAll('.tiles img.tile').length > 0 && "
            "Array.from(document.querySelectorAll('.tiles img.tile')).every(t => t.complete)"
        )
        # F3 (row 5, column 2) in sight, at 16 pixels a cell or more
        seen = page.evaluate(
            """() => { const v = document.querySelector('.tiles');
              const cell = parseFloat(document.querySelector('.plane').style.width) / 250;
              return [cell, v.scrollLeft <= 2 * cell && 3 * cell <= v.scrollLeft + v.clientWidth,
                      v.scrollTop <= 5 * cell && 6 * cell <= v.scrollTop + v.clientHeight]; }"""
        )
        assert seen[0] >= 16 and seen[1] and seen[2]
        assert page.get_by_role("button", name="Go to my ships").count() == 0  # public
        watched.close()
    assert watched.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_arrow_keys_and_jump_to_a_turn(browser: Any, battle: HostKit, width: int) -> None:
    with served(battle.db_path) as site:
        watched = Watched(browser, width=width, height=800)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.keyboard.press("ArrowLeft")
        page.wait_for_url(f"{site.base}/games/1/turn/1")
        assert page.title() == "#bst game 1, turn 1"
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"{site.base}/games/1/turn/2")
        jump = page.get_by_label("Go to turn")
        jump.fill("0")
        jump.press("Enter")
        page.wait_for_url(f"{site.base}/games/1/turn/0")
        page.locator("details.turns summary").click()
        current = page.locator('ol.turns a[aria-current="page"]')
        assert current.inner_text() == "Turn 0"
        assert page.locator("ol.turns li").count() == 3
        width_now = page.evaluate("() => document.documentElement.scrollWidth")
        assert width_now <= width  # nothing widens the page
        watched.close()
    assert watched.errors == []


LONG = "captainwithaverylongnameabcdefgh"  # 32 characters, no space to wrap at


def test_a_32_character_name_does_not_widen_a_phones_page(browser: Any, tmp_path: Path) -> None:
    database = tmp_path / "long.sqlite"
    script = (
        "@game bst size=10x10 turn=8h\n"
        f"{LONG} public: #bst join\n"
        f"{LONG} dm: sub: A2\\ncarrier: C1-C5\n"
        "nemo dm: join\nnemo dm: cruiser: F1-F3, cruiser: J8-J10\n"
        f"@start\n{LONG} public: #bst F3\n@close\n"
    )
    token = "long-name-token-0123456789abcdefghij"
    played_with_link(database, script, tmp_path / "scripts", token, LONG)
    with served(database) as site:
        watched = Watched(browser, width=390, height=800)
        page = watched.page
        for path in ("/games/1", "/games/1/turn/0", f"/p/{token}"):
            page.goto(f"{site.base}{path}")
            assert LONG in page.content()
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, path
        watched.close()
    assert watched.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_finished_games_pages_in_the_browser(browser: Any, tmp_path: Path, width: int) -> None:
    """A player's page holds the public report and their own; the replay plays inline
    from byte ranges with a poster; a turn's page names one turn; a preview is there
    (items 1, 2, 6, 11)."""
    database = tmp_path / "ended.sqlite"
    token = "ahab-finished-token-0123456789abcdef"
    played_with_link(database, ENDED, tmp_path / "scripts", token)
    with served(database, site_url="https://bst.example.org") as site:
        watched = Watched(browser, width=width, height=900)
        page = watched.page
        page.goto(f"{site.base}/p/{token}/turn/1")
        main = page.locator("main").inner_text()
        assert "Shots: ahab hit F3." in main and "What you see" in main
        page.goto(f"{site.base}/games/1/turn/1")
        assert page.title() == "#bst game 1, turn 1"
        assert page.locator("h2").first.inner_text() == "Turn 1"
        assert page.locator("nav.steps strong").inner_text() == "Turn 1"
        image = page.locator('meta[property="og:image"]').get_attribute("content")
        assert image == "https://bst.example.org/games/1/map/1-0.png"
        page.goto(f"{site.base}/games/1")
        video = page.locator("video").last
        assert video.get_attribute("playsinline") is not None
        poster = video.get_attribute("poster")
        assert poster and page.evaluate("(src) => fetch(src).then(r => r.status)", poster) == 200
        ranged = page.evaluate(
            """(src) => fetch(src, {headers: {Range: 'bytes=0-1'}})
                 .then(r => [r.status, r.headers.get('Content-Range')])""",
            video.get_attribute("src"),
        )
        assert ranged[0] == 206 and ranged[1].startswith("bytes 0-1/")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        shots = os.environ.get("BST_WEB_SCREENSHOTS")
        if shots:
            page.screenshot(path=f"{shots}/finished-{width}.png", full_page=True)
        watched.close()
    assert watched.errors == []


def test_go_to_my_ships_on_a_players_big_board(browser: Any, tmp_path: Path) -> None:
    database = tmp_path / "big.sqlite"
    token = "ahab-go-to-ships-token-0123456789ab"
    played_with_link(database, BIG, tmp_path / "scripts", token)
    with served(database) as site:
        watched = Watched(browser, width=390, height=844)
        page = watched.page
        page.goto(f"{site.base}/p/{token}")
        page.wait_for_function("() => document.querySelector('.board img').complete")
        spots = page.locator("[data-goto]").last.get_attribute("data-goto")
        page.get_by_role("button", name="Go to my ships").click()
        page.wait_for_function("() => document.querySelectorAll('.tiles img.tile').length > 0")
        # the middle of ahab's ships (the cells his own text names) is in sight
        seen = page.evaluate(
            """(spots) => { const v = document.querySelector('.tiles');
              const cell = parseFloat(document.querySelector('.plane').style.width) / 250;
              const rows = [], cols = [];
              spots.split(' ').forEach(s => { const p = s.split(','); rows.push(+p[0]);
                cols.push(+p[1]); });
              const mid = a => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
              const x = (mid(cols) + 0.5) * cell, y = (mid(rows) + 0.5) * cell;
              return v.scrollLeft <= x && x <= v.scrollLeft + v.clientWidth &&
                     v.scrollTop <= y && y <= v.scrollTop + v.clientHeight; }""",
            spots,
        )
        assert spots and seen
        assert "/p/" in page.locator(".tiles img.tile").first.get_attribute("src")
        watched.close()
    assert watched.errors == []
