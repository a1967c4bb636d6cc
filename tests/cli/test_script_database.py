"""``bst script --database`` moves only its own games, and ``--config`` gives its players
what a hosted bot's config would (issue #43, item 8)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.__main__ import main
from bot.cli import script as script_cli
from bot.store import Store
from bot.wiring import sqlite_url

OPEN_GAME = """\
@game bst size=10x10 turn=1h
alice public: #bst join
bob public: #bst join
alice dm: random
bob dm: random
@start
alice public: #bst A1
"""

WAIT_LONG = """\
@game bst size=10x10 turn=1h
carol public: #bst join
@wait 20h
"""


def _play(script: Path, database: Path, text: str) -> int:
    script.write_text(text, encoding="utf-8")
    run = asyncio.run(
        script_cli.run_script(
            script,
            record_path=None,
            out_dir=script.parent / "out",
            echo=lambda _line: None,
            database_url=sqlite_url(database),
        )
    )
    game_id = run.game_id()
    run.store.dispose()
    assert game_id is not None
    return game_id


def _turn(database: Path, game_id: int) -> int:
    store = Store(sqlite_url(database))
    try:
        with store.transaction() as tx:
            game = tx.game(game_id)
            assert game is not None
            return game.turn
    finally:
        store.dispose()


def test_a_second_script_in_the_same_database_leaves_the_first_game_alone(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.db"
    first = _play(tmp_path / "first.txt", database, OPEN_GAME)
    turn_before = _turn(database, first)
    second = _play(tmp_path / "second.txt", database, WAIT_LONG)
    assert second != first
    # The second script waited 20 hours of its own clock; the first game's hour-long turns
    # belong to nobody's clock here, so it is still at the turn it was left at.
    assert _turn(database, first) == turn_before


def test_script_takes_a_config_and_its_web_address_gives_private_links(
    tmp_path: Path, capsys: object
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[web]\nbase_url = "https://games.example"\n', encoding="utf-8")
    script = tmp_path / "game.txt"
    script.write_text(OPEN_GAME, encoding="utf-8")
    out = tmp_path / "out"
    code = main(["script", str(script), "--out", str(out), "--config", str(config)])
    assert code == 0
    printed = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "https://games.example/" in printed


def test_script_refuses_a_config_that_is_not_there(tmp_path: Path, capsys: object) -> None:
    script = tmp_path / "game.txt"
    script.write_text(OPEN_GAME, encoding="utf-8")
    code = main(["script", str(script), "--config", str(tmp_path / "missing.toml")])
    assert code != 0
    assert "missing.toml" in capsys.readouterr().err  # type: ignore[attr-defined]
