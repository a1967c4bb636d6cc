"""The Discord adapter: slash commands, typed ``#bst`` messages and DMs in; replies out.

It translates, nothing more (design rule 5). Every ``/bst`` slash command, a
channel message that starts with ``#bst`` and any DM to the bot become one
:class:`~bot.host.messages.Inbound`; every :class:`~bot.host.messages.Outbound`
goes back as an interaction follow-up, a DM or a channel message. Rules,
permissions beyond Discord's own facts (``is_channel_admin``) and wording live
in the host.

Why it looks the way it does:

* Discord gives an interaction 3 seconds for a first answer, while the host's
  transaction and rendering may take longer, so each command is *deferred*
  at once (ephemerally for private commands) and the host's reply later
  arrives as the follow-up (``Address.reply_to`` = the interaction id).
* Typed ``#bst H14`` in a channel needs the privileged **message content**
  intent (``[discord] message_content = true`` and the switch in the
  developer portal); without it only slash commands and DMs work, which is
  enough to play.
* Nothing is sent twice: channel and DM sends carry a nonce derived from the
  outbox key with ``enforce_nonce`` (discord.py sets it with every nonce), so
  Discord drops a retried duplicate.
* A move typed in a channel gives a ship away: the host asks for it to be
  deleted (:meth:`DiscordAdapter.withdraw`, with Manage Messages).
* Nothing acknowledged is lost: each handled channel/DM message advances a
  cursor only after the host took it, and :meth:`DiscordAdapter.fetch_since`
  reads what arrived while the bot was away.

This is the only module that imports :mod:`discord` (an import-linter
contract enforces it); :mod:`bot.adapters.discord_text` holds the SDK-free
command → text translation.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands

from bot.adapters import discord_text
from bot.config import DiscordConfig
from bot.host.messages import (
    Address,
    Attachment,
    CursorStore,
    DeliveryError,
    Inbound,
    InboundHandler,
    InboundKind,
    Outbound,
    Sender,
)

log = logging.getLogger(__name__)

PLATFORM = "discord"
# Discord's upload limit for a bot in a server without boosts (per message).
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
# Interaction tokens live 15 minutes; stop using one a minute before.
INTERACTION_LIFETIME = 14 * 60.0
# Discord's error codes the adapter tells apart.
CANNOT_DM_USER = 50007
UNKNOWN_CHANNEL = 10003
UNKNOWN_INTERACTION = 10062
UNKNOWN_WEBHOOK = 10015
# Rate limits longer than this are the outbox's to wait out, not a blocked send.
MAX_RATELIMIT_WAIT = 30.0

# (interaction, text, route) → awaitable: what the command tree calls.
CommandHandler = Callable[[discord.Interaction[Any], str, str], Awaitable[None]]


def intents_for(config: DiscordConfig) -> discord.Intents:
    """The gateway intents the bot needs, and no more.

    ``message_content`` is privileged: only for typed ``#bst H14`` in channels.
    DMs to the bot carry their content without it.
    """
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = config.message_content
    return intents


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
        if error.status == 429:
            return DeliveryError(what, retry_after=_retry_after(error))
        if isinstance(error, discord.DiscordServerError) or error.status >= 500:
            return DeliveryError(what)
        # 403 (DMs closed: 50007; missing permission), 404 (channel gone: 10003)
        # and other 4xx: the same request can never succeed.
        return DeliveryError(what, permanent=True)
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


def _avatar_url(user: discord.abc.User) -> str | None:
    """A small PNG avatar: the renderers fetch it with size limits (rule 8)."""
    try:
        return str(user.display_avatar.replace(format="png", size=128).url)
    except (ValueError, AttributeError):
        return str(user.display_avatar.url) if user.display_avatar else None


def _is_channel_admin(
    user: discord.abc.User, permissions: discord.Permissions | None, host_role: str
) -> bool:
    """Discord's facts only: Manage Server, or the configured host role (name or id)."""
    if not isinstance(user, discord.Member):
        return False
    if permissions is not None and (permissions.manage_guild or permissions.administrator):
        return True
    if not host_role:
        return False
    wanted = host_role.strip()
    if getattr(user, "guild", None) is not None and any(
        role.name == wanted or str(role.id) == wanted for role in user.roles
    ):
        return True
    # Roles of a guild not in the cache are known only by id.
    return wanted.isdigit() and int(wanted) in getattr(user, "_roles", ())


