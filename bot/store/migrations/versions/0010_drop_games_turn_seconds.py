"""drop games.turn_seconds: a column nothing reads

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27

Each game's turn length is its options' (``turn=``) and its timers'; ``turn_seconds``
was written as 0 and read by nothing since timers came (0002). Downgrading adds it
back, filled with 0 as the host wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:  # SQLite rebuilds the table
        batch.drop_column("turn_seconds")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Float(), nullable=False, server_default="0"))
