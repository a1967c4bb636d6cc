"""Placing fleets (rules §2, §3): checking a captain's placement and placing at random.

A placement is checked on its own first (on the board, right lengths, straight,
an allowed loadout, the two ships apart), so that those refusals never depend
on anyone else's ships; only then is it compared with the ships other captains
have placed, as the conflict policy says.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping

from bot.games.base import PlacementError, PlayerId
from bot.games.bst.cells import Cell, row_label
from bot.games.bst.fleet import Loadout, Ship, ShipKind
from bot.games.bst.options import BstOptions
from bot.games.bst.orders import range_text
from bot.games.bst.state import BstState

RANDOM_TRIES = 200
"""Random draws per ship before falling back to listing every free spot (crowded boards)."""

_KIND_ORDER = {ShipKind.CARRIER: 0, ShipKind.SUBMARINE: 1, ShipKind.CRUISER: 2}


def board_text(options: BstOptions) -> str:
    return (
        f"the {options.rows}x{options.cols} board "
        f"(rows A-{row_label(options.rows - 1)}, columns 1-{options.cols})"
    )


def fleet_text(ships: Iterable[Ship]) -> str:
    """``carrier C1-C5, submarine A2``: a captain's own fleet, for their private acks."""
    return ", ".join(f"{ship.kind.value} {range_text(ship.cells)}" for ship in ships)


def fleet_order(ships: Iterable[Ship]) -> tuple[Ship, ...]:
    """Ships in a fixed order (carrier, submarine, cruisers by position), so a fleet's
    ship indices do not depend on how the captain wrote the placement."""
    return tuple(sorted(ships, key=lambda ship: (_KIND_ORDER[ship.kind], ship.cells)))


def loadouts_text(loadouts: tuple[Loadout, ...]) -> str:
    words = {
        Loadout.CARRIER_SUBMARINE: "a carrier (5 cells) and a submarine (1 cell)",
        Loadout.TWO_CRUISERS: "two cruisers (3 cells each)",
    }
    return " or ".join(words[loadout] for loadout in loadouts)


def check_fleet(
    ships: tuple[tuple[ShipKind, tuple[Cell, ...]], ...], options: BstOptions
) -> tuple[Ship, ...]:
    """The captain's placement on its own: §3's checks that need no one else's ships."""
    allowed = options.loadouts.loadouts
    example = (
        "`sub: A2, carrier: C1-C5`"
        if Loadout.CARRIER_SUBMARINE in allowed
        else "`cruiser: B2-B4, cruiser: E5-G5`"
    )
    kinds = sorted(kind.value for kind, _ in ships)
    if len(ships) != 2 or all(kinds != sorted(k.value for k in lo.kinds) for lo in allowed):
        named = ", ".join(kind.value for kind, _ in ships) or "no ship"
        raise PlacementError(
            f"a fleet is {loadouts_text(allowed)}; you sent {named}. Example: {example}"
        )
    for kind, cells in ships:
        written = range_text(cells) if cells else "nothing"
        if len(cells) != kind.length:
            raise PlacementError(
                f"the {kind.title} needs {kind.length} cell{'s' if kind.length > 1 else ''}, "
                f"{written} has {len(cells)}"
            )
        if not _straight(cells):
            raise PlacementError(
                f"the {kind.title} must be a straight run along a row or a column, not {written}"
            )
        off = [cell for cell in cells if not _on_board(cell, options)]
        if off:
            raise PlacementError(f"{off[0]} is off {board_text(options)}")
    first, second = (set(cells) for _, cells in ships)
    overlap = sorted(first & second)
    if overlap:
        raise PlacementError(
            f"your two ships overlap at {', '.join(map(str, overlap))}: place them apart"
        )
    return fleet_order(Ship(kind, tuple(sorted(cells))) for kind, cells in ships)


def _on_board(cell: Cell, options: BstOptions) -> bool:
    return 0 <= cell.row < options.rows and 0 <= cell.col < options.cols


