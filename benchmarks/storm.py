"""A deadline storm: 1,000 games of 12 captains whose turns close at the same instant.

Where the time goes (py-spy of ``TurnClock.resolve_due``, 1,000 games, one transaction
each; ~2.5–3.5 ms of CPU a game on this 2-core machine, 2.3–3.8 s in all): about a
quarter is the database: SQLite's commit (~10%), beginning the transaction and reading
the game locked (~7%), the plain statements of the resolve path (~7%: the turn's
orders, the step's number, the step, the game's change, held messages, the rooms, the
outbox rows in one ``executemany``). The rest is Python: the game's resolution (~12%),
decoding the stored state (~5%) and encoding the new one and the posts' JSON (~6%),
and the posts (~10%: each captain's board as text, ~7 a game, and summary). What made
it fast (issue 45; ~6–9 s of CPU before): the boards' text drawn into a grid of rows
instead of a ``Cell`` lookup per square (it was a third of the storm), the resolve
path's reads and writes in plain SQL instead of ORM statements (add_turn's flush,
next_step, orders_of_turn, held_inbound, rooms_of: ~1.5 ms a game), the session's
events listened to once on the session class instead of on every transaction's
session, the store's JSON encoder made once. Not done: several games in one
transaction (a game's resolution is all or nothing on its own, and a transaction per
game is what lets two processes share a storm), a faster JSON library.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, insert, select

from benchmarks import fixtures
from benchmarks.scratch import postgres_schema
from benchmarks.timing import Figure
from bot.games.bst import BST
from bot.host.clock import VirtualClock
from bot.host.inbox import Commands
from bot.host.turns import TurnClock
from bot.store import GameRow, OrderRow, OutboxRow, PlayerRow, Store, dumps
from bot.store.records import ROBOT_USER

PLATFORM = "bench"
TURN_SECONDS = 8 * 3600.0


def prepare_games(
    store: Store,
    games: int,
    captains: int = 12,
    *,
    start: float,
    platform: str = PLATFORM,
    channel_of: Callable[[int], str] = lambda n: f"storm-{n + 1}",
    user_of: Callable[[int, int], str] = lambda n, seat: f"u{n + 1}-{seat}",
    robots: int = 0,
) -> float:
    """Write ``games`` battles straight into the store, every captain with a standing order
    for turn 1, all due at the same deadline (returned). Seconds, not minutes: rows go in
    by bulk insert instead of one command each. ``channel_of(n)`` and ``user_of(n, seat)``
    (n from 0, seats from 1) name the ``n``-th game's channel and captains on ``platform``.
    ``robots``: each game's last seats are played by that many (easy) robots, seated as
    the host seats them (bot.host.robots): they order as each turn opens."""
    deadline = start + TURN_SECONDS
    with store.transaction() as tx:
        session = tx.session
        first_id = (session.execute(select(func.max(GameRow.id))).scalar() or 0) + 1
        game_rows, player_rows, order_rows = [], [], []
        turn_timer = {
            "key": "turn:1",
            "label": "Turn 1",
            "deadline": deadline,
            "remaining": None,
            "held": False,
        }
        for n in range(games):
            game_id = first_id + n
            state = fixtures.battle(captains, 20, 20, seed=game_id)
            orders = fixtures.mixed_orders(state, seed=game_id)
            game_rows.append(
                {
                    "id": game_id,
                    "kind": "bst",
                    "platform": platform,
                    "channel": channel_of(n),
                    "creator": f"{platform}:{user_of(n, 1)}",
                    "options": dumps({"size": "20", "turn": "8h"}),
                    "seed": game_id,
                    "phase": "battle",
                    "turn": 1,
                    "deadline": deadline,
                    # The turn's timer, as the host arms it (bot/host/lifecycle.py).
                    "timers": dumps([turn_timer]),
                    "state": dumps(BST.codec.encode_state(state)),
                    "created_at": start,
                }
            )
            for i, captain in enumerate(state.captains):
                robot = i >= len(state.captains) - robots
                player_rows.append(
                    {
                        "game_id": game_id,
                        "key": captain.id,
                        "platform": platform,
                        "user_id": f"{ROBOT_USER}{game_id}:{i + 1}" if robot else user_of(n, i + 1),
                        "name": captain.name,
                        "join_order": i + 1,
                        "robot": "easy" if robot else "",
                    }
                )
            for key, order in orders.items():
                order_rows.append(
                    {
                        "game_id": game_id,
                        "player_key": key,
                        "turn": 1,
                        "order": dumps(BST.codec.encode_order(order)),
                        "text": BST.words.describe(order),
                        "inbound_id": 0,
                        "sent_at": start,
                    }
                )
        session.execute(insert(GameRow), game_rows)
        session.execute(insert(PlayerRow), player_rows)
        session.execute(insert(OrderRow), order_rows)
    return deadline


def storm_seconds(url: str, games: int = 1000, captains: int = 12) -> float:
    """Seconds for ``TurnClock.resolve_due`` to resolve every game due at one instant, with
    every post of every turn written to the outbox (the store is built untimed)."""
    store = Store(url)
    store.migrate()  # PostgreSQL is migrated explicitly (`bst migrate`); SQLite already is
    clock = VirtualClock()
    deadline = prepare_games(store, games, captains, start=clock.now())
    turns = TurnClock(store, clock, Commands(store, clock))
    clock.set(deadline)
    started = time.perf_counter()
    resolved = turns.resolve_due()
    spent = time.perf_counter() - started
    with store.transaction() as tx:
        posts = tx.session.execute(
            select(func.count()).select_from(OutboxRow).where(OutboxRow.turn == 1)
        ).scalar()
    store.dispose()
    if resolved < games:
        raise RuntimeError(f"only {resolved} of {games} games resolved")
    storm_seconds.last = (resolved, posts)  # type: ignore[attr-defined]
    return spent


def run(*, quick: bool, postgres: str | None = None) -> list[Figure]:
    del quick  # the same size either way: one storm is the measurement
    with tempfile.TemporaryDirectory(prefix="bst-bench-storm-") as name:
        seconds = storm_seconds(f"sqlite:///{Path(name) / 'storm.db'}")
    resolved, posts = storm_seconds.last  # type: ignore[attr-defined]
    figures = [
        Figure(
            "storm_s",
            seconds,
            20.0,
            unit=" s",
            detail=f"{resolved} games resolved, {posts} posts in the outbox (SQLite)",
        )
    ]
    if postgres:
        with postgres_schema(postgres) as scratch:
            seconds = storm_seconds(scratch)
        resolved, posts = storm_seconds.last  # type: ignore[attr-defined]
        figures.append(
            Figure(
                "storm_s_postgres",
                seconds,
                20.0,
                unit=" s",
                detail=f"{resolved} games, {posts} posts (PostgreSQL)",
            )
        )
    return figures
