"""Storage: the only package that imports the database layer (sqlmodel / SQLAlchemy)."""

from bot.store.changes import UNSET, GameChange, NewGame, NewPlayer, NewStep
from bot.store.database import is_passing_failure
from bot.store.models import (
    CursorRow,
    GameRow,
    InboundRow,
    OrderRow,
    OutboxRow,
    PlayerRow,
    TurnRow,
    state_digest,
)
from bot.store.records import Game
from bot.store.repository import (
    ClockScope,
    DatabaseCursors,
    Received,
    Store,
    Tx,
    build,
    dumps,
    loads,
)

__all__ = [
    "UNSET",
    "ClockScope",
    "CursorRow",
    "DatabaseCursors",
    "Game",
    "GameChange",
    "GameRow",
    "InboundRow",
    "NewGame",
    "NewPlayer",
    "NewStep",
    "OrderRow",
    "OutboxRow",
    "PlayerRow",
    "Received",
    "Store",
    "TurnRow",
    "Tx",
    "build",
    "dumps",
    "is_passing_failure",
    "loads",
    "state_digest",
]
