"""The eleven ships of a Silent Ships deck and what their cards say (rules §2).

Each player's deck holds one of each ship. A ship's attack counts in combat, as
the attacking unit, the target or a support; its ability acts only while the
card is face-up, and abilities that act in combat apply when the ship is
revealed in step 4 of an attack. The designer printed only some card texts: the
values marked House in :data:`CARDS` are this host's, kept in this one table so
that the printed cards can replace them. The table's order is the **ship
order** of hands and listed decks. See ``shared/rules/silentships.md`` §2.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bot.games.base import OrderSyntaxError


class Ship(enum.Enum):
    """A card of the deck, by its record id; declaration order is the ship order."""

    SPEED_BOAT = "speed_boat"
    SALVAGE_SHIP = "salvage_ship"
    SPECIAL_OPERATIONS_CRAFT = "special_operations_craft"
    FIRE_SHIP = "fire_ship"
    FLAG_SHIP = "flag_ship"
    FRIGATE = "frigate"
    SUBMARINE = "submarine"
    RAMMING_SHIP = "ramming_ship"
    PATROL_SHIP = "patrol_ship"
    MISSILE_BOAT = "missile_boat"
    AMMUNITION_SHIP = "ammunition_ship"

    @property
    def card(self) -> Card:
        return CARDS[self]

    @property
    def order(self) -> int:
        return SHIP_ORDER.index(self)


@dataclass(frozen=True)
class Card:
    """A ship's card: its names, its attack, and the numbers of its ability.

    ``house``: the attack (and ability numbers) are the host's, not printed.
    ``reach``: squares it may move in one move, in a straight line (face-up).
    ``support_reach``: the farthest it may support from, in a straight line (face-up).
    ``target_bonus``: added to its attack when it is the target of an attack.
    ``support_value``: its whole value as a support, instead of its attack.
    ``support_discard``: whether supporting with it costs a card (face-up).
    ``per_sink``: added to its attack for each ship its owner has sunk.
    """

    ship: Ship
    name: str
    short: str
    attack: int
    ability: str
    house: bool = False
    reach: int = 1
    support_reach: int = 1
    target_bonus: int = 0
    support_value: int | None = None
    support_discard: bool = True
    per_sink: int = 0
    wins_ties_attacking: bool = False
    sinks_after_defending: bool = False
    hides_after_combat: bool = False
    loses_the_game_when_sunk: bool = False
    swaps_with_sunk: bool = False

    def attack_now(self, owner_sank: int) -> int:
        """Its attack with its owner having sunk ``owner_sank`` ships (the Salvage Ship
        grows; every other card stays at its printed value)."""
        return self.attack + self.per_sink * owner_sank


CARDS: dict[Ship, Card] = {
    card.ship: card
    for card in (
        Card(
            Ship.SPEED_BOAT,
            "Speed Boat",
            "speed",
            4,
            "may move up to 3 squares in a straight line in one move",
            reach=3,
        ),
        Card(
            Ship.SALVAGE_SHIP,
            "Salvage Ship",
            "salvage",
            2,
            "+1 attack for each opposing ship its owner has sunk",
            per_sink=1,
        ),
        Card(
            Ship.SPECIAL_OPERATIONS_CRAFT,
            "Special Operations Craft",
            "specops",
            1,
            "on an island or the opponent's country, may swap itself with one of its "
            "owner's sunk ships",
            swaps_with_sunk=True,
        ),
        Card(
            Ship.FIRE_SHIP,
            "Fire Ship",
            "fire",
            6,
            "is sunk after any combat in which it defends, whatever the result",
            sinks_after_defending=True,
        ),
        Card(
            Ship.FLAG_SHIP,
            "Flag Ship",
            "flag",
            5,
            "if it is sunk, its owner loses",
            house=True,
            loses_the_game_when_sunk=True,
        ),
        Card(Ship.FRIGATE, "Frigate", "frigate", 4, "none", house=True),
        Card(
            Ship.SUBMARINE,
            "Submarine",
            "sub",
            3,
            "after a combat it survives, it turns face-down again",
            house=True,
            hides_after_combat=True,
        ),
        Card(
            Ship.RAMMING_SHIP,
            "Ramming Ship",
            "ram",
            3,
            "wins ties when it attacks",
            house=True,
            wins_ties_attacking=True,
        ),
        Card(
            Ship.PATROL_SHIP,
            "Patrol Ship",
            "patrol",
            2,
            "+2 attack as the target of an attack",
            house=True,
            target_bonus=2,
        ),
        Card(
            Ship.MISSILE_BOAT,
            "Missile Boat",
            "missile",
            2,
            "may support from two squares away in a straight line, whatever lies between",
            house=True,
            support_reach=2,
        ),
        Card(
            Ship.AMMUNITION_SHIP,
            "Ammunition Ship",
            "ammo",
            1,
            "supports without a discard, and counts 3 as a support (even face-down)",
            house=True,
            support_value=3,
            support_discard=False,
        ),
    )
}

SHIP_ORDER: tuple[Ship, ...] = tuple(Ship)
DECK_SIZE = len(SHIP_ORDER)

_NAMES: dict[str, Ship] = {}
for _ship in Ship:
    for _name in (_ship.value, _ship.card.name, _ship.card.short):
        _NAMES[re.sub(r"[\s_]+", " ", _name.lower()).strip()] = _ship


def ship_words(text: str) -> str:
    """A ship name as the parser compares it: lower case, ``_`` and runs of spaces as one space."""
    return re.sub(r"[\s_]+", " ", text.lower()).strip()


def find_ship(text: str) -> Ship | None:
    """The ship named by an id, a card name in any case or a short word; None if none is."""
    return _NAMES.get(ship_words(text))


def parse_ship(text: str) -> Ship:
    """Like :func:`find_ship`, raising OrderSyntaxError that lists the ships."""
    ship = find_ship(text)
    if ship is None:
        raise OrderSyntaxError(
            f"{text.strip()!r} is not a ship: name one as {short_words()} (or its card name)"
        )
    return ship


def short_words() -> str:
    return ", ".join(ship.card.short for ship in SHIP_ORDER)


def in_ship_order(ships: tuple[Ship, ...] | list[Ship]) -> tuple[Ship, ...]:
    return tuple(sorted(ships, key=lambda ship: ship.order))
