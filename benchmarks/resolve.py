"""Resolving bst turns: 12 captains on 20x20, 10,000 on 250x250, and how it scales."""

from __future__ import annotations

import random
import time

from benchmarks import fixtures
from benchmarks.timing import Figure, median_seconds, per_call_seconds
from bot.games.bst import BST
from bot.host.runtime.collector import collector_paused


def resolve_ms(captains: int, rows: int, cols: int, *, repeats: int, calls: int = 1) -> float:
    """Median milliseconds to resolve one turn where every captain has an order
    (60% shots, 30% moves, 10% rotations). The game is built outside the timing."""
    state = fixtures.battle(captains, rows, cols)
    orders = fixtures.given(fixtures.mixed_orders(state))

    def run() -> None:
        with collector_paused():  # as the turn clock resolves (bot/host/runtime/collector.py)
            BST.rules.resolve(state, orders, random.Random(7))

    if calls > 1:
        return per_call_seconds(run, calls=calls, repeats=repeats) * 1000
    return median_seconds(run, repeats=repeats) * 1000


def run(*, quick: bool) -> list[Figure]:
    small = resolve_ms(12, 20, 20, repeats=5 if quick else 15, calls=200)
    started = time.perf_counter()
    big = resolve_ms(10_000, 250, 250, repeats=3 if quick else 9)
    side = fixtures.side_for(5_000)
    half = resolve_ms(5_000, side, side, repeats=3 if quick else 9)
    spent = time.perf_counter() - started
    density = f"{10_000 / 250**2:.3f} vs {5_000 / side**2:.3f} captains/cell"
    return [
        Figure("resolve_12p_ms", small, 1.0, unit=" ms", detail="12 captains, 20x20"),
        Figure(
            "resolve_10000p_ms",
            big,
            500.0,
            unit=" ms",
            detail=(
                "10,000 captains, 250x250, 10,000 orders (setup untimed; the cyclic "
                "collector paused, as the turn clock resolves)"
            ),
        ),
        Figure(
            "resolve_scaling_ratio",
            big / half,
            2.4,
            floor=f"5,000 captains {side}x{side}",
            detail=f"{half:.0f} ms at 5,000; {density}; {spent:.0f} s with setup",
        ),
    ]
