"""The replay of a 100-turn 20x20 game against encoding as many blank frames of its size."""

from __future__ import annotations

from PIL import Image

from benchmarks import fixtures
from benchmarks.timing import Figure, median_seconds
from bot.games.bst import BST
from renderers.bst.frames import ReplayFrame, frame_layout, render_replay
from renderers.encode import encode_mp4
from renderers.replay import OUTPUT_FPS, timing


def replay_frames(turns: int, size: int = 20) -> list[ReplayFrame]:
    states = fixtures.long_game(turns, size=size)
    return [
        ReplayFrame(BST.views.reveal(state), "The fleets at the start" if i == 0 else f"Turn {i}")
        for i, state in enumerate(states)
    ]


def replay_ratio(turns: int = 100, size: int = 20, *, repeats: int) -> float:
    """Median time of ``render_replay`` making the MP4 the host posts (``gif=False``: the GIF
    is made only when the host is configured to post it too) ÷ median time of ``encode_mp4``
    on blank frames: as many as the replay's video holds, same size and rate."""
    frames = replay_frames(turns, size)
    _, picture_size = frame_layout(size, size)
    rate, title_repeats, final_repeats = timing(len(frames), 1.0)
    count = title_repeats + len(frames) + final_repeats
    blank = Image.new("RGB", picture_size, (0, 0, 0))

    def replay() -> object:
        return render_replay(frames, title="#bst game 1", gif=False)

    def floor() -> bytes:
        return encode_mp4(
            [blank] * count, size=picture_size, frame_rate=rate, output_fps=OUTPUT_FPS
        )

    replay_s = median_seconds(replay, repeats=repeats)
    floor_s = median_seconds(floor, repeats=repeats)
    replay_ratio.last = (replay_s, floor_s, count, picture_size)  # type: ignore[attr-defined]
    return replay_s / floor_s


def run(*, quick: bool) -> list[Figure]:
    ratio = replay_ratio(repeats=3 if quick else 7)
    replay_s, floor_s, count, (width, height) = replay_ratio.last  # type: ignore[attr-defined]
    return [
        Figure(
            "replay_ratio",
            ratio,
            3.0,
            floor=f"encode_mp4 of {count} blank {width}x{height} frames",
            detail=f"replay {replay_s:.2f} s (MP4 only), floor {floor_s:.2f} s",
        )
    ]
