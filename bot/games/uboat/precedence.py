"""Which of a round's orders stand (``shared/rules/uboat.md`` §3, §5; contract "Orders").

Per boat and per round the captain's latest fire/move/ram/hold stands if the
captain sent one; otherwise the latest from any crew member. The same for
``evade``. A player adrift after a sinking may name a crew (``crew blue``); their
latest choice stands. "Latest" is by the platform's send time, then the host's
sequence, so the same orders in any arrival order give the same result. An order
withdrawn when its boat evaded no longer counts, and its sender then has no order
(their earlier ones were already replaced).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import Given, PlayerId
from bot.games.uboat.orders import Evade, Fire, Hold, JoinCrew, Move, Order, Ram, RoundOrder
from bot.games.uboat.state import UboatState
from bot.games.uboat.values import Colour


@dataclass(frozen=True)
class Standing:
    """A round order that stands, with who sent it and its place in the round."""

    player: PlayerId
    order: RoundOrder
    sequence: int


@dataclass(frozen=True)
class Evasion:
    """An evasion that stands, with who sent it."""

    player: PlayerId
    order: Evade


def _latest(
    orders: Sequence[Given[Order]], kinds: tuple[type, ...]
) -> dict[PlayerId, Given[Order]]:
    """Each sender's latest order of these kinds."""
    latest: dict[PlayerId, Given[Order]] = {}
    for given in orders:
        if not isinstance(given.order, kinds):
            continue
        held = latest.get(given.player)
        if held is None or (given.sent_at, given.sequence) > (held.sent_at, held.sequence):
            latest[given.player] = given
    return latest


def _per_boat(
    state: UboatState, latest: dict[PlayerId, Given[Order]]
) -> dict[Colour, Given[Order]]:
    """The captain's order if the captain gave one, else the crew's latest."""
    standing: dict[Colour, Given[Order]] = {}
    for boat in state.afloat:
        members = [latest[p.id] for p in state.crew_of(boat.colour) if p.id in latest]
        if not members:
            continue
        captains = [given for given in members if given.player == boat.captain]
        standing[boat.colour] = (
            captains[0] if captains else max(members, key=lambda g: (g.sent_at, g.sequence))
        )
    return standing


_ROUND_KINDS = (Fire, Move, Ram, Hold)


def latest_round_orders(
    state: UboatState, orders: Sequence[Given[Order]]
) -> dict[PlayerId, Given[Order]]:
    """Each sender's latest fire/move/ram/hold, unless it was withdrawn."""
    return {
        player: given
        for player, given in _latest(orders, _ROUND_KINDS).items()
        if (given.player, given.sequence) not in state.withdrawn
    }


def standing_round_orders(
    state: UboatState, orders: Sequence[Given[Order]]
) -> dict[Colour, Standing]:
    """Boat → the fire/move/ram/hold that stands."""
    standing: dict[Colour, Standing] = {}
    for colour, given in _per_boat(state, latest_round_orders(state, orders)).items():
        order = given.order
        assert isinstance(order, Fire | Move | Ram | Hold)
        standing[colour] = Standing(given.player, order, given.sequence)
    return standing


def standing_evasions(state: UboatState, orders: Sequence[Given[Order]]) -> dict[Colour, Evasion]:
    """Boat → the evasion that stands, for the boats whose window is open."""
    evasions: dict[Colour, Evasion] = {}
    for colour, given in _per_boat(state, _latest(orders, (Evade,))).items():
        if colour in state.evaders and isinstance(given.order, Evade):
            evasions[colour] = Evasion(given.player, given.order)
    return evasions


def standing_crew_choices(
    state: UboatState, orders: Sequence[Given[Order]]
) -> dict[PlayerId, Colour]:
    """Adrift player → the boat they chose (their latest ``crew``)."""
    choices: dict[PlayerId, Colour] = {}
    for player, given in _latest(orders, (JoinCrew,)).items():
        found = state.player(player)
        if found is None or found.left or found.crew is not None:
            continue
        if isinstance(given.order, JoinCrew):
            choices[player] = given.order.boat
    return choices
