"""The inbound table: every message the host accepted, recorded once
(a redelivery is a no-op), with its game and outcome."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select

from bot.store.models import (
    InboundRow,
)
from bot.store.tx import TxBase

SQL_INSERT_INBOUND = (
    "INSERT INTO inbound (platform, message_id, channel, user_id, user_name, avatar_url, "
    "is_channel_admin, kind, text, sent_at, received_at, game_id, outcome) VALUES "
    "(:platform, :message_id, :channel, :user_id, :user_name, :avatar_url, "
    ":is_channel_admin, :kind, :text, :sent_at, :received_at, :game_id, :outcome) "
    "ON CONFLICT (platform, message_id) DO NOTHING"
)


SQL_UPDATE_INBOUND = "UPDATE inbound SET game_id = :game_id, outcome = :outcome WHERE id = :id"


@dataclass(slots=True)
class Received:
    """A message being handled, as a plain object: the fields of :class:`InboundRow`
    without the ORM's instrumentation (which costs on every attribute read and write).
    :meth:`Tx.record_inbound` stores it and sets its id; :meth:`Tx.update_inbound`
    writes a later game and outcome."""

    platform: str
    message_id: str
    channel: str
    user_id: str
    user_name: str
    avatar_url: str | None
    is_channel_admin: bool
    kind: str
    text: str
    sent_at: float
    received_at: float
    game_id: int | None = None
    outcome: str = "handled"
    id: int | None = None
    # Not stored (see bot.host.messages.Inbound): where the message was posted, and the
    # communities its sender belongs to as far as the platform said (None: unknown).
    community: str = ""
    communities: frozenset[str] | None = None


# The stored columns of a message (its community and communities are not stored).
_RECEIVED_FIELDS = (
    "platform", "message_id", "channel", "user_id", "user_name", "avatar_url",
    "is_channel_admin", "kind", "text", "sent_at", "received_at", "game_id", "outcome", "id",
)  # fmt: skip


# (Read for every game a deadline resolves: plain SQL, as the hot path's.)
SQL_HELD_INBOUND = (
    f"SELECT {', '.join(_RECEIVED_FIELDS)} FROM inbound "
    "WHERE game_id = :game_id AND outcome = 'held' ORDER BY sent_at, id"
)


class InboundTable(TxBase):
    """The reads and writes of inbound messages."""

    def record_inbound(self, row: Received, *, game_id: int | None = None) -> bool:
        """Insert a message unless its (platform, message_id) is already recorded: the
        unique constraint decides, so two processes cannot both record it. False for a
        redelivery. Sets ``row.id``; the row stays outside the session (write later
        changes with :meth:`update_inbound`). ``game_id`` is stored as the row's game
        (``row.game_id`` is left as it is)."""
        params = {
            "platform": row.platform,
            "message_id": row.message_id,
            "channel": row.channel,
            "user_id": row.user_id,
            "user_name": row.user_name,
            "avatar_url": row.avatar_url,
            "is_channel_admin": bool(row.is_channel_admin),
            "kind": row.kind,
            "text": row.text,
            "sent_at": row.sent_at,
            "received_at": row.received_at,
            "game_id": row.game_id if game_id is None else game_id,
            "outcome": row.outcome,
        }
        # (Before the rows left to insert: a batch's inserts of orders and replies then
        # go together, see Tx.insert_later.)
        row_id = self._insert(SQL_INSERT_INBOUND, params, first=True)
        if row_id is None:
            return False
        row.id = row_id
        return True

    def update_inbound(self, row: Received) -> None:
        """Write a recorded message's game and outcome."""
        assert row.id is not None
        self._run(
            SQL_UPDATE_INBOUND, {"game_id": row.game_id, "outcome": row.outcome, "id": row.id}
        )
        self._forget(InboundRow, row.id)

    def inbound_seen(self, platform: str, message_id: str) -> bool:
        query = select(InboundRow.id).where(
            InboundRow.platform == platform, InboundRow.message_id == message_id
        )
        return self.session.exec(query).first() is not None

    def add_inbound(self, row: InboundRow) -> InboundRow:
        self.session.add(row)
        self.session.flush()
        return row

    def held_inbound(self, game_id: int) -> list[Received]:
        """The game's messages held until their turn opened, as they were sent."""
        held = []
        for found in self._run(SQL_HELD_INBOUND, {"game_id": game_id}).fetchall():
            row = Received(**dict(zip(_RECEIVED_FIELDS, found, strict=True)))
            row.is_channel_admin = bool(row.is_channel_admin)  # (SQLite's driver gives 0 or 1)
            held.append(row)
        return held
