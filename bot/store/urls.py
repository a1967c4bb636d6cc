"""Database URLs read as the database library reads them: fit to print (their secrets
hidden) and their password (for the logs to scrub). The configuration asks here, so the
library is known to the store alone."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

UNREADABLE_URL = "(a URL that cannot be read, not shown)"

_SECRET_WORDS = ("pass", "secret", "token", "key")
"""A query parameter whose name holds one of these is a secret (``?password=``,
``sslpassword``, ``api_key``): its value is never shown."""


def _read_url(url: str) -> Any:
    """SQLAlchemy's reading of ``url`` with what it misreads put right: a password
    holding an unencoded ``@`` (read as far as its first ``@``, the rest taken for the
    host) is all of it up to the last ``@``."""
    parsed = make_url(url.strip())
    host = parsed.host or ""
    if "@" in host:
        tail, _, host = host.rpartition("@")
        if parsed.password is not None:
            password = f"{parsed.password}@{tail}"
        else:  # no ":" before the first "@": the whole tail is user and password
            password = tail.partition(":")[2] or tail
        parsed = parsed.set(host=host, password=password)
    return parsed


def redacted_url(url: str) -> str:
    """A database URL fit to print: SQLAlchemy's own reading of it with the password
    hidden (``***``), the whole of it even when it holds an unencoded ``@``, and the
    query's secrets (``?password=``) hidden too; or, when it cannot be read as a URL at
    all, nothing of it (a pattern of our own would miss a password the database library
    finds: an upper-case scheme, a leading space, a typo in the scheme)."""
    try:
        parsed = _read_url(url)
        query = {
            key: ("***" if any(word in key.lower() for word in _SECRET_WORDS) else value)
            for key, value in parsed.query.items()
        }
        shown = str(parsed.set(query=query).render_as_string(hide_password=True))
        return shown.replace("=%2A%2A%2A", "=***")
    except (ArgumentError, ValueError, TypeError):
        return UNREADABLE_URL


def url_password(url: str) -> str:
    """The password in a database URL, as the database library reads it ("" if none), so
    the logs can scrub it: all of it when it holds an unencoded ``@``, else a
    ``?password=`` in the query."""
    try:
        parsed = _read_url(url)
    except (ArgumentError, ValueError, TypeError):
        return ""
    if parsed.password:
        return str(parsed.password)
    for key, value in parsed.query.items():
        if "pass" in key.lower() and isinstance(value, str):
            return value
    return ""
