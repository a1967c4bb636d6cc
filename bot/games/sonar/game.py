"""Sonar (Cameron Browne, 2007) declared as a game of four parts: see
``shared/rules/sonar.md`` for every rule and ``shared/contracts/sonar.md`` for the
orders and the record.

Two to four captains join; their fleets of subs (lengths 2, 3, 3, 4, …) are placed on
a wrapping hex ocean, at random by the host so that no two subs ever meet, or with
``placement=given`` as each captain sends theirs by DM. Captains then take turns in
join order: every sub sails one step forward, and the captain to move fires up to one
depth charge per live sub (half on the game's first turn, one with ``one_shot``); a
charge on a sub segment is a hit, the one that completes a sub sinks it, and a miss
reports the distance to the nearest sub. A turn that runs out of ``move_time`` fires
at random or is skipped; ``leave`` waits for the turn in progress to end. The last
captain with live subs wins. Everything here is pure and deterministic: randomness
only from the ``random.Random`` the host passes in.

The parts are this package's modules: ``rules`` (setup in ``setup_phase``), ``views``,
``codec``, and the words (``words``, the reports in ``text``); the verbs are ``verbs``.
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.sonar import codec, rules, views
from bot.games.sonar.options import OPTIONS
from bot.games.sonar.orders import Order
from bot.games.sonar.robot import ROBOT
from bot.games.sonar.state import SonarState
from bot.games.sonar.strong_robot import STRONG_ROBOT
from bot.games.sonar.verbs import VERBS
from bot.games.sonar.words import SonarWords

SONAR: Game[SonarState, Order] = Game(
    name="sonar",
    tag="#sonar",
    title="Sonar",
    verbs=VERBS,
    option_args=OPTIONS.args,
    rules=rules,
    views=views,
    codec=codec,
    words=SonarWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
)
