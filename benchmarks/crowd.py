"""One bst board for a crowd: 100,000 captains on 1000x1000 (issue 33).

Placement (``BST.start`` placing every fleet at random, and the whole crowd joining and
placing first come, one ``BST.join`` and one ``BST.accept`` at a time), one turn's resolution, how resolution
scales from half the crowd (same captains per cell: the median ratio of back-to-back
pairs), the public digest map and a captain's neighbourhood board after that turn, and
the process's peak memory. Times are CPU seconds of the process (the machine is shared;
the wall clock is shown beside). Everything runs in a fresh interpreter so the peak is
this crowd's alone. The whole turn through the host (``turn_100000p_s``: the crowd
stored in a SQLite database with an order each, then ``TurnClock.resolve_due``) runs in
a second fresh interpreter, with its own peak. ``--quick`` measures 20,000 captains (and 10,000 for the ratio) at
the same density, with goals scaled by the crowd's size (linear growth is the claim
being measured); the pictures' goals are per picture and not scaled.
"""

from __future__ import annotations

import gc
import io
import json
import math
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from sqlalchemy import insert, select
from sqlmodel import col

from benchmarks import fixtures
from benchmarks.memory import _status_kb, measured_apart
from benchmarks.timing import Figure, median_seconds
from bot.games.base import Channel, PlayerRef
from bot.games.bst import BST, BstState, Captain, Order, Place, Shoot
from bot.games.bst.cells import Cell
from bot.games.bst.placement import place_at_random
from bot.host.commands.inbox import Commands
from bot.host.play.turns import TurnClock
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.collector import collector_paused
from bot.store import GameRow, OrderRow, OutboxRow, PlayerRow, Store, dumps
from renderers.bst import PICTURES
from renderers.bst.neighbourhood import neighbourhood_png
from renderers.encode import png_bytes

FULL, QUICK = 100_000, 20_000
FULL_SIDE = 1000  # 100,000 captains on 1000x1000: 0.1 captains a cell
BOARDS = 300  # private pictures timed (the first captains'; each costs its own window)


def side_for(captains: int) -> int:
    """The square side that keeps the full crowd's density (0.1 captains a cell)."""
    return round(FULL_SIDE * math.sqrt(captains / FULL))


def _placed(captains: int, side: int) -> tuple[BstState, float, float]:
    """A battle of ``captains`` fleets placed at random by ``BST.start``, and the CPU and
    wall seconds of the placing."""
    placed: list[BstState] = []
    state = BST.rules.new_game({"size": f"{side}x{side}", "turn": "8h"})
    people = tuple(Captain(id=f"p{i + 1}", name=f"captain{i + 1}") for i in range(captains))
    state = BstState(options=state.options, captains=people)
    cpu, wall = _cpu_and_wall(lambda: placed.append(BST.rules.start(state, random.Random(1)).state))
    return placed[0], cpu, wall


def _private_boards_ms(state: BstState, boards: int) -> tuple[float, float, int]:
    """CPU milliseconds of one captain's private picture (view, PNG and alt text, as the
    host asks for it) over the first ``boards`` captains, the floor (a blank picture of
    the same size, encoded the same way) and the picture's width."""
    captains = [c.id for c in state.captains[:boards]]
    PICTURES.private(BST.views.view(state, captains[0]), **_ASKED)  # the turn's public index
    started = time.process_time()
    for player in captains:
        drawn = PICTURES.private(BST.views.view(state, player), **_ASKED)
    per_board = (time.process_time() - started) * 1000 / len(captains)
    size = Image.open(io.BytesIO(drawn.png)).size
    blank = Image.new("RGB", size, (12, 27, 43))

    def encode_blank() -> None:
        neighbourhood_png(blank)

    floor = median_seconds(encode_blank, repeats=20, warmup=1) * 1000
    return per_board, floor, size[0]


def _digest_ms(state: BstState) -> tuple[float, float]:
    """CPU milliseconds of the public picture of a crowd's board (the digest map and its
    alt text), and the floor: a blank 1000x1000 picture PNG-encoded."""
    view = BST.views.view(state, None)
    started = time.process_time()
    PICTURES.public(view, **_ASKED)
    digest = (time.process_time() - started) * 1000
    blank = Image.new("RGB", (1000, 1000), (12, 27, 43))
    floor = median_seconds(lambda: png_bytes(blank), repeats=5, warmup=1) * 1000
    return digest, floor


