"""Sonar: placement that never collides, one turn on the largest board, and the board image.

The issue's goals, each beside its floor:

* placing every fleet at the default options (16 × 32, two captains with six subs each)
  takes at most 50 ms; on the largest board (24 × 48) with the default fleets (12 subs
  shared by 2, 3 or 4 captains), at most 2 s;
* the largest ``ships`` placed per board size and number of captains, as a table (the more,
  the better): the figure ``start`` would place, with the search's own budget;
* one turn on the largest board (every sub moves, then a full volley of charges, each miss
  measured to every sub) takes at most 5 ms;
* the public board image, drawn and PNG-encoded, takes at most twice as long as a plain hex
  grid of the same size drawn and encoded alike.
"""

from __future__ import annotations

import random
import statistics
import time

from benchmarks.render import alternating
from benchmarks.timing import Figure, per_call_seconds
from bot.games.base import Given, PlayerRef
from bot.games.sonar import SONAR, Order, SonarState
from bot.games.sonar.board import Board, _distance_table
from bot.games.sonar.encounters import _cosets, meeting_offsets
from bot.games.sonar.fleet import fleet_lengths
from bot.games.sonar.options import MAX_SHIPS, SHARED_SUBS
from bot.games.sonar.placement import place_fleets
from bot.games.sonar.resolution import random_targets
from bot.games.sonar.views import PublicView
from renderers.encode import png_bytes
from renderers.sonar import PICTURES, hexgrid, picture
from renderers.sonar import board as sonar_board

SIZES = tuple(range(4, 25, 2))
PLAYERS = (2, 3, 4)


def placement_ms(size: int, players: int, ships: int, *, repeats: int) -> tuple[float, float]:
    """(median ms with the geometry's tables made, ms of the first search, which makes
    them, as in a fresh process): every fleet of ``players`` captains placed at random."""
    board = Board(size)
    wanted = [fleet_lengths(ships)] * players
    for table in (meeting_offsets, _cosets, _distance_table):
        table.cache_clear()  # as a fresh process has them
    began = time.perf_counter()
    first = place_fleets(board, [], wanted, random.Random(0))
    cold = (time.perf_counter() - began) * 1000
    assert first.fleets is not None, f"no placement for {players} × {ships} on {size}"
    times = []
    for seed in range(1, repeats + 1):
        began = time.perf_counter()
        found = place_fleets(board, [], wanted, random.Random(seed))
        times.append((time.perf_counter() - began) * 1000)
        assert found.fleets is not None
    return statistics.median(times), cold


def largest_ships(size: int, players: int) -> tuple[int, bool]:
    """The largest ``ships`` placed for ``players`` captains on a board of ``size`` (found by
    bisection: a fleet is a prefix of the length sequence, so a smaller one fits whenever a
    larger one does), and whether the first size refused was proved impossible (True) or
    only not found within the search's budget (False)."""
    board = Board(size)
    low, high, proved = 0, MAX_SHIPS + 1, True
    while high - low > 1:
        middle = (low + high) // 2
        found = place_fleets(board, [], [fleet_lengths(middle)] * players, random.Random(middle))
        if found.fleets is not None:
            low = middle
        else:
            high, proved = middle, found.complete
    return low, proved or high > MAX_SHIPS


def ships_table(sizes: tuple[int, ...]) -> tuple[str, int]:
    """The table of :func:`largest_ships` (rows: sizes; columns: captains), and how many
    entries fell short because a search ran out of budget rather than proved none exists."""
    lines = ["size  " + "  ".join(f"{p} captains" for p in PLAYERS)]
    short = 0
    for size in sizes:
        cells = []
        for players in PLAYERS:
            ships, proved = largest_ships(size, players)
            short += not proved
            cells.append(f"{ships:>10}{'' if proved else '*'}")
        lines.append(f"{size:>4}  " + "  ".join(cells))
    return "\n".join(lines), short


def battle(size: int, players: int, ships: int | None = None) -> SonarState:
    """A battle on the board of ``size``, fleets placed at random, as turn 1 begins."""
    options = {"size": str(size)} if ships is None else {"size": str(size), "ships": str(ships)}
    state = SONAR.rules.new_game(options)
    for number in range(1, players + 1):
        state = SONAR.rules.join(state, PlayerRef(f"p{number}", f"captain{number}"))
    return SONAR.rules.start(state, random.Random(size), None).state


