"""Alembic's environment: runs the revisions on the connection that
:func:`bot.store.database.alembic_config` hands over (``attributes["connection"]``),
inside its transaction when it has one; with none, on ``sqlalchemy.url`` through
:func:`bot.store.database.make_engine` (SQLite's ``BEGIN IMMEDIATE`` included), in
the transaction Alembic begins itself."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from alembic.runtime.migration import MigrationContext, MigrationInfo
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

import bot.store.models  # noqa: F401  (the tables, for autogenerate)
from bot.store.database import include_object, make_engine

config = context.config


def _record(
    ctx: MigrationContext, step: MigrationInfo, heads: Collection[Any], run_args: Mapping[str, Any]
) -> None:
    applied = config.attributes.get("applied")
    if applied is not None:
        applied.append(step)


def _render_item(type_: str, item: Any, _context: AutogenContext) -> str | Literal[False]:
    # sqlmodel's `str` columns are VARCHARs: drafts say so without importing sqlmodel.
    if type_ == "type" and isinstance(item, AutoString):
        return "sa.String()"
    return False


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        # SQLite alters a table's constraints by copying the table: drafted revisions
        # do that through batch operations, which are plain ALTERs on PostgreSQL.
        render_as_batch=True,
        include_object=include_object,
        render_item=_render_item,
        on_version_apply=_record,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("bst runs its revisions on a live database: use `bst migrate`")
given = config.attributes.get("connection")
if given is not None:
    _run(given)
else:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "")
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()
