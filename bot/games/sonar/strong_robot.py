"""Sonar's ``strong`` robot (:class:`StrongSonarRobot`): it keeps every position the other
subs can still have, given every mark it has seen, and fires where most of them meet.

A sub is a line of known length sailing one step a turn along its facing
(``shared/rules/sonar.md`` §3-§4), so where it can be is a set of *hypotheses*: a facing,
a length, and the cell of its bow. The robot remembers them, turn after turn, from its
own :class:`~bot.games.sonar.views.PrivateView` alone:

* **Every sub sails.** Each turn moves every hypothesis one step along its facing.
* **A miss ``k`` away** says no segment of any sub was nearer than ``k`` when it fell:
  every hypothesis with a segment in that ball is gone, for good. So is every one
  that would lie on its own subs (subs never overlap).
* **Some sub is there.** A miss ``k`` away that its own subs do not explain had a
  segment exactly ``k`` away; a hit that sank nothing sails with its sub (the public
  ``x``). Each facing's chance of being there is weighed, and a hypothesis that is not
  there keeps only the chance that another facing's sub is (the last two boards' marks).
* **A sunk sub** shows its facing and length: with one sub a facing (the default fleet),
  that facing is done with; its length leaves the pool.
* **Where to fire.** After this turn's move, each cell's chance of holding a segment is
  summed over the facings (each facing's hypotheses share one sub's worth); the charges go
  to the likeliest cells, never under its own subs.

Pure: no I/O, randomness only from the source it is given (ties).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import PlayerId, Said
from bot.games.sonar.board import Board, Cell, Facing
from bot.games.sonar.fleet import fleet_lengths
from bot.games.sonar.state import Phase, ShotResult
from bot.games.sonar.views import BoardView, PrivateView

SPREAD = 0.35
"""What is left of a cell's chance next to a charge already chosen (charges close
together tell less), unless the chance is high."""
FACINGS = tuple(Facing)


@dataclass
class Hypotheses:
    """One captain's memory: for each facing and length, the bow cells (as indices) a sub
    may have now (after ``time`` moves)."""

    board: Board
    time: int = 0
    alive: dict[tuple[Facing, int], set[int]] = field(default_factory=dict)
    read: set[int] = field(default_factory=set)
    """The turns whose boards were taken in."""
    lengths: Counter[int] = field(default_factory=Counter)
    done: set[Facing] = field(default_factory=set)
    sunk_seen: set[tuple[PlayerId, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        board = self.board
        self.ahead = {
            f: [board.index(board.step(board.cell_at(i), f)) for i in range(board.size)]
            for f in FACINGS
        }
        self.behind = {f: self.ahead[f.opposite] for f in FACINGS}

    def start(self, lengths: Counter[int]) -> None:
        self.lengths = lengths
        every = set(range(self.board.size))
        self.alive = {(f, n): set(every) for f in FACINGS for n in lengths}

    def sail(self, time: int) -> None:
        """Move every hypothesis on to ``time`` moves."""
        while self.time < time:
            for (f, _), bows in self.alive.items():
                ahead = self.ahead[f]
                bows_now = {ahead[b] for b in bows}
                bows.clear()
                bows |= bows_now
            self.time += 1

    def rule_out(self, cells: set[int]) -> None:
        """No segment of any sub is on ``cells`` now."""
        if not cells:
            return
        for (f, length), bows in self.alive.items():
            ahead = self.ahead[f]
            gone = set()
            for cell in cells:
                bow = cell
                for _ in range(length):  # the bows that put a segment on ``cell``
                    gone.add(bow)
                    bow = ahead[bow]
            bows -= gone

    def bows_over(self, f: Facing, length: int, cells: set[int], moves: int) -> set[int]:
        """The bows, ``moves`` moves after, of the hypotheses with a segment on ``cells``."""
        ahead = self.ahead[f]
        bows = set()
        for cell in cells:
            bow = cell
            for _ in range(length):
                bows.add(bow)
                bow = ahead[bow]
        for _ in range(moves):
            bows = {ahead[b] for b in bows}
        return bows

    def segments(self, f: Facing, length: int, bow: int) -> list[int]:
        behind = self.behind[f]
        cells = [bow]
        for _ in range(length - 1):
            bow = behind[bow]
            cells.append(bow)
        return cells

    def take_in(self, shown: BoardView, own: set[int], viewer: PlayerId) -> None:
        """A board's marks, at its time (``after`` moves)."""
        if shown.after in self.read:
            return
        self.read.add(shown.after)
        board = self.board
        self.sail(shown.after)
        for sunk in shown.sunk:
            if sunk.owner == viewer or (sunk.owner, sunk.sub) in self.sunk_seen:
                continue
            self.sunk_seen.add((sunk.owner, sunk.sub))
            self.done.add(sunk.facing)
            if self.lengths[sunk.length] > 0:
                self.lengths[sunk.length] -= 1
        for key in [k for k in self.alive if k[0] in self.done or self.lengths[k[1]] <= 0]:
            del self.alive[key]
        empty = set(own)
        for shot in shown.shots:
            if shot.result is ShotResult.MISS and shot.distance is not None:
                at = shot.cell
                for index in range(board.size):
                    if board.distance(board.cell_at(index), at) < shot.distance:
                        empty.add(index)
        self.rule_out(empty)


