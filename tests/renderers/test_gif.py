"""The streamed GIF writer gives Pillow's bytes, and a replay never holds all its frames."""

from __future__ import annotations

import gc
import io
import weakref
from collections.abc import Iterable, Iterator

import pytest
from PIL import Image
from render_views import revealed_game

from renderers import replay
from renderers.bst.frames import ReplayFrame, render_replay
from renderers.gif import write_gif


def _quantized(frames: list[Image.Image]) -> list[Image.Image]:
    palette = frames[0].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    return [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]


def _pillow(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return out.getvalue()


def _streamed(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    write_gif(out, zip(frames, durations, strict=True))
    return out.getvalue()


def _pictures() -> list[Image.Image]:
    pictures = []
    for i, colour in enumerate([(10, 20, 30), (200, 10, 10), (200, 10, 10), (0, 90, 0)]):
        picture = Image.new("RGB", (64, 48), (10, 20, 30))
        picture.paste(colour, (4 * i, 3 * i, 4 * i + 20, 3 * i + 16))
        pictures.append(picture)
    return pictures


def test_streamed_gif_is_pillows_gif_byte_for_byte() -> None:
    frames = _quantized(_pictures())  # the 2nd and 3rd are the same picture: merged
    durations = [2500, 1000, 1000, 3500]
    assert _streamed(frames, durations) == _pillow(frames, durations)


def test_streamed_gif_of_one_picture_is_pillows_still() -> None:
    frames = _quantized(_pictures()[:1])
    assert _streamed(frames, [500]) == _pillow(frames, [500])


def test_streamed_gif_of_a_real_replay_is_pillows_gif() -> None:
    boards = revealed_game(4, size=10, players=3)
    made = render_replay([ReplayFrame(b, f"Turn {i}") for i, b in enumerate(boards)], title="g")
    animation = Image.open(io.BytesIO(made.gif))
    pictures, durations = [], []
    for index in range(animation.n_frames):
        animation.seek(index)
        pictures.append(animation.convert("RGB"))
        durations.append(animation.info["duration"])
    frames = _quantized(pictures)
    assert _streamed(frames, durations) == _pillow(frames, durations)


def test_an_empty_gif_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        write_gif(io.BytesIO(), [])


def test_a_replay_holds_a_few_pictures_at_a_time_not_all_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long game's replay once kept every picture (and two copies) until the end: about
    1 GB for 250 turns. Pictures handed to the encoders must be let go as it goes on."""
    boards = revealed_game(12, size=10, players=3)
    frames = [ReplayFrame(b, f"Turn {i}") for i, b in enumerate(boards)]
    drawn: list[weakref.ref[Image.Image]] = []
    most_alive = {"mp4": 0, "gif": 0}

    def alive() -> int:
        gc.collect()
        return sum(1 for ref in drawn if ref() is not None)

    from renderers.bst import frames as bst_frames

    real_board_picture = bst_frames.board_picture

    def watched_board_picture(*args: object, **kwargs: object) -> Image.Image:
        most_alive["mp4"] = max(most_alive["mp4"], alive())
        picture = real_board_picture(*args, **kwargs)  # type: ignore[arg-type]
        drawn.append(weakref.ref(picture))
        return picture

    real_write_gif = replay.write_gif
    handed: list[weakref.ref[Image.Image]] = []

    def watched_write_gif(out: io.BytesIO, frames: Iterable[tuple[Image.Image, int]]) -> int:
        def watched() -> Iterator[tuple[Image.Image, int]]:
            for picture, ms in frames:
                gc.collect()
                most_alive["gif"] = max(
                    most_alive["gif"], sum(1 for ref in handed if ref() is not None)
                )
                handed.append(weakref.ref(picture))
                yield picture, ms

        return real_write_gif(out, watched())

    monkeypatch.setattr(bst_frames, "board_picture", watched_board_picture)
    monkeypatch.setattr(replay, "write_gif", watched_write_gif)
    made = render_replay(frames, title="#bst game 1")
    assert made.gif.startswith(b"GIF89a") and len(drawn) == len(frames)
    assert len(handed) == len(frames) + 2
    # the last picture is kept for the closing card and the final still; one more in flight
    assert most_alive["mp4"] <= 2, most_alive
    assert most_alive["gif"] <= 1, most_alive
