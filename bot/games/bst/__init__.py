"""BattleshipTwitter (#bst): the game's rules, registered with the host as ``bst``.

See ``rules.py`` for the rules in a paragraph and ``shared/rules/bst.md`` for all of them.
"""

from __future__ import annotations

from bot.games.base import register
from bot.games.bst.orders import Move, Order, Pass, Place, Rotate, Shoot
from bot.games.bst.rules import BstGame
from bot.games.bst.state import BstState, Captain, ShotRecord

BST = BstGame()
register(BST)

__all__ = [
    "BST",
    "BstGame",
    "BstState",
    "Captain",
    "Move",
    "Order",
    "Pass",
    "Place",
    "Rotate",
    "Shoot",
    "ShotRecord",
]
