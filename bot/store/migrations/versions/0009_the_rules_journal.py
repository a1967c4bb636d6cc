"""the rules journal: journal (every call the host made to a game's rules)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27

Each row is one call the host made to a game's rules — its options, a join, an order
accepted, the start, a resolution, a timer, a leave, a kick, the end — in order, so the
record can replay the whole game through the rules and ``bst verify`` check every event
(issue 31). Games already there have no journal: verify says it cannot replay them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "journal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("entry", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_journal_game_id", "journal", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_journal_game_id", table_name="journal")
    op.drop_table("journal")
