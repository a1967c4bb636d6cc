"""The replay of a finished game: a fold over its revealed boards, as MP4 and animated GIF.

One :class:`ReplayFrame` per moment (the board after setup, then after each resolved turn,
whose ``public.shots`` are that turn's shots). The video opens with a title card, shows every
captain's ships in the captain's colour (names on small boards), each turn's shots and hits,
ships going down, and closes on a card with the result.

Limits (what X and Discord accept): MP4 is H.264/yuv420p, even dimensions, at most
1280x1024, 0.5-140 s (long games get shorter turns), at most 10 MiB; GIF at most 15 MB.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image, ImageDraw, ImageEnhance

from bot.games.bst.cells import Cell
from bot.games.bst.views import FleetView, Phase, PublicView, RevealedView
from renderers import board, style
from renderers.board import BoardLayout
from renderers.encode import encode_mp4
from renderers.public_map import group_shots

MAX_WIDTH, MAX_HEIGHT = 1280, 1024
MAX_DURATION_S = 140.0
MIN_DURATION_S = 0.5
MAX_MP4_BYTES = 10 * 1024 * 1024
MAX_GIF_BYTES = 15_000_000
TITLE_HOLD_S = 2.5
FINAL_HOLD_S = 3.5
GIF_MAX_WIDTH = 800
HEADER = 78
PAD = 18
OUTPUT_FPS = 5


@dataclass(frozen=True)
class ReplayFrame:
    board: RevealedView
    label: str


@dataclass(frozen=True)
class Replay:
    mp4: bytes
    gif: bytes
    """The animated GIF, or ``b""`` when :func:`render_replay` was asked for none."""
    frame_count: int
    """Pictures in the replay: the title card, one per frame, the final card."""
    duration_s: float


def result_text(public: PublicView) -> str:
    names = {c.id: c.name for c in public.captains}
    if public.draw:
        return "A draw"
    winners = [names.get(w, w) for w in public.winners]
    if len(winners) == 1:
        return f"{winners[0]} wins"
    if winners:
        return "Winners: " + ", ".join(winners)
    if public.phase is Phase.FINISHED:
        return "No winner"
    return "Game in progress"


def _layout(rows: int, cols: int) -> tuple[BoardLayout, tuple[int, int]]:
    left, top = board.margins(rows, cols, 18)
    plan = board.plan_board(
        rows,
        cols,
        x0=0,
        y0=0,
        max_board_width=MAX_WIDTH - 2 * left,
        max_board_height=MAX_HEIGHT - HEADER - top - PAD,
        min_cell=16,
        max_cell=48,
        target=880,
    )
    left, top = board.margins(rows, cols, plan.label_size)
    width = min(MAX_WIDTH, max(640, 2 * left + plan.width))
    height = min(MAX_HEIGHT, HEADER + top + plan.height + PAD)
    width -= width % 2
    height -= height % 2
    layout = BoardLayout(
        rows=rows,
        cols=cols,
        cell=plan.cell,
        x0=(width - plan.width - left) // 2 + left,
        y0=HEADER + top,
        detailed=plan.detailed,
        label_size=plan.label_size,
        row_step=plan.row_step,
        col_step=plan.col_step,
    )
    return layout, (width, height)


@functools.lru_cache(maxsize=2)
def _backdrop(layout: BoardLayout, size: tuple[int, int]) -> Image.Image:
    """What every board picture of a replay shares: background, header panel, water, grid and
    labels (shared between calls; callers copy it). The header text drawn later does not
    overlap the grid or its labels, so the pixels are those of drawing in reading order."""
    image = Image.new("RGB", size, style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, size[0], HEADER - 12), fill=style.PANEL)
    board.draw_grid(image, layout)
    return image


def _header(image: Image.Image, title: str, label: str, right: str) -> None:
    """The header text, on the panel already drawn by :func:`_backdrop`."""
    width = image.width
    right_w = style.text_width(right, 24)
    style.draw_text(
        image,
        (PAD, 12),
        style.fit_text(title, 28, width - 2 * PAD - right_w - 20),
        size=28,
        fill=style.TEXT,
        background=style.PANEL,
        stroke_width=1,
        stroke_fill=style.TEXT,
    )
    style.draw_text(
        image,
        (width - PAD, 14),
        right,
        size=24,
        fill=style.HIT_LIGHT,
        background=style.PANEL,
        anchor="ra",
    )
    style.draw_text(
        image,
        (PAD, 44),
        style.fit_text(label, 20, width - 2 * PAD),
        size=20,
        fill=style.TEXT_DIM,
        background=style.PANEL,
    )


def _draw_fleet(
    image: Image.Image, layout: BoardLayout, fleet: FleetView, new_wrecks: set[tuple[Cell, ...]]
) -> None:
    colour = style.owner_colour(fleet.owner)
    for ship in fleet.ships:
        cells = tuple(sorted(ship.cells))
        if ship.destroyed:
            if cells in new_wrecks and layout.detailed:
                board.capsule(
                    image, board.inset(layout.span(cells), layout.cell * 0.02), style.NEW_WRECK
                )
            elif cells in new_wrecks:
                board.hull(image, layout, cells, style.NEW_WRECK, style.NEW_WRECK)
                continue
            board.hull(image, layout, cells, style.WRECK, colour)
        else:
            board.hull(image, layout, cells, colour, style.darker(colour, 0.5))
    for ship in fleet.ships:
        if ship.destroyed:
            continue  # a wreck is drawn dark; crosses on every segment would only clutter it
        for cell in sorted(ship.damaged):
            if not layout.on_board(cell):
                continue
            if layout.detailed:
                box = board.inset(layout.box(cell), layout.cell * 0.27)
                board.cross(image, box, style.TEXT, layout.cell * 0.15)
                board.cross(image, box, style.HIT, layout.cell * 0.09)
            else:
                board.cell_marker(image, layout, cell, style.HIT)


def _draw_names(image: Image.Image, layout: BoardLayout, fleets: Sequence[FleetView]) -> None:
    if not layout.detailed or layout.cell < 24:
        return
    for fleet in fleets:
        for ship in fleet.ships:
            if len(ship.cells) > 1:
                board.hull_label(
                    image,
                    layout,
                    tuple(sorted(ship.cells)),
                    fleet.owner_name,
                    colour=style.TEXT,
                    background=style.WRECK_EDGE,
                )


def _draw_shots(image: Image.Image, layout: BoardLayout, public: PublicView) -> None:
    groups = group_shots(public.shots)
    if not layout.detailed:
        for cell, group in groups:
            colour = style.HIT if any(s.hit for s in group) else style.MISS_MARKER
            board.cell_marker(image, layout, cell, colour)
        return
    c = layout.cell
    for cell, group in groups:
        if not layout.on_board(cell):
            continue
        x0, y0, _, _ = layout.box(cell)
        centre = (x0 + c / 2, y0 + c / 2)
        if any(s.hit for s in group):
            board.burst(image, centre, c * 0.5, style.HIT, points=10, inner=0.55)
            board.burst(image, centre, c * 0.36, style.HIT_LIGHT, points=10, inner=0.6)
        else:
            board.ring(image, centre, c * 0.34, max(2.0, c * 0.08), style.MISS)
        # the shooters' colours as small dots in the middle
        dots = group[:4]
        radius = c * (0.14 if len(dots) == 1 else 0.1)
        for i, shot in enumerate(dots):
            offset = (i - (len(dots) - 1) / 2) * radius * 2.1
            spot = (centre[0] + offset, centre[1])
            board.disc(image, spot, radius + 1.5, style.BACKGROUND)
            board.disc(image, spot, radius, style.owner_colour(shot.shooter))


def board_picture(
    frame: ReplayFrame,
    *,
    title: str,
    layout: BoardLayout,
    size: tuple[int, int],
    previous: RevealedView | None,
) -> Image.Image:
    """One moment of the game with everything revealed (RGB: it is opaque, and drawing
    in RGB gives the pixels drawing in RGBA and converting would)."""
    image = _backdrop(layout, size).copy()
    public = frame.board.public
    alive = len(public.alive)
    _header(image, title, frame.label, f"{alive} of {len(public.captains)} afloat")
    before = (
        {tuple(sorted(w.cells)) for w in previous.public.wrecks} if previous is not None else set()
    )
    new_wrecks = {tuple(sorted(w.cells)) for w in public.wrecks} - before
    for fleet in sorted(frame.board.fleets, key=lambda f: f.owner):
        _draw_fleet(image, layout, fleet, new_wrecks)
    _draw_names(image, layout, sorted(frame.board.fleets, key=lambda f: f.owner))
    _draw_shots(image, layout, public)
    return image


def _centred(
    draw: ImageDraw.ImageDraw, y: float, text: str, size: int, fill: style.RGB, width: int
) -> None:
    fitted = style.fit_text(text, size, width - 2 * PAD)
    draw.text(
        (width / 2, y),
        fitted,
        font=style.font(size, fitted),
        fill=fill,
        anchor="mm",
    )


def title_card(title: str, first: RevealedView, size: tuple[int, int]) -> Image.Image:
    width, height = size
    image = Image.new("RGB", size, style.BACKGROUND)
    draw = ImageDraw.Draw(image)
    public = first.public
    big = max(28, min(64, width // 14))
    fitted = style.fit_text(title, big, width - 2 * PAD)
    draw.text(
        (width / 2, height * 0.36),
        fitted,
        font=style.font(big, fitted),
        fill=style.TEXT,
        anchor="mm",
        stroke_width=2,
        stroke_fill=style.TEXT,
    )
    _centred(draw, height * 0.36 + big, "Replay", big // 2, style.HIT_LIGHT, width)
    _centred(
        draw,
        height * 0.36 + big * 2,
        f"{public.rows} x {public.cols} board, {len(public.captains)} captains",
        max(16, big // 3),
        style.TEXT_DIM,
        width,
    )
    names = style.fit_names("", [c.name for c in public.captains], max(14, big // 4), width - 80)
    _centred(draw, height * 0.36 + big * 2.7, names, max(14, big // 4), style.TEXT_DIM, width)
    return image


def final_card(last: Image.Image, public: PublicView, turns: int) -> Image.Image:
    image = ImageEnhance.Brightness(last).enhance(0.35)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    big = max(28, min(72, width // 12))
    _centred(draw, height * 0.42, result_text(public), big, style.HIT_LIGHT, width)
    noun = "turn" if turns == 1 else "turns"
    _centred(draw, height * 0.42 + big, f"after {turns} {noun}", big // 2, style.TEXT, width)
    return image


def _timing(frames: int, seconds_per_turn: float) -> tuple[Fraction, int, int]:
    """Frame rate and how many times the title and final cards repeat, within the limits."""
    per = min(seconds_per_turn, (MAX_DURATION_S - TITLE_HOLD_S - FINAL_HOLD_S - 0.5) / frames)
    per = max(per, 0.1)
    rate = Fraction(1 / per).limit_denominator(100)
    per_exact = 1 / rate
    title = max(1, round(TITLE_HOLD_S / per_exact))
    final = max(1, round(FINAL_HOLD_S / per_exact))
    return rate, title, final


def _paletted(pictures: list[Image.Image]) -> list[Image.Image]:
    """All frames on one palette built from the cards and the first and last boards: one
    quantization instead of one per frame, and no palette flicker."""
    picks = (
        [pictures[0], pictures[1], pictures[-2], pictures[-1]] if len(pictures) > 3 else pictures
    )
    width, height = picks[0].size
    montage = Image.new("RGB", (width, height * len(picks)))
    for i, picture in enumerate(picks):
        montage.paste(picture, (0, height * i))
    palette = montage.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    return [p.quantize(palette=palette, dither=Image.Dither.NONE) for p in pictures]


_GIF_FACTORS = (1.0, 0.75, 0.5, 0.35)

Scaled = dict[tuple[int, tuple[int, int]], Image.Image]
"""Pictures already scaled for the GIF, by ``(id(picture), size)``, within one replay."""


def _gif_size(size: tuple[int, int], factor: float) -> tuple[int, int]:
    scale = min(1.0, GIF_MAX_WIDTH / size[0]) * factor
    return (max(2, round(size[0] * scale)), max(2, round(size[1] * scale)))


def _scaled(picture: Image.Image, size: tuple[int, int], scaled: Scaled) -> Image.Image:
    """``picture`` at ``size``, from ``scaled`` when it was scaled ahead."""
    if picture.size == size:
        return picture
    ahead = scaled.get((id(picture), size))
    return ahead if ahead is not None else picture.resize(size, Image.Resampling.LANCZOS)


def _gif(
    pictures: list[Image.Image], durations_ms: list[int], scaled: Scaled | None = None
) -> bytes:
    """An animated GIF within :data:`MAX_GIF_BYTES`: smaller, then fewer frames, until it fits.

    ``scaled`` holds pictures scaled ahead to the first size tried (while the MP4 was
    encoding); the pictures must stay alive meanwhile, as their ids are the keys."""
    scaled = {} if scaled is None else scaled
    for keep_every in (1, 2, 4, 8):
        if keep_every == 1:
            chosen, times = pictures, durations_ms
        else:
            # keep the cards and the last board; merge the times of dropped frames
            chosen, times = [], []
            for i, (picture, ms) in enumerate(zip(pictures, durations_ms, strict=True)):
                keep = i == 0 or i >= len(pictures) - 2 or (i - 1) % keep_every == 0
                if keep:
                    chosen.append(picture)
                    times.append(ms)
                else:
                    times[-1] += ms
        for factor in _GIF_FACTORS:
            size = _gif_size(pictures[0].size, factor)
            frames = _paletted([_scaled(p, size, scaled) for p in chosen])
            out = io.BytesIO()
            frames[0].save(
                out,
                format="GIF",
                save_all=True,
                append_images=frames[1:],
                duration=times,
                loop=0,
                optimize=False,
            )
            data = out.getvalue()
            if len(data) <= MAX_GIF_BYTES:
                return data
    return data


def render_replay(
    frames: Sequence[ReplayFrame],
    *,
    title: str,
    seconds_per_turn: float = 1.0,
    gif: bool = True,
) -> Replay:
    """The whole game as MP4 and GIF. Same frames in, same bytes out (same installation).

    With ``gif=False`` only the MP4 is made (the GIF takes about as long again) and
    :attr:`Replay.gif` is ``b""``."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    first = frames[0].board.public
    layout, size = _layout(first.rows, first.cols)
    last = frames[-1].board.public
    turns = max(0, len(frames) - 1)
    rate, title_repeats, final_repeats = _timing(len(frames), seconds_per_turn)
    per = 1 / rate
    duration = float(per * (title_repeats + len(frames) + final_repeats))
    opening = title_card(title, frames[0].board, size)
    pictures: list[Image.Image] = []
    closing: list[Image.Image] = []
    scaled: Scaled = {}
    gif_size = _gif_size(size, _GIF_FACTORS[0])

    def drawn_while_encoding() -> Iterator[Image.Image]:
        """The video's pictures, drawn as ffmpeg asks for them: drawing (and scaling for the
        GIF) the next frame overlaps encoding the last one (ffmpeg is another process)."""
        yield from [opening] * title_repeats
        previous: RevealedView | None = None
        for frame in frames:
            picture = board_picture(frame, title=title, layout=layout, size=size, previous=previous)
            pictures.append(picture)
            previous = frame.board
            if gif and picture.size != gif_size:
                scaled[(id(picture), gif_size)] = picture.resize(gif_size, Image.Resampling.LANCZOS)
            yield picture
        closing.append(final_card(pictures[-1], last, turns))
        yield from closing * final_repeats

    mp4 = b""
    sequence: Iterable[Image.Image] = drawn_while_encoding()
    for crf in (23, 28, 33, 38, 44):
        mp4 = encode_mp4(sequence, size=size, frame_rate=rate, output_fps=OUTPUT_FPS, crf=crf)
        if len(mp4) <= MAX_MP4_BYTES:
            break
        sequence = [opening] * title_repeats + pictures + closing * final_repeats
    animation = b""
    if gif:
        per_ms = round(float(per) * 1000 / 10) * 10
        animation = _gif(
            [opening, *pictures, *closing],
            [per_ms * title_repeats] + [per_ms] * len(pictures) + [per_ms * final_repeats],
            scaled,
        )
    return Replay(mp4=mp4, gif=animation, frame_count=len(pictures) + 2, duration_s=duration)
