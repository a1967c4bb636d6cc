"""Seats handed to someone else (``seat_changes``): read and written inside the caller's
transaction (:class:`Tx`)."""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import col, select

from bot.store.models import InboundRow, PlayerRow, SeatChangeRow, WebLinkRow
from bot.store.repository import Tx


def hand_seat(
    tx: Tx,
    player: PlayerRow,
    *,
    platform: str,
    user_id: str,
    name: str,
    avatar_url: str | None,
    turn: int,
    now: float,
) -> SeatChangeRow:
    """From ``turn`` on, the account (``platform``, ``user_id``) plays ``player``'s seat;
    the seat keeps its key and name. The seat's private web link, if any, is revoked
    (the newcomer gets one of their own when they ask)."""
    change = SeatChangeRow(
        game_id=player.game_id,
        player_key=player.key,
        turn=turn,
        from_account=f"{player.platform}:{player.user_id}",
        from_name=player.account_name or player.name,
        to_account=f"{platform}:{user_id}",
        to_name=name,
        changed_at=now,
    )
    player.platform = platform
    player.user_id = user_id
    player.avatar_url = avatar_url
    player.account_name = "" if name == player.name else name
    links = select(WebLinkRow).where(
        WebLinkRow.game_id == player.game_id,
        WebLinkRow.player_key == player.key,
        col(WebLinkRow.revoked_at).is_(None),
    )
    for link in tx.session.exec(links).all():
        link.revoked_at = now
        tx.session.add(link)
    tx.session.add(change)
    tx.save(player)  # (drops the transaction's snapshots of the game's players)
    return change


def seat_changes(tx: Tx, game_id: int) -> list[SeatChangeRow]:
    query = (
        select(SeatChangeRow)
        .where(SeatChangeRow.game_id == game_id)
        .order_by(col(SeatChangeRow.id))
    )
    return list(tx.session.exec(query).all())


def handed_away(tx: Tx, game_id: int, platform: str, user_id: str) -> SeatChangeRow | None:
    """The latest hand-over of a seat this account played in the game, if it has one
    and plays no seat there now."""
    query = (
        select(SeatChangeRow)
        .where(
            SeatChangeRow.game_id == game_id,
            SeatChangeRow.from_account == f"{platform}:{user_id}",
        )
        .order_by(col(SeatChangeRow.id).desc())
    )
    return tx.session.exec(query).first()


def latest_sender(tx: Tx, platform: str, *, user_id: str = "", name: str = "") -> InboundRow | None:
    """The newest message an account sent the host on ``platform``: the account with
    ``user_id``, else one whose name is ``name`` (any case, with or without a leading
    ``@``): whom a host can name as a substitute (someone the host has heard from, so
    the platform's id of them is known)."""
    query = select(InboundRow).where(InboundRow.platform == platform)
    if user_id:
        query = query.where(InboundRow.user_id == user_id)
    else:
        # (As the host wrote it or as the platform shows it: X's names are "@handle".)
        wanted = name.lower().lstrip("@")
        query = query.where(func.lower(InboundRow.user_name).in_([wanted, f"@{wanted}"]))
    return tx.session.exec(query.order_by(col(InboundRow.id).desc()).limit(1)).first()


__all__ = ["hand_seat", "handed_away", "latest_sender", "seat_changes"]
