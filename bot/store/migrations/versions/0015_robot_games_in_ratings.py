"""robot games in ratings: ratings.robot_games

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02

A person's rating moves against robots as against anyone (issue 44); ``me rating``
shows how many of their rated games had a robot at the table (``12 played (4
against robots)``), and each robot level has a rating of its own. The rows already
there start from 0: no rated game had a robot before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "ratings", sa.Column("robot_games", sa.Integer(), nullable=False, server_default="0")
    )


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:  # SQLite rebuilds the table
        batch.drop_column("robot_games")
