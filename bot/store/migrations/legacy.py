"""The hand-written migrations that came before Alembic, kept for old databases.

A database made before Alembic has a ``schema_version`` table (versions 1, 1–2 or
1–3) and no ``alembic_version``. These steps bring it to version 3, the schema that
Alembic's first revision (0001) describes, so it can be stamped 0001 and upgraded
like any other. They stay for as long as such a database may still be upgraded;
never edit them, and never add one: every schema change is an Alembic revision.

Version 1 ("create the tables") is not here: it was the old models' ``create_all``,
which the models have since outgrown, and the old code recorded it in the same
transaction that made the tables, so every database with a ``schema_version`` row
already has it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection


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


# Each entry: (version, what it does, the step), as the old code listed them.
STEPS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (2, "index the standing orders", _index_standing_orders_v2),
    (3, "the newest order stands: drop orders.active", _newest_order_stands_v3),
]


def applied_versions(connection: Connection) -> set[int]:
    """The versions a database made before Alembic records (empty if it has none)."""
    if not inspect(connection).has_table("schema_version"):
        return set()
    return {row[0] for row in connection.execute(text("SELECT version FROM schema_version"))}


def bring_to_version_3(connection: Connection) -> list[str]:
    """Apply the missing steps in the caller's transaction, recording each as the old
    code did; returns what was done."""
    have = applied_versions(connection)
    done = []
    for version, description, step in STEPS:
        if version in have:
            continue
        step(connection)
        connection.execute(
            text("INSERT INTO schema_version (version, applied_at) VALUES (:v, :t)"),
            {"v": version, "t": time.time()},
        )
        done.append(f"legacy {version}: {description}")
    return done
