"""Silent Ships declared as a game of four parts (``shared/rules/silentships.md``):
``rules.py``, ``views.py``, ``codec.py`` and ``words.py``.

Two admirals play ships face-down on a 5 × 4 board, move them by discarding
cards and attack with support from their neighbours; the fog of war is the
hand you don't see and the cards that haven't turned over. Turns alternate
(the host's ``simultaneous`` is False): every order of a turn acts at once and
returns its events, ``end`` completes the turn (``resolve_now``), and the turn
player's move clock (``move:N``) stops while a defender answers an attack
(``response:K``). A player who ends their turn with an enemy on their country
loses, so does one whose Flag Ship is sunk; an agreed stop or ``max_turns``
goes to the player who sank more ships, the second player winning ties.
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.silentships import codec, views
from bot.games.silentships.orders import Order
from bot.games.silentships.robot import ROBOT
from bot.games.silentships.rules import SilentShipsRules
from bot.games.silentships.state import SilentShipsState
from bot.games.silentships.strong_robot import STRONG_ROBOT
from bot.games.silentships.verbs import OPTION_ARGS, VERBS
from bot.games.silentships.words import SilentShipsWords

SILENT_SHIPS: Game[SilentShipsState, Order] = Game(
    name="silentships",
    tag="#silentships",
    title="Silent Ships",
    verbs=VERBS,
    option_args=OPTION_ARGS,
    rules=SilentShipsRules(),
    views=views,
    codec=codec,
    words=SilentShipsWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
)
