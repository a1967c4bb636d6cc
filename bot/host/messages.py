"""The host's message types and the protocol every platform adapter speaks.

Adapters translate, nothing more: a Discord slash command, a tweet, a DM, a
console line and a script line all become the same :class:`Inbound`, and
everything the host says goes out as an :class:`Outbound` to an
:class:`Address`. Adapters import this module; the host never imports an
adapter.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, cast


class InboundKind(enum.Enum):
    PUBLIC = "public"  # posted in a game's channel (or a public tweet)
    DM = "dm"  # sent privately to the bot


@dataclass(frozen=True)
class Sender:
    """A person on a platform. ``user_id`` is the identity; the name may change."""

    platform: str
    user_id: str
    display_name: str
    avatar_url: str | None = None
    # Platform-side powers that make someone a host of any game in the channel
    # (Discord's Manage Server, a configured role). Decided by the adapter from
    # the platform's own data; the host still checks creator and admins itself.
    is_channel_admin: bool = False
    # The communities (servers) this person belongs to, by the adapter's opaque ids, as
    # far as the platform tells the adapter; None when it cannot tell. A DM `join` of a
    # game opened in a community is for its members (see Inbound.community).
    communities: frozenset[str] | None = None


@dataclass(frozen=True)
class Inbound:
    """One message from a person to the host.

    ``channel`` is the platform's id of the public channel the message belongs
    to (for a DM: the channel of the game it is about, when the adapter knows
    it, else empty). ``message_id`` is unique per platform, so a redelivery
    is recognised. ``sent_at`` is the platform's own timestamp (UTC).
    """

    platform: str
    channel: str
    sender: Sender
    kind: InboundKind
    text: str
    message_id: str
    sent_at: datetime
    # The community the message was posted in (a Discord server), by the adapter's
    # opaque id; "" for a DM and where the platform has no communities (X, a console).
    # A game opened there is reached from there (see bot.store.records.Game.community).
    community: str = ""

    # The number of the game the message is about, where the platform carried it (a
    # Discord button's custom id holds its game's): it then names the game wherever the
    # message was sent, a DM included. 0: the host finds the game as for any message.
    game: int = 0


class AttachmentKind(enum.Enum):
    IMAGE = "image"
    VIDEO = "video"


@dataclass(frozen=True)
class Attachment:
    kind: AttachmentKind
    filename: str
    data: bytes
    mime_type: str
    alt_text: str = ""


@dataclass(frozen=True)
class Address:
    """Where an outbound message goes: a public channel, or a DM to one user."""

    platform: str
    channel: str = ""  # public channel id (or, for a DM, the game's channel for context)
    user_id: str | None = None  # set for a DM
    user_name: str | None = None
    reply_to: str | None = (
        None  # platform message id this answers, where the platform threads replies
    )
    # A private message to ``user_id`` that is also news for a whole crew (players who
    # share a seat): ``group`` names the crew within the game, ``members`` are its
    # (user id, name) and ``group_name`` how to title its room. A platform with group
    # rooms (a Discord private thread) posts it there once; elsewhere each member's DM.
    group: str = ""
    members: tuple[tuple[str, str], ...] = ()
    group_name: str = ""

    @property
    def is_dm(self) -> bool:
        return self.user_id is not None


@dataclass(frozen=True)
class Choice:
    """An answer the reader may give with one click, where the platform has buttons
    (Discord): ``text`` is exactly what they could have typed instead (``#sonar join``),
    so a click is an ordinary command, and typing it works everywhere. ``private``: the
    answer is a secret order, acknowledged to the clicker alone."""

    label: str
    text: str
    private: bool = False


@dataclass(frozen=True)
class Card:
    """A message's facts as a card (a Discord embed): a title and named values. The
    message's text says the same, for platforms that show text only; a platform shows
    the message's picture, if it has one, inside the card."""

    title: str
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Outbound:
    """One message from the host. ``key`` is the outbox row's stable id:
    adapters derive idempotency nonces from it so a retry never doubles."""

    text: str
    attachments: Sequence[Attachment] = field(default_factory=tuple)
    key: str = ""
    # An earlier attempt to send this failed, and may still have reached the platform
    # (a lost response): an adapter with no idempotency key (X DMs) looks first.
    retry: bool = False
    # Buttons, where the platform has them (see Choice).
    choices: tuple[Choice, ...] = ()
    # The user ids the text names to notify (the platform's mention markup is already in
    # the text): a platform that can limit who is pinged pings these and nobody else.
    mentions: tuple[str, ...] = ()
    card: Card | None = None
    # The number of the game the message is about (0: none), so that a platform's
    # buttons can carry it back with a click.
    game: int = 0
    # When the message was written (epoch seconds; 0: unknown): a retry need look for an
    # earlier attempt's delivery only among what was sent since.
    written_at: float = 0.0
    # The exact moments (epoch seconds) of the game's running deadlines, which the text
    # names to the minute (``2026-01-01 08:00 UTC``): a platform that shows times live
    # (Discord's countdowns) shows these to the second, never ending early.
    instants: tuple[float, ...] = ()
    # The address of the web page the message is about (its game's page, where ``[web]
    # base_url`` is set; "" otherwise): each platform shows it its own way (a link
    # button, a link at the end of the text) or not at all.
    link: str = ""
    # Parts of ``text`` a platform that shortens messages must keep whole (they may move
    # to its end): what makes the post checkable later — a commitment, a root, a
    # revealed secret. A platform that sends the text whole need not look at them.
    keep: tuple[str, ...] = ()


class DeliveryError(Exception):
    """A send failed. ``retry_after`` (seconds) when the platform said when to
    try again; ``permanent`` when retrying cannot help (DMs closed, account
    gone), so the outbox marks the message undeliverable. ``dms_closed`` when the
    recipient does not accept the bot's DMs (their own setting: Discord's 50007),
    the one failure the host asks the player in public to fix; a refusal that is
    the bot's own (a missing permission, an app not allowed DMs) is not.
    ``room_closed`` when the channel can take no more messages (see below)."""

    def __init__(
        self,
        message: str,
        *,
        retry_after: float | None = None,
        permanent: bool = False,
        dms_closed: bool = False,
        room_closed: bool = False,
        per_recipient: bool = False,
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        # The wait is this message's alone (an anti-spam refusal of one recipient, such as
        # Discord's 40003): it is held ``retry_after`` while the rest of its lane goes on,
        # instead of the whole lane resting as after a rate limit.
        self.per_recipient = per_recipient
        self.permanent = permanent or dms_closed or room_closed
        self.dms_closed = dms_closed
        # The channel is a room that can take no more messages (a thread a moderator
        # locked, or deleted): the host posts in the channel the game was opened in.
        self.room_closed = room_closed


# The handler's result may say ``answered`` is false: nothing will be sent in reply
# (see :class:`bot.host.commands.inbox.Effect`), so an adapter that shows a placeholder while the
# host works removes it instead of leaving it spinning.
InboundHandler = Callable[[Inbound], Awaitable[object]]


class PlatformRefused(Exception):
    """A platform turned the bot away for good: a wrong token, an intent the application
    has not switched on. Retrying cannot help, and a process that stays up would do
    nothing while looking alive, so ``bst run`` stops with this message, which says what
    to fix, and ``exit_code`` (2: the configuration; 1: anything else)."""

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class PlatformLink:
    """An adapter's connection to its platform, as the host watches it.

    The adapter says when it is up (a gateway ready, a poll answered) and down (a
    disconnection, a failed poll), or that the platform refused it for good; the host
    reads it for its health signal and stops the process on a refusal.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.connected = False
        self.changed_at = clock()
        self.refusal: PlatformRefused | None = None
        self._listeners: list[Callable[[PlatformRefused], None]] = []

    def up(self) -> None:
        if not self.connected:
            self.connected = True
            self.changed_at = self._clock()

    def down(self) -> None:
        if self.connected:
            self.connected = False
            self.changed_at = self._clock()

    def down_for(self) -> float:
        """Seconds since the link went down (or since it was made, never up yet); 0 if up."""
        return 0.0 if self.connected else self._clock() - self.changed_at

    def refuse(self, refusal: PlatformRefused) -> None:
        """The platform refused the bot for good: tell whoever waits for it (the host)."""
        self.down()
        if self.refusal is None:
            self.refusal = refusal
            for listener in self._listeners:
                listener(refusal)

    def on_refusal(self, listener: Callable[[PlatformRefused], None]) -> None:
        self._listeners.append(listener)
        if self.refusal is not None:
            listener(self.refusal)


class CursorStore(Protocol):
    """Durable per-adapter positions (last message id, ``since_id``, DM event id)."""

    async def get(self, platform: str, key: str) -> str | None: ...

    async def set(self, platform: str, key: str, value: str) -> None: ...

    async def all(self, platform: str) -> dict[str, str]:
        """Every cursor of a platform (an adapter keeps one per channel it watches)."""
        ...

    async def forget(self, platform: str, key: str) -> None:
        """Drop a cursor nobody needs any more (a thread gone quiet, a DM channel gone)."""
        ...


@dataclass(frozen=True)
class LiveScope:
    """What a catch-up is for: the public channels of a platform's live games (setup or
    battle) and the user ids of their players. A channel or DM outside it has no order
    that could still count, so it is neither read nor kept."""

    channels: frozenset[str] = frozenset()
    users: frozenset[str] = frozenset()
    # What the deadline at hand needs read: the channels and players of the games due
    # now (``None``: every live one). The rest of ``channels`` and ``users`` is kept,
    # not read.
    due_channels: frozenset[str] | None = None
    due_users: frozenset[str] | None = None


class CatchUpIncomplete(Exception):
    """Some channels or DMs could not be read (a 5xx, a timeout), the others were.

    ``handled``: how many messages were handed over all the same; ``channels`` and
    ``users``: what could not be read, so only the games there wait for it (see
    ``TurnClock.resolve_due``) instead of every game of the platform."""

    def __init__(
        self,
        handled: int,
        *,
        channels: frozenset[str] = frozenset(),
        users: frozenset[str] = frozenset(),
    ) -> None:
        parts = [
            *(f"channel {c}" for c in sorted(channels)),
            *(f"DMs of {u}" for u in sorted(users)),
        ]
        super().__init__("could not read " + ", ".join(parts))
        self.handled = handled
        self.channels = channels
        self.users = users


class ScopedCatchUp(Protocol):
    """An adapter that catches up only what live games need (optional: declared by
    ``Capabilities.scoped_catch_up``; else the host calls ``fetch_since``)."""

    async def fetch_live(
        self, cursors: CursorStore, on_inbound: InboundHandler, live: LiveScope
    ) -> int:
        """As :meth:`ChatAdapter.fetch_since`, for the channels and DMs in ``live`` only;
        cursors outside it are forgotten (where ``cursors`` can forget). Raises
        :class:`CatchUpIncomplete` when some could not be read."""
        ...


@dataclass(frozen=True)
class Capabilities:
    """What a platform can do beyond the four verbs of :class:`ChatAdapter`, declared by
    its adapter (its ``capabilities``) and read by the host: the host never probes an
    adapter for a method or an attribute, so what a platform does is written in one place
    and a test checks the declaration against the adapter.

    A flag naming an optional protocol below says the adapter speaks it too; the host
    reaches it through the accessor beside the protocol (:func:`lanes_of`, …)."""

    lanes: bool = False  # LaneAdapter: says which relay lane a message travels in
    mentions: bool = False  # MentioningAdapter: its own markup to name a person
    channel_links: bool = False  # ChannelLinking: its own markup to name a channel
    group_rooms: bool = False  # GroupAdapter: a private room for a crew
    game_rooms: bool = False  # RoomAdapter: a room of the game's own in its channel
    withdraws: bool = False  # WithdrawingAdapter: removes a move posted in public
    picks_attachments: bool = False  # AttachmentChoosing: says who takes pictures
    scoped_catch_up: bool = False  # ScopedCatchUp: catches up only live games
    watched_link: bool = False  # LinkedAdapter: a connection the health signal watches
    # A board message is its picture and a few lines of news, without the board as text
    # (Discord, X); elsewhere (the console, a script's transcript) the text board follows.
    shows_pictures: bool = False
    # How many places the relay sends to at once in a lane, each place's messages in
    # order (Discord: its library paces them by the platform's rate limits); 1: strictly
    # in order.
    sends_at_once: int = 1
    # A reminder is one public post pinging the players missing (Discord), not a DM each.
    reminds_in_public: bool = False
    # Every answer costs (an X reply is a paid post or DM): chatter is left unanswered.
    answers_cost: bool = False
    # A message's card shows as the platform's own (Discord's embed).
    shows_cards: bool = False
    # A person types here: a step that cannot be undone (leaving a game) is confirmed
    # (``leave yes``); a script's lines act at once.
    confirms_final_steps: bool = False
    # How a person picks a game's verb from the platform's menu, as a template of
    # ``{kind}`` and ``{verb}`` (Discord: ``/{kind} {verb}``); "": verbs are only typed.
    menu_command: str = ""


@dataclass(frozen=True)
class PlatformFace:
    """How people know a platform, for pages that name where a game is played: its name
    as shown (``X``), and a link to a game's channel where one can be made without
    asking the platform (an X thread is a post's address; "" where none can)."""

    title: str
    channel_url: Callable[[str], str] | None = None


class ChatAdapter(Protocol):
    """A platform, as the host sees it."""

    platform: str
    capabilities: Capabilities

    async def start(self, on_inbound: InboundHandler) -> None:
        """Connect and deliver every inbound message to ``on_inbound``."""
        ...

    async def send(self, address: Address, outbound: Outbound) -> str:
        """Send; return the platform's message id. Raise DeliveryError on failure."""
        ...

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        """Catch up: hand every message the platform holds since the stored
        cursors to ``on_inbound`` (which records it durably and ignores
        redeliveries), advancing each cursor only after its messages were
        handled. Returns how many messages were handed over. The host calls it
        after a reconnect and before every deadline resolves."""
        ...

    async def stop(self) -> None: ...


class LaneAdapter(Protocol):
    """A platform that says which relay lane a message travels in (optional: declared by
    ``Capabilities.lanes``; without it a platform is one lane).

    Lanes send side by side, each in order (see :mod:`bot.host.outbox.relay`)."""

    def lane(self, address: Address) -> str | None:
        """The lane's name, or None when another process is to send it (it holds the
        interaction the message answers)."""
        ...


class MentioningAdapter(Protocol):
    """A platform whose mention of a person is its own markup (Discord's ``<@id>``, X's
    ``@handle``). Optional (``Capabilities.mentions``): without it the host writes
    ``@name``, which pings nobody on Discord."""

    def mention(self, address: Address) -> str:
        """How to name ``address``'s user in a public message so they are notified."""
        ...


class GroupAdapter(Protocol):
    """A platform with private rooms for a group of people (a Discord private thread).

    Optional (``Capabilities.group_rooms``): elsewhere a crew's news reaches each member
    by DM."""

    async def send_to_group(self, address: Address, outbound: Outbound) -> str:
        """Post in the room of ``address.group`` (made the first time, with every one of
        ``address.members`` in it, members added as they come); return the message id.
        Where no such room can be made, send each member a DM instead."""
        ...


class RoomAdapter(Protocol):
    """A platform that can give a game a room of its own in a channel (a Discord thread).

    Optional (``Capabilities.game_rooms``): elsewhere a game lives in the channel it was
    opened in."""

    async def open_room(self, address: Address, outbound: Outbound, name: str) -> str:
        """Open a room called ``name`` in ``address.channel`` and post ``outbound`` in it
        first; return the room's id, to which the game's messages then go. Where no room
        can be made there (the channel is a thread itself, threads are not allowed), post
        in the channel and return ``address.channel``. Raise DeliveryError when nothing
        could be posted."""
        ...

    async def room_member(self, address: Address, *, present: bool) -> None:
        """Add ``address.user_id`` to the room ``address.channel`` names (``present``), or
        take them out (they left, or were kicked), so the platform shows them the room's
        news."""
        ...

    async def close_room(self, address: Address) -> None:
        """Close the room ``address.channel`` names (the game in it is over): a Discord
        thread is archived."""
        ...


class WithdrawingAdapter(Protocol):
    """A platform on which the host can remove a message a person posted in public.

    Optional (``Capabilities.withdraws``): the rules have
    the host delete a move posted in public where the platform lets it (Discord, with
    Manage Messages); on X nobody can delete someone else's post."""

    async def withdraw(self, address: Address) -> None:
        """Remove the message ``address.reply_to`` from ``address.channel``. A message
        already gone counts as removed. Raise DeliveryError when it cannot be removed
        (``permanent`` when retrying cannot help: no permission)."""
        ...


class ChannelLinking(Protocol):
    """A platform whose mention of a channel is its own markup (Discord's ``<#id>``).
    Optional (``Capabilities.channel_links``): elsewhere a channel is named as text."""

    def channel_link(self, channel: str) -> str: ...


class AttachmentChoosing(Protocol):
    """A platform on which some recipients take no pictures (the demo's simulated
    players, a Bluesky DM). Optional (``Capabilities.picks_attachments``): elsewhere
    every message with a picture is drawn."""

    def accepts_attachments(self, address: Address) -> bool: ...


class LinkedAdapter(Protocol):
    """A platform whose connection the health signal watches (a gateway, a poll).
    Optional (``Capabilities.watched_link``): elsewhere (the console) it is always there."""

    link: PlatformLink


# The host reaches an optional protocol only through the adapter's declaration: each
# accessor gives the adapter as that protocol where its capabilities say it speaks it.


def scoped_catch_up_of(adapter: ChatAdapter) -> ScopedCatchUp | None:
    return cast(ScopedCatchUp, adapter) if adapter.capabilities.scoped_catch_up else None


def lanes_of(adapter: ChatAdapter) -> LaneAdapter | None:
    return cast(LaneAdapter, adapter) if adapter.capabilities.lanes else None


def mentions_of(adapter: ChatAdapter) -> MentioningAdapter | None:
    return cast(MentioningAdapter, adapter) if adapter.capabilities.mentions else None


def channel_links_of(adapter: ChatAdapter) -> ChannelLinking | None:
    return cast(ChannelLinking, adapter) if adapter.capabilities.channel_links else None


def group_rooms_of(adapter: ChatAdapter) -> GroupAdapter | None:
    return cast(GroupAdapter, adapter) if adapter.capabilities.group_rooms else None


def game_rooms_of(adapter: ChatAdapter) -> RoomAdapter | None:
    return cast(RoomAdapter, adapter) if adapter.capabilities.game_rooms else None


def withdrawing_of(adapter: ChatAdapter) -> WithdrawingAdapter | None:
    return cast(WithdrawingAdapter, adapter) if adapter.capabilities.withdraws else None


def attachment_choice_of(adapter: ChatAdapter) -> AttachmentChoosing | None:
    return cast(AttachmentChoosing, adapter) if adapter.capabilities.picks_attachments else None


def link_of(adapter: ChatAdapter) -> PlatformLink | None:
    return cast(LinkedAdapter, adapter).link if adapter.capabilities.watched_link else None
