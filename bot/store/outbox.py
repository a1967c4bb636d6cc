"""The outbox table: every outgoing message (bot.store.records.Post), written as a
NewPost with its cause, claimed and finished by the relay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func, update
from sqlmodel import col, select

from bot.store.changes import PostChange
from bot.store.models import (
    OutboxRow,
)
from bot.store.records import (
    POST_FIELDS,
    ROBOT_USER,
    Post,
)
from bot.store.tx import TxBase, loads

_CLAIMABLE = "id = :id AND status = 'pending' AND next_attempt_at <= :now"


SQL_CLAIM_OUTBOX = f"UPDATE outbox SET next_attempt_at = :until WHERE {_CLAIMABLE}"


# (Locked rows skipped: another relay is claiming or recording that one right now.)
SQL_CLAIM_OUTBOX_POSTGRES = (
    "UPDATE outbox SET next_attempt_at = :until WHERE id = "
    f"(SELECT id FROM outbox WHERE {_CLAIMABLE} FOR UPDATE SKIP LOCKED)"
)


SQL_FINISH_OUTBOX = (
    "UPDATE outbox SET status = :status, platform_message_id = :message_id, "
    "attempts = attempts + 1 WHERE id = :id AND status = 'pending'"
)


SQL_INSERT_OUTBOX = (
    "INSERT INTO outbox (game_id, turn, kind, recipient, address, text, render, status, "
    "attempts, next_attempt_at, platform_message_id, error, created_at, extras) VALUES "
    "(:game_id, :turn, :kind, :recipient, :address, :text, :render, :status, :attempts, "
    ":next_attempt_at, :platform_message_id, :error, :created_at, :extras) "
    "ON CONFLICT (game_id, turn, kind, recipient) DO NOTHING"
)


# (The same, positional: for the rows inserted later, see Tx.insert_later.)
SQL_INSERT_OUTBOX_LATER = (
    "INSERT INTO outbox (game_id, turn, kind, recipient, address, text, render, status, "
    "attempts, next_attempt_at, platform_message_id, error, created_at, extras) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, 'pending', 0, 0.0, NULL, '', ?, ?) "
    "ON CONFLICT (game_id, turn, kind, recipient) DO NOTHING"
)


_OUTBOX_FIELDS = (
    "game_id", "turn", "kind", "recipient", "address", "text", "render", "status",
    "attempts", "next_attempt_at", "platform_message_id", "error", "created_at", "extras",
)  # fmt: skip


@dataclass(slots=True, frozen=True)
class NewPost:
    """An outgoing message to add to the outbox as pending (:meth:`Tx.post`,
    :meth:`Tx.post_all`); the other fields of the row take OutboxRow's defaults."""

    game_id: int
    turn: int
    kind: str
    recipient: str
    address: str  # JSON (see bot.host.posts)
    text: str
    render: str  # JSON of what to draw and attach, or ""
    created_at: float
    extras: str = ""  # JSON of buttons, pings and a card, or ""

    def params(self) -> dict[str, Any]:
        """The parameters of SQL_INSERT_OUTBOX."""
        return {
            "game_id": self.game_id,
            "turn": self.turn,
            "kind": self.kind,
            "recipient": self.recipient,
            "address": self.address,
            "text": self.text,
            "render": self.render,
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": 0.0,
            "platform_message_id": None,
            "error": "",
            "created_at": self.created_at,
            "extras": self.extras,
        }

    def row(self) -> tuple[Any, ...]:
        """The parameters of SQL_INSERT_OUTBOX_LATER."""
        return (
            self.game_id,
            self.turn,
            self.kind,
            self.recipient,
            self.address,
            self.text,
            self.render,
            self.created_at,
            self.extras,
        )


