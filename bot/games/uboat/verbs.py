"""The commands of U-Boat Shootout as data, from which every platform builds its own (a
Discord slash command, typed text): one verb per order of ``shared/contracts/uboat.md``,
every one given by DM. Each verb's :meth:`~bot.games.base.Verb.text` is an order
:func:`bot.games.uboat.orders.parse_order` reads.
"""

from __future__ import annotations

from bot.games.base import Arg, ArgKind, Verb
from bot.games.uboat.cells import Direction
from bot.games.uboat.values import Colour

_STEPS = tuple(direction.value for direction in Direction)
_COLOUR_NAMES = tuple(colour.value for colour in Colour)


def _route_args(what: str) -> tuple[Arg, ...]:
    return (
        Arg("step1", ArgKind.CHOICE, f"the {what}'s first step", choices=_STEPS),
        Arg("step2", ArgKind.CHOICE, "a second step", required=False, choices=_STEPS),
        Arg("step3", ArgKind.CHOICE, "a third step", required=False, choices=_STEPS),
    )


VERBS: tuple[Verb, ...] = (
    Verb(
        # Typed `start E2`; named apart from the host's `start` (which begins the game).
        "position",
        "Your secret starting cell (setup; not an island)",
        private=True,
        args=(Arg("cell", ArgKind.CELL, "the starting cell, e.g. E2"),),
        words="start",
    ),
    Verb(
        "fire",
        "Fire at a tile within range: 2 damage on it, 1 beside it",
        private=True,
        args=(Arg("cell", ArgKind.CELL, "the target tile, e.g. E6"),),
    ),
    Verb("move", "Move 1 to 3 steps, unseen", private=True, args=_route_args("move")),
    Verb(
        "ram",
        "Move 1 to 3 steps, then strike the tile one further (2 damage)",
        private=True,
        args=_route_args("ram"),
    ),
    Verb("hold", "Do nothing this round", private=True),
    Verb(
        "evade",
        "An invisible move while your damaged U-boat's evade window is open",
        private=True,
        args=_route_args("evasion"),
    ),
    Verb(
        "crew",
        "Your U-boat was sunk: join another's crew at the round's end",
        private=True,
        args=(Arg("boat", ArgKind.CHOICE, "the U-boat to join", choices=_COLOUR_NAMES),),
    ),
)
