"""Replay limits (what X and Discord accept) and determinism."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from render_views import revealed_game

from renderers.bst.frames import ReplayFrame, render_replay
from renderers.encode import ffmpeg_exe
from renderers.pictures import Replay


def probe(data: bytes, folder: Path) -> tuple[float, str, tuple[int, int]]:
    """Duration, video stream line and size, from the ffmpeg binary's ``-i`` output."""
    path = folder / "probe.mp4"
    path.write_bytes(data)
    result = subprocess.run(
        [ffmpeg_exe(), "-hide_banner", "-i", str(path)], capture_output=True, text=True, check=False
    )
    info = result.stderr
    hours, minutes, seconds = re.search(r"Duration: (\d+):(\d+):([\d.]+)", info).groups()  # type: ignore[union-attr]
    stream = next(line for line in info.splitlines() if "Video:" in line)
    width, height = re.search(r", (\d{2,5})x(\d{2,5})", stream).groups()  # type: ignore[union-attr]
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds), stream, (int(width), int(height))


@pytest.fixture(scope="module")
def long_game() -> tuple[list[ReplayFrame], Replay]:
    boards = revealed_game(100, size=20, players=8, hit_bias=0.0)
    assert len(boards) == 101, "the fixture game should last 100 turns"
    frames = [ReplayFrame(b, f"Turn {i}" if i else "After setup") for i, b in enumerate(boards)]
    return frames, render_replay(frames, title="#bst game 3")


def test_long_replay_fits_the_video_limits(
    long_game: tuple[list[ReplayFrame], Replay], tmp_path: Path
) -> None:
    frames, replay = long_game
    duration, stream, (width, height) = probe(replay.mp4, tmp_path)
    assert 0.5 <= duration <= 140
    assert abs(duration - replay.duration_s) < 1.0
    assert "h264" in stream and "yuv420p" in stream
    assert width <= 1280 and height <= 1024 and width % 2 == 0 and height % 2 == 0
    assert len(replay.mp4) <= 10 * 1024 * 1024
    assert len(replay.gif) <= 15_000_000
    assert replay.gif.startswith(b"GIF89a")
    assert replay.frame_count == len(frames) + 2


def test_short_replay_is_deterministic(tmp_path: Path) -> None:
    boards = revealed_game(3, size=10, players=3)
    frames = [ReplayFrame(b, f"Turn {i}") for i, b in enumerate(boards)]
    first = render_replay(frames, title="#bst game 1")
    second = render_replay(frames, title="#bst game 1")
    assert first.mp4 == second.mp4 and first.gif == second.gif
    duration, _, _ = probe(first.mp4, tmp_path)
    assert duration >= 0.5


def test_empty_replay_is_refused() -> None:
    with pytest.raises(ValueError):
        render_replay([], title="nothing")
