"""Group commit and the fast ingest path: a savepoint per message (one failing message
rolls back only itself; a batch without one takes none), redeliveries inside a batch, concurrent submission through
Host.on_inbound, and the decoded-state cache never serving a state another writer
replaced."""

from __future__ import annotations

import asyncio

import pytest
from host_fakes import HostKit
from sqlmodel import select

from bot.games.catalog import get_game
from bot.host.commands.inbox import FAILED_REPLY, Effect, Outcome
from bot.host.messages import Address
from bot.host.outbox import posts
from bot.host.outbox.wire import encode_address
from bot.store import GameChange, InboundRow, OrderRow, Store, Tx, dumps, loads


def inbound_rows(store: Store) -> dict[str, InboundRow]:
    from sqlmodel import select

    with store.transaction() as tx:
        return {r.message_id: r for r in tx.session.exec(select(InboundRow)).all()}


def test_failing_message_rolls_back_only_its_savepoint(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit.two_player_battle()
    game = get_game("bst")
    real_parse = game.rules.parse

    def parse(text: str):  # type: ignore[no-untyped-def]
        if "G7" in text:
            raise RuntimeError("a bug while parsing")
        return real_parse(text)

    monkeypatch.setattr(game.rules, "parse", parse)
    batch = [
        kit.inbound("alice", "#bst F1", message_id="ok-1"),
        kit.inbound("bob", "#bst G7", message_id="boom"),
        kit.inbound("bob", "#bst Z99", message_id="refused"),
        kit.inbound("bob", "#bst H2", message_id="ok-2"),
        kit.inbound("alice", "#bst F1", message_id="ok-1"),  # redelivered in the same batch
    ]
    results = kit.host.commands.handle_many(batch)
    outcomes = [r.outcome if isinstance(r, Effect) else None for r in results]
    assert outcomes == [
        Outcome.HANDLED,
        Outcome.FAILED,  # answered and recorded, so no platform waits behind it (issue 24)
        Outcome.REFUSED,
        Outcome.HANDLED,
        Outcome.DUPLICATE,
    ]
    rows = inbound_rows(kit.store)
    assert rows["boom"].outcome == "failed"  # nothing else of the failing message remains
    assert rows["refused"].outcome == "refused" and rows["ok-2"].game_id == 1
    with kit.store.transaction() as tx:
        standing = {k: loads(v.order) for k, v in tx.standing_orders(1, 1).items()}
        kinds = [r.kind for r in tx.outbox(1) if r.kind.startswith("reply:")]
    assert {k: v["cell"] for k, v in standing.items()} == {"p1": "F1", "p2": "H2"}
    mine = {rows[m].id for m in ("ok-1", "refused", "ok-2")}
    assert len(kinds) == len(set(kinds))  # no reply twice
    assert {int(k.split(":")[1]) for k in kinds} >= mine  # each handled message answered
    failed = [r for r in kit.outbox() if r.kind == f"reply:{rows['boom'].id}"]
    assert [r.text for r in failed] == [FAILED_REPLY]  # answered once, about no game
    # It would fail at every delivery: a redelivery is not handled again.
    monkeypatch.setattr(game.rules, "parse", real_parse)
    assert kit.say("bob", "#bst G7", message_id="boom").outcome is Outcome.DUPLICATE


def test_a_batch_without_failures_takes_no_savepoints(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Savepoints cost two statements a message: they are taken only when a batch must be
    handled again because one of its messages raised."""
    kit.two_player_battle()
    taken: list[int] = []
    real_savepoint = Tx.savepoint

    def savepoint(self: Tx):  # type: ignore[no-untyped-def]
        taken.append(1)
        return real_savepoint(self)

    monkeypatch.setattr(Tx, "savepoint", savepoint)
    batch = [
        kit.inbound("alice", "#bst F1", message_id="a"),
        kit.inbound("bob", "#bst Z99", message_id="b"),  # refused: an effect, not an error
        kit.inbound("bob", "#bst H2", message_id="c"),
    ]
    outcomes = [getattr(r, "outcome", r) for r in kit.host.commands.handle_many(batch)]
    assert outcomes == [Outcome.HANDLED, Outcome.REFUSED, Outcome.HANDLED]
    assert taken == []


def test_concurrent_submissions_are_batched_and_each_gets_its_effect(kit: HostKit) -> None:
    kit.two_player_battle()
    before = len(kit.outbox())
    batches: list[int] = []
    handle_many = kit.host.commands.handle_many

    def spy(inbounds):  # type: ignore[no-untyped-def]
        batches.append(len(inbounds))
        return handle_many(inbounds)

    kit.host.commands.handle_many = spy  # type: ignore[method-assign]
    messages = [
        kit.inbound("alice" if i % 2 else "bob", f"#bst {'ABCDEFGHIJ'[i % 10]}{i % 10 + 1}")
        for i in range(40)
    ]

    async def burst() -> list[Effect]:
        return list(await asyncio.gather(*(kit.host.on_inbound(m) for m in messages)))

    effects = asyncio.run(burst())
    assert [e.outcome for e in effects] == [Outcome.HANDLED] * 40
    assert sum(batches) == 40 and max(batches) > 1
    assert len(kit.outbox()) == before + 40  # one acknowledgement per order


def test_state_cache_is_checked_against_what_the_transaction_read(kit: HostKit) -> None:
    kit.two_player_battle()
    assert kit.say("bob", "#bst F1").outcome is Outcome.HANDLED  # bob's state is now cached
    # Another writer (another process) removes bob from the game behind this host's back.
    game = get_game("bst")
    with kit.store.transaction() as tx:
        row = tx.game(1)
        assert row is not None
        state = game.rules.remove(game.codec.decode_state(loads(row.state)), "p2").state
        tx.change_game(row, GameChange(state=dumps(game.codec.encode_state(state))))
    effect = kit.say("bob", "#bst F2")
    assert effect.outcome is Outcome.REFUSED
    kit.flush()
    assert "over" in kit.adapter.texts()[-1]  # a stale cached state would accept it


def test_a_batch_reads_its_own_writes(kit: HostKit) -> None:
    """Games, captains and standing orders are read once per batch: every message still
    sees what the messages before it in the same batch did."""
    assert kit.say("alice", "#bst new size=10x10 turn=8h").outcome is Outcome.HANDLED
    setup = [
        kit.inbound("carol", "random", dm=True, message_id="carol-early"),  # not joined yet
        kit.inbound("carol", "join", message_id="carol-join"),
        kit.inbound("carol", "random", dm=True, message_id="carol-fleet"),
        kit.inbound("alice", "join", message_id="alice-join"),
        kit.inbound("bob", "join", message_id="bob-join"),
        kit.inbound("alice", "random", dm=True, message_id="alice-fleet"),
        kit.inbound("bob", "random", dm=True, message_id="bob-fleet"),
        kit.inbound("alice", "start", message_id="start"),
    ]
    outcomes = [getattr(r, "outcome", r) for r in kit.host.commands.handle_many(setup)]
    assert outcomes == [Outcome.REFUSED] + [Outcome.HANDLED] * 7
    battle = [
        kit.inbound("bob", "#bst F1", message_id="bob-1"),
        kit.inbound("bob", "#bst F2", message_id="bob-2"),
        kit.inbound("alice", "#bst H1", message_id="alice-1"),
        kit.inbound("alice", "#bst H1", message_id="alice-1"),  # redelivered
    ]
    outcomes = [getattr(r, "outcome", r) for r in kit.host.commands.handle_many(battle)]
    assert outcomes == [Outcome.HANDLED] * 3 + [Outcome.DUPLICATE]
    rows = inbound_rows(kit.store)
    sent = {m.message_id for m in setup + battle}
    assert {m: (r.game_id, r.outcome) for m, r in rows.items() if m in sent} == {
        m: (1, "refused" if m == "carol-early" else "handled") for m in sent
    }
    with kit.store.transaction() as tx:
        keys = {p.name: p.key for p in tx.players(1)}
        standing = {k: loads(v.order).get("cell") for k, v in tx.standing_orders(1, 1).items()}
        bob_orders = [
            loads(o.order)["cell"]
            for o in tx.session.exec(select(OrderRow).order_by(OrderRow.id)).all()  # type: ignore[arg-type]
            if o.player_key == keys["bob"] and o.turn == 1
        ]
        acks = {r.kind: r.text for r in tx.outbox(1) if r.kind.startswith("reply:")}
    assert standing == {keys["alice"]: "H1", keys["bob"]: "F2"}
    assert bob_orders == ["F1", "F2"]  # both kept as history; the newest stands
    assert "replaces" in acks[f"reply:{rows['bob-2'].id}"]
    assert "replaces" not in acks[f"reply:{rows['bob-1'].id}"]


def test_a_failed_message_leaves_no_standing_order_behind(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message rolled back to its savepoint after writing its order: the next order of the
    same captain in the batch replaces the order that stands in the database."""
    kit.two_player_battle()
    assert kit.say("bob", "#bst F1").outcome is Outcome.HANDLED
    real_reply = posts.reply

    def reply(tx, game_id, row, text, **kwargs):  # type: ignore[no-untyped-def]
        if "G7" in text:
            raise RuntimeError("a bug after the order was written")
        return real_reply(tx, game_id, row, text, **kwargs)

    monkeypatch.setattr(posts, "reply", reply)
    results = kit.host.commands.handle_many(
        [kit.inbound("bob", "#bst G7"), kit.inbound("bob", "#bst H2")]
    )
    assert isinstance(results[0], Effect) and results[0].outcome is Outcome.FAILED
    assert isinstance(results[1], Effect) and results[1].outcome is Outcome.HANDLED
    with kit.store.transaction() as tx:
        cells = [
            loads(o.order)["cell"]
            for o in tx.session.exec(select(OrderRow).order_by(OrderRow.id)).all()  # type: ignore[arg-type]
            if o.player_key == "p2"
        ]
        acks = [r.text for r in tx.outbox(1) if r.kind.startswith("reply:")]
    assert cells == ["F1", "H2"]  # G7 was rolled back with its message
    with kit.store.transaction() as tx:
        assert loads(tx.standing_orders(1, 1)["p2"].order)["cell"] == "H2"
    assert acks[-1].startswith("Turn 1: ") and "H2" in acks[-1]
    assert acks[-1].endswith(")") and "F1" in acks[-1].split("(replaces: ")[1]


def test_reply_addresses_are_the_bytes_address_writes() -> None:
    """An address is written from a cached head (bot.host.outbox.wire): the same JSON as
    _address/dumps."""
    for platform, channel, user_id, user_name, reply_to in [
        ("discord", "c1", None, None, "m1"),
        ("x", "", 'u"1', "Zoë \\ ☃", "m\n2"),
    ]:
        built = encode_address(Address(platform, channel, user_id, user_name, reply_to))
        expected = dumps(
            {
                "platform": platform,
                "channel": channel,
                "user_id": user_id,
                "user_name": user_name,
                "reply_to": reply_to,
            }
        )
        assert built == expected
        assert built == posts._address(
            platform, channel, user_id=user_id, user_name=user_name, reply_to=reply_to
        )
