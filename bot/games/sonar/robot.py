"""A simulated Sonar captain for ``bst demo`` (``ROBOT``; :class:`bot.games.base.Robot`).

It plays from its own view only (:class:`~bot.games.sonar.views.PrivateView`: the board
after the last turn and the one before, its own subs) and always legally: as many distinct
cells as it may fire at, on the board, never under its own subs after the move. It reasons
from what the marks say about where the other subs will be once every sub has sailed its
one step at the start of its turn (``shared/rules/sonar.md`` §4):

1. **Certain water.** A miss ``k`` away means no sub segment was nearer than ``k`` when it
   fell; each turn since moved every segment one step, so after this turn's move no
   segment is within ``k - 1 - turns since`` of it. Its own subs' next cells are never fired at.
2. **A struck sub.** A hit on a sub afloat (the red ``x`` that sails with it) will be one
   step further on, along the sub's unknown facing. If the board of the turn before had a
   hit one step behind it, the facing is known, and the charges go along that line, next
   to the struck segment first; two struck neighbours give the line's axis; otherwise each
   of the six next cells is as likely.
3. **Rings.** A miss ``k`` away had at least one segment exactly ``k`` away: after the
   moves since, that segment is on the rings ``k - t .. k + t``, each cell of which gets
   its share of one sub's worth of weight (small rings, short distances: strong hints).
4. **Searching.** Charges left over go where nothing is known, spread out and away from
   the last charges, so that their distances tell the most next turn.

In setup it sends nothing: a fleet it does not send is placed by the host, at random.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from bot.games.base import PlayerId, Said
from bot.games.sonar.board import Board, Cell, Facing
from bot.games.sonar.state import Phase, ShotResult
from bot.games.sonar.views import BoardView, PrivateView

STRUCK_WEIGHT = 6.0
"""What a struck sub's next cells weigh against one ring's worth (a ring holds one segment
somewhere on many cells; a struck sub is certainly next to its hit)."""

RING_WEIGHT = 1.0
"""One segment's worth spread over a ring's cells."""

ALONG_DECAY = 0.55
"""How much less likely each further cell along a struck sub's line holds an unhit segment."""

LONGEST = 6
"""How far along a struck sub's line charges may go (cells on either side)."""

SEARCH_SAMPLE = 60
"""Cells drawn at random to pick each searching charge from (the most spread out wins)."""


def own_cells_after_move(board: Board, view: PrivateView) -> set[Cell]:
    """Where the robot's own subs will be once this turn's move is made."""
    return {board.step(cell, sub.facing) for sub in view.subs if not sub.sunk for cell in sub.cells}


def _within(board: Board, centre: Cell, radius: int) -> Iterable[Cell]:
    return (cell for cell in board.cells() if board.distance(cell, centre) <= radius)


class SonarRobot:
    """A captain that reasons from distance marks and struck subs."""

    demo_players = 2

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        if not isinstance(view, PrivateView):
            return []
        public = view.public
        if public.phase is not Phase.BATTLE or public.to_move != player:
            return []
        allowed = public.shots_allowed
        if allowed < 1:
            return []
        cells = choose_targets(view, allowed, rng)
        return [Said(", ".join(map(str, cells)), public=True)]


def choose_targets(view: PrivateView, allowed: int, rng: random.Random) -> list[Cell]:
    """``allowed`` distinct cells to fire at, the likeliest to hold an enemy segment after
    the move first, then searching charges."""
    public = view.public
    board = Board(public.rows)
    mine_now = {cell for sub in view.subs if not sub.sunk for cell in sub.cells}
    forbidden = own_cells_after_move(board, view)
    empty: set[Cell] = set()
    weights: dict[Cell, float] = defaultdict(float)
    boards = [(public.board, 1, mine_now)]
    if public.previous is not None:
        then = {c for sub in view.previous_subs or () if not sub.sunk for c in sub.cells}
        boards.append((public.previous, 2, then))
    for shown, moves, own_then in boards:
        for shot in shown.shots:
            if shot.result is not ShotResult.MISS or shot.distance is None:
                continue
            explained = any(board.distance(shot.cell, c) == shot.distance for c in own_then)
            _read_miss(board, shot.cell, shot.distance, moves, empty, weights, explained)
    _read_hits(board, public.board, public.previous, mine_now, weights)
    hits_after = {
        board.step(cell, facing)
        for cell in public.board.hits
        if cell not in mine_now
        for facing in Facing
    }
    ranked = sorted(
        (cell for cell, weight in weights.items() if weight > 0),
        key=lambda cell: (-weights[cell], rng.random()),
    )
    chosen: list[Cell] = []
    for cell in ranked:
        if len(chosen) == allowed:
            break
        if cell in forbidden or (cell in empty and cell not in hits_after):
            continue
        chosen.append(cell)
    _search(board, chosen, allowed, forbidden | empty, forbidden, public.board, rng)
    return chosen


