"""U-Boat Shootout (#uboat): the game's rules, as the host enforces them.

See ``game.py`` for the rules in a paragraph and ``shared/rules/uboat.md`` for all
of them. The game is registered with the host in ``bot/games/catalog.py``.
"""

from __future__ import annotations

from bot.games.uboat.game import UBOAT
from bot.games.uboat.orders import Evade, Fire, Hold, JoinCrew, Move, Order, Ram, StartAt
from bot.games.uboat.state import UboatState

__all__ = [
    "UBOAT",
    "Evade",
    "Fire",
    "Hold",
    "JoinCrew",
    "Move",
    "Order",
    "Ram",
    "StartAt",
    "UboatState",
]