def _values(row: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """The named fields of a row object (its defaults included)."""
    stored = row.__dict__
    return {name: stored[name] if name in stored else getattr(row, name) for name in fields}


def _postcolumns_of() -> list[Any]:
    """The columns of a post's record, for an ORM query about the outbox."""
    return [col(getattr(OutboxRow, name)) for name in POST_FIELDS]


_ROBOT_ADDRESS = f'"user_id":"{ROBOT_USER}'


def _to_a_robot(address: str) -> bool:
    """Whether an outbox address (compact JSON, see :func:`dumps`) names a robot's seat."""
    return _ROBOT_ADDRESS in address


class PostTable(TxBase):
    """The reads and writes of the outbox."""

    def enqueue(self, row: OutboxRow) -> bool:
        """Add an outgoing message unless one with the same key exists (then False): one
        INSERT … ON CONFLICT DO NOTHING, the unique key decides. Sets ``row.id`` when
        added; the row stays outside the session. A message to a robot's seat is not
        written (False): a robot is never sent anything."""
        if _to_a_robot(row.address):
            return False
        row_id = self._insert(SQL_INSERT_OUTBOX, _values(row, _OUTBOX_FIELDS))
        if row_id is None:
            return False
        row.id = row_id
        return True

    def post(self, post: NewPost) -> bool:
        """:meth:`enqueue` of a new pending row (no ORM object is built). False if the key
        exists, or the row is to a robot's seat."""
        if _to_a_robot(post.address):
            return False
        return self._insert(SQL_INSERT_OUTBOX, post.params()) is not None

    def post_later(self, post: NewPost) -> None:
        """:meth:`post`, written with the batch's other rows (see Tx.insert_later): for a
        row whose outcome nobody asks for (an order's acknowledgement)."""
        if not _to_a_robot(post.address):
            self.insert_later(SQL_INSERT_OUTBOX_LATER, post.row())

    def post_all(self, posts: Sequence[NewPost]) -> None:
        """:meth:`post` of several rows at once, in the order given (a turn's map and
        boards: one round trip). A row whose key exists is skipped, and so is a row to a
        robot's seat."""
        params = [post.params() for post in posts if not _to_a_robot(post.address)]
        if params:
            self._run_many(SQL_INSERT_OUTBOX, params)

    def sent_to_group(self, row: Post, group: str) -> bool:
        """Whether a copy of ``row`` for another member of ``group`` (same game, turn and
        kind) was sent already."""
        query = select(OutboxRow.address).where(
            OutboxRow.game_id == row.game_id,
            OutboxRow.turn == row.turn,
            OutboxRow.kind == row.kind,
            OutboxRow.status == "sent",
            OutboxRow.id != row.id,
        )
        return any(
            (loads(address).get("group") or "") == group
            for address in self.session.exec(query).all()
        )

    def _posts(self, query: Any) -> list[Post]:
        """The records of the outgoing messages an ORM query about them finds (its
        columns: a post's, see _post_columns)."""
        return [Post(*found) for found in self.session.execute(query).all()]

    def pending_outbox(self, now: float, limit: int = 100) -> list[Post]:
        query = (
            select(*_postcolumns_of())
            .where(OutboxRow.status == "pending", col(OutboxRow.next_attempt_at) <= now)
            .order_by(col(OutboxRow.id))
            .limit(limit)
        )
        return self._posts(query)

    def held_outbox(self, now: float, below_id: int) -> list[Post]:
        """Pending rows older than ``below_id`` that may not go yet: waiting to be retried,
        or leased to a relay sending them. A later row to the same place waits for them."""
        query = (
            select(*_postcolumns_of())
            .where(
                OutboxRow.status == "pending",
                col(OutboxRow.next_attempt_at) > now,
                col(OutboxRow.id) < below_id,
            )
            .order_by(col(OutboxRow.id))
        )
        return self._posts(query)

    def outbox_row(self, row_id: int) -> Post | None:
        found = self._posts(select(*_postcolumns_of()).where(col(OutboxRow.id) == row_id))
        return found[0] if found else None

    def outbox(self, game_id: int | None = None) -> list[Post]:
        query = select(*_postcolumns_of()).order_by(col(OutboxRow.id))
        if game_id is not None:
            query = query.where(OutboxRow.game_id == game_id)
        return self._posts(query)

    def change_post(self, post: Post, change: PostChange) -> Post:
        """Write what a failed send changed of an outgoing message; its record now."""
        values = change.values()
        self.session.execute(update(OutboxRow).where(col(OutboxRow.id) == post.id).values(**values))
        self._forget(OutboxRow, post.id)
        return replace(post, **values)

    def claim_outbox(self, row_id: int, now: float, until: float) -> bool:
        """Compare-and-set: lease a pending, due row to this relay until ``until``.
        False when another relay (another process) claimed or sent it first, or, on
        PostgreSQL, is claiming or recording it now (``SKIP LOCKED``: no waiting for it).

        Plain SQL, as the hot path's: the relay claims every message it sends, a crowd's
        turn is 160,000 of them, and the ORM's statement cost as much as the claim."""
        claim = SQL_CLAIM_OUTBOX_POSTGRES if self._postgres else SQL_CLAIM_OUTBOX
        claimed = self._run(claim, {"id": row_id, "now": now, "until": until}).rowcount == 1
        self._forget(OutboxRow, row_id)
        return bool(claimed)

    def finish_outbox(self, row_id: int, status: str, platform_message_id: str | None) -> bool:
        """A pending row is done (sent or skipped), one more attempt made; False when it
        was not pending any more (another relay recorded it first)."""
        done = (
            self._run(
                SQL_FINISH_OUTBOX,
                {"id": row_id, "status": status, "message_id": platform_message_id},
            ).rowcount
            == 1
        )
        self._forget(OutboxRow, row_id)
        return bool(done)

    def extend_claim(self, row_id: int, until: float) -> None:
        """Renew the lease of a row still being sent (see claim_outbox)."""
        self.session.execute(
            update(OutboxRow)
            .where(
                col(OutboxRow.id) == row_id,
                col(OutboxRow.status) == "pending",
                col(OutboxRow.next_attempt_at) < until,
            )
            .values(next_attempt_at=until)
        )
        self.session.flush()
        self.session.expire_all()

    def next_outbox_attempt(self) -> float | None:
        query = select(func.min(OutboxRow.next_attempt_at)).where(OutboxRow.status == "pending")
        value = self.session.exec(query).first()
        return None if value is None else float(value)
