"""host.commands: one inbound → one effect, idempotent, permission-checked, and a
refused message changes nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from host_fakes import HostKit

from bot.host.commands.inbox import Outcome
from bot.host.commands.routing import clean_text
from bot.host.runtime.clock import to_datetime
from bot.store import loads


def snapshot(kit: HostKit) -> tuple:
    row = kit.game()
    with kit.store.transaction() as tx:
        players = [(p.key, p.name) for p in tx.players(1)]
        orders = {k: v.order for k, v in tx.standing_orders(1, row.turn).items()}
    return (row.phase, row.turn, row.deadline, row.paused_remaining, row.state, players, orders)


def test_same_inbound_twice_one_order_one_reply(kit: HostKit) -> None:
    kit.two_player_battle()
    shot = kit.inbound("alice", "#bst F1", message_id="shot-1")
    import asyncio

    first = asyncio.run(kit.host.on_inbound(shot))
    second = asyncio.run(kit.host.on_inbound(shot))
    assert (first.outcome, second.outcome) == (Outcome.HANDLED, Outcome.DUPLICATE)
    with kit.store.transaction() as tx:
        assert len(tx.standing_orders(1, 1)) == 1
        replies = [r for r in tx.outbox(1) if "shoot F1" in r.text]
    assert len(replies) == 1
    kit.flush()
    assert sum("shoot F1" in t for t in kit.adapter.texts()) == 1


@pytest.mark.parametrize("command", ["start", "pause", "extend 2h", "kick alice", "end", "resume"])
def test_non_host_host_commands_refused_nothing_changes(kit: HostKit, command: str) -> None:
    kit.say("alice", "#bst new size=10x10")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("alice", "random", dm=True)
    kit.say("bob", "random", dm=True)
    if command != "start":
        kit.say("alice", "start")
    if command == "resume":
        kit.say("alice", "pause")
    before = snapshot(kit)
    effect = kit.say("bob", command)
    assert effect.outcome is Outcome.REFUSED
    assert snapshot(kit) == before
    kit.flush()
    assert "only the game's host" in kit.adapter.texts()[-1]


def test_channel_admin_may_run_host_commands(kit: HostKit) -> None:
    kit.two_player_battle()
    effect = kit.say("mod", "pause", admin=True)
    assert effect.outcome is Outcome.HANDLED
    assert kit.game().deadline is None and kit.game().paused_remaining == pytest.approx(8 * 3600)


def test_configured_admin_may_run_host_commands(tmp_path: Path) -> None:
    kit = HostKit(tmp_path, admins=frozenset({"fake:id-carol"}))
    kit.two_player_battle()
    assert kit.say("carol", "end").outcome is Outcome.HANDLED
    assert kit.game().phase == "finished"
    kit.store.dispose()


@pytest.mark.parametrize(
    ("user", "text", "dm", "expected"),
    [
        ("alice", "move carrier at C1 9 right", True, "moves 1 to 5"),
        ("alice", "rotate sub at A2", True, "cannot rotate"),
        ("alice", "#bst Z99", False, "off the 10x10 board"),
        ("alice", "fire the cannons", False, "expected"),
        ("alice", "H14", True, "shots are public"),
        ("bob", "move cruiser at F1 2 right", False, "by DM"),
        ("alice", "extend soon", False, "expected how long"),
        ("alice", "resume", False, "not paused"),
        ("alice", "start", False, "already started"),
        ("alice", "kick nobody", False, "no captain called"),
        ("alice", "join", False, "already in this game"),
        ("carol", "leave", False, "not in this game"),
        ("alice", "sub: A2, carrier: C1-C5", True, "placed"),
        ("alice", "x" * 2100, True, "characters long"),
    ],
)
def test_bad_input_refused_clearly_and_changes_nothing(
    kit: HostKit, user: str, text: str, dm: bool, expected: str
) -> None:
    kit.two_player_battle()
    kit.say("alice", "#bst J9")  # a standing order that must survive the refusal
    before = snapshot(kit)
    effect = kit.say(user, text, dm=dm)
    assert effect.outcome is Outcome.REFUSED
    assert snapshot(kit) == before
    kit.flush()
    address, outbound = kit.adapter.sent[-1]
    assert expected in outbound.text
    assert address.is_dm  # refusals are private


def test_refused_placement_in_setup_changes_nothing(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10")
    kit.say("alice", "join")
    kit.say("alice", "sub: A2, carrier: C1-C5", dm=True)
    before = snapshot(kit)
    assert kit.say("alice", "sub: A2, carrier: C1-C4", dm=True).outcome is Outcome.REFUSED
    assert snapshot(kit) == before


def test_order_counts_for_the_turn_the_platform_stamped(kit: HostKit) -> None:
    """§4: fetched late (at the deadline's catch-up) but sent in turn 1: it counts for turn 1."""
    kit.two_player_battle()
    deadline = kit.game().deadline
    kit.adapter.pending.append(
        kit.inbound("alice", "#bst F1", sent_at=to_datetime(deadline - 60), message_id="late-poll")
    )
    kit.clock.set(deadline + 30)
    assert kit.tick() == 1
    with kit.store.transaction() as tx:
        (turn1,) = [t for t in tx.turns(1) if t.number == 1]
    assert loads(turn1.orders) == [{"player": "p1", "action": "shoot", "cell": "F1"}]


def test_order_stamped_after_deadline_is_held_for_the_next_turn(kit: HostKit) -> None:
    kit.two_player_battle()
    deadline = kit.game().deadline
    kit.clock.set(deadline + 10)  # the deadline passed, the host has not resolved yet
    sent = to_datetime(deadline + 5)
    with kit.store.transaction() as tx:
        assert tx.due_games(kit.clock.now())
    # handed over during catch-up so nothing resolves first
    kit.adapter.pending.append(kit.inbound("alice", "#bst F1", sent_at=sent, message_id="next"))
    kit.tick()
    with kit.store.transaction() as tx:
        turns = {t.number: loads(t.orders) for t in tx.turns(1)}
        standing = tx.standing_orders(1, 2)
    assert turns[1] == []
    assert list(standing) == ["p1"]


def test_held_message_then_turn_opens_on_inbound(kit: HostKit) -> None:
    """A message arriving after the deadline (sweeper not yet run) is held, then the turn resolves."""
    kit.two_player_battle()
    deadline = kit.game().deadline
    kit.clock.set(deadline + timedelta(minutes=1).total_seconds())
    effect = kit.say("alice", "#bst F1")
    assert effect.outcome is Outcome.HELD
    assert kit.game().turn == 2
    with kit.store.transaction() as tx:
        assert list(tx.standing_orders(1, 2)) == ["p1"]
        assert tx.standing_orders(1, 1) == {}


@pytest.mark.parametrize(
    ("text", "cleaned"),
    [
        ("#bst join", "join"),
        ("#BST e5", "e5"),
        ("@bstbot #bst H14", "H14"),
        ("kick @carol", "kick @carol"),
        ("@bot kick @carol", "kick @carol"),
        ("join", "join"),
    ],
)
def test_tag_and_leading_mentions_dropped(text: str, cleaned: str) -> None:
    assert clean_text(text) == cleaned


def _dm_without_channel(kit: HostKit, user: str, text: str):  # type: ignore[no-untyped-def]
    """A DM as Discord delivers it: no channel (a DM belongs to none)."""
    return asyncio.run(kit.host.on_inbound(kit.inbound(user, text, dm=True, channel="")))


def test_7_join_by_dm_joins_the_one_game_open(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10")
    assert _dm_without_channel(kit, "bob", "join").outcome is Outcome.HANDLED
    with kit.store.transaction() as tx:
        assert [p.name for p in tx.players(1)] == ["bob"]
    assert _dm_without_channel(kit, "bob", "join").outcome is Outcome.REFUSED  # already in


def test_7_join_by_dm_with_several_games_open_asks_which(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10", channel="one")
    kit.say("alice", "#bst new size=10x10", channel="two")
    assert _dm_without_channel(kit, "bob", "join").outcome is Outcome.REFUSED
    asked = [r.text for r in kit.outbox() if r.recipient == "fake:id-bob"][-1]
    assert "several games are open for joining (1, 2)" in asked and "`join 1`" in asked
    assert _dm_without_channel(kit, "bob", "join 2").outcome is Outcome.HANDLED
    with kit.store.transaction() as tx:
        assert [p.name for p in tx.players(2)] == ["bob"] and tx.players(1) == []
    assert _dm_without_channel(kit, "carol", "join 9").outcome is Outcome.REFUSED


def test_7_join_by_dm_with_no_game_open_says_how_to_find_one(kit: HostKit) -> None:
    assert _dm_without_channel(kit, "bob", "join").outcome is Outcome.REFUSED
    [answer] = [r.text for r in kit.outbox() if r.recipient == "fake:id-bob"]
    assert "no game is open for joining" in answer
