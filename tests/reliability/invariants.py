"""The promises of house rules 6 and 7, checked against a database and a sent log."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from bot.games.base import Given
from bot.games.catalog import get_game
from bot.host.outbox.relay import address_of, outbound_of
from bot.host.play.seeds import seeded
from bot.store import Store, loads


def check_turns_exactly_once(store: Store) -> dict[int, int]:
    """Every game's turns are 0..N without gap or duplicate, N matching the game's turn,
    and each stored state is the resolution of the one before with the stored orders
    (so no turn was applied twice or skipped). Returns {game id: turns resolved}."""
    resolved: dict[int, int] = {}
    with store.transaction() as tx:
        for game_row in tx.all_games():
            assert game_row.id is not None
            turns = tx.turns(game_row.id)
            numbers = [t.number for t in turns]
            assert len(numbers) == len(set(numbers)), f"game {game_row.id}: duplicate turns"
            assert numbers == list(range(len(numbers))), f"game {game_row.id}: gap in {numbers}"
            if game_row.phase == "battle":
                assert len(numbers) == game_row.turn, (game_row.id, numbers, game_row.turn)
            elif game_row.phase == "finished" and numbers:
                assert numbers[-1] in (game_row.turn, game_row.turn - 1)
            game = get_game(game_row.kind)
            for before, after in itertools.pairwise(turns):
                orders = [
                    Given(
                        record["player"],
                        game.codec.decode_order({k: v for k, v in record.items() if k != "player"}),
                        sent_at=0.0,
                        sequence=number,
                    )
                    for number, record in enumerate(loads(after.orders))
                ]
                state = game.codec.decode_state(loads(before.state))
                result = game.rules.resolve(
                    state, orders, seeded(game_row.seed, "turn", after.number)
                )
                assert game.codec.encode_state(result.state) == loads(after.state), (
                    f"game {game_row.id} turn {after.number} is not its orders' resolution"
                )
            if turns and game_row.phase == "battle":
                assert loads(turns[-1].state) == loads(game_row.state)
            resolved[game_row.id] = len(numbers)
    return resolved


def expected_turn(turns: list[Any], sent_at: float) -> int | None:
    """The battle turn whose window [previous deadline, deadline) holds ``sent_at``."""
    if not turns:
        return None
    start = turns[0].resolved_at
    if sent_at < start:
        return None
    lower = start
    for turn in turns:
        upper = turn.deadline
        if upper is None:
            return turn.number + 1
        if lower <= sent_at < upper:
            return turn.number + 1
        lower = upper
    return turns[-1].number + 1


def check_orders_kept(store: Store, order_ids: set[str], platform: str) -> int:
    """Every order message the host acknowledged (recorded and handled) has exactly one
    order row, counted for the turn its timestamp falls in, and a reply; every resolved
    turn used each player's newest order. Returns how many orders were checked."""
    checked = 0
    with store.transaction() as tx:
        games = {g.id: g for g in tx.all_games()}
        turns = {gid: tx.turns(gid) for gid in games if gid is not None}
        from bot.store.models import InboundRow, OrderRow  # the test may read rows directly

        inbound = list(tx.session.exec(__import__("sqlmodel").select(InboundRow)).all())
        orders = list(tx.session.exec(__import__("sqlmodel").select(OrderRow)).all())
        replies = Counter(
            row.kind.split(":")[1] for row in tx.outbox() if row.kind.startswith("reply:")
        )
    by_inbound = Counter(o.inbound_id for o in orders)
    assert all(count == 1 for count in by_inbound.values()), "an inbound made two orders"
    order_of = {o.inbound_id: o for o in orders}
    for row in inbound:
        if row.platform != platform or row.message_id not in order_ids:
            continue
        assert row.game_id is not None
        assert str(row.id) in replies, f"message {row.message_id} recorded but never answered"
        if row.outcome != "handled":
            continue
        assert row.id in order_of, f"acknowledged order {row.message_id} ({row.text}) lost"
        order = order_of[row.id]
        want = expected_turn(turns[row.game_id], row.sent_at)
        assert order.turn == want, (
            f"{row.message_id} sent at {row.sent_at} counted for turn {order.turn}, not {want}"
        )
        checked += 1
    # Each resolved turn used the newest order of each player for that turn.
    for game_id, game_turns in turns.items():
        for turn in game_turns[1:]:
            standing: dict[str, Any] = {}
            for o in sorted(orders, key=lambda o: o.id or 0):
                if o.game_id == game_id and o.turn == turn.number:
                    standing[o.player_key] = o
            want_orders = sorted(
                (
                    {"player": k, **loads(o.order)}
                    for k, o in standing.items()
                    if loads(o.order).get("action") != "pass"
                ),
                key=lambda r: r["player"],
            )
            assert loads(turn.orders) == want_orders, f"game {game_id} turn {turn.number}"
    return checked


def check_sent_exactly_once(store: Store, sent: list[dict[str, Any]]) -> int:
    """Every outbox row is in the sent log exactly once, and the log holds nothing else."""
    counts = Counter(line["key"] for line in sent)
    doubled = {key: n for key, n in counts.items() if n > 1}
    assert not doubled, f"sent twice: {doubled}"
    with store.transaction() as tx:
        rows = tx.outbox()
    keys = {f"outbox-{row.id}": row for row in rows}
    strangers = set(counts) - set(keys)
    assert not strangers, f"sent but not in the outbox: {strangers}"
    for key, row in keys.items():
        assert row.status in ("sent", "pending"), (key, row.status, row.error)
        if row.status == "sent":
            assert counts[key] == 1, f"{key} marked sent but in the log {counts[key]} times"
    for line in sent:
        # What the relay composes from the row for a platform without pictures: the row's
        # text, and its text board where it has one (issue 27).
        row = keys[line["key"]]
        assert line["text"] == outbound_of(row, address_of(row), (), None).text
    return len(rows)
