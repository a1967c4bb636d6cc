"""Seats handed to someone else (``seat_changes``): read and written inside the caller's
transaction (:class:`Tx`)."""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import col, select

from bot.store.models import InboundRow, OfferRow, SeatChangeRow, TurnRow, WebLinkRow
from bot.store.records import Player
from bot.store.repository import Tx


def hand_seat(
    tx: Tx,
    player: Player,
    *,
    platform: str,
    user_id: str,
    name: str,
    avatar_url: str | None,
    robot: str,
    turn: int,
    now: float,
) -> tuple[SeatChangeRow, Player]:
    """From ``turn`` on, the account (``platform``, ``user_id``) plays ``player``'s seat;
    the seat keeps its key and name. The seat's private web link, if any, is revoked
    (the newcomer gets one of their own when they ask). Returns the change and the seat
    as it now reads."""
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
    account_name = "" if name == player.name else name
    links = select(WebLinkRow).where(
        WebLinkRow.game_id == player.game_id,
        WebLinkRow.player_key == player.key,
        col(WebLinkRow.revoked_at).is_(None),
    )
    for link in tx.session.exec(links).all():
        link.revoked_at = now
        tx.session.add(link)
    tx.session.add(change)
    tx.session.flush()
    seat = tx.change_seat(
        player, platform=platform, user_id=user_id, avatar_url=avatar_url,
        account_name=account_name, robot=robot,
    )  # fmt: skip
    return change, seat


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


def latest_sender(
    tx: Tx, platform: str, *, user_id: str = "", handle: str = ""
) -> InboundRow | None:
    """The newest message an account sent the host on ``platform``: the account with
    ``user_id``, else the one whose name is the handle ``@handle`` (any case): where a
    platform names its people by their handle (X, Mastodon, Bluesky), that name is the
    account's own; a display name (Discord's) is anyone's to choose and never starts a
    match unless it is written exactly so. Whom a host can name as a substitute."""
    query = select(InboundRow).where(InboundRow.platform == platform)
    if user_id:
        query = query.where(InboundRow.user_id == user_id)
    else:
        wanted = "@" + handle.lower().lstrip("@")
        query = query.where(func.lower(InboundRow.user_name) == wanted)
    return tx.session.exec(query.order_by(col(InboundRow.id).desc()).limit(1)).first()


def held_seats(tx: Tx, game_id: int, accounts: list[tuple[str, str]]) -> set[str]:
    """The keys of the seats of the game any of ``accounts`` played and handed on, or
    took from someone (whatever they play now)."""
    keys = [f"{platform}:{user_id}" for platform, user_id in accounts]
    query = select(SeatChangeRow).where(
        SeatChangeRow.game_id == game_id,
        col(SeatChangeRow.from_account).in_(keys) | col(SeatChangeRow.to_account).in_(keys),
    )
    return {change.player_key for change in tx.session.exec(query).all()}


def closes(tx: Tx, game_id: int, count: int) -> list[float]:
    """When the game's last ``count`` turns closed (newest first): its deadlines as they
    passed, a turn every player had sent included."""
    query = (
        select(TurnRow.resolved_at)
        .where(
            TurnRow.game_id == game_id,
            (col(TurnRow.cause) == "turn") | col(TurnRow.cause).startswith("timer"),
        )
        .order_by(col(TurnRow.number).desc(), col(TurnRow.step).desc())
        .limit(count)
    )
    return list(tx.session.exec(query).all())


def sent_since(tx: Tx, game_id: int, accounts: list[tuple[str, str]], since: float) -> bool:
    """Whether any of ``accounts`` sent the host anything about the game since then."""
    for platform, user_id in accounts:
        query = select(InboundRow.id).where(
            InboundRow.game_id == game_id,
            InboundRow.platform == platform,
            InboundRow.user_id == user_id,
            InboundRow.sent_at >= since,
        )
        if tx.session.exec(query.limit(1)).first() is not None:
            return True
    return False


def add_offer(tx: Tx, offer: OfferRow) -> OfferRow:
    """Write an offer; an open offer of the same seat (or room) is withdrawn by it."""
    same = select(OfferRow).where(OfferRow.game_id == offer.game_id, OfferRow.kind == offer.kind)
    if offer.kind == "seat":
        same = same.where(OfferRow.player_key == offer.player_key)
    elif offer.kind == "link":
        same = same.where(OfferRow.platform == offer.platform, OfferRow.user_id == offer.user_id)
    else:
        same = same.where(OfferRow.platform == offer.platform, OfferRow.channel == offer.channel)
    for old in tx.session.exec(same).all():
        tx.session.delete(old)
    tx.session.add(offer)
    tx.session.flush()
    return offer


def offers_to(tx: Tx, kind: str, platform: str, user_id: str) -> list[OfferRow]:
    """Open seat offers this account is the newcomer of, or whose seat it plays and is
    asked to agree to (``kind`` "seat"), oldest first."""
    account = f"{platform}:{user_id}"
    query = select(OfferRow).where(
        OfferRow.kind == kind,
        ((OfferRow.platform == platform) & (OfferRow.user_id == user_id))
        | ((OfferRow.holder == account) & (OfferRow.holder_consent == "asked")),
    )
    return list(tx.session.exec(query.order_by(col(OfferRow.id))).all())


def game_offers(tx: Tx, game_id: int, kind: str) -> list[OfferRow]:
    """A game's open offers of one kind, oldest first."""
    query = select(OfferRow).where(OfferRow.game_id == game_id, OfferRow.kind == kind)
    return list(tx.session.exec(query.order_by(col(OfferRow.id))).all())


def room_offers(tx: Tx, platform: str, channel: str) -> list[OfferRow]:
    """Open bridge offers of this room, oldest first."""
    query = select(OfferRow).where(
        OfferRow.kind == "bridge", OfferRow.platform == platform, OfferRow.channel == channel
    )
    return list(tx.session.exec(query.order_by(col(OfferRow.id))).all())


def pending_link(tx: Tx, platform: str, user_id: str, digest: str) -> OfferRow | None:
    """The warning this account was given about the link code with this digest, if any
    (``me link CODE``, before ``me link CODE yes``)."""
    query = select(OfferRow).where(
        OfferRow.kind == "link",
        OfferRow.platform == platform,
        OfferRow.user_id == user_id,
        OfferRow.player_key == digest,
    )
    return tx.session.exec(query).first()


def drop_offer(tx: Tx, offer: OfferRow) -> None:
    tx.session.delete(offer)
    tx.session.flush()


__all__ = [
    "add_offer",
    "closes",
    "drop_offer",
    "game_offers",
    "hand_seat",
    "handed_away",
    "held_seats",
    "latest_sender",
    "offers_to",
    "pending_link",
    "room_offers",
    "seat_changes",
    "sent_since",
]


def save_offer(tx: Tx, offer: OfferRow) -> None:
    """Write an offer's answers so far (accepted, the holder's consent)."""
    tx.session.add(offer)
    tx.session.flush()
