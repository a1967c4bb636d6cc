"""game state digest: games.state_digest; on SQLite, big columns last

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27

A digest of each game's state, written with it, so a process that decoded a state
before knows it is still the one stored without reading it again (a crowd's state is
tens of megabytes, and every message of the game was reading it). Games stored before
this have none (NULL) until their state is next written; the host computes it from the
state meanwhile.

On SQLite the games and turns tables are rebuilt with their big columns (a game's
state; a turn's orders, events and state) last. SQLite keeps a row's columns in order,
its overflow pages a chain: a column stored after a 21 MB state is read by walking the
state's 5,000 pages (5.5 ms), and the routing of every message and the sending of every
board read such columns (``lobby``, ``timers``, the digest itself). PostgreSQL keeps a
big value apart from its row (TOAST) whatever its place, so it only gains the column.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_LAST = {"games": ("state",), "turns": ("orders", "events", "state")}


def upgrade() -> None:
    digest = sa.Column("state_digest", sa.String(), nullable=True)
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.add_column("games", digest)
        return
    for table, big in BIG_LAST.items():
        small = [c["name"] for c in sa.inspect(bind).get_columns(table) if c["name"] not in big]
        if table == "games":
            small.append(digest.name)
        order = (*small, *big)
        with op.batch_alter_table(table, recreate="always", partial_reordering=[order]) as batch:
            if table == "games":
                batch.add_column(digest)


def downgrade() -> None:
    with op.batch_alter_table("games") as games:  # SQLite rebuilds the table
        games.drop_column("state_digest")
