"""U-Boat Shootout: one round of 6 boats resolved, and the round's map against a plain grid.

The issue's goals: a round of 6 boats (every boat with an order: fire, move, ram) resolves
in at most 1 ms; the public map of that round, drawn and PNG-encoded, takes at most twice
as long as a plain grid of the same picture size drawn and encoded alike.
"""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta

from PIL import Image

from benchmarks.render import alternating, plain_grid
from benchmarks.timing import Figure, per_call_seconds
from bot.games.base import Channel, Given, PlayerRef
from bot.games.uboat import UBOAT, Order, UboatState
from bot.games.uboat.views import PublicView
from bot.host.runtime.collector import collector_paused
from renderers.uboat import render_public_map

STARTS = ("C2", "E3", "H2", "B8", "E7", "H8")
ORDERS = (
    "fire E3",  # Red hits Blue squarely (Blue's move is cancelled)
    "move up left",
    "ram down down",  # Green strikes H5
    "fire C7",  # Yellow captures island 3
    "ram down down",  # Purple strikes E1
    "move left left up",
)


def round_scene(size: int = 9) -> tuple[UboatState, list[Given[Order]]]:
    """Six boats on the default sea, as round 1 begins, and an order for each."""
    state = UBOAT.rules.new_game({"size": str(size)})
    players = [f"p{i + 1}" for i in range(len(STARTS))]
    for player in players:
        state = UBOAT.rules.join(state, PlayerRef(player, player))
    rng = random.Random(1)
    for player, cell in zip(players, STARTS, strict=True):
        state = UBOAT.rules.accept(
            state, player, UBOAT.rules.parse(f"start {cell}"), Channel.PRIVATE, rng
        ).state
    state = UBOAT.rules.start(state, rng, None).state
    given: list[Given[Order]] = []
    for sequence, (player, text) in enumerate(zip(players, ORDERS, strict=True), start=1):
        accepted = UBOAT.rules.accept(state, player, UBOAT.rules.parse(text), Channel.PRIVATE, rng)
        state = accepted.state
        assert accepted.standing is not None
        given.append(Given(player, accepted.standing, float(sequence), sequence))
    return state, given


def resolve_ms(*, repeats: int, calls: int) -> float:
    """Median milliseconds to resolve the round of :func:`round_scene` (built untimed)."""
    state, given = round_scene()
    rng = random.Random(7)

    def run() -> None:
        with collector_paused():  # as the turn clock resolves (bot/host/runtime/collector.py)
            UBOAT.rules.expire(state, "round:1", given, rng)

    return per_call_seconds(run, calls=calls, repeats=repeats) * 1000


def map_ratio(*, repeats: int, calls: int) -> tuple[float, float, float, tuple[int, int]]:
    """(ratio, map seconds, floor seconds, picture size): the public map after the round
    of :func:`round_scene` against a plain grid of the same size, timed alternately."""
    state, given = round_scene()
    after = UBOAT.rules.expire(state, "round:1", given, random.Random(7)).state
    view = UBOAT.views.view(after, None)
    assert isinstance(view, PublicView) and view.blasts and view.courses
    now = datetime(2026, 1, 1, tzinfo=UTC)
    options = {"title": "#uboat game 1", "deadline": now + timedelta(minutes=10), "now": now}

    def draw_map() -> bytes:
        return render_public_map(view, **options)

    width, height = Image.open(io.BytesIO(draw_map())).size

    def draw_floor() -> bytes:
        return plain_grid(width, height, view.size, view.size)

    map_s, floor_s = alternating(draw_map, draw_floor, calls=calls, repeats=repeats)
    return map_s / floor_s, map_s, floor_s, (width, height)


def run(*, quick: bool) -> list[Figure]:
    resolve = resolve_ms(repeats=5 if quick else 15, calls=200 if quick else 1000)
    ratio, map_s, floor_s, (width, height) = map_ratio(
        repeats=5 if quick else 11, calls=5 if quick else 10
    )
    return [
        Figure(
            "uboat_round_6_boats_ms",
            resolve,
            1.0,
            unit=" ms",
            detail="6 boats on 9x9, 2 fires, 2 moves, 2 rams (setup untimed)",
        ),
        Figure(
            "uboat_map_ratio",
            ratio,
            2.0,
            floor=f"plain {width}x{height} grid + RGB PNG",
            detail=f"map {map_s * 1000:.1f} ms, floor {floor_s * 1000:.1f} ms",
        ),
    ]
