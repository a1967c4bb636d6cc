"""A person's own settings (``player_settings``): read and written inside the caller's
transaction (:class:`Tx`).

A row belongs to one platform account. Accounts a person linked (``me link``) share one
row, the one their other rows name as ``person``: every read here goes through it, so
their settings follow them to every platform."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlmodel import col, select

from bot.store.models import PlayerSettingsRow
from bot.store.records import SETTINGS_FIELDS, AccountSettings
from bot.store.repository import Tx
from bot.store.tx import columns_of


def account_key(platform: str, user_id: str) -> str:
    return f"{platform}:{user_id}"


def _columns() -> Any:
    return select(*columns_of(PlayerSettingsRow, SETTINGS_FIELDS))


def _settings(tx: Tx, query: Any) -> list[AccountSettings]:
    # (SQLite's driver gives a boolean column as 0 or 1.)
    return [
        AccountSettings(**dict(zip(SETTINGS_FIELDS, (*row[:-1], bool(row[-1])), strict=True)))
        for row in tx.session.execute(query).all()
    ]


def own_row(tx: Tx, platform: str, user_id: str) -> AccountSettings | None:
    """The account's own settings (linked or not)."""
    query = _columns().where(
        col(PlayerSettingsRow.platform) == platform, col(PlayerSettingsRow.user_id) == user_id
    )
    found = _settings(tx, query)
    return found[0] if found else None


def settings_of(tx: Tx, platform: str, user_id: str) -> AccountSettings | None:
    """The settings that stand for the account (its person's, when linked), or None where
    it never set one (UTC, no quiet hours, not away)."""
    row = own_row(tx, platform, user_id)
    if row is None or row.person is None:
        return row
    person_platform, _, person_user = row.person.partition(":")
    return own_row(tx, person_platform, person_user) or row


def save_settings(tx: Tx, settings: AccountSettings) -> None:
    """Write an account's settings as given (a new row, or the row changed)."""
    tx.session.merge(PlayerSettingsRow(**asdict(settings)))
    tx.session.flush()


def _with_linked(tx: Tx, rows: list[AccountSettings]) -> dict[tuple[str, str], AccountSettings]:
    """Each of ``rows`` (settings that stand) by its account and by every account linked
    to it."""
    found = {(r.platform, r.user_id): r for r in rows if r.person is None}
    by_key = {account_key(*key): row for key, row in found.items()}
    if by_key:
        query = _columns().where(col(PlayerSettingsRow.person).in_(list(by_key)))
        for linked in _settings(tx, query):
            found[(linked.platform, linked.user_id)] = by_key[str(linked.person)]
    return found


def quiet_accounts(tx: Tx) -> dict[tuple[str, str], AccountSettings]:
    """Every account with quiet hours, by (platform, user_id), with the settings that
    stand for it: what the reminders look at (few people set them, so one read a tick)."""
    query = _columns().where(col(PlayerSettingsRow.quiet_start).is_not(None))
    return _with_linked(tx, _settings(tx, query))


def away_accounts(tx: Tx, now: float) -> dict[tuple[str, str], float]:
    """Every account away at ``now``, by (platform, user_id): until when."""
    query = _columns().where(col(PlayerSettingsRow.away_until) > now)
    rows = _with_linked(tx, _settings(tx, query))
    return {key: float(row.away_until or 0.0) for key, row in rows.items()}


def row_by_link_digest(tx: Tx, digest: str, now: float) -> AccountSettings | None:
    """The account that showed the link code with this SHA-256, while it is valid."""
    query = _columns().where(
        col(PlayerSettingsRow.link_digest) == digest, col(PlayerSettingsRow.link_expires) > now
    )
    found = _settings(tx, query.limit(1))
    return found[0] if found else None


def linked_accounts(tx: Tx, person: str) -> list[AccountSettings]:
    """The accounts linked to ``person`` (not counting the person's own row)."""
    return _settings(tx, _columns().where(col(PlayerSettingsRow.person) == person))


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
