"""How much each unit counts in a combat (rules §4 step 4, with §2's abilities).

Each side totals the attack values of its units: the attacker and its
supports, the target and its supports. A unit counts its card's attack, plus
one for each ship its owner has sunk if it is a Salvage Ship (counted at the
moment of the combat); the target adds its Patrol Ship bonus; an Ammunition
Ship supporting counts 3 in all. The higher total wins and the defence wins
ties — unless the attacking unit is a Ramming Ship, which wins ties as the
attacker (not as a support). The numbers come from :data:`ships.CARDS`.
"""

from __future__ import annotations

import enum

from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Side


class Role(enum.Enum):
    """The part a unit plays in a combat."""

    ATTACKER = "attacker"
    TARGET = "target"
    SUPPORT = "support"


def unit_value(ship: Ship, role: Role, owner_sank: int) -> int:
    """What ``ship`` adds to its side's total in ``role``, its owner having sunk
    ``owner_sank`` ships."""
    card = ship.card
    if role is Role.SUPPORT and card.support_value is not None:
        return card.support_value
    value = card.attack_now(owner_sank)
    if role is Role.TARGET:
        value += card.target_bonus
    return value


def winner(attack: int, defence: int, attacking_ship: Ship) -> Side:
    """Which side wins: the higher total; ties go to the defence, or to a Ramming Ship attacking."""
    if attack > defence:
        return Side.ATTACK
    if attack == defence and attacking_ship.card.wins_ties_attacking:
        return Side.ATTACK
    return Side.DEFENCE
