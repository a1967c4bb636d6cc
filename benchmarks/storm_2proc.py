"""Two host processes sharing a storm on PostgreSQL: the time for 1,000 games due at one
instant with two processes resolving ÷ with one, in the same run.

Each storm is written into a fresh schema of its own (``benchmarks.scratch``); each
process is a fresh interpreter that builds the turn clock, waits for a common start time
(so interpreter start-up is not measured) and calls ``resolve_due``. A storm's time runs
from the earliest start to the last process's end. Needs ``BST_BENCH_POSTGRES_URL``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.scratch import postgres_schema
from benchmarks.storm import prepare_games
from benchmarks.timing import Figure

GOAL = 0.7
START_DELAY_S = 6.0  # time for the interpreters to start before the common start


def child(url: str, deadline: float, start_at: float) -> dict[str, float]:
    """Run in a fresh process: resolve what is due from ``start_at`` (wall clock)."""
    from bot.host.commands.inbox import Commands
    from bot.host.play.turns import TurnClock
    from bot.host.runtime.clock import VirtualClock
    from bot.store import Store

    store = Store(url, auto_migrate=False)
    clock = VirtualClock()
    turns = TurnClock(store, clock, Commands(store, clock))
    clock.set(deadline)
    time.sleep(max(0.0, start_at - time.time()))
    began = time.time()
    resolved = turns.resolve_due()
    ended = time.time()
    store.dispose()
    return {"began": began, "ended": ended, "resolved": resolved}


def storm(url: str, processes: int, games: int, captains: int) -> tuple[float, int]:
    """Seconds for ``processes`` processes to resolve ``games`` due games; how many resolved."""
    from bot.host.runtime.clock import VirtualClock
    from bot.store import Store

    store = Store(url, auto_migrate=False)
    store.migrate()
    deadline = prepare_games(store, games, captains, start=VirtualClock().now())
    store.dispose()
    start_at = time.time() + START_DELAY_S
    running = [
        subprocess.Popen(
            [sys.executable, "-m", "benchmarks.storm_2proc", url, repr(deadline), repr(start_at)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[1],
        )
        for _ in range(processes)
    ]
    results = []
    for process in running:
        output, _ = process.communicate()
        if process.returncode != 0:
            raise RuntimeError(f"a storm process failed with {process.returncode}")
        results.append(json.loads(output.strip().splitlines()[-1]))
    seconds = max(r["ended"] for r in results) - min(r["began"] for r in results)
    storm.shares = [int(r["resolved"]) for r in results]  # type: ignore[attr-defined]
    return seconds, int(sum(r["resolved"] for r in results))


def run(*, quick: bool, postgres: str | None = None) -> list[Figure]:
    if not postgres:
        return []
    games = 200 if quick else 1000
    with postgres_schema(postgres) as scratch:
        one, resolved_one = storm(scratch, 1, games, 12)
    with postgres_schema(postgres) as scratch:
        two, resolved_two = storm(scratch, 2, games, 12)
    shares = " + ".join(str(n) for n in storm.shares)  # type: ignore[attr-defined]
    if resolved_one != games or resolved_two != games:
        raise RuntimeError(f"resolved {resolved_one} and {resolved_two} of {games} games")
    return [
        Figure(
            "storm_2proc_ratio",
            two / one,
            GOAL,
            floor="the same storm with one process",
            detail=(
                f"{games} games x 12 captains on PostgreSQL: one process {one:.1f} s, "
                f"two processes {two:.1f} s ({shares} games), each game resolved once"
            ),
        )
    ]


if __name__ == "__main__":
    print(json.dumps(child(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))))
