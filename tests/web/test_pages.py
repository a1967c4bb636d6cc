"""The web page over HTTP (a real socket on 127.0.0.1): the list of games, a game's page
with its turns steppable, pictures drawn once and served with an ETag, the record only
once the game is over, and a store that cannot write."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_kit import play, served

from bot.config import ConfigError, parse_config
from bot.store import GameChange, Store
from bot.store.links import issue_link
from bot.wiring import sqlite_url

FIRST_GAME = """\
@game bst size=10x10 turn=8h
ahab public: #bst join
ahab dm: sub: A2\\ncarrier: C1-C5
nemo dm: join
nemo dm: cruiser: F1-F3, cruiser: J8-J10
@start
ahab public: #bst F3
nemo dm: move cruiser at J8 2 left
@close
ahab dm: rotate carrier at C3
nemo public: #BST a2
@close
"""

ENDED = FIRST_GAME + "@host end\n"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


def test_two_scripts_kept_in_one_database_are_two_games(database: Path, tmp_path: Path) -> None:
    first = play(database, FIRST_GAME, tmp_path / "s")
    second = play(database, FIRST_GAME, tmp_path / "s")
    assert (first, second) == (1, 2)
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        games = tx.all_games()
    store.dispose()
    assert [(g.channel, g.phase, g.turn) for g in games] == [
        ("script", "battle", 3),
        ("script-2", "battle", 3),
    ]


def test_the_list_names_each_game_its_phase_turn_players_and_deadline(
    database: Path, tmp_path: Path
) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    play(database, ENDED, tmp_path / "s")
    with served(database) as site:
        page = site.get("/")
    assert page.status == 200
    rows = re.findall(r"<li>(<a class=\"name\".*?)</li>", page.text)
    assert len(rows) == 2
    # the live game first, under "Live now"; the finished one after
    assert page.text.index("<h2>Live now</h2>") < page.text.index("<h2>Finished</h2>")
    assert '<a class="name" href="/games/1">#bst game 1</a>' in rows[0]
    assert "<span>battle</span><span>Turn 3</span><span>2 players</span>" in rows[0]
    # a plain time without a script; the script counts down to it
    deadline = '<time datetime="2026-01-02T00:00:00Z" data-countdown>2026-01-02 00:00 UTC</time>'
    assert deadline in rows[0]
    assert '<a class="name" href="/games/2">#bst game 2</a>' in rows[1]
    assert "<span>finished</span>" in rows[1] and "deadline" not in rows[1]


def test_a_game_page_steps_through_its_turns_with_the_turn_in_the_address(
    database: Path, tmp_path: Path
) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        now = site.get("/games/1")
        first = site.get("/games/1/turn/0")
        middle = site.get("/games/1/turn/1")
        missing = site.get("/games/1/turn/9")
        unknown = site.get("/games/7")
        nonsense = site.get("/games/x/turn/1")
    assert now.status == first.status == middle.status == 200
    assert '<strong aria-current="page">Turn 2</strong>' in now.text
    assert 'href="/games/1/turn/1" rel="prev"' in now.text
    assert '<span class="off">Next ›</span>' in now.text
    assert 'href="/games/1/turn/0" rel="first"' in middle.text
    assert 'href="/games/1/turn/2" rel="next"' in middle.text
    assert "<li>Shots: ahab hit F3.</li>" in middle.text
    assert '<span class="off">‹ Previous</span>' in first.text
    assert "Shots: nemo hit A2." in now.text
    assert 'src="/games/1/map/2-0.png"' in now.text
    # the newest turn follows live updates; an older one stays as it is
    assert 'data-live="/games/1/live"' in now.text
    assert "data-live" not in middle.text
    # the players and the game's rules are there
    assert (
        '<h2>Players</h2><ul class="players"><li>ahab — afloat</li><li>nemo — afloat</li></ul>'
        in now.text
    )
    assert "<details><summary>Rules</summary><pre>" in now.text
    assert missing.status == unknown.status == nonsense.status == 404
    assert missing.body == unknown.body == nonsense.body


def test_pictures_are_drawn_once_and_served_with_an_etag(database: Path, tmp_path: Path) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        site.get("/games/1")
        picture = site.get("/games/1/map/2-0.png")
        again = site.get("/games/1/map/2-0.png", {"If-None-Match": picture.headers["ETag"]})
        site.get("/games/1")
        drawn = site.server.app_site.pictures.drawn
        unknown = site.get("/games/1/map/5-0.png")
    assert picture.status == 200
    assert picture.headers["Content-Type"] == "image/png"
    assert picture.body.startswith(b"\x89PNG")
    assert "immutable" in picture.headers["Cache-Control"]
    assert again.status == 304 and again.body == b""
    assert drawn == 1  # the page's picture, drawn for the page, then served from the cache
    assert unknown.status == 404


def test_the_record_is_served_only_once_the_game_is_over(database: Path, tmp_path: Path) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    play(database, ENDED, tmp_path / "s")
    with served(database) as site:
        running = site.get("/games/1/record.json")
        over = site.get("/games/2/record.json")
        page = site.get("/games/2")
    assert running.status == 404
    assert over.status == 200
    assert over.headers["Content-Type"] == "application/json; charset=utf-8"
    assert b'"format": "bst-record/1"' in over.body
    assert b'"F1"' in over.body  # nemo's unhit cruiser: hidden facts, now that it is over
    assert 'href="/games/2/record.json"' in page.text
    assert 'src="/games/2/replay.mp4"' in page.text


def test_every_answer_carries_the_security_headers(database: Path, tmp_path: Path) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        answers = [site.get(p) for p in ("/", "/games/1", "/games/1/map/2-0.png", "/games/9")]
    for answer in answers:
        policy = answer.headers["Content-Security-Policy"]
        assert policy.startswith("default-src 'none'; script-src 'sha256-")
        assert "nonce" not in policy and "unsafe-inline" not in policy
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_the_web_store_cannot_write(database: Path, tmp_path: Path) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    store = Store(sqlite_url(database), read_only=True)
    try:
        with (
            pytest.raises(Exception, match=r"readonly|read-only|attempt to write"),
            store.transaction() as tx,
        ):
            game = tx.game(1)
            assert game is not None
            tx.change_game(game, GameChange(phase="finished"))
    finally:
        store.dispose()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ('base_url = "bst.example.org"', "expected the page's public address"),
        ("port = 70000", "expected 0 to 65535"),
    ],
)
def test_a_wrong_web_setting_is_refused_saying_what_was_expected(
    section: str, message: str
) -> None:
    import tomllib

    with pytest.raises(ConfigError, match=message):
        parse_config(tomllib.loads(f"[web]\n{section}\n"), "config.toml")


def test_the_record_downloads_under_the_games_own_name(database: Path, tmp_path: Path) -> None:
    """Issue 43, item 15: saved as ``bst-game-2.json``, not as every game's
    ``record.json``; at a player's link too."""
    play(database, FIRST_GAME, tmp_path / "s")
    play(database, ENDED, tmp_path / "s")
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        [key] = [p.key for p in tx.players(2) if p.name == "ahab"]
        token = issue_link(tx, 2, key, token="ahab-own-token-0123456789abcdef", now=0.0)
    store.dispose()
    with served(database) as site:
        public = site.get("/games/2/record.json")
        own = site.get(f"/p/{token}/record.json")
        page = site.get("/games/2")
    for answer in (public, own):
        assert answer.headers["Content-Disposition"] == 'attachment; filename="bst-game-2.json"'
    assert own.headers["Cache-Control"] == "private, no-store"
    assert 'download="bst-game-2.json"' in page.text


