"""The store's whole vocabulary: every read and write the host makes, by name.

The host never writes SQL and never imports the database layer: it opens a
:meth:`Store.transaction` and calls these methods, so each effect (recorded
inbound, changed state, replies in the outbox) commits or rolls back as one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from bot.store.database import make_engine, migrate, session_scope
from bot.store.models import (
    CursorRow,
    GameRow,
    InboundRow,
    OrderRow,
    OutboxRow,
    PlayerRow,
    TurnRow,
)

ACTIVE_PHASES = ("setup", "battle")


class Tx:
    """One open transaction."""

    def __init__(self, session: Session, *, postgres: bool) -> None:
        self.session = session
        self._postgres = postgres

    # --- inbound ---------------------------------------------------------

    def inbound_seen(self, platform: str, message_id: str) -> bool:
        query = select(InboundRow.id).where(
            InboundRow.platform == platform, InboundRow.message_id == message_id
        )
        return self.session.exec(query).first() is not None

    def add_inbound(self, row: InboundRow) -> InboundRow:
        self.session.add(row)
        self.session.flush()
        return row

    def held_inbound(self, game_id: int) -> list[InboundRow]:
        query = (
            select(InboundRow)
            .where(InboundRow.game_id == game_id, InboundRow.outcome == "held")
            .order_by(col(InboundRow.sent_at), col(InboundRow.id))
        )
        return list(self.session.exec(query).all())

    # --- games -----------------------------------------------------------

    def add_game(self, row: GameRow) -> GameRow:
        self.session.add(row)
        self.session.flush()
        return row

    def game(self, game_id: int, *, lock: bool = False) -> GameRow | None:
        query = select(GameRow).where(GameRow.id == game_id)
        if lock and self._postgres:
            query = query.with_for_update()
        return self.session.exec(query).first()

    def active_game_in(self, platform: str, channel: str) -> GameRow | None:
        query = (
            select(GameRow)
            .where(
                GameRow.platform == platform,
                GameRow.channel == channel,
                col(GameRow.phase).in_(ACTIVE_PHASES),
            )
            .order_by(col(GameRow.id).desc())
        )
        return self.session.exec(query).first()

    def latest_game_in(self, platform: str, channel: str) -> GameRow | None:
        query = (
            select(GameRow)
            .where(GameRow.platform == platform, GameRow.channel == channel)
            .order_by(col(GameRow.id).desc())
        )
        return self.session.exec(query).first()

    def active_games_of(self, platform: str, user_id: str) -> list[GameRow]:
        query = (
            select(GameRow)
            .join(PlayerRow, col(PlayerRow.game_id) == col(GameRow.id))
            .where(
                PlayerRow.platform == platform,
                PlayerRow.user_id == user_id,
                col(GameRow.phase).in_(ACTIVE_PHASES),
            )
            .order_by(col(GameRow.id))
        )
        return list(self.session.exec(query).all())

    def due_games(self, now: float) -> list[tuple[int, int, float]]:
        """(game id, turn, deadline) of every game whose deadline has come, oldest first."""
        query = (
            select(GameRow.id, GameRow.turn, GameRow.deadline)
            .where(col(GameRow.phase).in_(ACTIVE_PHASES), col(GameRow.deadline) <= now)
            .order_by(col(GameRow.deadline), col(GameRow.id))
        )
        rows = self.session.exec(query).all()
        return [(int(i or 0), int(t), float(d or 0.0)) for i, t, d in rows]

    def games_closing_between(self, start: float, end: float) -> list[GameRow]:
        """Battles whose deadline falls in ``(start, end]`` (for reminders)."""
        query = (
            select(GameRow)
            .where(
                GameRow.phase == "battle",
                col(GameRow.deadline) > start,
                col(GameRow.deadline) <= end,
            )
            .order_by(col(GameRow.deadline), col(GameRow.id))
        )
        return list(self.session.exec(query).all())

    def next_deadline(self) -> float | None:
        query = select(func.min(GameRow.deadline)).where(col(GameRow.phase).in_(ACTIVE_PHASES))
        value = self.session.exec(query).first()
        return None if value is None else float(value)

    def active_games(self) -> list[GameRow]:
        query = select(GameRow).where(col(GameRow.phase).in_(ACTIVE_PHASES))
        return list(self.session.exec(query).all())

    def all_games(self) -> list[GameRow]:
        return list(self.session.exec(select(GameRow).order_by(col(GameRow.id))).all())

    def advance_turn(self, game_id: int, *, expected_turn: int, values: dict[str, Any]) -> bool:
        """Compare-and-set: update the game only if it is still at ``expected_turn``."""
        result = self.session.execute(
            update(GameRow)
            .where(col(GameRow.id) == game_id, col(GameRow.turn) == expected_turn)
            .values(**values)
        )
        self.session.flush()
        self.session.expire_all()
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def save(self, row: Any) -> None:
        self.session.add(row)
        self.session.flush()

    # --- players ---------------------------------------------------------

    def players(self, game_id: int) -> list[PlayerRow]:
        query = (
            select(PlayerRow)
            .where(PlayerRow.game_id == game_id)
            .order_by(col(PlayerRow.join_order))
        )
        return list(self.session.exec(query).all())

    def player_by_user(self, game_id: int, platform: str, user_id: str) -> PlayerRow | None:
        query = select(PlayerRow).where(
            PlayerRow.game_id == game_id,
            PlayerRow.platform == platform,
            PlayerRow.user_id == user_id,
        )
        return self.session.exec(query).first()

    def add_player(self, row: PlayerRow) -> PlayerRow:
        self.session.add(row)
        self.session.flush()
        return row

    # --- orders ----------------------------------------------------------

    def standing_orders(self, game_id: int, turn: int) -> dict[str, OrderRow]:
        query = (
            select(OrderRow)
            .where(OrderRow.game_id == game_id, OrderRow.turn == turn, col(OrderRow.active))
            .order_by(col(OrderRow.id))
        )
        standing: dict[str, OrderRow] = {}
        for row in self.session.exec(query).all():
            standing[row.player_key] = row
        return standing

    def standing_order(self, game_id: int, turn: int, player_key: str) -> OrderRow | None:
        query = (
            select(OrderRow)
            .where(
                OrderRow.game_id == game_id,
                OrderRow.turn == turn,
                OrderRow.player_key == player_key,
                col(OrderRow.active),
            )
            .order_by(col(OrderRow.id).desc())
        )
        return self.session.exec(query).first()

    def replace_order(self, row: OrderRow) -> None:
        """Keep the history: the earlier order stays, marked no longer active."""
        self.session.execute(
            update(OrderRow)
            .where(
                col(OrderRow.game_id) == row.game_id,
                col(OrderRow.turn) == row.turn,
                col(OrderRow.player_key) == row.player_key,
            )
            .values(active=False)
        )
        self.session.add(row)
        self.session.flush()

    # --- turns -----------------------------------------------------------

    def add_turn(self, row: TurnRow) -> None:
        self.session.add(row)
        self.session.flush()

    def turns(self, game_id: int) -> list[TurnRow]:
        query = select(TurnRow).where(TurnRow.game_id == game_id).order_by(col(TurnRow.number))
        return list(self.session.exec(query).all())

    def turn(self, game_id: int, number: int) -> TurnRow | None:
        query = select(TurnRow).where(TurnRow.game_id == game_id, TurnRow.number == number)
        return self.session.exec(query).first()

    # --- outbox ----------------------------------------------------------

    def enqueue(self, row: OutboxRow) -> bool:
        """Add an outgoing message unless one with the same key exists (then False)."""
        query = select(OutboxRow.id).where(
            OutboxRow.game_id == row.game_id,
            OutboxRow.turn == row.turn,
            OutboxRow.kind == row.kind,
            OutboxRow.recipient == row.recipient,
        )
        if self.session.exec(query).first() is not None:
            return False
        self.session.add(row)
        self.session.flush()
        return True

    def pending_outbox(self, now: float, limit: int = 100) -> list[OutboxRow]:
        query = (
            select(OutboxRow)
            .where(OutboxRow.status == "pending", col(OutboxRow.next_attempt_at) <= now)
            .order_by(col(OutboxRow.id))
            .limit(limit)
        )
        return list(self.session.exec(query).all())

    def outbox_row(self, row_id: int) -> OutboxRow | None:
        return self.session.get(OutboxRow, row_id)

    def outbox(self, game_id: int | None = None) -> list[OutboxRow]:
        query = select(OutboxRow).order_by(col(OutboxRow.id))
        if game_id is not None:
            query = query.where(OutboxRow.game_id == game_id)
        return list(self.session.exec(query).all())

    def claim_outbox(self, row_id: int, now: float, until: float) -> bool:
        """Compare-and-set: lease a pending, due row to this relay until ``until``.
        False when another relay (another process) claimed or sent it first."""
        result = self.session.execute(
            update(OutboxRow)
            .where(
                col(OutboxRow.id) == row_id,
                col(OutboxRow.status) == "pending",
                col(OutboxRow.next_attempt_at) <= now,
            )
            .values(next_attempt_at=until)
        )
        self.session.flush()
        self.session.expire_all()
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def next_outbox_attempt(self) -> float | None:
        query = select(func.min(OutboxRow.next_attempt_at)).where(OutboxRow.status == "pending")
        value = self.session.exec(query).first()
        return None if value is None else float(value)

    # --- cursors ---------------------------------------------------------

    def cursor(self, platform: str, key: str) -> str | None:
        row = self.session.get(CursorRow, (platform, key))
        return None if row is None else row.value

    def set_cursor(self, platform: str, key: str, value: str) -> None:
        row = self.session.get(CursorRow, (platform, key))
        if row is None:
            self.session.add(CursorRow(platform=platform, key=key, value=value))
        else:
            row.value = value
            self.session.add(row)
        self.session.flush()

    def cursors(self, platform: str) -> dict[str, str]:
        query = select(CursorRow).where(CursorRow.platform == platform)
        return {row.key: row.value for row in self.session.exec(query).all()}


class Store:
    """The database behind the host."""

    def __init__(self, url: str, *, auto_migrate: bool | None = None) -> None:
        self.url = url
        self.engine: Engine = make_engine(url)
        self.postgres = url.startswith("postgresql")
        if auto_migrate if auto_migrate is not None else not self.postgres:
            migrate(self.engine)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with session_scope(self.engine) as session:
            yield Tx(session, postgres=self.postgres)

    def migrate(self) -> list[str]:
        return migrate(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


def dumps(value: Any) -> str:
    """JSON as the store keeps it: compact, keys in the order they were built
    (the record's order: ``type`` first in an event)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(value: str) -> Any:
    return json.loads(value) if value else None


class DatabaseCursors:
    """The adapters' cursor store (the ``CursorStore`` protocol), one transaction per call."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, platform: str, key: str) -> str | None:
        with self.store.transaction() as tx:
            return tx.cursor(platform, key)

    async def set(self, platform: str, key: str, value: str) -> None:
        with self.store.transaction() as tx:
            tx.set_cursor(platform, key, value)

    async def all(self, platform: str) -> dict[str, str]:
        with self.store.transaction() as tx:
            return tx.cursors(platform)


__all__ = ["DatabaseCursors", "Store", "Tx", "dumps", "loads"]