_ASKED: dict[str, Any] = {
    "avatars": {},
    "title": "#bst game 1, turn 2",
    "deadline": None,
    "now": None,
}


def _resolver(state: BstState) -> tuple[Callable[[], object], Callable[[], object]]:
    """One turn's resolution of ``state`` with a mixed order from every captain, and its
    floor: a bare pass over the same orders that finds each captain and each shot's cell
    (what any resolution must do)."""
    orders = fixtures.given(fixtures.mixed_orders(state))

    def resolve() -> None:
        with collector_paused():  # as the turn clock resolves (bot/host/runtime/collector.py)
            BST.rules.resolve(state, orders, random.Random(7))

    def bare_pass() -> None:
        index, cols, seen = state.index, state.options.cols, set()
        for given in orders:
            captain = index[given.player]
            order = given.order
            if isinstance(order, Shoot):
                seen.add((captain, order.cell.row * cols + order.cell.col))

    return resolve, bare_pass


def _first_come(captains: int) -> dict[str, float]:
    """A crowd's setup taken first come, first placed: ``captains`` joins (``BST.join``)
    then as many placements (``random``, one ``BST.accept`` each), one at a time from an
    empty board, CPU seconds each; and the floor: the same number of fleets drawn with
    ``place_at_random`` into one plain map, no state (what any placement must do)."""
    side = side_for(captains)
    start = BST.rules.new_game({"size": f"{side}x{side}", "turn": "8h"})
    people = [PlayerRef(f"p{i + 1}", f"captain{i + 1}") for i in range(captains)]
    joined: list[BstState] = []

    def join_all() -> None:
        state = start
        for person in people:
            state = BST.rules.join(state, person)
        joined.append(state)

    def place_all() -> None:
        state, rng = joined[0], random.Random(3)
        for person in people:
            state = BST.rules.accept(state, person.id, Place(None), Channel.PRIVATE, rng).state

    def bare_placements() -> None:
        taken: dict[Cell, object] = {}
        rng = random.Random(3)
        for _ in people:
            for ship in place_at_random(start.options, taken, rng):
                taken.update(dict.fromkeys(ship.cells, True))

    joins, _ = _cpu_and_wall(join_all)
    places, places_wall = _cpu_and_wall(place_all)
    floor, _ = _cpu_and_wall(bare_placements)
    return {
        "first_come_s": places,
        "first_come_wall_s": places_wall,
        "first_come_joins_s": joins,
        "first_come_floor_s": floor,
    }


