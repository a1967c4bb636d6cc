"""The store's whole vocabulary: every read and write the host makes, by name.

The host never writes SQL and never imports the database layer: it opens a
:meth:`Store.transaction` and calls these methods, so each effect (recorded
inbound, changed state, replies in the outbox) commits or rolls back as one.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, TypeVar

from sqlalchemy import event, func, insert, or_, tuple_, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session, SQLModel, col, select

from bot.games.base import GamePhase
from bot.store.changes import GameChange, NewGame, NewPlayer, NewStep, PostChange
from bot.store.database import make_engine, migrate, normal_url, session_scope
from bot.store.models import (
    ROBOT_USER,
    CursorRow,
    GameRow,
    InboundRow,
    OrderRow,
    OutboxRow,
    PlayerRow,
    TurnRow,
    state_digest,
)
from bot.store.records import (
    GAME_FIELDS,
    ORDER_FIELDS,
    PLAYER_FIELDS,
    POST_FIELDS,
    STEP_FIELDS,
    Game,
    Order,
    Player,
    Post,
    Step,
    StoredState,
)

ACTIVE_PHASES = (GamePhase.SETUP, GamePhase.RUNNING)

RowT = TypeVar("RowT", bound=SQLModel)

_DEFAULTS: dict[type[Any], dict[str, Any]] = {}


def build(cls: type[RowT], **values: Any) -> RowT:
    """A row object without SQLModel's constructor (~50 µs; this is ~3 µs): every field
    not given takes its declared default. The object is transient (in no session), as
    after ``cls(**values)``; table models are not validated either way."""
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        defaults = {}
        for name, field in cls.model_fields.items():
            if field.default_factory is not None:
                raise TypeError(f"{cls.__name__}.{name}: default factories are not supported")
            defaults[name] = field.default
        _DEFAULTS[cls] = defaults
    obj: RowT = cls._sa_class_manager.new_instance()  # type: ignore[attr-defined]
    object.__setattr__(obj, "__pydantic_fields_set__", set(values))
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    obj.__dict__.update(defaults)
    obj.__dict__.update(values)
    return obj


# The hot path's statements (every inbound message runs them): written once, bound by
# name, run on the DBAPI cursor of the transaction's own connection. SQLAlchemy's
# statement and ORM layers cost 30-60 µs a statement; these cost a few. Plain SQL that
# SQLite (3.24+, RETURNING from 3.35) and PostgreSQL both speak.
# (Not ``state``: a record reads it when asked, see bot.store.records.Game.state.)
_GAME_COLUMNS = ", ".join(GAME_FIELDS)
_GAME_FIELDS = GAME_FIELDS
_PLAYER_COLUMNS = ", ".join(PLAYER_FIELDS)
_ACTIVE = "phase IN ('setup', 'battle')"
SQL_INSERT_INBOUND = (
    "INSERT INTO inbound (platform, message_id, channel, user_id, user_name, avatar_url, "
    "is_channel_admin, kind, text, sent_at, received_at, game_id, outcome) VALUES "
    "(:platform, :message_id, :channel, :user_id, :user_name, :avatar_url, "
    ":is_channel_admin, :kind, :text, :sent_at, :received_at, :game_id, :outcome) "
    "ON CONFLICT (platform, message_id) DO NOTHING"
)
SQL_UPDATE_INBOUND = "UPDATE inbound SET game_id = :game_id, outcome = :outcome WHERE id = :id"
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
SQL_SET_STATE = "UPDATE games SET state = :state, state_digest = :digest WHERE id = :id"
SQL_STATE = "SELECT state, state_digest FROM games WHERE id = :id"
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
SQL_PLAYER = (
    f"SELECT {_PLAYER_COLUMNS} FROM players "
    "WHERE game_id = :game_id AND platform = :platform AND user_id = :user_id"
)
SQL_PLAYERS = f"SELECT {_PLAYER_COLUMNS} FROM players WHERE game_id = :game_id ORDER BY join_order"
# A player's standing order for a turn is the newest row of that turn (the history stays).
# A withdrawal is an order row with no order: the player's earlier orders of that turn no
# longer stand (they stay, as history).
WITHDRAWN = ""
SQL_STANDING = (
    'SELECT "order" FROM orders WHERE game_id = :game_id AND turn = :turn '
    "AND player_key = :player_key ORDER BY id DESC LIMIT 1"
)
SQL_INSERT_ORDER = (
    'INSERT INTO orders (game_id, player_key, turn, "order", text, inbound_id, sent_at) '
    "VALUES (:game_id, :player_key, :turn, :order, :text, :inbound_id, :sent_at)"
)
SQL_INSERT_JOURNAL = "INSERT INTO journal (game_id, entry) VALUES (:game_id, :entry)"
SQL_JOURNAL = "SELECT entry FROM journal WHERE game_id = :game_id ORDER BY id"
SQL_INSERT_OUTBOX = (
    "INSERT INTO outbox (game_id, turn, kind, recipient, address, text, render, status, "
    "attempts, next_attempt_at, platform_message_id, error, created_at, extras) VALUES "
    "(:game_id, :turn, :kind, :recipient, :address, :text, :render, :status, :attempts, "
    ":next_attempt_at, :platform_message_id, :error, :created_at, :extras) "
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


def _values(row: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """The named fields of a row object (its defaults included)."""
    stored = row.__dict__
    return {name: stored[name] if name in stored else getattr(row, name) for name in fields}


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


def _columns(table: Any, names: Sequence[str]) -> list[Any]:
    """The named columns of a table, for an ORM query whose rows make records."""
    return [col(getattr(table, name)) for name in names]


def _post_columns() -> list[Any]:
    """The columns of a post's record, for an ORM query about the outbox."""
    return [col(getattr(OutboxRow, name)) for name in POST_FIELDS]


