"""The renderers' caches and shortcuts give exactly the pixels of drawing from scratch.

Masks, name tags, text patches, round avatars and the static layers of maps and replay frames
are kept between calls; these tests compare each shortcut with the plain Pillow drawing it
stands for, and whole pictures drawn with cold caches with pictures drawn with warm ones.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw
from render_views import DEADLINE, NOW, medium_public, revealed_game, small_private, small_public

from renderers import avatars, marks, style
from renderers.avatars import round_avatar
from renderers.bst import frames as replay_frames
from renderers.bst import public_map
from renderers.bst.frames import ReplayFrame, render_replay
from renderers.bst.private_board import render_private_board
from renderers.bst.public_map import render_public_map

CACHES = [
    style._builtin_font,
    style._fallback_font,
    style.text_width,
    style.fit_text,
    style._fit_names,
    style._text_box,
    style._text_patch,
    avatars._round_mask,
    marks._mask,
    marks.name_tag,
    public_map._cached_base,
    public_map._generated_round,
    replay_frames._backdrop,
]


def clear_caches() -> None:
    for cache in CACHES:
        cache.cache_clear()
    with avatars._ROUND_LOCK:
        avatars._ROUND_CACHE.clear()


@pytest.fixture
def cold() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_cached_text_is_the_same_pixels_as_drawn_text(mode: str) -> None:
    rng = random.Random(4)
    style._text_patch.cache_clear()
    for _ in range(150):
        size = rng.randint(9, 40)
        text = "".join(
            rng.choice("Turn 12 of ABC xyz #bst, gjpqy!") for _ in range(rng.randint(1, 18))
        )
        xy = (rng.uniform(0, 300), rng.uniform(0, 120))
        if rng.random() < 0.3:  # whole pixels, as in the headers
            xy = (round(xy[0]), round(xy[1]))
        anchor = rng.choice([None, "la", "ra", "mm", "ms", "rm", "lm"])
        stroke = rng.choice([0, 0, 1, 2])
        fill, stroke_fill = style.TEXT, rng.choice([None, style.HIT_LIGHT])
        background = style.PANEL
        plain = (*background, 255) if mode == "RGBA" else background
        expected = Image.new(mode, (400, 200), plain)
        ImageDraw.Draw(expected).text(
            xy,
            text,
            fill=fill,
            font=style.font(size),
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=stroke_fill,
        )
        for _ in range(2):  # once drawn, once from the cache
            got = Image.new(mode, (400, 200), plain)
            style.draw_text(
                got,
                xy,
                text,
                size=size,
                fill=fill,
                background=background,
                anchor=anchor,
                stroke_width=stroke,
                stroke_fill=stroke_fill,
            )
            assert got.tobytes() == expected.tobytes(), (text, xy, anchor, stroke)
    assert style._text_patch.cache_info().hits > 100  # the patches were used, not bypassed


def test_text_over_something_else_is_drawn_normally() -> None:
    expected = Image.new("RGB", (200, 60), style.PANEL)
    ImageDraw.Draw(expected).rectangle((0, 0, 30, 60), fill=style.HIT)
    got = expected.copy()
    ImageDraw.Draw(expected).text((10, 10), "Turn 7", fill=style.TEXT, font=style.font(24))
    style.draw_text(got, (10, 10), "Turn 7", size=24, fill=style.TEXT, background=style.PANEL)
    assert got.tobytes() == expected.tobytes()


Params = tuple[float, float, float, float]


def _reference_marks(image: Image.Image, params: Params) -> None:
    """The marks drawn through ``paint_shape`` with the shapes the renderers used to pass it."""
    cx, cy, r, width = params

    def scaled(
        points: list[tuple[float, float]], s: float, ox: float, oy: float
    ) -> list[tuple[float, float]]:
        return [((x - ox) * s, (y - oy) * s) for x, y in points]

    box = (cx - r, cy - r, cx + r, cy + r)
    long = (box[0], box[1], box[2] + r, box[3])

    def ellipse(draw: ImageDraw.ImageDraw, s: float, ox: float, oy: float) -> None:
        (a, b), (c, d) = scaled([(box[0], box[1]), (box[2], box[3])], s, ox, oy)
        draw.ellipse((a, b, c, d), fill=255)

    def ring(draw: ImageDraw.ImageDraw, s: float, ox: float, oy: float) -> None:
        (a, b), (c, d) = scaled([(box[0], box[1]), (box[2], box[3])], s, ox, oy)
        draw.ellipse((a, b, c, d), outline=255, width=max(1, round(width * s)))

    def rounded(draw: ImageDraw.ImageDraw, s: float, ox: float, oy: float) -> None:
        (a, b), (c, d) = scaled([(long[0], long[1]), (long[2], long[3])], s, ox, oy)
        draw.rounded_rectangle((a, b, c, d), radius=min(c - a, d - b) / 2, fill=255)

    def cross(draw: ImageDraw.ImageDraw, s: float, ox: float, oy: float) -> None:
        (a, b), (c, d) = scaled([(box[0], box[1]), (box[2], box[3])], s, ox, oy)
        w = max(1, round(width * s))
        draw.line((a, b, c, d), fill=255, width=w)
        draw.line((a, d, c, b), fill=255, width=w)

    vertices = []
    for i in range(20):
        angle = math.pi * i / 10 - math.pi / 2
        radius = r if i % 2 == 0 else r * 0.6
        vertices.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))

    def star(draw: ImageDraw.ImageDraw, s: float, ox: float, oy: float) -> None:
        draw.polygon(scaled(vertices, s, ox, oy), fill=255)

    marks.paint_shape(image, box, style.HIT, ellipse)
    marks.paint_shape(image, box, style.MISS, ring)
    marks.paint_shape(image, long, style.WRECK, rounded)
    marks.paint_shape(image, box, style.TEXT, cross)
    marks.paint_shape(image, box, style.HIT_LIGHT, star)


def _cached_marks(image: Image.Image, params: Params) -> None:
    cx, cy, r, width = params
    box = (cx - r, cy - r, cx + r, cy + r)
    marks.disc(image, (cx, cy), r, style.HIT)
    marks.ring(image, (cx, cy), r, width, style.MISS)
    marks.capsule(image, (box[0], box[1], box[2] + r, box[3]), style.WRECK)
    marks.cross(image, box, style.TEXT, width)
    marks.burst(image, (cx, cy), r, style.HIT_LIGHT, points=10, inner=0.6)


def test_cached_marks_are_the_same_pixels_as_painted_marks() -> None:
    rng = random.Random(11)
    for mode in ("RGB", "RGBA"):
        for _ in range(40):
            params = (
                rng.uniform(20, 150),
                rng.uniform(20, 150),
                rng.uniform(2, 30),
                rng.uniform(1, 6),
            )
            if rng.random() < 0.3:  # whole and half pixels, as on the boards
                params = tuple(round(p * 2) / 2 for p in params)  # type: ignore[assignment]
            expected = Image.new(mode, (220, 220), style.WATER)
            _reference_marks(expected, params)
            for _ in range(2):  # once drawn, once from the cache
                got = Image.new(mode, (220, 220), style.WATER)
                _cached_marks(got, params)
                assert got.tobytes() == expected.tobytes(), (mode, params)


def test_composite_on_rgb_is_alpha_composite_on_opaque_rgba() -> None:
    rng = random.Random(2)
    base = Image.effect_noise((120, 90), 60).convert("RGB")
    for _ in range(20):
        patch = Image.effect_noise((rng.randint(5, 40), rng.randint(5, 40)), 90).convert("RGBA")
        alpha = Image.effect_noise(patch.size, 120).convert("L")
        patch.putalpha(alpha)
        dest = (rng.randint(-10, 110), rng.randint(-10, 80))
        expected = base.convert("RGBA")
        expected.alpha_composite(patch, (max(0, dest[0]), max(0, dest[1])))
        got = base.copy()
        marks.composite(got, patch, (max(0, dest[0]), max(0, dest[1])))
        assert got.tobytes() == expected.convert("RGB").tobytes()


def test_round_avatar_cache_follows_the_content_not_the_object() -> None:
    picture = Image.new("RGB", (64, 64), (255, 0, 0))
    first = round_avatar(picture, 20)
    first.paste((0, 0, 255, 255), (0, 0, 20, 20))  # the caller's copy is the caller's
    again = round_avatar(picture, 20)
    assert again.getpixel((10, 10)) == (255, 0, 0, 255)
    picture.paste((0, 255, 0), (0, 0, 64, 64))  # same object, new content
    assert round_avatar(picture, 20).getpixel((10, 10)) == (0, 255, 0, 255)
    # same indices, other palette: another picture
    red = Image.new("P", (32, 32), 0)
    red.putpalette([255, 0, 0] * 256)
    blue = Image.new("P", (32, 32), 0)
    blue.putpalette([0, 0, 255] * 256)
    assert round_avatar(red, 16).getpixel((8, 8)) == (255, 0, 0, 255)
    assert round_avatar(blue, 16).getpixel((8, 8)) == (0, 0, 255, 255)


def test_maps_drawn_with_cold_and_warm_caches_are_the_same_bytes(cold: None) -> None:
    red = Image.new("RGB", (64, 64), (255, 0, 0))
    views = [small_public(), medium_public(size=20), medium_public(size=30, seed=2)]
    cold_maps = []
    for view in views:
        clear_caches()
        cold_maps.append(
            render_public_map(view, title="t", deadline=DEADLINE, now=NOW, avatars={"u-bob": red})
        )
    clear_caches()
    cold_private = render_private_board(small_private(), title="t", deadline=DEADLINE, now=NOW)
    for view, expected in zip(views, cold_maps, strict=True):
        got = render_public_map(view, title="t", deadline=DEADLINE, now=NOW, avatars={"u-bob": red})
        assert got == expected
    assert render_private_board(small_private(), title="t", deadline=DEADLINE, now=NOW) == (
        cold_private
    )


def test_replay_without_gif_makes_the_same_video(cold: None) -> None:
    boards = revealed_game(3, size=10, players=3)
    frames = [ReplayFrame(b, f"Turn {i}") for i, b in enumerate(boards)]
    both = render_replay(frames, title="#bst game 1")
    clear_caches()
    video_only = render_replay(frames, title="#bst game 1", gif=False)
    assert video_only.gif == b"" and both.gif.startswith(b"GIF89a")
    assert video_only.mp4 == both.mp4
    assert video_only.frame_count == both.frame_count
    assert video_only.duration_s == both.duration_s