def _read_miss(
    board: Board,
    at: Cell,
    distance: int,
    moves: int,
    empty: set[Cell],
    weights: dict[Cell, float],
    explained: bool,
) -> None:
    """A miss ``distance`` away, ``moves`` moves ago counting this turn's: water within
    ``distance - 1 - moves``, and one segment's worth of weight on the rings it may be on
    (none when one of the robot's own subs was that far: the mark then says nothing of
    the others')."""
    ring: list[Cell] = []
    for cell in board.cells():
        away = board.distance(cell, at)
        if away <= distance - 1 - moves:
            empty.add(cell)
        elif distance - moves <= away <= distance + moves:
            ring.append(cell)
    if explained:
        return
    for cell in ring:
        weights[cell] += RING_WEIGHT / len(ring)


def _read_hits(
    board: Board,
    now: BoardView,
    before: BoardView | None,
    mine: set[Cell],
    weights: dict[Cell, float],
) -> None:
    """Weight along the lines of the enemy subs struck (their hits sail with them).

    A sub sails rigidly along its facing, so a cell of its line after this turn's move was
    one step back along the line when the last turn's charges fell, and two steps back a
    turn before: where that was a miss, the line holds no segment there, and it ends."""
    struck = [cell for cell in now.hits if cell not in mine]
    hit_cells = set(struck)
    misses = [
        {shot.cell: shot.distance or 0 for shot in shown.shots if shot.result is ShotResult.MISS}
        for shown in (now, before)
        if shown is not None
    ]
    for hit in struck:
        facings = _facings_of(board, hit, hit_cells, before)
        share = STRUCK_WEIGHT / len(facings)
        for facing in facings:
            ahead = board.step(hit, facing)  # where the struck segment will be
            for step in (facing, facing.opposite):
                for along in range(1, LONGEST + 1):
                    cell = board.step(ahead, step, along)
                    back = [board.step(cell, facing.opposite, moves) for moves in (1, 2)]
                    if any(b in missed for b, missed in zip(back, misses, strict=False)):
                        break  # water there then: the sub ends before this cell
                    if back[0] in hit_cells:
                        continue  # a struck segment too: hitting it again sinks nothing
                    weights[cell] += share * ALONG_DECAY ** (along - 1)


def _facings_of(board: Board, hit: Cell, hits: set[Cell], before: BoardView | None) -> list[Facing]:
    """The facings the struck sub may have: known when the turn before showed its hit one
    step behind; else those that the turn before's misses allow (the segment was one step
    back then, at least each miss's distance from it), narrowed to the axis a struck
    neighbour gives."""
    if before is None:
        possible = list(Facing)
    else:
        known = [facing for facing in Facing if board.step(hit, facing.opposite) in before.hits]
        if len(known) == 1:
            return known
        misses = [
            (shot.cell, shot.distance or 0)
            for shot in before.shots
            if shot.result is ShotResult.MISS
        ]
        possible = [
            facing
            for facing in Facing
            if all(
                board.distance(board.step(hit, facing.opposite), at) >= away for at, away in misses
            )
        ] or list(Facing)
    axis = [f for f in possible if hits & {board.step(hit, f), board.step(hit, f.opposite)}]
    return axis or possible


def _search(
    board: Board,
    chosen: list[Cell],
    allowed: int,
    avoid: set[Cell],
    own: set[Cell],
    last: BoardView,
    rng: random.Random,
) -> None:
    """Fill ``chosen`` up to ``allowed`` with cells far from the charges already placed and
    from the last turn's, each the most spread out of a random sample."""
    open_water = [cell for cell in board.cells() if cell not in avoid and cell not in chosen]
    if len(open_water) < allowed - len(chosen):
        # Nearly everything is known to be water: any cell not under its own subs will do.
        open_water = [cell for cell in board.cells() if cell not in own and cell not in chosen]
    anchors = [*chosen, *(shot.cell for shot in last.shots)]
    while len(chosen) < allowed and open_water:
        sample = rng.sample(open_water, min(SEARCH_SAMPLE, len(open_water)))
        best = max(
            sample,
            key=lambda cell: min((board.distance(cell, a) for a in anchors), default=0),
        )
        chosen.append(best)
        anchors.append(best)
        open_water.remove(best)


ROBOT = SonarRobot()