def _cpu_and_wall(run: Callable[[], object]) -> tuple[float, float]:
    """CPU seconds of this process for one call of ``run``, and wall seconds. The machine
    is shared: under other sessions' load the wall clock counts their time too, while
    the process's CPU time is what the resolution costs (the two agree on an idle core)."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def child(captains: int, repeats: int) -> dict[str, float]:
    """In the fresh process: the half crowd and the crowd, resolved in turn ``repeats``
    times. Each pair is timed back to back, so a burst of load on this shared machine
    falls on both halves of one ratio; the figures are medians over the pairs."""
    half_state, _, _ = _placed(captains // 2, side_for(captains // 2))
    state, placement, placement_wall = _placed(captains, side_for(captains))
    resolve_half, _ = _resolver(half_state)
    resolve_full, bare_pass = _resolver(state)
    halves, fulls, walls, ratios = [], [], [], []
    for _ in range(repeats):
        half, _ = _cpu_and_wall(resolve_half)
        full, wall = _cpu_and_wall(resolve_full)
        halves.append(half)
        fulls.append(full)
        walls.append(wall)
        ratios.append(full / half)
    first_come = _first_come(captains)
    after = BST.rules.resolve(state, fixtures.given(fixtures.mixed_orders(state)), random.Random(7))
    board_ms, board_floor_ms, board_width = _private_boards_ms(after.state, BOARDS)
    digest_ms, digest_floor_ms = _digest_ms(after.state)
    return {
        "digest_ms": digest_ms,
        "digest_floor_ms": digest_floor_ms,
        "board_ms": board_ms,
        "board_floor_ms": board_floor_ms,
        "board_width": board_width,
        **first_come,
        "placement_s": placement,
        "placement_wall_s": placement_wall,
        "resolve_s": statistics.median(fulls),
        "resolve_wall_s": statistics.median(walls),
        "bare_pass_s": median_seconds(bare_pass, repeats=3, warmup=0),
        "half_resolve_s": statistics.median(halves),
        "ratio": statistics.median(ratios),
        "peak_mb": _status_kb("VmHWM") / 1024,
        "load": float(Path("/proc/loadavg").read_text().split()[0]),
    }


TURN_SECONDS = 8 * 3600.0


def _stored_crowd(store: Store, state: BstState, orders: dict[str, Order], start: float) -> None:
    """The battle ``state`` written straight into ``store`` as game 1 in its first turn,
    with every captain's order standing and the turn due at ``start + TURN_SECONDS`` (bulk
    inserts, as ``benchmarks.storm`` writes its games: 100,000 joins would take hours)."""
    deadline = start + TURN_SECONDS
    side = state.options.rows
    # The turn's timer, as the host arms it (bot/host/play/lifecycle.py).
    timer = {"key": "turn:1", "label": "Turn 1", "deadline": deadline, "remaining": None,
             "held": False}  # fmt: skip
    with store.transaction() as tx:
        session = tx.session
        game = {
            "id": 1,
            "kind": "bst",
            "platform": "bench",
            "channel": "crowd",
            "creator": "bench:u1",
            "options": dumps({"size": f"{side}x{side}", "turn": "8h"}),
            "seed": 1,
            "phase": "battle",
            "turn": 1,
            "deadline": deadline,
            "timers": dumps([timer]),
            "state": dumps(BST.codec.encode_state(state)),
            "created_at": start,
        }
        session.execute(insert(GameRow), [game])
        players = [
            {
                "game_id": 1,
                "key": c.id,
                "platform": "bench",
                "user_id": f"u{i + 1}",
                "name": c.name,
                "join_order": i + 1,
            }
            for i, c in enumerate(state.captains)
        ]
        session.execute(insert(PlayerRow), players)
        given = [
            {
                "game_id": 1,
                "player_key": key,
                "turn": 1,
                "order": dumps(BST.codec.encode_order(order)),
                "text": BST.words.describe(order),
                "inbound_id": 0,
                "sent_at": start,
            }
            for key, order in orders.items()
        ]
        session.execute(insert(OrderRow), given)


def turn_child(captains: int) -> dict[str, float]:
    """In a fresh process: the crowd placed and stored with an order each (untimed), then
    its whole turn through the host, ``TurnClock.resolve_due``: the state read, every order
    read and resolved, the new state and the turn stored, the public report and a board
    post for every captain whose board changed written to the outbox. The pictures are not
    in it: the host draws each when it sends it (see ``private_board_ms``). The floor: the
    same outbox rows written to a fresh SQLite table by one bare ``executemany``."""
    state, _, _ = _placed(captains, side_for(captains))
    orders = fixtures.mixed_orders(state)
    with tempfile.TemporaryDirectory(prefix="bst-bench-crowd-") as folder:
        store = Store(f"sqlite:///{Path(folder) / 'crowd.db'}")
        clock = VirtualClock()
        _stored_crowd(store, state, orders, clock.now())
        del state, orders
        turns = TurnClock(store, clock, Commands(store, clock))
        clock.set(clock.now() + TURN_SECONDS)
        resolved: list[int] = []
        cpu, wall = _cpu_and_wall(lambda: resolved.append(turns.resolve_due()))
        if resolved != [1]:
            raise RuntimeError(f"the crowd's turn did not resolve ({resolved})")
        with store.transaction() as tx:
            rows = [
                (r.recipient, r.kind, r.text, r.render, r.extras)
                for r in tx.session.execute(
                    select(OutboxRow).where(col(OutboxRow.turn) == 1)
                ).scalars()
            ]
        store.dispose()
        floor = _cpu_and_wall(lambda: _bare_insert(Path(folder) / "floor.db", rows))[0]
    return {
        "turn_s": cpu,
        "turn_wall_s": wall,
        "turn_floor_s": floor,
        "posts": len(rows),
        "boards": sum(1 for row in rows if row[0] != "public"),
        "turn_peak_mb": _status_kb("VmHWM") / 1024,
        "load": float(Path("/proc/loadavg").read_text().split()[0]),
    }


def _bare_insert(path: Path, rows: list[tuple[str, str, str, str, str]]) -> None:
    with sqlite3.connect(path) as db:
        db.execute("create table outbox (recipient, kind, text, render, extras)")
        db.executemany("insert into outbox values (?, ?, ?, ?, ?)", rows)


def measure(captains: int, repeats: int) -> dict[str, float]:
    result = measured_apart("benchmarks.crowd", str(captains), str(repeats))
    return result | measured_apart("benchmarks.crowd", "turn", str(captains))


def run(*, quick: bool) -> list[Figure]:
    captains = QUICK if quick else FULL
    share = captains / FULL  # goals scale with the crowd: growth must be linear
    side = side_for(captains)
    repeats = 3 if quick else 5
    result = measure(captains, repeats=repeats)
    where = f"{captains:,} captains, {side}x{side}; load average {result['load']:.2f}"
    tag = f"{captains // 1000}k"
    return [
        Figure(
            f"resolve_{captains}p_ms",
            result["resolve_s"] * 1000,
            3000.0 * share,
            unit=" ms",
            floor=f"bare pass over the orders {result['bare_pass_s'] * 1000:.0f} ms",
            detail=(
                f"{where}; one order each (60% shots, 30% moves, 10% rotations); CPU time "
                f"of the process, median of {repeats}; wall clock {result['resolve_wall_s'] * 1000:.0f} ms"
            ),
        ),
        Figure(
            f"resolve_scaling_ratio_{tag}",
            result["ratio"],
            2.2,
            floor=f"{captains // 2:,} captains {side_for(captains // 2)}x{side_for(captains // 2)}",
            detail=(
                f"{result['half_resolve_s'] * 1000:.0f} ms at {captains // 2:,}; same density; "
                f"median of {repeats} back-to-back pairs, CPU time"
            ),
        ),
        Figure(
            f"placement_{captains}p_s",
            result["placement_s"],
            10.0 * share,
            unit=" s",
            detail=(
                f"{where}; every fleet placed at random by BST.start; CPU time of the "
                f"process; wall clock {result['placement_wall_s']:.1f} s"
            ),
        ),
        Figure(
            f"placement_first_come_{captains}p_s",
            result["first_come_s"],
            10.0 * share,
            unit=" s",
            floor=(
                f"as many fleets drawn at random into one map, no state "
                f"{result['first_come_floor_s']:.1f} s"
            ),
            detail=(
                f"{where}; each placement (`random`) accepted one at a time by BST.accept, "
                f"first come, first placed; CPU time of the process; wall clock "
                f"{result['first_come_wall_s']:.1f} s; the {captains:,} joins before them "
                f"(BST.join, one at a time) {result['first_come_joins_s']:.2f} s"
            ),
        ),
        Figure(
            "digest_map_ms",
            result["digest_ms"],
            5000.0,
            unit=" ms",
            floor=f"blank 1000x1000 PNG {result['digest_floor_ms']:.0f} ms",
            detail=(
                f"the public picture of {side}x{side} after one turn of {captains:,}: the "
                "digest map and its alt text, CPU time"
            ),
        ),
        Figure(
            f"private_board_ms_{side}x{side}",
            result["board_ms"],
            5.0,
            unit=" ms",
            floor=f"blank {int(result['board_width'])}px picture encoded alike {result['board_floor_ms']:.1f} ms",
            detail=(
                f"a captain's neighbourhood after one turn of {captains:,}: view, PNG and alt "
                f"text, mean of {BOARDS} captains, CPU time"
            ),
        ),
        Figure(
            f"turn_{captains}p_s",
            result["turn_s"],
            30.0 * share,
            unit=" s",
            floor=f"the turn's outbox rows by one bare executemany {result['turn_floor_s']:.2f} s",
            detail=(
                f"{where}; the whole turn through the host (TurnClock.resolve_due on SQLite): "
                f"orders read and resolved, state and turn stored, {int(result['posts']):,} "
                f"posts in the outbox ({int(result['boards']):,} boards: every captain whose "
                "board changed); the pictures are drawn when sent, not in this figure; CPU "
                f"time of the process; wall clock {result['turn_wall_s']:.1f} s"
            ),
        ),
        Figure(
            f"peak_mb_{captains}p",
            max(result["peak_mb"], result["turn_peak_mb"]),
            2048.0 * share,
            unit=" MB",
            detail=(
                f"{where}; VmHWM of the benchmark's processes: {result['peak_mb']:.0f} MB "
                "placing and resolving the half crowd, then the crowd, and drawing; "
                f"{result['turn_peak_mb']:.0f} MB placing and storing the crowd, then its "
                "turn through the host"
            ),
        ),
    ]


if __name__ == "__main__":
    if sys.argv[1] == "turn":
        print(json.dumps(turn_child(int(sys.argv[2]))))
    else:
        print(json.dumps(child(int(sys.argv[1]), int(sys.argv[2]))))
