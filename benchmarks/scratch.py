"""A PostgreSQL schema of its own for each benchmark that writes to PostgreSQL.

The database named by ``BST_BENCH_POSTGRES_URL`` may hold other rows (tests, earlier
runs): a storm resolves every due game it finds, so leftovers would be measured too.
Each benchmark gets a fresh schema in that database, chosen with the connection's
``search_path``, and drops it afterwards; nothing outside it is touched.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """The URL with a fresh, empty schema first on its search path."""
    import psycopg

    schema = f"bst_bench_{os.getpid()}_{time.monotonic_ns()}"
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")
