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
a crash is not doubled; a claimed row's lease is renewed while its send runs, and
passing failures are retried for GIVE_UP_SECONDS.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence

from bot.host import posts
from bot.host.clock import Clock
from bot.host.messages import Address, Attachment, ChatAdapter, DeliveryError, Outbound
from bot.store import OutboxRow, Store, Tx, loads

log = logging.getLogger(__name__)

GIVE_UP_SECONDS = 3 * 24 * 3600.0
"""A message that keeps failing for a passing reason (a platform down, rate limits) is
retried, at most every MAX_BACKOFF, for this long after it was written: a long outage
delays the backlog but loses none of it."""
MAX_BACKOFF = 900.0
CLAIM_SECONDS = 60.0  # a row being sent is leased this long to the relay sending it
RENEW_SECONDS = 20.0  # while a send lasts (a video upload), its lease is renewed this often

AttachmentSource = Callable[[OutboxRow], Awaitable[Sequence[Attachment]]]


def backoff(attempts: int) -> float:
    """2 s, 4 s, 8 s … capped at 15 minutes."""
    return float(min(MAX_BACKOFF, 2.0**attempts))


def address_of(row: OutboxRow) -> Address:
    data = loads(row.address)
    return Address(
        platform=data["platform"],
        channel=data.get("channel") or "",
        user_id=data.get("user_id"),
        user_name=data.get("user_name"),
        reply_to=data.get("reply_to"),
    )


class Relay:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        adapters: Mapping[str, ChatAdapter],
        attachments: AttachmentSource,
    ) -> None:
        self.store = store
        self.clock = clock
        self.adapters = adapters
        self.attachments = attachments
        self._lock = asyncio.Lock()

    async def flush(self, limit: int = 10_000) -> int:
        """Send every row that is due; returns how many were delivered."""
        async with self._lock:
            delivered = 0
            blocked: set[str] = set()  # platforms that asked us to wait, this pass
            while delivered < limit:
                with self.store.transaction() as tx:
                    rows = tx.pending_outbox(self.clock.now(), limit=200)
                rows = [r for r in rows if address_of(r).platform not in blocked]
                rows = [r for r in rows if address_of(r).platform in self.adapters]
                if not rows:
                    break
                progressed = False
                for row in rows:
                    platform = address_of(row).platform
                    if platform in blocked:
                        continue
                    outcome = await self._send(row)
                    if outcome == "sent":
                        delivered += 1
                        progressed = True
                    elif outcome in ("undeliverable", "skipped"):
                        progressed = True
                    elif outcome == "wait":
                        blocked.add(platform)
                if not progressed:
                    break
            return delivered

    async def _send(self, row: OutboxRow) -> str:
        assert row.id is not None
        address = address_of(row)
        adapter = self.adapters[address.platform]
        # Claim the row first, so a second relay (another process on the same
        # database) does not send it too; a crash mid-send frees it after the lease.
        now = self.clock.now()
        with self.store.transaction() as tx:
            if not tx.claim_outbox(row.id, now, now + CLAIM_SECONDS):
                return "claimed"
        # A send may outlast the lease (a replay drawn, then uploaded and processed by X):
        # renew it while the send runs, so no other relay takes the row meanwhile.
        delivery = asyncio.ensure_future(self._deliver(row, address, adapter))
        try:
            while True:
                done, _ = await asyncio.wait({delivery}, timeout=RENEW_SECONDS)
                if done:
                    return delivery.result()
                renewed_until = self.clock.now() + CLAIM_SECONDS
                with self.store.transaction() as tx:
                    tx.extend_claim(row.id, renewed_until)
        except asyncio.CancelledError:
            delivery.cancel()
            raise

    async def _deliver(self, row: OutboxRow, address: Address, adapter: ChatAdapter) -> str:
        """Send a claimed row and record how it went: "sent", "retry", "wait",
        "undeliverable" or "skipped"."""
        assert row.id is not None
        if row.kind.startswith(f"{posts.WITHDRAW}:"):
            return await self._withdraw(row, address, adapter)
        # An adapter may say a recipient cannot take images (the demo's
        # simulated players); then nothing is drawn for them.
        accepts = getattr(adapter, "accepts_attachments", None)
        wanted = bool(row.render) and (accepts is None or accepts(address))
        try:
            attachments = await self.attachments(row) if wanted else ()
        except Exception:
            # A drawing failure must not stop the turn's text: send it without the image.
            log.exception("outbox %s: could not draw its attachment; sending text only", row.id)
            attachments = ()
        outbound = Outbound(
            text=row.text,
            attachments=tuple(attachments),
            key=f"outbox-{row.id}",
            retry=row.attempts > 0,
        )
        try:
            message_id = await adapter.send(address, outbound)
        except DeliveryError as error:
            return self._failed(row, address, error)
        except Exception as error:  # an adapter bug or a network fault: retry later
            log.exception("outbox %s: send failed", row.id)
            return self._failed(row, address, DeliveryError(type(error).__name__))
        self._done(row, "sent", message_id)
        return "sent"

    async def _withdraw(self, row: OutboxRow, address: Address, adapter: ChatAdapter) -> str:
        """Remove the public message the row names, where the platform can."""
        withdraw = getattr(adapter, "withdraw", None)
        if withdraw is None:
            self._done(row, "skipped", None)
            return "skipped"
        try:
            await withdraw(address)
        except DeliveryError as error:
            return self._failed(row, address, error)
        except Exception as error:  # an adapter bug or a network fault: retry later
            log.exception("outbox %s: withdrawal failed", row.id)
            return self._failed(row, address, DeliveryError(type(error).__name__))
        self._done(row, "sent", address.reply_to)
        return "sent"

    def _done(self, row: OutboxRow, status: str, message_id: str | None) -> None:
        assert row.id is not None
        with self.store.transaction() as tx:
            fresh = tx.outbox_row(row.id)
            if fresh is not None and fresh.status == "pending":
                fresh.status = status
                fresh.platform_message_id = message_id
                fresh.attempts += 1
                tx.save(fresh)

    def _failed(self, row: OutboxRow, address: Address, error: DeliveryError) -> str:
        assert row.id is not None
        now = self.clock.now()
        with self.store.transaction() as tx:
            fresh = tx.outbox_row(row.id)
            if fresh is None or fresh.status != "pending":
                return "sent"
            fresh.attempts += 1
            fresh.error = str(error)[:500]
            if error.permanent or now - fresh.created_at >= GIVE_UP_SECONDS:
                fresh.status = "undeliverable"
                tx.save(fresh)
                if address.is_dm and address.channel and error.permanent:
                    self._nudge(tx, fresh, address, now)
                log.warning("outbox %s undeliverable: %s", row.id, fresh.error)
                return "undeliverable"
            delay = error.retry_after if error.retry_after is not None else backoff(fresh.attempts)
            fresh.next_attempt_at = now + max(0.0, delay)
            tx.save(fresh)
        return "wait" if error.retry_after is not None else "retry"

    def _nudge(self, tx: Tx, row: OutboxRow, address: Address, now: float) -> None:
        game = tx.game(row.game_id) if row.game_id else None
        if game is None:
            return
        name = address.user_name or "player"
        posts.announce(
            tx,
            game,
            kind=f"nudge:{address.user_id}",
            text=(
                f"@{name}, I can't send you direct messages. Open your DMs to me, "
                "or ask for your board with `board` (on Discord: /bst board)."
            ),
            now=now,
        )

    def next_attempt(self) -> float | None:
        with self.store.transaction() as tx:
            return tx.next_outbox_attempt()
