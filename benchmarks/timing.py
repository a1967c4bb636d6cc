"""Timing helpers: medians of several runs, and the figures the table and JSON report."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


def time_runs(run: Callable[[], object], *, repeats: int, warmup: int = 1) -> list[float]:
    """Seconds of each of ``repeats`` calls of ``run`` (after ``warmup`` untimed calls).

    The cyclic collector runs between calls, not inside them, so one run does not pay
    for the garbage of the one before.
    """
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def median_seconds(run: Callable[[], object], *, repeats: int, warmup: int = 1) -> float:
    return statistics.median(time_runs(run, repeats=repeats, warmup=warmup))


def per_call_seconds(
    run: Callable[[], object], *, calls: int, repeats: int, warmup: int = 1
) -> float:
    """Median over ``repeats`` batches of the mean time of one call in a batch of ``calls``."""

    def batch() -> None:
        for _ in range(calls):
            run()

    return median_seconds(batch, repeats=repeats, warmup=warmup) / calls


@dataclass(frozen=True)
class Figure:
    """One reported number: ``value`` against ``goal`` (``at_most`` or at least)."""

    key: str
    value: float
    goal: float
    at_most: bool = True
    unit: str = ""
    floor: str = ""
    """What the value is a ratio to, when it is one."""
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.value <= self.goal if self.at_most else self.value >= self.goal

    @property
    def goal_text(self) -> str:
        return f"{'≤' if self.at_most else '≥'} {self.goal:g}{self.unit}"
