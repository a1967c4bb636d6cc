"""What the host says, sent to Discord: interaction follow-ups, DMs, channel messages.

* A reply to a slash command goes as the interaction's follow-up while its token
  lives; a private reply never lands in a public placeholder.
* Nothing is sent twice: channel and DM sends carry a nonce derived from the outbox
  key with ``enforce_nonce`` (discord.py sets it with every nonce), so Discord drops
  a retried duplicate.
* Discord's failures become :class:`~bot.host.messages.DeliveryError`, permanent when
  the same request can never succeed.
* New DM channels are opened at a steady pace, and a DM channel once opened is kept (in
  the cursor store, ``dm-channel:USER``) and reused: discord.py remembers only 128, and
  opening hundreds at once is what Discord's anti-spam answers with 40003 ("opening direct
  messages too fast"), which pauses new DMs only, a minute or more (see :class:`DmOpener`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import aiohttp
import discord

from bot.adapters.discord.catch_up import dm_key
from bot.adapters.discord.client import PLATFORM
from bot.adapters.discord.interactions import PendingInteraction, PendingInteractions, held_by
from bot.adapters.discord.markup import (
    MAX_BUTTONS,
    PAGE_BUTTON,
    buttons_for,
    discord_plain,
    discord_times,
    link_button_url,
)
from bot.adapters.discord.text import MAX_PINGED_USERS, mentioned_users, split_text
from bot.host.messages import Address, Attachment, Card, CursorStore, DeliveryError, Outbound

log = logging.getLogger(__name__)

# Discord's upload limit for a bot in a server without boosts (per message).
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
# Discord's error codes the adapter tells apart.
CANNOT_DM_USER = 50007
UNKNOWN_CHANNEL = 10003
UNKNOWN_INTERACTION = 10062
UNKNOWN_WEBHOOK = 10015
# Discord's anti-spam refusal of new DMs: not the recipient's doing and not for ever.
DM_OPENED_TOO_FAST = 40003
# After a 40003 no new DM is opened for a while: a minute after the first (Discord
# publishes no figure; a longer first pause leaves a 10-minute round's players blind),
# twice as long after each further 40003 in a row (a quick retry only feeds the filter),
# at most ten minutes; a new DM's first message delivered ends the run.
DM_OPEN_FIRST_BACKOFF = 60.0
DM_OPEN_MAX_BACKOFF = 600.0
DM_OPEN_SLOWEST_INTERVAL = 60.0  # after 40003s the pace of new DMs slows to one a minute at most
DM_OPEN_BURST = 5  # new DMs opened at once before the pace (dm_opens_per_minute) applies
# A thread that can take no more messages: archived and locked, or locked.
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
# A game's thread is archived after a week without a message (Discord's longest); a
# message sent to it later opens it again.
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
# Discord's cap of 1,000 active (unarchived) threads in a server: no thread can be made.
MAX_ACTIVE_THREADS = 160006
THREAD_CAP_NOTICE = (
    "(This server has reached Discord's limit of 1,000 active threads, so this game "
    "plays here in the channel. Finished games' threads are archived, which frees room; "
    "a moderator can archive others.)"
)
NO_THREAD_PERMISSION_NOTICE = (
    "(I may not open threads in this channel, so this game plays here in the channel. "
    "A moderator can give me Create Public Threads and Send Messages in Threads here.)"
)
PUBLIC_THREAD: Literal[11] = 11  # the channel type of a public thread
PRIVATE_THREAD: Literal[12] = 12
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})  # 10: an announcement's thread
# No crew's news goes to a private thread: Discord shows every private thread to whoever
# holds Manage Threads or Administrator in its channel, so a moderator who plays would
# read the other crews' boards (and the bot cannot know every player's permissions, nor
# keep them from changing). A crew's news reaches each member by DM, as on every platform
# without group rooms: the adapter has no ``send_to_group``.

# (cursor key, message id) → start catching up that channel from there.
Watch = Callable[[str, int], Awaitable[None]]


def dm_channel_key(user_id: str) -> str:
    """The cursor store's key for the id of the DM channel with ``user_id``."""
    return f"dm-channel:{user_id}"