def test_an_old_turns_page_says_a_newer_one_exists_and_the_newest_turns_follows(
    database: Path, tmp_path: Path
) -> None:
    """Issue 43, item 12 (without a browser): an older turn's page links the game now;
    the newest turn's own address follows live updates (to say so when one comes); a
    running deadline is marked to count down."""
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        now, newest, older = (site.get(p).text for p in ("/games/1", "/games/1/turn/2",
                                                          "/games/1/turn/1"))  # fmt: skip
    assert (
        '<p class="newer">A newer turn exists: <a href="/games/1">Turn 2, the game now</a>.</p>'
        in older
    )
    assert 'class="newer"' not in newest and 'class="newer"' not in now
    assert 'data-live="/games/1/live"' in newest and "data-live" not in older
    assert "data-countdown>" in now


ROBOTS_GAME = """\
@game bst size=10x10 turn=8h robots=1
ahab public: #bst join
ahab dm: sub: A2\\ncarrier: C1-C5
nemo dm: join
nemo dm: cruiser: F1-F3, cruiser: J8-J10
@start
@host replace nemo robot strong
"""


def test_robots_are_marked_in_the_list_and_on_the_game_page(database: Path, tmp_path: Path) -> None:
    play(database, ROBOTS_GAME, tmp_path / "s")
    with served(database) as site:
        listing = site.get("/")
        page = site.get("/games/1")
    assert "<span>3 players (2 robots)</span>" in listing.text
    assert (
        '<h2>Players</h2><ul class="players"><li>easy-robot-1 (easy robot) — afloat</li>'
        "<li>ahab — afloat</li>"
        "<li>nemo (strong robot) — afloat, played by strong-robot-3 since turn 1</li></ul>"
    ) in page.text
