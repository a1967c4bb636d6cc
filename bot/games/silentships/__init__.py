"""Silent Ships (#silentships): a two-player naval card game on a 5 × 4 board.

Ships are played face-down, move and attack with support from their
neighbours; the fog of war is the hand you don't see and the cards that
haven't turned over. ``SILENT_SHIPS`` is the game object the host registers;
``game.py`` has the rules in a paragraph and ``shared/rules/silentships.md`` all of them.
"""

from __future__ import annotations

from bot.games.silentships.game import SILENT_SHIPS
from bot.games.silentships.orders import Order
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import SilentShipsState

__all__ = ["SILENT_SHIPS", "Order", "Ship", "SilentShipsState"]
