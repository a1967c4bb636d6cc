"""Private links (issue 28): each player gets, by DM only, an unguessable link to their
own view — their board now and turn by turn — and nobody else's; ``link revoke`` renews
it (the old one answers 404, the same bytes as an unknown game); private pages are
noindex, send no referrer, and their tokens never reach a log."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from host_fakes import HostKit
from web_kit import served

from bot.web.site import NOT_FOUND

BASE = "https://bst.example.org"
LINK = re.compile(re.escape(BASE) + r"/p/([A-Za-z0-9_-]+)")


def _battle(tmp_path: Path) -> HostKit:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE
    kit.two_player_battle()
    kit.say("alice", "#bst F3")
    kit.say("bob", "#bst A2")
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.flush()
    return kit


def _links(kit: HostKit) -> dict[str, list[str]]:
    """Every link the bot sent, by recipient ("public" for channel posts)."""
    found: dict[str, list[str]] = {}
    for row in kit.outbox():
        for token in LINK.findall(row.text):
            found.setdefault(row.recipient, []).append(token)
    return found


def test_each_player_gets_their_own_link_by_dm_and_never_in_public(tmp_path: Path) -> None:
    kit = _battle(tmp_path)
    links = _links(kit)
    assert "public" not in links
    assert set(links) == {"fake:id-alice", "fake:id-bob"}  # on joining, by DM
    assert len(set(links["fake:id-alice"])) == 1  # the same link each time
    assert len(links["fake:id-alice"][0]) >= 43  # secrets.token_urlsafe(32)
    kit.say("alice", "board", dm=True)
    assert _links(kit)["fake:id-alice"][-1] == links["fake:id-alice"][0]
    kit.store.dispose()


def test_a_private_link_shows_its_holders_board_and_nobody_elses(tmp_path: Path) -> None:
    kit = _battle(tmp_path)
    links = _links(kit)
    alice, bob = links["fake:id-alice"][0], links["fake:id-bob"][0]
    with served(kit.db_path) as site:
        own = site.get(f"/p/{alice}")
        first = site.get(f"/p/{alice}/turn/0")
        theirs = site.get(f"/p/{bob}")
        picture = site.get(f"/p/{alice}/map/1-0.png")
        public = site.get("/games/1/map/1-0.png")
    assert own.status == theirs.status == first.status == picture.status == 200
    assert "<dt>Your view</dt><dd>alice</dd>" in own.text
    assert "<dt>Your view</dt><dd>bob</dd>" in theirs.text
    # alice's own ships on her page; bob's unhit cruiser at J8-J10 on his alone (read
    # without the random tokens in the links, which may hold "J8" themselves)
    assert "J8" not in own.text.replace(alice, "") and "J8" in theirs.text.replace(bob, "")
    assert f'src="/p/{alice}/map/1-0.png"' in own.text
    assert f'href="/p/{alice}/turn/0"' in own.text
    assert picture.body != public.body and picture.body.startswith(b"\x89PNG")
    for answer in (own, theirs, picture):
        assert answer.headers["X-Robots-Tag"] == "noindex, nofollow"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.headers["Cache-Control"].startswith("private")
    assert '<meta name="robots" content="noindex, nofollow">' in own.text
    kit.store.dispose()


def test_link_revoke_renews_it_and_the_old_one_answers_like_an_unknown_game(
    tmp_path: Path,
) -> None:
    kit = _battle(tmp_path)
    old = _links(kit)["fake:id-alice"][0]
    kit.say("alice", "#bst link revoke")
    kit.flush()
    new = _links(kit)["fake:id-alice"][-1]
    assert new != old
    assert "Your old link no longer works." in kit.outbox()[-1].text
    assert kit.outbox()[-1].recipient == "fake:id-alice"  # asked in public, told by DM
    with served(kit.db_path) as site:
        revoked = site.get(f"/p/{old}")
        wrong = site.get(f"/p/{old[:-1]}{'A' if old[-1] != 'A' else 'B'}")
        unknown = site.get("/games/99")
        renewed = site.get(f"/p/{new}")
    assert renewed.status == 200
    assert revoked.status == wrong.status == unknown.status == 404
    assert revoked.body == wrong.body == unknown.body
    kit.store.dispose()


def test_link_with_anything_else_is_refused_saying_what_was_expected(tmp_path: Path) -> None:
    kit = _battle(tmp_path)
    kit.say("alice", "link please", dm=True)
    kit.flush()
    assert "expected `link` or `link revoke`, got `link please`" in kit.outbox()[-1].text
    kit.store.dispose()


def test_tokens_never_reach_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    kit = _battle(tmp_path)
    token = _links(kit)["fake:id-alice"][0]
    # (The access log's own level: another test's `bst run` may have held aiohttp's
    # loggers at the level it ran with.)
    with (
        caplog.at_level(logging.INFO),
        caplog.at_level(logging.INFO, logger="aiohttp.access"),
        served(kit.db_path) as site,
    ):
        site.get(f"/p/{token}")
        site.get(f"/p/{token}/map/1-0.png")
        site.get(f"/p/{token}x")
    lines = [record.getMessage() for record in caplog.records]
    assert any("GET /p/…/map/1-0.png 200" in line for line in lines), lines
    assert not any(token in line for line in lines)
    kit.store.dispose()


def test_the_post_that_opens_a_game_links_its_public_page(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE + "/"
    kit.say("alice", "#bst new size=10x10 reach=all")
    (tmp_path / "plain").mkdir()
    plain = HostKit(tmp_path / "plain")
    plain.say("alice", "#bst new size=10x10 reach=all")
    (tmp_path / "server").mkdir()
    server = HostKit(tmp_path / "server")
    server.host.commands.web_base_url = BASE + "/"
    server.say("alice", "#bst new size=10x10")
    (opening,) = [r for r in kit.outbox() if r.recipient == "public"]
    (without,) = [r for r in plain.outbox() if r.recipient == "public"]
    (unlisted,) = [r for r in server.outbox() if r.recipient == "public"]
    assert opening.text.endswith(" Follow it on https://bst.example.org/games/1")
    assert "http" not in without.text  # no web page configured: no link
    assert "http" not in unlisted.text  # a server's game has no public page (issue 39)
    kit.store.dispose()
    plain.store.dispose()
    server.store.dispose()


def test_a_players_own_replay_waits_for_the_end_and_is_theirs_alone(tmp_path: Path) -> None:
    """The private link offers the player's own replay (the game as they saw it) once the
    game is over: before, and to a wrong link, the one 404; each player's is their own."""
    kit = _battle(tmp_path)
    links = _links(kit)
    alice, bob = links["fake:id-alice"][0], links["fake:id-bob"][0]
    with served(kit.db_path) as site:
        early = site.get(f"/p/{alice}/replay.mp4")
        assert "replay.mp4" not in site.get(f"/p/{alice}").text
    assert early.status == 404 and early.body == NOT_FOUND
    kit.say("alice", "#bst end", admin=True)
    kit.flush()
    with served(kit.db_path) as site:
        page = site.get(f"/p/{alice}")
        own, theirs = site.get(f"/p/{alice}/replay.mp4"), site.get(f"/p/{bob}/replay.mp4")
        wrong = site.get(f"/p/{alice[:-1]}{'A' if alice[-1] != 'A' else 'B'}/replay.mp4")
        public = site.get("/games/1")
    assert f'preload="none" poster="/p/{alice}/map/' in page.text
    assert f'src="/p/{alice}/replay.mp4">' in page.text
    assert own.status == theirs.status == 200 and own.headers["Content-Type"] == "video/mp4"
    assert own.body != theirs.body  # each their own ships
    assert own.headers["Cache-Control"].startswith("private")
    assert (wrong.status, wrong.body) == (404, NOT_FOUND)
    assert "/p/" not in public.text  # the public page offers the public replay alone
    kit.store.dispose()
