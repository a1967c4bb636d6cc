"""Placing fleets at random so that no two subs ever meet (``shared/rules/sonar.md`` §3).

The host places every fleet it is asked to (all of them under ``placement=random``;
under ``given``, those of players who sent none, around the fleets sent), such that
no two subs share a cell at any turn of the game. Each placed player's subs face the
six directions as evenly as possible (one each when there are six or fewer).

Unlike the original's brute force, this search is systematic, so it fails only when
no arrangement exists or when its work budget runs out: a backtracking search over
subs, facings and bows, randomised by the game's ``rng``. The geometry prunes it
(encounters.py): after each sub is placed, every kind of sub still to place (facing,
length) gets the mask of bows at which it would meet one placed so far, so a sub with
no bow left ends the branch at once; the sub with the fewest bows left goes next;
each player's remaining subs must still be able to take the facings the balance needs
(a small flow problem); and when no sub is fixed, the torus looks the same from every
cell, so the first sub needs only one bow per facing. Runs restart with fresh random
choices after growing allowances of tries (Luby's sequence), which tames the heavy
tail of backtracking; a run that ends within its allowance has tried everything.
Whether two subs meet is exact over a whole period of the fleets' movement (``4n``
turns), from the geometry in encounters.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from bot.games.sonar.board import Board, Facing
from bot.games.sonar.encounters import Course, MaskShifter, indices_of, meeting_offsets
from bot.games.sonar.fleet import fleet_lengths

SEARCH_BUDGET = 9_000
"""The rules' "at most 10 s" as work, since the rules never read a clock: how many sub
placements one search may try. Calibrated on the development machine (2 shared cores,
Python 3.11): the costliest searches, 4 players with 14 to 16 subs each on a 20- to
22-row board, try 1,100 to 1,500 placements a second there, so 9,000 take 6 to 8 s;
every other size tries faster, and most searches need under a hundred placements.
Together with :data:`FALLBACK_BUDGET`, a refused start stays near 10 s at most."""

FALLBACK_BUDGET = 3_000
"""The work shared by the sizes tried after a failure, to name the largest ``ships`` that
fits (a fleet smaller than the limit is usually found in a few dozen placements)."""

FACINGS = tuple(Facing)


@dataclass(frozen=True)
class SearchResult:
    """``fleets``: per player asked for, the subs in the order of their lengths (None:
    not found). ``complete``: the search tried every arrangement, so a failure proves
    that none exists. ``tried``: the placements it tried."""

    fleets: tuple[tuple[Course, ...], ...] | None
    complete: bool
    tried: int


def place_fleets(
    board: Board,
    fixed: Sequence[Course],
    wanted: Sequence[Sequence[int]],
    rng: random.Random,
    budget: int = SEARCH_BUDGET,
) -> SearchResult:
    """Fleets for players with the given lengths (``wanted[k]`` in fleet order), around
    the ``fixed`` subs, none of them ever meeting another.

    Backtracking has a heavy tail: an early choice that leaves no room is found out only
    deep down, after many tries. So the search restarts, with fresh random choices, after
    a number of tries that follows Luby's sequence (1, 1, 2, 1, 1, 2, 4, … times
    ``RESTART_UNIT``): the same budget then finds arrangements far more often, and a run
    that ends within its allowance has tried everything, which proves that none exists."""
    tried = 0
    for allowance in _luby(RESTART_UNIT):
        allowance = min(allowance, budget - tried)
        if allowance <= 0:
            return SearchResult(None, complete=False, tried=tried)
        search = _Search(board, fixed, wanted, rng, allowance)
        try:
            found = search.run()
        except _OutOfBudget:
            tried += search.tried
            continue
        tried += search.tried
        # The run ended within its allowance: it found fleets, or proved there are none.
        return SearchResult(found, complete=True, tried=tried)
    raise AssertionError("Luby's sequence never ends")


def largest_fleet(
    board: Board, players: int, at_most: int, rng: random.Random, budget: int = FALLBACK_BUDGET
) -> int:
    """The largest ``ships``, ``at_most`` or fewer, for which every one of ``players``
    fleets was placed at random (0 if none): the figure a refused start names. Sizes are
    tried upwards from one sub each, since small fleets are found in a few tries, until
    one is not found; each gets what is left of ``budget``, and at least
    :data:`LEAST_TRY` tries."""
    left = budget
    largest = 0
    for ships in range(1, at_most + 1):
        result = place_fleets(
            board, [], [fleet_lengths(ships)] * players, rng, max(left, LEAST_TRY)
        )
        left -= result.tried
        if result.fleets is None:
            break
        largest = ships
    return largest


LEAST_TRY = 200
"""Tries any size gets when looking for the largest that fits (one sub each fits in a few)."""

RESTART_UNIT = 100
"""Tries per unit of Luby's restart sequence."""


