"""The web page's second round, the items left (issue 43: 5, 12, 13, 15) in a real
browser at 1280 and 390 px: the list of games fits a phone, pages and filters without
a script and follows games starting live; a deadline counts down; an old turn says a
newer one exists; the game's facts; the replay stepped through frame by frame."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_browser import CHROMIUM, Watched, browser, in_thread
from test_pages import ENDED, FIRST_GAME
from web_kit import play, served

from bot.store import GameRow, Store
from bot.wiring import sqlite_url

__all__ = ["browser"]  # (the fixture, shared with test_browser)

pytestmark = pytest.mark.skipif(
    not CHROMIUM,
    reason="no Chromium browser (apt-get install chromium, as .ci/run does): "
    "the browser tests need the system's chromium",
)

WIDTHS = [1280, 390]

WIDE = "a-room-with-a-very-long-name-and-no-space-to-wrap-at-0123456789"

NOTHING_SCROLLS_SIDEWAYS = """() => document.documentElement.scrollWidth
    <= document.documentElement.clientWidth && [...document.querySelectorAll('main *')]
    .every(e => e.clientWidth === 0 || e.scrollWidth <= e.clientWidth)"""


def _shot(page: Any, name: str) -> None:
    shots = os.environ.get("BST_WEB_SCREENSHOTS")
    if shots:
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


def _rooms(database: Path, count: int, phase: str) -> None:
    """``count`` more games opened to all, in rooms with long names."""
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        for number in range(count):
            tx.save(
                GameRow(
                    kind="sonar",
                    platform="fake",
                    channel=f"{WIDE}-{number}",
                    creator="fake:alice",
                    options="{}",
                    seed=1,
                    phase=phase,
                    turn=0,
                    open_to_all=True,
                    state="{}",
                    created_at=1_767_225_600.0 + number,
                )
            )
    store.dispose()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_list_of_games_fits_a_phone_and_pages_and_filters_without_a_script(
    browser: Any, tmp_path: Path, width: int
) -> None:
    database = tmp_path / "list.sqlite"
    in_thread(lambda: play(database, ENDED, tmp_path / "scripts"))
    in_thread(lambda: play(database, FIRST_GAME, tmp_path / "scripts"))
    _rooms(database, 60, "setup")
    with served(database) as site:
        watched = Watched(browser, width=width, height=800)
        page = watched.page
        page.goto(f"{site.base}/")
        assert page.locator("h2").first.inner_text() == "Live now"
        assert page.evaluate(NOTHING_SCROLLS_SIDEWAYS)
        tallest = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('ul.games li')]"
            ".map(li => li.getBoundingClientRect().height))"
        )
        assert tallest < 160  # a few short lines a game, not a column's worth
        _shot(page, f"list-{width}")
        page.get_by_role("link", name="Older ›").click()
        page.wait_for_url(f"{site.base}/?page=2")
        assert "#bst game 1" in page.locator("main").inner_text()  # the finished, last
        page.get_by_role("link", name="Finished", exact=True).click()
        page.wait_for_url(f"{site.base}/?state=finished")
        names = page.locator("ul.games .name").all_inner_texts()
        assert names == ["#bst game 1"]
        page.get_by_role("link", name="sonar", exact=True).click()
        page.wait_for_url(f"{site.base}/?kind=sonar&state=finished")
        assert "No game here" in page.locator("main").inner_text()
        watched.close()
    assert watched.errors == []


def test_the_list_of_games_fits_a_phone_without_a_script(browser: Any, tmp_path: Path) -> None:
    database = tmp_path / "list.sqlite"
    in_thread(lambda: play(database, ENDED, tmp_path / "scripts"))
    _rooms(database, 3, "battle")
    with served(database) as site:
        context = browser.new_context(
            viewport={"width": 390, "height": 800}, java_script_enabled=False
        )
        page = context.new_page()
        page.goto(f"{site.base}/")
        assert page.evaluate(NOTHING_SCROLLS_SIDEWAYS)
        context.close()
