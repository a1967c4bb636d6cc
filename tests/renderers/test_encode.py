"""Still pictures as palette PNGs (issue 25): a third of the work of an RGB PNG at a
deadline, under half the bytes, and the same picture to the eye and to the byte."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from PIL import Image, ImageChops, ImageStat

from benchmarks.render import public_scene
from renderers.bst.public_map import MapExtras, compose_map
from renderers.encode import PALETTE_COLOURS, png_bytes

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def photo(turn: int) -> Image.Image:
    """An avatar like a photograph: smooth shading in every channel and grain."""
    shade = Image.radial_gradient("L").resize((128, 128))
    sweep = Image.linear_gradient("L").resize((128, 128)).rotate(turn * 30)
    grain = Image.effect_noise((128, 128), 40)
    return Image.merge("RGB", (shade, sweep, grain))


def drawn_map(*, photos: bool) -> Image.Image:
    """bst's 20×20 map of 12 captains, as drawn (RGB, thousands of colours)."""
    view, avatars = public_scene()
    if photos:
        avatars = {key: photo(n) for n, key in enumerate(avatars)}
    return compose_map(
        view,
        title="#bst game 1",
        deadline=NOW + timedelta(hours=8),
        now=NOW,
        avatars=avatars,
        extras=MapExtras(),
    )


def test_25_a_picture_is_a_palette_png_a_shade_from_the_drawing() -> None:
    for photos in (False, True):
        drawn = drawn_map(photos=photos)
        assert len(drawn.getcolors(1 << 24) or []) > PALETTE_COLOURS
        png = png_bytes(drawn)
        decoded = Image.open(io.BytesIO(png))
        assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == drawn.size
        difference = ImageChops.difference(drawn, decoded.convert("RGB"))
        # under a 255th on average: edges' blends move a little, nothing else
        assert max(ImageStat.Stat(difference).mean) < 1.0, photos


def test_25_flat_colours_keep_their_colour_within_a_shade() -> None:
    drawn = drawn_map(photos=True)
    decoded = Image.open(io.BytesIO(png_bytes(drawn))).convert("RGB")
    difference = ImageChops.difference(drawn, decoded).convert("L")
    # the twelve commonest colours (water, the checker, panels, text): none moves past 2
    for _, colour in sorted(drawn.getcolors(1 << 24) or [], reverse=True)[:12]:
        assert isinstance(colour, tuple)
        same = ImageChops.difference(drawn, Image.new("RGB", drawn.size, colour)).convert("L")
        exactly = same.point(lambda v: 255 if v == 0 else 0)
        assert ImageStat.Stat(difference, exactly).extrema[0][1] <= 2, colour


def test_25_the_same_picture_is_the_same_bytes_and_under_half_an_rgb_png() -> None:
    drawn = drawn_map(photos=False)
    png = png_bytes(drawn)
    assert png_bytes(drawn.copy()) == png
    rgb = io.BytesIO()
    drawn.save(rgb, format="PNG", optimize=False, compress_level=6)  # the encoder before
    assert len(png) < len(rgb.getvalue()) / 2
