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

from bot.games.base import Arg, ArgKind, Game
from bot.games.uboat import codec, rules, views
from bot.games.uboat.options import MAX_ROUNDS, MAX_SIZE, MIN_ROUNDS, MIN_SIZE
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
    option_args=(
        Arg("size", ArgKind.NUMBER, "the sea's side (default 9)", False, (), MIN_SIZE, MAX_SIZE),
        Arg(
            "islands",
            ArgKind.TEXT,
            "none, or N@CELL joined by commas (default 1@C3,2@G3,3@C7,4@G7,5@E5)",
            required=False,
        ),
        Arg(
            "island_powers",
            ArgKind.CHOICE,
            "house island powers, or none (default house)",
            required=False,
            choices=("house", "none"),
        ),
        Arg(
            "rounds",
            ArgKind.NUMBER,
            "rounds before the islands are counted (default 12)",
            False,
            (),
            MIN_ROUNDS,
            MAX_ROUNDS,
        ),
        Arg("round", ArgKind.DURATION, "the length of a round, 2m to 1d (default 10m)", False),
        Arg(
            "evade_window",
            ArgKind.DURATION,
            "the time for a damaged U-boat's invisible move, 1m to less than a round (default 1m)",
            False,
        ),
    ),
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
