"""Sugar Dog's orders and the parser that reads them (shared/rules/sugardog.md §1, §2;
shared/contracts/sugardog.md, "Orders").

In setup a captain sends a secret starting cell (``C4`` or ``start C4``). In
battle the captain to move sends one action by DM: ``silent`` or ``silent up``
(stay or move one cell quietly), ``cruise up left`` (exactly two steps, loudly),
``ping`` (active sonar), ``torpedo down`` or ``mine``. ``log`` shows a captain
their own log at any time and is not an action. Words are case-insensitive,
directions may be written ``u``/``d``/``l``/``r``, and spaces and commas
between them are free. Host words (join, leave, help…) never reach this parser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games import lookalikes
from bot.games.base import Arg, ArgKind, OrderSyntaxError, PlayerId, Verb
from bot.games.grid import Direction
from bot.games.sugardog.board import (
    DIRECTION_WORDS,
    Cell,
    looks_like_cell,
    parse_cell,
)

MAX_ORDER_TEXT = 500
"""Longer texts are refused unread: no order is near this long."""


@dataclass(frozen=True)
class StartingCell:
    """Setup: where the captain's submarine starts (the latest accepted one stands)."""

    cell: Cell


@dataclass(frozen=True)
class SilentRunning:
    """Stay (``direction`` None) or move one cell; the submarine becomes silent."""

    direction: Direction | None


@dataclass(frozen=True)
class Cruise:
    """Two steps, each one cell, announcing a contact in each cell entered."""

    first: Direction
    second: Direction

    @property
    def directions(self) -> tuple[Direction, Direction]:
        return (self.first, self.second)


@dataclass(frozen=True)
class Ping:
    """Active sonar: everyone's position is announced (rules §4)."""


@dataclass(frozen=True)
class FireTorpedo:
    direction: Direction


@dataclass(frozen=True)
class LayMine:
    """Leave a mine in the submarine's cell (three per submarine)."""


@dataclass(frozen=True)
class ShowLog:
    """Not an action: the captain's own log, by DM."""


@dataclass(frozen=True)
class Leave:
    """The host's ``leave``/``kick`` as the record writes it (never typed as a game order)."""


Action = SilentRunning | Cruise | Ping | FireTorpedo | LayMine
"""An order that is a captain's turn."""

Order = StartingCell | Action | ShowLog
"""Everything :func:`parse_order` can return."""

Played = Action | Leave
"""What a turn of the history holds: an action, or a captain leaving."""

ACTION_NAMES: dict[type[Action], str] = {
    SilentRunning: "silent",
    Cruise: "cruise",
    Ping: "ping",
    FireTorpedo: "torpedo",
    LayMine: "mine",
}

EXAMPLES = "`silent`, `silent up`, `cruise up left`, `ping`, `torpedo down` or `mine`"
DIRECTIONS_TEXT = "up, down, left or right (u, d, l, r)"

_TAGS = re.compile(r"(?<![\w#@])[#@][\w.\-]*")
_SEPARATORS = re.compile(r"[\s,;]+")


def action_name(order: Played) -> str:
    """The public name of an action (``silent``, ``cruise``…, or ``leave``)."""
    if isinstance(order, Leave):
        return "leave"
    return ACTION_NAMES[type(order)]


def _direction(word: str, order: str, example: str) -> Direction:
    try:
        return DIRECTION_WORDS[word]
    except KeyError:
        raise OrderSyntaxError(
            f"{order}: {word!r} is not a direction: expected {DIRECTIONS_TEXT}, e.g. `{example}`"
        ) from None


@lookalikes.cells_pointed_out
def parse_order(text: str) -> Order:
    """Text → order; raises OrderSyntaxError saying what was expected, with an example."""
    if len(text) > MAX_ORDER_TEXT:
        raise OrderSyntaxError(f"that is far too long for an order: send one of {EXAMPLES}")
    cleaned = _TAGS.sub(" ", text).strip().lower()
    if looks_like_cell(cleaned):
        return StartingCell(parse_cell(cleaned))
    words = [word for word in _SEPARATORS.split(cleaned) if word]
    if not words:
        raise OrderSyntaxError(f"expected an order: {EXAMPLES} (or `log`)")
    head, rest = words[0], words[1:]
    if head == "start" and rest:
        return StartingCell(parse_cell(" ".join(rest)))
    if head == "silent":
        if rest[:1] == ["running"]:
            rest = rest[1:]
        if not rest:
            return SilentRunning(None)
        if len(rest) == 1:
            return SilentRunning(_direction(rest[0], "silent", "silent up"))
        raise OrderSyntaxError(
            "silent running stays or moves at most one cell: send `silent` or `silent up`"
        )
    if head == "cruise":
        if len(rest) != 2:
            raise OrderSyntaxError(
                "a cruise is exactly two steps: send two directions, e.g. `cruise up left`"
            )
        first, second = (_direction(word, "cruise", "cruise up left") for word in rest)
        return Cruise(first, second)
    if head == "torpedo":
        if len(rest) != 1:
            raise OrderSyntaxError(
                f"a torpedo needs one direction, {DIRECTIONS_TEXT}: e.g. `torpedo down`"
            )
        return FireTorpedo(_direction(rest[0], "torpedo", "torpedo down"))
    simple: Mapping[str, Order] = {"ping": Ping(), "mine": LayMine(), "log": ShowLog()}
    if head in simple:
        if rest:
            raise OrderSyntaxError(f"`{head}` takes nothing more: send just `{head}`")
        return simple[head]
    raise OrderSyntaxError(
        f"that is not an order: on your turn send {EXAMPLES} by DM; `log` shows your log; "
        "in setup, send your starting cell, e.g. `C4`"
    )


