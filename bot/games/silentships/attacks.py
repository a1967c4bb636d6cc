"""Attacks (rules §4): supports, the defender's answer, retreat and combat.

1. The attacker may add **supports**: their units next to the target square (a
   face-up Missile Boat also from 2 squares away in a line), each discarding a
   card (a face-up Ammunition Ship: none). ``go`` hands the answer to the defender.
2. The defender may **retreat**, discarding a card, before adding any support,
   if an empty square next to the target exists that the attack did not come
   from: with one such square the target goes there at once, with several the
   attacker chooses; the attacker moves into the vacated square; no battle.
3. Otherwise the defender may add supports the same way, then ``pass``.
4. Attacker, target and supports are revealed; each side totals its values
   (``combat.py``); the defence wins ties. A beaten target is **sunk** into the
   attacker's pile and the attacker moves in; a Fire Ship that defends is sunk
   whatever the result; a Submarine that fought and is afloat turns face-down;
   a sunk Flag Ship loses its owner the game.

Each unit supports at most once per attack; the attacking unit and the target
are not supports. When the move time ran out during the attack, the turn ends
as soon as the attack is over. See ``shared/rules/silentships.md`` §4.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.base import IllegalOrderError, PlayerId
from bot.games.silentships.actions import discarding, hand_text, own_unit
from bot.games.silentships.cells import Cell, cells_text
from bot.games.silentships.changes import Log
from bot.games.silentships.combat import Role, unit_value, winner
from bot.games.silentships.orders import (
    Go,
    Pass,
    Retreat,
    RetreatTo,
    Support,
    order_entry,
)
from bot.games.silentships.state import (
    Attack,
    Combat,
    Fighter,
    Reason,
    Side,
    SilentShipsState,
    Supporter,
    TurnStep,
    Unit,
)
from bot.games.silentships.turns import end_turn, finish


def current(state: SilentShipsState) -> Attack:
    assert state.attack is not None
    return state.attack


def retreat_squares(state: SilentShipsState) -> tuple[Cell, ...]:
    """Empty squares next to the target that the attack did not come from, in cell order."""
    attack = current(state)
    return tuple(
        cell
        for cell in attack.target.neighbours()
        if cell != attack.origin and state.unit_at(cell) is None
    )


def support_reach(unit: Unit) -> int:
    return unit.ship.card.support_reach if unit.face_up else 1


def can_support(state: SilentShipsState, unit: Unit) -> bool:
    """Whether ``unit`` may still be added as a support to the attack in progress."""
    attack = current(state)
    if unit.cell in (attack.origin, attack.target) or attack.supporting(unit.cell):
        return False
    if unit.cell.is_next_to(attack.target):
        return True
    return any(
        unit.cell.in_line(attack.target, distance) for distance in range(2, support_reach(unit) + 1)
    )


def free_support(unit: Unit) -> bool:
    """A face-up Ammunition Ship supports without a discard."""
    return unit.face_up and not unit.ship.card.support_discard


def support(
    state: SilentShipsState, player: PlayerId, order: Support, log: Log
) -> SilentShipsState:
    attack = current(state)
    side = Side.ATTACK if player == attack.attacker else Side.DEFENCE
    unit = own_unit(state, player, order.cell, "support from C3 discard fire")
    target = attack.target
    if unit.cell in (attack.origin, attack.target):
        role = "attacking unit" if unit.cell == attack.origin else "target"
        raise IllegalOrderError(f"your unit on {unit.cell} is the {role}: it is not a support")
    if attack.supporting(unit.cell):
        raise IllegalOrderError(f"your unit on {unit.cell} supports already: once per attack")
    if not can_support(state, unit):
        far = unit.cell.in_line(target, 2) and unit.ship.card.support_reach >= 2
        why = " (a Missile Boat must be face-up to support from there)" if far else ""
        raise IllegalOrderError(
            f"{unit.cell} is not next to the target {target}: supports come from the squares "
            f"next to it ({cells_text(list(target.neighbours()))}; a face-up Missile Boat also "
            f"from 2 away in a line){why}"
        )
    if free_support(unit):
        if order.discard is not None:
            raise IllegalOrderError(
                f"a face-up Ammunition Ship supports without a discard: send "
                f"`support from {unit.cell}`"
            )
    else:
        if order.discard is None:
            hand = state.admiral(player).hand
            example = hand[0].card.short if hand else "frigate"
            raise IllegalOrderError(
                f"a support costs a card: name it, e.g. `support from {unit.cell} discard "
                f"{example}` (your hand: {hand_text(hand)})"
            )
        state = discarding(state, player, order.discard, "a support")
    supporter = Supporter(side, unit.cell, None if free_support(unit) else order.discard)
    state = replace(state, attack=replace(attack, supports=(*attack.supports, supporter)))
    log.order(player, order_entry(order))
    log.event(
        "support",
        {"player": player, "ship": unit.ship.value, "cell": str(unit.cell), "side": side.value},
    )
    if side is Side.DEFENCE:
        # (an attack's supports reach the defender with the question, at `go`: not a
        # board each)
        log.touch(*(a.id for a in state.admirals))
    return state


def go(
    state: SilentShipsState, player: PlayerId, log: Log, timeout: bool = False
) -> SilentShipsState:
    """The attacker is done adding supports: the defender answers."""
    log.order(player, order_entry(Go()), timeout=timeout)
    return replace(state, step=TurnStep.RESPONSE)


def retreat(
    state: SilentShipsState, player: PlayerId, order: Retreat, rng: random.Random, log: Log
) -> SilentShipsState:
    attack = current(state)
    if attack.sides(Side.DEFENCE):
        raise IllegalOrderError(
            "you have added a support already: a retreat must come before any support "
            "(send `pass` to fight)"
        )
    squares = retreat_squares(state)
    if not squares:
        raise IllegalOrderError(
            f"no empty square next to {attack.target} that the attack did not come from: "
            "no retreat (send `pass`, or add supports)"
        )
    state = discarding(state, player, order.discard, "a retreat")
    log.order(player, order_entry(order))
    # (no board until the retreat is done: the attacker is asked where, by a DM of its own)
    if len(squares) == 1:
        return retreat_to(state, squares[0], rng, log)
    if state.out_of_time:
        # The attacker's time is over: the retreat square is the first free one.
        log.order(attack.attacker, order_entry(RetreatTo(squares[0])), timeout=True)
        return retreat_to(state, squares[0], rng, log)
    return replace(state, step=TurnStep.RETREAT, attack=replace(attack, retreat_squares=squares))


def choose_retreat(
    state: SilentShipsState, player: PlayerId, order: RetreatTo, rng: random.Random, log: Log
) -> SilentShipsState:
    """The attacker's ``retreat to CELL`` in step ``retreat``."""
    squares = current(state).retreat_squares
    if order.cell not in squares:
        raise IllegalOrderError(
            f"the target may retreat to {cells_text(list(squares))} only: e.g. "
            f"`retreat to {squares[0]}`"
        )
    log.order(player, order_entry(order))
    return retreat_to(state, order.cell, rng, log)


