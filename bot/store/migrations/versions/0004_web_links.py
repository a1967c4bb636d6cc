"""web links: a player's private link to their own view on the web page

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26

``web_links`` holds one row per private link the host issued: the game, the player's
key, the token and its SHA-256 (the web looks a link up by the digest), when it was
issued and, once ``link revoke`` replaced it, when it was revoked. A new table: the
rows already there are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_key", sa.String(), nullable=False),
        sa.Column("token", sa.String(), nullable=False),
        sa.Column("digest", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("revoked_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )
    op.create_index(op.f("ix_web_links_game_id"), "web_links", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_links_game_id"), table_name="web_links")
    op.drop_table("web_links")
