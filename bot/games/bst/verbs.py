"""bst's commands as data (rules §3, §4, §7): its verbs and the options of ``new``.

Every platform builds its commands from these (``/bst move`` on Discord); the text a
verb produces is what a player could have typed, and the game's parser reads it
like any other message. ``place`` and ``shoot`` have no command word: a placement
is its text (``sub: A2, carrier: C1-C5`` or ``random``) and a shot is its cell
(``H14``). A move's typed form is ``move cruiser G7 3 up`` — the parser takes the
``at`` of ``move cruiser at G7 3 up`` as optional. Descriptions are the ones the
Discord commands show.
"""

from __future__ import annotations

from bot.games.base import Arg, ArgKind, Verb
from bot.games.bst.fleet import Direction, ShipKind
from bot.games.bst.options import OPTIONS

SHIPS = tuple(kind.value for kind in ShipKind)
ROTATING_SHIPS = tuple(kind.value for kind in ShipKind if kind is not ShipKind.SUBMARINE)
DIRECTIONS = tuple(direction.value for direction in Direction)
LONGEST_MOVE = max(kind.length for kind in ShipKind)  # a move is 1 to the ship's length

VERBS: tuple[Verb, ...] = (
    Verb(
        "place",
        "Place your ships (only you see this)",
        private=True,
        args=(
            Arg(
                "ships",
                ArgKind.TEXT,
                'e.g. "sub: A2, carrier: C1-C5", "cruiser: B2-B4, cruiser: E5-G5" or "random"',
            ),
        ),
        words="",
    ),
    Verb(
        "shoot",
        "Fire at a cell (public): #bst H14",
        private=False,
        args=(Arg("cell", ArgKind.CELL, "Row letters then column number, e.g. H14"),),
        words="",
    ),
    Verb(
        "move",
        "Move one of your ships (only you see this)",
        private=True,
        args=(
            Arg("ship", ArgKind.CHOICE, "carrier, submarine or cruiser", choices=SHIPS),
            Arg("at", ArgKind.CELL, "Any cell the ship occupies, e.g. G7"),
            Arg(
                "steps",
                ArgKind.NUMBER,
                "How many cells (1 to the ship's length; a submarine moves 1)",
                minimum=1,
                maximum=LONGEST_MOVE,
            ),
            Arg("direction", ArgKind.CHOICE, "Along the ship's own axis", choices=DIRECTIONS),
        ),
        words="move",
    ),
    Verb(
        "rotate",
        "Turn a ship a quarter turn about its centre (private)",
        private=True,
        args=(
            Arg("ship", ArgKind.CHOICE, "carrier or cruiser", choices=ROTATING_SHIPS),
            Arg("at", ArgKind.CELL, "Any cell the ship occupies, e.g. E8"),
        ),
    ),
    Verb("pass", "Withdraw this turn's action (private)", private=True),
)

OPTION_ARGS: tuple[Arg, ...] = OPTIONS.args
"""The options of ``new``, as platforms offer them (declared in :mod:`bot.games.bst.options`)."""
