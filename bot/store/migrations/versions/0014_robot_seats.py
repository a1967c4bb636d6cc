"""robot seats: players.robot, the level of the robot playing a seat ("" for a person)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02

A game's host may seat robots (``new KIND robots=N``, ``add robot [LEVEL]``,
``fill=robots``; issue 44). A robot's seat is a player row like anyone's, so its orders
take the same path (journal, receipts, ``bst verify``); ``robot`` names its level, and
the host never sends a message to such a seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("robot", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("robot")