def volley(state: SonarState, seed: int) -> tuple[Order, list[Given[Order]]]:
    """A full volley for the captain to move: every charge allowed, at distinct cells."""
    player = state.to_move
    assert player is not None
    rng = random.Random(seed)
    # Cells drawn as `random` draws them (after the move), fired as plain cells.
    order = SONAR.rules.parse(
        ", ".join(map(str, random_targets(state, player, state.moves + 1, rng)))
    )
    return order, [Given(player, order, 0.0, 0)]


def turn_ms(size: int, players: int, ships: int | None, *, repeats: int, calls: int) -> float:
    """Median ms of one turn (the move, then a full volley) on a battle of ``size``."""
    state = battle(size, players, ships)
    state = SONAR.rules.resolve(
        state, volley(state, 1)[1], random.Random(1)
    ).state  # past the halved turn
    _, given = volley(state, 2)
    rng = random.Random(3)
    return (
        per_call_seconds(
            lambda: SONAR.rules.resolve(state, given, rng), calls=calls, repeats=repeats
        )
        * 1000
    )


def board_ratio(size: int, *, repeats: int, calls: int) -> tuple[float, float, float, str]:
    """(ratio, picture ms, floor ms, what the floor is): the public board after a turn of a
    four-captain battle on the board of ``size`` against a plain hex grid of the same rows,
    columns, hexagons and labels, drawn and PNG-encoded alike, timed alternately."""
    state = battle(size, 4)
    for seed in range(4):
        state = SONAR.rules.resolve(state, volley(state, seed)[1], random.Random(seed)).state
    view = SONAR.views.view(state, None)
    assert isinstance(view, PublicView) and view.board.shots
    options = {"title": "#sonar game 1", "deadline": None, "now": None}
    cell = picture.board_cell(size, 2 * size)
    labels = sonar_board.label_size(cell)

    def draw_board() -> bytes:
        return PICTURES.public(view, avatars={}, **options).png

    def draw_floor() -> bytes:
        return png_bytes(hexgrid.plain_hex_grid(size, 2 * size, cell=cell, label_size=labels))

    board_s, floor_s = alternating(draw_board, draw_floor, calls=calls, repeats=repeats)
    floor = f"plain {size}x{2 * size} hex grid, {cell:.0f} px cells + PNG"
    return board_s / floor_s, board_s * 1000, floor_s * 1000, floor


def run(*, quick: bool) -> list[Figure]:
    repeats = 5 if quick else 15
    default_ms, default_cold = placement_ms(16, 2, SHARED_SUBS // 2, repeats=repeats)
    largest = {
        players: placement_ms(24, players, SHARED_SUBS // players, repeats=repeats)
        for players in PLAYERS
    }
    worst_players = max(largest, key=lambda players: largest[players][0])
    worst_ms, worst_cold = largest[worst_players]
    table, short = ships_table(SIZES[::2] if quick else SIZES)
    turn = max(
        turn_ms(24, players, ships, repeats=repeats, calls=5 if quick else 20)
        for players, ships in ((4, None), (2, 16))
    )
    ratio, board_ms, floor_ms, floor = board_ratio(
        24, repeats=5 if quick else 11, calls=3 if quick else 5
    )
    placed_24 = largest_ships(24, 4)[0]
    return [
        Figure(
            "sonar_placement_default_ms",
            default_ms,
            50.0,
            unit=" ms",
            detail=f"16x32, 2 captains x 6 subs; first search of a fresh process {default_cold:.1f} ms",
        ),
        Figure(
            "sonar_placement_largest_board_ms",
            worst_ms,
            2000.0,
            unit=" ms",
            detail=(
                "24x48 with the default fleets: "
                + ", ".join(
                    f"{p} x {SHARED_SUBS // p} subs {largest[p][0]:.1f} ms" for p in PLAYERS
                )
                + f"; first search of a fresh process {worst_cold:.1f} ms"
            ),
        ),
        Figure(
            "sonar_largest_ships_24x48_4_captains",
            float(placed_24),
            float(SHARED_SUBS // 4),
            at_most=False,
            detail=(
                "largest ships placed (* = the search's budget ran out before proving none "
                f"fits; {short} such):\n" + table
            ),
        ),
        Figure(
            "sonar_turn_largest_board_ms",
            turn,
            5.0,
            unit=" ms",
            detail="24x48: 4 captains x 3 subs, and 2 captains x 16 subs (a 16-charge volley)",
        ),
        Figure(
            "sonar_board_image_ratio",
            ratio,
            2.0,
            floor=floor,
            detail=f"public board 24x48 {board_ms:.1f} ms, floor {floor_ms:.1f} ms",
        ),
    ]
