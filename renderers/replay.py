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
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction

from PIL import Image, ImageDraw, ImageEnhance

from renderers import header, style
from renderers.encode import encode_mp4, png_bytes
from renderers.gif import write_gif
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


def _palette(picks: list[Image.Image]) -> Image.Image:
    """One palette for every frame, built from the cards and the first and last boards: one
    quantization instead of one per frame, and no palette flicker."""
    width, height = picks[0].size
    montage = Image.new("RGB", (width, height * len(picks)))
    for i, picture in enumerate(picks):
        montage.paste(picture, (0, height * i))
    return montage.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


_GIF_FACTORS = (1.0, 0.75, 0.5, 0.35)


def _gif_size(size: tuple[int, int], factor: float) -> tuple[int, int]:
    scale = min(1.0, GIF_MAX_WIDTH / size[0]) * factor
    return (max(2, round(size[0] * scale)), max(2, round(size[1] * scale)))


class _Kept:
    """The board pictures of a replay, kept for a second pass (the GIF, or the MP4 again at
    a lower quality) as compressed pixels: a board picture is mostly flat colour, so each
    keeps in a few tens of kilobytes instead of megabytes, and only one is whole at a time."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self._packed: list[bytes] = []

    def __len__(self) -> int:
        return len(self._packed)

    def add(self, picture: Image.Image) -> None:
        if picture.mode != "RGB":
            picture = picture.convert("RGB")
        if picture.size != self.size:
            picture = picture.resize(self.size, Image.Resampling.LANCZOS)
        self._packed.append(zlib.compress(picture.tobytes(), 1))

    def __getitem__(self, index: int) -> Image.Image:
        return Image.frombytes("RGB", self.size, zlib.decompress(self._packed[index]))

    def __iter__(self) -> Iterator[Image.Image]:
        for index in range(len(self._packed)):
            yield self[index]


def _gif(
    opening: Image.Image, kept: _Kept, ending: Image.Image, per_ms: int, title: int, final: int
) -> bytes:
    """An animated GIF within :data:`MAX_GIF_BYTES`: smaller, then fewer frames, until it fits.

    The frames are drawn, scaled, quantized and written one at a time (:mod:`renderers.gif`),
    so memory holds one frame, not the whole animation."""
    count = len(kept)
    durations = [per_ms * title] + [per_ms] * count + [per_ms * final]
    total = count + 2

    def picture(index: int) -> Image.Image:
        if index == 0:
            return opening
        if index == total - 1:
            return ending
        return kept[index - 1]

    data = b""
    for keep_every in (1, 2, 4, 8):
        # keep the cards and the last board; merge the times of dropped frames
        chosen: list[int] = []
        times: list[int] = []
        for i, ms in enumerate(durations):
            if keep_every == 1 or i == 0 or i >= total - 2 or (i - 1) % keep_every == 0:
                chosen.append(i)
                times.append(ms)
            else:
                times[-1] += ms
        for factor in _GIF_FACTORS:
            size = _gif_size(opening.size, factor)

            def scaled(index: int, size: tuple[int, int] = size) -> Image.Image:
                shown = picture(index)
                if shown.size == size:
                    return shown
                return shown.resize(size, Image.Resampling.LANCZOS)

            picks = [0, 1, total - 2, total - 1] if len(chosen) > 3 else chosen
            palette = _palette([scaled(i) for i in picks])
            out = io.BytesIO()
            write_gif(
                out,
                (
                    (scaled(i).quantize(palette=palette, dither=Image.Dither.NONE), ms)
                    for i, ms in zip(chosen, times, strict=True)
                ),
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
    card: Image.Image | None = None,
) -> Replay:
    """The replay as MP4 (and GIF): ``opening`` (the title card, whose size every picture
    has), the ``count`` pictures of ``frames``, then ``closing(last picture)``.

    ``frames`` may be lazy: each picture is drawn when the encoder asks for it, so drawing
    the next one overlaps encoding the last (ffmpeg is another process). Same pictures in,
    same bytes out (same installation). With ``gif=False`` only the MP4 is made (the GIF
    takes about as long again) and :attr:`Replay.gif` is ``b""``. :attr:`Replay.final` is
    the game's end ``card`` (:mod:`renderers.end_card`) where one is given, else the last
    picture."""
    if count < 1:
        raise ValueError("a replay needs at least one frame")
    size = opening.size
    rate, title_repeats, final_repeats = timing(count, seconds_per_frame)
    per = 1 / rate
    duration = float(per * (title_repeats + count + final_repeats))
    kept = _Kept(size)
    last: list[Image.Image] = []
    ending: list[Image.Image] = []

    def drawn_while_encoding() -> Iterator[Image.Image]:
        yield from [opening] * title_repeats
        for picture in frames:
            kept.add(picture)
            last[:] = [picture]
            yield picture
        if len(kept) != count:
            raise ValueError(f"the replay was timed for {count} frames but got {len(kept)}")
        ending.append(closing(last[0]))
        yield from ending * final_repeats

    def again() -> Iterator[Image.Image]:
        yield from [opening] * title_repeats
        yield from kept
        yield from ending * final_repeats

    mp4 = b""
    sequence: Iterable[Image.Image] = drawn_while_encoding()
    for crf in (23, 28, 33, 38, 44):
        mp4 = encode_mp4(sequence, size=size, frame_rate=rate, output_fps=OUTPUT_FPS, crf=crf)
        if len(mp4) <= MAX_MP4_BYTES:
            break
        sequence = again()
    animation = b""
    if gif:
        per_ms = round(float(per) * 1000 / 10) * 10
        animation = _gif(opening, kept, ending[0], per_ms, title_repeats, final_repeats)
    if card is not None:
        final = png_bytes(card)
    else:
        saved = io.BytesIO()
        last[0].save(saved, format="PNG", optimize=True)
        final = saved.getvalue()
    return Replay(
        mp4=mp4,
        gif=animation,
        frame_count=len(kept) + 2,
        duration_s=duration,
        final=final,
    )


def frame_size(sizes: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """One size for a replay of pictures of ``sizes``: the largest width and height,
    shrunk (keeping its shape) to the video's limits, even, at least 640×360."""
    width = max((w for w, _ in sizes), default=640)
    height = max((h for _, h in sizes), default=360)
    scale = min(1.0, MAX_WIDTH / width, MAX_HEIGHT / height)
    width, height = max(640, round(width * scale)), max(360, round(height * scale))
    return width - width % 2, height - height % 2


