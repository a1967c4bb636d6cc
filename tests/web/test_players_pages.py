"""The players' pages (issue 43, item 14): each kind's leaderboard (OpenSkill), a page
for each rated person with their ratings, U-Boat's marks of victory and the public
games any of their accounts played; a person who said ``me web off`` appears nowhere,
and their page is the one 404. A person's address does not tell their account."""

from __future__ import annotations

from pathlib import Path

from host_fakes import HostKit
from web_kit import served

from bot.store import NewGame, PlayerRow, Store
from bot.store.models import PlayerSettingsRow, RatingRow
from bot.web.players_pages import player_address
from bot.web.site import NOT_FOUND
from bot.wiring import sqlite_url


def _game(tx: object, *, open_to_all: bool, players: list[tuple[str, str, str]]) -> int:
    game = NewGame(
        kind="bst", platform="discord", channel="c", creator="discord:ann", options="{}",
        seed=1, phase="battle", turn=2, open_to_all=open_to_all, state="{}",
        created_at=1_767_225_600.0,
    )  # fmt: skip
    saved = tx.add_game(game)  # type: ignore[attr-defined]
    for order, (platform, user_id, name) in enumerate(players):
        tx.session.add(  # type: ignore[attr-defined]
            PlayerRow(
                game_id=saved.id, key=f"p{order}", platform=platform, user_id=user_id,
                name=name, join_order=order,
            )
        )  # fmt: skip
    return int(saved.id)


def _ratings(database: Path) -> tuple[int, int]:
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        for kind, person, name, mu, awards in [
            ("uboat", "discord:ann", "ann", 30.0, 2),
            ("uboat", "discord:bob", "bob", 28.0, 0),
            ("uboat", "discord:cy", "cy", 40.0, 1),
            ("bst", "discord:ann", "ann", 25.0, 0),
        ]:
            tx.session.add(
                RatingRow(kind=kind, person=person, name=name, mu=mu, sigma=2.0, played=3,
                          won=1, awards=awards)
            )  # fmt: skip
        # ann's other account, linked; cy keeps off the web
        tx.session.add(PlayerSettingsRow(platform="mastodon", user_id="a2", person="discord:ann"))
        tx.session.add(PlayerSettingsRow(platform="discord", user_id="cy", on_web=False))
        listed = _game(tx, open_to_all=True, players=[("mastodon", "a2", "ann"), ("x", "b", "b")])
        unlisted = _game(tx, open_to_all=False, players=[("discord", "ann", "ann")])
        _game(tx, open_to_all=True, players=[("discord", "cy", "cy")])
    store.dispose()
    return listed, unlisted


def test_leaderboards_and_a_players_page_show_only_those_who_let_them(tmp_path: Path) -> None:
    database = tmp_path / "rated.sqlite"
    listed, unlisted = _ratings(database)
    ann, cy = player_address("discord:ann"), player_address("discord:cy")
    with served(database) as site:
        board = site.get("/players").text
        page = site.get(ann).text
        hidden, unknown = site.get(cy), site.get("/players/0123456789abcdef0123")
        index = site.get("/").text
    assert 'href="/players"' in index
    uboat = board[board.index("<h2>uboat</h2>") :]
    assert uboat.index(">ann</a>") < uboat.index(">bob</a>")  # best first
    assert f'<a href="{ann}">ann</a>: 24.0 (3 played, 1 won, 2 marks of victory)' in board
    assert "cy" not in board and "discord:" not in board and "discord" not in ann
    assert "uboat: 24.0 (mu 30.0, sigma 2.0); 3 played, 1 won, 2 marks of victory" in page
    assert "bst: 19.0" in page
    assert f'href="/games/{listed}"' in page  # played from the linked account
    assert f'href="/games/{unlisted}"' not in page  # a server's game: not public
    for answer in (hidden, unknown):
        assert (answer.status, answer.body) == (404, NOT_FOUND)


def test_me_web_off_keeps_a_person_off_the_web_and_on_brings_them_back(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.say("bob", "me web off", dm=True)
    said = [r.text for r in kit.outbox() if r.recipient == "fake:id-bob"]
    assert "the web page shows nothing of you" in said[-1]
    with kit.store.transaction() as tx:
        row = tx.session.get(PlayerSettingsRow, ("fake", "id-bob"))
        assert row is not None and row.on_web is False
    refused = kit.say("bob", "me web maybe", dm=True)
    assert refused.outcome.value == "refused"
    said = [r.text for r in kit.outbox() if r.recipient == "fake:id-bob"]
    assert "`me web off`" in said[-1]
    kit.say("bob", "me web on", dm=True)
    with kit.store.transaction() as tx:
        row = tx.session.get(PlayerSettingsRow, ("fake", "id-bob"))
        assert row is not None and row.on_web is True
    kit.store.dispose()
