"""create the tables (the schema of the hand-written version 3)

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Exactly what the hand-written migrations made (their version 1 was the models'
``create_all``, then versions 2 and 3), so a database they made is stamped 0001 and
upgraded like one made here. The unique constraints stay unnamed as they were: on
PostgreSQL they are called ``<table>_<columns>_key``; on SQLite they have no name.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "cursors",
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("platform", "key"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("creator", sa.String(), nullable=False),
        sa.Column("options", sa.String(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("phase", sa.String(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Float(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("turn_opened_at", sa.Float(), nullable=True),
        sa.Column("paused_remaining", sa.Float(), nullable=True),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_games_channel", "games", ["channel"])
    op.create_table(
        "inbound",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=False),
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("user_id", sa.String(), nullable=False),
        sa.Column("user_name", sa.String(), nullable=False),
        sa.Column("avatar_url", sa.String(), nullable=True),
        sa.Column("is_channel_admin", sa.Boolean(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=False),
        sa.Column("received_at", sa.Float(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("platform", "message_id"),
    )
    op.create_index("ix_inbound_game_id", "inbound", ["game_id"])
    op.create_table(
        "orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_key", sa.String(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("order", sa.String(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_orders_turn_player", "orders", ["game_id", "turn", "player_key"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("recipient", sa.String(), nullable=False),
        sa.Column("address", sa.String(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("render", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.Float(), nullable=False),
        sa.Column("platform_message_id", sa.String(), nullable=True),
        sa.Column("error", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "turn", "kind", "recipient"),
    )
    op.create_index("ix_outbox_pending", "outbox", ["status", "next_attempt_at"])
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("user_id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("avatar_url", sa.String(), nullable=True),
        sa.Column("join_order", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "platform", "user_id"),
    )
    op.create_index("ix_players_game_id", "players", ["game_id"])
    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("orders", sa.String(), nullable=False),
        sa.Column("events", sa.String(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("resolved_at", sa.Float(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("turns")
    op.drop_index("ix_players_game_id", table_name="players")
    op.drop_table("players")
    op.drop_index("ix_outbox_pending", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_orders_turn_player", table_name="orders")
    op.drop_table("orders")
    op.drop_index("ix_inbound_game_id", table_name="inbound")
    op.drop_table("inbound")
    op.drop_index("ix_games_channel", table_name="games")
    op.drop_table("games")
    op.drop_table("cursors")
