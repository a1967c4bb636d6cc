"""``python -m benchmarks [--quick] [--json FILE] [--only NAME,...]``: measure and report."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import Figure

NAMES = (
    "resolve", "render", "replay", "ingest", "storm", "memory", "ack", "uboat", "sugardog",
    "silentships", "sonar",
)  # fmt: skip
NAMES += ("ack_storm",)  # the acks of `ack` while the deadlines of `storm` resolve
NAMES += ("web",)  # the web page under 200 viewers while a game resolves
NAMES += ("crowd",)  # 100,000 captains on one 1000x1000 bst board
NAMES += ("replay_memory",)  # peak memory of drawing a 250-turn replay
NAMES += ("storm_2proc",)  # two processes sharing a storm on PostgreSQL
NAMES += ("reminders",)  # the reminders' look-ahead when someone keeps quiet hours
NAMES += ("deadline",)  # a storm's maps and boards delivered under Discord's rate limits
NAMES += ("hostile",)  # the worst parse of a huge message, a pixel bomb's refusal
NAMES += ("robots",)  # the strong robot of every game against the easy ones
POSTGRES_ENV = "BST_BENCH_POSTGRES_URL"


def machine() -> str:
    memory_kb = 0
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            memory_kb = int(line.split()[1])
    return (
        f"{os.cpu_count()} cores, {memory_kb / 1024**2:.1f} GiB, Python "
        f"{platform.python_version()}, {platform.platform()}"
    )


def runner(name: str, quick: bool, postgres: str | None) -> Callable[[], list[Figure]]:
    import importlib

    module = importlib.import_module(f"benchmarks.{name}")
    if name in ("ingest", "storm", "storm_2proc"):
        return lambda: module.run(quick=quick, postgres=postgres)
    return lambda: module.run(quick=quick)


def table(figures: list[Figure]) -> str:
    rows = [("name", "median", "goal", "ratio to floor", "result")]
    for f in figures:
        value = f"{f.value:,.3f}{f.unit}" if f.value < 10 else f"{f.value:,.1f}{f.unit}"
        rows.append((f.key, value, f.goal_text, f.floor or "-", "pass" if f.passed else "MISS"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    details = [f"  {f.key}: {f.detail}" for f in figures if f.detail]
    return "\n".join([*lines, "", *details])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, same sizes")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--only", help=f"comma-separated subset of {', '.join(NAMES)}")
    args = parser.parse_args(argv)
    chosen = NAMES if not args.only else tuple(n.strip() for n in args.only.split(","))
    unknown = [n for n in chosen if n not in NAMES]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(NAMES)}")
    postgres = os.environ.get(POSTGRES_ENV) or None
    print(f"machine: {machine()}", flush=True)
    print(f"mode: {'quick' if args.quick else 'full'}", flush=True)
    figures: list[Figure] = []
    started = time.perf_counter()
    for name in chosen:
        began = time.perf_counter()
        measured = runner(name, args.quick, postgres)()
        figures.extend(measured)
        for f in measured:
            print(f"  {name}: {f.key} = {f.value:.3f}{f.unit}", flush=True)
        print(f"{name} done in {time.perf_counter() - began:.0f} s", flush=True)
    print()
    print(table(figures))
    if not postgres and {"ingest", "storm"} & set(chosen):
        print(f"\nPostgreSQL: skipped ({POSTGRES_ENV} is not set)")
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps({f.key: round(f.value, 4) for f in figures}, indent=2) + "\n"
        )
        print(f"wrote {args.json}")
    return 0 if all(f.passed for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
