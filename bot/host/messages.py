"""The host's message types and the protocol every platform adapter speaks.

Adapters translate, nothing more: a Discord slash command, a tweet, a DM, a
console line and a script line all become the same :class:`Inbound`, and
everything the host says goes out as an :class:`Outbound` to an
:class:`Address`. Adapters import this module; the host never imports an
adapter.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol


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

    @property
    def is_dm(self) -> bool:
        return self.user_id is not None


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


class DeliveryError(Exception):
    """A send failed. ``retry_after`` (seconds) when the platform said when to
    try again; ``permanent`` when retrying cannot help (DMs closed, account
    gone), so the outbox marks the message undeliverable."""

    def __init__(
        self, message: str, *, retry_after: float | None = None, permanent: bool = False
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.permanent = permanent


InboundHandler = Callable[[Inbound], Awaitable[object]]


class CursorStore(Protocol):
    """Durable per-adapter positions (last message id, ``since_id``, DM event id)."""

    async def get(self, platform: str, key: str) -> str | None: ...

    async def set(self, platform: str, key: str, value: str) -> None: ...

    async def all(self, platform: str) -> dict[str, str]:
        """Every cursor of a platform (an adapter keeps one per channel it watches)."""
        ...


class ChatAdapter(Protocol):
    """A platform, as the host sees it."""

    platform: str

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


class WithdrawingAdapter(Protocol):
    """A platform on which the host can remove a message a person posted in public.

    Optional (the relay asks ``getattr(adapter, "withdraw", None)``): the rules have
    the host delete a move posted in public where the platform lets it (Discord, with
    Manage Messages); on X nobody can delete someone else's post."""

    async def withdraw(self, address: Address) -> None:
        """Remove the message ``address.reply_to`` from ``address.channel``. A message
        already gone counts as removed. Raise DeliveryError when it cannot be removed
        (``permanent`` when retrying cannot help: no permission)."""
        ...