def _is_dm_channel(channel: object) -> bool:
    """A DM with the bot, not a server channel whose server is not (yet) in the cache."""
    if isinstance(channel, discord.abc.PrivateChannel):
        return True
    return isinstance(channel, discord.PartialMessageable) and (
        channel.type == discord.ChannelType.private
    )


@dataclass
class _PendingInteraction:
    """A deferred interaction the host may still answer by follow-up."""

    interaction: discord.Interaction[Any]
    ephemeral: bool
    created: float  # time.monotonic() when it arrived
    deferred: bool = True
    consumed: bool = False  # the first follow-up replaces the "thinking…" placeholder


class BstCommands(app_commands.Group):
    """``/bst …``: typed forms of the words of the rules (§4, §7).

    Each command only builds the text a player could have typed and hands it
    to the adapter; the host parses and checks it like any other message.
    """

    def __init__(self, handler: CommandHandler) -> None:
        super().__init__(
            name="bst", description="BattleshipTwitter: a naval game on a shared board"
        )
        self._handler = handler

    async def _run(self, interaction: discord.Interaction[Any], command: str, text: str) -> None:
        await self._handler(interaction, command, text)

    @app_commands.command(name="new", description="Host a new game in this channel")
    @app_commands.describe(
        size="Board size: N or ROWSxCOLS (default 20)",
        turn="Turn length, e.g. 8h, 30m, 1h30m (default 8h)",
        shots="When shots land relative to moves",
        placement_conflicts="What happens when placements overlap",
        loadouts="Which fleets are allowed",
        max_turns="End the game as a draw after this many turns",
        setup_deadline="Close setup automatically after this long, e.g. 24h",
        late_join="Allow joining after setup",
    )
    async def cmd_new(
        self,
        interaction: discord.Interaction[Any],
        size: str | None = None,
        turn: str | None = None,
        shots: Literal["after_moves", "before_moves"] | None = None,
        placement_conflicts: Literal["first_come", "both_retry"] | None = None,
        loadouts: Literal["both", "carrier+submarine", "cruisers"] | None = None,
        max_turns: app_commands.Range[int, 1, 10000] | None = None,
        setup_deadline: str | None = None,
        late_join: bool | None = None,
    ) -> None:
        options = {
            "size": size,
            "turn": turn,
            "shots": shots,
            "placement_conflicts": placement_conflicts,
            "loadouts": loadouts,
            "max_turns": max_turns,
            "setup_deadline": setup_deadline,
            "late_join": late_join,
        }
        await self._run(interaction, "new", discord_text.new_text(options))

    @app_commands.command(name="join", description="Join the game in this channel")
    async def cmd_join(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "join", "join")

    @app_commands.command(name="place", description="Place your ships (only you see this)")
    @app_commands.describe(
        ships='e.g. "sub: A2, carrier: C1-C5", "cruiser: B2-B4, cruiser: E5-G5" or "random"'
    )
    async def cmd_place(self, interaction: discord.Interaction[Any], ships: str) -> None:
        await self._run(interaction, "place", ships.strip())

    @app_commands.command(name="shoot", description="Fire at a cell (public): #bst H14")
    @app_commands.describe(cell="Row letters then column number, e.g. H14")
    async def cmd_shoot(self, interaction: discord.Interaction[Any], cell: str) -> None:
        await self._run(interaction, "shoot", discord_text.shoot_text(cell))

    @app_commands.command(name="move", description="Move one of your ships (only you see this)")
    @app_commands.describe(
        ship="carrier, submarine or cruiser",
        at="Any cell the ship occupies, e.g. G7",
        steps="How many cells (1 to the ship's length; a submarine moves 1)",
        direction="Along the ship's own axis",
    )
    async def cmd_move(
        self,
        interaction: discord.Interaction[Any],
        ship: str,
        at: str,
        steps: app_commands.Range[int, 1, 5],
        direction: Literal["up", "down", "left", "right"],
    ) -> None:
        await self._run(interaction, "move", discord_text.move_text(ship, at, steps, direction))

    @app_commands.command(
        name="rotate", description="Turn a ship a quarter turn about its centre (private)"
    )
    @app_commands.describe(ship="carrier or cruiser", at="Any cell the ship occupies, e.g. E8")
    async def cmd_rotate(self, interaction: discord.Interaction[Any], ship: str, at: str) -> None:
        await self._run(interaction, "rotate", discord_text.rotate_text(ship, at))

    @app_commands.command(name="pass", description="Withdraw this turn's action (private)")
    async def cmd_pass(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "pass", "pass")

    @app_commands.command(name="board", description="See your private board again (private)")
    async def cmd_board(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "board", "board")

    @app_commands.command(name="status", description="Phase, turn, deadline and captains alive")
    async def cmd_status(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "status", "status")

    @app_commands.command(name="help", description="How to play")
    async def cmd_help(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "help", "help")

    @app_commands.command(name="rules", description="The rules in short")
    async def cmd_rules(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "rules", "rules")

    @app_commands.command(name="leave", description="Leave the game (your ships become wrecks)")
    async def cmd_leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "leave", "leave")

    @app_commands.command(name="start", description="Host: close setup and start the battle")
    async def cmd_start(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "start", "start")

    @app_commands.command(name="pause", description="Host: freeze the clock")
    async def cmd_pause(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "pause", "pause")

    @app_commands.command(name="resume", description="Host: let the clock run again")
    async def cmd_resume(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "resume", "resume")

    @app_commands.command(name="extend", description="Host: lengthen the current turn")
    @app_commands.describe(duration="e.g. 2h, 30m, 1h30m")
    async def cmd_extend(self, interaction: discord.Interaction[Any], duration: str) -> None:
        await self._run(interaction, "extend", discord_text.extend_text(duration))

    @app_commands.command(
        name="kick", description="Host: remove a captain (their ships become wrecks)"
    )
    @app_commands.describe(member="The captain to remove")
    async def cmd_kick(
        self, interaction: discord.Interaction[Any], member: discord.Member | discord.User
    ) -> None:
        await self._run(interaction, "kick", discord_text.kick_text(member.id))

    @app_commands.command(name="end", description="Host: end the game now as a draw")
    async def cmd_end(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "end", "end")


