"""Silent Ships: an attack's resolution (≤ 1 ms) and the public board picture against a
plain grid of the same size drawn and PNG-encoded (≤ 2×), as issue 18 asks."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from benchmarks.render import alternating, plain_grid
from benchmarks.timing import Figure, per_call_seconds
from bot.games.base import Channel, PlayerRef
from bot.games.silentships import SILENT_SHIPS, SilentShipsState
from bot.games.silentships.orders import Pass
from bot.games.silentships.views import PublicView
from renderers.avatars import generated_avatar
from renderers.silentships.picture import compose, public_tokens, render_public

GAME = SILENT_SHIPS
CROWDED = {
    "first": "joined",
    "deck1": "missile,frigate,ram,ammo,speed,salvage,sub,fire,specops,patrol,flag",
    "deck2": "patrol,missile,fire,sub,frigate,ram,ammo,speed,salvage,specops,flag",
}
CROWDED_ORDERS = (
    # Turn 1, ahab: a face-up Missile Boat on C1 and a Frigate heading for C2.
    ("p1", "play missile at C1"),
    ("p1", "reveal C1"),
    ("p1", "play frigate at D1"),
    ("p1", "move D1 to D2 discard speed"),
    ("p1", "end"),
    # Turn 2, nemo: a Patrol Ship to C3, a face-up Missile Boat on C4 behind it.
    ("p2", "play patrol at C4"),
    ("p2", "move C4 to C3 discard sub"),
    ("p2", "play missile at C4"),
    ("p2", "reveal C4"),
    ("p2", "end"),
    # Turns 3 to 6: a Ramming Ship to B3, the Frigate to D3, a Fire Ship for nemo.
    ("p1", "play ram at B1"),
    ("p1", "move B1 to B2 discard salvage"),
    ("p1", "end"),
    ("p2", "play fire at D4"),
    ("p2", "end"),
    ("p1", "move B2 to B3 discard fire"),
    ("p1", "move D2 to D3 discard sub"),
    ("p1", "end"),
    ("p2", "end"),
    # Turn 7, ahab attacks C3 from D3 with the Ramming Ship (B3) and the Missile Boat
    # (C1, two squares away); nemo answers with the Missile Boat (C4).
    ("p1", "move D3 to C3 discard specops"),
    ("p1", "support from B3 discard patrol"),
    ("p1", "support from C1 discard flag"),
    ("p1", "go"),
    ("p2", "support from C4 discard frigate"),
)
"""A game brought to the moment an attack is answered: an attacker, a target and three
supports, one of them from two squares away — the defender's ``pass`` then resolves it."""


def crowded_attack() -> SilentShipsState:
    state = GAME.rules.new_game(CROWDED)
    for pid, name in (("p1", "ahab"), ("p2", "nemo")):
        state = GAME.rules.join(state, PlayerRef(pid, name))
    state = GAME.rules.start(state, random.Random(0), None).state
    for player, text in CROWDED_ORDERS:
        accepted = GAME.rules.accept(
            state, player, GAME.rules.parse(text), Channel.PRIVATE, random.Random(1)
        )
        state = accepted.state
        if accepted.resolve_now:
            state = GAME.rules.resolve(state, (), random.Random(2)).state
    assert state.attack is not None and len(state.attack.supports) == 3, "no crowded attack"
    return state


def attack_ms(*, repeats: int, calls: int) -> float:
    """Median milliseconds of the defender's ``pass``: reveals, totals, sinking, moving in,
    the record's events — the whole of step 4."""
    state = crowded_attack()
    rng = random.Random(3)

    def resolve() -> None:
        GAME.rules.accept(state, "p2", Pass(), Channel.PRIVATE, rng)

    return per_call_seconds(resolve, calls=calls, repeats=repeats) * 1000


def board_ratio(*, repeats: int, calls: int) -> tuple[float, float, float, tuple[int, int]]:
    """The public picture of the attack above (the busiest board: arrows, supports, card
    backs with avatars) ÷ a plain grid of its size, both drawn and PNG-encoded as the host
    encodes every picture (a palette PNG, :func:`renderers.encode.png_bytes`)."""
    view = GAME.views.view(crowded_attack(), None)
    assert isinstance(view, PublicView)
    avatars = {a.id: generated_avatar(a.id, a.name, 128).convert("RGB") for a in view.admirals}
    now = datetime(2026, 1, 1, tzinfo=UTC)
    options = {"title": "#silentships game 1", "deadline": now + timedelta(hours=8), "now": now}
    size = compose(view, public_tokens(view), avatars=avatars, **options).size

    def draw_board() -> bytes:
        return render_public(view, avatars=avatars, **options)

    def draw_floor() -> bytes:
        return plain_grid(size[0], size[1], view.rows, view.cols)

    board_s, floor_s = alternating(draw_board, draw_floor, calls=calls, repeats=repeats)
    return board_s / floor_s, board_s, floor_s, size


def run(*, quick: bool) -> list[Figure]:
    attack = attack_ms(repeats=5 if quick else 15, calls=200)
    ratio, board_s, floor_s, (width, height) = board_ratio(
        repeats=5 if quick else 11, calls=5 if quick else 10
    )
    return [
        Figure(
            "silentships_attack_ms",
            attack,
            1.0,
            unit=" ms",
            detail="step 4 of an attack with 3 supports (one from 2 squares away): the "
            "defender's pass, reveals, totals, sinking, moving in, events",
        ),
        Figure(
            "silentships_board_ratio",
            ratio,
            2.0,
            floor=f"plain {width}x{height} grid + RGB PNG",
            detail=f"public board during that attack (palette PNG) {board_s * 1000:.1f} ms, "
            f"floor {floor_s * 1000:.1f} ms",
        ),
    ]
