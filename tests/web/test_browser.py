"""The web page in a real browser: Debian's Chromium, headless, driven by Playwright
through ``executable_path`` (no browser download), over a real socket on 127.0.0.1.

Playwright rather than Selenium: one Python package drives the system browser with no
separate driver binary to match to Chromium's version, and it waits for pages and
elements itself (no sleeps), which keeps each test to a few seconds.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from threading import Thread
from typing import Any

import pytest
from host_fakes import HostKit
from PIL import Image
from web_kit import play, served

from bot.store import Store
from bot.store.links import issue_link
from bot.wiring import sqlite_url

_NO_PLAYWRIGHT = "Playwright is not installed (pip install -e '.[test]')"
sync_api = pytest.importorskip("playwright.sync_api", reason=_NO_PLAYWRIGHT)

CHROMIUM = os.environ.get("BST_TEST_CHROMIUM") or shutil.which("chromium") or ""
needs_chromium = pytest.mark.skipif(
    not CHROMIUM,
    reason="no Chromium browser (apt-get install chromium, as .ci/run does): "
    "the browser tests need the system's chromium",
)
pytestmark = needs_chromium

BASE = "https://bst.example.org"
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


class Watched:
    """A page whose console errors and uncaught exceptions are kept."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self) -> None:
        self.context.close()


def in_thread(work: Callable[[], object]) -> None:
    """Run ``work`` (which runs its own event loop) off this thread, where Playwright's
    synchronous API keeps a loop running."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:
            failures.append(error)

    thread = Thread(target=run)
    thread.start()
    thread.join(60)
    if failures:
        raise failures[0]


def played_with_link(
    database: Path, script: str, folder: Path, token: str, name: str = "ahab"
) -> None:
    """``script`` played into ``database`` (its scripts kept in ``folder``), then
    ``name``'s private link to game 1 issued as ``token``."""
    in_thread(lambda: play(database, script, folder))

    def link() -> None:
        store = Store(sqlite_url(database))
        try:
            with store.transaction() as tx:
                [key] = [p.key for p in tx.players(1) if p.name == name]
                issue_link(tx, 1, key, token=token, now=0.0)
        finally:
            store.dispose()

    in_thread(link)


def _resolve(kit: HostKit, *said: tuple[str, str]) -> None:
    for user, text in said:
        kit.say(user, text)
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.flush()


@pytest.fixture
def battle(tmp_path: Path) -> Iterator[HostKit]:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE

    def setup() -> None:
        kit.two_player_battle("size=10x10 turn=8h reach=all")
        _resolve(kit, ("alice", "#bst F3"), ("bob", "#bst A2"))
        _resolve(kit, ("alice", "#bst G3"))

    in_thread(setup)
    yield kit
    kit.store.dispose()


