"""A game's page tells what is public of it (issue 43, item 13): the options it was
opened with, each player's standing (afloat or sunk; U-Boat's boat colour and crew),
who plays a seat a substitute took, the rooms it is bridged to, and during setup how
to join it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_no_leak_over_http import TWINS
from test_pages import FIRST_GAME
from web_kit import play, served

from bot.store import Store
from bot.store.links import issue_link
from bot.store.models import GameRoomRow, SeatChangeRow
from bot.web import pictures as pictures_module
from bot.wiring import sqlite_url

SETUP = """\
@game bst size=10x10 turn=8h seed=12345
ahab public: #bst join
"""


def test_a_running_games_page_names_its_options_and_each_players_standing(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        [nemo] = [p for p in tx.players(1) if p.name == "nemo"]
        tx.session.add(GameRoomRow(platform="discord", channel="555", game_id=1, bridged_at=1.0))
        tx.session.add(
            SeatChangeRow(
                game_id=1, player_key=nemo.key, turn=2, from_account="script:nemo",
                from_name="nemo", to_account="script:carol", to_name="carol", changed_at=2.0,
            )
        )  # fmt: skip
    store.dispose()
    with served(database) as site:
        page = site.get("/games/1").text
        old = site.get("/games/1/turn/1").text
    assert "<dt>Options</dt><dd><code>size=10x10 turn=8h</code></dd>" in page
    assert "<dt>Also played in</dt><dd>Discord channel 555</dd>" in page
    assert '<ul class="players"><li>ahab — afloat</li>' in page
    assert "<li>nemo — afloat, played by carol since turn 2</li>" in page
    assert "Open to join" not in page
    assert "<li>ahab — afloat</li>" in old  # a turn's page: the standing at that turn


def test_a_games_page_in_setup_says_how_to_join_and_leaves_the_seed_out(tmp_path: Path) -> None:
    database = tmp_path / "setup.sqlite"
    play(database, SETUP, tmp_path / "s")
    with served(database) as site:
        page = site.get("/games/1").text
    assert "Open to join: say <code>#bst join</code> in script channel script" in page
    assert "<code>size=10x10 turn=8h</code>" in page and "12345" not in page
    assert '<ul class="players"><li>ahab</li></ul>' in page


def test_a_u_boat_page_names_each_players_boat_and_who_is_sunk(tmp_path: Path) -> None:
    database = tmp_path / "uboat.sqlite"
    play(database, TWINS["uboat"][0], tmp_path / "s")
    with served(database) as site:
        page = site.get("/games/1").text
    roster = page[page.index('<ul class="players">') :]
    roster = roster[: roster.index("</ul>")]
    assert "<li>ann — red boat" in roster
    assert "boat" in roster and ("afloat" in roster or "sunk" in roster)


def test_a_steps_standing_is_worked_out_once_for_every_page_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The public page and each player's own page of one step show the same public
    standing: worked out from the public view once, not once a page."""
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        keys = {p.name: p.key for p in tx.players(1)}
        tokens = [
            issue_link(tx, 1, keys[name], token=f"{name}-standing-token-0123456789ab", now=0.0)
            for name in ("ahab", "nemo")
        ]
    store.dispose()
    worked: list[object] = []
    standing = pictures_module.public_standing

    def counted(view: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
        worked.append(view)
        return standing(view)

    monkeypatch.setattr(pictures_module, "public_standing", counted)
    with served(database) as site:
        pages = [site.get(path).text for path in ("/games/1", *(f"/p/{t}" for t in tokens))]
    assert all("<li>ahab — afloat</li>" in page for page in pages)
    assert len(worked) == 1