def retreat_to(
    state: SilentShipsState, square: Cell, rng: random.Random, log: Log
) -> SilentShipsState:
    """The target goes to ``square`` and the attacker moves into the square it left."""
    attack = current(state)
    target = state.unit_at(attack.target)
    attacker = state.unit_at(attack.origin)
    assert target is not None and attacker is not None
    state = state.without_unit(attack.target).without_unit(attack.origin)
    state = state.placing(replace(target, cell=square)).placing(
        replace(attacker, cell=attack.target)
    )
    log.event(
        "retreated",
        {
            "player": target.owner,
            "ship": target.ship.value,
            "from": str(attack.target),
            "to": str(square),
        },
    )
    log.event(
        "moved",
        {
            "player": attacker.owner,
            "ship": attacker.ship.value,
            "from": str(attack.origin),
            "to": str(attack.target),
        },
    )
    log.touch(*(a.id for a in state.admirals))
    return attack_over(state, rng, log)


def answer_pass(
    state: SilentShipsState, player: PlayerId, rng: random.Random, log: Log, timeout: bool = False
) -> SilentShipsState:
    """The defender has answered (or their time ran out): the combat."""
    log.order(player, order_entry(Pass()), timeout=timeout)
    return combat(state, rng, log)


def combat(state: SilentShipsState, rng: random.Random, log: Log) -> SilentShipsState:
    """Step 4: reveal the fighters, total both sides, sink, move in, hide Submarines."""
    attack = current(state)
    fighters: list[tuple[Cell, Role]] = [
        (attack.origin, Role.ATTACKER),
        (attack.target, Role.TARGET),
        *((s.cell, Role.SUPPORT) for s in attack.sides(Side.ATTACK)),
        *((s.cell, Role.SUPPORT) for s in attack.sides(Side.DEFENCE)),
    ]
    units: list[Unit] = []
    for cell, _ in fighters:
        unit = state.unit_at(cell)
        assert unit is not None
        if not unit.face_up:
            unit = replace(unit, face_up=True)
            state = state.placing(unit)
            log.event(
                "revealed", {"player": unit.owner, "ship": unit.ship.value, "cell": str(cell)}
            )
        units.append(unit)
    totals = {Side.ATTACK: 0, Side.DEFENCE: 0}
    counted = []
    for unit, (_, role) in zip(units, fighters, strict=True):
        side = Side.ATTACK if unit.owner == attack.attacker else Side.DEFENCE
        value = unit_value(unit.ship, role, len(state.admiral(unit.owner).sank))
        totals[side] += value
        counted.append(Fighter(side, unit.owner, unit.cell, unit.ship, value))
    attacking, target = units[0], units[1]
    won = winner(totals[Side.ATTACK], totals[Side.DEFENCE], attacking.ship)
    log.event(
        "combat",
        {
            "attacker": attack.attacker,
            "defender": attack.defender,
            "attack": totals[Side.ATTACK],
            "defence": totals[Side.DEFENCE],
            "winner": won.value,
        },
    )
    sunk = won is Side.ATTACK or target.ship.card.sinks_after_defending
    state = replace(
        state,
        combat=Combat(
            attack.attacker,
            attack.defender,
            attack.origin,
            attack.target,
            tuple(counted),
            totals[Side.ATTACK],
            totals[Side.DEFENCE],
            won,
            sunk,
        ),
    )
    if sunk:
        state = state.without_unit(attack.target)
        pile = state.admiral(attack.attacker)
        state = state.with_admiral(replace(pile, sank=(*pile.sank, target.ship)))
        log.event(
            "sunk",
            {
                "player": attack.defender,
                "ship": target.ship.value,
                "cell": str(attack.target),
                "by": attack.attacker,
            },
        )
    if won is Side.ATTACK:
        state = state.without_unit(attack.origin).placing(replace(attacking, cell=attack.target))
        log.event(
            "moved",
            {
                "player": attack.attacker,
                "ship": attacking.ship.value,
                "from": str(attack.origin),
                "to": str(attack.target),
            },
        )
    for unit in units:
        after = attack.target if unit is attacking and won is Side.ATTACK else unit.cell
        afloat = state.unit_at(after)
        if (
            afloat is not None
            and afloat.owner == unit.owner
            and afloat.ship is unit.ship
            and unit.ship.card.hides_after_combat
        ):
            state = state.placing(replace(afloat, face_up=False))
            log.event("hidden", {"player": unit.owner, "ship": unit.ship.value, "cell": str(after)})
    log.touch(*(a.id for a in state.admirals))
    if sunk and target.ship.card.loses_the_game_when_sunk:
        return finish(state, attack.attacker, Reason.FLAG_SHIP, log)
    return attack_over(state, rng, log)


def attack_over(state: SilentShipsState, rng: random.Random, log: Log) -> SilentShipsState:
    """Back to the turn's actions; or, when the move time ran out meanwhile, the turn ends."""
    timed_out = state.out_of_time
    state = replace(state, step=TurnStep.ACTIONS, attack=None, out_of_time=False)
    if timed_out:
        return end_turn(state, rng, log, timeout=True)
    return state
