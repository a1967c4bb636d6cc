"""Sonar (#sonar): fleets of submarines on a wrapping hex ocean, hunted with depth
charges whose misses report the distance to the nearest sub.

The rules are ``shared/rules/sonar.md``; see ``game.py`` for them in a paragraph. The
game object is :data:`SONAR`; the host registers it in ``bot/games/catalog.py``.
"""

from __future__ import annotations

from bot.games.sonar.game import SONAR
from bot.games.sonar.orders import AtRandom, Fleet, Order, Shots
from bot.games.sonar.state import SonarState

__all__ = ["SONAR", "AtRandom", "Fleet", "Order", "Shots", "SonarState"]
