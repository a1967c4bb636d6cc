"""A person's own settings (``player_settings``): read and written inside the caller's
transaction (:class:`Tx`).

A row belongs to one platform account. Accounts a person linked (``me link``) share one
row, the one their other rows name as ``person``: every read here goes through it, so
their settings follow them to every platform."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import col, select

from bot.store.models import PlayerSettingsRow, RatingRow
from bot.store.repository import Tx


def account_key(platform: str, user_id: str) -> str:
    return f"{platform}:{user_id}"


def own_row(tx: Tx, platform: str, user_id: str) -> PlayerSettingsRow | None:
    """The account's own row (linked or not)."""
    return tx.session.get(PlayerSettingsRow, (platform, user_id))


def settings_of(tx: Tx, platform: str, user_id: str) -> PlayerSettingsRow | None:
    """The settings that stand for the account (its person's, when linked), or None where
    it never set one (UTC, no quiet hours, not away)."""
    row = own_row(tx, platform, user_id)
    if row is None or row.person is None:
        return row
    person_platform, _, person_user = row.person.partition(":")
    return own_row(tx, person_platform, person_user) or row


def save_settings(tx: Tx, row: PlayerSettingsRow) -> None:
    tx.session.add(row)
    tx.session.flush()


def _with_linked(tx: Tx, rows: list[PlayerSettingsRow]) -> dict[tuple[str, str], PlayerSettingsRow]:
    """Each of ``rows`` (settings that stand) by its account and by every account linked
    to it."""
    found = {(r.platform, r.user_id): r for r in rows if r.person is None}
    by_key = {account_key(*key): row for key, row in found.items()}
    if by_key:
        query = select(PlayerSettingsRow).where(col(PlayerSettingsRow.person).in_(list(by_key)))
        for linked in tx.session.exec(query).all():
            found[(linked.platform, linked.user_id)] = by_key[str(linked.person)]
    return found


def quiet_accounts(tx: Tx) -> dict[tuple[str, str], PlayerSettingsRow]:
    """Every account with quiet hours, by (platform, user_id), with the settings that
    stand for it: what the reminders look at (few people set them, so one read a tick)."""
    query = select(PlayerSettingsRow).where(col(PlayerSettingsRow.quiet_start).is_not(None))
    return _with_linked(tx, list(tx.session.exec(query).all()))


def away_accounts(tx: Tx, now: float) -> dict[tuple[str, str], float]:
    """Every account away at ``now``, by (platform, user_id): until when."""
    query = select(PlayerSettingsRow).where(col(PlayerSettingsRow.away_until) > now)
    rows = _with_linked(tx, list(tx.session.exec(query).all()))
    return {key: float(row.away_until or 0.0) for key, row in rows.items()}


def row_by_link_digest(tx: Tx, digest: str, now: float) -> PlayerSettingsRow | None:
    """The account that showed the link code with this SHA-256, while it is valid."""
    query = select(PlayerSettingsRow).where(
        PlayerSettingsRow.link_digest == digest, col(PlayerSettingsRow.link_expires) > now
    )
    return tx.session.exec(query).first()


def linked_accounts(tx: Tx, person: str) -> list[PlayerSettingsRow]:
    """The accounts linked to ``person`` (not counting the person's own row)."""
    query = select(PlayerSettingsRow).where(PlayerSettingsRow.person == person)
    return list(tx.session.exec(query).all())


def person_of(tx: Tx, platform: str, user_id: str) -> str:
    """The key a person's ratings are kept under: their linked account's, else this one's."""
    row = own_row(tx, platform, user_id)
    return row.person if row is not None and row.person else account_key(platform, user_id)


def accounts_of(tx: Tx, platform: str, user_id: str) -> list[tuple[str, str]]:
    """Every account of the person behind this one, this one first: itself alone where
    it is linked to none (one read of its own row, and one more only where it is)."""
    own = own_row(tx, platform, user_id)
    if own is None:
        return [(platform, user_id)]
    person = own.person or account_key(platform, user_id)
    person_platform, _, person_user = person.partition(":")
    others = [(person_platform, person_user)] if own.person else []
    others += [(r.platform, r.user_id) for r in linked_accounts(tx, person)]
    return [(platform, user_id), *[a for a in dict.fromkeys(others) if a != (platform, user_id)]]


def rating_of(tx: Tx, kind: str, person: str) -> RatingRow | None:
    return tx.session.get(RatingRow, (kind, person))


def ratings_of(tx: Tx, person: str) -> list[RatingRow]:
    query = select(RatingRow).where(RatingRow.person == person).order_by(col(RatingRow.kind))
    return list(tx.session.exec(query).all())


def top_ratings(tx: Tx, kind: str, limit: int) -> list[RatingRow]:
    """The best of a kind by OpenSkill's ordinal (mu - 3 sigma: sure to be at least that)."""
    query = (
        select(RatingRow)
        .where(RatingRow.kind == kind)
        .order_by((col(RatingRow.mu) - 3 * col(RatingRow.sigma)).desc(), col(RatingRow.person))
        .limit(limit)
    )
    return list(tx.session.exec(query).all())


def save_ratings(tx: Tx, rows: Iterable[RatingRow]) -> None:
    """Write ratings moved by a game's end (new ones and changed ones)."""
    for row in rows:
        tx.session.add(row)
    tx.session.flush()
