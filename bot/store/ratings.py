"""The ratings table (``ratings``): a person's rating per kind of game, read as
:class:`~bot.store.records.Rating` records and written back as records, inside the
caller's transaction (:class:`Tx`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from sqlmodel import col, select

from bot.store.models import RatingRow
from bot.store.records import RATING_FIELDS, Rating
from bot.store.repository import Tx
from bot.store.tx import columns_of


def _ratings(tx: Tx, query: Any) -> list[Rating]:
    return [Rating(*row) for row in tx.session.execute(query).all()]


def _columns() -> Any:
    return select(*columns_of(RatingRow, RATING_FIELDS))


def rating_of(tx: Tx, kind: str, person: str) -> Rating | None:
    query = _columns().where(RatingRow.kind == kind, RatingRow.person == person)
    found = _ratings(tx, query)
    return found[0] if found else None


def ratings_of(tx: Tx, person: str) -> list[Rating]:
    query = _columns().where(RatingRow.person == person).order_by(col(RatingRow.kind))
    return _ratings(tx, query)


def top_ratings(tx: Tx, kind: str, limit: int) -> list[Rating]:
    """The best of a kind by OpenSkill's ordinal (mu - 3 sigma: sure to be at least that)."""
    query = (
        _columns()
        .where(RatingRow.kind == kind)
        .order_by((col(RatingRow.mu) - 3 * col(RatingRow.sigma)).desc(), col(RatingRow.person))
        .limit(limit)
    )
    return _ratings(tx, query)


def save_ratings(tx: Tx, ratings: Iterable[Rating]) -> None:
    """Write ratings moved by a game's end, each as given (a new one, or one moved)."""
    for rating in ratings:
        tx.session.merge(RatingRow(**asdict(rating)))
    tx.session.flush()
