"""The web page's second round, the items left (issue 43: 5, 12, 13, 15) in a real
browser at 1280 and 390 px: the list of games fits a phone, pages and filters without
a script and follows games starting live; a deadline counts down; an old turn says a
newer one exists; the game's facts; the replay stepped through frame by frame."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from host_fakes import HostKit
from test_browser import Watched, _resolve, battle, browser, in_thread, needs_chromium
from test_pages import ENDED, FIRST_GAME
from web_kit import play, served

from bot.store import GameRow, Store
from bot.wiring import sqlite_url

__all__ = ["battle", "browser"]  # (the fixtures, shared with test_browser)

pytestmark = needs_chromium

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


def test_a_deadline_counts_down_and_is_a_plain_time_without_a_script(
    browser: Any, battle: HostKit
) -> None:
    with served(battle.db_path) as site:
        plain = browser.new_context(java_script_enabled=False)
        page = plain.new_page()
        page.goto(f"{site.base}/games/1")
        deadline = page.locator("time[data-countdown]").first
        moment = deadline.get_attribute("datetime")
        assert deadline.inner_text().endswith(" UTC") and "left" not in deadline.inner_text()
        plain.close()
        watched = Watched(browser, width=390)
        page = watched.page
        # the reader's clock an hour and a half before the deadline
        start = _before(moment, 5400)
        page.clock.install(time=start - timedelta(seconds=10))
        page.clock.pause_at(start)  # (it moves only when told to)
        page.goto(f"{site.base}/games/1")
        deadline = page.locator("time[data-countdown]").first
        first = deadline.inner_text()
        assert first.endswith("(1 h 30 min left)"), first
        page.clock.run_for(61_000)
        assert deadline.inner_text().endswith("(1 h 28 min left)"), deadline.inner_text()
        page.clock.run_for(5400_000)
        assert deadline.inner_text().endswith("(closing)")
        watched.close()
    assert watched.errors == []


def _before(moment: str | None, seconds: int) -> datetime:
    """``seconds`` before the ISO ``moment``."""
    assert moment is not None
    when = datetime.strptime(moment, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return when - timedelta(seconds=seconds)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_newest_turns_page_says_when_a_newer_one_comes(
    browser: Any, battle: HostKit, width: int
) -> None:
    with served(battle.db_path, live_interval=0.1) as site:
        watched = Watched(browser, width=width, height=800)
        page = watched.page
        page.goto(f"{site.base}/games/1/turn/2")
        assert page.locator("p.newer").count() == 0
        page.wait_for_timeout(300)  # the event stream is open
        in_thread(lambda: _resolve(battle, ("bob", "#bst B3")))
        page.wait_for_selector("p.newer", timeout=10_000)
        assert page.url == f"{site.base}/games/1/turn/2"  # still the turn read
        assert page.locator("nav.steps strong").inner_text() == "Turn 2"
        _shot(page, f"newer-{width}")
        page.locator("p.newer a").click()
        page.wait_for_url(f"{site.base}/games/1")
        assert page.locator("nav.steps strong").inner_text() == "Turn 3"
        watched.close()
    assert watched.errors == []


def test_the_list_of_games_follows_games_starting_live_keeping_the_readers_place(
    browser: Any, tmp_path: Path
) -> None:
    database = tmp_path / "list.sqlite"
    in_thread(lambda: play(database, FIRST_GAME, tmp_path / "scripts"))
    _rooms(database, 40, "battle")
    with served(database, live_interval=0.1) as site:
        watched = Watched(browser, width=390, height=700)
        page = watched.page
        page.goto(f"{site.base}/")
        page.wait_for_timeout(300)  # the event stream is open
        page.evaluate("() => window.scrollTo(0, 900)")
        page.get_by_role("link", name="#sonar game 30", exact=True).focus()
        _rooms(database, 1, "setup")
        page.wait_for_function(
            "() => document.querySelector('ul.games .name').textContent === '#sonar game 42'",
            timeout=10_000,
        )
        assert page.evaluate("() => window.scrollY") == 900
        assert page.evaluate("() => document.activeElement.textContent") == "#sonar game 30"
        watched.close()
    assert watched.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_replay_steps_frame_by_frame_with_a_chapter_per_turn(
    browser: Any, tmp_path: Path, width: int
) -> None:
    database = tmp_path / "ended.sqlite"
    in_thread(lambda: play(database, ENDED, tmp_path / "scripts"))
    with served(database) as site:
        watched = Watched(browser, width=width, height=900)
        page = watched.page
        page.goto(f"{site.base}/games/1")
        frames = page.locator("[data-frames]")
        shown = frames.locator("figure img")
        at = frames.locator("[data-frame-at]")
        count = frames.locator("a[data-frame]").count()
        assert count >= 3
        assert at.inner_text() == f"1 of {count}"
        assert frames.locator("[data-frame-prev]").is_disabled()
        assert shown.get_attribute("src") == "/games/1/map/0-0.png"
        frames.locator("[data-frame-next]").click()
        assert at.inner_text() == f"2 of {count}"
        assert shown.get_attribute("src") == "/games/1/map/1-0.png"
        assert frames.locator("figcaption").inner_text() == "Turn 1"
        frames.locator("summary").click()  # the chapters, one a turn
        frames.get_by_role("link", name="Turn 2", exact=True).click()
        assert page.url == f"{site.base}/games/1"  # shown in place
        assert shown.get_attribute("src") == "/games/1/map/2-0.png"
        page.wait_for_function(
            "() => { const i = document.querySelector('[data-frames] img');"
            " return i.complete && i.naturalWidth > 0; }"
        )
        assert page.evaluate(NOTHING_SCROLLS_SIDEWAYS)
        frames.scroll_into_view_if_needed()
        _shot(page, f"frames-{width}")
        watched.close()
    assert watched.errors == []


def test_the_replays_chapters_are_plain_links_to_its_frames_without_a_script(
    browser: Any, tmp_path: Path
) -> None:
    database = tmp_path / "ended.sqlite"
    in_thread(lambda: play(database, ENDED, tmp_path / "scripts"))
    with served(database) as site:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{site.base}/games/1")
        links = page.locator("[data-frames] a[data-frame]")
        addresses = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert addresses[:3] == ["/games/1/map/0-0.png", "/games/1/map/1-0.png",
                                 "/games/1/map/2-0.png"]  # fmt: skip
        for address in addresses:
            assert site.get(address or "").status == 200
        context.close()
