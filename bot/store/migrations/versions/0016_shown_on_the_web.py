"""shown on the web: player_settings.on_web, whether the web page shows a person's ratings and games

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02

The web page shows each kind's leaderboard and a page for each rated player (their
ratings, marks of victory and public games; issue 43). A person may keep out of both
(``me web off``); ``on_web`` is true until they do.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "player_settings",
        sa.Column("on_web", sa.Boolean(), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    with op.batch_alter_table("player_settings") as batch:
        batch.drop_column("on_web")