class DmOpener:
    """Finds the DM channel of a user: known ids first (remembered in the cursor store, so
    a restart does not open them again), else a new one, opened at a steady pace (a burst
    of :data:`DM_OPEN_BURST`, then one every ``interval`` seconds).

    Discord's 40003 pauses new openings: :data:`DM_OPEN_FIRST_BACKOFF` after the first,
    twice as long after each further 40003 in a row (at most :data:`DM_OPEN_MAX_BACKOFF`),
    and a new DM's first message delivered ends the run. After a pause openings resume
    without a burst, at half the pace they had (at most one a minute), which comes back
    towards the configured pace a tenth of the way with each new DM delivered.

    A DM that was refused, or that finds the pause on, tells its relay lane to wait
    (:class:`~bot.host.messages.DeliveryError` with ``retry_after`` and not
    ``per_recipient``): only DMs still to open travel in that lane (see
    :meth:`~bot.adapters.discord.adapter.DiscordAdapter.lane`), so nothing else waits,
    and the refused recipient goes again with the rest of them, in their order.

    ``clock`` and ``sleep`` are the pace's (monotonic seconds; a test gives virtual ones)."""

    def __init__(
        self,
        cursors: CursorStore | None,
        *,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self._cursors = cursors
        self._pace = interval  # the configured pace: one new DM every so many seconds
        self._interval = interval  # the pace now: slower after 40003s, back as DMs go
        self.clock = clock
        self.sleep = sleep
        self._known: dict[str, int] = {}
        self._lock = asyncio.Lock()  # one opening at a time: the pace is the app's
        self._tokens = float(DM_OPEN_BURST)
        self._refilled: float | None = None  # when the tokens were last counted
        self._paused_until = -float("inf")
        self._refusals = 0  # 40003s since a new DM last got its first message through
        self._fresh: set[str] = set()  # opened, their first message not yet delivered

    def knows(self, user_id: str) -> bool:
        """Whether the DM channel with ``user_id`` is known here without asking anyone (a
        send to it opens nothing; after a restart, known once a send has looked it up)."""
        return user_id in self._known

    async def channel_id(self, client: discord.Client, user_id: str) -> int:
        known = await self._remembered(user_id)
        if known is not None:
            return known
        async with self._lock:
            known = await self._remembered(user_id)  # opened while this one waited
            if known is not None:
                return known
            self._refuse_while_paused()
            await self._take_token()
            self._refuse_while_paused()  # a first message may have met 40003 meanwhile
            try:
                channel = await client.create_dm(discord.Object(id=int(user_id)))
            except discord.HTTPException as error:
                if error.code != DM_OPENED_TOO_FAST:
                    raise
                backoff = self.refused()
                raise DeliveryError(
                    f"Discord refused to open a DM (code 40003: opening DMs too fast); "
                    f"no new DM for {backoff:.0f} s",
                    retry_after=backoff,
                ) from error
            self._fresh.add(user_id)
            await self.remember(user_id, channel.id)
            return channel.id

    def _refuse_while_paused(self) -> None:
        paused = self._paused_until - self.clock()
        if paused > 0:
            raise DeliveryError(
                "Discord refused new DMs (40003) a moment ago; waiting before opening more",
                retry_after=paused,
            )

    def refused(self) -> float:
        """Discord answered 40003 (on opening a DM, or on the first message in one): open
        no new DM for a while, longer after each 40003 in a row; returns how long."""
        backoff = min(DM_OPEN_MAX_BACKOFF, DM_OPEN_FIRST_BACKOFF * 2.0**self._refusals)
        self._refusals += 1
        now = self.clock()
        self._paused_until = max(self._paused_until, now + backoff)
        # Resume without the burst that may have brought the refusal, and at half the
        # pace (at most one a minute): the pace Discord refused is one it does not accept.
        self._interval = max(self._interval, min(DM_OPEN_SLOWEST_INTERVAL, self._interval * 2))
        self._tokens, self._refilled = 0.0, self._paused_until
        return self._paused_until - now

    def delivered(self, user_id: str) -> None:
        """A DM reached ``user_id``: if its channel was new, Discord accepts new DMs again
        (the next 40003 is a first one)."""
        if user_id in self._fresh:
            self._fresh.discard(user_id)
            self._refusals = 0
            # Back towards the configured pace, a tenth of the way each new DM.
            self._interval = max(self._pace, self._interval - (self._interval - self._pace) / 10)

    async def _take_token(self) -> None:
        now = self.clock()
        refilled = now if self._refilled is None else self._refilled
        self._tokens = min(
            float(DM_OPEN_BURST), self._tokens + max(0.0, now - refilled) / self._interval
        )
        self._refilled = max(now, refilled)
        if self._tokens < 1:
            await self.sleep((1 - self._tokens) * self._interval + max(0.0, refilled - now))
            self._tokens, self._refilled = 1.0, self.clock()
        self._tokens -= 1

    async def learn(self, user_id: str, channel_id: int) -> None:
        """``user_id`` wrote to the bot from ``channel_id``: their DM channel, kept unless
        known already (a write to the cursor store only the first time)."""
        if self._known.get(user_id) != channel_id:
            await self.remember(user_id, channel_id)

    async def remember(self, user_id: str, channel_id: int) -> None:
        self._known[user_id] = channel_id
        if self._cursors is not None:
            with contextlib.suppress(Exception):  # a store hiccup costs one more open
                await self._cursors.set(PLATFORM, dm_channel_key(user_id), str(channel_id))

    async def forget(self, user_id: str) -> None:
        """The channel is gone (Discord answered 10003): the next send opens it again."""
        self._known.pop(user_id, None)
        if self._cursors is not None:
            with contextlib.suppress(Exception):  # a store hiccup: the cursor stays, harmless
                await self._cursors.forget(PLATFORM, dm_channel_key(user_id))

    async def _remembered(self, user_id: str) -> int | None:
        if user_id in self._known:
            return self._known[user_id]
        if self._cursors is None:
            return None
        stored = await self._cursors.get(PLATFORM, dm_channel_key(user_id))
        if stored is None or not stored.isdigit():
            return None
        self._known[user_id] = int(stored)
        return int(stored)


def nonce_for(key: str, part: int = 0) -> int | None:
    """A stable nonce for an outbox key: the same key always gives the same nonce.

    A 63-bit int (at most 19 digits, within Discord's 25 characters), so a
    retried send is recognised by Discord and not posted twice. Each part of
    a message split over several posts gets its own nonce.
    """
    if not key:
        return None
    seed = key if part == 0 else f"{key}#{part}"
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big") >> 1


def delivery_error(error: Exception) -> DeliveryError:
    """Discord's failure, as the outbox understands it (never with the token)."""
    if isinstance(error, discord.RateLimited):
        return DeliveryError("Discord rate limit", retry_after=error.retry_after)
    if isinstance(error, discord.HTTPException):
        what = f"Discord answered {error.status} (code {error.code}): {error.text}"
        if error.code == DM_OPENED_TOO_FAST:
            # The recipient's message waits; every other message goes on meanwhile.
            return DeliveryError(what, retry_after=DM_OPEN_FIRST_BACKOFF, per_recipient=True)
        if error.status == 429:
            return DeliveryError(what, retry_after=_retry_after(error))
        if isinstance(error, discord.DiscordServerError) or error.status >= 500:
            return DeliveryError(what)
        # 403 (DMs closed: 50007; missing permission), 404 (channel gone: 10003)
        # and other 4xx: the same request can never succeed. Only 50007 is the
        # recipient's doing (they take no DMs from the server's members or from bots).
        return DeliveryError(
            what,
            permanent=True,
            dms_closed=error.code == CANNOT_DM_USER,
            room_closed=error.code in (THREAD_ARCHIVED, THREAD_LOCKED, UNKNOWN_CHANNEL),
        )
    if isinstance(error, (aiohttp.ClientError, asyncio.TimeoutError, OSError)):
        return DeliveryError(f"network error talking to Discord: {type(error).__name__}")
    return DeliveryError(f"Discord send failed: {type(error).__name__}")


def _retry_after(error: discord.HTTPException) -> float | None:
    headers = getattr(error.response, "headers", None) or {}
    for name in ("Retry-After", "X-RateLimit-Reset-After"):
        value = headers.get(name)
        if value:
            with contextlib.suppress(ValueError):
                return float(value)
    return None


def fit_attachments(text: str, attachments: Sequence[Attachment]) -> tuple[str, list[Attachment]]:
    """Keep what Discord accepts (10 files, 10 MiB in all); name what was left out.

    A replay too big to upload should not make the whole message undeliverable.
    """
    kept: list[Attachment] = []
    notes: list[str] = []
    total = 0
    for attachment in attachments:
        size = len(attachment.data)
        if len(kept) >= MAX_ATTACHMENTS or total + size > MAX_UPLOAD_BYTES:
            notes.append(
                f"({attachment.kind.value} {attachment.filename} not attached: "
                f"{size / (1024 * 1024):.1f} MiB is over Discord's upload limit)"
            )
            continue
        kept.append(attachment)
        total += size
    if notes:
        text = "\n".join([text, *notes]) if text else "\n".join(notes)
    return text, kept


def allowed_mentions(outbound: Outbound, part: str | None = None) -> discord.AllowedMentions:
    """Ping the people the host means to notify, and nobody else: not a player whose name
    is ``@everyone``, nor a kicked player named in the text. For one ``part`` of a message
    split over several posts, only those it names (Discord takes 100 users at most)."""
    named = set(mentioned_users(part)) if part is not None else None
    users = [
        user for user in outbound.mentions if user.isdigit() and (named is None or user in named)
    ]
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(id=int(user)) for user in users[:MAX_PINGED_USERS]],
        replied_user=False,
    )


