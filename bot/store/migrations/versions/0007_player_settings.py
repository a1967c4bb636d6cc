"""a player's settings: player_settings (time zone, quiet hours, away, linked accounts); ratings

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26

One row per platform account that changed a setting with ``me`` (issue 30): the IANA
time zone its private messages are written in, its quiet hours (minutes after local
midnight), until when it is away, and the account of the same person it is linked to
(with the link code it showed, as a SHA-256, until it expires). ``ratings``: each
person's OpenSkill rating per kind of game. An account without a row keeps today's behaviour: UTC, no quiet hours.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_settings",
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("user_id", sa.String(), nullable=False),
        sa.Column("time_zone", sa.String(), nullable=False, server_default="UTC"),
        sa.Column("quiet_start", sa.Integer(), nullable=True),
        sa.Column("quiet_end", sa.Integer(), nullable=True),
        sa.Column("away_until", sa.Float(), nullable=True),
        sa.Column("person", sa.String(), nullable=True),
        sa.Column("link_digest", sa.String(), nullable=True),
        sa.Column("link_expires", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.Float(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("platform", "user_id"),
    )
    op.create_table(
        "ratings",
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("person", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False, server_default=""),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("won", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", sa.Float(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("kind", "person"),
    )
    op.create_index(
        op.f("ix_player_settings_link_digest"), "player_settings", ["link_digest"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_player_settings_link_digest"), table_name="player_settings")
    op.drop_table("player_settings")
    op.drop_table("ratings")
