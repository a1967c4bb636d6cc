"""Sugar Dog (``#sugardog``): a submarine duel with silent running, active sonar,
torpedoes and mines, on a small secret grid (``shared/rules/sugardog.md``).

``SUGARDOG`` is the game the host registers (the lead adds it to the catalog);
``game.py`` states the rules in a paragraph and declares the game's parts.
"""

from __future__ import annotations

from bot.games.sugardog.game import SUGARDOG
from bot.games.sugardog.orders import (
    Cruise,
    FireTorpedo,
    LayMine,
    Order,
    Ping,
    ShowLog,
    SilentRunning,
    StartingCell,
)
from bot.games.sugardog.state import Captain, Phase, Status, SugarDogState

__all__ = [
    "SUGARDOG",
    "Captain",
    "Cruise",
    "FireTorpedo",
    "LayMine",
    "Order",
    "Phase",
    "Ping",
    "ShowLog",
    "SilentRunning",
    "StartingCell",
    "Status",
    "SugarDogState",
]