def _luby(unit: int) -> Iterator[int]:
    """``unit`` times Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …"""
    index = 1
    while True:
        yield unit * _luby_term(index)
        index += 1


def _luby_term(index: int) -> int:
    """The ``index``-th term (from 1) of Luby's sequence."""
    while True:
        k = index.bit_length()
        if index == (1 << k) - 1:
            return 1 << (k - 1)
        index -= (1 << (k - 1)) - 1


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class _Balance:
    """How evenly a player's facings must spread: each facing ``base`` or ``base + 1``
    times, with exactly ``extra`` facings at ``base + 1``. Facings are numbered 0..5."""

    base: int
    extra: int

    @staticmethod
    def of(subs: int) -> _Balance:
        base, extra = divmod(subs, len(FACINGS))
        return _Balance(base, extra)

    def allowed(self, counts: Sequence[int]) -> list[int]:
        """The facings one more sub may take."""
        extra_used = sum(1 for count in counts if count > self.base)
        return [
            f
            for f, count in enumerate(counts)
            if count < self.base or (count == self.base and extra_used < self.extra)
        ]

    def can_finish(self, counts: Sequence[int], groups: Sequence[tuple[int, list[int]]]) -> bool:
        """Whether the remaining subs (``groups``: how many, and the facings they still
        have room for) can take facings that complete the balance: a flow from the
        groups through each facing's base places and its one extra place (the extra
        places share one count) to the sink."""
        extra_left = self.extra - sum(1 for count in counts if count > self.base)
        # Nodes: 0 source, 1 sink, 2 extra pool, 3..8 base places, 9..14 extra places,
        # then one node per group.
        size = 15 + len(groups)
        capacity = [[0] * size for _ in range(size)]
        capacity[2][1] = extra_left
        for f, count in enumerate(counts):
            capacity[3 + f][1] = max(0, self.base - count)
            capacity[9 + f][2] = 1 if count <= self.base else 0
        needed = 0
        for g, (subs, facings) in enumerate(groups):
            node = 15 + g
            capacity[0][node] = subs
            needed += subs
            for f in facings:
                capacity[node][3 + f] = subs
                capacity[node][9 + f] = 1
        return _max_flow(capacity) == needed


def _max_flow(capacity: list[list[int]]) -> int:
    """Ford–Fulkerson from node 0 to node 1 on a graph of a few dozen nodes."""
    size = len(capacity)
    flow = 0
    while True:
        parent = [-1] * size
        parent[0] = 0
        stack = [0]
        while stack and parent[1] < 0:
            node = stack.pop()
            row = capacity[node]
            for other in range(size):
                if row[other] > 0 and parent[other] < 0:
                    parent[other] = node
                    stack.append(other)
        if parent[1] < 0:
            return flow
        node = 1
        while node != 0:
            previous = parent[node]
            capacity[previous][node] -= 1
            capacity[node][previous] += 1
            node = previous
        flow += 1


@dataclass(frozen=True)
class _Group:
    """The subs of one player with one length: interchangeable, so placed in turn
    without trying their permutations."""

    player: int
    length: int
    kinds: int
    """The index of this length among the lengths to place (its kinds are
    ``6 * kinds + facing``)."""
    subs: int
    rank: int
    """A random tie-break, drawn once, so that equal choices are made at random."""


