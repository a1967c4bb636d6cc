"""The games table: a game's record (bot.store.records.Game) read by channel, by player
or by number, changed by a GameChange, its state staged to be written once a batch."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import fields, replace
from typing import Any

from sqlalchemy import func, or_, tuple_, update
from sqlmodel import col, select

from bot.games.base import GamePhase
from bot.store.changes import GameChange, NewGame
from bot.store.models import (
    GameRow,
    PlayerRow,
    state_digest,
)
from bot.store.records import (
    GAME_FIELDS,
    Game,
    StoredState,
)
from bot.store.tx import POSTGRES_LOCKS, Staged, TxBase

ACTIVE_PHASES = (GamePhase.SETUP, GamePhase.RUNNING)


# The hot path's statements (every inbound message runs them): written once, bound by
# name, run on the DBAPI cursor of the transaction's own connection. SQLAlchemy's
# statement and ORM layers cost 30-60 µs a statement; these cost a few. Plain SQL that
# SQLite (3.24+, RETURNING from 3.35) and PostgreSQL both speak.
# (Not ``state``: a record reads it when asked, see bot.store.records.Game.state.)
_GAME_COLUMNS = ", ".join(GAME_FIELDS)


_GAME_FIELDS = GAME_FIELDS


_ACTIVE = "phase IN ('setup', 'battle')"


SQL_GAME_IN = (
    f"SELECT {_GAME_COLUMNS} FROM games WHERE platform = :platform AND channel = :channel "
    f"AND {_ACTIVE} ORDER BY id DESC LIMIT 1"
)


SQL_GAME_BY_ID = f"SELECT {_GAME_COLUMNS} FROM games WHERE id = :id"


# (The same, to try to lock: on PostgreSQL None at once when another transaction holds it.)
SQL_TRY_GAME_BY_ID = f"SELECT {_GAME_COLUMNS} FROM games WHERE id = :id LIMIT 1"


SQL_GAMES_OF = (
    f"SELECT {', '.join('games.' + f for f in _GAME_FIELDS)} FROM games "
    "JOIN players ON players.game_id = games.id "
    f"WHERE players.platform = :platform AND players.user_id = :user_id AND games.{_ACTIVE} "
    "ORDER BY games.id"
)


SQL_STATE = "SELECT state, state_digest FROM games WHERE id = :id"


def _gamecolumns_of() -> list[Any]:
    """The columns of a game's record, its state last, for an ORM query about games."""
    return [col(getattr(GameRow, name)) for name in (*_GAME_FIELDS, "state")]


