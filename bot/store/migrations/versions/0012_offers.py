"""offers: a seat or a bridge the host offered, until its newcomer or room accepts

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02

A host's ``replace OLD NEW`` no longer hands a seat at once (issue 39): the newcomer
gets nothing of the game until they accept by DM, and where the host plays a seat of the
game, the seat's player agrees too. ``bridge GAME`` waits likewise for an admin of the
room it names. Each such offer is a row until it is answered.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("community", sa.String(), nullable=False),
        sa.Column("user_id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("avatar_url", sa.String(), nullable=True),
        sa.Column("player_key", sa.String(), nullable=False),
        sa.Column("holder", sa.String(), nullable=False),
        sa.Column("holder_consent", sa.String(), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_offers_game_id"), "offers", ["game_id"], unique=False)
    op.create_index(op.f("ix_offers_user_id"), "offers", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_offers_user_id"), table_name="offers")
    op.drop_index(op.f("ix_offers_game_id"), table_name="offers")
    op.drop_table("offers")