async def _ship_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=name, value=name)
        for name in discord_text.ship_suggestions(current)
    ]


async def _cell_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=cell, value=cell)
        for cell in discord_text.cell_suggestions(current)
    ]


# Autocomplete is attached after the class body: plain functions (no ``self``)
# shared by several commands.
BstCommands.cmd_shoot.autocomplete("cell")(_cell_autocomplete)
BstCommands.cmd_move.autocomplete("ship")(_ship_autocomplete)
BstCommands.cmd_move.autocomplete("at")(_cell_autocomplete)
BstCommands.cmd_rotate.autocomplete("ship")(_ship_autocomplete)
BstCommands.cmd_rotate.autocomplete("at")(_cell_autocomplete)


def build_command_tree(
    client: discord.Client, handler: CommandHandler
) -> app_commands.CommandTree[Any]:
    """The real command tree with the ``/bst`` group, shared by the bot and ``bst discord sync``."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    tree.add_command(BstCommands(handler))
    return tree


def _make_client(config: DiscordConfig, *, application_id: int | None = None) -> discord.Client:
    """An auto-sharded client: one shard set by config, or as many as Discord recommends."""
    shard_count = config.shard_count or None
    shard_ids = list(config.shard_ids) or None
    if shard_ids is not None:
        if shard_count is None:
            raise ValueError("[discord] shard_ids needs shard_count (the total number of shards)")
        wrong = [shard for shard in shard_ids if shard >= shard_count]
        if wrong:
            raise ValueError(
                f"[discord] shard_ids {wrong} must be below shard_count = {shard_count}"
            )
    options: dict[str, Any] = {"shard_count": shard_count, "shard_ids": shard_ids}
    if application_id is not None:
        options["application_id"] = application_id
    return discord.AutoShardedClient(
        intents=intents_for(config),
        **options,
        # Player names come from everywhere: never let a reply ping @everyone or a role.
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=True, replied_user=False
        ),
        max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
        chunk_guilds_at_startup=False,
        max_messages=None,
    )


def _use_api_base(http: str | None) -> None:
    """Point discord.py at another HTTP API base (a local fake in tests).

    discord.py keeps the base on ``Route`` for the whole process, as its own
    API-version switch does; production leaves it alone.
    """
    if http:
        discord.http.Route.BASE = http.rstrip("/")


class DiscordAdapter:
    """Discord, as the host sees it (:class:`~bot.host.messages.ChatAdapter`).

    ``http`` is the base URL of Discord's HTTP API, for tests against a local
    fake (``None``: the real one). ``admins`` are accepted for symmetry with
    other adapters; the host checks them, the adapter does not.
    """

    platform = PLATFORM

    def __init__(
        self,
        config: DiscordConfig,
        *,
        token: str,
        cursors: CursorStore,
        admins: Sequence[str] = (),
        http: str | None = None,
    ) -> None:
        self._config = config
        self.__token = token  # name-mangled and never formatted into text
        self._cursors = cursors
        self._watched: set[str] = set()  # cursor keys known to exist (see _watch)
        self._admins = tuple(admins)
        self._http_base = http
        self._client: discord.Client | None = None
        self._tree: app_commands.CommandTree[Any] | None = None
        self._on_inbound: InboundHandler | None = None
        self._pending: dict[str, _PendingInteraction] = {}
        self._connect_task: asyncio.Task[None] | None = None
        self._catch_up_task: asyncio.Task[int] | None = None
        self._cursor_lock = asyncio.Lock()

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

    def build_client(self) -> discord.Client:
        """Create the client, its command tree and event handlers (no network)."""
        _use_api_base(self._http_base)
        client = _make_client(self._config)
        self._tree = build_command_tree(client, self._on_command)

        async def on_message(message: discord.Message) -> None:
            await self._on_message(message)

        async def on_ready() -> None:
            self._schedule_catch_up()

        async def on_shard_ready(shard_id: int) -> None:
            # A shard that had to identify afresh missed events; RESUME replays them.
            self._schedule_catch_up()

        # ``Client.event`` registers by function name.
        client.event(on_message)
        client.event(on_ready)
        client.event(on_shard_ready)
        self._client = client
        return client

    async def login(self, on_inbound: InboundHandler) -> None:
        """Log in over HTTP only (checks the token); :meth:`start` then opens the gateway."""
        self._on_inbound = on_inbound
        client = self._client or self.build_client()
        try:
            await client.login(self.__token)
        except discord.LoginFailure:
            raise DeliveryError(
                "Discord refused the token (check DISCORD_TOKEN)", permanent=True
            ) from None

    async def start(self, on_inbound: InboundHandler) -> None:
        """Log in, then keep the gateway connection in the background (reconnecting)."""
        await self.login(on_inbound)
        self._connect_task = asyncio.create_task(self._connect(), name="discord-gateway")

    async def _connect(self) -> None:
        try:
            await self.client.connect(reconnect=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Discord gateway connection ended")

    async def stop(self) -> None:
        for task in (self._catch_up_task, self._connect_task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._client is not None and not self._client.is_closed():
            await self._client.close()
        self._pending.clear()

    # ---- inbound: slash commands -------------------------------------------------

    async def _on_command(
        self, interaction: discord.Interaction[Any], command: str, text: str
    ) -> None:
        """Defer within Discord's 3 seconds, remember the interaction, then hand it over.

        Only what the deferral needs runs before it (the route: public or
        ephemeral). Reading the member (name, avatar, permissions) and the
        host's work come after, and the hand-over first lets every other
        interaction already waiting on the loop send its own deferral: under a
        burst, the host's transaction (on its worker thread, competing for the
        interpreter) must not delay the acknowledgements still due.
        """
        route = discord_text.route_for(command, in_guild=interaction.guild_id is not None)
        pending = _PendingInteraction(
            interaction, ephemeral=route.ephemeral, created=time.monotonic()
        )
        try:
            await interaction.response.defer(ephemeral=route.ephemeral)
        except discord.HTTPException as error:
            # Too late (10062) or Discord trouble: still hand the command over,
            # replies then go by channel or DM instead of follow-up.
            log.warning(
                "could not defer interaction %s: %s %s", interaction.id, error.status, error.code
            )
            pending.deferred = False
        self._remember(str(interaction.id), pending)
        # Acknowledgements first: the commands queued behind this one defer now.
        await asyncio.sleep(0)
        inbound = self._inbound_from_interaction(interaction, route.kind, text)
        try:
            await self._handler()(inbound)
            if self._config.message_content and inbound.channel:
                await self._watch(f"channel:{inbound.channel}", interaction.id)
        except Exception:
            log.exception("the host failed on interaction %s", interaction.id)
            if pending.deferred and not pending.consumed:
                pending.consumed = True
                with contextlib.suppress(discord.HTTPException):
                    await interaction.followup.send(
                        "Something went wrong on our side; please try again.", ephemeral=True
                    )

    def _inbound_from_interaction(
        self, interaction: discord.Interaction[Any], kind: InboundKind, text: str
    ) -> Inbound:
        in_guild = interaction.guild_id is not None
        user = interaction.user
        return Inbound(
            platform=PLATFORM,
            channel=str(interaction.channel_id) if in_guild and interaction.channel_id else "",
            sender=Sender(
                platform=PLATFORM,
                user_id=str(user.id),
                display_name=user.display_name,
                avatar_url=_avatar_url(user),
                is_channel_admin=_is_channel_admin(
                    user, interaction.permissions if in_guild else None, self._config.host_role
                ),
            ),
            kind=kind,
            text=text,
            message_id=str(interaction.id),
            sent_at=discord.utils.snowflake_time(interaction.id),
        )

    def _handler(self) -> InboundHandler:
        if self._on_inbound is None:
            raise RuntimeError("the Discord adapter is not started")
        return self._on_inbound

    def _remember(self, key: str, pending: _PendingInteraction) -> None:
        """Keep a deferred interaction for its follow-ups; drop the expired ones.

        ``_pending`` holds interactions in arrival order (``created`` only
        grows), so the expired ones are at its front: forgetting them costs
        what was forgotten, not a scan of every interaction still alive.
        """
        limit = pending.created - INTERACTION_LIFETIME
        while self._pending:
            oldest = next(iter(self._pending))
            if self._pending[oldest].created >= limit:
                break
            del self._pending[oldest]
        self._pending.pop(key, None)  # a repeated id goes to the back, in order
        self._pending[key] = pending

    # ---- inbound: typed messages -------------------------------------------------

    def _inbound_from_message(self, message: discord.Message, *, is_dm: bool) -> Inbound | None:
        """A typed ``#bst`` message in a channel, or any DM; ``None`` for the rest."""
        if message.author.bot:
            return None
        text = message.content.strip()
        if is_dm:
            if not text:
                return None
        elif not text.lower().startswith("#bst"):
            return None
        author = message.author
        permissions = None
        # A server not (yet) in the cache gives a member without its guild.
        if isinstance(author, discord.Member) and getattr(author, "guild", None) is not None:
            permissions = author.guild_permissions
        return Inbound(
            platform=PLATFORM,
            channel="" if is_dm else str(message.channel.id),
            sender=Sender(
                platform=PLATFORM,
                user_id=str(author.id),
                display_name=author.display_name,
                avatar_url=_avatar_url(author),
                is_channel_admin=_is_channel_admin(author, permissions, self._config.host_role),
            ),
            kind=InboundKind.DM if is_dm else InboundKind.PUBLIC,
            text=text,
            message_id=str(message.id),
            sent_at=message.created_at,
        )

    async def _on_message(self, message: discord.Message) -> None:
        is_dm = _is_dm_channel(message.channel)
        try:
            inbound = self._inbound_from_message(message, is_dm=is_dm)
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
            return
        key = f"{'dm' if is_dm else 'channel'}:{message.channel.id}"
        await self._advance_cursor(self._cursors, key, message.id)

    async def _watch(self, key: str, message_id: int) -> None:
        """Start catching up ``key`` (a channel or DM) from ``message_id`` if nothing does
        yet: a channel played only by slash commands, or a DM the bot opened with a
        board, would otherwise have no cursor, and what a captain typed there while the
        bot was away would never be read."""
        if key in self._watched:
            return
        async with self._cursor_lock:
            if await self._cursors.get(PLATFORM, key) is None:
                await self._cursors.set(PLATFORM, key, str(message_id))
        self._watched.add(key)

    async def _advance_cursor(self, cursors: CursorStore, key: str, message_id: int) -> None:
        """Move a cursor forward only: live messages and a catch-up may interleave."""
        async with self._cursor_lock:
            current = await cursors.get(PLATFORM, key)
            if current is not None and current.isdigit() and int(current) >= message_id:
                return
            await cursors.set(PLATFORM, key, str(message_id))

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

    def _owns(self, key: str) -> bool:
        """With explicit shard ids, each process catches up only its own channels
        (DMs arrive on shard 0); otherwise every cursor is ours."""
        client = self.client
        shard_ids = getattr(client, "shard_ids", None)
        if not self._config.shard_ids or shard_ids is None:
            return True
        kind, _, ident = key.partition(":")
        if kind == "dm":
            return 0 in shard_ids
        return client.is_ready() is False or client.get_channel(int(ident)) is not None

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Hand over every ``#bst`` channel message and every DM newer than its cursor.

        Oldest first; each cursor advances after each handled message, and past
        ignored ones at the end. A channel that cannot be read for good (deleted,
        no access: 403, 404) is logged and skipped; any other failure (Discord
        down, rate limited, the network, ``on_inbound``) stops that channel, the
        others go on, and the first is raised at the end, so the host does not
        resolve a turn believing it has every order (it waits a while, then asks
        again: see TurnClock.resolve_due).
        """
        count = 0
        failure: BaseException | None = None
        for key, value in sorted((await cursors.all(PLATFORM)).items()):
            kind, _, ident = key.partition(":")
            if kind not in ("channel", "dm") or not ident.isdigit() or not value.isdigit():
                continue
            if not self._owns(key):
                continue
            try:
                count += await self._catch_up_channel(
                    cursors, key, int(ident), int(value), on_inbound
                )
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning(
                    "catch-up of %s skipped: Discord answered %s (code %s)",
                    key,
                    error.status,
                    error.code,
                )
            except Exception as error:
                log.exception("catch-up of %s stopped", key)
                failure = failure or error
        if failure is not None:
            raise failure
        return count

    async def _catch_up_channel(
        self,
        cursors: CursorStore,
        key: str,
        channel_id: int,
        after: int,
        on_inbound: InboundHandler,
    ) -> int:
        client = self.client
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
            inbound = self._inbound_from_message(message, is_dm=is_dm)
            if inbound is None:
                continue
            await on_inbound(inbound)
            count += 1
            await self._advance_cursor(cursors, key, message.id)
        if last_seen > after:
            await self._advance_cursor(cursors, key, last_seen)
        return count

    # ---- outbound ----------------------------------------------------------------

    async def send(self, address: Address, outbound: Outbound) -> str:
        """Send; return Discord's message id (the last one when split). Raise DeliveryError."""
        if address.platform != PLATFORM:
            raise DeliveryError(f"address is for {address.platform}, not discord", permanent=True)
        if self._client is None or self._client.http.token is None:
            raise DeliveryError("the Discord adapter is not connected")
        text, attachments = _fit_attachments(outbound.text, outbound.attachments)
        chunks = [c for c in discord_text.split_text(text)] if text else []
        if not chunks and not attachments:
            raise DeliveryError("nothing to send", permanent=True)
        try:
            pending = self._pending.get(address.reply_to or "")
            if pending is not None and self._usable(pending):
                message_id = await self._send_followup(pending, address, chunks, attachments)
                if message_id is not None:
                    return message_id
            return await self._send_message(address, outbound.key, chunks, attachments)
        except DeliveryError:
            raise
        except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
            raise delivery_error(error) from error

    async def withdraw(self, address: Address) -> None:
        """Delete a message someone typed in a channel (rules §4: a move posted in public is
        taken down). Needs the Manage Messages permission: without it Discord answers 403
        (50013), a permanent failure. A message already gone counts as deleted; a slash
        command is not a message (its options show to nobody but the asker)."""
        if address.platform != PLATFORM:
            raise DeliveryError(f"address is for {address.platform}, not discord", permanent=True)
        message_id = address.reply_to or ""
        if not (message_id.isdigit() and address.channel.isdigit()):
            raise DeliveryError(
                f"not a Discord message: {address.channel!r}/{message_id!r}", permanent=True
            )
        if message_id in self._pending:
            return
        if self._client is None or self._client.http.token is None:
            raise DeliveryError("the Discord adapter is not connected")
        channel = self._client.get_partial_messageable(int(address.channel))
        try:
            await channel.get_partial_message(int(message_id)).delete()
        except discord.NotFound:
            return  # deleted by its author or a moderator already
        except (TimeoutError, discord.DiscordException, aiohttp.ClientError, OSError) as error:
            raise delivery_error(error) from error

    def _usable(self, pending: _PendingInteraction) -> bool:
        return pending.deferred and time.monotonic() - pending.created < INTERACTION_LIFETIME

    async def _send_followup(
        self,
        pending: _PendingInteraction,
        address: Address,
        chunks: list[str],
        attachments: list[Attachment],
    ) -> str | None:
        """Answer through the interaction; ``None`` when it can no longer be used.

        The first follow-up replaces the "thinking…" placeholder and keeps its
        visibility, whatever flags it carries. So when the reply's privacy
        differs from the placeholder's (a private acknowledgement of a public
        shot), the placeholder is deleted first: a secret never lands in public.
        """
        interaction = pending.interaction
        ephemeral = address.is_dm
        try:
            if not pending.consumed and pending.ephemeral != ephemeral:
                await interaction.delete_original_response()
                pending.consumed = True
            message_id = ""
            parts = chunks or [""]
            for index, chunk in enumerate(parts):
                last = index == len(parts) - 1
                message = await interaction.followup.send(
                    content=chunk or discord.utils.MISSING,
                    files=_files(attachments) if last and attachments else discord.utils.MISSING,
                    ephemeral=ephemeral,
                    wait=True,
                )
                pending.consumed = True
                message_id = str(message.id)
            return message_id
        except discord.NotFound as error:
            if error.code in (UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION):
                pending.deferred = False  # expired: fall back to a channel or DM
                return None
            raise

    async def _send_message(
        self, address: Address, key: str, chunks: list[str], attachments: list[Attachment]
    ) -> str:
        """A DM (``address.user_id``) or a channel message, each part with its nonce."""
        client = self.client
        channel: discord.abc.Messageable
        reference = None
        if address.is_dm:
            assert address.user_id is not None
            if not address.user_id.isdigit():
                raise DeliveryError(f"not a Discord user id: {address.user_id!r}", permanent=True)
            channel = await client.create_dm(discord.Object(id=int(address.user_id)))
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
                # A typed "#bst H14": answer as a reply, or plainly if it was deleted.
                reference = discord.MessageReference(
                    message_id=int(address.reply_to),
                    channel_id=int(address.channel),
                    fail_if_not_exists=False,
                )
        parts = chunks or [""]
        message_id = ""
        for index, chunk in enumerate(parts):
            last = index == len(parts) - 1
            kwargs: dict[str, Any] = {}
            nonce = nonce_for(key, index)
            if nonce is not None:
                kwargs["nonce"] = nonce  # discord.py adds enforce_nonce=True with it
            if reference is not None and index == 0:
                kwargs["reference"] = reference
            if last and attachments:
                kwargs["files"] = _files(attachments)
            message = await channel.send(content=chunk or None, **kwargs)
            message_id = str(message.id)
        if address.is_dm:
            # A captain's first DM to the bot is often an answer to this one.
            with contextlib.suppress(Exception):  # a cursor store hiccup must not fail a send
                await self._watch(f"dm:{message.channel.id}", message.id)
        return message_id


