"""Discord, round two (issue 26): what a live host still meets, played through the fake
Discord (as strict as the platform) and the production host on a virtual clock."""

from __future__ import annotations

from typing import Any

import pytest
from discord_fake import CHANNEL_ID, DM_CHANNEL_ID, OTHER_USER_ID, USER_ID, FakeDiscord
from test_discord_game import option
from test_discord_native import Table, with_button

import bot.games.bst  # noqa: F401  (importing a game registers it)
from bot.host.messages import Address, Choice, Outbound


@pytest.fixture
async def table(make_adapter: Any, fake_discord: FakeDiscord, tmp_path: Any) -> Any:
    made = Table(make_adapter, fake_discord, tmp_path)
    await made.start()
    try:
        yield made
    finally:
        await made.close()


def players_of(table: Table, game: int) -> set[str]:
    with table.store.transaction() as tx:
        return {p.user_id for p in tx.players(game)}


async def test_4_a_button_carries_its_games_number_so_a_click_is_about_that_game(
    table: Table, fake_discord: FakeDiscord
) -> None:
    # Two games opened in one channel, each in its own thread.
    await table.slash("new", [option("size", "8")], group="bst")
    await table.slash("new", [option("size", "8")], group="bst")
    first, second = int(table.game(1).channel), int(table.game(2).channel)
    assert first != second
    # The lobby's Join of game 2, clicked in the lobby, joins game 2 (not "which game?").
    [join_2] = with_button(table.posts(CHANNEL_ID), "bst2:o:2:#bst join")
    await table.click(join_2, "bst2:o:2:#bst join", user_id=USER_ID)
    assert players_of(table, 2) == {str(USER_ID)} and players_of(table, 1) == set()
    # A player in both games clicks a private button of game 1 in a DM, which belongs to
    # no channel: the click is about game 1, not "the sender's one game".
    await table.slash("join", group="bst", channel_id=first, user_id=USER_ID)
    await table.adapter.send(
        Address("discord", channel=str(first), user_id=str(USER_ID)),
        Outbound("Your fleet?", choices=(Choice("Random", "#bst random", True),), game=1),
    )
    [asked] = with_button(table.posts(DM_CHANNEL_ID), "bst2:p:1:#bst random")
    await table.click(asked, "bst2:p:1:#bst random", user_id=USER_ID)
    answer = table.posts(DM_CHANNEL_ID)[-1]["content"]
    assert answer.startswith("Placed at random"), answer
    # A button made before buttons carried game numbers (bst1:) still works, in the game's
    # thread as before.
    [opening] = table.posts(first)[:1]
    await table.click(opening, "bst1:o:#bst join", user_id=OTHER_USER_ID)
    assert players_of(table, 1) == {str(USER_ID), str(OTHER_USER_ID)}
