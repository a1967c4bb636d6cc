"""``bst web`` as a process, ``bst script --database`` from the command line, and
``bst run`` serving the page when ``[web] enabled``."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from web_kit import play

from bot.cli.run import _web_page
from bot.config import Config, DatabaseConfig, WebConfig
from bot.wiring import sqlite_url

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """\
@game bst size=10x10 turn=8h
ahab dm: join
nemo dm: join
@start
ahab public: #bst F3
@close
"""


def _bst(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(cwd)},
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_bst_script_database_keeps_the_game_and_bst_web_serves_it(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    url = sqlite_url(tmp_path / "games.sqlite")
    played = _bst("script", str(script), "--database", url, cwd=tmp_path)
    assert played.wait(120) == 0, played.stderr.read() if played.stderr else ""
    port = _free_port()
    server = _bst("web", "--database", url, "--port", str(port), cwd=tmp_path)
    try:
        page = b""
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/1", timeout=5) as r:
                    page = r.read()
                break
            except OSError:
                time.sleep(0.2)
        assert b"<h1>#bst game 1</h1>" in page
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0  # SIGTERM stops it cleanly


def test_bst_web_stops_saying_why_when_its_database_file_is_removed(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "games.sqlite")
    play(tmp_path / "games.sqlite", SCRIPT, tmp_path / "played")
    port = _free_port()
    server = _bst("web", "--database", url, "--port", str(port), cwd=tmp_path)
    try:
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                    break
            except OSError:
                time.sleep(0.2)
        (tmp_path / "games.sqlite").unlink()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/1", timeout=10):
                pass
        except OSError:
            pass  # (a 500, or the connection closed as it stops)
        assert server.wait(60) == 1
        assert server.stderr is not None
        assert "games.sqlite was removed while bst was running" in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


def test_bst_web_without_a_database_says_how_to_name_one(tmp_path: Path) -> None:
    done = _bst("web", "--database", sqlite_url(tmp_path / "none.sqlite"), cwd=tmp_path)
    assert done.wait(60) == 2
    assert done.stderr is not None
    assert "no database at" in done.stderr.read()
    wrong = _bst("web", "--database", "mysql://x", "--port", "1", cwd=tmp_path)
    assert wrong.wait(60) == 2
    assert wrong.stderr is not None
    assert "expected sqlite:///path.db or postgresql://" in wrong.stderr.read()


def test_bst_run_serves_the_page_when_enabled(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    play(database, SCRIPT, tmp_path / "scripts")
    port = _free_port()
    config = Config(
        database=DatabaseConfig(url=sqlite_url(database)), web=WebConfig(enabled=True, port=port)
    )

    async def visit() -> bytes:
        async with _web_page(config):
            return await asyncio.to_thread(
                lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
            )

    assert b'<a class="name" href="/games/1">#bst game 1</a>' in asyncio.run(visit())


def test_the_web_draws_in_a_process_of_its_own_unless_the_database_is_in_memory(
    tmp_path: Path,
) -> None:
    """``bst web`` and ``bst run`` draw in a drawing process (bot.web.drawing), which
    opens the same database: a file's, or a server's; a database in the process's own
    memory cannot be opened by another, so its pictures are drawn on threads."""
    from bot.cli.web import web_server

    database = tmp_path / "games.sqlite"
    play(database, SCRIPT, tmp_path / "scripts")
    on_file = web_server(Config(), sqlite_url(database))
    in_memory = web_server(Config(), "sqlite:///:memory:")
    try:
        assert on_file.drawer is not None and on_file.drawer.url == sqlite_url(database)
        assert in_memory.drawer is None
    finally:
        on_file.store.dispose()
        in_memory.store.dispose()
