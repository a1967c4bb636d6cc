"""What the host asks of the store about robot seats (see bot.host.robots)."""

from __future__ import annotations

from sqlmodel import col, func, select

from bot.games.base import GamePhase
from bot.store.models import GameRow, InboundRow, JournalRow, PlayerRow
from bot.store.records import ROBOT_USER
from bot.store.repository import Tx, dumps


def games_with_robots(tx: Tx) -> list[int]:
    """The games in setup or running with a robot in one of their seats."""
    query = (
        select(PlayerRow.game_id)
        .join(GameRow, col(GameRow.id) == PlayerRow.game_id)
        .where(
            col(PlayerRow.robot) != "",
            col(GameRow.phase).in_((GamePhase.SETUP, GamePhase.RUNNING)),
        )
        .distinct()
    )
    return sorted(int(game_id) for game_id in tx.session.exec(query).all())


def last_sent(tx: Tx, game_id: int, platform: str, user_id: str) -> tuple[int, int]:
    """The account's last message to the game sent by itself, and the last a robot sent
    for it, as the host received them (their inbound row ids; 0: none). A robot's
    message id begins ``robot:``."""
    robot = col(InboundRow.message_id).like(f"{ROBOT_USER}%")
    mine = select(func.max(InboundRow.id)).where(
        InboundRow.game_id == game_id,
        InboundRow.platform == platform,
        InboundRow.user_id == user_id,
    )
    own = tx.session.exec(mine.where(~robot)).one()
    played = tx.session.exec(mine.where(robot)).one()
    return int(own or 0), int(played or 0)


def left_the_game(tx: Tx, game_id: int, key: str) -> bool:
    """Whether the seat ``key`` was taken out of the game (``leave``, ``kick``): the last
    call of the game's journal that seated or removed it removed it. (Entries are compact
    JSON, ``do`` first and ``player`` second: see bot.host.journal.)"""
    seated = f'{{"do":"join","player":{dumps(key)},%'
    removed = f'{{"do":"remove","player":{dumps(key)},%'
    query = (
        select(JournalRow.entry)
        .where(
            JournalRow.game_id == game_id,
            col(JournalRow.entry).like(seated) | col(JournalRow.entry).like(removed),
        )
        .order_by(col(JournalRow.id).desc())
        .limit(1)
    )
    last = tx.session.exec(query).first()
    return last is not None and last.startswith('{"do":"remove"')
