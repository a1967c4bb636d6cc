"""Where robots think (issue 44: "its thinking never runs on the event loop"): on the
clock's thread, or in spawned worker processes (``bst run``'s ``[robots] processes``).
Both give the same orders; a dead worker costs no robot its turn; the host's stop ends
the pool."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_fakes import HostKit
from sqlmodel import select

from bot.config import Config, ConfigError, parse_config
from bot.host.play.thinking import DEATHS_BEFORE_GIVING_UP, InThread, ProcessPool
from bot.host.runtime.clock import VirtualClock
from bot.store import Store
from bot.store.models import InboundRow
from bot.wiring import build_host, sqlite_url

KINDS = ("bst", "sonar", "uboat", "sugardog", "silentships")


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPool]:
    """One pool for the module's games (a spawned worker takes a while to start)."""
    made = ProcessPool(1)
    yield made
    made.close()


def _robots_game(kit: HostKit, kind: str, turns: int = 3) -> list[tuple[str, str]]:
    """A game of two robots alone, played ``turns`` deadlines on: every robot message
    (id, text) in order, and every post of the host."""
    kit.say("alice", f"#{kind} new robots=2")
    kit.say("alice", f"#{kind} start")
    return _robots_game_on(kit, turns)


def _robot_messages(kit: HostKit, prefix: str = "robot:") -> list[tuple[str, str]]:
    """Every robot message stored (id, text) whose id starts with ``prefix``, in order."""
    with kit.store.transaction() as tx:
        rows = tx.session.exec(select(InboundRow).order_by(InboundRow.id)).all()
    return [(r.message_id, r.text) for r in rows if r.message_id.startswith(prefix)]


def _kit(folder: Path) -> HostKit:
    folder.mkdir()
    return HostKit(folder)


def _posts(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox()]


@pytest.mark.parametrize("kind", KINDS)
def test_robots_in_worker_processes_order_exactly_what_they_order_in_the_thread(
    tmp_path: Path, pool: ProcessPool, kind: str
) -> None:
    in_thread = _kit(tmp_path / "thread")
    in_pool = _kit(tmp_path / "pool")
    in_pool.host.thinker = pool
    try:
        assert isinstance(in_thread.host.thinker, InThread)  # (the default)
        sent = _robots_game(in_thread, kind)
        assert sent  # (the robots did play)
        assert _robots_game(in_pool, kind) == sent
        assert _posts(in_pool) == _posts(in_thread)
        assert pool.started
    finally:
        in_thread.store.dispose()
        in_pool.store.dispose()


