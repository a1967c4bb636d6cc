"""Tug's simulated player, for ``bst demo --game tug`` in the tests: it pulls hard when
its crew may move and answers a dare by holding — from its own view only."""

from __future__ import annotations

import random
from typing import Any

from bot.games.base import PlayerId, Said


class TugRobot:
    demo_players = 2

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        if view["seat"] is None or view["turn"] == 0:
            return []
        if view.get("asked") == view["seat"]:
            return [Said("hold", public=False)]
        return [Said(f"pull {rng.choice((1, 2, 3))}", public=True)]


ROBOT = TugRobot()
