"""Sugar Dog: one action on a 24 × 24 board, and a captain's map against a plain grid.

The issue's goals: one action on the board of the largest game it names (24 × 24, the
board of 11 captains: N = 2 × captains + 2) resolves in at most 1 ms, timed as the host
spends it in the rules (``accept`` then ``resolve``), on a game well under way (mines
and torpedoes in the water, a long history); and a captain's map of that game, drawn
and PNG-encoded, takes at most twice as long as a plain grid of the same picture size
drawn and encoded alike.
"""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from PIL import Image

from benchmarks.render import alternating, plain_grid
from benchmarks.timing import Figure, per_call_seconds
from bot.games.base import Channel, Given, PlayerRef
from bot.games.sugardog import SUGARDOG, Phase, SugarDogState
from bot.games.sugardog.board import Cell, board_size
from bot.games.sugardog.robot import ROBOT
from bot.games.sugardog.views import PrivateView
from bot.host.runtime.collector import collector_paused
from renderers.sugardog.sea import render_private_map

CAPTAINS = 11
"""24 × 24 (the issue's "10-player board (24 × 24)": by the rules, 24 is 11 captains')."""
TURNS = 120
"""How far into the game the scene is: about eleven rounds, as the robots play it."""
ACTIONS = ("ping", "cruise up left", "torpedo right", "silent down", "mine")


def game_under_way(captains: int = CAPTAINS, turns: int = TURNS) -> SugarDogState:
    """A game of the demo's robots, ``turns`` turns in (or as far as it went)."""
    rng = random.Random(11)
    size = board_size(captains)
    state = SUGARDOG.rules.new_game({})
    for n in range(captains):
        state = SUGARDOG.rules.join(state, PlayerRef(f"p{n}", f"captain{n}"))
    for n in range(captains):
        cell = Cell(rng.randrange(size), rng.randrange(size))
        state = SUGARDOG.rules.accept(
            state, f"p{n}", SUGARDOG.rules.parse(str(cell)), Channel.PRIVATE, rng
        ).state
    state = SUGARDOG.rules.start(state, rng, None).state
    for _ in range(turns):
        if state.phase is not Phase.BATTLE or state.current is None:
            break
        mover = state.current
        (said,) = ROBOT.orders(SUGARDOG.views.view(state, mover), mover, rng)
        order = SUGARDOG.rules.parse(said.text)
        accepted = SUGARDOG.rules.accept(state, mover, order, Channel.PRIVATE, rng)
        state = SUGARDOG.rules.resolve(accepted.state, [Given(mover, order, 0.0, 0)], rng).state
    return state


def action_ms(state: SugarDogState, text: str, *, repeats: int, calls: int) -> float:
    """Median milliseconds of one action of the captain to move: accept, then resolve."""
    mover = state.current
    assert mover is not None
    order = SUGARDOG.rules.parse(text)
    rng = random.Random(7)

    def run() -> None:
        with collector_paused():  # as the host resolves (bot/host/runtime/collector.py)
            accepted = SUGARDOG.rules.accept(state, mover, order, Channel.PRIVATE, rng)
            SUGARDOG.rules.resolve(accepted.state, [Given(mover, order, 0.0, 0)], rng)

    return per_call_seconds(run, calls=calls, repeats=repeats) * 1000


def legal(state: SugarDogState, text: str) -> bool:
    try:
        assert state.current is not None
        SUGARDOG.rules.accept(
            state, state.current, SUGARDOG.rules.parse(text), Channel.PRIVATE, random.Random()
        )
    except Exception:
        return False
    return True


def map_ratio(
    state: SugarDogState, *, repeats: int, calls: int
) -> tuple[float, float, float, tuple[int, int]]:
    """(ratio, map seconds, floor seconds, picture size): the map of the captain to move
    against a plain grid of the same size, timed alternately."""
    assert state.current is not None
    view = SUGARDOG.views.view(state, state.current)
    assert isinstance(view, PrivateView)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    options: dict[str, Any] = {
        "title": "#sugardog game 1",
        "deadline": now + timedelta(hours=24),
        "now": now,
    }

    def draw_map() -> bytes:
        return render_private_map(view, **options)

    width, height = Image.open(io.BytesIO(draw_map())).size

    def draw_floor() -> bytes:
        return plain_grid(width, height, state.size, state.size)

    map_s, floor_s = alternating(draw_map, draw_floor, calls=calls, repeats=repeats)
    return map_s / floor_s, map_s, floor_s, (width, height)


def run(*, quick: bool) -> list[Figure]:
    state = game_under_way()
    assert state.size == 24 and state.phase is Phase.BATTLE
    repeats, calls = (5, 50) if quick else (11, 200)
    timed = {
        text: action_ms(state, text, repeats=repeats, calls=calls)
        for text in ACTIONS
        if legal(state, text)
    }
    slowest = max(timed, key=lambda text: timed[text])
    afloat = sum(1 for c in state.captains if c.afloat)
    in_water = sum(len(c.mines) + len(c.torpedoes) for c in state.captains)
    ratio, map_s, floor_s, (width, height) = map_ratio(
        state, repeats=5 if quick else 11, calls=3 if quick else 6
    )
    return [
        Figure(
            "sugardog_action_24x24_ms",
            timed[slowest],
            1.0,
            unit=" ms",
            detail=(
                f"slowest of {', '.join(f'{t} {ms:.3f} ms' for t, ms in timed.items())}; "
                f"turn {state.turn}, {afloat} of {CAPTAINS} afloat, {in_water} mines and "
                f"torpedoes in the water"
            ),
        ),
        Figure(
            "sugardog_map_ratio",
            ratio,
            2.0,
            floor=f"plain {width}x{height} grid + RGB PNG",
            detail=f"captain's map {map_s * 1000:.1f} ms, floor {floor_s * 1000:.1f} ms",
        ),
    ]
