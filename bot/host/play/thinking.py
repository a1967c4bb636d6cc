"""Where robots think: on the host's clock thread, or in worker processes.

A robot's decision is a pure function of picklable values (:class:`Job`: the game,
the level, the seat's view and key, the seed of its random source), so it can be
made anywhere. :class:`InThread` makes it on the thread that asks: deterministic and
cheap, for tests, scripts, ``bst demo`` and ``bst play``. :class:`ProcessPool` makes
it in worker processes (``bst run``, ``[robots] processes``): thousands of robots
thinking at once then take no interpreter lock from the event loop that acknowledges
platform events. Both give the same answers (the seed says everything).

The pool's workers are *spawned*, never forked: the host has threads (a fork copies
a lock held by another thread, held for ever). A worker starts with its first jobs,
and one that dies is replaced for the next pass while this pass's robots think in the
thread instead (logged), so no robot's turn is lost. Some robots remember what they
saw in earlier turns (bst's captains keep their misses and open hits): a game's robots
always think in the same worker, so their memory is there turn after turn; a worker's
death (like a restart of the host) forgets it, and those robots play on from what
their views show.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.games.base import Robot
from bot.games.catalog import games, get_game

log = logging.getLogger(__name__)

T = TypeVar("T")

Thought = tuple[tuple[str, bool], ...]
"""What one robot would send now: each message's text and whether it is public."""

OffLoop = Callable[[Callable[[], T]], Awaitable[T]]
"""How the host runs blocking work off its event loop (``Host._off_loop``)."""

DEATHS_BEFORE_GIVING_UP = 3
"""Passes in a row in which a worker died before the pool is given up for good (a worker
that cannot even start, say): the robots then think on the clock's thread, instead of a
new process being spawned, and dying, at every pass."""

JOBS_PER_TASK = 64
"""Jobs sent to a worker in one task: enough to make the pickling and the pipe cheap
beside the thinking, few enough that several workers share a storm's robots."""


@dataclass(frozen=True)
class Job:
    """One robot seat's decision to make: all it may know (its own seat's view), and
    its game (which worker thinks it: see :class:`ProcessPool`)."""

    game_id: int
    kind: str
    level: str
    view: Any
    key: str
    seed: str


MINDS_KEPT = 4096
"""Games whose robots' memories a process keeps (the least recently asked is forgotten
first): a live host's games with robots, many times over; a forgotten game's robots play
on from what their views show, as after a restart."""

_minds: OrderedDict[tuple[int, str, str], Robot] = OrderedDict()
_minds_lock = threading.Lock()


def _mind(job: Job) -> Robot | None:
    """The robot of ``job``'s game and level, with that game's memory: a game's catalog
    robot is one object for every game, and it keeps its memories by seat (``p1``), so
    two games sharing it would share (and overwrite) their seats' memories."""
    found = (job.game_id, job.kind, job.level)
    with _minds_lock:
        mind = _minds.get(found)
        if mind is not None:
            _minds.move_to_end(found)
            return mind
        catalog_robot = get_game(job.kind).robot_at(job.level)
        if catalog_robot is None:
            return None
        mind = _minds[found] = type(catalog_robot)()
        while len(_minds) > MINDS_KEPT:
            _minds.popitem(last=False)
        return mind


def think(job: Job) -> Thought:
    """The robot's orders for ``job``: the same wherever they are made."""
    robot = _mind(job)
    if robot is None:
        return ()
    said = robot.orders(job.view, job.key, random.Random(job.seed))
    return tuple((s.text, s.public) for s in said)


def think_all(jobs: Sequence[Job]) -> list[Thought]:
    return [think(job) for job in jobs]


class Thinker(Protocol):
    async def think(self, jobs: Sequence[Job], off_loop: OffLoop[list[Thought]]) -> list[Thought]:
        """Each job's thought, in order. ``off_loop`` runs work on the host's clock thread."""
        ...

    def warm(self) -> Sequence[Future[int]]:
        """Start what the thinker needs before the first robot thinks (the host starts),
        without waiting: the answers say when each part is ready (none: nothing to start)."""
        ...

    def close(self) -> None:
        """Stop what the thinker started (the host stops)."""
        ...


def ready() -> int:
    """A worker's first task: the games' catalog loaded, every robot with it, so the
    first robots to think do not wait for a new interpreter's imports."""
    return len(games())


