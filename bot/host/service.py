"""The running host: commands, the turn clock, the relay and the alarm clock, wired once.

Every platform adapter hands its messages to :meth:`Host.on_inbound`; the
same :class:`~bot.host.inbox.Commands`, :class:`~bot.host.turns.TurnClock`
and :class:`~bot.host.outbox.Relay` serve Discord, X, the console, the demo and
scripts. In production an APScheduler ``AsyncIOScheduler`` is the alarm clock:
a ``date`` job armed at the earliest deadline in the database plus a sweeper
every 30 s, both calling :meth:`Host.tick`, which is idempotent.

Group commit: :meth:`Host.on_inbound` queues the message; the single command
worker thread takes whatever has queued up while its previous batch committed
(at most :data:`BATCH_LIMIT`), in arrival order, and handles it with
:meth:`Commands.handle_many` in one transaction. Each caller awaits its own
effect, which it gets only after its batch has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from bot.host.clock import Clock
from bot.host.inbox import Commands, Effect, Outcome
from bot.host.messages import ChatAdapter, Inbound
from bot.host.outbox import AttachmentSource, Relay
from bot.host.turns import TurnClock
from bot.store import DatabaseCursors, Store

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30.0
BATCH_LIMIT = 200  # messages per transaction at most


def _settle(settled: list[tuple[asyncio.Future[Effect], Effect | BaseException]]) -> None:
    """On the callers' event loop: hand each caller its effect (or error)."""
    for future, result in settled:
        if future.done():  # the caller gave up waiting (cancelled): the effect stands anyway
            continue
        if isinstance(result, BaseException):
            future.set_exception(result)
        else:
            future.set_result(result)


