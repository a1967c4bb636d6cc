"""Directions on a square board, and which way its rows are numbered: stated once for the
games played on squares (bst, U-Boat Shootout, Sugar Dog).

A :class:`Direction` is a step as the board is drawn: ``up`` toward the top of the picture,
``right`` toward its right edge, however the game numbers its rows. Its
:attr:`~Direction.delta` is ``(dx, dy)`` in one convention, a chart's: ``dx`` columns to the
right, ``dy`` rows toward the top. A game numbers its rows one of two ways (:class:`Rows`):
from the bottom, as a chart does (Sugar Dog: ``A1`` is the bottom-left corner), or from the
top, as a page does (U-Boat Shootout: ``A1`` is the top-left corner; bst: row ``A`` is the
top one); :meth:`Rows.offset` turns a direction into that game's (columns, rows) step.
Columns are counted from the left in every game.

A direction's word is its value (``up``, ``down``, ``left``, ``right``): orders, records and
reports write it so.

Sonar's board is hexagonal: its six facings (``l r ul ur dl dr``) and their steps stay its own
(:class:`bot.games.sonar.board.Facing`), in the same sense: ``up`` is toward the top of the
picture, its bottom row is ``a``.
"""

from __future__ import annotations

import enum


class Direction(enum.Enum):
    """One orthogonal step, as the board is drawn. Listed in this order (robots choose among
    them in it)."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"

    @property
    def delta(self) -> tuple[int, int]:
        """``(dx, dy)`` of one step: columns to the right, rows toward the top."""
        return _DELTAS[self]

    @property
    def opposite(self) -> Direction:
        dx, dy = self.delta
        return _BY_DELTA[(-dx, -dy)]

    @property
    def vertical(self) -> bool:
        """Along a column (``up``/``down``), not a row."""
        return self in (Direction.UP, Direction.DOWN)

    @property
    def letter(self) -> str:
        """The direction's first letter (``u``), a short form a game may accept."""
        return self.value[0]


_DELTAS = {
    Direction.UP: (0, 1),
    Direction.DOWN: (0, -1),
    Direction.LEFT: (-1, 0),
    Direction.RIGHT: (1, 0),
}
_BY_DELTA = {delta: direction for direction, delta in _DELTAS.items()}


class Rows(enum.Enum):
    """Which way a board's row numbers grow."""

    FROM_BOTTOM = 1
    """Row 1 at the bottom (a chart): a step up is to the next row."""
    FROM_TOP = -1
    """Row 1 at the top (a page): a step up is to the row before."""

    def offset(self, direction: Direction) -> tuple[int, int]:
        """(columns, rows) of one step ``direction`` on a board whose rows are numbered this
        way."""
        dx, dy = direction.delta
        return dx, dy * self.value
