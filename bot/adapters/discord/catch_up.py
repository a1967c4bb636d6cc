"""Nothing acknowledged is lost: cursors per channel and DM, and the catch-up that reads them.

Each handled channel or DM message advances its cursor (``channel:ID``, or
``dm:CHANNEL:USER`` for a DM with USER) only after the host took it; after a
(re)connection, and before every deadline, the catch-up reads what arrived while the
bot was away, oldest first.

A connected gateway misses nothing, so a deadline reads Discord only after a gap: from
the start of the process (a restart) or a shard's disconnection until the catch-up that
follows (re)connecting has read every cursor once. Then a deadline reads only the
channels and players' DMs of the games due (:class:`~bot.host.messages.LiveScope`), and
every cursor outside the live games is forgotten, so the catch-up stays as small as the
games being played. Each cursor is read once a gap (issue 25): a deadline falling during
the catch-up after a restart reads its due games' cursors first, at once, and the
catch-up passes them by (or the deadline waits for the one it is reading); channels are
read side by side, so the catch-up takes what Discord's 50 requests a second allow
(1,000 games of 12 captains: about 13,000 cursors, under five minutes at the bot's pace
of 45), not a round trip per cursor one after another (20 minutes at 100 ms).

A channel Discord will never let the bot read (403, 404) is forgotten at once
and not asked again (Discord bans an IP that makes 10,000 invalid requests in ten
minutes); any other failure is that channel's alone: the rest are read, and the host
is told which could not be (:class:`~bot.host.messages.CatchUpIncomplete`), so only
their games wait.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot.adapters.discord.client import PLATFORM
from bot.host.messages import (
    CatchUpIncomplete,
    CursorStore,
    Inbound,
    InboundHandler,
    LiveScope,
)

log = logging.getLogger(__name__)

CONCURRENT_READS = 8
"""Channels a catch-up reads at once. Enough to keep Discord's 50 requests a second busy at
a round trip of 100-150 ms; every request still waits for the global pace and its
channel's bucket (discord.py), so more would only queue."""

# (message, is_dm) → the Inbound it is, or None for chatter (see inbound.inbound_from_message).
ReadMessage = Callable[[discord.Message, bool], Inbound | None]


def dm_key(channel_id: int | str, user_id: int | str) -> str:
    """The cursor of the DM channel ``channel_id`` with the user ``user_id``."""
    return f"dm:{channel_id}:{user_id}"


def parse_key(key: str) -> tuple[str, str, str]:
    """``channel:ID`` → (channel, ID, ""); ``dm:CHANNEL:USER`` → (dm, CHANNEL, USER);
    ``dm:CHANNEL`` (written before DM cursors named their user) → (dm, CHANNEL, "")."""
    kind, _, rest = key.partition(":")
    ident, _, user = rest.partition(":")
    return kind, ident, user


