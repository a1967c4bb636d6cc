"""The plumbing of an open transaction (:class:`TxBase`), which every table's module
builds on: the session and its connection, statements run bypassing the ORM, savepoints,
the records a transaction keeps between messages (its snapshots), and the game states
left to be written once a batch. The tables' reads and writes are in their own modules
(games, players, inbound, orders, journal, steps, outbox, cursors); :class:`Tx` in
bot.store.repository is all of them."""

from __future__ import annotations

import json
import json.encoder
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session, SQLModel, col

from bot.store.models import (
    GameRow,
    state_digest,
)
from bot.store.records import (
    Game,
    Player,
    StoredState,
)

_NAMED = re.compile(r":([a-z_]+)")


# Statements that lock what they read on PostgreSQL, with the clause that does (the
# tables' modules add theirs): on PostgreSQL other transactions commit while this one
# runs, so a command that read a game must hold it until it commits, or a resolution in
# between would not count the order it acknowledges (and a state written back would undo
# the resolution). On SQLite, BEGIN IMMEDIATE already shuts out every other writer.
POSTGRES_LOCKS: dict[str, str] = {}

SQL_SET_STATE = "UPDATE games SET state = :state, state_digest = :digest WHERE id = :id"


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


def _for_postgres(sql: str) -> str:
    """psycopg's paramstyle: ``:name`` → ``%(name)s``; reading a game to act on it locks it."""
    return _NAMED.sub(r"%(\1)s", sql) + POSTGRES_LOCKS.get(sql, "")


_POSTGRES_SQL: dict[str, str] = {}


_POSTGRES_POSITIONAL: dict[str, str] = {}


def _for_postgres_positional(sql: str) -> str:
    """psycopg's paramstyle for a statement of ``?`` parameters (see insert_later)."""
    converted = _POSTGRES_POSITIONAL.get(sql)
    if converted is None:
        converted = _POSTGRES_POSITIONAL[sql] = sql.replace("?", "%s")
    return converted


@dataclass(frozen=True, slots=True)
class Staged:
    """A game's state left to be written (Tx.stage_game_state)."""

    state: Any
    encode: Callable[[Any], str]
    written: Callable[[str], None]
    token: str


def columns_of(table: Any, names: Sequence[str]) -> list[Any]:
    """The named columns of a table, for an ORM query whose rows make records."""
    return [col(getattr(table, name)) for name in names]