def _straight(cells: tuple[Cell, ...]) -> bool:
    ordered = sorted(cells)
    if len(set(ordered)) != len(ordered):
        return False
    if all(c.row == ordered[0].row for c in ordered):
        return all(b.col - a.col == 1 for a, b in itertools.pairwise(ordered))
    if all(c.col == ordered[0].col for c in ordered):
        return all(b.row - a.row == 1 for a, b in itertools.pairwise(ordered))
    return False


def conflicts(
    ships: tuple[Ship, ...], state: BstState, player: PlayerId
) -> dict[PlayerId, list[Cell]]:
    """Other captains whose placed ships a placement overlaps, with the overlapping cells
    (all of them, where fleets drawn at random share a cell until setup closes)."""
    found: dict[PlayerId, list[Cell]] = {}
    occupied = state.occupancy(exclude=player)
    for ship in ships:
        for cell in ship.cells:
            if cell in occupied:
                for owner in state.owners_on(cell, player):
                    found.setdefault(owner, []).append(cell)
    return found


def place_at_random(
    options: BstOptions, taken: Mapping[Cell, object], rng: random.Random
) -> tuple[Ship, ...]:
    """A legal fleet that overlaps nothing in ``taken``, drawn with ``rng``.

    Raises PlacementError stating the board's capacity when no fleet fits.
    """
    loadouts = list(options.loadouts.loadouts)
    rng.shuffle(loadouts)
    for loadout in loadouts:
        used: set[Cell] = set()
        ships: list[Ship] = []
        # The longest ship first: it is the hardest to fit.
        for kind in sorted(loadout.kinds, key=lambda k: -k.length):
            cells = _random_spot(kind.length, options, taken, used, rng)
            if cells is None:
                break
            used.update(cells)
            ships.append(Ship(kind, cells))
        else:
            return fleet_order(ships)
    free = options.rows * options.cols - len(taken)
    raise PlacementError(
        f"there is no room left for a fleet on {board_text(options)}: it has "
        f"{options.rows * options.cols} cells, {free} free, and a fleet needs "
        f"{loadouts_text(options.loadouts.loadouts)} in straight free runs"
    )


def _random_spot(
    length: int,
    options: BstOptions,
    taken: Mapping[Cell, object],
    used: set[Cell],
    rng: random.Random,
) -> tuple[Cell, ...] | None:
    def free(cells: tuple[Cell, ...]) -> bool:
        return all(cell not in taken and cell not in used for cell in cells)

    if length > max(options.rows, options.cols):
        return None
    for _ in range(RANDOM_TRIES):
        horizontal = length == 1 or rng.random() < 0.5
        rows = options.rows - (0 if horizontal else length - 1)
        cols = options.cols - (length - 1 if horizontal else 0)
        if rows <= 0 or cols <= 0:
            continue
        row, col = rng.randrange(rows), rng.randrange(cols)
        # Cell by cell, stopping at the first one taken: on a crowd's board most draws
        # fail, and most fail at once.
        drawn: list[Cell] = []
        for i in range(length):
            cell = Cell(row, col + i) if horizontal else Cell(row + i, col)
            if cell in taken or cell in used:
                break
            drawn.append(cell)
        else:
            return tuple(drawn)
    # A crowded board: scan every spot once, from a random starting point, and take the
    # first free one (cost in board area, only at setup or a late join, and only when crowded).
    spots = [
        (
            horizontal,
            options.rows - (0 if horizontal else length - 1),
            options.cols - (length - 1 if horizontal else 0),
        )
        for horizontal in ((True,) if length == 1 else (True, False))
    ]
    spots = [spot for spot in spots if spot[1] > 0 and spot[2] > 0]
    total = sum(rows * cols for _, rows, cols in spots)
    offset = rng.randrange(total)
    for step in range(total):
        position = (offset + step) % total
        for horizontal, rows, cols in spots:
            if position < rows * cols:
                row, col = divmod(position, cols)
                cells = _line(Cell(row, col), length, horizontal)
                if free(cells):
                    return cells
                break
            position -= rows * cols
    return None


