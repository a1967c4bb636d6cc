"""The relay: sends what the outbox holds, in order, exactly once.

Rows were written in the same transaction as the change that caused them, so
nothing said is lost on a crash. The relay sends pending rows in id order,
draws their attachments from the stored turns just before sending, records the
platform's message id, and retries failures with exponential backoff or the
platform's own retry-after. A message that can never be delivered (a DM to a
player who closed their DMs) is marked undeliverable without holding up
anything else, and the game's channel gets a nudge that says nothing about the
board. A ``withdraw:`` row removes a public message that gave a secret away
(a move posted in the channel) through the adapter's ``withdraw``; on a
platform without one it is marked skipped. Each send carries the row's stable
key, from which adapters derive their idempotency nonce, so a send retried after
a crash is not doubled, and says whether an earlier attempt may have arrived (its
outcome unknown, not merely failed: :func:`may_have_arrived`), for an adapter with no
nonce to look first; a claimed row's lease is renewed while its send runs, and passing
failures are retried for GIVE_UP_SECONDS.

Lanes: rows go out in id order within a *lane*, and the lanes go side by side, so a
reply to a Discord command never waits behind an X video being processed (a minute
of status polls) or behind another platform's rate-limit pause. A lane is a
platform unless its adapter says otherwise (``lane(address)``: Discord gives the
interaction follow-ups their own, since each must come within the interaction's 15
minutes, and DMs theirs, so that the pace at which new DMs may be opened holds back
only the DMs waiting for it, never a public post); an adapter's lane of ``None`` means
"not this process's" (another shard holds the interaction, or owns the channel), and
the row is left for that process. A place's rows keep their id order across lanes: a
row waits while an older one to the same place is being sent or waits to be retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.host.commands import links
from bot.host.messages import (
    Address,
    Attachment,
    Card,
    ChatAdapter,
    Choice,
    DeliveryError,
    Outbound,
    attachment_choice_of,
    channel_links_of,
    game_rooms_of,
    group_rooms_of,
    lanes_of,
    mentions_of,
    withdrawing_of,
)
from bot.host.outbox import posts
from bot.host.outbox.wire import NUDGE, Act, PostKind, decode_address
from bot.host.runtime.clock import Clock
from bot.store import Store, Tx, loads, records
from bot.store.changes import PostChange

log = logging.getLogger(__name__)

GIVE_UP_SECONDS = 3 * 24 * 3600.0
"""A message that keeps failing for a passing reason (a platform down, rate limits) is
retried, at most every MAX_BACKOFF, for this long after it was written: a long outage
delays the backlog but loses none of it."""
MAX_BACKOFF = 900.0
CLAIM_SECONDS = 60.0  # a row being sent is leased this long to the relay sending it
RENEW_SECONDS = 20.0  # while a send lasts (a video upload), its lease is renewed this often
READ_LIMIT = 1000  # due rows read per pass, every lane's together
IDLE_SECONDS = 60.0  # the reader looks again at least this often
FOREIGN_WAIT = 5.0  # rows left for another process are looked at again this often

MAY_HAVE_ARRIVED = "(may have arrived) "
"""How a row's ``error`` begins once an attempt of it ended without telling whether the
platform took the message (see :func:`outcome_unknown`). Kept through the failures after
it: a later refusal says nothing of the earlier attempt."""

AttachmentSource = Callable[[records.Post], Awaitable[Sequence[Attachment]]]
T = TypeVar("T")


def backoff(attempts: int) -> float:
    """2 s, 4 s, 8 s … capped at 15 minutes."""
    return float(min(MAX_BACKOFF, 2.0**attempts))


def outcome_unknown(error: DeliveryError) -> bool:
    """Whether a failed attempt may have reached the platform all the same. Not when the
    platform answered with a refusal that says it took nothing: a rate limit with its
    wait (or the adapter's own budget refusing before asking), a refusal of this
    recipient for now, a permanent refusal. A network error, a timeout, a server error
    or an adapter's crash may have come after the platform took the message (its answer
    lost)."""
    return not (error.permanent or error.retry_after is not None or error.per_recipient)


def may_have_arrived(row: records.Post) -> bool:
    """Whether an earlier attempt at ``row`` (as read before this attempt claimed it) may
    have delivered it, its outcome unknown: one that ended in a failure that proves
    nothing (:func:`outcome_unknown`), or one cut off before its outcome was recorded (the
    relay sending it died: a row never tried has ``next_attempt_at`` 0 until a relay
    leases it, and only a recorded outcome counts an attempt). An attempt that failed
    definitely (refused) does not count: the message is sent again without looking."""
    if row.error.startswith(MAY_HAVE_ARRIVED):
        return True
    return row.attempts == 0 and row.next_attempt_at > 0


def address_of(row: records.Post) -> Address:
    return decode_address(row.address)


def in_room(address: Address, row: records.Post, lobby: str, room: str) -> Address:
    """Where a row goes once its game moved from ``lobby`` into ``room`` (a thread): what
    was written for the game's channel before the move goes to the room, except the
    rows meant for the lobby itself (the room's opening, the line when the game ends) and
    answers to a message sent in the lobby (a reply stays beside what it answers)."""
    if not lobby or address.channel != lobby or address.channel == room:
        return address
    if PostKind.parse(row.kind).for_lobby:
        return address
    if not address.is_dm and address.reply_to:
        return address
    return dataclasses.replace(address, channel=room)


def destination(row: records.Post, address: Address, lobby: str, room: str) -> str:
    """The place a row's message lands (a channel or room, a person's DMs, a crew's room):
    the rows to one place go out one after another, in id order."""
    address = in_room(address, row, lobby, room)
    if address.group:
        return f"{address.platform} group {address.group}"
    if address.is_dm:
        return f"{address.platform} dm {address.user_id}"
    return f"{address.platform} channel {address.channel}"


def _mention(adapter: ChatAdapter) -> Callable[[Address], str] | None:
    """The platform's own markup naming a person, where it has one."""
    mentioning = mentions_of(adapter)
    return None if mentioning is None else mentioning.mention


def outbound_of(
    row: records.Post,
    address: Address,
    attachments: Sequence[Attachment],
    mention: Callable[[Address], str] | None,
    channel_link: Callable[[str], str] | None = None,
    *,
    shows_pictures: bool = False,
) -> Outbound:
    """The message a row says, with its extras (see :func:`bot.host.outbox.posts.extras`), and the
    people and channels it names in the platform's own markup (``@name`` where it has
    none; a channel only where the platform links channels).

    The board as text (the extras' ``board``) goes only where no picture shows it: on a
    platform that shows no pictures (``shows_pictures``, see
    :class:`bot.host.messages.Capabilities`), or when the row's picture could not be
    drawn; on Discord and X a board message is its picture and a few lines of news."""
    extra = loads(row.extras) if row.extras else {}
    text = row.text
    board = extra.get("board", "")
    if board and not (shows_pictures and (attachments or not row.render)):
        text = f"{text}\n{board}" if text else board
    names = {user_id: name for user_id, name in extra.get("mentions", ())}
    if names:

        def named(match: re.Match[str]) -> str:
            user_id = match.group(1)
            person = Address(address.platform, user_id=user_id, user_name=names.get(user_id))
            return mention(person) if mention is not None else f"@{names.get(user_id, user_id)}"

        text = posts.MENTION_TOKEN.sub(named, text)
    if "<<#" in text:
        # A channel named where the platform links channels (see posts.where_token).
        text = posts.WHERE_TOKEN.sub(
            lambda match: "" if channel_link is None else f" in {channel_link(match.group(1))}",
            text,
        )
    card = extra.get("card")
    return Outbound(
        text=text,
        attachments=tuple(attachments),
        key=f"outbox-{row.id}",
        retry=may_have_arrived(row),
        choices=tuple(
            Choice(label, typed, bool(private))
            for label, typed, private in extra.get("choices", ())
        ),
        mentions=tuple(names),
        card=None if card is None else _card(card),
        game=row.game_id or 0,
        written_at=row.created_at,
        keep=tuple(extra.get("keep", ())),
    )


def _card(stored: dict[str, Any]) -> Card:
    fields = tuple((str(name), str(value)) for name, value in stored.get("fields", ()))
    return Card(stored["title"], fields)


class Relay:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        adapters: Mapping[str, ChatAdapter],
        attachments: AttachmentSource,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        web_base_url: str = "",
    ) -> None:
        """``web_base_url``: the web page's public address ([web] base_url); a game's turn
        and end posts then carry a link to its page (see :func:`bot.host.outbox.posts.links_page`)."""
        self.store = store
        self.web_base_url = web_base_url
        self.clock = clock
        self.adapters = adapters
        self.attachments = attachments
        self._monotonic = monotonic
        self._lock = asyncio.Lock()
        # The relay's reads and writes run on their own thread: on SQLite every
        # transaction takes the write lock first, and on the event loop waiting for it
        # (while a storm of resolutions holds it) would hold up every acknowledgement.
        self._database = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bst-relay")
        # For the health signal: when each send now running began (by lane and row), and
        # when the reader last looked at the outbox (monotonic seconds).
        self.sending_since: dict[str, float] = {}
        self.last_read = monotonic()
        self.running = False
        # What the relay does with a row that is not a message to send (see Act).
        self._acts: dict[Act, Callable[[records.Post, Address, ChatAdapter], Awaitable[str]]] = {
            Act.WITHDRAW: self._withdraw,
            Act.OPEN_ROOM: self._open_room,
            Act.ROOM_MEMBER: self._room_member,
            Act.CLOSE_ROOM: self._close_room,
        }

    def lane_of(self, address: Address) -> str | None:
        """The lane a row travels in, or None when it is not this process's to send."""
        adapter = self.adapters.get(address.platform)
        if adapter is None:
            return None
        lanes = lanes_of(adapter)
        return address.platform if lanes is None else lanes.lane(address)

    async def _db(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a transaction) on the relay's database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._database, work)

    def _pending(self) -> list[tuple[records.Post, str]]:
        """Due rows with the place each goes (in its lane), leaving out those behind an
        older row to the same place that may not go yet (being retried, or being sent by another relay):
        a retried message is never overtaken by a later one to the same place."""
        now = self.clock.now()
        with self.store.transaction() as tx:
            rows = tx.pending_outbox(now, limit=READ_LIMIT)
            if not rows:
                return []
            rooms: dict[int, tuple[str, str]] = {}

            def place(row: records.Post) -> str:
                lobby = room = ""
                if row.game_id:
                    if row.game_id not in rooms:
                        game = tx.game(row.game_id)
                        rooms[row.game_id] = (
                            (game.lobby, game.channel) if game and game.lobby else ("", "")
                        )
                    lobby, room = rooms[row.game_id]
                address = address_of(row)
                # a lane of its own (interaction follow-ups) is a way of its own there
                return f"{self.lane_of(address)}: {destination(row, address, lobby, room)}"

            held: dict[str, int] = {}
            for older in tx.held_outbox(now, max(row.id for row in rows)):
                held.setdefault(place(older), older.id)
            due = []
            for row in rows:
                where = place(row)
                if held.get(where, row.id or 0) >= (row.id or 0):
                    due.append((row, where))
            return due

    async def _due_by_lane(
        self, skip: Callable[[str], bool]
    ) -> dict[str, list[tuple[records.Post, str]]]:
        """Due rows and their places grouped by lane (id order kept), leaving out the
        lanes ``skip`` names."""
        rows = await self._db(self._pending)
        self.last_read = self._monotonic()
        lanes: dict[str, list[tuple[records.Post, str]]] = {}
        for row, where in rows:
            lane = self.lane_of(address_of(row))
            if lane is not None and not skip(lane):
                lanes.setdefault(lane, []).append((row, where))
        return lanes

    async def flush(self, limit: int = 10_000) -> int:
        """Send every row that is due, the lanes side by side; returns how many were
        delivered. A lane told to wait (a rate limit) stops for the rest of the call."""
        async with self._lock:
            delivered = 0
            blocked: set[str] = set()  # lanes that asked us to wait, this call
            while delivered < limit:
                lanes = await self._due_by_lane(blocked.__contains__)
                if not lanes:
                    break
                results = await asyncio.gather(
                    *(self._send_lane(lane, rows) for lane, rows in lanes.items())
                )
                progressed = False
                for lane, (sent, moved, wait) in zip(lanes, results, strict=True):
                    delivered += sent
                    progressed = progressed or moved
                    if wait is not None:
                        blocked.add(lane)
                if not progressed:
                    break
            return delivered

    async def _send_lane(
        self, lane: str, rows: Sequence[tuple[records.Post, str]]
    ) -> tuple[int, bool, float | None]:
        """Send a lane's rows: each place's one after another in id order, and as many
        places at once as the lane's adapter takes (its ``sends_at_once``, else one: then
        the rows go strictly in id order). Returns (delivered, any progress, and when the
        platform said to wait, how many seconds). A row to be retried stops its place for
        this pass (the rows after it wait for it); a platform's "wait" stops the lane once
        the sends in flight end."""
        if not rows:
            return 0, False, None
        adapter = self.adapters.get(address_of(rows[0][0]).platform)
        at_once = 1 if adapter is None else max(1, adapter.capabilities.sends_at_once)
        waiting = list(rows)
        running: dict[asyncio.Task[str], tuple[records.Post, str]] = {}
        stopped: set[str] = set()  # places whose next row waits for a retried one
        told_to_wait: records.Post | None = None
        delivered, progressed = 0, False

        async def timed(row: records.Post) -> str:
            key = f"{lane} {row.id}"
            self.sending_since[key] = self._monotonic()
            try:
                return await self._send(row)
            finally:
                self.sending_since.pop(key, None)

        try:
            while True:
                # start the oldest rows whose place is free, while the lane has room
                busy = {where for _, where in running.values()}
                kept: list[tuple[records.Post, str]] = []
                for row, where in waiting:
                    if where in stopped:
                        continue
                    if told_to_wait is None and len(running) < at_once and where not in busy:
                        running[asyncio.ensure_future(timed(row))] = (row, where)
                        busy.add(where)
                    else:
                        kept.append((row, where))
                waiting = [] if told_to_wait is not None else kept
                if not running:
                    break
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    row, where = running.pop(task)
                    outcome = task.result()
                    if outcome == "sent":
                        delivered += 1
                        progressed = True
                    elif outcome in ("undeliverable", "skipped"):
                        progressed = True
                    else:  # "retry", "wait" or "claimed": what follows waits for this row
                        stopped.add(where)
                        if outcome == "wait" and told_to_wait is None:
                            told_to_wait = row
        finally:
            for task in running:
                task.cancel()
        if told_to_wait is None:
            return delivered, progressed, None
        rest = await self._db(functools.partial(self._rest_after, told_to_wait))
        return delivered, progressed, rest

    def _rest_after(self, row: records.Post) -> float:
        """Seconds until a row the platform told us to hold may go again."""
        with self.store.transaction() as tx:
            fresh = tx.outbox_row(row.id)
        at = fresh.next_attempt_at if fresh is not None else self.clock.now()
        return max(0.0, at - self.clock.now())

    async def run(self, wake: asyncio.Event) -> None:
        """The production relay: one reader hands each lane its due rows, and each lane
        sends on its own task, so no lane waits for another. Runs until cancelled; set
        ``wake`` when rows were written."""
        busy: dict[str, asyncio.Task[tuple[int, bool, float | None]]] = {}
        resting: dict[str, float] = {}  # lane → monotonic time it may send again
        self.running = True

        def lane_done(lane: str, task: asyncio.Task[tuple[int, bool, float | None]]) -> None:
            busy.pop(lane, None)
            if not task.cancelled() and task.exception() is not None:
                log.error("relay lane %s failed", lane, exc_info=task.exception())
            elif not task.cancelled():
                wait = task.result()[2]
                if wait is not None:  # told to wait: the lane rests, the others go on
                    resting[lane] = self._monotonic() + wait
            wake.set()  # its next rows may be due already

        try:
            while True:
                now = self._monotonic()

                def unready(lane: str, now: float = now) -> bool:
                    return lane in busy or resting.get(lane, 0.0) > now

                try:
                    lanes = await self._due_by_lane(unready)
                except Exception:
                    log.exception("relay: reading the outbox failed")
                    lanes = {}
                for lane, rows in lanes.items():
                    resting.pop(lane, None)
                    task = asyncio.create_task(self._send_lane(lane, rows), name=f"relay-{lane}")
                    busy[lane] = task
                    task.add_done_callback(functools.partial(lane_done, lane))
                wake.clear()
                with contextlib.suppress(TimeoutError):
                    timeout = await self._idle_timeout(resting)
                    await asyncio.wait_for(wake.wait(), timeout=timeout)
        finally:
            self.running = False
            for task in busy.values():
                task.cancel()

    async def _idle_timeout(self, resting: Mapping[str, float]) -> float:
        """How long the reader sleeps unless woken (new rows, a lane finishing)."""
        next_at = await self._db(self.next_attempt)
        if next_at is None:
            return IDLE_SECONDS
        wait = next_at - self.clock.now()
        if wait > 0.5:
            return min(IDLE_SECONDS, wait)
        # Rows are due that no lane could take now: their lane is busy (it wakes the
        # reader when done) or resting, or they are another process's.
        now = self._monotonic()
        return max(0.5, min([FOREIGN_WAIT, *(until - now for until in resting.values())]))

    def stuck_for(self) -> float:
        """Seconds the longest send now running has run (0 when none runs)."""
        if not self.sending_since:
            return 0.0
        return self._monotonic() - min(self.sending_since.values())

    async def _send(self, row: records.Post) -> str:
        address = address_of(row)
        adapter = self.adapters[address.platform]
        # Claim the row first, so a second relay (another process on the same
        # database) does not send it too; a crash mid-send frees it after the lease.
        claimed, lobby, room, instants = await self._db(lambda: self._claim(row))
        if not claimed:
            return "claimed"
        address = in_room(address, row, lobby, room)
        # Where the game's room has been closed (a locked or deleted thread), what was
        # meant for it goes to the channel it was opened in.
        fallback = lobby if lobby and address.channel == room and not address.is_dm else None
        # A send may outlast the lease (a replay drawn, then uploaded and processed by X):
        # renew it while the send runs, so no other relay takes the row meanwhile.
        delivery = asyncio.ensure_future(
            self._deliver(row, address, adapter, fallback, instants=instants)
        )
        try:
            while True:
                done, _ = await asyncio.wait({delivery}, timeout=RENEW_SECONDS)
                if done:
                    return delivery.result()
                await self._db(lambda: self._renew(row))
        except asyncio.CancelledError:
            delivery.cancel()
            raise

    async def _deliver(
        self,
        row: records.Post,
        address: Address,
        adapter: ChatAdapter,
        fallback: str | None = None,
        *,
        instants: tuple[float, ...] = (),
    ) -> str:
        """Send a claimed row and record how it went: "sent", "retry", "wait",
        "undeliverable" or "skipped". ``fallback``: the channel to post in instead when
        the platform says the room ``address`` names is closed."""
        kind = PostKind.parse(row.kind)
        if kind.act is not Act.SEND:
            return await self._acts[kind.act](row, address, adapter)
        # An adapter may say a recipient cannot take images (the demo's
        # simulated players); then nothing is drawn for them.
        chooser = attachment_choice_of(adapter)
        wanted = bool(row.render) and (chooser is None or chooser.accepts_attachments(address))
        try:
            attachments = await self.attachments(row) if wanted else ()
        except Exception:
            # A drawing failure must not stop the turn's text: send it without the image.
            log.exception("outbox %s: could not draw its attachment; sending text only", row.id)
            attachments = ()
        outbound = outbound_of(
            row,
            address,
            attachments,
            _mention(adapter),
            None if (linking := channel_links_of(adapter)) is None else linking.channel_link,
            shows_pictures=adapter.capabilities.shows_pictures,
        )
        if instants:
            outbound = dataclasses.replace(outbound, instants=instants)
        if (
            self.web_base_url
            and row.game_id
            and kind.links_page(row.recipient)
            and await self._db(lambda: self._has_public_page(row.game_id))
        ):
            turn = (loads(row.render) or {}).get("turn") if kind.reports_turn else 0
            page = (
                links.turn_page(self.web_base_url, row.game_id, turn)
                if turn
                else links.game_page(self.web_base_url, row.game_id)
            )
            outbound = dataclasses.replace(outbound, link=page)
        groups = group_rooms_of(adapter) if address.group else None
        to_group = None if groups is None else groups.send_to_group
        if to_group is not None and await self._db(lambda: self._crew_told(row, address)):
            # The same news went to the crew's room with another member's row.
            await self._db(lambda: self._done(row, "skipped", None))
            return "skipped"
        try:
            if to_group is not None:
                message_id = await to_group(address, outbound)
            else:
                try:
                    message_id = await adapter.send(address, outbound)
                except DeliveryError as error:
                    if not (error.room_closed and fallback):
                        raise
                    log.warning("outbox %s: the game's room is closed; posting in %s",
                                row.id, fallback)  # fmt: skip
                    message_id = await adapter.send(
                        dataclasses.replace(address, channel=fallback), outbound
                    )
        except DeliveryError as error:
            refused = error
            return await self._db(lambda: self._failed(row, address, refused))
        except Exception as error:  # an adapter bug or a network fault: retry later
            log.exception("outbox %s: send failed", row.id)
            failure = DeliveryError(type(error).__name__)
            return await self._db(lambda: self._failed(row, address, failure))
        await self._db(lambda: self._done(row, "sent", message_id))
        return "sent"

    async def _skip(self, row: records.Post) -> str:
        """The platform has no such thing (rooms, withdrawing): the row is done, unsent."""
        await self._db(lambda: self._done(row, "skipped", None))
        return "skipped"

    async def _step(
        self, row: records.Post, address: Address, what: str, call: Callable[[], Awaitable[T]]
    ) -> tuple[T | None, str | None]:
        """One adapter call for ``row``: ``(its result, None)``, or ``(None, how the row
        was recorded)`` when the platform refused it or the call failed (retried later)."""
        try:
            return await call(), None
        except DeliveryError as error:
            refused = error
            return None, await self._db(lambda: self._failed(row, address, refused))
        except Exception as error:  # an adapter bug or a network fault: retry later
            log.exception("outbox %s: %s failed", row.id, what)
            failure = DeliveryError(type(error).__name__)
            return None, await self._db(lambda: self._failed(row, address, failure))

    async def _sent(self, row: records.Post, message_id: str | None) -> str:
        await self._db(lambda: self._done(row, "sent", message_id))
        return "sent"

    async def _withdraw(self, row: records.Post, address: Address, adapter: ChatAdapter) -> str:
        """Remove the public message the row names, where the platform can."""
        withdrawing = withdrawing_of(adapter)
        if withdrawing is None:
            return await self._skip(row)
        _, failed = await self._step(
            row, address, "withdrawal", lambda: withdrawing.withdraw(address)
        )
        return failed or await self._sent(row, address.reply_to)

    async def _open_room(self, row: records.Post, address: Address, adapter: ChatAdapter) -> str:
        """Open the game's room where the platform has rooms, and move the game into it;
        elsewhere the row is skipped (its text repeats what the channel was told)."""
        rooms = game_rooms_of(adapter)
        if rooms is None:
            return await self._skip(row)
        name = loads(row.extras).get("room", "") if row.extras else ""
        outbound = outbound_of(row, address, (), _mention(adapter))
        room, failed = await self._step(
            row,
            address,
            "opening a room",
            lambda: rooms.open_room(address, outbound, name or f"game {row.game_id}"),
        )
        if failed:
            return failed
        opened = str(room)
        await self._db(lambda: self._moved(row, opened))
        return "sent"

    async def _room_member(self, row: records.Post, address: Address, adapter: ChatAdapter) -> str:
        """Add a player to the game's room, or take them out, where the platform keeps room
        members; elsewhere skip."""
        rooms = game_rooms_of(adapter)
        if rooms is None:
            return await self._skip(row)
        _, failed = await self._step(
            row,
            address,
            "changing a room's members",
            lambda: rooms.room_member(address, present=row.text == "add"),
        )
        return failed or await self._sent(row, None)

    async def _close_room(self, row: records.Post, address: Address, adapter: ChatAdapter) -> str:
        """Close a finished game's room where the platform has rooms; elsewhere skip."""
        rooms = game_rooms_of(adapter)
        if rooms is None:
            return await self._skip(row)
        _, failed = await self._step(
            row, address, "closing a room", lambda: rooms.close_room(address)
        )
        return failed or await self._sent(row, None)

    def _has_public_page(self, game_id: int) -> bool:
        """Whether the game's public web page exists (:func:`links.listed`): a post of
        an unlisted game links no page that would answer 404."""
        with self.store.transaction() as tx:
            game = tx.game(game_id)
        return game is not None and links.listed(game.platform, game.open_to_all)

    def _crew_told(self, row: records.Post, address: Address) -> bool:
        """Whether another member's copy of this row (same game, turn and kind, same
        crew) was already posted in the crew's room."""
        with self.store.transaction() as tx:
            return tx.sent_to_group(row, address.group)

    def _moved(self, row: records.Post, room: str) -> None:
        """The room is open: the game plays there from now on (once; see Tx.move_to_room)."""
        with self.store.transaction() as tx:
            tx.move_to_room(row.game_id, room)
        self._done(row, "sent", room)

    def _claim(self, row: records.Post) -> tuple[bool, str, str, tuple[float, ...]]:
        """Lease the row; with the lobby and room of its game, once it moved into one, and
        the exact deadlines of its running timers (the text names them to the minute)."""
        now = self.clock.now()
        with self.store.transaction() as tx:
            if not tx.claim_outbox(row.id, now, now + CLAIM_SECONDS):
                return False, "", "", ()
            game = tx.game(row.game_id) if row.game_id else None
            if game is None:
                return True, "", "", ()
            instants = tuple(
                float(t.deadline) for t in posts.running_timers(game) if t.deadline is not None
            )
            if not game.lobby:
                return True, "", "", instants
            return True, game.lobby, game.channel, instants

    def _renew(self, row: records.Post) -> None:
        with self.store.transaction() as tx:
            tx.extend_claim(row.id, self.clock.now() + CLAIM_SECONDS)

    def _done(self, row: records.Post, status: str, message_id: str | None) -> None:
        with self.store.transaction() as tx:
            tx.finish_outbox(row.id, status, message_id)

    def _failed(self, row: records.Post, address: Address, error: DeliveryError) -> str:
        now = self.clock.now()
        with self.store.transaction() as tx:
            fresh = tx.outbox_row(row.id)
            if fresh is None or fresh.status != "pending":
                return "sent"
            attempts = fresh.attempts + 1
            unsure = outcome_unknown(error) or may_have_arrived(row)
            said = (MAY_HAVE_ARRIVED if unsure else "") + str(error)[:500]
            if error.permanent or now - fresh.created_at >= GIVE_UP_SECONDS:
                fresh = tx.change_post(fresh, PostChange(attempts, said, status="undeliverable"))
                # Only the player can fix closed DMs; the bot's own missing permission
                # is the operator's to fix, and a public nudge would only puzzle them.
                if address.is_dm and address.channel and error.dms_closed:
                    self._nudge(tx, fresh, address, now)
                log.warning("outbox %s undeliverable: %s", row.id, fresh.error)
                return "undeliverable"
            delay = error.retry_after if error.retry_after is not None else backoff(attempts)
            tx.change_post(fresh, PostChange(attempts, said, next_attempt_at=now + max(0.0, delay)))
        return "wait" if error.retry_after is not None and not error.per_recipient else "retry"

    def _nudge(self, tx: Tx, row: records.Post, address: Address, now: float) -> None:
        game = tx.game(row.game_id) if row.game_id else None
        if game is None or address.user_id is None:
            return
        who = posts.mention_token(address.user_id)
        adapter = self.adapters.get(address.platform)
        form = "" if adapter is None else adapter.capabilities.menu_command
        picked = f" (or {form.format(kind=game.kind, verb='board')})" if form else ""
        posts.announce(
            tx,
            game,
            kind=PostKind.of(NUDGE, address.user_id),
            text=(
                f"{who}, I can't send you direct messages. Open your DMs to me, "
                f"or ask for your board with `board`{picked}."
            ),
            now=now,
            extra=posts.extras(mentions=[(address.user_id, address.user_name or "player")]),
        )

    def next_attempt(self) -> float | None:
        with self.store.transaction() as tx:
            return tx.next_outbox_attempt()
