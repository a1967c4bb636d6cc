"""A page reflects the game's version (issue 43): the first visitor after a turn gets the
new page however long ago the turn resolved (the page before stands in only for a
moment while the new one is drawn, and is kept by nobody); pages carry an ETag and
answer 304; private answers are ``private, no-cache``, never kept by a shared cache."""

from __future__ import annotations

import re
import types
from pathlib import Path

import pytest
from host_fakes import HostKit
from web_kit import served

import bot.web.site as site_module

BASE = "https://bst.example.org"
LINK = re.compile(re.escape(BASE) + r"/p/([A-Za-z0-9_-]+)")


def _version(html: str) -> str:
    return html.split('data-version="', 1)[1].split('"', 1)[0]


def _resolve(kit: HostKit, *said: tuple[str, str]) -> None:
    for user, text in said:
        kit.say(user, text)
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.flush()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_the_first_visitor_long_after_a_turn_gets_the_new_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(site_module, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE
    kit.two_player_battle("size=10x10 turn=8h reach=all")
    alice = LINK.findall(next(r.text for r in kit.outbox() if LINK.search(r.text)))[0]
    with served(kit.db_path) as site:
        old = site.get("/games/1")
        own_old = site.get(f"/p/{alice}")
        _resolve(kit, ("alice", "#bst F3"))
        clock.now += 3600  # an hour later, the first visitor
        public = site.get("/games/1")
        _resolve(kit, ("bob", "#bst A2"))
        clock.now += 1  # the public page is watched; alice's was last read at turn 0
        site.get("/games/1")
        own = site.get(f"/p/{alice}")
        again = site.get("/games/1", {"If-None-Match": site.get("/games/1").headers["ETag"]})
    versions = {_version(old.text), _version(public.text), _version(own.text)}
    assert len(versions) == 3
    assert _version(own_old.text) == _version(old.text)
    assert '<strong aria-current="page">Turn 1</strong>' in public.text
    assert '<strong aria-current="page">Turn 2</strong>' in own.text
    assert public.headers["ETag"].startswith('"') and public.headers["Cache-Control"] == "no-cache"
    assert again.status == 304 and again.body == b""
    assert own.headers["Cache-Control"] == "private, no-cache" and "ETag" in own.headers
    kit.store.dispose()


def test_a_players_pictures_are_private_no_cache_with_an_etag(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE
    kit.two_player_battle()
    _resolve(kit, ("alice", "#bst F3"))
    alice = LINK.findall(next(r.text for r in kit.outbox() if LINK.search(r.text)))[0]
    with served(kit.db_path) as site:
        picture = site.get(f"/p/{alice}/map/1-0.png")
        again = site.get(f"/p/{alice}/map/1-0.png", {"If-None-Match": picture.headers["ETag"]})
    assert picture.headers["Cache-Control"] == "private, no-cache"
    assert again.status == 304
    kit.store.dispose()
