"""A person's own settings (``player_settings``), per platform account: read and written
inside the caller's transaction (:class:`Tx`)."""

from __future__ import annotations

from sqlmodel import col, select

from bot.store.models import PlayerSettingsRow
from bot.store.repository import Tx


def settings_of(tx: Tx, platform: str, user_id: str) -> PlayerSettingsRow | None:
    """The account's settings, or None where it never set one (UTC, no quiet hours)."""
    return tx.session.get(PlayerSettingsRow, (platform, user_id))


def save_settings(tx: Tx, row: PlayerSettingsRow) -> None:
    tx.session.add(row)
    tx.session.flush()


def quiet_accounts(tx: Tx) -> dict[tuple[str, str], PlayerSettingsRow]:
    """Every account with quiet hours, by (platform, user_id): what the reminders look at
    (few people set them, so one read a tick)."""
    query = select(PlayerSettingsRow).where(col(PlayerSettingsRow.quiet_start).is_not(None))
    return {(r.platform, r.user_id): r for r in tx.session.exec(query).all()}


def away_accounts(tx: Tx, now: float) -> dict[tuple[str, str], float]:
    """Every account away at ``now``, by (platform, user_id): until when."""
    query = select(PlayerSettingsRow).where(col(PlayerSettingsRow.away_until) > now)
    return {
        (r.platform, r.user_id): float(r.away_until or 0.0) for r in tx.session.exec(query).all()
    }