class Host:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        adapters: Mapping[str, ChatAdapter],
        attachments: AttachmentSource,
        *,
        admins: frozenset[str] = frozenset(),
        default_turn: str = "8h",
        default_game: str = "",
        reminder_seconds: float = 0.0,
        reminder_platforms: frozenset[str] = frozenset(),
    ) -> None:
        self.store = store
        self.clock = clock
        self.reminder_seconds = reminder_seconds
        self.reminder_platforms = reminder_platforms
        self.adapters = dict(adapters)
        self.commands = Commands(
            store, clock, admins=admins, default_turn=default_turn, default_game=default_game
        )
        self.turns = TurnClock(store, clock, self.commands)
        self.relay = Relay(store, clock, self.adapters, attachments)
        self.cursors = DatabaseCursors(store)
        self._wake_relay = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._scheduler: object | None = None
        self._catching_up = False
        self.unfetched: set[str] = set()  # platforms whose last catch-up failed
        # Commands run on one worker thread, in arrival order: the event loop stays free to
        # acknowledge platform events (Discord's 3-second defer) while a transaction runs.
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bst-commands")
        # Messages waiting for the worker: (message, the caller's loop, the caller's future).
        # Callers may run on different event loops (each asyncio.run in tests is one).
        self._queue: list[tuple[Inbound, asyncio.AbstractEventLoop, asyncio.Future[Effect]]] = []
        self._queue_lock = threading.Lock()
        self._draining = False

    # --- what adapters call ------------------------------------------------

    async def on_inbound(self, inbound: Inbound) -> Effect:
        """Record and carry out one message; the relay is woken to send the replies.

        Returns once the message's batch has committed (see the module docstring)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Effect] = loop.create_future()
        with self._queue_lock:
            self._queue.append((inbound, loop, future))
            start = not self._draining
            self._draining = True
        if start:
            self._worker.submit(self._drain)
        effect = await future
        if effect.outcome is Outcome.HELD and not self._catching_up:
            await self.tick(send=False)
        self._wake_relay.set()
        self._arm_deadline()
        return effect

    def _drain(self) -> None:
        """On the worker thread: handle queued messages, batch after batch, until none wait."""
        while True:
            with self._queue_lock:
                batch = self._queue[:BATCH_LIMIT]
                del self._queue[:BATCH_LIMIT]
                if not batch:
                    self._draining = False
                    return
            results = self._handle_batch([inbound for inbound, _, _ in batch])
            # One wake-up per event loop, not per caller: every caller of a loop is
            # settled by one callback, in arrival order.
            by_loop: dict[
                asyncio.AbstractEventLoop,
                list[tuple[asyncio.Future[Effect], Effect | BaseException]],
            ] = {}
            for (_, loop, future), result in zip(batch, results, strict=True):
                by_loop.setdefault(loop, []).append((future, result))
            for loop, settled in by_loop.items():
                with contextlib.suppress(RuntimeError):  # the caller's loop has closed
                    loop.call_soon_threadsafe(_settle, settled)

    def _handle_batch(self, inbounds: list[Inbound]) -> list[Effect | BaseException]:
        try:
            return list(self.commands.handle_many(inbounds))
        except Exception as error:
            if len(inbounds) == 1:
                return [error]
            # The batch's transaction failed as a whole (so none of it happened): handle
            # each message on its own, so one message cannot fail the others.
            log.warning("a batch of %d failed (%s); handling one by one", len(inbounds), error)
            results: list[Effect | BaseException] = []
            for inbound in inbounds:
                try:
                    results.extend(self.commands.handle_many([inbound]))
                except Exception as single:
                    results.append(single)
            return results

    # --- the clock ---------------------------------------------------------

    async def catch_up(self) -> int:
        """Ask every platform for what it still holds (before a deadline resolves)."""
        handled = 0
        self._catching_up = True
        self.unfetched = set()
        try:
            for adapter in self.adapters.values():
                try:
                    handled += await adapter.fetch_since(self.cursors, self.on_inbound)
                except Exception:
                    # One platform down must not stop the others' turns (its own games
                    # wait a while for it: see TurnClock.resolve_due).
                    log.exception("catch-up from %s failed", adapter.platform)
                    self.unfetched.add(adapter.platform)
        finally:
            self._catching_up = False
        return handled

    async def tick(self, *, send: bool = True) -> int:
        """Resolve whatever is due (after catching up), then send. Idempotent."""
        resolved = 0
        self.turns.remind_due(self.reminder_seconds, self.reminder_platforms)
        if self.turns.due():
            await self.catch_up()
            resolved = self.turns.resolve_due(unfetched=self.unfetched)
        if send:
            await self.relay.flush()
        else:
            self._wake_relay.set()
        self._arm_deadline()
        return resolved

    # --- production loop ---------------------------------------------------

    async def run(self) -> None:
        """Start the adapters, the alarm clock and the relay loop; run until cancelled."""
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        scheduler = AsyncIOScheduler(timezone=UTC)
        scheduler.add_job(
            self.tick,
            "interval",
            seconds=SWEEP_SECONDS,
            id="sweeper",
            max_instances=1,
            coalesce=True,
        )
        scheduler.start()
        self._scheduler = scheduler
        self._arm_deadline()
        self._tasks.append(asyncio.create_task(self._relay_loop()))
        for adapter in self.adapters.values():
            await adapter.start(self.on_inbound)
        await self.tick()
        try:
            await asyncio.Event().wait()
        finally:
            await self.stop()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for adapter in self.adapters.values():
            try:
                await adapter.stop()
            except Exception:
                log.exception("stopping %s", adapter.platform)
        scheduler = self._scheduler
        if scheduler is not None:
            scheduler.shutdown(wait=False)  # type: ignore[attr-defined]
            self._scheduler = None

    def _arm_deadline(self) -> None:
        """Arm the date job at the earliest deadline the database holds."""
        scheduler = self._scheduler
        if scheduler is None:
            return
        deadline = self.turns.next_deadline()
        if deadline is None or deadline <= self.clock.now():
            # Overdue already (a game waiting for its platform to answer): the sweeper
            # comes back to it every SWEEP_SECONDS; a job armed for "now" would spin.
            return
        when = datetime.fromtimestamp(deadline, UTC)
        scheduler.add_job(  # type: ignore[attr-defined]
            self.tick,
            "date",
            run_date=when,
            id="next-deadline",
            replace_existing=True,
            misfire_grace_time=None,
        )

    async def _relay_loop(self) -> None:
        while True:
            try:
                await self.relay.flush()
            except Exception:
                log.exception("relay pass failed")
            next_at = self.relay.next_attempt()
            timeout = 60.0 if next_at is None else max(0.5, next_at - self.clock.now())
            self._wake_relay.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake_relay.wait(), timeout=min(timeout, 60.0))
