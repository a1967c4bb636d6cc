"""awards in ratings: ratings.awards

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02

A game may give an award as it ends (U-Boat Shootout's mark of victory), and a
person's awards add up per kind of game beside their record (``me rating``).
The rows already there start from 0: no game gave an award before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("ratings", sa.Column("awards", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:  # SQLite rebuilds the table
        batch.drop_column("awards")
