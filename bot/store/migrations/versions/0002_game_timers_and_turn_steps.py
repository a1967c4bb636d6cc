"""game timers and turn steps: games.timers, turns.step and .cause, turns unique by (game_id, number, step)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

A game keeps several timers (``games.timers``, a JSON list; ``[]`` for the games
already there), and a turn that acts at once has a step for each change
(``turns.step``; 0 for the turns already there), so a turn's number is no longer
unique in its game: its number and step are. Each step says what made it
(``turns.cause``): for the turns already there, turn 0 was the start (the close of
setup) and every other one a turn's orders resolved.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The unique key 0001 (and the hand-written version 1) left unnamed. PostgreSQL
# named it <table>_<columns>_key; SQLite has no name for it, so on SQLite the batch
# below reflects the table with this convention, which names it uq_turns_game_id_number.
_NAMING = {"uq": "uq_%(table_name)s_%(column_0_N_name)s"}
_TURN_NUMBER_KEY = {"postgresql": "turns_game_id_number_key", "sqlite": "uq_turns_game_id_number"}
_TURN_STEP_KEY = "uq_turns_game_id_number_step"


def _turn_number_key() -> str:
    dialect = op.get_bind().dialect.name
    if dialect not in _TURN_NUMBER_KEY:
        raise RuntimeError(
            f"revision 0002 knows the name of turns' unique key on {' and '.join(_TURN_NUMBER_KEY)}"
            f", not on {dialect}"
        )
    return _TURN_NUMBER_KEY[dialect]


def upgrade() -> None:
    op.add_column("games", sa.Column("timers", sa.String(), nullable=False, server_default="[]"))
    with op.batch_alter_table("turns", naming_convention=_NAMING) as turns:
        turns.add_column(
            sa.Column("step", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
        turns.add_column(sa.Column("cause", sa.String(), nullable=False, server_default="turn"))
        turns.drop_constraint(_turn_number_key(), type_="unique")
        turns.create_unique_constraint(_TURN_STEP_KEY, ["game_id", "number", "step"])
    op.execute("UPDATE turns SET cause = 'start' WHERE number = 0")


def downgrade() -> None:
    # Fails, and changes nothing, if a turn has two steps: they cannot be told apart.
    with op.batch_alter_table("turns", naming_convention=_NAMING) as turns:
        turns.drop_constraint(_TURN_STEP_KEY, type_="unique")
        turns.drop_column("cause")
        turns.drop_column("step")
        turns.create_unique_constraint(_turn_number_key(), ["game_id", "number"])
    with op.batch_alter_table("games") as games:
        games.drop_column("timers")
