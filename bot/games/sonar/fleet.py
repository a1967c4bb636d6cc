"""Fleets of subs (``shared/rules/sonar.md`` §3).

A player's subs have the lengths 2, 3, 3, 4, 4, 4, 5, … (each length ``L`` appears
``L - 1`` times), the first ``ships`` of that sequence, numbered 1.. in that order.
A sub is a straight line of cells along one of the six directions, bow first; it
faces along its line and sails one step forward every turn, forever, wrapping round
the board. Hits stay with the segment they struck and so move with the sub; a sub
whose every segment is hit is sunk and leaves the board at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.games.base import PlacementError
from bot.games.sonar.board import Board, Cell, Facing, row_label
from bot.games.sonar.encounters import Course, ever_meet, first_meeting

FLEET_EXAMPLE = "`2 n19 r, 3 a3 ur`"
"""A fleet as sent: for each sub its length, its bow cell and its facing."""


def fleet_lengths(ships: int) -> tuple[int, ...]:
    """The lengths of a fleet of ``ships`` subs: ``fleet_lengths(4) == (2, 3, 3, 4)``."""
    lengths: list[int] = []
    length = 2
    while len(lengths) < ships:
        lengths.extend([length] * (length - 1))
        length += 1
    return tuple(lengths[:ships])


@dataclass(frozen=True)
class Hit:
    """A segment (0 is the bow) struck in a turn."""

    segment: int
    turn: int


@dataclass(frozen=True)
class Submarine:
    """One sub: its number in its fleet, its course from turn 0, its hits, and the turn
    it sank (None while afloat)."""

    id: int
    course: Course
    hits: tuple[Hit, ...] = ()
    sunk_turn: int | None = None

    @property
    def length(self) -> int:
        return self.course.length

    @property
    def facing(self) -> Facing:
        return self.course.facing

    @property
    def sunk(self) -> bool:
        return self.sunk_turn is not None

    def hit_segments(self, by_turn: int | None = None) -> frozenset[int]:
        """The segments hit (up to and including turn ``by_turn``)."""
        return frozenset(h.segment for h in self.hits if by_turn is None or h.turn <= by_turn)

    def sunk_by(self, turn: int) -> bool:
        return self.sunk_turn is not None and self.sunk_turn <= turn

    def cells(self, board: Board, moves: int) -> tuple[Cell, ...]:
        """Bow first, after ``moves`` steps (a sunk sub stays where it sank)."""
        if self.sunk_turn is not None:
            moves = min(moves, self.sunk_turn)
        return self.course.cells(board, moves)

    def struck(self, segment: int, turn: int) -> Submarine:
        """This sub after a hit on ``segment`` in ``turn`` (sunk if every segment is now hit)."""
        if segment in self.hit_segments():
            return self
        hit = replace(self, hits=(*self.hits, Hit(segment, turn)))
        if len(hit.hit_segments()) == self.length:
            hit = replace(hit, sunk_turn=turn)
        return hit


def fleet_text(subs: tuple[Submarine, ...] | list[Submarine]) -> str:
    """``2 l5 ur, 3 c20 ur``: each sub as its length, bow at turn 0 and facing."""
    return ", ".join(course_text(sub.course) for sub in subs)


def course_text(course: Course) -> str:
    return f"{course.length} {course.bow} {course.facing.value}"


def lengths_text(ships: int) -> str:
    """``2 subs of lengths 2, 3``."""
    lengths = fleet_lengths(ships)
    plural = "s" if len(lengths) != 1 else ""
    return f"{len(lengths)} sub{plural} of length{plural} {', '.join(map(str, lengths))}"


def lengths_list(ships: int) -> str:
    """``lengths 2, 3`` (``length 2`` for one sub)."""
    lengths = fleet_lengths(ships)
    return f"length{'s' if len(lengths) != 1 else ''} {', '.join(map(str, lengths))}"


def fleet_lines(board: Board, fleet: Sequence[Submarine]) -> str:
    """Each sub with its number, as sent and as the cells it holds at turn 0."""
    return "; ".join(
        f"sub {sub.id}: {course_text(sub.course)} ({' '.join(map(str, sub.course.cells(board)))})"
        for sub in fleet
    )


def check_fleet(board: Board, subs: Sequence[Course], ships: int) -> tuple[Submarine, ...]:
    """A fleet sent by a player (``placement=given``, rules §1) as their subs, numbered by
    length (ties in the order listed); or PlacementError naming the problem: lengths not
    exactly those of ``ships``, a cell off the board, or a sub that would ever meet another
    of the player's subs. Never against other players' subs: that waits for the start
    (see :func:`meets_any`), so that no answer in setup depends on where they are."""
    wanted = sorted(fleet_lengths(ships))
    got = sorted(sub.length for sub in subs)
    if got != wanted:
        raise PlacementError(
            f"a fleet here is exactly {lengths_text(ships)}; yours has "
            f"{', '.join(map(str, got)) or 'none'}: send one sub of each, e.g. {FLEET_EXAMPLE}"
        )
    for sub in subs:
        if not board.contains(sub.bow):
            raise PlacementError(
                f"your sub {course_text(sub)} is off the board: rows go from a to "
                f"{row_label(board.rows - 1)} and columns from 1 to {board.cols}, e.g. "
                f"`{sub.length} {board.example} {sub.facing.value}`"
            )
    for i, sub in enumerate(subs):
        for other in subs[:i]:
            if ever_meet(board, other, sub):
                when = first_meeting(board, other, sub)
                clear = _clear_of(board, sub, subs[:i])
                instead = (
                    f", e.g. `{course_text(clear)}` keeps clear of the subs listed before it"
                    if clear is not None
                    else ""
                )
                raise PlacementError(
                    f"your sub {course_text(sub)} would meet your sub {course_text(other)} "
                    f"{'at once' if when == 0 else f'in turn {when}'}: subs never meet, so "
                    f"place one of them elsewhere{instead}"
                )
    ordered = sorted(range(len(subs)), key=lambda i: subs[i].length)
    return tuple(Submarine(n + 1, subs[i]) for n, i in enumerate(ordered))


def meets_any(board: Board, fleet: Sequence[Submarine], others: Sequence[Course]) -> bool:
    """Whether a sub of ``fleet`` would ever meet one of ``others``."""
    return any(ever_meet(board, other, sub.course) for sub in fleet for other in others)


def _clear_of(board: Board, sub: Course, placed: Sequence[Course]) -> Course | None:
    """The same sub with the first bow (row by row) at which it meets none of ``placed``,
    facing its own way if it can (some lengths never fit beside a sub facing another way):
    an example for a refusal, drawn from the player's own subs only (never another's)."""
    facings = [sub.facing, *(facing for facing in Facing if facing is not sub.facing)]
    for facing in facings:
        for bow in board.cells():
            moved = Course(bow, facing, sub.length)
            if not any(ever_meet(board, other, moved) for other in placed):
                return moved
    return None
