"""The rooms a game is also played from (``game_rooms``): read as
:class:`~bot.store.records.Room` records and written as records, inside the caller's
transaction (:class:`Tx`)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlalchemy import delete
from sqlmodel import col, select

from bot.store.models import GameRoomRow
from bot.store.records import ROOM_FIELDS, Room
from bot.store.repository import Tx
from bot.store.tx import columns_of


def _rooms(tx: Tx, query: Any) -> list[Room]:
    return [Room(*row) for row in tx.session.execute(query).all()]


def room(tx: Tx, platform: str, channel: str) -> Room | None:
    """The room ``channel`` of ``platform``, if a game is played from it."""
    query = select(*columns_of(GameRoomRow, ROOM_FIELDS)).where(
        col(GameRoomRow.platform) == platform, col(GameRoomRow.channel) == channel
    )
    found = _rooms(tx, query)
    return found[0] if found else None


def rooms_of(tx: Tx, game_id: int) -> list[Room]:
    """The rooms a game is also played from, in the order they were added."""
    query = (
        select(*columns_of(GameRoomRow, ROOM_FIELDS))
        .where(col(GameRoomRow.game_id) == game_id)
        .order_by(col(GameRoomRow.bridged_at), col(GameRoomRow.platform))
    )
    return _rooms(tx, query)


SQL_ROOM_PLACES = (
    "SELECT platform, channel FROM game_rooms WHERE game_id = :game_id "
    "ORDER BY bridged_at, platform"
)


def room_places(tx: Tx, game_id: int) -> list[tuple[str, str]]:
    """(platform, channel) of each room a game is also played from, in :func:`rooms_of`'s
    order: plain SQL, since every public post of every game asks (a storm's thousand)."""
    return [(str(p), str(c)) for p, c in tx._run(SQL_ROOM_PLACES, {"game_id": game_id}).fetchall()]


def add_room(tx: Tx, added: Room) -> None:
    tx.session.add(GameRoomRow(**asdict(added)))
    tx.session.flush()


def remove_room(tx: Tx, removed: Room) -> None:
    tx.session.execute(
        delete(GameRoomRow).where(
            col(GameRoomRow.platform) == removed.platform,
            col(GameRoomRow.channel) == removed.channel,
        )
    )


__all__ = ["add_room", "remove_room", "room", "room_places", "rooms_of"]