def _line(start: Cell, length: int, horizontal: bool) -> tuple[Cell, ...]:
    if horizontal:
        return tuple(Cell(start.row, start.col + i) for i in range(length))
    return tuple(Cell(start.row + i, start.col) for i in range(length))


PACKING_SHARE = 0.3
"""When the fleets still to place need more than this share of the free cells, random
draws would leave the board too fragmented; they are packed into free rows instead."""


def place_many_at_random(
    options: BstOptions, taken: Mapping[Cell, object], count: int, rng: random.Random
) -> list[tuple[Ship, ...]]:
    """Fleets for ``count`` captains, legal and apart from ``taken`` and from each other.

    A sparse board gets independent random fleets. A crowded one (thousands of captains)
    is packed: the free runs of each row (or, failing that, each column), in random
    order, are filled longest ship first,
    and the ships are dealt to captains at random, so it still fits when the fleets need
    almost the whole board. Raises PlacementError stating the capacity if they cannot fit.
    """
    free_cells = options.rows * options.cols - len(taken)
    if count * 6 <= PACKING_SHARE * free_cells:
        return _one_by_one(options, taken, count, rng)
    loadouts = [rng.choice(options.loadouts.loadouts) for _ in range(count)]
    # Rows first; a board too narrow for the longest ship across (20×4 and a carrier) is
    # packed down its columns instead; failing both, captain by captain, scanning.
    for along_rows in (True, False):
        packed = _pack(options, taken, loadouts, rng, along_rows=along_rows)
        if packed is not None:
            return packed
    try:
        return _one_by_one(options, taken, count, rng)
    except PlacementError:
        raise PlacementError(
            f"there is no room for {count} more fleets on {board_text(options)}: it has "
            f"{options.rows * options.cols} cells, {free_cells} free, and each fleet needs "
            f"{loadouts_text(options.loadouts.loadouts)}"
        ) from None


def _one_by_one(
    options: BstOptions, taken: Mapping[Cell, object], count: int, rng: random.Random
) -> list[tuple[Ship, ...]]:
    """Independent random fleets, each apart from ``taken`` and the ones before it."""
    occupied: dict[Cell, object] = dict(taken)
    fleets = []
    for _ in range(count):
        ships = place_at_random(options, occupied, rng)
        for ship in ships:
            occupied.update(dict.fromkeys(ship.cells, True))
        fleets.append(ships)
    return fleets


def _pack(
    options: BstOptions,
    taken: Mapping[Cell, object],
    loadouts: list[Loadout],
    rng: random.Random,
    *,
    along_rows: bool,
) -> list[tuple[Ship, ...]] | None:
    """Fill the free runs of each row (or column), in random order, longest ship first,
    dealing the ships to captains at random; None if they do not all fit."""
    wanted: dict[int, list[tuple[int, ShipKind]]] = {}
    for captain, loadout in enumerate(loadouts):
        for kind in loadout.kinds:
            wanted.setdefault(kind.length, []).append((captain, kind))
    lines, span = (options.rows, options.cols) if along_rows else (options.cols, options.rows)

    def cell(line: int, at: int) -> Cell:
        return Cell(line, at) if along_rows else Cell(at, line)

    runs: list[list[int]] = []  # [line, first free position, end position]
    for line in range(lines):
        at = 0
        while at < span:
            if cell(line, at) in taken:
                at += 1
                continue
            start = at
            while at < span and cell(line, at) not in taken:
                at += 1
            runs.append([line, start, at])
    rng.shuffle(runs)
    placed: dict[int, list[Ship]] = {}
    for length in sorted(wanted, reverse=True):
        items = wanted[length]
        rng.shuffle(items)
        for run in runs:
            while items and run[2] - run[1] >= length:
                captain, kind = items.pop()
                cells = tuple(cell(run[0], run[1] + i) for i in range(length))
                run[1] += length
                placed.setdefault(captain, []).append(Ship(kind, cells))
            if not items:
                break
        if items:
            return None
    return [fleet_order(placed[captain]) for captain in range(len(loadouts))]
