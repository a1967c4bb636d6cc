"""Private links to the web page (``web_links``): issued and revoked by the host, read
by the web. Each function works inside the caller's transaction (:class:`Tx`)."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import update
from sqlmodel import col, select

from bot.store.models import WebLinkRow
from bot.store.records import WEB_LINK_FIELDS, WebLink
from bot.store.repository import Tx
from bot.store.tx import columns_of


def token_digest(token: str) -> str:
    """The hex SHA-256 a link is found by (see :class:`WebLinkRow`)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _first(tx: Tx, query: Any) -> WebLink | None:
    found = tx.session.execute(query.limit(1)).first()
    return None if found is None else WebLink(*found)


def _columns() -> Any:
    return select(*columns_of(WebLinkRow, WEB_LINK_FIELDS))


def _active(tx: Tx, game_id: int, player_key: str) -> WebLink | None:
    query = (
        _columns()
        .where(
            WebLinkRow.game_id == game_id,
            WebLinkRow.player_key == player_key,
            col(WebLinkRow.revoked_at).is_(None),
        )
        .order_by(col(WebLinkRow.id).desc())
    )
    return _first(tx, query)


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
        tx.session.execute(
            update(WebLinkRow).where(col(WebLinkRow.id) == found.id).values(revoked_at=now)
        )
    return issue_link(tx, game_id, player_key, token=token, now=now)


def link_holder(tx: Tx, digest: str) -> WebLink | None:
    """The live link whose token has this digest."""
    query = _columns().where(col(WebLinkRow.digest) == digest, col(WebLinkRow.revoked_at).is_(None))
    return _first(tx, query)


__all__ = ["issue_link", "link_holder", "renew_link", "token_digest"]