def _fit_attachments(text: str, attachments: Sequence[Attachment]) -> tuple[str, list[Attachment]]:
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


def _files(attachments: Sequence[Attachment]) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(a.data), filename=a.filename, description=a.alt_text or None)
        for a in attachments
    ]


async def sync_commands(
    token: str, application_id: int, guild_id: int | None, *, http: str | None = None
) -> list[str]:
    """Register ``/bst`` with Discord (``bst discord sync [--guild ID]``).

    On demand, never at every start: Discord rate-limits command updates, and
    global commands take up to an hour to appear. ``--guild`` copies them to
    one server, where they appear at once (for testing). Returns the names
    Discord confirmed.
    """
    _use_api_base(http)
    client = _make_client(DiscordConfig(), application_id=application_id)

    async def ignore(interaction: discord.Interaction[Any], command: str, text: str) -> None:
        return None

    tree = build_command_tree(client, ignore)
    try:
        try:
            await client.login(token)
            guild = discord.Object(id=guild_id) if guild_id else None
            if guild is not None:
                tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
        except discord.LoginFailure:
            raise DeliveryError(
                "Discord refused the token (check DISCORD_TOKEN)", permanent=True
            ) from None
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
            # (A network failure reads "network error talking to Discord: …".)
            raise delivery_error(error) from error
        return [command.name for command in synced]
    finally:
        await client.close()
