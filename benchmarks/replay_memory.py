"""Peak resident memory added by drawing a long replay: the MP4 and the GIF of a 250-turn,
20x20, 12-captain bst game.

Measured in a fresh interpreter so nothing else the benchmarks did is counted: it builds the
game's revealed boards first, resets the kernel's high-water mark (``/proc/self/clear_refs``),
notes its resident memory, draws the replay and reads the new high-water mark (``VmHWM``).
ffmpeg runs as its own process and is not counted; this is what the bot process pays.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks.memory import measured_apart
from benchmarks.timing import Figure

GOAL_MB = 150.0


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(turns: int) -> dict[str, float]:
    """Run in the fresh process: draw the replay, report the memory it added."""
    import gc

    from benchmarks.replay import replay_frames
    from renderers.bst.frames import render_replay

    frames = replay_frames(turns, 20)
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # the high-water mark starts again here
    before_kb = _status_kb("VmRSS")
    replay = render_replay(frames, title="#bst game 1", gif=True)
    peak_kb = _status_kb("VmHWM")
    return {
        "added_mb": (peak_kb - before_kb) / 1024,
        "before_mb": before_kb / 1024,
        "frames": len(frames),
        "mp4_mb": len(replay.mp4) / 1024**2,
        "gif_mb": len(replay.gif) / 1024**2,
    }


def replay_peak(turns: int) -> dict[str, float]:
    return measured_apart("benchmarks.replay_memory", str(turns))


def run(*, quick: bool) -> list[Figure]:
    turns = 60 if quick else 250
    result = replay_peak(turns)
    return [
        Figure(
            "replay_peak_mb" if not quick else "replay_peak_mb_60_turns",
            result["added_mb"],
            GOAL_MB,
            unit=" MB",
            detail=(
                f"{turns} turns, 20x20, 12 captains, MP4 and GIF: {result['added_mb']:.0f} MB "
                f"added to {result['before_mb']:.0f} MB; MP4 {result['mp4_mb']:.1f} MB, "
                f"GIF {result['gif_mb']:.1f} MB"
            ),
        )
    ]


if __name__ == "__main__":
    print(json.dumps(child(int(sys.argv[1]))))
