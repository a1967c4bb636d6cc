"""``bst play`` with one person and robots, to the game's end, in every game (issue 44):
the console's own session (``console_session``: lines typed as at the keyboard, ``:next``
closes each turn), the game opened as ``bst play --game KIND --robots N`` opens it; the
person types their orders, the robots play every other seat to the end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from host_fakes import host_without_images

from bot.adapters.console_adapter import CHANNEL, PLATFORM, ConsoleAdapter
from bot.cli.play import console_session, opening_command
from bot.config import Config
from bot.games.base import GamePhase
from bot.host.runtime.clock import SCRIPT_EPOCH, VirtualClock
from bot.store import Store
from bot.wiring import sqlite_url

# Per game: the table's robots, and what alice types (her orders, refused or not, are
# hers: the robots never play her seat).
TABLES = {
    "bst": ("2", ["alice> #bst join", "alice dm> random", "host> start", "alice> #bst A1"]),
    "sonar": ("1", ["alice> #sonar join", "host> start", "alice> #sonar random"]),
    "sugardog": ("1:strong", ["alice> #sugardog join", "host> start", "alice dm> silent"]),
    "silentships": ("1", ["alice> #silentships join", "host> start", "alice> #silentships end"]),
    "uboat": ("3", ["alice> #uboat join", "host> start", "alice dm> fire E5"]),
}


@pytest.mark.parametrize("kind", list(TABLES))
def test_one_person_and_robots_play_a_whole_game_in_bst_play(tmp_path: Path, kind: str) -> None:
    robots, typed = TABLES[kind]
    store = Store(sqlite_url(tmp_path / "play.db"))
    clock = VirtualClock(SCRIPT_EPOCH)
    printed: list[str] = []
    adapter = ConsoleAdapter(tmp_path / "images", now=clock.now, write=printed.append)
    host = host_without_images(store, clock, {PLATFORM: adapter}, Config())
    size = "8x8" if kind == "bst" else None
    lines = iter([f"host> {opening_command(kind, size, robots)}", *typed, *[":next"] * 400])
    written: list[str] = []

    def finished() -> bool:
        with store.transaction() as tx:
            game = tx.game_in(PLATFORM, CHANNEL)
            return game is None or game.phase == GamePhase.FINISHED

    def next_line() -> str | None:
        line = next(lines, None)
        return None if line == ":next" and finished() else line

    try:
        asyncio.run(console_session(host, adapter, clock, next_line, written.append))
        with store.transaction() as tx:
            (game,) = tx.all_games()
            players = tx.players(game.id)
        assert game.phase == GamePhase.FINISHED
        assert [p.name for p in players if not p.robot] == ["alice"]
        count = int(robots.partition(":")[0])
        assert len([p for p in players if p.robot]) == count
        assert any(line.startswith(f"[public] #{kind} game 1 is over") for line in printed)
        assert not [line for line in printed if line.startswith("[dm ") and "robot" in line[:20]]
        assert any(line.startswith("[dm alice]") for line in printed)
    finally:
        store.dispose()


def test_bst_play_robots_opens_the_game_with_robots_seated() -> None:
    assert opening_command("sonar", None, "2:strong") == "new sonar robots=2:strong"
    assert opening_command("bst", "8x8") == "new bst size=8x8"
