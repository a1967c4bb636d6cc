"""The rooms a game is also played from (``game_rooms``): read and written inside the
caller's transaction (:class:`Tx`)."""

from __future__ import annotations

from sqlmodel import col, select

from bot.store.models import GameRoomRow
from bot.store.repository import Tx


def room(tx: Tx, platform: str, channel: str) -> GameRoomRow | None:
    """The room ``channel`` of ``platform``, if a game is played from it."""
    return tx.session.get(GameRoomRow, (platform, channel))


def rooms_of(tx: Tx, game_id: int) -> list[GameRoomRow]:
    """The rooms a game is also played from, in the order they were added."""
    query = (
        select(GameRoomRow)
        .where(GameRoomRow.game_id == game_id)
        .order_by(col(GameRoomRow.bridged_at), col(GameRoomRow.platform))
    )
    return list(tx.session.exec(query).all())


SQL_ROOM_PLACES = (
    "SELECT platform, channel FROM game_rooms WHERE game_id = :game_id "
    "ORDER BY bridged_at, platform"
)


def room_places(tx: Tx, game_id: int) -> list[tuple[str, str]]:
    """(platform, channel) of each room a game is also played from, in :func:`rooms_of`'s
    order: plain SQL, since every public post of every game asks (a storm's thousand)."""
    return [(str(p), str(c)) for p, c in tx._run(SQL_ROOM_PLACES, {"game_id": game_id}).fetchall()]


def add_room(tx: Tx, row: GameRoomRow) -> None:
    tx.session.add(row)
    tx.session.flush()


def remove_room(tx: Tx, row: GameRoomRow) -> None:
    tx.session.delete(row)
    tx.session.flush()


__all__ = ["add_room", "remove_room", "room", "room_places", "rooms_of"]
