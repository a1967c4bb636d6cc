"""``bst web`` draws in a process of its own, at a lower CPU priority
(:mod:`bot.web.drawing`): the server's event loop never waits for the interpreter lock
while a new turn's big map is drawn. What that process draws is what a thread draws:
the same page, map and tiles, byte for byte (issue 28: deterministic bytes)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from test_web_tiles import BIG, _link
from web_kit import play, served

from bot.web.drawing import NICENESS


def test_the_drawing_process_draws_the_same_bytes_as_a_thread_at_a_lower_priority(
    tmp_path: Path,
) -> None:
    database = tmp_path / "big.sqlite"
    play(database, BIG, tmp_path / "scripts")
    token = _link(database, "ahab", "ahab-process-token-0123456789abcd")
    paths = [
        "/games/1",
        "/games/1/map/1-0.png",
        "/games/1/tiles/1-0/0/0/0.png",
        "/games/1/tiles/1-0/6/1/1.png",
        f"/p/{token}",
        f"/p/{token}/map/1-0.png",
        f"/p/{token}/tiles/1-0/3/0/0.png",
        "/games/1/tiles/1-0/0/5/0.png",  # off the board: the one 404
    ]
    answers = {}
    for in_process in (False, True):
        with served(database, draw_in_process=in_process) as site:
            answers[in_process] = [site.get(path) for path in paths]
            pictures = site.server.app_site.pictures
            if in_process:
                # the server decoded no state of its own: the drawing process did
                assert not pictures._states
                drawer = site.server.drawer
                assert drawer is not None and drawer._pool is not None
                [pid] = list(drawer._pool._processes)  # type: ignore[attr-defined]
                ours = os.getpriority(os.PRIO_PROCESS, 0)
                assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, ours + NICENESS)
                assert pictures.drawn == 5  # two maps, three tiles: each once, kept
                assert site.get("/games/1/map/1-0.png").body == answers[True][1].body
                assert pictures.drawn == 5
            else:
                assert pictures._states
    for path, thread, process in zip(paths, answers[False], answers[True], strict=True):
        assert (thread.status, thread.body) == (process.status, process.body), path
        assert thread.headers.get("ETag") == process.headers.get("ETag"), path
    assert [a.status for a in answers[True]] == [200] * 7 + [404]
    assert re.search(r'data-tiles="/p/[^/]+/tiles/1-0"', answers[True][4].text)
