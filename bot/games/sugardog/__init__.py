"""Sugar Dog (``#sugardog``): a submarine duel with silent running, active sonar,
torpedoes and mines, on a small secret grid (``shared/rules/sugardog.md``).

``SUGARDOG`` is the game the host registers (the lead adds it to the catalog);
``game.py`` states the rules in a paragraph and answers the host.
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.sugardog.game import SugarDogGame
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

SUGARDOG: Game[SugarDogState, Order] = SugarDogGame()
"""Typed as the protocol, so mypy proves the facade keeps it."""

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
    "SugarDogGame",
    "SugarDogState",
]
