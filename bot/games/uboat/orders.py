"""The orders of U-Boat Shootout and how they are typed (contract ``shared/contracts/uboat.md``).

Every order is sent by DM (the ``#uboat`` tag is optional there): ``start E2`` in
setup; each round ``fire E6``, ``move up up left``, ``ram right right`` or ``hold``
(``pass``); ``evade down left`` while a damaged boat's window is open; ``crew blue``
for a player whose boat was sunk. Keywords and colours are case-insensitive, ``at``
may follow ``start`` and ``fire``, and a route's steps are separated by spaces or
commas. Rules §2, §3 and §5 in ``shared/rules/uboat.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games import lookalikes
from bot.games.base import OrderSyntaxError
from bot.games.grid import Direction
from bot.games.uboat.cells import Cell, Route, parse_cell, route_text
from bot.games.uboat.values import Colour


@dataclass(frozen=True)
class StartAt:
    """Setup: the secret starting cell (the latest valid one stands)."""

    cell: Cell


@dataclass(frozen=True)
class Fire:
    """Fire at a tile within range: a cross-shaped blast."""

    cell: Cell


@dataclass(frozen=True)
class Move:
    """Move along a route of 1 to 3 steps."""

    route: Route


@dataclass(frozen=True)
class Ram:
    """Move along a route, then strike the tile one further in the last step's direction."""

    route: Route


@dataclass(frozen=True)
class Hold:
    """Do nothing this round (replaces an earlier order)."""


@dataclass(frozen=True)
class Evade:
    """The invisible move of a boat damaged last round, while its window is open."""

    route: Route


@dataclass(frozen=True)
class JoinCrew:
    """A sunk boat's player names the boat whose crew they join at the round's end."""

    boat: Colour


RoundOrder = Fire | Move | Ram | Hold
"""The one action a boat takes in a round."""

Order = StartAt | Fire | Move | Ram | Hold | Evade | JoinCrew

EXAMPLES = "`fire E6`, `move up up left`, `ram right right` or `hold`"
_TAG = re.compile(r"^\s*#uboat\b", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")
_DIRECTIONS = {direction.value: direction for direction in Direction}


@lookalikes.cells_pointed_out
def parse_order(text: str) -> Order:
    """Text → order. Raises OrderSyntaxError saying what was expected, with an example.

    A route of more than 3 steps is read (and refused later with the reason)."""
    words = [word for word in _SEPARATORS.split(_TAG.sub("", text).strip()) if word]
    if not words:
        raise OrderSyntaxError(f"expected an order such as {EXAMPLES}")
    keyword, rest = words[0].lower(), words[1:]
    if keyword in ("start", "fire"):
        if rest and rest[0].lower() == "at":
            rest = rest[1:]
        example = "start E2" if keyword == "start" else "fire E6"
        if not rest:
            raise OrderSyntaxError(f"{keyword} needs a cell: e.g. `{example}`")
        try:
            cell = parse_cell("".join(rest))
        except OrderSyntaxError:
            raise OrderSyntaxError(
                f"{keyword} needs a cell, column letter then row number: e.g. `{example}`"
            ) from None
        return StartAt(cell) if keyword == "start" else Fire(cell)
    if keyword in ("move", "ram", "evade"):
        route = _route(keyword, rest)
        if keyword == "move":
            return Move(route)
        return Ram(route) if keyword == "ram" else Evade(route)
    if keyword in ("hold", "pass"):
        if rest:
            raise OrderSyntaxError("`hold` (or `pass`) takes nothing after it: e.g. `hold`")
        return Hold()
    if keyword == "crew":
        names = ", ".join(colour.value for colour in Colour)
        if len(rest) != 1 or rest[0].lower() not in {c.value for c in Colour}:
            raise OrderSyntaxError(f"crew needs a boat's colour ({names}): e.g. `crew blue`")
        return JoinCrew(Colour(rest[0].lower()))
    raise OrderSyntaxError(
        f"expected an order such as {EXAMPLES} (by DM); "
        "in setup `start E2`; a sunk boat's player `crew blue`"
    )


def _route(keyword: str, words: list[str]) -> Route:
    example = {"move": "move up up left", "ram": "ram right right", "evade": "evade down left"}
    if not words:
        raise OrderSyntaxError(
            f"{keyword} needs a route of 1 to 3 steps (up, down, left, right): "
            f"e.g. `{example[keyword]}`"
        )
    steps = []
    for word in words:
        direction = _DIRECTIONS.get(word.lower())
        if direction is None:
            raise OrderSyntaxError(
                f"{word!r} is not a step: a route is 1 to 3 of up, down, left, right, "
                f"e.g. `{example[keyword]}`"
            )
        steps.append(direction)
    return tuple(steps)


def describe_order(order: Order) -> str:
    """The canonical text of an order, which :func:`parse_order` reads back."""
    if isinstance(order, StartAt):
        return f"start {order.cell}"
    if isinstance(order, Fire):
        return f"fire {order.cell}"
    if isinstance(order, Move):
        return f"move {route_text(order.route)}"
    if isinstance(order, Ram):
        return f"ram {route_text(order.route)}"
    if isinstance(order, Evade):
        return f"evade {route_text(order.route)}"
    if isinstance(order, JoinCrew):
        return f"crew {order.boat.value}"
    return "hold"


def action_of(order: Order) -> str:
    """The record's ``action`` word for an order."""
    if isinstance(order, StartAt):
        return "start"
    if isinstance(order, Fire):
        return "fire"
    if isinstance(order, Move):
        return "move"
    if isinstance(order, Ram):
        return "ram"
    if isinstance(order, Evade):
        return "evade"
    if isinstance(order, JoinCrew):
        return "crew"
    return "hold"