class StrongSonarRobot:
    """Sonar's ``strong`` robot: one :class:`Hypotheses` memory a player."""

    demo_players = 2

    def __init__(self) -> None:
        self._memories: dict[PlayerId, Hypotheses] = {}

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        if not isinstance(view, PrivateView):
            return []
        public = view.public
        if public.phase is not Phase.BATTLE or public.to_move != player:
            return []
        allowed = public.shots_allowed
        if allowed < 1:
            return []
        memory = self._memories.get(player)
        board = Board(public.rows)
        if memory is None or memory.board != board or public.board.after < memory.time:
            memory = self._memories[player] = Hypotheses(board)
            memory.start(self.enemy_lengths(view))
        own_now = {board.index(c) for sub in view.subs if not sub.sunk for c in sub.cells}
        if public.previous is not None and view.previous_subs is not None:
            own_then = {
                board.index(c) for sub in view.previous_subs if not sub.sunk for c in sub.cells
            }
            memory.take_in(public.previous, own_then, player)
        memory.take_in(public.board, own_now, player)
        cells = self.targets(view, memory, allowed, rng)
        return [Said(", ".join(map(str, cells)), public=True)]

    @staticmethod
    def enemy_lengths(view: PrivateView) -> Counter[int]:
        """The other fleets' lengths (every fleet has the same, as the options say)."""
        ships = len(view.subs)
        enemies = sum(1 for c in view.public.captains if c.id != view.viewer)
        counts: Counter[int] = Counter()
        for length in fleet_lengths(ships):
            counts[length] += enemies
        return counts

    def targets(
        self, view: PrivateView, memory: Hypotheses, allowed: int, rng: random.Random
    ) -> list[Cell]:
        board = memory.board
        public = view.public
        hits = {board.index(c) for c in public.board.hits} - {
            board.index(c) for sub in view.subs for c in sub.cells
        }
        # after this turn's move
        forbidden = {
            board.index(board.step(c, sub.facing))
            for sub in view.subs
            if not sub.sunk
            for c in sub.cells
        }
        rings = self.rings(view, memory)
        for hit in hits:  # a segment is certainly there now
            for f, length in memory.alive:
                rings.setdefault((f, length), []).append(memory.bows_over(f, length, {hit}, 0))
        count = max((len(r) for r in rings.values()), default=0)
        total_lengths = sum(max(n, 0) for n in memory.lengths.values())
        weights: dict[tuple[Facing, int], dict[int, float]] = {}
        for (f, length), bows in memory.alive.items():
            prior = max(memory.lengths[length], 0) / max(total_lengths, 1)
            weights[(f, length)] = dict.fromkeys(bows, prior)
        for number in range(count):
            # "some sub lies here": each facing's chance to, and what is left of a
            # hypothesis that does not when the others would have to
            on: dict[tuple[Facing, int], set[int]] = {
                key: rings[key][number] & weights[key].keys()
                for key in weights
                if key in rings and number < len(rings[key])
            }
            chance: dict[Facing, list[float]] = {}
            for key, table in weights.items():
                inside = sum(table[b] for b in on.get(key, ()))
                part = chance.setdefault(key[0], [0.0, 0.0])
                part[0] += inside
                part[1] += sum(table.values())
            q = {f: (a / b if b else 0.0) for f, (a, b) in chance.items()}
            for key, table in weights.items():
                others = 1.0
                for f, value in q.items():
                    if f != key[0]:
                        others *= 1 - value
                off = max(1 - others, 0.02)
                inside_bows = on.get(key, set())
                for bow in table:
                    if bow not in inside_bows:
                        table[bow] *= off
        density = [0.0] * board.size
        totals: dict[Facing, float] = {}
        for (f, _), table in weights.items():
            totals[f] = totals.get(f, 0.0) + sum(table.values())
        for (f, length), table in weights.items():
            total = totals[f]
            if total <= 0:
                continue
            ahead = memory.ahead[f]
            for bow, weight in table.items():
                share = weight / total
                for c in memory.segments(f, length, bow):
                    density[ahead[c]] += share
        chosen: list[int] = []
        score = {i: density[i] for i in range(board.size) if i not in forbidden}
        while len(chosen) < allowed and score:
            top = max(score.values())
            best = [i for i, d in score.items() if d >= top * 0.999]
            pick = rng.choice(best)
            chosen.append(pick)
            del score[pick]
            if density[pick] < 0.5:
                # a searching charge: the next is worth more elsewhere
                at = board.cell_at(pick)
                for i in score:
                    if board.distance(board.cell_at(i), at) <= 2:
                        score[i] *= SPREAD
        return [board.cell_at(i) for i in chosen]

    @staticmethod
    def rings(view: PrivateView, memory: Hypotheses) -> dict[tuple[Facing, int], list[set[int]]]:
        """For each facing and length, the bows (now) of the hypotheses on each ring of the
        last two boards' misses that its own subs do not explain."""
        board = memory.board
        public = view.public
        shown = [(public.board, view.subs)]
        if public.previous is not None and view.previous_subs is not None:
            shown.append((public.previous, view.previous_subs))
        found: dict[tuple[Facing, int], list[set[int]]] = {}
        for seen, subs in shown:
            own = [c for sub in subs if not sub.sunk for c in sub.cells]
            moves = memory.time - seen.after
            for shot in seen.shots:
                if shot.result is not ShotResult.MISS or shot.distance is None:
                    continue
                if any(board.distance(shot.cell, c) == shot.distance for c in own):
                    continue  # its own sub was that far: the mark says nothing of others
                ring = {
                    i
                    for i in range(board.size)
                    if board.distance(board.cell_at(i), shot.cell) == shot.distance
                }
                for f, length in memory.alive:
                    found.setdefault((f, length), []).append(
                        memory.bows_over(f, length, ring, moves)
                    )
        return found


STRONG_ROBOT = StrongSonarRobot()