def _shots(fallback: Path) -> Path:
    """Where screenshots go: $BST_WEB_SCREENSHOTS (to look at them), else the test's
    temporary folder."""
    shots = Path(os.environ.get("BST_WEB_SCREENSHOTS", str(fallback)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _not_blank(path: Path) -> None:
    with Image.open(path) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 20, f"{path} looks blank ({len(colours)} colours)"


def test_the_history_steps_back_and_forth(browser: Any, battle: HostKit) -> None:
    with served(battle.db_path) as site:
        watched = Watched(browser)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        assert page.locator("nav.steps strong").inner_text() == "Turn 2"
        page.get_by_role("link", name="‹ Previous").click()
        page.wait_for_url(f"{site.base}/games/1/turn/1")
        assert page.locator("nav.steps strong").inner_text() == "Turn 1"
        page.get_by_role("link", name="« First").click()
        page.wait_for_url(f"{site.base}/games/1/turn/0")
        page.get_by_role("link", name="Last »").click()
        page.wait_for_url(f"{site.base}/games/1/turn/2")
        image = page.locator(".board img")
        assert image.evaluate("img => img.complete && img.naturalWidth > 0")
        watched.close()
    assert watched.errors == []


def test_a_resolved_turn_appears_without_a_reload(browser: Any, battle: HostKit) -> None:
    with served(battle.db_path, live_interval=0.1) as site:
        watched = Watched(browser)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        page.evaluate("() => { window.stillHere = true; }")  # gone if the page reloads
        page.wait_for_timeout(300)  # the event stream is open
        in_thread(lambda: _resolve(battle, ("bob", "#bst B3")))
        page.wait_for_function(
            "() => document.querySelector('nav.steps strong').textContent === 'Turn 3'",
            timeout=10_000,
        )
        assert page.evaluate("() => window.stillHere === true")
        assert "Shots: bob" in page.locator("ul.report").inner_text()
        watched.close()
    assert watched.errors == []


def _tiles_shown(page: Any) -> list[str]:
    """The addresses of the tiles loaded (complete, with pixels) in the tile view."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.tiles img.tile'))
             .filter(t => t.complete && t.naturalWidth === 256)
             .map(t => new URL(t.src).pathname)"""
    )


def test_a_250_by_250_board_zooms_into_tiles_and_pans_on_a_phone(
    browser: Any, tmp_path: Path
) -> None:
    database = tmp_path / "big.sqlite"
    in_thread(lambda: play(database, BIG, tmp_path / "scripts"))
    with served(database) as site:
        watched = Watched(browser, width=390, height=844)
        page = watched.page
        fetched: list[str] = []
        page.on("response", lambda r: fetched.append(r.url) if r.status == 200 else None)
        page.goto(f"{site.base}/games/1")
        image = page.locator(".board img")
        page.wait_for_function("() => document.querySelector('.board img').complete")
        assert image.evaluate("img => img.getBoundingClientRect().width") <= 390
        # Zoom in: the picture gives way to the tiles in sight at a scale wider than the
        # screen (250 cells × 2 pixels on a 390-pixel phone).
        page.get_by_role("button", name="+").click()
        view = page.locator(".tiles")
        page.wait_for_function(
            "() => document.querySelectorAll('.tiles img.tile').length > 0 && "
            "Array.from(document.querySelectorAll('.tiles img.tile'))"
            ".every(t => t.complete && t.naturalWidth === 256)"
        )
        assert image.is_hidden() and view.is_visible()
        first = _tiles_shown(page)
        assert all(re.fullmatch(r"/games/1/tiles/1-0/1/\d+/\d+\.png", p) for p in first), first
        # Two more steps in: 8 pixels a cell, the board 2,000 pixels across.
        page.get_by_role("button", name="+").click()
        page.get_by_role("button", name="+").click()
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('.tiles img.tile'))"
            ".some(t => t.complete && t.naturalWidth === 256 && t.src.includes('/1-0/3/'))"
        )
        assert view.evaluate("v => v.scrollWidth") == 250 * 8
        before = set(_tiles_shown(page))
        view.evaluate("v => { v.scrollLeft = v.scrollWidth - v.clientWidth; }")  # pans
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('.tiles img.tile'))"
            ".some(t => t.complete && t.naturalWidth === 256 && t.src.endsWith('/7/' + "
            "t.src.split('/').pop()))"
        )
        assert set(_tiles_shown(page)) > before  # the tiles come into sight as it pans
        assert any("/tiles/1-0/3/7/" in url for url in fetched)
        zoomed_shot = _shots(tmp_path) / "big-board-tiles-phone.png"
        page.screenshot(path=str(zoomed_shot))
        page.get_by_role("button", name="Fit").click()
        assert image.is_visible() and view.is_hidden()
        watched.close()
    _not_blank(zoomed_shot)
    assert watched.errors == []


