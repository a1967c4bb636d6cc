"""One bad message never stops Discord (issue 24, item 1): a typed message, a slash
command or a catch-up's message with a number out of any range, or one that makes the
host fail, is answered once and the channel's cursor moves past it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord_fake import CHANNEL_ID, GUILD_ID, MEMBER_PERMISSIONS, user_payload
from test_discord_game import DiscordTable, message_bodies, option

from bot.host.commands import lobby
from bot.host.commands.inbox import FAILED_REPLY

HUGE = "99999999999999999999"
MEMBER = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00",
          "deaf": False, "mute": False, "flags": 0, "nick": None}  # fmt: skip


def _said(fake: Any) -> list[str]:
    """Everything the bot said: messages, and answers to interactions."""
    bodies = message_bodies(fake, r"/channels/\d+/messages")
    bodies += message_bodies(fake, r"/webhooks/\d+/[^/]+")
    bodies += [
        r.json.get("data", {}) or {}
        for r in fake.requests_to("POST", r"/interactions/\d+/[^/]+/callback")
        if r.json
    ]
    texts = [str(b.get("content") or "") for b in bodies]
    texts += [str(e.get("description") or "") for b in bodies for e in b.get("embeds") or []]
    return texts


async def _typed(table: DiscordTable, fake: Any, text: str) -> dict[str, Any]:
    payload = fake.message(
        CHANNEL_ID, text, author=user_payload(), message_id=table.next_id(), guild_id=GUILD_ID
    )
    payload["member"] = dict(MEMBER)
    table.adapter.client._connection.parse_message_create(payload)
    return payload


async def _settle(cursors: Any, key: str, wanted: str) -> None:
    for _ in range(300):  # gateway events run as tasks
        if await cursors.get("discord", key) == wanted:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the cursor {key} never reached {wanted}")


@pytest.fixture
async def table(make_adapter: Any, payload_factory: Any, tmp_path: Any):
    made = DiscordTable(make_adapter(message_content=True), payload_factory, tmp_path)
    await made.adapter.login(made.host.on_inbound)
    try:
        yield made
    finally:
        await made.close()


async def test_typed_overflowing_options_are_refused_and_the_cursor_moves(
    table: DiscordTable, fake_discord: Any, cursors: Any
):
    await _typed(table, fake_discord, "#bst new turn=99999999999d")
    last = await _typed(table, fake_discord, f"#bst new seed={HUGE}")
    await _settle(cursors, f"channel:{CHANNEL_ID}", last["id"])
    await table.host.relay.flush()
    said = _said(fake_discord)
    assert any("at most 365d" in text for text in said), said
    assert any("from 0 to 999999999999999999" in text for text in said), said
    with table.store.transaction() as tx:
        assert tx.active_games() == []


async def test_a_slash_command_with_an_overflowing_option_is_answered(
    table: DiscordTable, fake_discord: Any, cursors: Any
):
    await table.slash("new", [option("turn", "99999999999d")], permissions=MEMBER_PERMISSIONS)
    assert any("at most 365d" in text for text in _said(fake_discord)), _said(fake_discord)
    # The next command is handled as if nothing had happened.
    await table.slash("new", [option("size", "8")], permissions=MEMBER_PERMISSIONS)
    with table.store.transaction() as tx:
        assert len(tx.active_games()) == 1


async def test_a_message_that_makes_the_host_fail_is_answered_and_passed(
    table: DiscordTable, fake_discord: Any, cursors: Any, monkeypatch: pytest.MonkeyPatch
):
    real_new = lobby.new

    def new(commands, tx, row, rest):
        if "poison" in row.text:
            raise OverflowError("Python int too large to convert to C int")
        return real_new(commands, tx, row, rest)

    monkeypatch.setattr(lobby, "new", new)
    poison = await _typed(table, fake_discord, "#bst new poison=1")
    await _settle(cursors, f"channel:{CHANNEL_ID}", poison["id"])
    await table.slash("new", [option("size", "poison")], permissions=MEMBER_PERMISSIONS)
    await table.host.relay.flush()
    assert _said(fake_discord).count(FAILED_REPLY) == 2, _said(fake_discord)
    # A catch-up after downtime reads past both: nothing is handed over again.
    assert await table.adapter.fetch_since(cursors, table.host.on_inbound) == 0


async def test_catch_up_passes_a_bad_message_and_reads_the_rest(
    table: DiscordTable, fake_discord: Any, cursors: Any
):
    start = fake_discord.add_history(CHANNEL_ID, "hello", author=user_payload())
    await cursors.set("discord", f"channel:{CHANNEL_ID}", start["id"])
    fake_discord.add_history(CHANNEL_ID, "#bst new turn=99999999999d", author=user_payload())
    last = fake_discord.add_history(CHANNEL_ID, "#bst new size=8", author=user_payload())
    count = await table.adapter.fetch_since(cursors, table.host.on_inbound)
    assert count == 2
    assert await cursors.get("discord", f"channel:{CHANNEL_ID}") == last["id"]
    with table.store.transaction() as tx:
        assert len(tx.active_games()) == 1