class InThread:
    """Robots think on the host's clock thread, one after another."""

    async def think(self, jobs: Sequence[Job], off_loop: OffLoop[list[Thought]]) -> list[Thought]:
        if not jobs:
            return []
        listed = list(jobs)
        return await off_loop(lambda: think_all(listed))

    def warm(self) -> Sequence[Future[int]]:
        return ()

    def close(self) -> None:
        return None


class ProcessPool:
    """Robots think in ``processes`` spawned worker processes, each started with its
    first jobs; the host awaits their answers without a thread or a transaction held.

    A game's robots always think in the same worker (the game's id picks it): a robot
    that remembers what it saw in earlier turns (bst's captains) finds its memory there,
    turn after turn, as on the clock's thread."""

    def __init__(self, processes: int) -> None:
        if processes < 1:
            raise ValueError(f"a pool of robots' processes needs at least 1, got {processes}")
        self.processes = processes
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        self.replaced = 0  # workers replaced after one died (for the log and tests)
        self.deaths_in_a_row = 0  # passes in a row in which a worker died
        self.given_up = False

    def _worker(self, index: int) -> ProcessPoolExecutor:
        worker = self._workers[index]
        if worker is None:
            worker = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
            self._workers[index] = worker
        return worker

    def warm(self) -> Sequence[Future[int]]:
        """Spawn every worker now and have it load the games: a new interpreter's imports
        take a core for a second, which the host can spare at its start better than in
        the middle of a turn's storm, while it acknowledges platform events."""
        if self.given_up:
            return ()
        started = []
        for index in range(self.processes):
            try:
                started.append(self._worker(index).submit(ready))
            except BrokenProcessPool:
                self._replace(index)  # (the first pass spawns it again)
        return started

    async def think(self, jobs: Sequence[Job], off_loop: OffLoop[list[Thought]]) -> list[Thought]:
        listed = list(jobs)
        if self.given_up or not listed:
            return await InThread().think(listed, off_loop)
        shares: dict[int, list[int]] = {}
        for index, job in enumerate(listed):
            shares.setdefault(job.game_id % self.processes, []).append(index)
        tasks: list[tuple[int, list[int], asyncio.Future[list[Thought]]]] = []
        lost: list[tuple[int, list[int]]] = []  # (worker, jobs) that a dead worker left
        for worker, indices in shares.items():
            for start in range(0, len(indices), JOBS_PER_TASK):
                chunk = indices[start : start + JOBS_PER_TASK]
                try:
                    submitted = self._worker(worker).submit(think_all, [listed[i] for i in chunk])
                except BrokenProcessPool:
                    lost.append((worker, chunk))
                    continue
                tasks.append((worker, chunk, asyncio.wrap_future(submitted)))
        answers = await asyncio.gather(*(task for _, _, task in tasks), return_exceptions=True)
        thoughts: list[Thought] = [()] * len(listed)
        for (worker, chunk, _), answer in zip(tasks, answers, strict=True):
            if isinstance(answer, BrokenProcessPool):
                lost.append((worker, chunk))
            elif isinstance(answer, BaseException):
                raise answer  # (a robot's own error: as on the clock's thread)
            else:
                for index, thought in zip(chunk, answer, strict=True):
                    thoughts[index] = thought
        self.deaths_in_a_row = self.deaths_in_a_row + 1 if lost else 0
        if lost:
            for worker in sorted({worker for worker, _ in lost}):
                self._replace(worker)
            if self.deaths_in_a_row >= DEATHS_BEFORE_GIVING_UP:
                self.given_up = True
                log.error(
                    "robots' worker processes died in %d passes in a row: robots think on "
                    "the clock's thread from now on (see the log above for why they died)",
                    self.deaths_in_a_row,
                )
            again = sorted(index for _, chunk in lost for index in chunk)
            log.warning(
                "a robots' worker process died: %d robots think on the clock's thread this "
                "time (forgetting what they remembered of earlier turns); a new worker "
                "starts with the next",
                len(again),
            )
            redone = await off_loop(lambda: think_all([listed[i] for i in again]))
            for index, thought in zip(again, redone, strict=True):
                thoughts[index] = thought
        return thoughts

    def _replace(self, index: int) -> None:
        broken, self._workers[index] = self._workers[index], None
        self.replaced += 1
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        workers, self._workers = self._workers, [None] * self.processes
        for worker in workers:
            if worker is not None:
                worker.shutdown(wait=True, cancel_futures=True)

    @property
    def started(self) -> bool:
        return any(worker is not None for worker in self._workers)


def thinker_for(processes: int) -> Thinker:
    """``[robots] processes``: 0 thinks on the clock's thread, more in that many workers."""
    return ProcessPool(processes) if processes > 0 else InThread()
