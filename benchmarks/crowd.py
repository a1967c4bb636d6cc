"""One bst board for a crowd: 100,000 captains on 1000x1000 (issue 33).

Placement (``BST.start`` placing every fleet at random), one turn's resolution, how
resolution scales from half the crowd (same captains per cell) and the process's peak
memory. Everything runs in a fresh interpreter so the peak is this crowd's alone.
``--quick`` measures 20,000 captains (and 10,000 for the ratio) at the same density,
with goals scaled by the crowd's size (linear growth is the claim being measured).
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from pathlib import Path

from benchmarks import fixtures
from benchmarks.memory import _status_kb, measured_apart
from benchmarks.timing import Figure, median_seconds
from bot.games.bst import BST, BstState, Captain, Shoot
from bot.host.collector import collector_paused

FULL, QUICK = 100_000, 20_000
FULL_SIDE = 1000  # 100,000 captains on 1000x1000: 0.1 captains a cell


def side_for(captains: int) -> int:
    """The square side that keeps the full crowd's density (0.1 captains a cell)."""
    return round(FULL_SIDE * math.sqrt(captains / FULL))


def _placed(captains: int, side: int) -> tuple[BstState, float]:
    """A battle of ``captains`` fleets placed at random by ``BST.start``, and its seconds."""
    state = BST.new_game({"size": f"{side}x{side}", "turn": "8h"})
    people = tuple(Captain(id=f"p{i + 1}", name=f"captain{i + 1}") for i in range(captains))
    state = BstState(options=state.options, captains=people)
    started = time.perf_counter()
    battle = BST.start(state, random.Random(1)).state
    return battle, time.perf_counter() - started


def _resolve_s(state: BstState, repeats: int) -> tuple[float, float]:
    """Seconds of one turn's resolution, and of its floor: a bare pass over the same
    orders that finds each captain and each shot's cell (what any resolution must do)."""
    orders = fixtures.given(fixtures.mixed_orders(state))

    def run() -> None:
        with collector_paused():  # as the turn clock resolves (bot/host/collector.py)
            BST.resolve(state, orders, random.Random(7))

    def bare_pass() -> None:
        index, cols, seen = state.index, state.options.cols, set()
        for given in orders:
            captain = index[given.player]
            order = given.order
            if isinstance(order, Shoot):
                seen.add((captain, order.cell.row * cols + order.cell.col))

    floor = median_seconds(bare_pass, repeats=max(3, repeats), warmup=0)
    return median_seconds(run, repeats=repeats, warmup=0), floor


def child(captains: int, repeats: int) -> dict[str, float]:
    """In the fresh process: the half crowd first (its memory is reused), then the crowd."""
    half_state, _ = _placed(captains // 2, side_for(captains // 2))
    half, _ = _resolve_s(half_state, repeats)
    del half_state
    state, placement = _placed(captains, side_for(captains))
    full, floor = _resolve_s(state, repeats)
    return {
        "placement_s": placement,
        "resolve_s": full,
        "bare_pass_s": floor,
        "half_resolve_s": half,
        "peak_mb": _status_kb("VmHWM") / 1024,
        "load": float(Path("/proc/loadavg").read_text().split()[0]),
    }


def measure(captains: int, repeats: int) -> dict[str, float]:
    return measured_apart("benchmarks.crowd", str(captains), str(repeats))


def run(*, quick: bool) -> list[Figure]:
    captains = QUICK if quick else FULL
    share = captains / FULL  # goals scale with the crowd: growth must be linear
    side = side_for(captains)
    result = measure(captains, repeats=1 if quick else 3)
    where = f"{captains:,} captains, {side}x{side}; load average {result['load']:.2f}"
    tag = f"{captains // 1000}k"
    return [
        Figure(
            f"resolve_{captains}p_ms",
            result["resolve_s"] * 1000,
            3000.0 * share,
            unit=" ms",
            floor=f"bare pass over the orders {result['bare_pass_s'] * 1000:.0f} ms",
            detail=f"{where}; one order each (60% shots, 30% moves, 10% rotations)",
        ),
        Figure(
            f"resolve_scaling_ratio_{tag}",
            result["resolve_s"] / result["half_resolve_s"],
            2.2,
            floor=f"{captains // 2:,} captains {side_for(captains // 2)}x{side_for(captains // 2)}",
            detail=f"{result['half_resolve_s'] * 1000:.0f} ms at {captains // 2:,}; same density",
        ),
        Figure(
            f"placement_{captains}p_s",
            result["placement_s"],
            10.0 * share,
            unit=" s",
            detail=f"{where}; every fleet placed at random by BST.start",
        ),
        Figure(
            f"peak_mb_{captains}p",
            result["peak_mb"],
            2048.0 * share,
            unit=" MB",
            detail=f"{where}; the benchmark process's VmHWM (half crowd, then the crowd)",
        ),
    ]


if __name__ == "__main__":
    print(json.dumps(child(int(sys.argv[1]), int(sys.argv[2]))))
