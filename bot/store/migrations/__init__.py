"""The schema's history: Alembic revisions (``versions/``), run by
:func:`bot.store.database.migrate` (``bst migrate``; SQLite on start).

A schema change is a new revision, never an edit of a shipped one. Change the
models, then write the revision with explicit DDL (``op.add_column``, ...; never
``metadata.create_all``: the models move on, a revision must not). To draft one
from the models against a database migrated to the head::

    from alembic import command
    from bot.store.database import alembic_config
    command.revision(alembic_config(url="sqlite:///bst.sqlite"), "what it does",
                     autogenerate=True, rev_id="0003")

then read it: name every constraint (so a later revision can drop it on SQLite and
PostgreSQL alike), give a NOT NULL column a ``server_default`` for the rows already
there, and on SQLite alter tables inside ``op.batch_alter_table`` (drafts already do).
"""
