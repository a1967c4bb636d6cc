"""Resident memory of one host process holding 1,000 active 12-captain games.

The store is written by the parent; a fresh interpreter then builds the host the way the
``bst`` command does (``bot.wiring.build_host``), touches every game with a resolve pass
(each game's state decoded, resolved, its posts written) and reads its own ``VmRSS``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.storm import prepare_games
from benchmarks.timing import Figure
from bot.store import Store


def measured_apart(module: str, *args: str) -> dict[str, float]:
    """Run ``python -m module args`` in a process of its own (so its peak memory is its
    own) and read the figures it prints as JSON on its last line."""
    output = subprocess.run(
        [sys.executable, "-m", module, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    ).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(database: str, deadline: float) -> dict[str, float]:
    """Run in the fresh process: build the host, touch the games, report memory."""
    from bot.config import Config
    from bot.host.runtime.clock import VirtualClock
    from bot.store import Store
    from bot.wiring import build_host, no_network, sqlite_url

    store = Store(sqlite_url(database))
    clock = VirtualClock()
    host = build_host(store, clock, {}, Config(), avatar_fetch=no_network)
    with store.transaction() as tx:
        active = len(tx.active_games())
    clock.set(deadline)
    resolved = host.turns.resolve_due()
    return {
        "rss_mb": _status_kb("VmRSS") / 1024,
        "peak_mb": _status_kb("VmHWM") / 1024,
        "active": active,
        "resolved": resolved,
    }


def host_rss_mb(games: int = 1000, captains: int = 12) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bst-bench-memory-") as name:
        database = Path(name) / "memory.db"
        store = Store(f"sqlite:///{database}")
        from bot.host.runtime.clock import VirtualClock

        deadline = prepare_games(store, games, captains, start=VirtualClock().now())
        store.dispose()
        result = measured_apart("benchmarks.memory", str(database), repr(deadline))
    if result["active"] < games:
        raise RuntimeError(f"the host saw {result['active']} active games, not {games}")
    return result


def run(*, quick: bool) -> list[Figure]:
    del quick  # the same size either way
    result = host_rss_mb()
    return [
        Figure(
            "rss_mb_1000_games",
            result["rss_mb"],
            300.0,
            unit=" MB",
            detail=(
                f"{result['active']:.0f} active games, {result['resolved']:.0f} resolved in the "
                f"touch pass; peak {result['peak_mb']:.0f} MB"
            ),
        )
    ]


if __name__ == "__main__":
    print(json.dumps(child(sys.argv[1], float(sys.argv[2]))))
