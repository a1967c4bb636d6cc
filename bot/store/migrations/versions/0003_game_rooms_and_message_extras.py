"""game rooms and message extras: games.lobby, outbox.extras

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22

A game may move into a room of its own (a Discord thread) in the channel it was
opened in: ``games.channel`` is then the room and ``games.lobby`` the channel it
came from (empty for a game that never moved, as every game already there). An
outgoing message may carry more than text (``outbox.extras``, JSON: buttons, who
it pings, a card); empty for the messages already there.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("lobby", sa.String(), nullable=False, server_default=""))
    op.add_column("outbox", sa.Column("extras", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    # A game that moved into its room stays there: its channel is the room.
    with op.batch_alter_table("outbox") as outbox:
        outbox.drop_column("extras")
    with op.batch_alter_table("games") as games:
        games.drop_column("lobby")