@dataclass(frozen=True)
class ClockScope:
    """The games a process's turn clock moves: those opened in one channel of one platform.

    ``bst script --database`` plays beside the games already in a database; its virtual
    clock starts at the script's own time, and without a scope it would resolve, remind
    and pass for every other game there as it went."""

    platform: str
    channel: str


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""``json.dumps`` with the store's options, made once: ``json.dumps`` makes one a call (a
third of the cost of a small value; an order is encoded three times)."""

# Its C encoder, made once too: ``JSONEncoder.encode`` makes one a call (~1 µs of the ~3
# a journal entry costs, issue 45). The arguments are the ones ``iterencode`` gives it,
# but for the circular-reference check (no store value refers to itself; one would end
# in a RecursionError instead of a ValueError). None where the C accelerator is missing.
_MAKE_C_ENCODER: Callable[..., Callable[[Any, int], Sequence[str]]] | None = getattr(
    json.encoder, "c_make_encoder", None
)
_C_ENCODE = (
    None
    if _MAKE_C_ENCODER is None
    else _MAKE_C_ENCODER(
        None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, True
    )
)


def dumps(value: Any) -> str:
    """JSON as the store keeps it: compact, keys in the order they were built
    (the record's order: ``type`` first in an event)."""
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def loads(value: str) -> Any:
    return json.loads(value) if value else None


class TxSession(Session):
    """The session a transaction runs on. Its :class:`TxBase` hears the session's flushes
    and ORM statements through listeners set once on this class: listeners set on each
    session cost ~50 µs a transaction, and a storm is a thousand transactions."""


_TX = "bst_tx"  # (the key of a session's TxBase in ``Session.info``)


@event.listens_for(TxSession, "before_flush")
def _on_before_flush(session: Session, _context: Any, _instances: Any) -> None:
    tx = session.info.get(_TX)
    if tx is not None:
        tx._before_flush()


@event.listens_for(TxSession, "after_flush")
def _on_after_flush(session: Session, _context: Any) -> None:
    tx = session.info.get(_TX)
    if tx is not None:
        tx.drop_snapshots()


@event.listens_for(TxSession, "do_orm_execute")
def _on_orm_statement(execute: Any) -> None:
    tx = execute.session.info.get(_TX)
    if tx is not None:
        tx._before_orm_statement(execute)


class TxBase:
    """One open transaction: what every table's reads and writes share."""

    def __init__(
        self, session: Session, *, postgres: bool, clock_scope: ClockScope | None = None
    ) -> None:
        self.session = session
        self._postgres = postgres
        self._clock_scope = clock_scope
        self._cursor: Any = None
        self._savepoints = 0
        # The records of games and players this transaction read (see the snapshots below).
        self._games: dict[int, Game] = {}
        self._game_in: dict[tuple[str, str], int | None] = {}
        self._games_of: dict[tuple[str, str], list[int]] = {}
        self._player: dict[tuple[int, str, str], Player | None] = {}
        self._players: dict[int, list[Player]] = {}
        # (game id, turn, player key) → the JSON of the standing order this transaction
        # wrote for that player (the next order of theirs replaces it without a read).
        self._standing: dict[tuple[int, int, str], str] = {}
        # game id → a state a command left to be written (see stage_game_state).
        self._staged: dict[int, Staged] = {}
        self._staged_count = 0
        # Rows left to be inserted together (see insert_later): statement → rows, in order.
        self._later: dict[str, list[tuple[Any, ...]]] = {}
        # The session's events (listened to on TxSession): any write through the ORM may
        # change a game or a player (after a flush, the snapshots are dropped); what is
        # left to insert goes before the ORM's rows (so rows keep the order they were made
        # in); a statement of the ORM about games reads or writes what a staged state
        # changes.
        session.info[_TX] = self
        if not isinstance(session, TxSession):
            event.listen(session, "after_flush", lambda *_: self.drop_snapshots())
            event.listen(session, "before_flush", lambda *_: self._before_flush())
            event.listen(session, "do_orm_execute", self._before_orm_statement)

    # Snapshots: the records read of games and players (game_in, games_of, player,
    # players) are kept for the rest of the transaction, so the orders of one batch read
    # their game and captain once. On SQLite that is exact: the transaction began with
    # BEGIN IMMEDIATE, so no other connection writes until it ends, and every write of
    # this transaction to games or players drops the snapshots (an ORM flush,
    # add_*/save/advance_turn, a rollback to a savepoint) or replaces them (change_game,
    # set_game_state, stage_game_state). On PostgreSQL other transactions commit while
    # this one runs, so snapshots last one message only (begin_message, end_message):
    # each message reads its game afresh, as before.

    def _before_flush(self) -> None:
        if self._later:
            self.write_later()

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

    def _run(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        """Run a statement on this transaction's connection, bypassing the ORM: whatever
        the ORM holds unwritten, and every row left to insert, is written first so the
        statement sees it."""
        cursor, sql = self._prepare(sql)
        cursor.execute(sql, params or {})
        return cursor

    # Rows inserted later: a batch of orders writes each one's journal entry, order and
    # reply, and nothing reads them back before the batch commits, so they go in one
    # ``executemany`` a statement (positional parameters) instead of a statement a row.
    # They are written before anything else runs on the connection (another statement,
    # an ORM flush or query, a savepoint's release) and before the commit, so every
    # statement sees them and every table's rows keep the order they were made in.

    def insert_later(self, sql: str, row: tuple[Any, ...]) -> None:
        """Insert ``row`` (``?`` parameters, in order) with ``sql`` before the next
        statement: for a row whose id and outcome nobody asks for."""
        rows = self._later.get(sql)
        if rows is None:
            rows = self._later[sql] = []
        rows.append(row)

    def write_later(self) -> None:
        """Insert every row left to insert now (see :meth:`insert_later`)."""
        later = self._later
        if not later:
            return
        self._later = {}
        cursor = self._connection_cursor()
        for sql, rows in later.items():
            cursor.executemany(_for_postgres_positional(sql) if self._postgres else sql, rows)

    def _run_first(self, sql: str, params: Mapping[str, Any]) -> Any:
        """:meth:`_run`, leaving the rows to insert later where they are: for a statement
        that neither reads nor writes their tables (an inbound message's insert)."""
        session = self.session
        if session._new or session._deleted or session.identity_map._modified:
            return self._run(sql, params)  # (the ORM's rows, and so everything before them)
        cursor = self._connection_cursor()
        cursor.execute(self._in_paramstyle(sql), params)
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
        if self._later:
            self.write_later()
        return self._connection_cursor(), self._in_paramstyle(sql)

    def _in_paramstyle(self, sql: str) -> str:
        """``sql`` (``:name`` parameters) in the driver's paramstyle."""
        if self._postgres:
            converted = _POSTGRES_SQL.get(sql)
            if converted is None:
                converted = _POSTGRES_SQL[sql] = _for_postgres(sql)
            return converted
        return sql

    def _connection_cursor(self) -> Any:
        """The DBAPI cursor of this transaction's connection."""
        cursor = self._cursor
        if cursor is None:
            # session.connection() begins the transaction (BEGIN IMMEDIATE on SQLite).
            cursor = self.session.connection().connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            self._cursor = cursor
        return cursor

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
            self._later = {}  # (rows of the block: what came before went in at SAVEPOINT)
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

    def _insert(self, sql: str, params: Mapping[str, Any], *, first: bool = False) -> int | None:
        """Insert one row; its id, or None when ON CONFLICT DO NOTHING skipped it.
        ``first``: before the rows left to insert later (see :meth:`_run_first`)."""
        run = self._run_first if first else self._run
        if self._postgres:
            found = run(sql + " RETURNING id", params).fetchone()
            return None if found is None else int(found[0])
        cursor = run(sql, params)
        return int(cursor.lastrowid) if cursor.rowcount == 1 else None

    def save(self, row: Any) -> None:
        self.drop_snapshots()
        self.session.add(row)
        self.session.flush()

    def write_staged(self) -> None:
        """Write every staged state now (see stage_game_state)."""
        while self._staged:
            game_id, staged = self._staged.popitem()
            staged.written(self._write_state(game_id, staged.encode(staged.state)))

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

    def _before_orm_statement(self, execute: Any) -> None:
        if self._later:
            self.write_later()
        if self._staged and any(m.class_ is GameRow for m in execute.all_mappers):
            self.write_staged()