def view_of(outbound: Outbound) -> discord.ui.View | None:
    """The message's buttons (see :mod:`.markup`). The view only carries them: a click is
    read from its custom id by the adapter, whoever sent the message and whenever."""
    buttons = buttons_for(outbound.choices, outbound.game)
    page = link_button_url(outbound.link)
    if not buttons and not page:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons[: MAX_BUTTONS - 1] if page else buttons:
        view.add_item(
            discord.ui.Button(
                label=button.label,
                custom_id=button.custom_id,
                style=discord.ButtonStyle.secondary,
            )
        )
    if page:
        # The game's page, one click away: a link button opens it in the browser.
        view.add_item(
            discord.ui.Button(label=PAGE_BUTTON, url=page, style=discord.ButtonStyle.link)
        )
    return view


def embed_of(
    card: Card | None, attachments: Sequence[Attachment], instants: Sequence[float] = ()
) -> discord.Embed | None:
    """A card as an embed, showing the message's first picture inside it."""
    if card is None:
        return None
    embed = discord.Embed(title=card.title[:256])
    for name, value in card.fields[:25]:
        embed.add_field(
            name=discord_plain(name)[:256],
            value=discord_times(discord_plain(value), instants)[:1024],
            inline=True,
        )
    image = next((a.filename for a in attachments if a.mime_type.startswith("image/")), "")
    if image:
        embed.set_image(url=f"attachment://{image}")
    return embed


