"""Rules 6 and 7 under SIGKILL: a real host process killed at random points and restarted.

Orders go into an inbox file (the platform), time is a file the test advances, and
the process is killed at random moments — mid-catch-up, mid-resolution, mid-relay —
then restarted. At the end: every acknowledged order is kept and counted for the
turn its timestamp falls in, every due turn resolved exactly once, none skipped,
and every outbox row reached the platform exactly once.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from invariants import check_orders_kept, check_sent_exactly_once, check_turns_exactly_once
from process_kit import HostProcess, ProcessFiles, nightly, wait_for

from bot.host.outbox.relay import CLAIM_SECONDS
from bot.store import Store
from bot.wiring import sqlite_url

TURN = 60.0  # game seconds per turn
PLAYERS = ("alice", "bob", "carol")
CHANNELS = ("harbour", "lagoon")


def _random_order(rng: random.Random) -> tuple[str, bool]:
    """A shot in public, or a move/rotation by DM (it may be refused: that is fine too)."""
    if rng.random() < 0.7:
        return f"{rng.choice('ABCDEFGHIJKLMNOP')}{rng.randint(1, 16)}", False
    cell = f"{rng.choice('ABCDEFGHIJKLMNOP')}{rng.randint(1, 16)}"
    ship = rng.choice(["sub", "carrier", "cruiser"])
    if rng.random() < 0.5:
        return f"rotate {ship} at {cell}", True
    return (
        f"move {ship} at {cell} {rng.randint(1, 3)} {rng.choice(['up', 'down', 'left', 'right'])}",
        True,
    )


def _phases(db: Path) -> list[str]:
    store = Store(sqlite_url(db))
    try:
        with store.transaction() as tx:
            return [g.phase for g in tx.all_games()]
    finally:
        store.dispose()


def _quiet(db: Path, lines: int) -> bool:
    """Everything handled, nothing due, nothing left to send."""
    store = Store(sqlite_url(db))
    try:
        with store.transaction() as tx:
            cursor = int(tx.cursor("queue", "inbox") or 0)
            pending = [r for r in tx.outbox() if r.status == "pending"]
            due = tx.due_games(float(Path(db).with_name("clock.txt").read_text()))
        return cursor == lines and not pending and not due
    finally:
        store.dispose()


def crash_and_restart(folder: Path, *, kills: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    files = ProcessFiles(folder)
    process = HostProcess(files)
    order_ids: set[str] = set()
    try:
        process.start()
        process.wait_ready()
        for channel in CHANNELS:
            files.say("alice", f"#bst new size=16 turn={int(TURN)}s", channel=channel)
            for player in PLAYERS:
                files.say(player, "join", channel=channel)
                files.say(player, "random", channel=channel, dm=True)
            files.say("alice", "start", channel=channel)
        wait_for(
            lambda: _phases(Path(files.db)) == ["battle"] * len(CHANNELS),
            timeout=60,
            what="both battles to start",
        )
        for kill in range(kills):
            process.check_alive()
            # Orders and time while the host runs; then a SIGKILL at a random moment.
            for _ in range(rng.randint(1, 6)):
                text, dm = _random_order(rng)
                order_ids.add(
                    files.say(rng.choice(PLAYERS), text, channel=rng.choice(CHANNELS), dm=dm)
                )
                if rng.random() < 0.4:
                    files.advance(rng.uniform(3, 30))
            files.advance(rng.uniform(5, 45))
            time.sleep(rng.uniform(0.05, 0.5))
            process.kill()
            # While it is dead the world goes on: more orders, time passes.
            for _ in range(rng.randint(0, 3)):
                text, dm = _random_order(rng)
                order_ids.add(
                    files.say(rng.choice(PLAYERS), text, channel=rng.choice(CHANNELS), dm=dm)
                )
            if rng.random() < 0.5:
                files.advance(rng.uniform(1, 40))
            process.start()
            if kill % 6 != 5:  # now and then, killed again while still starting up
                process.wait_ready()
        # Last orders, last deadlines, then let it drain without a kill.
        files.advance(TURN + CLAIM_SECONDS)  # rows leased by a killed relay are free again
        total = len(files.written)
        wait_for(lambda: _quiet(Path(files.db), total), timeout=60, what="the host to drain")
        process.check_alive()
    finally:
        process.kill()

    store = Store(sqlite_url(files.db))
    try:
        resolved = check_turns_exactly_once(store)
        with store.transaction() as tx:
            from sqlmodel import select

            from bot.store.models import InboundRow

            recorded = {r.message_id for r in tx.session.exec(select(InboundRow)).all()}
            rows = tx.outbox()
        written = {r["id"] for r in files.written}
        assert written == recorded, f"messages never recorded: {sorted(written - recorded)[:10]}"
        orders = check_orders_kept(store, order_ids, "queue")
        sent = files.sent_lines()
        check_sent_exactly_once(store, sent)
        assert all(r.status == "sent" for r in rows), [r.id for r in rows if r.status != "sent"]
        assert len(sent) == len(rows)
        attempts = files.sent_lines(attempts=True)
    finally:
        store.dispose()
    assert sum(resolved.values()) >= 2 * len(CHANNELS), resolved
    assert orders > 0
    return {
        "turns": sum(resolved.values()),
        "orders": orders,
        "sent": len(sent),
        "retried_sends": len(attempts) - len(sent),
    }


def test_sigkill_at_30_random_points_loses_nothing_and_doubles_nothing(tmp_path: Path) -> None:
    stats = crash_and_restart(tmp_path, kills=30, seed=20260101)
    print(stats)


@pytest.mark.slow
@pytest.mark.skipif(not nightly(), reason="nightly crash loop: set BST_NIGHTLY=1 to run it")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_at_200_random_points_nightly(tmp_path: Path, seed: int) -> None:
    crash_and_restart(tmp_path, kills=200, seed=seed)