class GameTable(TxBase):
    """The reads and writes of games."""

    def _game_record(self, found: Any) -> Game:
        """The record of a row of SQL_GAME_IN (and the like): the one this transaction
        already holds for that game, if it holds one (see the snapshots above)."""
        game_id = int(found[0])
        known = self._games.get(game_id)
        if known is None:
            known = self._games[game_id] = self._fresh_record(found)
        return known

    def _fresh_record(self, found: Any) -> Game:
        """A record of a row just read (kept as this transaction's record of the game)."""
        game_id = int(found[0])
        # (SQLite's driver gives a boolean column as 0 or 1.)
        values = dict(zip(_GAME_FIELDS, found, strict=True))
        values["open_to_all"] = bool(values["open_to_all"])
        record = Game(**values, stored=StoredState(lambda: self._state_of(game_id)))
        staged = self._staged.get(game_id)
        if staged is not None:
            record = replace(record, state_digest=staged.token)
        self._games[game_id] = record
        return record

    def _state_of(self, game_id: int) -> tuple[str, str | None]:
        """The game's encoded state and its digest, as this transaction sees them (a
        record's ``state``)."""
        self.write_staged()
        found = self._run(SQL_STATE, {"id": game_id}).fetchone()
        if found is None:
            raise LookupError(f"game {game_id} is not in the database")
        return str(found[0]), found[1]

    def add_game(self, new: NewGame) -> Game:
        """Insert a game; its record."""
        self.drop_snapshots()
        row = GameRow(**{f.name: getattr(new, f.name) for f in fields(new)})
        self.session.add(row)
        self.session.flush()
        assert row.id is not None
        record = self._fresh_record(tuple(getattr(row, name) for name in _GAME_FIELDS))
        self.session.expunge(row)
        return record

    def game(self, game_id: int, *, lock: bool = False, skip_locked: bool = False) -> Game | None:
        """The game with this number. With ``lock``, read afresh and, on PostgreSQL,
        locked until the transaction ends (with ``skip_locked`` too: None at once when
        another transaction holds it); without, the record this transaction holds."""
        self._settle()
        if not lock:
            known = self._games.get(game_id)
            if known is not None:
                return known
        sql = SQL_TRY_GAME_BY_ID if lock and skip_locked else SQL_GAME_BY_ID
        found = self._run(sql, {"id": game_id}).fetchone()
        return None if found is None else self._fresh_record(found)

    def change_game(self, game: Game, change: GameChange) -> Game:
        """Write ``change`` to the game; the game's record as it now reads."""
        values = change.values()
        if not values:
            return game
        game_id = game.id
        record = replace(game, **{k: v for k, v in values.items() if k != "state"})
        if "state" in values:
            self._staged.pop(game_id, None)  # (this state is newer)
            digest = values["state_digest"] = state_digest(values["state"])
            record = replace(
                record, state_digest=digest, stored=StoredState(None, values["state"], digest)
            )
        assignments = ", ".join(f"{name} = :{name}" for name in values)
        self._run(f"UPDATE games SET {assignments} WHERE id = :id", {**values, "id": game_id})
        self._forget(GameRow, game_id)
        self._games[game_id] = record
        if "phase" in values:  # (the game may no longer be where a message finds it)
            self._game_in.clear()
            self._games_of.clear()
        return record

    def _games_by(self, query: Any) -> list[Game]:
        """The records of the games an ORM query about games finds (its columns: the
        record's and the state, see _game_columns), their states read with them."""
        found = []
        for row in self.session.execute(query).all():
            record = self._fresh_record(row[:-1])
            state = row[-1]
            record = replace(record, stored=StoredState(None, state, record.state_digest))
            self._games[record.id] = record
            found.append(record)
        return found

    def games_numbered(self, ids: Collection[int]) -> list[Game]:
        """The records of the games numbered ``ids`` that exist, newest first (their
        states read late, as any record's)."""
        if not ids:
            return []
        query = (
            select(*_gamecolumns_of()[:-1])
            .where(col(GameRow.id).in_(ids))
            .order_by(col(GameRow.id).desc())
        )
        return [self._game_record(row) for row in self.session.execute(query).all()]

    def count_open_games(
        self,
        platform: str,
        *,
        channel: str | None = None,
        creator: str | None = None,
        community: str | None = None,
    ) -> int:
        """Games in setup or battle on ``platform``: in ``channel`` (where they play, or
        their threads' channel), hosted by ``creator``, opened in ``community``."""
        query = (
            select(func.count())
            .select_from(GameRow)
            .where(
                GameRow.platform == platform,
                col(GameRow.phase).in_((GamePhase.SETUP, GamePhase.RUNNING)),
            )
        )
        if channel is not None:
            query = query.where(or_(col(GameRow.channel) == channel, col(GameRow.lobby) == channel))
        if creator is not None:
            query = query.where(GameRow.creator == creator)
        if community is not None:
            query = query.where(GameRow.community == community)
        return int(self.session.exec(query).one())

    def games_in_setup(self, platform: str) -> list[Game]:
        """The games of a platform still open for joining, oldest first."""
        query = (
            select(*_gamecolumns_of())
            .where(GameRow.platform == platform, GameRow.phase == GamePhase.SETUP)
            .order_by(col(GameRow.id))
        )
        return self._games_by(query)

    def game_in(self, platform: str, channel: str) -> Game | None:
        """The live game played in the channel (the newest, if there were several)."""
        self._settle()
        key = (platform, channel)
        try:
            game_id = self._game_in[key]
        except KeyError:
            found = self._run(SQL_GAME_IN, {"platform": platform, "channel": channel}).fetchone()
            if found is None:
                self._game_in[key] = None
                return None
            game = self._game_record(found)
            self._game_in[key] = game.id
            return game
        return None if game_id is None else self._games[game_id]

    def games_of(self, platform: str, user_id: str) -> list[Game]:
        """The live games the account plays in, oldest first."""
        self._settle()
        key = (platform, user_id)
        ids = self._games_of.get(key)
        if ids is None:
            rows = self._run(SQL_GAMES_OF, {"platform": platform, "user_id": user_id}).fetchall()
            games = [self._game_record(found) for found in rows]
            self._games_of[key] = [game.id for game in games]
            return games
        return [self._games[game_id] for game_id in ids]

    def set_game_state(self, game_id: int, state: str) -> str:
        """Write a game's encoded state (and its digest, which this returns)."""
        self._staged.pop(game_id, None)  # (this state is newer)
        return self._write_state(game_id, state)

    #
    # A command that changes only a game's state (a placement, say) may leave the new
    # state to be written when it must be: before the transaction commits, before the
    # state's text is read, and before any ORM statement about games. A batch of such
    # commands to one game then encodes and writes its state once, not once each: a
    # crowd's state is tens of megabytes (a second to encode at 100,000 captains), so
    # one placement at a time could not keep up with a crowd placing its fleets.
    # Meanwhile the game's record carries the staged state's token as its digest,
    # under which the decoded-state cache (bot.host.states) holds the staged state.

    def stage_game_state(
        self,
        game: Game,
        state: Any,
        encode: Callable[[Any], str],
        written: Callable[[str], None],
    ) -> Game:
        """Leave ``state`` (decoded) to be written as the game's state; ``encode`` makes
        its text and ``written`` is told its digest once it is written. Returns the
        game's record, whose ``state_digest`` is the token that stands for the digest
        until then (its ``state`` reads, and so writes, the staged state)."""
        game_id = game.id
        self._staged_count += 1
        token = f"staged:{id(self)}:{self._staged_count}"
        self._staged[game_id] = Staged(state, encode, written, token)
        record = self._games[game_id] = replace(
            game, state_digest=token, stored=StoredState(lambda: self._state_of(game_id))
        )
        return record

    def latest_game_in(self, platform: str, channel: str) -> Game | None:
        """The newest game played in the channel, whatever its phase."""
        query = (
            select(*_gamecolumns_of())
            .where(GameRow.platform == platform, GameRow.channel == channel)
            .order_by(col(GameRow.id).desc())
            .limit(1)
        )
        found = self._games_by(query)
        return found[0] if found else None

    def games_opened_in(self, platform: str, lobby: str) -> list[Game]:
        """The live games opened in ``lobby`` that moved into rooms of their own there,
        oldest first (a message in the channel may still be about one of them)."""
        rows = self._run(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE platform = :platform AND lobby = :lobby "
            f"AND {_ACTIVE} ORDER BY id",
            {"platform": platform, "lobby": lobby},
        ).fetchall()
        return [self._game_record(found) for found in rows]

    def move_to_room(self, game_id: int, room: str) -> bool:
        """Move a game into its room: ``channel`` becomes the room, ``lobby`` the channel it
        was opened in. Once only (False when it had moved already or ``room`` is where it is)."""
        moved = self._run(
            "UPDATE games SET lobby = channel, channel = :room "
            "WHERE id = :id AND lobby = '' AND channel <> :room",
            {"room": room, "id": game_id},
        ).rowcount
        self._forget(GameRow, game_id)
        self._games.pop(game_id, None)
        self._game_in.clear()
        return bool(moved)

    def last_game_of(self, platform: str, user_id: str) -> Game | None:
        """The latest game the account played in, whatever its phase (a finished game's
        board is still asked for)."""
        query = (
            select(*_gamecolumns_of())
            .join(PlayerRow, col(PlayerRow.game_id) == col(GameRow.id))
            .where(PlayerRow.platform == platform, PlayerRow.user_id == user_id)
            .order_by(col(GameRow.id).desc())
            .limit(1)
        )
        found = self._games_by(query)
        return found[0] if found else None

    def due_games(self, now: float) -> list[tuple[int, int, float, str]]:
        """(game id, turn, deadline, platform) of every game whose deadline has come,
        oldest first."""
        query = (
            select(GameRow.id, GameRow.turn, GameRow.deadline, GameRow.platform)
            .where(col(GameRow.phase).in_(ACTIVE_PHASES), col(GameRow.deadline) <= now)
            .order_by(col(GameRow.deadline), col(GameRow.id))
        )
        rows = self.session.exec(self._scoped(query)).all()
        return [(int(i or 0), int(t), float(d or 0.0), str(p)) for i, t, d, p in rows]

    def games_closing_between(self, start: float, end: float) -> list[Game]:
        """Battles whose deadline falls in ``(start, end]`` (for reminders)."""
        query = (
            select(*_gamecolumns_of())
            .where(
                GameRow.phase == GamePhase.RUNNING,
                col(GameRow.deadline) > start,
                col(GameRow.deadline) <= end,
            )
            .order_by(col(GameRow.deadline), col(GameRow.id))
        )
        return self._games_by(self._scoped(query))

    def games_of_closing_between(
        self, accounts: Collection[tuple[str, str]], start: float, end: float
    ) -> list[Game]:
        """:meth:`games_closing_between`, only the battles one of ``accounts`` (platform,
        user id) plays in: the few a reminder looks further ahead for."""
        if not accounts:
            return []
        query = (
            select(*_gamecolumns_of())
            .join(PlayerRow, col(PlayerRow.game_id) == col(GameRow.id))
            .where(
                GameRow.phase == GamePhase.RUNNING,
                col(GameRow.deadline) > start,
                col(GameRow.deadline) <= end,
                tuple_(col(PlayerRow.platform), col(PlayerRow.user_id)).in_(list(accounts)),
            )
            .distinct()
            .order_by(col(GameRow.deadline), col(GameRow.id))
        )
        return self._games_by(self._scoped(query))

    def next_deadline(self) -> float | None:
        query = select(func.min(GameRow.deadline)).where(col(GameRow.phase).in_(ACTIVE_PHASES))
        value = self.session.exec(self._scoped(query)).first()
        return None if value is None else float(value)

    def _scoped(self, query: Any) -> Any:
        """``query`` about games, narrowed to the clock's scope when the store has one."""
        scope = self._clock_scope
        if scope is None:
            return query
        return query.where(
            col(GameRow.platform) == scope.platform,
            or_(col(GameRow.channel) == scope.channel, col(GameRow.lobby) == scope.channel),
        )

    def in_clock_scope(self, game: Game) -> bool:
        """Whether the turn clock of this store moves ``game`` (see :class:`ClockScope`)."""
        scope = self._clock_scope
        return scope is None or (
            game.platform == scope.platform and scope.channel in (game.channel, game.lobby)
        )

    def active_games(self) -> list[Game]:
        query = select(*_gamecolumns_of()).where(col(GameRow.phase).in_(ACTIVE_PHASES))
        return self._games_by(query)

    def all_games(self) -> list[Game]:
        return self._games_by(select(*_gamecolumns_of()).order_by(col(GameRow.id)))

    def advance_turn(self, game_id: int, *, expected_turn: int, values: dict[str, Any]) -> bool:
        """Compare-and-set: update the game only if it is still at ``expected_turn``."""
        result = self.session.execute(
            update(GameRow)
            .where(col(GameRow.id) == game_id, col(GameRow.turn) == expected_turn)
            .values(**values)
        )
        self.drop_snapshots()
        self.session.flush()
        self.session.expire_all()
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]


POSTGRES_LOCKS.update(
    {
        SQL_GAME_IN: " FOR UPDATE",
        SQL_GAME_BY_ID: " FOR UPDATE",
        SQL_GAMES_OF: " FOR UPDATE OF games",
        SQL_TRY_GAME_BY_ID: " FOR UPDATE SKIP LOCKED",
    }
)
