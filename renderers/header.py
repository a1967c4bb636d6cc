"""The header of a game's picture: the panel at the top with the game's title on the left, a
short status opposite it (``Turn 5``) and lines of facts below.

bst, Sonar, U-Boat Shootout and Sugar Dog draw their still pictures' headers with
:func:`draw_header`, so the same words sit at the same place in every game. The title
alone (:func:`draw_title`) is also what the replay's header (:mod:`renderers.replay`) and
Silent Ships' header open with, at their own size and place.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from renderers import style
from renderers.style import RGB

PAD = 20
TITLE_SIZE = 32
LINE_SIZE = 22
LINE_HEIGHT = LINE_SIZE + 10
LINES_TOP = PAD + TITLE_SIZE + 12
"""Where the first line of facts starts, below the title."""
STATUS_GAP = 24
"""The least room between the title (cut with an ellipsis) and the status."""


def wrap_line(text: str, width: int, *, most: int = 4) -> list[str]:
    """``text`` as header lines of at most ``width`` pixels, broken between words, so a
    long fact (a sonar report) is read whole; past ``most`` lines the last is cut."""
    lines: list[str] = []
    for word in style.drawable(text).split():
        if lines and style.text_width(f"{lines[-1]} {word}", LINE_SIZE) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
    return [style.fit_text(line, LINE_SIZE, width) for line in lines]


def header_height(lines: int) -> int:
    """The height of a header with ``lines`` lines of facts, the margin under its panel
    included (the panel ends 8 pixels above it)."""
    return LINES_TOP + LINE_HEIGHT * lines + 6


def draw_title(
    image: Image.Image, xy: tuple[float, float], title: str, *, size: int, max_width: int
) -> None:
    """The game's title, bold (stroked in its own colour) on the panel, cut to ``max_width``."""
    style.draw_text(
        image,
        xy,
        style.fit_text(title, size, max_width),
        size=size,
        fill=style.TEXT,
        background=style.PANEL,
        stroke_width=1,
        stroke_fill=style.TEXT,
    )


def draw_header(
    image: Image.Image,
    *,
    title: str,
    status: str,
    lines: Sequence[tuple[str, RGB]],
    lines_top: int = LINES_TOP,
) -> int:
    """The title and the ``status`` on the header's panel (drawn already, across the
    picture), then each ``(text, colour)`` line from ``lines_top`` down, each cut to the
    picture's width. Returns where a next line would start."""
    width = image.width
    status_width = style.text_width(status, TITLE_SIZE)
    draw_title(
        image,
        (PAD, PAD),
        title,
        size=TITLE_SIZE,
        max_width=width - 2 * PAD - status_width - STATUS_GAP,
    )
    style.draw_text(
        image,
        (width - PAD, PAD),
        status,
        size=TITLE_SIZE,
        fill=style.HIT_LIGHT,
        background=style.PANEL,
        anchor="ra",
        stroke_width=1,
        stroke_fill=style.HIT_LIGHT,
    )
    y = lines_top
    for text, colour in lines:
        style.draw_text(
            image,
            (PAD, y),
            style.fit_text(text, LINE_SIZE, width - 2 * PAD),
            size=LINE_SIZE,
            fill=colour,
            background=style.PANEL,
        )
        y += LINE_HEIGHT
    return y