def _after_send(view: discord.ui.View | None) -> None:
    """discord.py keeps a sent view to call its items back; these have no callbacks (the
    adapter reads every click by its custom id), so it need not keep them."""
    if view is not None:
        view.stop()


def _files(attachments: Sequence[Attachment]) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(a.data), filename=a.filename, description=a.alt_text or None)
        for a in attachments
    ]


class Delivery:
    """Sends and withdrawals through one client, answering interactions where it can."""

    def __init__(
        self,
        *,
        client: Callable[[], discord.Client | None],
        pending: PendingInteractions,
        watch: Watch,
        cursors: CursorStore | None = None,
        dm_open_interval: float = 1.0,
    ) -> None:
        self._client = client
        self._pending = pending
        self._watch = watch
        self.dms = DmOpener(cursors, interval=dm_open_interval)
        # The threads opened, by outbox key: a retried opening (its first message failed)
        # reuses its thread instead of making another.
        self._rooms: dict[str, str] = {}
        self._threads: dict[str, bool] = {}  # channel id → is it a thread
        # The parts of a split message already posted, by outbox key: (how many, the last
        # one's id). An interaction's follow-ups take no nonce, so a retry after a failed
        # part resumes after the last part posted instead of posting the others again.
        self._parts_sent: dict[str, tuple[int, str]] = {}

    def _resume_from(self, key: str) -> tuple[int, str]:
        """How many parts of the message with outbox ``key`` were posted already, and the
        last one's id ((0, "") for none, or no key)."""
        return self._parts_sent.get(key, (0, "")) if key else (0, "")

    def _part_sent(self, key: str, count: int, message_id: str) -> None:
        if not key:
            return
        if len(self._parts_sent) >= 10_000 and key not in self._parts_sent:
            self._parts_sent.pop(next(iter(self._parts_sent)))  # (a bound: the oldest)
        self._parts_sent[key] = (count, message_id)

    def _connected(self) -> discord.Client:
        client = self._client()
        if client is None or client.http.token is None:
            raise DeliveryError("the Discord adapter is not connected")
        return client

    async def send(self, address: Address, outbound: Outbound) -> str:
        """Send; return Discord's message id (the last one when split). Raise DeliveryError."""
        if address.platform != PLATFORM:
            raise DeliveryError(f"address is for {address.platform}, not discord", permanent=True)
        client = self._connected()
        text, attachments = fit_attachments(
            discord_times(discord_plain(outbound.text, outbound.mentions), outbound.instants),
            outbound.attachments,
        )
        chunks = list(split_text(text)) if text else []
        if not chunks and not attachments:
            raise DeliveryError("nothing to send", permanent=True)
        try:
            pending = self._pending.get(address.reply_to or "")
            if pending is not None and pending.usable():
                message_id = await self._send_followup(
                    pending, address, outbound, chunks, attachments
                )
                if message_id is not None:
                    return message_id
            return await self._send_message(client, address, outbound, chunks, attachments)
        except DeliveryError:
            raise
        except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
            raise delivery_error(error) from error

    async def open_room(self, address: Address, outbound: Outbound, name: str) -> str:
        """Open a public thread called ``name`` in the channel and post ``outbound`` in it;
        return the thread's id. Where Discord will not make one there (the channel is a
        thread itself or takes none: 400; the bot may not create threads: 403), post in
        the channel and return its id: the game plays there."""
        if address.platform != PLATFORM or not address.channel.isdigit():
            raise DeliveryError(f"not a Discord channel: {address.channel!r}", permanent=True)
        client = self._connected()
        room = self._rooms.get(outbound.key) if outbound.key else None
        if room is None:
            try:
                thread = await client.http.start_thread_without_message(
                    int(address.channel),
                    name=name[:100],
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    type=PUBLIC_THREAD,
                )
                room = str(thread["id"])
            except discord.HTTPException as error:
                if error.status not in (400, 403):
                    raise delivery_error(error) from error
                room = address.channel  # no thread here: the game stays in the channel
                notice = await self._no_thread_notice(client, address.channel, error)
                if notice:
                    log.warning(
                        "channel %s: Discord would not open a thread (%s, code %s: %s); "
                        "game %s plays in the channel, and says so: %s",
                        address.channel,
                        error.status,
                        error.code,
                        error.text,
                        outbound.game,
                        notice,
                    )
                    outbound = dataclasses.replace(outbound, text=f"{outbound.text}\n{notice}")
            except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
                raise delivery_error(error) from error
            if outbound.key:
                self._rooms[outbound.key] = room
        await self.send(Address(PLATFORM, channel=room), outbound)
        self._rooms.pop(outbound.key, None)
        return room

    async def _no_thread_notice(
        self, client: discord.Client, channel: str, error: discord.HTTPException
    ) -> str:
        """What the players (and the game's host among them) are told when Discord will not
        open the game's thread: the server's thread cap, the bot's missing permission, or
        the channel's kind. Nothing where the channel is a thread itself (a game opened
        in a thread plays in it, as it should)."""
        if error.code == MAX_ACTIVE_THREADS:
            return THREAD_CAP_NOTICE
        with contextlib.suppress(
            TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError
        ):
            if await self._is_thread(client, channel):
                return ""
        if error.status == 403:
            return NO_THREAD_PERMISSION_NOTICE
        return (
            f"(Discord would not open a thread for this game in this channel (code "
            f"{error.code}), so it plays here in the channel.)"
        )

    async def room_member(self, address: Address, *, present: bool) -> None:
        """Add a player to their game's thread (Discord then shows it in their sidebar,
        with unread news), or remove one who left or was kicked. A game that plays in a
        channel (no thread of its own) has no members to keep."""
        if address.platform != PLATFORM or not address.channel.isdigit():
            raise DeliveryError(f"not a Discord channel: {address.channel!r}", permanent=True)
        user = address.user_id or ""
        if not user.isdigit():
            raise DeliveryError(f"not a Discord user id: {user!r}", permanent=True)
        client = self._connected()
        try:
            if not await self._is_thread(client, address.channel):
                return
            if present:
                await client.http.add_user_to_thread(int(address.channel), int(user))
            else:
                await client.http.remove_user_from_thread(int(address.channel), int(user))
        except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
            raise delivery_error(error) from error

    async def _is_thread(self, client: discord.Client, channel: str) -> bool:
        """Whether a channel is a thread (channel types never change: asked once)."""
        if channel not in self._threads:
            if len(self._threads) >= 10_000:
                self._threads.clear()  # (a bound; asking again costs one GET)
            found: dict[str, Any] = dict(await client.http.get_channel(int(channel)))
            self._threads[channel] = found.get("type") in THREAD_TYPES
        return self._threads[channel]

    async def close_room(self, address: Address) -> None:
        """Archive a finished game's thread (the bot started it, so it may): it leaves
        the members' sidebars and stops counting towards the server's 1,000 active
        threads. Not locked: a word said there later opens it again. A game that played
        in a channel (no thread) has nothing to archive."""
        if address.platform != PLATFORM or not address.channel.isdigit():
            raise DeliveryError(f"not a Discord channel: {address.channel!r}", permanent=True)
        client = self._connected()
        try:
            found: dict[str, Any] = dict(await client.http.get_channel(int(address.channel)))
            if found.get("type") not in THREAD_TYPES:
                return
            if (found.get("thread_metadata") or {}).get("archived"):
                return
            await client.http.edit_channel(int(address.channel), archived=True)
        except discord.NotFound:
            return  # deleted already: nothing left to archive
        except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
            raise delivery_error(error) from error

    async def withdraw(self, address: Address) -> None:
        """Delete a message someone typed in a channel (a secret posted in public is
        taken down). Needs the Manage Messages permission: without it Discord answers 403
        (50013), a permanent failure. A message already gone counts as deleted; a slash
        command is not a message (its options show to nobody but the asker)."""
        if address.platform != PLATFORM:
            raise DeliveryError(f"address is for {address.platform}, not discord", permanent=True)
        message_id = address.reply_to or ""
        if held_by(message_id)[1] is not None:
            # A slash command received by a shard (``ID@SHARD``, with several processes):
            # not a message, whichever process holds it; nothing to take down.
            return
        if not (message_id.isdigit() and address.channel.isdigit()):
            raise DeliveryError(
                f"not a Discord message: {address.channel!r}/{message_id!r}", permanent=True
            )
        if message_id in self._pending:
            return
        client = self._connected()
        channel = client.get_partial_messageable(int(address.channel))
        try:
            await channel.get_partial_message(int(message_id)).delete()
        except discord.NotFound:
            return  # deleted by its author or a moderator already
        except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
            raise delivery_error(error) from error

    async def _send_followup(
        self,
        pending: PendingInteraction,
        address: Address,
        outbound: Outbound,
        chunks: list[str],
        attachments: list[Attachment],
    ) -> str | None:
        """Answer through the interaction; ``None`` when it can no longer be used.

        The first follow-up replaces the "thinking…" placeholder and keeps its
        visibility, whatever flags it carries. So when the reply's privacy
        differs from the placeholder's (a private acknowledgement of a public
        order), the placeholder is deleted first: a secret never lands in public.
        """
        interaction = pending.interaction
        ephemeral = address.is_dm or pending.quiet
        try:
            if not pending.consumed and pending.ephemeral != ephemeral:
                await interaction.delete_original_response()
                pending.consumed = True
            parts = chunks or [""]
            done, message_id = self._resume_from(outbound.key)
            for index, chunk in enumerate(parts):
                if index < done:
                    continue  # posted by an earlier attempt
                last = index == len(parts) - 1
                view = view_of(outbound) if last else None
                embed = embed_of(outbound.card, attachments, outbound.instants) if last else None
                if not pending.consumed:
                    # The first answer replaces the "thinking…" placeholder: as an edit of
                    # it, which a retry (its answer lost) repeats harmlessly, where a
                    # follow-up (a webhook message takes no nonce) would post twice.
                    edited = await interaction.edit_original_response(
                        content=chunk or None,
                        attachments=_files(attachments) if last and attachments else [],
                        allowed_mentions=allowed_mentions(outbound),
                        view=view,
                        embed=embed,
                    )
                    _after_send(view)
                    pending.consumed = True
                    message_id = str(edited.id)
                    self._part_sent(outbound.key, index + 1, message_id)
                    continue
                message = await interaction.followup.send(
                    content=chunk or discord.utils.MISSING,
                    files=_files(attachments) if last and attachments else discord.utils.MISSING,
                    ephemeral=ephemeral,
                    wait=True,
                    allowed_mentions=allowed_mentions(outbound, chunk),
                    view=view or discord.utils.MISSING,
                    embed=embed or discord.utils.MISSING,
                )
                _after_send(view)
                pending.consumed = True
                message_id = str(message.id)
                self._part_sent(outbound.key, index + 1, message_id)
            self._parts_sent.pop(outbound.key, None)
            return message_id
        except discord.NotFound as error:
            if error.code in (UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION):
                pending.deferred = False  # expired: fall back to a channel or DM
                return None
            raise

    async def _send_message(
        self,
        client: discord.Client,
        address: Address,
        outbound: Outbound,
        chunks: list[str],
        attachments: list[Attachment],
    ) -> str:
        """A DM (``address.user_id``) or a channel message, each part with its nonce."""
        channel: discord.abc.Messageable
        reference = None
        if address.is_dm:
            assert address.user_id is not None
            if not address.user_id.isdigit():
                raise DeliveryError(f"not a Discord user id: {address.user_id!r}", permanent=True)
            channel_id = await self.dms.channel_id(client, address.user_id)
            channel = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        else:
            if not address.channel.isdigit():
                raise DeliveryError(
                    f"not a Discord channel id: {address.channel!r}", permanent=True
                )
            channel = client.get_partial_messageable(int(address.channel))
            if (
                address.reply_to
                and address.reply_to.isdigit()
                and address.reply_to not in self._pending
            ):
                # An order typed in the channel: answer as a reply, or plainly if it was deleted.
                reference = discord.MessageReference(
                    message_id=int(address.reply_to),
                    channel_id=int(address.channel),
                    fail_if_not_exists=False,
                )
        parts = chunks or [""]
        # Parts an earlier attempt posted are not sent again (their nonces would only
        # make Discord answer with them, and only within its few minutes).
        done, message_id = self._resume_from(outbound.key)
        for index, chunk in enumerate(parts):
            if index < done:
                continue
            last = index == len(parts) - 1
            kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions(outbound, chunk)}
            nonce = nonce_for(outbound.key, index)
            if nonce is not None:
                kwargs["nonce"] = nonce  # discord.py adds enforce_nonce=True with it
            if reference is not None and index == 0:
                kwargs["reference"] = reference
            view = None
            if last:
                if attachments:
                    kwargs["files"] = _files(attachments)
                view = view_of(outbound)
                if view is not None:
                    kwargs["view"] = view
                embed = embed_of(outbound.card, attachments, outbound.instants)
                if embed is not None:
                    kwargs["embed"] = embed
            try:
                message = await channel.send(content=chunk or None, **kwargs)
            except discord.HTTPException as error:
                if address.is_dm and error.code == DM_OPENED_TOO_FAST:
                    # Discord also answers so on a new DM's first message: this one waits
                    # as long as the new DMs do, and goes again with them.
                    backoff = self.dms.refused()
                    raise DeliveryError(
                        f"Discord refused a new DM's first message (code 40003: opening "
                        f"DMs too fast); no new DM for {backoff:.0f} s",
                        retry_after=backoff,
                        per_recipient=True,
                    ) from error
                if not isinstance(error, discord.NotFound):
                    raise
                if address.is_dm and error.code == UNKNOWN_CHANNEL and address.user_id:
                    # A remembered DM channel Discord no longer knows: opened afresh
                    # when the outbox tries again (soon: this is no refusal).
                    await self.dms.forget(address.user_id)
                    raise DeliveryError(f"DM channel gone (code {error.code})") from error
                raise
            _after_send(view)
            message_id = str(message.id)
            self._part_sent(outbound.key, index + 1, message_id)
        self._parts_sent.pop(outbound.key, None)
        if address.is_dm:
            self.dms.delivered(address.user_id or "")
            # A player's first DM to the bot is often an answer to this one.
            with contextlib.suppress(Exception):  # a cursor store hiccup must not fail a send
                await self._watch(dm_key(channel.id, address.user_id or ""), int(message_id))
        return message_id
