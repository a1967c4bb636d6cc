"""The turns table: the steps of a game's history (bot.store.records.Step)."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from bot.store.changes import NewStep
from bot.store.models import (
    TurnRow,
)
from bot.store.records import (
    STEP_FIELDS,
    Step,
)
from bot.store.tx import TxBase, columns_of

# The resolve path's statements (a storm runs them for each of a thousand games): plain
# SQL on the transaction's connection, as the hot path's (see bot.store.games).
_NEW_STEP_COLUMNS = tuple(NewStep.__dataclass_fields__)

SQL_INSERT_STEP = (
    f"INSERT INTO turns ({', '.join(_NEW_STEP_COLUMNS)}) "
    f"VALUES ({', '.join(':' + name for name in _NEW_STEP_COLUMNS)})"
)


SQL_LAST_STEP = "SELECT MAX(step) FROM turns WHERE game_id = :game_id AND number = :number"


class StepTable(TxBase):
    """The reads and writes of a game's steps."""

    def add_turn(self, new: NewStep) -> None:
        """Store a step of a game's history."""
        self._run(SQL_INSERT_STEP, {name: getattr(new, name) for name in _NEW_STEP_COLUMNS})

    def _steps(self, query: Any) -> list[Step]:
        return [Step(*found) for found in self.session.execute(query).all()]

    def turns(self, game_id: int) -> list[Step]:
        """The game's history: every stored step, in the order it happened."""
        query = (
            select(*columns_of(TurnRow, STEP_FIELDS))
            .where(TurnRow.game_id == game_id)
            .order_by(col(TurnRow.number), col(TurnRow.step))
        )
        return self._steps(query)

    def turn(self, game_id: int, number: int, step: int | None = None) -> Step | None:
        """A stored step of turn ``number``: ``step``, or the turn's last one."""
        query = select(*columns_of(TurnRow, STEP_FIELDS)).where(
            TurnRow.game_id == game_id, TurnRow.number == number
        )
        if step is not None:
            query = query.where(TurnRow.step == step)
        else:
            query = query.order_by(col(TurnRow.step).desc())
        found = self._steps(query.limit(1))
        return found[0] if found else None

    def last_turn(self, game_id: int) -> Step | None:
        """The newest stored step of a game."""
        query = (
            select(*columns_of(TurnRow, STEP_FIELDS))
            .where(TurnRow.game_id == game_id)
            .order_by(col(TurnRow.number).desc(), col(TurnRow.step).desc())
            .limit(1)
        )
        found = self._steps(query)
        return found[0] if found else None

    def next_step(self, game_id: int, number: int) -> int:
        """The step number the next change of turn ``number`` takes (0 for its first)."""
        found = self._run(SQL_LAST_STEP, {"game_id": game_id, "number": number}).fetchone()[0]
        return 0 if found is None else int(found) + 1
