"""The header of the still pictures of bst, Sonar, U-Boat Shootout and Sugar Dog
(``renderers/header.py``): title left, status right, lines of facts below, on the panel."""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderers import header, style

LINES = [("Turn 4: 3 shots, 2 hits", style.TEXT_DIM), ("Next deadline soon", style.TEXT)]


def panel(lines: int, width: int = 760) -> Image.Image:
    height = header.header_height(lines)
    image = Image.new("RGB", (width, height + 40), style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, width, height - 8), fill=style.PANEL)
    return image


def test_the_lines_end_inside_the_panel_that_header_height_makes() -> None:
    image = panel(len(LINES))
    below = header.draw_header(image, title="#bst game 3", status="Turn 4", lines=LINES)
    assert below == header.LINES_TOP + 2 * header.LINE_HEIGHT
    assert below + 6 == header.header_height(len(LINES))
    under_panel = image.crop((0, header.header_height(len(LINES)) - 7, image.width, image.height))
    assert under_panel.getextrema() == tuple((v, v) for v in style.BACKGROUND)


def test_a_long_title_is_cut_before_the_status() -> None:
    image = panel(0)
    status = "Finished"
    header.draw_header(image, title="A very long game title " * 10, status=status, lines=[])
    status_left = image.width - header.PAD - style.text_width(status, header.TITLE_SIZE)
    gap = image.crop((status_left - header.STATUS_GAP + 4, 0, status_left - 2, 60))
    assert gap.getextrema() == tuple((v, v) for v in style.PANEL)


def test_the_status_is_drawn_at_the_right_in_its_colour() -> None:
    image = panel(0)
    header.draw_header(image, title="#bst", status="Turn 12", lines=[])
    right = image.crop((image.width // 2, 0, image.width, 60))
    assert style.HIT_LIGHT in {colour for _, colour in right.getcolors(10_000) or []}
