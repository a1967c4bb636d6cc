"""The web page's second round (issue 43) in a real browser at 1280 and 390 px: a live
update keeps what the reader had (zoom, scroll, the open Rules, focus) and announces the
new turn politely; zoom to a point; the turn list and keys; link previews."""

from __future__ import annotations

import os
from typing import Any

import pytest
from host_fakes import HostKit
from test_browser import CHROMIUM, Watched, _resolve, battle, browser, in_thread
from web_kit import served

__all__ = ["battle", "browser"]  # (the fixtures, shared with test_browser)

pytestmark = pytest.mark.skipif(
    not CHROMIUM,
    reason="no Chromium browser (apt-get install chromium, as .ci/run does): "
    "the browser tests need the system's chromium",
)

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
        page.locator("details summary").click()  # the Rules, open
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
        assert page.locator("details").evaluate("d => d.open")
        assert page.evaluate("() => document.activeElement.textContent") == "‹ Previous"
        said = page.locator("[data-announce]")
        assert said.get_attribute("aria-live") == "polite"
        assert said.inner_text() == "Updated: Turn 3"
        shots = os.environ.get("BST_WEB_SCREENSHOTS")
        if shots:
            page.screenshot(path=f"{shots}/live-kept-{width}.png")
        watched.close()
    assert watched.errors == []
