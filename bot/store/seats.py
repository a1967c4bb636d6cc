"""Seats handed to someone else (``seat_changes``): read and written inside the caller's
transaction (:class:`Tx`)."""

from __future__ import annotations

from dataclasses import asdict, fields, replace
from typing import Any

from sqlalchemy import delete, func, update
from sqlmodel import col, select

from bot.store.changes import NewOffer
from bot.store.inbound import Received
from bot.store.models import InboundRow, OfferRow, SeatChangeRow, TurnRow, WebLinkRow
from bot.store.records import OFFER_FIELDS, SEAT_CHANGE_FIELDS, Offer, Player, SeatChange
from bot.store.repository import Tx
from bot.store.tx import columns_of


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
) -> tuple[SeatChange, Player]:
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
    tx.session.execute(
        update(WebLinkRow)
        .where(
            col(WebLinkRow.game_id) == player.game_id,
            col(WebLinkRow.player_key) == player.key,
            col(WebLinkRow.revoked_at).is_(None),
        )
        .values(revoked_at=now)
    )
    tx.session.add(change)
    tx.session.flush()
    assert change.id is not None
    tx.session.expunge(change)
    handed = SeatChange(**{name: getattr(change, name) for name in SEAT_CHANGE_FIELDS})
    seat = tx.change_seat(
        player, platform=platform, user_id=user_id, avatar_url=avatar_url,
        account_name=account_name, robot=robot,
    )  # fmt: skip
    return handed, seat


def _seat_changes(tx: Tx, query: Any) -> list[SeatChange]:
    return [SeatChange(*row) for row in tx.session.execute(query).all()]


def seat_changes(tx: Tx, game_id: int) -> list[SeatChange]:
    query = (
        select(*columns_of(SeatChangeRow, SEAT_CHANGE_FIELDS))
        .where(col(SeatChangeRow.game_id) == game_id)
        .order_by(col(SeatChangeRow.id))
    )
    return _seat_changes(tx, query)


def handed_away(tx: Tx, game_id: int, platform: str, user_id: str) -> SeatChange | None:
    """The latest hand-over of a seat this account played in the game, if it has one
    and plays no seat there now."""
    query = (
        select(*columns_of(SeatChangeRow, SEAT_CHANGE_FIELDS))
        .where(
            col(SeatChangeRow.game_id) == game_id,
            col(SeatChangeRow.from_account) == f"{platform}:{user_id}",
        )
        .order_by(col(SeatChangeRow.id).desc())
        .limit(1)
    )
    found = _seat_changes(tx, query)
    return found[0] if found else None


def latest_sender(tx: Tx, platform: str, *, user_id: str = "", handle: str = "") -> Received | None:
    """The newest message an account sent the host on ``platform``: the account with
    ``user_id``, else the one whose name is the handle ``@handle`` (any case): where a
    platform names its people by their handle (X, Mastodon, Bluesky), that name is the
    account's own; a display name (Discord's) is anyone's to choose and never starts a
    match unless it is written exactly so. Whom a host can name as a substitute."""
    query = select(*columns_of(InboundRow, _SENT_FIELDS)).where(
        col(InboundRow.platform) == platform
    )
    if user_id:
        query = query.where(col(InboundRow.user_id) == user_id)
    else:
        wanted = "@" + handle.lower().lstrip("@")
        query = query.where(func.lower(InboundRow.user_name) == wanted)
    found = tx.session.execute(query.order_by(col(InboundRow.id).desc()).limit(1)).first()
    if found is None:
        return None
    values = dict(zip(_SENT_FIELDS, found, strict=True))
    values["is_channel_admin"] = bool(values["is_channel_admin"])
    return Received(**values)


_SENT_FIELDS = tuple(f.name for f in fields(Received) if f.name not in ("community", "communities"))
"""The stored columns of a message (its community and communities are not stored)."""


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


def _offers(tx: Tx, query: Any) -> list[Offer]:
    return [
        Offer(**dict(zip(OFFER_FIELDS, (*row[:-2], bool(row[-2]), row[-1]), strict=True)))
        for row in tx.session.execute(query.order_by(col(OfferRow.id))).all()
    ]


def _offer_columns() -> Any:
    return select(*columns_of(OfferRow, OFFER_FIELDS))


def add_offer(tx: Tx, new: NewOffer) -> Offer:
    """Write an offer; an open offer of the same seat (or room) is withdrawn by it."""
    same = delete(OfferRow).where(
        col(OfferRow.game_id) == new.game_id, col(OfferRow.kind) == new.kind
    )
    if new.kind == "seat":
        same = same.where(col(OfferRow.player_key) == new.player_key)
    elif new.kind == "link":
        same = same.where(
            col(OfferRow.platform) == new.platform, col(OfferRow.user_id) == new.user_id
        )
    else:
        same = same.where(
            col(OfferRow.platform) == new.platform, col(OfferRow.channel) == new.channel
        )
    tx.session.execute(same)
    row = OfferRow(**asdict(new))
    tx.session.add(row)
    tx.session.flush()
    assert row.id is not None
    tx.session.expunge(row)
    return Offer(**{name: getattr(row, name) for name in OFFER_FIELDS})


def offers_to(tx: Tx, kind: str, platform: str, user_id: str) -> list[Offer]:
    """Open seat offers this account is the newcomer of, or whose seat it plays and is
    asked to agree to (``kind`` "seat"), oldest first."""
    account = f"{platform}:{user_id}"
    query = _offer_columns().where(
        col(OfferRow.kind) == kind,
        ((col(OfferRow.platform) == platform) & (col(OfferRow.user_id) == user_id))
        | ((col(OfferRow.holder) == account) & (col(OfferRow.holder_consent) == "asked")),
    )
    return _offers(tx, query)


def game_offers(tx: Tx, game_id: int, kind: str) -> list[Offer]:
    """A game's open offers of one kind, oldest first."""
    query = _offer_columns().where(col(OfferRow.game_id) == game_id, col(OfferRow.kind) == kind)
    return _offers(tx, query)


def room_offers(tx: Tx, platform: str, channel: str) -> list[Offer]:
    """Open bridge offers of this room, oldest first."""
    query = _offer_columns().where(
        col(OfferRow.kind) == "bridge",
        col(OfferRow.platform) == platform,
        col(OfferRow.channel) == channel,
    )
    return _offers(tx, query)


def pending_link(tx: Tx, platform: str, user_id: str, digest: str) -> Offer | None:
    """The warning this account was given about the link code with this digest, if any
    (``me link CODE``, before ``me link CODE yes``)."""
    query = _offer_columns().where(
        col(OfferRow.kind) == "link",
        col(OfferRow.platform) == platform,
        col(OfferRow.user_id) == user_id,
        col(OfferRow.player_key) == digest,
    )
    found = _offers(tx, query)
    return found[0] if found else None


def drop_offer(tx: Tx, offer: Offer) -> None:
    tx.session.execute(delete(OfferRow).where(col(OfferRow.id) == offer.id))


def answer_offer(tx: Tx, offer: Offer, *, accepted: bool, holder_consent: str) -> Offer:
    """Write an offer's answers so far (the newcomer's yes, the seat's player's
    consent); the offer as it now reads."""
    tx.session.execute(
        update(OfferRow)
        .where(col(OfferRow.id) == offer.id)
        .values(accepted=accepted, holder_consent=holder_consent)
    )
    return replace(offer, accepted=accepted, holder_consent=holder_consent)


__all__ = [
    "add_offer",
    "answer_offer",
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
