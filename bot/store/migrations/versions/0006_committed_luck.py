"""committed luck: games.secret, games.luck, players.nonce

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26

A game the live host opens draws its luck from a fresh secret whose SHA-256 it
publishes first, mixed at the start with each join's nonce (issue 31). The games
already there keep their seed ("" here: they draw from it as before).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("secret", sa.String(), nullable=False, server_default=""))
    op.add_column("games", sa.Column("luck", sa.String(), nullable=False, server_default=""))
    op.add_column("players", sa.Column("nonce", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.drop_column("nonce")
    with op.batch_alter_table("games") as games:
        games.drop_column("luck")
        games.drop_column("secret")
