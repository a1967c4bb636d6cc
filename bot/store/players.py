"""The players table: a game's seats (bot.store.records.Player), read once a batch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, fields, replace
from typing import Any

from sqlalchemy import func, insert, or_
from sqlmodel import col, select

from bot.store.changes import NewPlayer
from bot.store.models import (
    PlayerRow,
)
from bot.store.records import (
    PLAYER_FIELDS,
    Player,
)
from bot.store.tx import TxBase

_PLAYER_COLUMNS = ", ".join(PLAYER_FIELDS)


SQL_PLAYER = (
    f"SELECT {_PLAYER_COLUMNS} FROM players "
    "WHERE game_id = :game_id AND platform = :platform AND user_id = :user_id"
)


SQL_PLAYERS = f"SELECT {_PLAYER_COLUMNS} FROM players WHERE game_id = :game_id ORDER BY join_order"


class PlayerTable(TxBase):
    """The reads and writes of players."""

    def player(self, game_id: int, platform: str, user_id: str) -> Player | None:
        """The seat the account plays in the game, if any."""
        self._settle()
        key = (game_id, platform, user_id)
        try:
            return self._player[key]
        except KeyError:
            pass
        found = self._run(
            SQL_PLAYER, {"game_id": game_id, "platform": platform, "user_id": user_id}
        ).fetchone()
        player = None if found is None else Player(*found)
        self._player[key] = player
        return player

    def players(self, game_id: int) -> list[Player]:
        """The game's seats, in join order."""
        self._settle()
        players = self._players.get(game_id)
        if players is None:
            rows = self._run(SQL_PLAYERS, {"game_id": game_id}).fetchall()
            players = self._players[game_id] = [Player(*found) for found in rows]
        return list(players)

    def seats_taken(self, game_id: int) -> int:
        """The highest join order in the game (0 for none): one indexed aggregate, so a
        join costs the same in a game of three players and of three thousand."""
        query = select(func.max(PlayerRow.join_order)).where(PlayerRow.game_id == game_id)
        return int(self.session.exec(query).one() or 0)

    def names_like(self, game_id: int, name: str) -> set[str]:
        """The names in the game that are ``name`` or ``name-…`` (what a new player's name
        must differ from), without loading every player."""
        escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = select(PlayerRow.name).where(
            PlayerRow.game_id == game_id,
            or_(col(PlayerRow.name) == name, col(PlayerRow.name).like(f"{escaped}-%", escape="\\")),
        )
        return set(self.session.exec(query).all())

    def add_player(self, new: NewPlayer) -> Player:
        """Seat an account in a game; its record."""
        self.drop_snapshots()
        row = PlayerRow(**{f.name: getattr(new, f.name) for f in fields(new)})
        self.session.add(row)
        self.session.flush()
        record = Player(*(getattr(row, name) for name in PLAYER_FIELDS))
        self.session.expunge(row)
        return record

    def add_players(self, news: Sequence[NewPlayer]) -> None:
        """Seat many accounts at once (one statement: a crowd's thousands of seats)."""
        self.drop_snapshots()
        self.session.execute(insert(PlayerRow), [asdict(new) for new in news])

    def change_seat(self, player: Player, **values: Any) -> Player:
        """Write new values of a seat's columns (its account, when it is handed on)."""
        self._run(
            f"UPDATE players SET {', '.join(f'{k} = :{k}' for k in values)} WHERE id = :id",
            {**values, "id": player.id},
        )
        self._forget(PlayerRow, player.id)
        self.drop_snapshots()
        return replace(player, **values)
