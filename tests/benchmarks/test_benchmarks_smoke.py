"""Each benchmark runs once on a tiny size and gives a positive number.

No timing is asserted here: figures come from ``python -m benchmarks``, never from tests.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the benchmarks package lives beside bot/, not installed
    sys.path.insert(0, str(ROOT))

from benchmarks import (  # noqa: E402
    ack,
    crowd,
    ingest,
    memory,
    reminders,
    render,
    replay,
    resolve,
    storm,
)
from benchmarks.timing import Figure  # noqa: E402


def test_resolve_gives_a_time() -> None:
    assert resolve.resolve_ms(12, 20, 20, repeats=1) > 0
    assert resolve.resolve_ms(200, 40, 40, repeats=1, calls=2) > 0


def test_render_gives_a_ratio() -> None:
    assert render.render_ratio(4, 10, repeats=1, calls=1) > 0


def test_replay_gives_a_ratio() -> None:
    assert replay.replay_ratio(3, 10, repeats=1) > 0


def test_ingest_gives_a_ratio(tmp_path: Path) -> None:
    assert all(figure > 0 for figure in ingest.ingest_ratio(20, repeats=1, folder=tmp_path))


def test_storm_gives_a_time(tmp_path: Path) -> None:
    assert storm.storm_seconds(f"sqlite:///{tmp_path / 'storm.db'}", games=3) > 0


def test_reminders_give_both_ticks(tmp_path: Path) -> None:
    quiet, floor, ratio = reminders.tick_ms(tmp_path, games=3, rounds=1)
    assert quiet > 0 and floor > 0 and ratio > 0


def test_memory_gives_a_size() -> None:
    assert memory.host_rss_mb(games=3)["rss_mb"] > 0


def test_ack_gives_a_time() -> None:
    assert ack.p99(ack.ack_latencies_ms(5)) > 0


def test_crowd_gives_times_and_a_peak() -> None:
    result = crowd.measure(200, repeats=1)
    assert result["resolve_s"] > 0 and result["half_resolve_s"] > 0
    assert result["placement_s"] > 0 and result["peak_mb"] > 0
    # The whole turn through the host: a board for every captain whose board changed.
    assert result["turn_s"] > 0 and result["turn_peak_mb"] > 0
    assert result["posts"] == result["boards"] + 1 and result["boards"] > 0


def test_a_figure_knows_its_goal() -> None:
    assert Figure("x_ms", 1.0, 2.0).passed
    assert not Figure("x_ratio", 0.1, 0.25, at_most=False).passed


def test_replay_memory_gives_a_size() -> None:
    from benchmarks import replay_memory

    result = replay_memory.replay_peak(2)
    assert result["added_mb"] > 0 and result["frames"] == 3


def test_storm_2proc_shares_a_tiny_storm_on_postgresql() -> None:
    import os

    import pytest

    from benchmarks import storm_2proc
    from benchmarks.scratch import postgres_schema

    url = os.environ.get("BST_TEST_POSTGRES_URL", "")
    if not url:
        pytest.skip(reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL")
    with postgres_schema(url) as scratch:
        seconds, resolved = storm_2proc.storm(scratch, 2, 6, 4)
    assert seconds > 0 and resolved == 6


def test_ack_storm_with_robots_times_acks_while_every_robot_orders(tmp_path: Path) -> None:
    from benchmarks import ack_storm

    latencies, _, _, robot_orders = asyncio.run(ack_storm._acks_while_robots_think(5, 4, tmp_path))
    assert len(latencies) == 5
    assert robot_orders == 4 * ack_storm.STORM_ROBOTS  # each robot of each game, once
