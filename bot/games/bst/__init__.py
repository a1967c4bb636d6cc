"""BattleshipTwitter (#bst): the game's rules, registered with the host as ``bst`` by
``bot/games/catalog.py``.

``game.py`` declares the game's parts and says which module does what; the rules in
full are ``shared/rules/bst.md`` (in short: ``RULES.md`` here).
"""

from __future__ import annotations

from bot.games.bst.game import BST
from bot.games.bst.orders import Move, Order, Pass, Place, Rotate, Shoot
from bot.games.bst.state import BstState, Captain, ShotRecord

__all__ = [
    "BST",
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
