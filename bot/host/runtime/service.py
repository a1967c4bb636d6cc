"""The running host: commands, the turn clock, the relay and the alarm clock, wired once.

Every platform adapter hands its messages to :meth:`Host.on_inbound`; the
same :class:`~bot.host.commands.inbox.Commands`, :class:`~bot.host.play.turns.TurnClock`
and :class:`~bot.host.outbox.relay.Relay` serve Discord, X, the console, the demo and
scripts. In production an APScheduler ``AsyncIOScheduler`` is the alarm clock:
a ``date`` job armed at the earliest deadline in the database plus a sweeper
every 30 s, both calling :meth:`Host.tick`, which is idempotent.

Nothing slow runs on the event loop, which must stay free to acknowledge platform
events (Discord's 3-second deferral): commands run on the command worker thread,
and the turn clock (reminders, finding what is due, resolving it) on its own clock
thread, so a storm of 1,000 deadlines resolving never delays an acknowledgement.
The relay sends in lanes (see :mod:`bot.host.outbox.relay`). A platform that refuses the
bot for good (:class:`~bot.host.messages.PlatformRefused`, through its adapter's
``link``) stops :meth:`Host.run` with the reason.

Group commit: :meth:`Host.on_inbound` queues the message; the single command
worker thread takes whatever has queued up while its previous batch committed
(at most :data:`BATCH_LIMIT`), in arrival order, and handles it with
:meth:`Commands.handle_many` in one transaction. Each caller awaits its own
effect, which it gets only after its batch has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import TypeVar

from bot.host.commands.inbox import Commands, Effect, Outcome
from bot.host.messages import (
    CatchUpIncomplete,
    ChatAdapter,
    Inbound,
    InboundKind,
    LiveScope,
    PlatformLink,
    PlatformRefused,
    Sender,
    link_of,
    scoped_catch_up_of,
)
from bot.host.outbox.relay import AttachmentSource, Relay
from bot.host.play import away, robots
from bot.host.play.thinking import InThread, Thinker
from bot.host.play.turns import TurnClock
from bot.host.runtime.clock import Clock, to_datetime
from bot.host.runtime.health import DISCONNECTED_AFTER, STUCK_AFTER, Health, HealthServer, assess
from bot.host.runtime.limits import NO_LIMITS, Limits
from bot.host.runtime.yielding import yielding
from bot.store import DatabaseCursors, Store
from bot.store.rooms import rooms_of

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30.0
BATCH_LIMIT = 200  # messages per transaction at most
ROBOT_ROUNDS = 10_000
"""Rounds of robots' messages one look lets through at most: a game of robots alone plays
on (each round a move), and a bug cannot spin forever."""

T = TypeVar("T")


def robot_inbound(sent: robots.RobotOrder, now: float) -> Inbound:
    """A robot's message, as its seat's (see bot.host.play.robots)."""
    return Inbound(
        platform=sent.platform,
        channel=sent.channel,
        sender=Sender(sent.platform, sent.user_id, sent.name),
        kind=InboundKind.PUBLIC if sent.public else InboundKind.DM,
        text=sent.text,
        message_id=sent.message_id,
        sent_at=to_datetime(now),
    )


def _together(due: list[robots.RobotOrder]) -> list[list[robots.RobotOrder]]:
    """The robots' messages in groups sent at once, in order: a message for an away
    player alone (its announcement follows it before the next message, as it always
    did), the others as long runs."""
    groups: list[list[robots.RobotOrder]] = []
    for sent in due:
        if sent.away or not groups or groups[-1][-1].away:
            groups.append([sent])
        else:
            groups[-1].append(sent)
    return groups


class HostCursors(DatabaseCursors):
    """The adapters' cursors in the database, and the forgetting of those no live game
    needs any more (a finished game's channel, a DM with someone who plays no more)."""

    async def forget(self, platform: str, key: str) -> None:
        await asyncio.to_thread(self._forget, platform, key)

    def _forget(self, platform: str, key: str) -> None:
        with self.store.transaction() as tx:
            tx.forget_cursor(platform, key)


HEARTBEAT_SECONDS = 0.005  # while the clock works, the loop notes it is free this often
LOOP_LAG_SECONDS = 0.015  # a beat this late: the loop is busy, the clock makes way
MAKE_WAY_SECONDS = 0.05  # at most this long between two resolutions


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
        health_port: int | None = None,
        health_address: str = "127.0.0.1",
        web_base_url: str = "",
        limits: Limits = NO_LIMITS,
        draw_secret: Callable[[], str] | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        """``health_port``: serve the health signal (:mod:`bot.host.runtime.health`) while
        :meth:`run` runs, on ``health_address`` (0: any free port; None: none).
        ``thinker``: where robots think (default: on the clock's thread; ``bst run``:
        worker processes, see :mod:`bot.host.play.thinking`); :meth:`stop` closes it."""
        self.store = store
        self.clock = clock
        self.reminder_seconds = reminder_seconds
        self.adapters = dict(adapters)
        # Where a reminder is one public post pinging the players missing (Discord), not a
        # DM to each.
        self.public_reminders = frozenset(
            name
            for name in reminder_platforms
            if (adapter := self.adapters.get(name)) is not None
            and adapter.capabilities.reminds_in_public
        )
        self.reminder_platforms = reminder_platforms - self.public_reminders
        self.commands = Commands(
            store,
            clock,
            admins=admins,
            default_turn=default_turn,
            default_game=default_game,
            limits=limits,
            # Where every answer costs (an X reply is a paid post or DM): chatter that
            # mentions the bot is left unanswered there.
            paid_answer_platforms=frozenset(
                name for name, adapter in self.adapters.items() if adapter.capabilities.answers_cost
            ),
            room_platforms=frozenset(
                name for name, adapter in self.adapters.items() if adapter.capabilities.game_rooms
            ),
            card_platforms=frozenset(
                name for name, adapter in self.adapters.items() if adapter.capabilities.shows_cards
            ),
            confirm_platforms=frozenset(
                name
                for name, adapter in self.adapters.items()
                if adapter.capabilities.confirms_final_steps
            ),
            web_base_url=web_base_url,
            draw_secret=draw_secret,
        )
        self.turns = TurnClock(store, clock, self.commands)
        self.relay = Relay(store, clock, self.adapters, attachments, web_base_url=web_base_url)
        self.cursors = HostCursors(store)
        self._wake_relay = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._scheduler: object | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop the scheduler runs on
        self._catching_up = False
        self.unfetched: set[str] = set()  # platforms whose last catch-up failed
        self.waiting: set[int] = set()  # games whose own channel or DMs could not be read
        # The turn clock's work (a storm of resolutions) runs here, off the event loop.
        self._clock_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bst-clock")
        self._beat = time.monotonic()  # when the event loop last ran its heartbeat
        self.health_server = (
            None if health_port is None else HealthServer(self.health, health_address, health_port)
        )
        self.disconnected_after = DISCONNECTED_AFTER
        self.stuck_after = STUCK_AFTER
        # Commands run on one worker thread, in arrival order: the event loop stays free to
        # acknowledge platform events (Discord's 3-second defer) while a transaction runs.
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bst-commands")
        # Messages waiting for the worker: (message, the caller's loop, the caller's future).
        # Callers may run on different event loops (each asyncio.run in tests is one).
        self._queue: list[tuple[Inbound, asyncio.AbstractEventLoop, asyncio.Future[Effect]]] = []
        self._queue_lock = threading.Lock()
        self._draining = False
        # Games with robot seats (or away=robot), as the last look found them; a message
        # to one of them lets its robots act at once (see _robots_play).
        self._robot_games: set[int] = set()
        self._robots_playing = False
        self._robots_again = False
        self.thinker: Thinker = thinker if thinker is not None else InThread()

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
        if (
            effect.outcome is Outcome.HANDLED
            and effect.game_id
            and not inbound.message_id.startswith(robots.MESSAGE_PREFIX)
        ):
            if robots.VERB in inbound.text.lower():
                self._robot_games.add(effect.game_id)  # (seated one, or may: see robots)
            if effect.game_id in self._robot_games:
                # The robots of the game act on what this changed, before the next message.
                await self._robots_play({effect.game_id})
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
            self._arm_from_worker()
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

    def _arm_from_worker(self) -> None:
        """On the worker thread, after a batch: re-arm the date job at the earliest
        deadline (a command may have set one). The query runs here, not on the event
        loop, where it would wait for the write lock of a storm's resolution."""
        loop = self._loop
        if loop is None or self._scheduler is None:
            return
        try:
            deadline = self.turns.next_deadline()
        except Exception:
            log.exception("reading the next deadline failed")
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(self._arm, deadline)

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

    async def _off_loop(self, work: Callable[[], T]) -> T:
        """Run the turn clock's database work on its thread, not the event loop; while it
        runs, the loop beats (see :meth:`_make_way`)."""
        heart = asyncio.create_task(self._heartbeat())
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._clock_worker, yielding, work
            )
        finally:
            heart.cancel()

    async def _heartbeat(self) -> None:
        while True:
            self._beat = time.monotonic()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def _make_way(self) -> None:
        """On the clock thread, between two resolutions: when the event loop has missed
        its beat (a burst of commands to acknowledge keeps it busy), pause until it
        catches up, up to MAKE_WAY_SECONDS, so the loop has the interpreter to itself."""
        waited = 0.0
        while time.monotonic() - self._beat > LOOP_LAG_SECONDS and waited < MAKE_WAY_SECONDS:
            time.sleep(0.001)
            waited += 0.001

    def _live_scopes(self, platforms: Collection[str]) -> dict[str, LiveScope]:
        """The channels and players of each platform's live games, and of those due now
        (the only ones a deadline's catch-up needs to read)."""
        channels: dict[str, set[str]] = {p: set() for p in platforms}
        users: dict[str, set[str]] = {p: set() for p in platforms}
        due_channels: dict[str, set[str]] = {p: set() for p in platforms}
        due_users: dict[str, set[str]] = {p: set() for p in platforms}
        with self.store.transaction() as tx:
            due = {game_id for game_id, *_ in tx.due_games(self.clock.now())}
            for game in tx.active_games():
                if game.id is None:
                    continue
                # Its rooms: its channel, the one it moved out of (into a thread: players
                # still type orders there), and those on any platform it is bridged to.
                rooms = [(game.platform, c) for c in (game.channel, game.lobby) if c]
                rooms += [(r.platform, r.channel) for r in rooms_of(tx, game.id)]
                for platform, channel in rooms:
                    if platform in channels:
                        channels[platform].add(channel)
                        if game.id in due:
                            due_channels[platform].add(channel)
                for player in tx.players(game.id):  # (each on the platform they joined from)
                    if player.platform in users:
                        users[player.platform].add(player.user_id)
                        if game.id in due:
                            due_users[player.platform].add(player.user_id)
        return {
            p: LiveScope(
                frozenset(channels[p]),
                frozenset(users[p]),
                due_channels=frozenset(due_channels[p]),
                due_users=frozenset(due_users[p]),
            )
            for p in platforms
        }

    def _games_behind(self, platform: str, partial: CatchUpIncomplete) -> set[int]:
        """The live games whose channel, or a player's DMs, a catch-up could not read."""
        behind: set[int] = set()
        with self.store.transaction() as tx:
            for game in tx.active_games():
                if game.id is None:
                    continue
                rooms = [(game.platform, game.channel)]
                rooms += [(r.platform, r.channel) for r in rooms_of(tx, game.id)]
                if any(p == platform and c in partial.channels for p, c in rooms) or any(
                    p.platform == platform and p.user_id in partial.users
                    for p in tx.players(game.id)
                ):
                    behind.add(game.id)
        return behind

    async def catch_up(self) -> int:
        """Ask every platform for what it still holds (before a deadline resolves).

        Adapters that can (``fetch_live``) read only the channels and DMs of live games;
        a channel that cannot be read holds back only its own games."""
        handled = 0
        self._catching_up = True
        self.unfetched = set()
        self.waiting = set()
        scoped = {
            name: catching.fetch_live
            for name, adapter in self.adapters.items()
            if (catching := scoped_catch_up_of(adapter)) is not None
        }
        try:
            scopes = await self._off_loop(lambda: self._live_scopes(scoped)) if scoped else {}
            for name, adapter in self.adapters.items():
                try:
                    if name in scoped:
                        handled += await scoped[name](self.cursors, self.on_inbound, scopes[name])
                    else:
                        handled += await adapter.fetch_since(self.cursors, self.on_inbound)
                except CatchUpIncomplete as partial:
                    handled += partial.handled
                    log.warning("catch-up from %s incomplete: %s", adapter.platform, partial)
                    self.waiting |= await self._off_loop(
                        functools.partial(self._games_behind, name, partial)
                    )
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

        def remind_and_look() -> bool:
            self.turns.remind_due(
                self.reminder_seconds, self.reminder_platforms, self.public_reminders
            )
            return bool(self.turns.due())

        await self._pass_for_away()
        await self._robots_play()
        if await self._off_loop(remind_and_look):
            await self.catch_up()
            unfetched, waiting = set(self.unfetched), set(self.waiting)
            resolved = await self._off_loop(
                lambda: self.turns.resolve_due(
                    unfetched=unfetched, waiting=waiting, between=self._make_way
                )
            )
        if resolved:
            await self._robots_play()  # (the turns that opened)
        if send and not self.relay.running:
            await self.relay.flush()
        else:
            self._wake_relay.set()
        await self._arm_deadline_off_loop()
        return resolved

    async def _robots_play(self, game_ids: Collection[int] | None = None) -> None:
        """Each robot seat the games wait for (``game_ids``: of those games; None: every
        game) sends what it decided, from its own seat's view, as a message of the seat's
        (see bot.host.play.robots); again, while robots acted, up to :data:`ROBOT_ROUNDS` rounds
        (a game of robots alone plays on until a person or the clock is needed). The
        robots think on the clock's thread or in worker processes (:attr:`thinker`),
        after the transaction that gathered their views, never on the event loop."""
        if self._robots_playing:
            self._robots_again = True  # (the pass running now looks again)
            return
        self._robots_playing = True
        try:
            for _ in range(ROBOT_ROUNDS):
                self._robots_again = False
                jobs = await self._off_loop(
                    functools.partial(self.turns.robot_jobs, game_ids, self._make_way)
                )
                thoughts = await self.thinker.think([j.job for j in jobs], self._off_loop)
                due = [
                    order
                    for job, thought in zip(jobs, thoughts, strict=True)
                    for order in robots.orders_of(job, thought)
                ]
                if game_ids is None:
                    self._robot_games |= {sent.game_id for sent in due} | set(
                        await self._off_loop(self.turns.robot_games)
                    )
                for group in _together(due):
                    # A group's messages queue at once, so the command worker takes them in
                    # a few batches (one transaction each), in this order, not one by one.
                    now = self.clock.now()
                    effects = await asyncio.gather(
                        *(self.on_inbound(robot_inbound(sent, now)) for sent in group),
                        return_exceptions=True,
                    )
                    for sent, effect in zip(group, effects, strict=True):
                        if isinstance(effect, Exception):
                            log.error(
                                "the robot's message %s failed",
                                sent.message_id,
                                exc_info=effect,
                            )
                            continue
                        if isinstance(effect, BaseException):
                            raise effect
                        if sent.away and effect.outcome is Outcome.HANDLED:
                            await self._off_loop(
                                functools.partial(self.turns.announce_away_robot, sent)
                            )
                if not due and not self._robots_again:
                    break
                if self._robots_again:
                    game_ids = None
        finally:
            self._robots_playing = False

    async def _pass_for_away(self) -> None:
        """In games opened with ``away=pass``: send ``pass`` for each away player the game
        waits for, as a message of theirs (see bot.host.play.away), before anything is due."""
        for sent in await self._off_loop(self.turns.away_passes):
            inbound = Inbound(
                platform=sent.platform,
                channel=sent.channel,
                sender=Sender(sent.platform, sent.user_id, sent.name),
                kind=InboundKind.DM,
                text=away.PASS,
                message_id=sent.message_id,
                sent_at=to_datetime(self.clock.now()),
            )
            try:
                effect = await self.on_inbound(inbound)
            except Exception:
                log.exception("the away pass %s failed", sent.message_id)
                continue
            if effect.outcome is Outcome.HANDLED:
                await self._off_loop(functools.partial(self.turns.announce_away_pass, sent))

    # --- production loop ---------------------------------------------------

    async def run(self) -> None:
        """Start the adapters, the alarm clock and the relay; run until cancelled.

        Raises :class:`~bot.host.messages.PlatformRefused` when a platform refuses
        the bot for good (at start, or later through the adapter's ``link``): the
        process must stop and say what to fix, not stay up doing nothing."""
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        refused: asyncio.Future[PlatformRefused] = asyncio.get_running_loop().create_future()

        def on_refusal(refusal: PlatformRefused) -> None:
            if not refused.done():
                refused.set_result(refusal)

        for link in self.links().values():
            link.on_refusal(on_refusal)
        self.thinker.warm()  # (robots' workers load now, not in a turn's storm)
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
        self._loop = asyncio.get_running_loop()
        try:
            self._arm_deadline()
            self._tasks.append(asyncio.create_task(self.relay.run(self._wake_relay)))
            if self.health_server is not None:
                await self.health_server.start()
            for name, adapter in self.adapters.items():
                try:
                    await adapter.start(self.on_inbound)
                except PlatformRefused:
                    raise
                except Exception:
                    # One platform's trouble at start degrades that platform only (its
                    # link, if it has one, shows it down); the others play on.
                    log.exception("%s could not start; the other platforms go on", name)
            await self.tick()
            raise await refused
        finally:
            await self.stop()

    def health(self) -> Health:
        """Connected and sending? (The health signal's answer, see :mod:`bot.host.runtime.health`.)"""
        silent = time.monotonic() - self.relay.last_read if self.relay.running else 0.0
        return assess(
            self.links(),
            relay_stuck_for=self.relay.stuck_for(),
            relay_silent_for=silent,
            disconnected_after=self.disconnected_after,
            stuck_after=self.stuck_after,
        )

    def links(self) -> dict[str, PlatformLink]:
        """The adapters' connections, for the health signal (adapters without one, such
        as the console, are always there)."""
        return {
            name: link
            for name, adapter in self.adapters.items()
            if (link := link_of(adapter)) is not None
        }

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self._tasks = []
        for adapter in self.adapters.values():
            try:
                await adapter.stop()
            except Exception:
                log.exception("stopping %s", adapter.platform)
        scheduler = self._scheduler
        if scheduler is not None:
            scheduler.shutdown(wait=False)  # type: ignore[attr-defined]
            self._scheduler = None
        if self.health_server is not None:
            await self.health_server.stop()
        # (Off the loop: closing a pool waits for its workers to exit.)
        await asyncio.to_thread(self.thinker.close)

    async def _arm_deadline_off_loop(self) -> None:
        if self._scheduler is None:
            return
        deadline = await self._off_loop(self.turns.next_deadline)
        self._arm(deadline)

    def _arm_deadline(self) -> None:
        """Arm the date job at the earliest deadline the database holds."""
        if self._scheduler is None:
            return
        self._arm(self.turns.next_deadline())

    def _arm(self, deadline: float | None) -> None:
        scheduler = self._scheduler
        if scheduler is None:
            return
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
