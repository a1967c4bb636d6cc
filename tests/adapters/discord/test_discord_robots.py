"""One person and robots, a whole game of every kind to its end, on the strict Discord
fake (issue 44): the game opened with ``/KIND new robots=N``, the person's orders sent
as slash commands, the robots playing every other seat; Discord is never asked to
open a DM with a robot, nor to add one to the game's thread."""

from __future__ import annotations

from typing import Any

import pytest
from discord_fake import MEMBER_PERMISSIONS, USER_ID
from host_fakes import no_attachments
from test_discord_game import DiscordTable, option

from bot.games.base import GamePhase
from bot.host.runtime.service import Host

# Per game: its robots, and the person's orders as (subcommand, options), before the
# start then after it (refused or not: they are hers; the robots never play her seat).
TABLES: dict[str, tuple[str, list[tuple[str, list[Any]]], list[tuple[str, list[Any]]]]] = {
    "bst": ("2", [("place", [option("ships", "random")])], [("shoot", [option("cell", "A1")])]),
    "sonar": ("1", [], [("random", [])]),
    "sugardog": ("1:strong", [], [("silent", [])]),
    "silentships": ("1", [], [("pass", [])]),
    "uboat": ("3", [], [("hold", [])]),
}


class RobotTable(DiscordTable):
    """The Discord table, its host drawing no pictures (a whole game's maps would only
    slow it: the pictures are tested elsewhere)."""

    def __init__(self, adapter: Any, payload_factory: Any, tmp_path: Any) -> None:
        super().__init__(adapter, payload_factory, tmp_path)
        self.host = Host(self.store, self.clock, {"discord": adapter}, no_attachments)


@pytest.mark.parametrize("kind", list(TABLES))
async def test_one_person_and_robots_play_a_whole_game_on_discord(
    make_adapter: Any, fake_discord: Any, payload_factory: Any, tmp_path: Any, kind: str
) -> None:
    robots, before, after = TABLES[kind]
    table = RobotTable(make_adapter(), payload_factory, tmp_path)
    store, clock, host = table.store, table.clock, table.host
    await table.adapter.login(host.on_inbound)
    try:
        size = [option("size", "8")] if kind == "bst" else []
        opened = [*size, option("robots", robots)]
        await table.slash("new", opened, group=kind, permissions=MEMBER_PERMISSIONS)
        await table.slash("join", group=kind)
        for name, options in before:
            await table.slash(name, options, group=kind)
        await table.slash("start", group="host")
        for name, options in after:
            await table.slash(name, options, group=kind)
        for _ in range(400):
            with store.transaction() as tx:
                game = tx.game(1)
            if game.phase == GamePhase.FINISHED or game.deadline is None:
                break
            clock.set(game.deadline)
            await host.tick()
            await host.relay.flush()
        with store.transaction() as tx:
            game = tx.game(1)
            players = tx.players(1)
        assert game.phase == GamePhase.FINISHED
        assert [p.user_id for p in players if not p.robot] == [str(USER_ID)]
        assert len([p for p in players if p.robot]) == int(robots.partition(":")[0])
        dms = fake_discord.requests_to("POST", "/users/@me/channels")
        assert {str(r.json["recipient_id"]) for r in dms} == {str(USER_ID)}
        assert not [r for r in fake_discord.requests if "robot" in r.path]
    finally:
        await table.close()
