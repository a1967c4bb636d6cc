"""The database: engine, transactions and schema migrations.

SQLite by default (a file: WAL, a busy timeout, every write transaction begun
with ``BEGIN IMMEDIATE`` so two processes serialise instead of failing on
upgrade), PostgreSQL by URL (psycopg; game rows locked with ``FOR UPDATE``).

Schema changes are Alembic revisions (``bot/store/migrations``), run in code:
no ``alembic.ini``. ``bst migrate`` applies what is missing; SQLite databases are
migrated automatically on start. A database made before Alembic (a
``schema_version`` table) is first brought to its version 3 by the old steps
(:mod:`bot.store.migrations.legacy`), then stamped 0001, the revision that
describes that schema, then upgraded like any other.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext, MigrationInfo
from alembic.script import Script, ScriptDirectory
from sqlalchemy import event, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, create_engine

from bot.store import models
from bot.store.migrations import legacy

MIGRATIONS = Path(__file__).parent / "migrations"
# The revision whose schema is the old hand-written version 3.
LEGACY_REVISION = "0001"
# Tables that are no model's: Alembic's own, and the old migrations' record, left in
# databases that had it. Autogenerate and schema comparisons leave them alone.
UNMODELLED_TABLES = frozenset({"alembic_version", "schema_version"})
# Any constant: two `bst migrate` on one PostgreSQL database take turns.
_POSTGRES_MIGRATION_LOCK = 0x627374


def is_passing_failure(error: BaseException) -> bool:
    """Whether ``error`` is the database (or the network to it) failing for now — locked,
    gone, timed out — rather than something about what was asked of it: the same
    message, asked again later, may then succeed, so it must be retried, not answered."""
    return isinstance(
        error,
        OSError
        | sqlite3.OperationalError
        | sa_exc.OperationalError
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError,
    )


class DatabaseGone(Exception):
    """The SQLite file this process opened was removed or replaced while it ran. Its
    connections would go on writing into the unlinked file (acknowledged orders, whole
    turns) that nobody will read again, and a restart would start empty: every
    transaction fails with this (not a passing failure: it is not retried), and the
    hooks of :func:`when_gone` are told, so the process stops saying why."""


_gone_hooks: list[Callable[[DatabaseGone], None]] = []


def when_gone(hook: Callable[[DatabaseGone], None]) -> Callable[[], None]:
    """Call ``hook`` (from whichever thread noticed) when a database file is found gone;
    returns what removes the hook. ``bst run`` stops on it."""
    _gone_hooks.append(hook)
    return lambda: _gone_hooks.remove(hook)


def _sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL; None for a database in memory or a URI with options."""
    if not url.startswith("sqlite:///") or "?" in url or url.endswith(":memory:"):
        return None
    return url.removeprefix("sqlite:///") or None


def _identity(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _check_still_there(path: str, opened: tuple[int, int]) -> None:
    now = _identity(path)
    if now == opened:
        return
    what = "removed" if now is None else "replaced by another file"
    gone = DatabaseGone(
        f"the database file {path} was {what} while bst was running; stopping, so that "
        "nothing more is written where no one will read it. Put the file back (from a "
        "backup) and start bst again, or start it with the database you mean."
    )
    for hook in list(_gone_hooks):
        hook(gone)
    raise gone


class SchemaTooNew(Exception):
    """The database is at a revision this version of bst does not know."""


def _use_wal(cursor: sqlite3.Cursor) -> None:
    # WAL mode is kept in the file: once set, there is nothing to do. Setting it needs
    # the file to itself, and SQLite refuses at once (no busy wait) while another
    # connection holds a write lock, as when two processes open a new database together:
    # wait for that one to finish, as the busy timeout would.
    if cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    give_up = time.monotonic() + 30
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError:
            if time.monotonic() > give_up:
                raise
            time.sleep(0.05)


def normal_url(url: str) -> str:
    """``url`` as the engine takes it: no surrounding blanks, the scheme in lower case
    (``Postgresql://`` as typed on a command line), ``postgres://`` as
    ``postgresql://`` (as :func:`bot.config.canonical_url`, for URLs that did not come
    through the config: ``--database``)."""
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text
    scheme = scheme.lower()
    return f"{'postgresql' if scheme == 'postgres' else scheme}://{rest}"


def make_engine(url: str, *, read_only: bool = False) -> Engine:
    """The engine for ``url``. ``read_only``: every transaction may only read (the web
    page's engine): SQLite's ``query_only`` and a plain deferred ``BEGIN``, which takes no
    write lock, so readers never hold up the bot's writes (WAL lets both run);
    PostgreSQL's ``default_transaction_read_only``."""
    url = normal_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
        )

        @event.listens_for(engine, "connect")
        def _sqlite_setup(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            # Let SQLAlchemy, not the driver, decide when transactions begin,
            # so every one can be BEGIN IMMEDIATE (a write lock taken up front).
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            if not url.endswith(":memory:") and url != "sqlite://":
                _use_wal(cursor)
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            if read_only:
                cursor.execute("PRAGMA query_only=ON")
            cursor.close()

        begin = "BEGIN" if read_only else "BEGIN IMMEDIATE"
        path = _sqlite_file(url)
        # The file (as an absolute path: the working directory may change later) and its
        # identity, when first begun on.
        opened: list[tuple[str, tuple[int, int]]] = []

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection):  # type: ignore[no-untyped-def]
            if path is not None:
                if not opened:
                    first = _identity(path)
                    if first is not None:
                        opened.append((os.path.abspath(path), first))
                if opened:
                    # One stat a transaction: a file removed (or swapped) under a
                    # running process is noticed before anything is written into it.
                    _check_still_there(*opened[0])
            connection.exec_driver_sql(begin)

        return engine
    for plain in ("postgresql://", "postgres://"):  # postgres://: what Heroku-style hosts give
        if url.startswith(plain):
            url = "postgresql+psycopg://" + url.removeprefix(plain)
    if read_only:
        return create_engine(
            url,
            pool_pre_ping=True,
            connect_args={"options": "-c default_transaction_read_only=on"},
        )
    return create_engine(url, pool_pre_ping=True)