def test_a_dead_worker_is_replaced_and_its_robots_think_in_the_thread_meanwhile(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    in_thread = _kit(tmp_path / "thread")
    in_pool = _kit(tmp_path / "pool")
    thinker = ProcessPool(1)
    in_pool.host.thinker = thinker
    try:
        expected = _robots_game(in_thread, "bst", turns=3)
        assert _robots_game(in_pool, "bst", turns=0)  # the setup's and turn 1's orders
        workers = list(thinker._worker(0)._processes.values())
        assert workers
        for worker in workers:
            worker.kill()
            worker.join()
        with caplog.at_level(logging.WARNING, logger="bot.host.play.thinking"):
            sent = _robots_game_on(in_pool, turns=3)
        # Nothing lost: every robot ordered at every turn, with the same message ids (a
        # bst captain's memory of earlier turns died with the worker: its later shots
        # may differ).
        assert [message_id for message_id, _ in sent] == [m for m, _ in expected]
        assert sent[:4] == expected[:4]  # (the setup and turn 1, thought before it died)
        assert thinker.replaced == 1
        assert "robots' worker process died" in caplog.text
        assert thinker.started  # (a new pool thought the later turns)
        assert not any(worker.is_alive() for worker in workers)
    finally:
        thinker.close()
        in_thread.store.dispose()
        in_pool.store.dispose()


def _robots_game_on(kit: HostKit, turns: int) -> list[tuple[str, str]]:
    """The game of :func:`_robots_game` played on ``turns`` more deadlines."""
    for _ in range(turns):
        deadline = kit.game().deadline
        if deadline is not None:
            kit.clock.set(deadline)
        kit.tick()
    return _robot_messages(kit)


def test_workers_dying_pass_after_pass_are_given_up_and_robots_think_in_the_thread(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    in_thread = _kit(tmp_path / "thread")
    in_pool = _kit(tmp_path / "pool")
    thinker = ProcessPool(1)
    in_pool.host.thinker = thinker
    try:
        expected = _robots_game(in_thread, "sonar", turns=0)
        in_pool.say("alice", "#sonar new robots=2")
        with caplog.at_level(logging.WARNING, logger="bot.host.play.thinking"):
            for _ in range(DEATHS_BEFORE_GIVING_UP):
                worker = thinker._worker(0)
                worker.submit(int).result()  # (its process started)
                for process in list(worker._processes.values()):
                    process.kill()
                    process.join()
                asyncio.run(in_pool.host._robots_play())  # a pass: its worker is dead
        # (Sonar's robots send nothing in setup: each pass asks them again.)
        assert thinker.replaced == DEATHS_BEFORE_GIVING_UP
        assert thinker.given_up
        assert "think on the clock's thread from now on" in caplog.text
        in_pool.say("alice", "#sonar start")  # the rest of the game: no process started
        assert not thinker.started
        assert _robots_game_on(in_pool, turns=0) == expected  # (sonar's robots remember
        # nothing between turns: the same orders wherever they thought)
    finally:
        thinker.close()
        in_thread.store.dispose()
        in_pool.store.dispose()


def test_the_host_shuts_its_robots_pool_down_when_it_stops(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    thinker = ProcessPool(1)
    kit.host.thinker = thinker
    try:
        assert not thinker.started  # (lazily: no robot, no process)
        assert _robots_game(kit, "sonar", turns=0)
        workers = list(thinker._worker(0)._processes.values())
        assert workers and all(worker.is_alive() for worker in workers)
        asyncio.run(kit.host.stop())
        assert not thinker.started
        assert not any(worker.is_alive() for worker in workers)
    finally:
        thinker.close()
        kit.store.dispose()


def test_bst_run_thinks_in_the_configured_processes_and_scripts_in_the_thread(
    tmp_path: Path,
) -> None:
    config = parse_config({"robots": {"processes": 2}}, "test.toml")
    assert Config().robots.processes == 1  # (bst run's default: one worker)
    store = Store(sqlite_url(tmp_path / "host.sqlite"))
    try:
        hosted = build_host(
            store, VirtualClock(), {}, config, robot_processes=config.robots.processes
        )
        scripted = build_host(store, VirtualClock(), {}, config)
    finally:
        store.dispose()
    assert isinstance(hosted.thinker, ProcessPool) and hosted.thinker.processes == 2
    assert not hosted.thinker.started
    assert isinstance(scripted.thinker, InThread)


@pytest.mark.parametrize("processes", [-1, 65])
def test_a_robots_processes_count_out_of_bounds_is_refused_naming_the_key(
    processes: int,
) -> None:
    with pytest.raises(ConfigError, match=r"\[robots\] processes: expected .*got -?\d+"):
        parse_config({"robots": {"processes": processes}}, "test.toml")


@pytest.mark.parametrize("level", ["", ":strong"])
def test_two_games_robots_keep_their_own_memories(tmp_path: Path, level: str) -> None:
    """A game's catalog robot is one object, keeping memories by seat (``p1``): a second
    game's robots in the same process must not take over (or reset) the first's."""

    def first_games_robot_messages(kit: HostKit, *, with_a_second: bool) -> list[str]:
        kit.say("alice", f"#bst new size=10 turn=1h robots=2{level}")
        kit.say("alice", "#bst start")
        kit.clock.set(kit.game().deadline)
        kit.tick()  # turn 1: the first game's robots remember what they shot
        if with_a_second:
            kit.say("carol", "#bst new size=10 turn=2h robots=2", channel="other")
            kit.say("carol", "#bst start", channel="other")  # its robots place: new seats p1, p2
        for _ in range(3):
            kit.clock.set(kit.game().deadline)
            kit.tick()
        return [text for _, text in _robot_messages(kit, "robot:1:")]

    alone = _kit(tmp_path / "alone")
    beside = _kit(tmp_path / "beside")
    try:
        played_alone = first_games_robot_messages(alone, with_a_second=False)
        assert len(played_alone) > 6
        assert first_games_robot_messages(beside, with_a_second=True) == played_alone
    finally:
        alone.store.dispose()
        beside.store.dispose()


def test_a_warmed_pool_has_its_workers_ready_before_any_robot_thinks() -> None:
    """``Host.run`` warms the thinker: a worker's imports (a core for a second) are paid at
    the start, not in the middle of a turn's storm while platform events want answers."""
    from concurrent.futures import wait

    from bot.games.catalog import games

    warmed = ProcessPool(2)
    try:
        assert not warmed.started
        answers = warmed.warm()
        assert len(answers) == 2 and warmed.started
        done, _ = wait(answers, timeout=120)
        assert [f.result() for f in done] == [len(games())] * 2
    finally:
        warmed.close()
    assert InThread().warm() == ()
