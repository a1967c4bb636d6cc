"""Database URLs as hosts hand them out and people paste them (issue 24, items 7 and 9).

The password is never printed — whatever the scheme's case, a leading space or a typo
in the scheme — because the URL is read by the database library (SQLAlchemy's
``make_url``) and only its password-hidden form is shown, or nothing when it cannot be
read; ``postgres://`` (Heroku-style) is PostgreSQL; a URL that cannot be used is a named
refusal (exit 2), never "unexpected error"."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Config, DatabaseConfig, canonical_url, redacted_url, url_password
from bot.logs import QUIET_LIBRARIES
from bot.store.database import make_engine

SECRET = "hunter2secret"
# 127.0.0.1:1 refuses at once: commands that get as far as connecting fail fast.
READABLE = [
    f"POSTGRESQL://bst:{SECRET}@127.0.0.1:1/bst",
    f" postgresql://bst:{SECRET}@127.0.0.1:1/bst",
    f"postgres://bst:{SECRET}@127.0.0.1:1/bst",
    f"PostgreSQL+psycopg://bst:{SECRET}@127.0.0.1:1/bst",
]
REFUSED = [
    f"postgrsql://bst:{SECRET}@127.0.0.1:1/bst",  # a typo in the scheme
    f"postgresql:/bst:{SECRET}@127.0.0.1:1/bst",  # one slash: no URL at all
    f"bst:{SECRET}@127.0.0.1:1/bst",  # no scheme
    f"mysql://bst:{SECRET}@127.0.0.1:1/bst",
    f"postgresql://bst:{SECRET}@[::1/bst",  # a broken host
]


@pytest.fixture(autouse=True)
def logging_as_it_was() -> Iterator[None]:
    """`bst run` in-process sets up logging for the process: put it back for later tests."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    libraries = {name: logging.getLogger(name).level for name in QUIET_LIBRARIES}
    yield
    root.handlers[:], level = saved
    root.setLevel(level)
    for name, level in libraries.items():
        logging.getLogger(name).setLevel(level)


def _config(tmp_path: Path, url: str, from_env: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    path = tmp_path / "config.toml"
    if from_env:
        path.write_text('[database]\nurl_env = "DATABASE_URL"\n')
        monkeypatch.setenv("DATABASE_URL", url)
    else:
        path.write_text(f"[database]\nurl = {url!r}\n".replace("'", '"'))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("url", READABLE + REFUSED)
def test_the_password_is_never_in_a_printed_url(url: str) -> None:
    shown = redacted_url(url)
    assert SECRET not in shown
    assert url_password(url) in ("", SECRET)


@pytest.mark.parametrize("from_env", [False, True])
@pytest.mark.parametrize("url", READABLE)
def test_a_url_with_a_loose_scheme_is_read_and_shown_without_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, url: str, from_env: bool
) -> None:
    path = _config(tmp_path, url, from_env, monkeypatch)
    code, said = _run(capsys, ["check-config", path])
    assert code == 0, said
    assert "bst:***@127.0.0.1:1/bst" in said
    assert SECRET not in said
    for argv in (["migrate", "--config", path], ["export", "1", "--config", path]):
        code, said = _run(capsys, argv)
        assert code == 1, said  # nothing listens there
        assert "cannot reach the database" in said, said
        assert "unexpected error" not in said, said
        assert SECRET not in said, said


@pytest.mark.parametrize("from_env", [False, True])
@pytest.mark.parametrize("url", REFUSED)
def test_a_url_that_cannot_be_used_is_a_named_refusal_without_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, url: str, from_env: bool
) -> None:
    path = _config(tmp_path, url, from_env, monkeypatch)
    commands = [
        ["check-config", path],
        ["migrate", "--config", path],
        ["export", "1", "--config", path],
        ["run", "--config", path],
    ]
    for argv in commands:
        code, said = _run(capsys, argv)
        assert code == 2, (argv, said)
        assert "expected sqlite:///path.db or postgresql://user@host/db" in said, said
        assert "unexpected error" not in said
        assert SECRET not in said, said


def test_postgres_scheme_is_postgresql_with_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    assert canonical_url(" postgres://u:p@h/db ") == "postgresql://u:p@h/db"
    assert canonical_url("SQLITE:///x.db") == "sqlite:///x.db"
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@h:5432/db")
    config = Config(database=DatabaseConfig(url_env="DATABASE_URL"))
    url = config.database_url()
    assert url == "postgresql://u:p@h:5432/db"
    engine = make_engine("postgres://u:p@h:5432/db")
    try:
        assert engine.dialect.name == "postgresql"
        assert engine.dialect.driver == "psycopg"
    finally:
        engine.dispose()
