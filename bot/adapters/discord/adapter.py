"""The Discord adapter: slash commands, tagged channel messages and DMs in; replies out.

It translates, nothing more (design rule 5), and knows no game: the games it hosts
come in from the wiring, and their declarations (name, tag, verbs, options) give
the slash commands and the tags it listens for. The pieces, one job each:

* :mod:`~bot.adapters.discord.client`: the discord.py client (intents, shards, login);
* :mod:`~bot.adapters.discord.commands`: one ``/KIND`` group per game, each
  subcommand the text a player could have typed;
* :mod:`~bot.adapters.discord.inbound`: interactions and messages as Inbound;
* :mod:`~bot.adapters.discord.interactions`: deferred interactions awaiting follow-ups;
* :mod:`~bot.adapters.discord.catch_up`: cursors, and reading what arrived while away;
* :mod:`~bot.adapters.discord.sending`: follow-ups, DMs, channel messages, withdrawals;
* :mod:`~bot.adapters.discord.text`: SDK-free text helpers (splitting, suggestions);
* :mod:`~bot.adapters.discord.check`: ``bst check-config --online`` for Discord.

Why it looks the way it does:

* Discord gives an interaction 3 seconds for a first answer, while the host's
  transaction and rendering may take longer, so each command is *deferred*
  at once (ephemerally for private commands) and the host's reply later
  arrives as the follow-up (``Address.reply_to`` = the interaction id).
* An order typed in a channel behind a game's tag (``#sonar f11``) needs the
  privileged **message content** intent (``[discord] message_content = true``
  and the switch in the developer portal); without it only slash commands and
  DMs work, which is enough to play.
* An order that gives a secret away when typed in a channel is deleted on the
  host's request (:meth:`DiscordAdapter.withdraw`, with Manage Messages).
* A gateway close that needs a person (4004 a wrong token, 4013 invalid intents,
  4014 the Message Content intent not switched on) stops the host with what to fix,
  through :attr:`DiscordAdapter.link`, which also tells the health signal whether the
  gateway is connected.
* Interaction follow-ups travel in a relay lane of their own (:meth:`DiscordAdapter.lane`);
  with several processes, each sends the answers to the interactions it holds.

Only :mod:`bot.adapters.discord` imports :mod:`discord` (an import-linter contract
enforces it).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.adapters.discord.catch_up import CatchUp, dm_key
from bot.adapters.discord.client import (
    PLATFORM,
    gateway_refusal,
    log_in,
    make_client,
    use_api_base,
    use_gateway_of,
)
from bot.adapters.discord.commands import build_command_tree
from bot.adapters.discord.inbound import (
    Memberships,
    inbound_from_interaction,
    inbound_from_message,
    is_dm_channel,
    tag_pattern,
)
from bot.adapters.discord.interactions import (
    INTERACTION_TOKEN_LIFETIME,
    PendingInteraction,
    PendingInteractions,
    held_by,
)
from bot.adapters.discord.markup import command_of
from bot.adapters.discord.pacing import GlobalPace
from bot.adapters.discord.permissions import missing_permissions, permissions_refusal
from bot.adapters.discord.section import DiscordConfig
from bot.adapters.discord.sending import Delivery
from bot.adapters.discord.sync import SYNC_ADVICE, check_registered
from bot.adapters.discord.text import Privacy, route_for
from bot.games.base import Game
from bot.host.messages import (
    Address,
    Capabilities,
    CursorStore,
    DeliveryError,
    Inbound,
    InboundHandler,
    LiveScope,
    Outbound,
    PlatformLink,
    PlatformRefused,
)

log = logging.getLogger(__name__)

FOLLOW_UPS = f"{PLATFORM}/follow-ups"  # the relay lane of interaction follow-ups
DMS = f"{PLATFORM}/dms"  # the relay lane of DMs whose channel is open
DM_OPENS = f"{PLATFORM}/dm-opens"  # the relay lane of DMs that open their channel first


class DiscordAdapter:
    """Discord, as the host sees it (:class:`~bot.host.messages.ChatAdapter`).

    ``http`` is the base URL of Discord's HTTP API with its version (``None``: the
    config's ``api_base``, and when that is empty Discord's own); the gateway is
    then the one ``GET {http}/gateway/bot`` names. ``games`` are the registered games (from the
    wiring): one slash-command group each, and their tags open the channel messages
    the adapter reads. ``admins`` are accepted for symmetry with other adapters; the
    host checks them, the adapter does not.
    """

    platform = PLATFORM
    capabilities = Capabilities(
        lanes=True,
        mentions=True,
        channel_links=True,
        game_rooms=True,  # a game's thread
        withdraws=True,  # with Manage Messages
        scoped_catch_up=True,
        watched_link=True,
        shows_pictures=True,  # a board message is its picture: no text board
        # The relay sends to this many places at once (each place's posts stay in order);
        # discord.py keeps Discord's per-route buckets and global limit across them.
        sends_at_once=8,
        # A reminder is one post in the game's thread that pings the players missing.
        reminds_in_public=True,
        # A message's card shows as an embed (``status``).
        shows_cards=True,
        # A person types here: a step that cannot be undone (leaving a game) is confirmed.
        confirms_final_steps=True,
        # A game's verbs are its slash-command group's subcommands.
        menu_command="/{kind} {verb}",
    )

    def __init__(
        self,
        config: DiscordConfig,
        *,
        token: str,
        cursors: CursorStore,
        games: Sequence[Game[Any, Any]],
        admins: Sequence[str] = (),
        http: str | None = None,
    ) -> None:
        self._config = config
        self.__token = token  # name-mangled and never formatted into text
        self._cursors = cursors
        self._admins = tuple(admins)
        self._http_base = http if http is not None else (config.api_base or None)
        self.link = PlatformLink()
        self._shards_down: set[int] = set()
        self._games = tuple(games)
        self._tags = tag_pattern(game.tag for game in self._games)
        self._client: discord.Client | None = None
        self._tree: app_commands.CommandTree[Any] | None = None
        self._on_inbound: InboundHandler | None = None
        self.pending = PendingInteractions()
        self.memberships = Memberships()
        self.catch_up = CatchUp(
            cursors,
            client=lambda: self.client,
            read=self._read_message,
            shard_ids=tuple(config.shard_ids),
            connected=self._gateway_up,
        )
        self._delivery = Delivery(
            client=lambda: self._client,
            pending=self.pending,
            watch=self.catch_up.watch,
            cursors=cursors,
            dm_open_interval=60.0 / max(1, config.dm_opens_per_minute),
        )
        # Discord's global limit, kept here rather than learnt from 429s (see .pacing).
        self.pace = (
            GlobalPace(config.requests_per_second) if config.requests_per_second > 0 else None
        )
        self._connect_task: asyncio.Task[None] | None = None
        self._sync_check_task: asyncio.Task[list[str]] | None = None
        self._catch_up_task: asyncio.Task[int] | None = None
        self._stopping = False

    def __repr__(self) -> str:  # never show the token
        return f"<DiscordAdapter shards={self._config.shard_count or 'auto'}>"

    @property
    def client(self) -> discord.Client:
        if self._client is None:
            raise RuntimeError("the Discord adapter is not started")
        return self._client

    @property
    def tree(self) -> app_commands.CommandTree[Any]:
        if self._tree is None:
            raise RuntimeError("the Discord adapter is not started")
        return self._tree

    # ---- connection ----------------------------------------------------------------

    def build_client(self) -> discord.Client:
        """Create the client, its command tree and event handlers (no network)."""
        use_api_base(self._http_base)
        client = make_client(self._config, pace=self.pace)
        self._tree = build_command_tree(client, self._games, self._on_command)
        self._tree.error(self._on_command_error)

        async def on_message(message: discord.Message) -> None:
            await self._on_message(message)

        async def on_interaction(interaction: discord.Interaction[Any]) -> None:
            # Slash commands reach the tree; a click on one of the host's buttons is read
            # here, by its custom id alone (see .markup), whenever its message was sent.
            if interaction.type is discord.InteractionType.component:
                await self._on_button(interaction)

        async def on_ready() -> None:
            self._shards_down.clear()
            self.link.up()
            self._schedule_catch_up()

        async def on_shard_ready(shard_id: int) -> None:
            # A shard that had to IDENTIFY afresh (a new session: INVALID_SESSION, or a
            # session Discord no longer resumes) missed what was sent meanwhile: a gap.
            self.catch_up.gap()
            self._shard_up(shard_id)
            self._schedule_catch_up()

        async def on_shard_resumed(shard_id: int) -> None:
            # RESUME replayed every event the shard missed: no gap.
            self._shard_up(shard_id)

        async def on_shard_disconnect(shard_id: int) -> None:
            # Until the shard is back, deadlines read Discord (CatchUp.missed: not
            # connected); whether that was a gap, its RESUME or IDENTIFY says.
            self._shards_down.add(shard_id)
            self.link.down()

        # ``Client.event`` registers by function name.
        client.event(on_message)
        client.event(on_interaction)
        client.event(on_ready)
        client.event(on_shard_ready)
        client.event(on_shard_resumed)
        client.event(on_shard_disconnect)
        self._client = client
        return client

    def _gateway_up(self) -> bool:
        """Every shard connected: the gateway delivers what is posted as it is posted."""
        client = self._client
        return client is not None and client.is_ready() and not self._shards_down

    def _shard_up(self, shard_id: int) -> None:
        self._shards_down.discard(shard_id)
        if not self._shards_down and self.client.is_ready():
            self.link.up()

    async def login(self, on_inbound: InboundHandler) -> None:
        """Log in over HTTP only (checks the token); :meth:`start` then opens the gateway."""
        self._on_inbound = on_inbound
        client = self._client or self.build_client()
        await log_in(client, self.__token, self._config.token_env)

    async def start(self, on_inbound: InboundHandler) -> None:
        """Log in, then keep the gateway connection in the background (reconnecting).

        Raises :class:`~bot.host.messages.PlatformRefused` when Discord refuses the
        token; a refusal on the gateway later (see :meth:`_connect`) reaches the host
        through :attr:`link`."""
        try:
            await self.login(on_inbound)
        except DeliveryError as error:
            raise PlatformRefused(str(error)) from None
        if self._http_base:
            await use_gateway_of(self.client)
        self._sync_check_task = asyncio.create_task(
            self.check_commands(), name="discord-command-check"
        )
        self._connect_task = asyncio.create_task(self._connect(), name="discord-gateway")

    async def check_commands(self) -> list[str]:
        """At start: do the slash commands Discord holds match this version's? After an
        upgrade without ``bst discord sync`` a changed command fails on every use, so say
        exactly what differs and what to run (a warning in the log); the differences."""
        try:
            differences = await check_registered(self.client, self.tree)
        except Exception as error:  # the check must never stop the bot
            log.warning("could not compare the registered slash commands: %s", error)
            return []
        if differences:
            log.warning(
                "Discord's slash commands are not this version's (%s): %s",
                ", ".join(differences),
                SYNC_ADVICE,
            )
        return differences

    async def _connect(self) -> None:
        """Keep the gateway connection; when it ends for good, say so through the link.

        discord.py reconnects by itself after any close it can recover from. It gives up
        on the closes that need a person (4004 a wrong token, 4013 invalid intents, 4014
        a privileged intent not switched on, 4010–4012) and then closes the client: every
        send after that fails, so the process must stop, saying what to fix, rather than
        stay alive doing nothing."""
        try:
            await self.client.connect(reconnect=True)
        except asyncio.CancelledError:
            raise
        except discord.PrivilegedIntentsRequired:
            self.link.refuse(PlatformRefused(gateway_refusal(4014, self._config) or ""))
            return
        except discord.ConnectionClosed as error:
            what = gateway_refusal(error.code or 0, self._config)
            if what is not None:
                self.link.refuse(PlatformRefused(what))
                return
            log.exception("Discord gateway connection ended")
            ended = f"the Discord gateway connection ended (close {error.code})"
        except Exception as error:
            log.exception("Discord gateway connection ended")
            ended = f"the Discord gateway connection ended ({type(error).__name__})"
        else:
            if self._stopping:
                return
            ended = "the Discord gateway connection closed"
        # Anything else that ends connect() leaves a closed client too: stop, and let the
        # process manager start afresh.
        self.link.refuse(PlatformRefused(f"{ended}; restarting may help", exit_code=1))

    async def stop(self) -> None:
        self._stopping = True
        for task in (self._catch_up_task, self._connect_task, self._sync_check_task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._client is not None and not self._client.is_closed():
            await self._client.close()
        self.pending.clear()

    def _handler(self) -> InboundHandler:
        if self._on_inbound is None:
            raise RuntimeError("the Discord adapter is not started")
        return self._on_inbound

    # ---- inbound: slash commands -------------------------------------------------

    async def _on_command(
        self, interaction: discord.Interaction[Any], privacy: Privacy, text: str, game: int = 0
    ) -> None:
        """Defer within Discord's 3 seconds, remember the interaction, then hand it over.

        Only what the deferral needs runs before it (the route: public or
        ephemeral). Reading the member (name, avatar, permissions) and the
        host's work come after, and the hand-over first lets every other
        interaction already waiting on the loop send its own deferral: under a
        burst, the host's transaction (on its worker thread, competing for the
        interpreter) must not delay the acknowledgements still due.
        """
        if await self._refuse_without_permissions(interaction, text):
            return
        route = route_for(privacy, in_guild=interaction.guild_id is not None)
        key = self._interaction_key(interaction)
        pending = PendingInteraction(
            interaction,
            ephemeral=route.ephemeral,
            created=time.monotonic(),
            quiet=privacy is Privacy.QUIET,
        )
        try:
            # ``thinking``: a button's deferral, too, is a "thinking…" placeholder that the
            # answer replaces (not an edit of the message the button is on).
            await interaction.response.defer(ephemeral=route.ephemeral, thinking=True)
        except discord.HTTPException as error:
            # Too late (10062) or Discord trouble: still hand the command over,
            # replies then go by channel or DM instead of follow-up.
            log.warning(
                "could not defer interaction %s: %s %s", interaction.id, error.status, error.code
            )
            pending.deferred = False
        self.pending.remember(key, pending)
        # Acknowledgements first: the commands queued behind this one defer now.
        await asyncio.sleep(0)
        inbound = self.memberships.placed(
            inbound_from_interaction(
                interaction, route.kind, text, host_role=self._config.host_role, message_id=key
            ),
            getattr(interaction.user, "mutual_guilds", ()),
        )
        if game:
            inbound = dataclasses.replace(inbound, game=game)  # a button's game
        try:
            effect = await self._handler()(inbound)
            if getattr(effect, "answered", True) is False and pending.deferred:
                # Nothing will follow (past the person's command rate): take the
                # "thinking…" placeholder away rather than leave it spinning 15 minutes.
                pending.consumed = True
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            if self._config.message_content and inbound.channel:
                await self.catch_up.watch(f"channel:{inbound.channel}", interaction.id)
        except Exception:
            log.exception("the host failed on interaction %s", interaction.id)
            if pending.deferred and not pending.consumed:
                pending.consumed = True
                with contextlib.suppress(discord.HTTPException):
                    await interaction.followup.send(
                        "Something went wrong on our side; please try again.", ephemeral=True
                    )

    async def _on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A slash command discord.py could not run: answer the user privately (Discord
        would say only "This interaction failed"), and say why in the log."""
        stale = isinstance(
            error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
        )
        name = interaction.command.qualified_name if interaction.command else "?"
        if stale:
            log.warning("slash command /%s does not match this version's: %s", name, SYNC_ADVICE)
            answer = (
                "This command has changed since Discord last heard of it, so I can't run "
                "it yet: the bot's operator needs to run `bst discord sync`. Meanwhile the "
                "same words typed in the game's channel work."
            )
        else:
            log.error("slash command /%s failed", name, exc_info=error)
            answer = "Something went wrong on our side running that command; please try again."
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(answer, ephemeral=True)
            else:
                await interaction.response.send_message(answer, ephemeral=True)

    async def _on_button(self, interaction: discord.Interaction[Any]) -> None:
        """A click on one of the host's buttons: the command it stands for, as if typed."""
        data: dict[str, Any] = dict(interaction.data or {})
        found = command_of(str(data.get("custom_id", "")))
        if found is None:
            return  # not one of ours
        privacy = Privacy.PRIVATE if found.private else Privacy.PUBLIC
        await self._on_command(interaction, privacy, found.text, game=found.game)

    async def _refuse_without_permissions(
        self, interaction: discord.Interaction[Any], text: str
    ) -> bool:
        """Before a game opens in a channel: say which of the bot's permissions there are
        missing (Discord gives them with the interaction), and open nothing."""
        if interaction.guild_id is None or text.split()[1:2] != ["new"]:
            return False
        missing = missing_permissions(
            interaction.app_permissions, in_thread=isinstance(interaction.channel, discord.Thread)
        )
        if not missing:
            return False
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(permissions_refusal(missing), ephemeral=True)
        return True

    # ---- inbound: typed messages -------------------------------------------------

    def _read_message(self, message: discord.Message, is_dm: bool) -> Inbound | None:
        me = self._client.user if self._client is not None else None
        inbound = inbound_from_message(
            message,
            is_dm=is_dm,
            tags=self._tags,
            host_role=self._config.host_role,
            bot_id=me.id if me is not None else None,
        )
        if inbound is None:
            return None
        return self.memberships.placed(inbound, getattr(message.author, "mutual_guilds", ()))

    async def _on_message(self, message: discord.Message) -> None:
        is_dm = is_dm_channel(message.channel)
        try:
            inbound = self._read_message(message, is_dm)
        except Exception:
            log.exception("could not read Discord message %s", message.id)
            return
        if inbound is None:
            return
        try:
            await self._handler()(inbound)
        except Exception:
            # The cursor stays put, so the next catch-up delivers it again.
            log.exception("the host failed on Discord message %s", message.id)
            self.catch_up.gap()
            return
        if is_dm:
            # The player wrote from their DM channel: answers by DM need not open it.
            await self._delivery.dms.learn(str(message.author.id), message.channel.id)
            key = dm_key(message.channel.id, message.author.id)
        else:
            key = f"channel:{message.channel.id}"
        await self.catch_up.advance(self._cursors, key, message.id)

    # ---- catch-up ----------------------------------------------------------------

    def _schedule_catch_up(self) -> None:
        """After (re)connecting, read what arrived while away, once at a time."""
        if self._catch_up_task is not None and not self._catch_up_task.done():
            return
        if self._on_inbound is None:
            return
        self._catch_up_task = asyncio.create_task(self._catch_up_logged(), name="discord-catch-up")

    async def _catch_up_logged(self) -> int:
        try:
            count = await self.fetch_since(self._cursors, self._handler())
        except Exception:
            log.exception("Discord catch-up failed")
            return 0
        if count:
            log.info("Discord catch-up: %d message(s) handed to the host", count)
        return count

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """See :meth:`CatchUp.fetch_since`."""
        return await self.catch_up.fetch_since(cursors, on_inbound)

    async def fetch_live(
        self, cursors: CursorStore, on_inbound: InboundHandler, live: LiveScope
    ) -> int:
        """See :meth:`CatchUp.fetch_live`. A gap the gateway left while connected (a
        message the host failed on) is read through in the background, once."""
        if self._gateway_up() and self.catch_up.missed():
            self._schedule_catch_up()
        return await self.catch_up.fetch_live(cursors, on_inbound, live)

    # ---- outbound ----------------------------------------------------------------

    async def send(self, address: Address, outbound: Outbound) -> str:
        """Send; return Discord's message id (the last one when split). Raise DeliveryError."""
        return await self._delivery.send(address, outbound)

    def lane(self, address: Address) -> str | None:
        """The relay lane of a message to ``address`` (see :mod:`bot.host.outbox.relay`).

        Follow-ups to interactions this process holds have a lane of their own: each
        must come within its interaction's 15 minutes, whatever waits in the channel
        lane (a rate limit). With several processes (explicit ``shard_ids``) an answer
        to another process's interaction is that process's to send, as a follow-up,
        while the interaction lives (None: not ours); after that anyone sends it, to
        the channel or by DM.

        DMs travel beside the channel posts, never in front of them nor behind: those to
        a channel already open in :data:`DMS`, and those that must open it first in
        :data:`DM_OPENS`, the only lane the pace of new DMs and Discord's 40003 hold
        back (see :class:`~bot.adapters.discord.sending.DmOpener`). A turn's public post,
        a reminder or an answer in the channel never waits for DMs being opened. (A
        place's messages keep their order across lanes: the relay holds a row while an
        older one to the same place is being sent or waits to be retried.)
        """
        reply_to = address.reply_to or ""
        pending = self.pending.get(reply_to)
        if pending is not None and pending.usable():
            return FOLLOW_UPS
        interaction_id, shard = held_by(reply_to)
        if shard is not None and shard not in self._config.shard_ids:
            born = discord.utils.snowflake_time(interaction_id)
            if discord.utils.utcnow() - born < INTERACTION_TOKEN_LIFETIME:
                return None
        if address.is_dm:
            return DMS if self._delivery.dms.knows(address.user_id or "") else DM_OPENS
        return PLATFORM

    def _interaction_key(self, interaction: discord.Interaction[Any]) -> str:
        """The id the host knows a slash command by (its ``message_id``, and the
        ``reply_to`` of its answers): the interaction's id, and, with several processes,
        the shard that received it (``ID@SHARD``), so every process can tell whose
        interaction an answer belongs to."""
        if not self._config.shard_ids:
            return str(interaction.id)
        count = self._config.shard_count or 1
        shard = 0 if interaction.guild_id is None else (interaction.guild_id >> 22) % count
        return f"{interaction.id}@{shard}"

    def channel_link(self, channel: str) -> str:
        """``<#id>``: Discord shows a channel or thread by name, as a link."""
        return f"<#{channel}>" if channel.isdigit() else ""

    def mention(self, address: Address) -> str:
        """``<@id>``: the form that notifies the user (``@name`` is plain text on Discord)."""
        user = address.user_id or ""
        return f"<@{user}>" if user.isdigit() else f"@{address.user_name or 'player'}"

    async def open_room(self, address: Address, outbound: Outbound, name: str) -> str:
        """A thread of the game's own (see Delivery.open_room)."""
        return await self._delivery.open_room(address, outbound, name)

    async def room_member(self, address: Address, *, present: bool) -> None:
        """Add a player to the game's thread, or remove one (see Delivery.room_member)."""
        await self._delivery.room_member(address, present=present)

    async def close_room(self, address: Address) -> None:
        """Archive a finished game's thread (see Delivery.close_room)."""
        await self._delivery.close_room(address)

    async def withdraw(self, address: Address) -> None:
        """Delete an order typed in a channel that gave a secret away (see Delivery.withdraw)."""
        await self._delivery.withdraw(address)
