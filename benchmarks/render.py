"""The public map (20x20, 12 captains with avatars) against a plain Pillow grid of its size."""

from __future__ import annotations

import gc
import io
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from PIL import Image, ImageDraw

from benchmarks import fixtures
from benchmarks.timing import Figure
from bot.games.bst import BST
from bot.games.bst.views import PublicView
from renderers.avatars import generated_avatar
from renderers.bst.public_map import render_public_map

AVATAR_PIXELS = 128
"""Downloaded avatars are kept at about this size (Discord's small avatar)."""


def public_scene(captains: int = 12, size: int = 20) -> tuple[PublicView, dict[str, Image.Image]]:
    """A battle after a turn in which every captain fired, with each captain's avatar."""
    state = fixtures.battle(captains, size, size)
    orders = fixtures.mixed_orders(state, shots=1.0, moves=0.0)
    state = BST.rules.resolve(state, fixtures.given(orders), random.Random(5)).state
    # A second volley, so the map also has wrecks and hits of earlier turns to draw.
    orders = fixtures.mixed_orders(state, shots=1.0, moves=0.0, seed=9)
    view = BST.views.view(
        BST.rules.resolve(state, fixtures.given(orders), random.Random(6)).state, None
    )
    assert isinstance(view, PublicView)
    avatars = {
        c.id: generated_avatar(c.id, c.name, AVATAR_PIXELS).convert("RGB") for c in view.captains
    }
    return view, avatars


def reference_png(image: Image.Image) -> bytes:
    """PNG-encoded as every picture was until issue 25 (RGB, zlib level 6, Pillow's
    adaptive filter): the floors' fixed workload. A floor stands for the machine's speed in
    the same run; encoded with today's palette encoder, a plain grid (a handful of colours)
    gets four times cheaper while a picture gets twice cheaper, and every ratio would rise
    because the pictures got faster."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def plain_grid(width: int, height: int, rows: int, cols: int) -> bytes:
    """The floor: a grid of the same size drawn with Pillow and PNG-encoded as the
    reference (:func:`reference_png`)."""
    image = Image.new("RGB", (width, height), (18, 32, 48))
    draw = ImageDraw.Draw(image)
    margin = 40
    cell = min((width - 2 * margin) // cols, (height - 2 * margin) // rows)
    for i in range(cols + 1):
        x = margin + i * cell
        draw.line((x, margin, x, margin + rows * cell), fill=(60, 90, 120), width=1)
    for i in range(rows + 1):
        y = margin + i * cell
        draw.line((margin, y, margin + cols * cell, y), fill=(60, 90, 120), width=1)
    return reference_png(image)


def alternating(
    first: Callable[[], object],
    second: Callable[[], object],
    *,
    calls: int,
    repeats: int,
    warmup: int = 1,
) -> tuple[float, float]:
    """Per-call seconds of ``first`` and of ``second``, as :func:`per_call_seconds` gives them,
    but with their batches taken in turn: on a shared machine a slow spell then weighs on
    both sides of the ratio instead of on one."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(warmup):
        first()
        second()
    for _ in range(repeats):
        for run, out in ((first, times[0]), (second, times[1])):
            gc.collect()
            start = time.perf_counter()
            for _ in range(calls):
                run()
            out.append((time.perf_counter() - start) / calls)
    return statistics.median(times[0]), statistics.median(times[1])


def render_ratio(captains: int = 12, size: int = 20, *, repeats: int, calls: int) -> float:
    """Median time of the public map ÷ median time of the plain grid, measured alternately."""
    view, avatars = public_scene(captains, size)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    options = {"title": "#bst game 1", "deadline": now + timedelta(hours=8), "now": now}

    def draw_map() -> bytes:
        return render_public_map(view, avatars=avatars, **options)

    width, height = Image.open(io.BytesIO(draw_map())).size

    def draw_floor() -> bytes:
        return plain_grid(width, height, size, size)

    map_s, floor_s = alternating(draw_map, draw_floor, calls=calls, repeats=repeats)
    render_ratio.last = (map_s, floor_s, width, height)  # type: ignore[attr-defined]
    return map_s / floor_s


def run(*, quick: bool) -> list[Figure]:
    ratio = render_ratio(repeats=5 if quick else 11, calls=5 if quick else 10)
    map_s, floor_s, width, height = render_ratio.last  # type: ignore[attr-defined]
    return [
        Figure(
            "render_public_ratio",
            ratio,
            2.0,
            floor=f"plain {width}x{height} grid + RGB PNG",
            detail=f"map {map_s * 1000:.1f} ms (a palette PNG), floor {floor_s * 1000:.1f} ms "
            "(the reference RGB PNG)",
        )
    ]