def describe_order(order: Order | Leave) -> str:
    """Canonical text of an order; the parser reads it back to the same order."""
    if isinstance(order, StartingCell):
        return f"start {order.cell}"
    if isinstance(order, SilentRunning):
        return "silent" if order.direction is None else f"silent {order.direction.value}"
    if isinstance(order, Cruise):
        return f"cruise {order.first.value} {order.second.value}"
    if isinstance(order, FireTorpedo):
        return f"torpedo {order.direction.value}"
    if isinstance(order, Ping):
        return "ping"
    if isinstance(order, LayMine):
        return "mine"
    if isinstance(order, ShowLog):
        return "log"
    return "leave"


def order_record(order: Played, player: PlayerId, timeout: bool = False) -> dict[str, Any]:
    """The order's canonical entry in the record's ``turns[].orders`` (with a player id)."""
    if isinstance(order, Leave):
        return {"player": player, "action": "leave"}
    entry: dict[str, Any] = {"player": player, "action": action_name(order)}
    if isinstance(order, SilentRunning):
        entry["direction"] = None if order.direction is None else order.direction.value
    elif isinstance(order, Cruise):
        entry["directions"] = [direction.value for direction in order.directions]
    elif isinstance(order, FireTorpedo):
        entry["direction"] = order.direction.value
    entry["timeout"] = timeout
    return entry


def played_of_record(entry: Mapping[str, Any]) -> tuple[Played, bool]:
    """Inverse of :func:`order_record`: the order and whether it was a timeout."""
    action = entry.get("action")
    timeout = bool(entry.get("timeout", False))
    if action == "silent":
        direction = entry.get("direction")
        return SilentRunning(None if direction is None else Direction(direction)), timeout
    if action == "cruise":
        first, second = (Direction(word) for word in entry["directions"])
        return Cruise(first, second), timeout
    if action == "torpedo":
        return FireTorpedo(Direction(entry["direction"])), timeout
    if action == "ping":
        return Ping(), timeout
    if action == "mine":
        return LayMine(), timeout
    if action == "leave":
        return Leave(), False
    raise ValueError(f"not a Sugar Dog order record: {dict(entry)!r}")


_DIRECTION_CHOICES = tuple(direction.value for direction in Direction)

VERBS = (
    Verb(
        "cell",
        "Setup: your secret starting cell (column letter, row number; A1 is bottom left)",
        private=True,
        args=(Arg("cell", ArgKind.CELL, "the cell your submarine starts in, e.g. C4"),),
        # Typed `start C4`: the host then knows a player's `start C4` is this order and
        # not its own `start` (which platforms offer as `host start`).
        words="start",
    ),
    Verb(
        "silent",
        "Silent running: stay, or move one cell; only the action's name is announced",
        private=True,
        args=(
            Arg(
                "direction",
                ArgKind.CHOICE,
                "one step, or none to stay",
                required=False,
                choices=_DIRECTION_CHOICES,
            ),
        ),
    ),
    Verb(
        "cruise",
        "Cruise two cells; a contact is announced in each cell entered",
        private=True,
        args=(
            Arg("first", ArgKind.CHOICE, "the first step", choices=_DIRECTION_CHOICES),
            Arg("second", ArgKind.CHOICE, "the second step", choices=_DIRECTION_CHOICES),
        ),
    ),
    Verb("ping", "Active sonar: everyone's position is announced, yours first", private=True),
    Verb(
        "torpedo",
        "Fire a torpedo from your cell; it runs 2 cells now and 2 at each of your turns",
        private=True,
        args=(Arg("direction", ArgKind.CHOICE, "where it runs", choices=_DIRECTION_CHOICES),),
    ),
    Verb("mine", "Leave a mine in your cell (3 per submarine)", private=True),
    Verb("log", "Your own orders and what you learned, turn by turn", private=True),
)
