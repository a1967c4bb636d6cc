"""Link previews (issue 43): a public page pasted in a chat unfurls with its title, the
turn's public report and that turn's public map (an absolute address, from ``[web]
base_url``); a private page offers none."""

from __future__ import annotations

import re
from pathlib import Path

from test_pages import FIRST_GAME
from web_kit import play, served

from bot.store import Store
from bot.store.links import issue_link
from bot.wiring import sqlite_url

SITE = "https://bst.example.org"


def _meta(html: str) -> dict[str, str]:
    return dict(re.findall(r'<meta (?:property|name)="([a-z:_]+)" content="([^"]*)">', html))


def test_a_turns_page_unfurls_with_its_title_report_and_map(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        [key] = [p.key for p in tx.players(1) if p.name == "ahab"]
        issue_link(tx, 1, key, token="ahab-preview-token-0123456789abcdef", now=0.0)
    store.dispose()
    with served(database, site_url=SITE + "/") as site:
        turn = site.get("/games/1/turn/1").text
        now = site.get("/games/1").text
        own = site.get("/p/ahab-preview-token-0123456789abcdef").text
        image = _meta(turn)["og:image"]
        picture = site.get(image.removeprefix(SITE))
    with served(database) as plain:
        without = plain.get("/games/1/turn/1").text
    meta = _meta(turn)
    assert meta["og:title"] == "#bst game 1, turn 1"
    assert meta["og:description"] == "Shots: ahab hit F3."
    assert image == f"{SITE}/games/1/map/1-0.png"
    assert meta["og:url"] == f"{SITE}/games/1/turn/1"
    assert meta["twitter:card"] == "summary_large_image"
    assert picture.status == 200 and picture.body.startswith(b"\x89PNG")
    assert _meta(now)["og:image"] == f"{SITE}/games/1/map/2-0.png"
    assert "og:" not in own and "twitter:" not in own  # a private page: no preview
    assert "og:image" not in without and _meta(without)["twitter:card"] == "summary"