class _Search:
    """One randomised depth-first search, with an allowance of tries."""

    def __init__(
        self,
        board: Board,
        fixed: Sequence[Course],
        wanted: Sequence[Sequence[int]],
        rng: random.Random,
        budget: int,
    ) -> None:
        self.board = board
        self.shifter = MaskShifter(board)
        self.free_cells = self.shifter.full()
        self.rng = rng
        self.budget = budget
        self.tried = 0
        self.symmetric = not fixed
        self.lengths = sorted({length for lengths in wanted for length in lengths})
        groups = [
            (player, length, lengths.count(length))
            for player, lengths in enumerate(wanted)
            for length in sorted(set(lengths))
        ]
        ranks = list(range(len(groups)))
        rng.shuffle(ranks)
        self.groups = [
            _Group(player, length, self.lengths.index(length), subs, rank)
            for (player, length, subs), rank in zip(groups, ranks, strict=True)
        ]
        self.balances = [_Balance.of(len(lengths)) for lengths in wanted]
        self.wanted = wanted
        blocked = [0] * (len(FACINGS) * len(self.lengths))
        for course in fixed:
            blocked = self._block(blocked, course, range(len(self.lengths)))
        self.start_blocked = blocked

    def _block(self, blocked: list[int], placed: Course, lengths: Iterable[int]) -> list[int]:
        """``blocked`` with the bows at which each kind (of the given lengths, by index)
        would meet ``placed`` added."""
        rows = self.board.rows
        shift = self.shifter.shift
        new = list(blocked)
        for index in lengths:
            length = self.lengths[index]
            for f, facing in enumerate(FACINGS):
                offsets = meeting_offsets(rows, placed.facing, placed.length, facing, length)
                new[6 * index + f] |= shift(offsets, placed.bow)
        return new

    def run(self) -> tuple[tuple[Course, ...], ...] | None:
        counts = [[0] * len(FACINGS) for _ in self.wanted]
        left = [group.subs for group in self.groups]
        found = self._extend([], self.start_blocked, counts, left)
        if found is None:
            return None
        fleets = []
        for player, lengths in enumerate(self.wanted):
            own = sorted((course for p, course in found if p == player), key=lambda c: c.length)
            assert [c.length for c in own] == sorted(lengths)
            fleets.append(tuple(own))
        return tuple(fleets)

    def _extend(
        self,
        placed: list[tuple[int, Course]],
        blocked: list[int],
        counts: list[list[int]],
        left: list[int],
    ) -> list[tuple[int, Course]] | None:
        waiting = [g for g, subs in enumerate(left) if subs]
        if not waiting:
            return placed
        free = self.free_cells
        room = [-1] * len(blocked)

        def bows_left(kind: int) -> int:
            if room[kind] < 0:
                room[kind] = (free & ~blocked[kind]).bit_count()
            return room[kind]

        allowed = [
            balance.allowed(count) for balance, count in zip(self.balances, counts, strict=True)
        ]
        best: tuple[int, int, int, int] | None = None
        open_groups: dict[int, list[tuple[int, list[int]]]] = {}
        for g in waiting:
            group = self.groups[g]
            first = 6 * group.kinds
            open_facings = [f for f in range(6) if bows_left(first + f) > 0]
            if not open_facings:
                return None  # some sub of this group has no bow left, whatever its facing
            open_groups.setdefault(group.player, []).append((left[g], open_facings))
            size = sum(bows_left(first + f) for f in allowed[group.player])
            if size == 0:
                return None
            key = (size, -group.length, group.rank, g)
            if best is None or key < best:
                best = key
        for player, groups in open_groups.items():
            if any(len(facings) < 6 for _, facings in groups) and not self.balances[
                player
            ].can_finish(counts[player], groups):
                return None
        assert best is not None
        chosen = best[3]
        group = self.groups[chosen]
        first = 6 * group.kinds
        facings = [f for f in allowed[group.player] if bows_left(first + f) > 0]
        self.rng.shuffle(facings)
        new_left = list(left)
        new_left[chosen] -= 1
        still_needed = sorted({self.groups[g].kinds for g, subs in enumerate(new_left) if subs})
        for f in facings:
            bows = indices_of(free & ~blocked[first + f])
            self.rng.shuffle(bows)
            if self.symmetric and not placed:
                # Nothing fixed yet: every cell looks alike, so one bow stands for all.
                bows = bows[:1]
            for bow in bows:
                if self.tried >= self.budget:
                    raise _OutOfBudget
                self.tried += 1
                course = Course(self.board.cell_at(bow), FACINGS[f], group.length)
                new_counts = list(counts)
                new_counts[group.player] = list(counts[group.player])
                new_counts[group.player][f] += 1
                found = self._extend(
                    [*placed, (group.player, course)],
                    self._block(blocked, course, still_needed),
                    new_counts,
                    new_left,
                )
                if found is not None:
                    return found
        return None
