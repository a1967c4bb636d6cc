"""where a game can be reached: games.community, games.open_to_all

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26

A game opened in a community (a Discord server) is joined from there, or by DM by
its members, unless its host opened it to all (issue 24). ``community`` is the
adapter's opaque name of that community ("" where the platform has none, as for every
game already there: they stay reachable as before); ``open_to_all`` is the host's
choice, false for the games already there.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("community", sa.String(), nullable=False, server_default=""))
    op.add_column(
        "games",
        sa.Column("open_to_all", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("open_to_all")
        games.drop_column("community")