def alembic_config(connection: Connection | None = None, *, url: str = "") -> Config:
    """Alembic's configuration, built in code. ``env.py`` runs the revisions on
    ``connection`` (in its transaction, if it has one), or else on ``url``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    # `command.revision`: files named 0003_what_it_does.py (pass rev_id="0003").
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def include_object(
    _object: Any, name: str | None, type_: str, _reflected: bool, _compare_to: Any
) -> bool:
    """Alembic's filter for autogenerate and comparisons: skip the unmodelled tables."""
    return not (type_ == "table" and name in UNMODELLED_TABLES)


def head_revision() -> str:
    """The revision a migrated database is at (the newest revision)."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, f"no revision in {MIGRATIONS / 'versions'}"
    return head


def current_revisions(connection: Connection) -> tuple[str, ...]:
    return MigrationContext.configure(connection).get_current_heads()


def _describe(step: MigrationInfo) -> str:
    script = step.up_revision
    what = f"{step.up_revision_id}: {script.doc if isinstance(script, Script) else ''}"
    return f"{what} (stamped: the schema it creates is already there)" if step.is_stamp else what


def migrate(engine: Engine) -> list[str]:
    """Bring the database to the head revision; returns what was done, for the
    command's output (empty if it was up to date).

    One transaction for everything (SQLite and PostgreSQL both roll DDL back): a
    failure leaves the database as it was. On SQLite it begins ``BEGIN IMMEDIATE``,
    so a second process starting at the same time waits, then finds nothing to do;
    on PostgreSQL an advisory lock does the same.
    """
    applied: list[MigrationInfo] = []
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _POSTGRES_MIGRATION_LOCK}
            )
        config = alembic_config(connection)
        config.attributes["applied"] = applied
        scripts = ScriptDirectory.from_config(config)
        known = {script.revision for script in scripts.walk_revisions()}
        current = current_revisions(connection)
        unknown = [revision for revision in current if revision not in known]
        if unknown:
            raise SchemaTooNew(
                f"the database is at revision {', '.join(unknown)}, newer than this bst "
                f"knows (its newest is {scripts.get_current_head()}): upgrade bst"
            )
        done: list[str] = []
        if not current and 1 in legacy.applied_versions(connection):
            done += legacy.bring_to_version_3(connection)
            command.stamp(config, LEGACY_REVISION)
        command.upgrade(config, "head")
    return done + [_describe(step) for step in applied]


@contextmanager
def session_scope(engine: Engine, session_class: type[Session] = Session) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any error."""
    with session_class(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


__all__ = [
    "DatabaseGone",
    "SchemaTooNew",
    "head_revision",
    "make_engine",
    "migrate",
    "models",
    "session_scope",
    "when_gone",
]


def unreachable_reason(error: Exception) -> str | None:
    """Why the database did not answer, in the driver's own first line (refused, timed
    out, no such host; never the password), when ``error`` says it did not; else None."""
    if not isinstance(error, sa_exc.OperationalError):
        return None
    return str(error.orig or error).splitlines()[0][:200]