def fitted(picture: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``picture`` on a frame of ``size``: shrunk to fit when it is bigger, centred on the
    background colour."""
    picture = picture.convert("RGB")
    scale = min(1.0, size[0] / picture.width, size[1] / picture.height)
    if scale < 1.0:
        shrunk = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
        picture = picture.resize(shrunk, Image.Resampling.LANCZOS)
    frame = Image.new("RGB", size, style.BACKGROUND)
    frame.paste(picture, ((size[0] - picture.width) // 2, (size[1] - picture.height) // 2))
    return frame


def replay_of_pictures(
    pictures: Sequence[bytes],
    *,
    title: str,
    facts: str,
    names: Sequence[str],
    result: str,
    detail: str,
) -> Replay:
    """A replay (MP4 only) of ready pictures (PNG bytes), one a moment, in order — one
    player's own boards, say, for the game as they saw it: the title card, the pictures,
    and the last one darkened under ``result`` and ``detail``. Pictures of different sizes
    share the largest (each centred on the background)."""
    sizes = []
    for png in pictures:
        with Image.open(io.BytesIO(png)) as image:
            sizes.append(image.size)
    size = frame_size(sizes)

    def frames() -> Iterator[Image.Image]:
        for png in pictures:
            with Image.open(io.BytesIO(png)) as image:
                yield fitted(image, size)

    return encode_replay(
        title_card(title, size, facts=facts, names=names),
        frames(),
        count=len(pictures),
        closing=lambda last: final_card(last, result, detail),
        gif=False,
    )
