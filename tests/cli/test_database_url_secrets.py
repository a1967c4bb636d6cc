"""Database URLs in messages (issue 39, item 12): a password holding an unencoded ``@``
never shows its tail, a ``?password=`` is hidden, a capitalised scheme works on
``bst web`` and ``bst script`` as on ``bst run``, and a busy port is a clear refusal,
never "unexpected error"."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import redacted_url, url_password
from bot.store import Store
from bot.wiring import sqlite_url

EXAMPLE = Path(__file__).resolve().parents[1] / "games" / "bst" / "scripts" / "bst-first-game.txt"


def test_a_password_with_an_unencoded_at_never_shows_its_tail() -> None:
    url = "postgresql://bst:hunter@2tail@db.example.org/bst"
    shown = redacted_url(url)
    assert "2tail" not in shown and "hunter" not in shown
    assert shown == "postgresql://bst:***@db.example.org/bst"
    assert url_password(url) == "hunter@2tail"  # what the logs scrub: all of it


def test_a_password_in_the_query_is_hidden() -> None:
    url = "postgresql://bst@db.example.org/bst?password=hunter2tail&sslmode=require"
    shown = redacted_url(url)
    assert "hunter2tail" not in shown and "sslmode=require" in shown
    assert url_password(url) == "hunter2tail"


def test_an_unencoded_at_is_refused_with_how_to_write_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "game.txt"
    script.write_text("@game bst\n", encoding="utf-8")
    code = main(["script", str(script), "--database", "postgresql://bst:hunter@2tail@h/bst"])
    err = capsys.readouterr().err
    assert code == 2
    assert "%40" in err and "2tail" not in err and "unexpected" not in err


def test_a_capitalised_scheme_is_read_on_script(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["script", str(EXAMPLE), "--database", "Postgresql://bst:hunter2@127.0.0.1:1/bst"])
    err = capsys.readouterr().err
    assert "unexpected error" not in err and "hunter2" not in err
    assert "cannot reach the database" in err
    assert code == 1


def test_a_capitalised_sqlite_scheme_opens_the_same_store(tmp_path: Path) -> None:
    store = Store("SQLite:///" + str(tmp_path / "x.db"))
    assert store.url == sqlite_url(tmp_path / "x.db") and not store.postgres
    store.dispose()


def test_a_busy_port_is_a_clear_refusal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    Store(sqlite_url(tmp_path / "bst.db")).dispose()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["web", "--database", sqlite_url(tmp_path / "bst.db"), "--port", str(port)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in err and "unexpected" not in err
