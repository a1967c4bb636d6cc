"""Rule 7: a redelivered message is a no-op. Every message delivered twice, out of
order, live and again through catch-up, gives the same orders and the same replies
as delivering each once."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from host_kit import MultiKit

from bot.host.commands.inbox import Outcome
from bot.store.models import InboundRow, OrderRow

PLATFORM = "discord"


def _script(kit: MultiKit) -> list:
    """The battle's messages of one turn: shots in public, moves by DM, chatter, a refusal."""
    say = kit.inbound
    return [
        say(PLATFORM, "alice", "#bst H5", channel="c"),
        say(PLATFORM, "bob", "B2", channel="c"),
        say(PLATFORM, "alice", "move sub at A2 1 down", channel="c", dm=True),
        say(PLATFORM, "bob", "fire at D7", channel="c"),
        say(PLATFORM, "bob", "not an order at all", channel="c"),
        say(PLATFORM, "carol", "E5", channel="c"),  # not in the game: refused
        say(PLATFORM, "alice", "status", channel="c"),
        say(PLATFORM, "bob", "rotate cruiser at F2", channel="c", dm=True),
    ]


def _snapshot(kit: MultiKit) -> tuple[list, list, list]:
    from sqlmodel import select

    with kit.store.transaction() as tx:
        orders = [
            (o.player_key, o.turn, o.order, o.text)
            for o in tx.session.exec(select(OrderRow).order_by(OrderRow.id)).all()
        ]
        inbound = [
            (r.message_id, r.outcome)
            for r in tx.session.exec(select(InboundRow).order_by(InboundRow.id)).all()
        ]
        outbox = [(r.kind.split(":")[0], r.recipient, r.text) for r in tx.outbox()]
    return orders, inbound, outbox


@pytest.mark.parametrize("seed", range(5))
def test_every_message_twice_out_of_order_is_one_order_and_one_reply(
    tmp_path: Path, seed: int
) -> None:
    once = MultiKit(tmp_path / "once", [PLATFORM])
    twice = MultiKit(tmp_path / "twice", [PLATFORM])
    try:
        for kit in (once, twice):
            kit.battle(PLATFORM, "c")
        messages_once = _script(once)
        messages_twice = _script(twice)
        assert [m.message_id for m in messages_once] == [m.message_id for m in messages_twice]
        # The reference: each message once, in the order the platform first delivered it.
        rng = random.Random(seed)
        deliveries = list(range(len(messages_twice))) * 2
        rng.shuffle(deliveries)
        first_seen = list(dict.fromkeys(deliveries))
        for index in first_seen:
            once.deliver(messages_once[index])
        outcomes = [twice.deliver(messages_twice[index]).outcome for index in deliveries]
        assert outcomes.count(Outcome.DUPLICATE) == len(messages_twice)
        # And a third time, through catch-up after a "reconnect".
        twice.adapters[PLATFORM].pending = list(reversed(messages_twice))
        assert asyncio.run(twice.host.catch_up()) == len(messages_twice)

        orders, inbound, outbox = _snapshot(twice)
        assert (orders, inbound, outbox) == _snapshot(once)
        assert len(inbound) == len({m for m, _ in inbound})
        # One reply per message handled after the battle began (each answer exactly once).
        replies = [r for r in twice.outbox() if r.kind.startswith("reply:")]
        per_message: dict[str, int] = {}
        for row in replies:
            inbound_id = row.kind.split(":")[1]
            per_message[inbound_id] = per_message.get(inbound_id, 0) + 1
        assert all(n == 1 for n in per_message.values()), per_message
        # Five order messages, five order rows (kept as history); one standing per captain.
        assert len(orders) == 5
        with twice.store.transaction() as tx:
            assert sorted(tx.standing_orders(1, 1)) == ["p1", "p2"]
        twice.flush()
        sent = twice.adapters[PLATFORM].sent_keys()
        assert len(sent) == len(set(sent)) == len(twice.outbox())
    finally:
        once.close()
        twice.close()


def test_redelivery_after_the_turn_resolved_changes_nothing(tmp_path: Path) -> None:
    kit = MultiKit(tmp_path, [PLATFORM])
    try:
        game_id = kit.battle(PLATFORM, "c")
        shot = kit.inbound(PLATFORM, "alice", "H5", channel="c")
        kit.deliver(shot)
        kit.clock.advance(3601)
        assert kit.tick() == 1
        before = _snapshot(kit)
        assert kit.deliver(shot).outcome is Outcome.DUPLICATE
        kit.adapters[PLATFORM].pending = [shot, shot]
        asyncio.run(kit.host.catch_up())
        assert _snapshot(kit) == before
        assert kit.game(game_id).turn == 2
    finally:
        kit.close()
