"""The commands of Silent Ships as data, from which every platform builds its own
(a Discord slash command, typed text): one verb per order of the contract's table,
private when it is given only by DM, and one argument per option of ``@game``.
Each verb's :meth:`~bot.games.base.Verb.text` is an order :func:`orders.parse_order` reads.
"""

from __future__ import annotations

from bot.games.base import Arg, ArgKind, Verb
from bot.games.silentships.options import OPTIONS
from bot.games.silentships.ships import SHIP_ORDER

_SHIPS = tuple(ship.card.short for ship in SHIP_ORDER)


def _ship(name: str, description: str, required: bool = True) -> Arg:
    return Arg(name, ArgKind.CHOICE, description, required=required, choices=_SHIPS)


def _cell(name: str, description: str) -> Arg:
    return Arg(name, ArgKind.CELL, description)


VERBS: tuple[Verb, ...] = (
    Verb(
        "play",
        "Play a ship from your hand face-down on your country or beside it",
        private=True,
        args=(_ship("ship", "the ship to play"), _cell("cell", "B1, C1 or D1 (B4, C4 or D4)")),
    ),
    Verb(
        "move",
        "Move a unit one square (onto an enemy: attack), discarding a card",
        private=True,
        args=(
            _cell("from", "where the unit is"),
            _cell("to", "where it goes"),
            _ship("discard", "the card you discard"),
        ),
    ),
    Verb(
        "support",
        "Add a unit next to the target to your side of the attack, discarding a card",
        private=True,
        args=(
            _cell("from", "your supporting unit"),
            _ship("discard", "the card you discard (none for a face-up Ammunition Ship)", False),
        ),
    ),
    Verb("go", "Send your attack to the defender (no more supports)", private=False),
    Verb(
        "retreat",
        "Defender: retreat the target instead of fighting, discarding a card",
        private=True,
        args=(_ship("discard", "the card you discard"),),
        words="retreat discard",
    ),
    Verb("pass", "Defender: fight with the supports added so far", private=True),
    Verb(
        "retreat_to",
        "Attacker: choose where the retreating target goes",
        private=False,
        args=(_cell("cell", "an empty square next to the target"),),
        words="retreat to",
    ),
    Verb(
        "reveal",
        "Turn one of your face-down units face-up",
        private=False,
        args=(_cell("cell", "your face-down unit"),),
    ),
    Verb(
        "swap",
        "Swap a face-up Special Operations Craft with one of your sunk ships",
        private=False,
        args=(
            _cell("cell", "the craft, on an island or the enemy country"),
            _ship("ship", "your sunk ship that returns"),
        ),
    ),
    # Typed `end`; named apart from the host's `end` (which ends the whole game).
    Verb("endturn", "End your turn", private=False, words="end"),
    Verb("offer_draw", "Offer to stop: the ships sunk decide", private=False, words="offer stop"),
    Verb("accept", "Accept your opponent's offer to stop", private=False),
)

OPTION_ARGS: tuple[Arg, ...] = OPTIONS.args
"""The options of ``new``, as platforms offer them (declared in :mod:`bot.games.silentships.options`)."""
