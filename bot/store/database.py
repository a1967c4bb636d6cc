"""The database: engine, transactions and schema migrations.

SQLite by default (a file: WAL, a busy timeout, every write transaction begun
with ``BEGIN IMMEDIATE`` so two processes serialise instead of failing on
upgrade), PostgreSQL by URL (psycopg; game rows locked with ``FOR UPDATE``).

Migrations are a documented equivalent of Alembic, small enough to read: the
``schema_version`` table holds the versions applied, and :data:`MIGRATIONS`
lists each version's steps in order. ``bst migrate`` applies what is missing;
SQLite databases are migrated automatically on start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, SQLModel, create_engine, select

from bot.store import models
from bot.store.models import SchemaVersionRow


def _create_v1(connection: Connection) -> None:
    SQLModel.metadata.create_all(connection)


# Each entry: (version, what it does, the step). Append; never edit a shipped step.
# Until the first release, version 1 is "the tables as the models define them";
# from the first release on, every schema change is a new step with explicit DDL.
def _columns(connection: Connection, table: str) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns(table)}


def _index_standing_orders_v2(connection: Connection) -> None:
    # A player's standing order is found on every order: without an index the lookup
    # scans every order of the game's turn. (Only for databases made before v3, whose
    # orders still had the `active` column; v3 replaces this index.)
    if "active" in _columns(connection, "orders"):
        connection.execute(
            text(
                "CREATE INDEX IF NOT EXISTS ix_orders_standing "
                "ON orders (game_id, turn, player_key, active)"
            )
        )


def _newest_order_stands_v3(connection: Connection) -> None:
    # A standing order used to be the one row marked `active`, and replacing it cost an
    # UPDATE of the old row (and of two indexes) besides the INSERT. The newest order
    # of a player for a turn was always the active one, so the flag goes: the newest
    # stands. One index, (game_id, turn, player_key), serves both lookups.
    connection.execute(text("DROP INDEX IF EXISTS ix_orders_standing"))
    connection.execute(text("DROP INDEX IF EXISTS ix_orders_game_turn"))
    if "active" in _columns(connection, "orders"):
        if connection.dialect.name == "sqlite":
            # SQLite before 3.35 has no DROP COLUMN: rebuild the table (its documented way).
            connection.execute(
                text(
                    "CREATE TABLE orders_v3 (id INTEGER NOT NULL, game_id INTEGER NOT NULL, "
                    "player_key VARCHAR NOT NULL, turn INTEGER NOT NULL, "
                    '"order" VARCHAR NOT NULL, text VARCHAR NOT NULL, '
                    "inbound_id INTEGER NOT NULL, sent_at FLOAT NOT NULL, PRIMARY KEY (id))"
                )
            )
            connection.execute(
                text(
                    'INSERT INTO orders_v3 SELECT id, game_id, player_key, turn, "order", '
                    "text, inbound_id, sent_at FROM orders"
                )
            )
            connection.execute(text("DROP TABLE orders"))
            connection.execute(text("ALTER TABLE orders_v3 RENAME TO orders"))
        else:
            connection.execute(text("ALTER TABLE orders DROP COLUMN active"))
    connection.execute(
        text(
            "CREATE INDEX IF NOT EXISTS ix_orders_turn_player ON orders (game_id, turn, player_key)"
        )
    )


MIGRATIONS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (1, "create the tables", _create_v1),
    (2, "index the standing orders", _index_standing_orders_v2),
    (3, "the newest order stands: drop orders.active", _newest_order_stands_v3),
]


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
        )

        @event.listens_for(engine, "connect")
        def _sqlite_setup(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            # Let SQLAlchemy, not the driver, decide when transactions begin,
            # so every one can be BEGIN IMMEDIATE (a write lock taken up front).
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            if not url.endswith(":memory:") and url != "sqlite://":
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection):  # type: ignore[no-untyped-def]
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return create_engine(url, pool_pre_ping=True)


def applied_versions(engine: Engine) -> set[int]:
    with Session(engine) as session:
        try:
            rows = session.exec(select(SchemaVersionRow.version)).all()
        except Exception:
            return set()
    return set(rows)


def migrate(engine: Engine) -> list[str]:
    """Apply missing migrations; returns what was done, for the command's output."""
    SQLModel.metadata.tables[SchemaVersionRow.__tablename__].create(engine, checkfirst=True)
    done = []
    have = applied_versions(engine)
    for version, description, step in MIGRATIONS:
        if version in have:
            continue
        with engine.begin() as connection:
            step(connection)
            connection.execute(
                text("INSERT INTO schema_version (version, applied_at) VALUES (:v, :t)"),
                {"v": version, "t": time.time()},
            )
        done.append(f"{version}: {description}")
    return done


def latest_version() -> int:
    return MIGRATIONS[-1][0]


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any error."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


__all__ = ["make_engine", "migrate", "models", "session_scope"]
