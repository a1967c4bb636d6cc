"""U-Boat Shootout declared as a game of four parts (rules: ``shared/rules/uboat.md``).

A live match for 2 to 6 players: each commands a U-boat with 3 health on a
wrapping sea with numbered islands. In setup each sends a secret starting cell;
then every round each crew sends one order by DM — fire at a tile within range,
move up to 3 steps unseen (the route is public, the cell is not), ram, or hold —
and at the round's end they all resolve together (resolution.py). Boats damaged
in a round may make an invisible move in the next round's evade window. Sunk
boats' players join other crews. The last boat afloat wins; after ``rounds``
rounds the islands' numbers decide. Orders, options and the record follow
``shared/contracts/uboat.md``.

The parts are this package's modules: ``rules`` (orders taken in ``acceptance``),
``views``, ``codec``, and the words (``words``, the reports in ``text``); the verbs are
``verbs``.
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.uboat import codec, rules, views
from bot.games.uboat.options import OPTIONS
from bot.games.uboat.orders import Order
from bot.games.uboat.robot import ROBOT
from bot.games.uboat.state import UboatState
from bot.games.uboat.strong_robot import STRONG_ROBOT
from bot.games.uboat.verbs import VERBS
from bot.games.uboat.words import UboatWords

UBOAT: Game[UboatState, Order] = Game(
    name="uboat",
    tag="#uboat",
    title="U-Boat Shootout",
    verbs=VERBS,
    option_args=OPTIONS.args,
    rules=rules,
    views=views,
    codec=codec,
    words=UboatWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
    simultaneous=True,
    award=("mark of victory", "marks of victory"),
    players_may_leave=False,  # a boat stays in to the end: the rules have no `leave`
)
