"""seats and rooms: seat_changes (a substitute: who played a seat from which turn), players.account_name; game_rooms; games.deadline indexed

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

A game's host may hand a seat to someone else (``replace OLD NEW``, issue 30). The
seat keeps its key and name, which the game's state and record use; each row says from
which turn which account played it, for the record and for telling the old player why
the seat is no longer theirs. ``players.account_name``: the name of who plays the seat
now, where it is not the seat's first player (their DMs are addressed with it).
``game_rooms``: the public rooms, on any platform, a game is also played from
(``bridge GAME`` by its host in each): one game per room. ``games.deadline`` is indexed:
the reminders look a day ahead for the games of those keeping quiet hours, and with the
clock's own look-ups that was a scan of every game (benchmarks/reminders.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seat_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_key", sa.String(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("from_account", sa.String(), nullable=False),
        sa.Column("from_name", sa.String(), nullable=False),
        sa.Column("to_account", sa.String(), nullable=False),
        sa.Column("to_name", sa.String(), nullable=False),
        sa.Column("changed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_seat_changes_game_id"), "seat_changes", ["game_id"], unique=False)
    op.create_table(
        "game_rooms",
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("channel", sa.String(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("community", sa.String(), nullable=False, server_default=""),
        sa.Column("bridged_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("platform", "channel"),
    )
    op.create_index(op.f("ix_game_rooms_game_id"), "game_rooms", ["game_id"], unique=False)
    op.create_index(op.f("ix_games_deadline"), "games", ["deadline"], unique=False)
    op.add_column(
        "players", sa.Column("account_name", sa.String(), nullable=False, server_default="")
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_games_deadline"), table_name="games")
    op.drop_index(op.f("ix_game_rooms_game_id"), table_name="game_rooms")
    op.drop_table("game_rooms")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("account_name")
    op.drop_index(op.f("ix_seat_changes_game_id"), table_name="seat_changes")
    op.drop_table("seat_changes")