def _game_columns() -> list[Any]:
    """The columns of a game's record, its state last, for an ORM query about games."""
    return [col(getattr(GameRow, name)) for name in (*_GAME_FIELDS, "state")]


# The stored columns of a message (its community and communities are not stored).
_RECEIVED_FIELDS = (
    "platform", "message_id", "channel", "user_id", "user_name", "avatar_url",
    "is_channel_admin", "kind", "text", "sent_at", "received_at", "game_id", "outcome", "id",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Staged:
    """A game's state left to be written (Tx.stage_game_state)."""

    state: Any
    encode: Callable[[Any], str]
    written: Callable[[str], None]
    token: str


_NAMED = re.compile(r":([a-z_]+)")


# On PostgreSQL other transactions commit while this one runs: a command that read a game
# must hold it until it commits, or a resolution in between would not count the order it
# acknowledges (and a state written back would undo the resolution). On SQLite, BEGIN
# IMMEDIATE already shuts out every other writer.
_POSTGRES_LOCKS = {
    SQL_GAME_IN: " FOR UPDATE",
    SQL_GAME_BY_ID: " FOR UPDATE",
    SQL_GAMES_OF: " FOR UPDATE OF games",
    SQL_TRY_GAME_BY_ID: " FOR UPDATE SKIP LOCKED",
}


def _for_postgres(sql: str) -> str:
    """psycopg's paramstyle: ``:name`` → ``%(name)s``; reading a game to act on it locks it."""
    return _NAMED.sub(r"%(\1)s", sql) + _POSTGRES_LOCKS.get(sql, "")


_POSTGRES_SQL: dict[str, str] = {}


class Tx:
    """One open transaction."""

    def __init__(
        self, session: Session, *, postgres: bool, clock_scope: ClockScope | None = None
    ) -> None:
        self.session = session
        self._postgres = postgres
        self._clock_scope = clock_scope
        self._cursor: Any = None
        self._savepoints = 0
        # Snapshots of game and player rows read by the peek_* methods (see _snapshots_ok).
        self._games: dict[int, Game] = {}
        self._game_in: dict[tuple[str, str], int | None] = {}
        self._games_of: dict[tuple[str, str], list[int]] = {}
        self._player: dict[tuple[int, str, str], Player | None] = {}
        self._players: dict[int, list[Player]] = {}
        # (game id, turn, player key) → the JSON of the standing order this transaction
        # wrote for that player (the next order of theirs replaces it without a read).
        self._standing: dict[tuple[int, int, str], str] = {}
        # game id → a state a command left to be written (see stage_game_state).
        self._staged: dict[int, _Staged] = {}
        self._staged_count = 0
        # Any write through the ORM may change a game or a player: drop the snapshots.
        event.listen(session, "after_flush", self._after_flush)
        # A statement of the ORM about games reads or writes what a staged state changes.
        event.listen(session, "do_orm_execute", self._before_orm_statement)

    # --- snapshots -----------------------------------------------------------
    #
    # The peek_* methods keep what they read (games, players) for the rest of the
    # transaction, so the orders of one batch read their game and captain once. On SQLite
    # that is exact: the transaction began with BEGIN IMMEDIATE, so no other connection
    # writes until it ends, and every write of this transaction to games or players
    # drops the snapshots (an ORM flush, add_*/save/advance_turn, a rollback to a
    # savepoint) or updates them (set_game_state). On PostgreSQL other transactions
    # commit while this one runs, so snapshots last one message only (begin_message,
    # end_message): each message reads its game afresh, as before.

    def _after_flush(self, _session: Any, _context: Any) -> None:
        self.drop_snapshots()

    def drop_snapshots(self) -> None:
        """Forget every game and player snapshot: the next peek reads the database."""
        if (
            self._games
            or self._game_in
            or self._games_of
            or self._player
            or self._players
            or self._standing
        ):
            self._standing.clear()
            self._games.clear()
            self._game_in.clear()
            self._games_of.clear()
            self._player.clear()
            self._players.clear()

    def begin_message(self) -> None:
        """Before a message: on PostgreSQL, drop the snapshots (each message reads its game
        and players afresh, whatever transaction it is handled in)."""
        if self._postgres:
            self.drop_snapshots()

    def end_message(self) -> None:
        """Between two messages of a batch: drop the ORM's objects (the next message reads
        rows afresh), and on PostgreSQL the snapshots too."""
        session = self.session
        if session.identity_map or session._new or session._deleted:
            session.expunge_all()
        if self._postgres:
            self.drop_snapshots()

    def flush(self) -> None:
        """Write what the ORM holds unwritten (as leaving a savepoint does)."""
        self._settle()

    def _settle(self) -> None:
        """Write what the ORM holds unwritten (dropping the snapshots if there was any)."""
        session = self.session
        if session._new or session._deleted or session.identity_map._modified:
            session.flush()

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

    # --- the hot path's plumbing ------------------------------------------

    def _run(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        """Run a statement on this transaction's connection, bypassing the ORM: whatever
        the ORM holds unwritten is flushed first so the statement sees it."""
        cursor, sql = self._prepare(sql)
        cursor.execute(sql, params or {})
        return cursor

    def _run_many(self, sql: str, params: Sequence[Mapping[str, Any]]) -> None:
        """:meth:`_run` of one statement for each set of parameters, sent together
        (psycopg pipelines them: one round trip instead of one each)."""
        cursor, sql = self._prepare(sql)
        cursor.executemany(sql, params)

    def _prepare(self, sql: str) -> tuple[Any, str]:
        """The cursor to run ``sql`` on, with the ORM's unwritten changes written, and the
        statement in the driver's paramstyle."""
        session = self.session
        # Session._is_clean(), inlined (this runs for every statement of the hot path).
        if session._new or session._deleted or session.identity_map._modified:
            session.flush()
        cursor = self._cursor
        if cursor is None:
            # session.connection() begins the transaction (BEGIN IMMEDIATE on SQLite).
            cursor = session.connection().connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            self._cursor = cursor
        if self._postgres:
            converted = _POSTGRES_SQL.get(sql)
            if converted is None:
                converted = _POSTGRES_SQL[sql] = _for_postgres(sql)
            sql = converted
        return cursor, sql

    def _forget(self, cls: type[Any], row_id: int) -> None:
        """A statement changed this row behind the ORM: drop the ORM's copy, if it has one."""
        obj = self.session.identity_map.get(identity_key(cls, row_id))
        if obj is not None:
            self.session.expire(obj)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """All or nothing inside the transaction: on an error, what the block wrote is
        rolled back (the rest of the transaction stays) and the error goes on.

        A plain SAVEPOINT on the connection (``session.begin_nested()`` costs ~30 µs);
        after a rollback to it, every ORM object is dropped from the session, so none
        can stand for a row the rollback undid."""
        # Named by depth, not numbered: a savepoint name refers to the newest savepoint of
        # that name (SQLite and PostgreSQL alike), and a handful of names keeps the
        # statements in the driver's statement cache (a new name is a new prepare).
        self._savepoints += 1
        name = f"bst_{self._savepoints}"
        self._run(f"SAVEPOINT {name}")
        staged = dict(self._staged)
        try:
            yield
            if not self.session._is_clean():
                self.session.flush()
        except BaseException:
            self.drop_snapshots()  # they may hold what the rollback undoes
            # What was staged before stays staged (if the block wrote it, the rollback
            # undid the write); what the block staged goes with the rest of it.
            self._staged = staged
            if self.session.is_active:
                self._run(f"ROLLBACK TO SAVEPOINT {name}")
                self._run(f"RELEASE SAVEPOINT {name}")
            self.session.expunge_all()
            raise
        finally:
            self._savepoints -= 1
        self._run(f"RELEASE SAVEPOINT {name}")

    @property
    def is_active(self) -> bool:
        """Whether the transaction can still be used (a failed flush ends it)."""
        return bool(self.session.is_active)

    def forget_all(self) -> None:
        """Drop every ORM object: the next read of a row loads it afresh."""
        self.session.expunge_all()

    # --- inbound ---------------------------------------------------------

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
        row_id = self._insert(SQL_INSERT_INBOUND, params)
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

    def _insert(self, sql: str, params: Mapping[str, Any]) -> int | None:
        """Insert one row; its id, or None when ON CONFLICT DO NOTHING skipped it."""
        if self._postgres:
            found = self._run(sql + " RETURNING id", params).fetchone()
            return None if found is None else int(found[0])
        cursor = self._run(sql, params)
        return int(cursor.lastrowid) if cursor.rowcount == 1 else None

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
        query = (
            select(*(col(getattr(InboundRow, name)) for name in _RECEIVED_FIELDS))
            .where(InboundRow.game_id == game_id, InboundRow.outcome == "held")
            .order_by(col(InboundRow.sent_at), col(InboundRow.id))
        )
        return [
            Received(**dict(zip(_RECEIVED_FIELDS, found, strict=True)))
            for found in self.session.execute(query).all()
        ]

    # --- games -----------------------------------------------------------

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
            select(*_game_columns())
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

    def _write_state(self, game_id: int, state: str) -> str:
        digest = state_digest(state)
        self._run(SQL_SET_STATE, {"state": state, "digest": digest, "id": game_id})
        self._forget(GameRow, game_id)
        known = self._games.get(game_id)
        if known is not None:
            self._games[game_id] = replace(
                known, state_digest=digest, stored=StoredState(None, state, digest)
            )
        return digest

    # --- states written once a batch ------------------------------------------
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
        self._staged[game_id] = _Staged(state, encode, written, token)
        record = self._games[game_id] = replace(
            game, state_digest=token, stored=StoredState(lambda: self._state_of(game_id))
        )
        return record

    def write_staged(self) -> None:
        """Write every staged state now (see stage_game_state)."""
        while self._staged:
            game_id, staged = self._staged.popitem()
            staged.written(self._write_state(game_id, staged.encode(staged.state)))

    def _before_orm_statement(self, execute: Any) -> None:
        if self._staged and any(m.class_ is GameRow for m in execute.all_mappers):
            self.write_staged()

    def latest_game_in(self, platform: str, channel: str) -> Game | None:
        """The newest game played in the channel, whatever its phase."""
        query = (
            select(*_game_columns())
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
            select(*_game_columns())
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
            select(*_game_columns())
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
            select(*_game_columns())
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
        query = select(*_game_columns()).where(col(GameRow.phase).in_(ACTIVE_PHASES))
        return self._games_by(query)

    def all_games(self) -> list[Game]:
        return self._games_by(select(*_game_columns()).order_by(col(GameRow.id)))

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

    def save(self, row: Any) -> None:
        self.drop_snapshots()
        self.session.add(row)
        self.session.flush()

    # --- players ---------------------------------------------------------

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

    # --- orders ----------------------------------------------------------

    def standing_orders(self, game_id: int, turn: int) -> dict[str, Order]:
        """Each player's standing order for the turn: their newest order of it."""
        query = (
            select(*_columns(OrderRow, ORDER_FIELDS))
            .where(OrderRow.game_id == game_id, OrderRow.turn == turn)
            .order_by(col(OrderRow.id))
        )
        standing: dict[str, Order] = {}
        for found in self.session.execute(query).all():
            row = Order(*found)
            standing[row.player_key] = row  # a newer one replaces an older one
        return {key: row for key, row in standing.items() if row.order != WITHDRAWN}

    def standing_order(self, game_id: int, turn: int, player_key: str) -> Order | None:
        query = (
            select(*_columns(OrderRow, ORDER_FIELDS))
            .where(
                OrderRow.game_id == game_id,
                OrderRow.turn == turn,
                OrderRow.player_key == player_key,
            )
            .order_by(col(OrderRow.id).desc())
            .limit(1)
        )
        found = self.session.execute(query).first()
        standing = None if found is None else Order(*found)
        return None if standing is None or standing.order == WITHDRAWN else standing

    def new_order(
        self,
        *,
        game_id: int,
        player_key: str,
        turn: int,
        order: str,
        text: str,
        inbound_id: int,
        sent_at: float,
    ) -> str | None:
        """Record an order, which becomes the player's standing order for its turn;
        returns the JSON of the order it replaces, if any. The earlier orders stay, as
        history: the newest one stands, so replacing one is a single INSERT. ``order``
        :data:`WITHDRAWN` takes the standing one back."""
        known = (game_id, turn, player_key)
        previous: str | None
        try:
            previous = self._standing[known]
        except KeyError:
            found = self._run(
                SQL_STANDING, {"game_id": game_id, "turn": turn, "player_key": player_key}
            ).fetchone()
            previous = None if found is None else found[0]
        self._insert(
            SQL_INSERT_ORDER,
            {
                "game_id": game_id,
                "player_key": player_key,
                "turn": turn,
                "order": order,
                "text": text,
                "inbound_id": inbound_id,
                "sent_at": sent_at,
            },
        )
        self._standing[known] = order
        identity_map = self.session.identity_map
        if identity_map:
            for obj in list(identity_map.values()):
                if isinstance(obj, OrderRow):
                    self.session.expire(obj)
        return None if previous == WITHDRAWN else previous

    # --- the journal -----------------------------------------------------

    def add_journal(self, game_id: int, entry: str) -> None:
        """Append one entry (JSON) to a game's journal (see bot.host.journal)."""
        self._run(SQL_INSERT_JOURNAL, {"game_id": game_id, "entry": entry})

    def journal(self, game_id: int) -> list[str]:
        """A game's journal entries (JSON), oldest first."""
        return [row[0] for row in self._run(SQL_JOURNAL, {"game_id": game_id}).fetchall()]

    # --- turns -----------------------------------------------------------

    def add_turn(self, new: NewStep) -> None:
        """Store a step of a game's history."""
        self.drop_snapshots()
        self.session.add(TurnRow(**{f.name: getattr(new, f.name) for f in fields(new)}))
        self.session.flush()

    def _steps(self, query: Any) -> list[Step]:
        return [Step(*found) for found in self.session.execute(query).all()]

    def turns(self, game_id: int) -> list[Step]:
        """The game's history: every stored step, in the order it happened."""
        query = (
            select(*_columns(TurnRow, STEP_FIELDS))
            .where(TurnRow.game_id == game_id)
            .order_by(col(TurnRow.number), col(TurnRow.step))
        )
        return self._steps(query)

    def turn(self, game_id: int, number: int, step: int | None = None) -> Step | None:
        """A stored step of turn ``number``: ``step``, or the turn's last one."""
        query = select(*_columns(TurnRow, STEP_FIELDS)).where(
            TurnRow.game_id == game_id, TurnRow.number == number
        )
        if step is not None:
            query = query.where(TurnRow.step == step)
        else:
            query = query.order_by(col(TurnRow.step).desc())
        found = self._steps(query.limit(1))
        return found[0] if found else None

    def last_turn(self, game_id: int) -> Step | None:
        """The newest stored step of a game."""
        query = (
            select(*_columns(TurnRow, STEP_FIELDS))
            .where(TurnRow.game_id == game_id)
            .order_by(col(TurnRow.number).desc(), col(TurnRow.step).desc())
            .limit(1)
        )
        found = self._steps(query)
        return found[0] if found else None

    def next_step(self, game_id: int, number: int) -> int:
        """The step number the next change of turn ``number`` takes (0 for its first)."""
        query = select(func.max(TurnRow.step)).where(
            TurnRow.game_id == game_id, TurnRow.number == number
        )
        found = self.session.exec(query).first()
        return 0 if found is None else int(found) + 1

    def orders_of_turn(self, game_id: int, turn: int) -> list[Order]:
        """Every order given in a turn, oldest first (the game decides which stand), but
        for those a player withdrew: a withdrawal takes back the orders before it."""
        query = (
            select(*_columns(OrderRow, ORDER_FIELDS))
            .where(OrderRow.game_id == game_id, OrderRow.turn == turn)
            .order_by(col(OrderRow.id))
        )
        given: list[Order] = []
        for found in self.session.execute(query).all():
            row = Order(*found)
            if row.order == WITHDRAWN:
                given = [g for g in given if g.player_key != row.player_key]
            else:
                given.append(row)
        return given

    # --- outbox ----------------------------------------------------------

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
            select(*_post_columns())
            .where(OutboxRow.status == "pending", col(OutboxRow.next_attempt_at) <= now)
            .order_by(col(OutboxRow.id))
            .limit(limit)
        )
        return self._posts(query)

    def held_outbox(self, now: float, below_id: int) -> list[Post]:
        """Pending rows older than ``below_id`` that may not go yet: waiting to be retried,
        or leased to a relay sending them. A later row to the same place waits for them."""
        query = (
            select(*_post_columns())
            .where(
                OutboxRow.status == "pending",
                col(OutboxRow.next_attempt_at) > now,
                col(OutboxRow.id) < below_id,
            )
            .order_by(col(OutboxRow.id))
        )
        return self._posts(query)

    def outbox_row(self, row_id: int) -> Post | None:
        found = self._posts(select(*_post_columns()).where(col(OutboxRow.id) == row_id))
        return found[0] if found else None

    def outbox(self, game_id: int | None = None) -> list[Post]:
        query = select(*_post_columns()).order_by(col(OutboxRow.id))
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

    def forget_cursor(self, platform: str, key: str) -> None:
        """Drop a cursor nobody needs any more."""
        row = self.session.get(CursorRow, (platform, key))
        if row is not None:
            self.session.delete(row)
            self.session.flush()

    def cursors(self, platform: str) -> dict[str, str]:
        query = select(CursorRow).where(CursorRow.platform == platform)
        return {row.key: row.value for row in self.session.exec(query).all()}


@dataclass(frozen=True)
class ClockScope:
    """The games a process's turn clock moves: those opened in one channel of one platform.

    ``bst script --database`` plays beside the games already in a database; its virtual
    clock starts at the script's own time, and without a scope it would resolve, remind
    and pass for every other game there as it went."""

    platform: str
    channel: str


class Store:
    """The database behind the host."""

    def __init__(
        self,
        url: str,
        *,
        auto_migrate: bool | None = None,
        read_only: bool = False,
        clock_scope: ClockScope | None = None,
    ) -> None:
        """``read_only``: a store that can only read (the web page's), never migrates.
        ``clock_scope``: the only games its turn clock sees (none: every game)."""
        self.url = url = normal_url(url)
        self.clock_scope = clock_scope
        self.engine: Engine = make_engine(url, read_only=read_only)
        self.postgres = url.startswith("postgres")
        if read_only:
            auto_migrate = False
        if auto_migrate if auto_migrate is not None else not self.postgres:
            migrate(self.engine)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with session_scope(self.engine) as session:
            tx = Tx(session, postgres=self.postgres, clock_scope=self.clock_scope)
            yield tx
            tx.write_staged()  # (before the commit)

    def migrate(self) -> list[str]:
        return migrate(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


_ROBOT_ADDRESS = f'"user_id":"{ROBOT_USER}'


def _to_a_robot(address: str) -> bool:
    """Whether an outbox address (compact JSON, see :func:`dumps`) names a robot's seat."""
    return _ROBOT_ADDRESS in address


def dumps(value: Any) -> str:
    """JSON as the store keeps it: compact, keys in the order they were built
    (the record's order: ``type`` first in an event)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(value: str) -> Any:
    return json.loads(value) if value else None


class DatabaseCursors:
    """The adapters' cursor store (the ``CursorStore`` protocol), one transaction per call,
    each on a worker thread: a call may wait up to the database's lock timeout (30 s on
    SQLite) while a deadline resolves, and the event loop must not wait with it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, platform: str, key: str) -> str | None:
        return await asyncio.to_thread(self._get, platform, key)

    async def set(self, platform: str, key: str, value: str) -> None:
        await asyncio.to_thread(self._set, platform, key, value)

    async def all(self, platform: str) -> dict[str, str]:
        return await asyncio.to_thread(self._all, platform)

    def _get(self, platform: str, key: str) -> str | None:
        with self.store.transaction() as tx:
            return tx.cursor(platform, key)

    def _set(self, platform: str, key: str, value: str) -> None:
        with self.store.transaction() as tx:
            tx.set_cursor(platform, key, value)

    def _all(self, platform: str) -> dict[str, str]:
        with self.store.transaction() as tx:
            return tx.cursors(platform)


__all__ = [
    "ClockScope",
    "DatabaseCursors",
    "Received",
    "Store",
    "Tx",
    "build",
    "dumps",
    "loads",
]