def test_a_players_own_page_of_a_big_board_zooms_into_their_own_tiles(
    browser: Any, tmp_path: Path
) -> None:
    """ahab's private link to a 250×250 board, on a phone: zooming in swaps in ahab's
    own tiles, under the link (never the public ones), as the public page does."""
    database = tmp_path / "big.sqlite"
    token = "ahab-own-tiles-token-0123456789ab"
    played_with_link(database, BIG, tmp_path / "scripts", token)
    with served(database) as site:
        watched = Watched(browser, width=390, height=844)
        page = watched.page
        fetched: list[str] = []
        page.on("response", lambda r: fetched.append(r.url) if r.status == 200 else None)
        page.goto(f"{site.base}/p/{token}")
        assert "Your view\nahab" in page.locator("dl.facts").inner_text()
        image = page.locator(".board img")
        page.wait_for_function("() => document.querySelector('.board img').complete")
        page.get_by_role("button", name="+").click()
        page.wait_for_function(
            "() => document.querySelectorAll('.tiles img.tile').length > 0 && "
            "Array.from(document.querySelectorAll('.tiles img.tile'))"
            ".every(t => t.complete && t.naturalWidth === 256)"
        )
        assert image.is_hidden() and page.locator(".tiles").is_visible()
        shown = _tiles_shown(page)
        assert shown and all(
            re.fullmatch(rf"/p/{token}/tiles/1-0/1/\d+/\d+\.png", p) for p in shown
        ), shown
        assert not [url for url in fetched if "/games/1/tiles/" in url]
        zoomed_shot = _shots(tmp_path) / "big-board-own-tiles-phone.png"
        page.screenshot(path=str(zoomed_shot))
        watched.close()
    _not_blank(zoomed_shot)
    assert watched.errors == []


def test_a_zoomed_in_reader_stays_zoomed_in_when_a_turn_resolves(
    browser: Any, tmp_path: Path
) -> None:
    kit = HostKit(tmp_path)
    in_thread(lambda: kit.two_player_battle("size=250x250 turn=8h reach=all"))
    in_thread(lambda: _resolve(kit, ("alice", "#bst F3"), ("bob", "#bst A2")))
    with served(kit.db_path, live_interval=0.1) as site:
        watched = Watched(browser, width=390, height=844)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        for _ in range(3):
            page.get_by_role("button", name="+").click()
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('.tiles img.tile'))"
            ".some(t => t.complete && t.naturalWidth === 256)"
        )
        page.wait_for_timeout(300)  # the event stream is open
        in_thread(lambda: _resolve(kit, ("bob", "#bst B3")))
        page.wait_for_function(
            "() => document.querySelector('nav.steps strong').textContent === 'Turn 2'",
            timeout=10_000,
        )
        # The new turn's tiles, at the scale the reader had chosen.
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('.tiles img.tile'))"
            ".some(t => t.complete && t.naturalWidth === 256 && t.src.includes('/tiles/2-0/3/'))"
        )
        assert page.locator(".tiles").is_visible()
        assert page.locator(".board img").is_hidden()
        watched.close()
    kit.store.dispose()
    assert watched.errors == []


def test_a_private_link_shows_that_players_board_and_nobody_elses(
    browser: Any, battle: HostKit
) -> None:
    tokens = {}
    for row in battle.outbox():
        found = re.search(re.escape(BASE) + r"/p/([A-Za-z0-9_-]+)", row.text)
        if found:
            tokens[row.recipient] = found[1]
    with served(battle.db_path) as site:
        watched = Watched(browser)
        page = watched.page
        page.goto(f"{site.base}/p/{tokens['fake:id-bob']}")
        assert "Your view\nbob" in page.locator("dl.facts").inner_text()
        text = page.locator("main").inner_text()
        assert "J8" in text  # bob's own cruiser
        assert page.locator(".board img").evaluate("img => img.complete && img.naturalWidth > 0")
        assert re.search(r"/p/[^/]+/map/2-0\.png$", page.locator(".board img").get_attribute("src"))
        page.goto(f"{site.base}/p/{tokens['fake:id-alice']}")
        assert "J8" not in page.locator("main").inner_text()  # alice sees none of bob's ships
        watched.close()
    assert watched.errors == []


@pytest.mark.parametrize(("width", "name"), [(1280, "desktop"), (390, "phone")])
def test_screenshots_of_a_game_page_are_not_blank(
    browser: Any, battle: HostKit, width: int, name: str
) -> None:
    path = _shots(battle.db_path.parent) / f"game-page-{name}.png"
    with served(battle.db_path) as site:
        watched = Watched(browser, width=width, height=900)
        watched.page.goto(f"{site.base}/games/1")
        watched.page.wait_for_function("() => document.querySelector('.board img').complete")
        watched.page.screenshot(path=str(path), full_page=True)
        no_scroll = watched.page.evaluate(
            "() => document.documentElement.scrollWidth <= window.innerWidth"
        )
        watched.close()
    _not_blank(path)
    assert no_scroll, "the page scrolls sideways at this width"
    assert watched.errors == []
