"""BattleshipTwitter (bst) declared as a game (``bot/games/base.py``): its four parts
are this package's modules (``rules.py``, ``views.py``, ``codec.py``, ``words.py``). The rules are ``shared/rules/bst.md``
(in short: :data:`~bot.games.bst.text.RULES_TEXT`, and ``RULES.md`` here).

Captains join a shared rectangular board and place two ships each in secret (a
carrier and a submarine, or two cruisers: ``acceptance.py``, ``placement.py``).
Then the battle runs in turns on a clock (``turns.py``): each live captain may shoot
one cell in public, or move or rotate one ship by DM, or pass; the newest order
stands. At the deadline every order resolves at once (``resolution.py``): ships
move together in lock-step (``movement.py``), shots land, wrecks sink, captains with
no ship afloat are eliminated, and the last captain afloat wins.
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.bst import codec, views
from bot.games.bst.crowd_captains import CROWD
from bot.games.bst.orders import Order
from bot.games.bst.robot import ROBOT
from bot.games.bst.rules import BstRules
from bot.games.bst.state import BstState
from bot.games.bst.strong_robot import STRONG_ROBOT
from bot.games.bst.verbs import OPTION_ARGS, VERBS
from bot.games.bst.words import BstWords

BST: Game[BstState, Order] = Game(
    name="bst",
    tag="#bst",
    title="BattleshipTwitter",
    verbs=VERBS,
    option_args=OPTION_ARGS,
    rules=BstRules(),
    views=views,
    codec=codec,
    words=BstWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
    crowd=CROWD,
    simultaneous=True,
    public_needs_tag=False,  # every message in a bst channel is for the game (rules §4)
)