class CatchUp:
    """The cursors of one Discord adapter, and the reading of what they have not seen."""

    def __init__(
        self,
        cursors: CursorStore,
        *,
        client: Callable[[], discord.Client],
        read: ReadMessage,
        shard_ids: tuple[int, ...],
        connected: Callable[[], bool] = lambda: False,
    ) -> None:
        self._cursors = cursors
        self._connected = connected  # every shard of the gateway delivering events now
        # Gaps the gateway may have left (the process starting is the first), and how many
        # of them a full catch-up has since read through.
        self._gaps = 1
        self._read_through = 0
        self._client = client
        self._read = read
        self._explicit_shards = bool(shard_ids)
        self._watched: set[str] = set()  # cursor keys known to exist (see watch)
        self._unreadable: set[str] = set()  # cursor keys Discord refused (403, 404)
        # The gap count when each cursor was last read through by a read that began with
        # the gateway up: equal to ``_gaps`` now, nothing can be behind it.
        self._read_in: dict[str, int] = {}
        self._reading: dict[str, asyncio.Future[int]] = {}  # cursors being read now
        self._guilds: dict[str, int] = {}  # channel id → its server's, for channels not cached
        self._lock = asyncio.Lock()

    def gap(self) -> None:
        """The gateway may have missed messages (a shard disconnected, a message's handling
        failed): deadlines read Discord until a full catch-up has read past this."""
        self._gaps += 1

    def missed(self) -> bool:
        """Whether something may have arrived that the gateway did not deliver."""
        return not self._connected() or self._read_through < self._gaps

    async def watch(self, key: str, message_id: int) -> None:
        """Start catching up ``key`` (a channel or DM) from ``message_id`` if nothing does
        yet: a channel played only by slash commands, or a DM the bot opened with a
        board, would otherwise have no cursor, and what a player typed there while the
        bot was away would never be read."""
        if key in self._watched:
            return
        async with self._lock:
            if await self._cursors.get(PLATFORM, key) is None:
                await self._cursors.set(PLATFORM, key, str(message_id))
        self._watched.add(key)

    async def advance(self, cursors: CursorStore, key: str, message_id: int) -> None:
        """Move a cursor forward only: live messages and a catch-up may interleave."""
        async with self._lock:
            current = await cursors.get(PLATFORM, key)
            if current is not None and current.isdigit() and int(current) >= message_id:
                return
            await cursors.set(PLATFORM, key, str(message_id))

    async def owns(self, key: str) -> bool:
        """With explicit shard ids, each process catches up only its own channels
        (DMs arrive on shard 0; a channel is the shard's of its server); otherwise every
        cursor is ours.

        A channel the gateway gave this process is its own. One it did not (an archived
        thread: a server's READY lists only active ones, so after a restart a game's
        thread that went quiet for a week is in no process's cache) is adopted by the
        process whose shard has its server, asked of Discord once (``GET
        /channels/ID``); a channel Discord will not show is left to the reading, which
        forgets it."""
        client = self._client()
        shard_ids = getattr(client, "shard_ids", None)
        if not self._explicit_shards or shard_ids is None:
            return True
        kind, ident, _ = parse_key(key)
        if kind == "dm":
            return 0 in shard_ids
        if client.is_ready() is False or client.get_channel(int(ident)) is not None:
            return True
        guild = self._guilds.get(ident)
        if guild is None:
            try:
                found: dict[str, Any] = dict(await client.http.get_channel(int(ident)))
            except (discord.Forbidden, discord.NotFound):
                return 0 in shard_ids  # unreadable: one process reads it, and forgets it
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
                log.warning("could not tell whose channel %s is: %s", ident, error)
                return False  # asked again at the next catch-up
            guild = int(found.get("guild_id") or 0)
            if len(self._guilds) >= 100_000:
                self._guilds.clear()  # (a bound; asking again costs one GET)
            self._guilds[ident] = guild
        count = getattr(client, "shard_count", None) or 1
        return (guild >> 22) % count in shard_ids

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Hand over every channel message behind a game's tag and every DM newer than
        its cursor, for every cursor (after a reconnection). See :meth:`fetch_live`."""
        return await self._fetch(cursors, on_inbound, None)

    async def fetch_live(
        self, cursors: CursorStore, on_inbound: InboundHandler, live: LiveScope
    ) -> int:
        """As :meth:`fetch_since`, for the channels and players' DMs of live games only
        (before a deadline); every other cursor is forgotten."""
        return await self._fetch(cursors, on_inbound, live)

    async def _fetch(
        self, cursors: CursorStore, on_inbound: InboundHandler, live: LiveScope | None
    ) -> int:
        """Oldest first within a channel; each cursor advances after each handled message,
        and past ignored ones at the end. Channels are read side by side, at most
        :data:`CONCURRENT_READS` at once (discord.py keeps each channel's bucket, the
        global pace every request): the catch-up after a restart takes what Discord's
        50 requests a second allow, not one round trip after another. A cursor read
        through since the last gap, from a read that began with the gateway up, is not
        read again (a deadline falling during that catch-up reads only its due games'
        cursors that are still unread, and the catch-up then passes them by); one being
        read is waited for, not read twice.

        A channel that cannot be read for good (deleted, no access: 403, 404) is logged
        and forgotten; any other failure (Discord down, rate limited, the network,
        ``on_inbound``) stops that channel only, the others go on, and
        :class:`CatchUpIncomplete` names what could not be read at the end, so the host
        does not resolve those games believing it has every order (it waits a while,
        then asks again: see TurnClock.resolve_due).
        """
        failed_channels: set[str] = set()
        failed_users: set[str] = set()
        gaps = self._gaps
        # Before a deadline with the gateway up and every gap read through, nothing is
        # asked of Discord (only cursors of games no longer live are forgotten).
        reading = live is None or self.missed()
        candidates: list[tuple[str, str, str, int, int]] = []
        for key, value in sorted((await cursors.all(PLATFORM)).items()):
            kind, ident, user = parse_key(key)
            if kind not in ("channel", "dm") or not ident.isdigit() or not value.isdigit():
                continue
            if key in self._unreadable:
                continue
            if live is not None and not self._needed(kind, ident, user, live):
                await self._forget(cursors, key)  # (no live game's, whichever process's)
                continue
            if live is not None and not (reading and self._due(kind, user, ident, live)):
                continue
            if self._caught_up(key):
                continue
            candidates.append((key, kind, user, int(ident), int(value)))
        lanes = asyncio.Semaphore(CONCURRENT_READS)

        async def ours(key: str) -> bool:
            async with lanes:  # (a channel whose server is unknown here is asked once)
                return await self.owns(key)

        owned = await asyncio.gather(*(ours(candidate[0]) for candidate in candidates))
        to_read = [candidate for candidate, mine in zip(candidates, owned, strict=True) if mine]
        fatal: list[BaseException] = []

        async def read(key: str, kind: str, user: str, channel_id: int, after: int) -> int:
            async with lanes:
                if fatal:
                    return 0
                try:
                    return await self._read_once(cursors, key, channel_id, after, on_inbound)
                except (discord.Forbidden, discord.NotFound) as error:
                    log.warning(
                        "catch-up of %s given up: Discord answered %s (code %s)",
                        key,
                        error.status,
                        error.code,
                    )
                    self._unreadable.add(key)
                    await self._forget(cursors, key)
                except Exception as error:
                    log.exception("catch-up of %s stopped", key)
                    if kind == "channel":
                        failed_channels.add(str(channel_id))
                    elif user:
                        failed_users.add(user)
                    else:  # an old DM cursor, whose player is not known: every game waits
                        fatal.append(error)
                return 0

        count = sum(await asyncio.gather(*(read(*entry) for entry in to_read)))
        if fatal:
            raise fatal[0]
        if failed_channels or failed_users:
            raise CatchUpIncomplete(
                count, channels=frozenset(failed_channels), users=frozenset(failed_users)
            )
        if live is None and self._connected():
            self._read_through = max(self._read_through, gaps)
        return count

    async def _read_once(
        self,
        cursors: CursorStore,
        key: str,
        channel_id: int,
        after: int,
        on_inbound: InboundHandler,
    ) -> int:
        """Read ``key`` through, or wait for the read of it already under way (a deadline's
        and the restart's catch-up meet on a due game's cursor: it is read once)."""
        if (under_way := self._reading.get(key)) is not None:
            await asyncio.shield(under_way)  # its messages are counted by its reader
            return 0
        if self._caught_up(key):
            return 0  # read through meanwhile (by a deadline's catch-up)
        epoch = self._gaps if self._connected() else None

        async def read() -> int:
            current = await cursors.get(PLATFORM, key)  # it may have moved since listed
            start = max(after, int(current)) if current and current.isdigit() else after
            return await self._catch_up_channel(cursors, key, channel_id, start, on_inbound)

        reading = asyncio.ensure_future(read())
        self._reading[key] = reading  # before any await: a second reader finds it
        try:
            count = await reading
        finally:
            self._reading.pop(key, None)
        if epoch is not None:
            self._read_in[key] = epoch
        return count

    def _caught_up(self, key: str) -> bool:
        """Read through since the last gap by a read that began with the gateway up, and
        the gateway up now: nothing can have arrived there unseen."""
        return self._read_in.get(key) == self._gaps and self._connected()

    @staticmethod
    def _due(kind: str, user: str, ident: str, live: LiveScope) -> bool:
        """Whether the deadline at hand needs this cursor read (its game is due)."""
        if kind == "channel":
            return live.due_channels is None or ident in live.due_channels
        return live.due_users is None or not user or user in live.due_users

    @staticmethod
    def _needed(kind: str, ident: str, user: str, live: LiveScope) -> bool:
        if kind == "channel":
            return ident in live.channels
        # An old DM cursor does not say whose it is: kept while any game is live.
        return user in live.users if user else bool(live.users)

    async def _forget(self, cursors: CursorStore, key: str) -> None:
        self._watched.discard(key)
        self._read_in.pop(key, None)
        await cursors.forget(PLATFORM, key)

    async def _catch_up_channel(
        self,
        cursors: CursorStore,
        key: str,
        channel_id: int,
        after: int,
        on_inbound: InboundHandler,
    ) -> int:
        client = self._client()
        is_dm = key.startswith("dm:")
        cached = client.get_channel(channel_id)
        channel: discord.abc.Messageable
        if isinstance(cached, discord.abc.Messageable):
            channel = cached
        else:
            channel_type = discord.ChannelType.private if is_dm else None
            channel = client.get_partial_messageable(channel_id, type=channel_type)
        count = 0
        last_seen = after
        async for message in channel.history(
            after=discord.Object(id=after), oldest_first=True, limit=None
        ):
            last_seen = max(last_seen, message.id)
            # The kind comes from the cursor: a channel not in the cache gives
            # messages without a guild, yet they are public.
            try:
                inbound = self._read(message, is_dm)
            except Exception:
                # A message that cannot be read now never can be: passed, not waited on.
                log.exception("could not read Discord message %s; passed over", message.id)
                continue
            if inbound is None:
                continue
            await on_inbound(inbound)
            count += 1
            await self.advance(cursors, key, message.id)
        if last_seen > after:
            await self.advance(cursors, key, last_seen)
        return count
