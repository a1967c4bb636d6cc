"""The replay of a finished game as a video: MP4 and animated GIF from a sequence of pictures.

A game's pictures package draws one picture per moment of the game (after setup, then after
each stored step); this module opens them with a title card, closes them with a card of the
result laid over the last picture, times them, and encodes them. The header panel and the
cards are the same for every game; what is drawn under the header is the game's.

Limits (what X and Discord accept): MP4 is H.264/yuv420p, even dimensions, at most
1280x1024, 0.5-140 s (long games get shorter turns), at most 10 MiB; GIF at most 15 MB.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction

from PIL import Image, ImageDraw, ImageEnhance

from renderers import header, style
from renderers.encode import encode_mp4
from renderers.pictures import Replay

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


def blank_frame(size: tuple[int, int]) -> Image.Image:
    """The background of a replay picture with its header panel, ready for the game's board
    below :data:`HEADER` and :func:`draw_header` on top."""
    image = Image.new("RGB", size, style.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, size[0], HEADER - 12), fill=style.PANEL)
    return image


def draw_header(image: Image.Image, title: str, label: str, right: str) -> None:
    """The header text on the panel of :func:`blank_frame`: the game's title, the moment's
    ``label`` below it and a short ``right`` fact (``5 of 8 afloat``) opposite."""
    width = image.width
    right_w = style.text_width(right, 24)
    header.draw_title(image, (PAD, 12), title, size=28, max_width=width - 2 * PAD - right_w - 20)
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


def title_card(
    title: str, size: tuple[int, int], *, facts: str, names: Sequence[str]
) -> Image.Image:
    """The opening picture: the game's title, "Replay", one line of ``facts`` (the board
    and how many played) and the players' ``names``, as many as fit."""
    width, height = size
    image = Image.new("RGB", size, style.BACKGROUND)
    draw = ImageDraw.Draw(image)
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
    _centred(draw, height * 0.36 + big * 2, facts, max(16, big // 3), style.TEXT_DIM, width)
    line = style.fit_names("", list(names), max(14, big // 4), width - 80)
    _centred(draw, height * 0.36 + big * 2.7, line, max(14, big // 4), style.TEXT_DIM, width)
    return image


def final_card(last: Image.Image, result: str, detail: str) -> Image.Image:
    """The closing picture: the last one darkened, with the ``result`` (``alice wins``) and a
    ``detail`` under it (``after 12 turns``)."""
    image = ImageEnhance.Brightness(last).enhance(0.35)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    big = max(28, min(72, width // 12))
    _centred(draw, height * 0.42, result, big, style.HIT_LIGHT, width)
    _centred(draw, height * 0.42 + big, detail, big // 2, style.TEXT, width)
    return image


def timing(frames: int, seconds_per_frame: float) -> tuple[Fraction, int, int]:
    """Frame rate and how many times the title and final cards repeat, within the limits."""
    per = min(seconds_per_frame, (MAX_DURATION_S - TITLE_HOLD_S - FINAL_HOLD_S - 0.5) / frames)
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


def encode_replay(
    opening: Image.Image,
    frames: Iterable[Image.Image],
    *,
    count: int,
    closing: Callable[[Image.Image], Image.Image],
    seconds_per_frame: float = 1.0,
    gif: bool = True,
) -> Replay:
    """The replay as MP4 (and GIF): ``opening`` (the title card, whose size every picture
    has), the ``count`` pictures of ``frames``, then ``closing(last picture)``.

    ``frames`` may be lazy: each picture is drawn when the encoder asks for it, so drawing
    the next one overlaps encoding the last (ffmpeg is another process). Same pictures in,
    same bytes out (same installation). With ``gif=False`` only the MP4 is made (the GIF
    takes about as long again) and :attr:`Replay.gif` is ``b""``."""
    if count < 1:
        raise ValueError("a replay needs at least one frame")
    size = opening.size
    rate, title_repeats, final_repeats = timing(count, seconds_per_frame)
    per = 1 / rate
    duration = float(per * (title_repeats + count + final_repeats))
    pictures: list[Image.Image] = []
    ending: list[Image.Image] = []
    scaled: Scaled = {}
    gif_size = _gif_size(size, _GIF_FACTORS[0])

    def drawn_while_encoding() -> Iterator[Image.Image]:
        yield from [opening] * title_repeats
        for picture in frames:
            pictures.append(picture)
            if gif and picture.size != gif_size:
                scaled[(id(picture), gif_size)] = picture.resize(gif_size, Image.Resampling.LANCZOS)
            yield picture
        if len(pictures) != count:
            raise ValueError(f"the replay was timed for {count} frames but got {len(pictures)}")
        ending.append(closing(pictures[-1]))
        yield from ending * final_repeats

    mp4 = b""
    sequence: Iterable[Image.Image] = drawn_while_encoding()
    for crf in (23, 28, 33, 38, 44):
        mp4 = encode_mp4(sequence, size=size, frame_rate=rate, output_fps=OUTPUT_FPS, crf=crf)
        if len(mp4) <= MAX_MP4_BYTES:
            break
        sequence = [opening] * title_repeats + pictures + ending * final_repeats
    animation = b""
    if gif:
        per_ms = round(float(per) * 1000 / 10) * 10
        animation = _gif(
            [opening, *pictures, *ending],
            [per_ms * title_repeats] + [per_ms] * len(pictures) + [per_ms * final_repeats],
            scaled,
        )
    final = io.BytesIO()
    pictures[-1].save(final, format="PNG", optimize=True)
    return Replay(
        mp4=mp4,
        gif=animation,
        frame_count=len(pictures) + 2,
        duration_s=duration,
        final=final.getvalue(),
    )
