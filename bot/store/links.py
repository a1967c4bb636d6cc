"""Private links to the web page (``web_links``): issued and revoked by the host, read
by the web. Each function works inside the caller's transaction (:class:`Tx`)."""

from __future__ import annotations

import hashlib

from sqlmodel import col, select

from bot.store.models import WebLinkRow
from bot.store.repository import Tx


def token_digest(token: str) -> str:
    """The hex SHA-256 a link is found by (see :class:`WebLinkRow`)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _active(tx: Tx, game_id: int, player_key: str) -> WebLinkRow | None:
    query = (
        select(WebLinkRow)
        .where(
            WebLinkRow.game_id == game_id,
            WebLinkRow.player_key == player_key,
            col(WebLinkRow.revoked_at).is_(None),
        )
        .order_by(col(WebLinkRow.id).desc())
    )
    return tx.session.exec(query).first()


def issue_link(tx: Tx, game_id: int, player_key: str, *, token: str, now: float) -> str:
    """The player's link token: the one they hold, else ``token``, stored as theirs."""
    found = _active(tx, game_id, player_key)
    if found is not None:
        return found.token
    tx.session.add(
        WebLinkRow(
            game_id=game_id,
            player_key=player_key,
            token=token,
            digest=token_digest(token),
            created_at=now,
        )
    )
    tx.session.flush()
    return token


def renew_link(tx: Tx, game_id: int, player_key: str, *, token: str, now: float) -> str:
    """Revoke the player's link (if any) and issue ``token`` in its place."""
    found = _active(tx, game_id, player_key)
    if found is not None:
        found.revoked_at = now
        tx.session.add(found)
        tx.session.flush()
    return issue_link(tx, game_id, player_key, token=token, now=now)


def link_holder(tx: Tx, digest: str) -> tuple[int, str, str] | None:
    """(game id, player key, token) of the live link whose token has this digest."""
    query = select(WebLinkRow).where(
        WebLinkRow.digest == digest, col(WebLinkRow.revoked_at).is_(None)
    )
    found = tx.session.exec(query).first()
    return None if found is None else (found.game_id, found.player_key, found.token)


__all__ = ["issue_link", "link_holder", "renew_link", "token_digest"]
