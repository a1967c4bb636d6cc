"""Sugar Dog (``#sugardog``) declared as a game of four parts (shared/rules/sugardog.md).

Two or more captains each hide a submarine on a small grid (6 × 6 for two, 2
more each way for every further captain) and take turns, one action each, by
DM: silent running (stay or move one cell, announced only by name), cruise
(two cells, a public contact in each), active sonar (everyone's position
announced), a torpedo (runs two cells now and two at each of its owner's later
turns) or a mine (three each). Contacts and impacts are announced the moment
they happen; everything in a cell where something runs into something is
destroyed; the last submarine afloat wins. The host names who moves first,
play goes on in join order, and a captain whose ``move_time`` runs out holds
position silently. This module declares the game; its parts are
``rules.py`` (with ``setup.py`` and ``resolution.py``), ``views.py``, ``codec.py`` and
``words.py`` (with ``text.py``).
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.sugardog import codec, text, views
from bot.games.sugardog.options import OPTION_ARGS
from bot.games.sugardog.orders import VERBS, Order
from bot.games.sugardog.robot import ROBOT
from bot.games.sugardog.rules import SugarDogRules
from bot.games.sugardog.state import SugarDogState
from bot.games.sugardog.strong_robot import STRONG_ROBOT
from bot.games.sugardog.words import SugarDogWords

SUGARDOG: Game[SugarDogState, Order] = Game(
    name="sugardog",
    tag=text.TAG,
    title=text.TITLE,
    verbs=VERBS,
    option_args=OPTION_ARGS,
    rules=SugarDogRules(),
    views=views,
    codec=codec,
    words=SugarDogWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
)
