"""The orders of Silent Ships and the parser that reads them (rules §3–§5).

In the turn player's ``actions`` step: ``play SHIP at CELL`` (face-down on the
country or beside it), ``move CELL to CELL discard SHIP`` (onto an enemy: an
attack), ``swap CELL with SHIP`` (a face-up Special Operations Craft) and
``end``. During an attack: ``support CELL discard SHIP`` and ``go`` (attacker),
``pass``, ``retreat discard SHIP`` and ``support …`` (defender), ``retreat to
CELL`` (attacker). At any time in the battle: ``reveal CELL``, ``offer stop`` (or ``offer draw``)
and ``accept``. Texts are case-insensitive; a comma counts as a space,
``discarding`` as ``discard``, and the little words (``at``, ``to``, ``from``,
``with``, ``discard``) may be left out. See ``shared/contracts/silentships.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.games import lookalikes
from bot.games.base import OrderSyntaxError
from bot.games.silentships.cells import Cell, parse_cell
from bot.games.silentships.ships import Ship, parse_ship

MAX_ORDER_TEXT = 500
"""Longer texts are refused before any parsing: no order is near this long."""


@dataclass(frozen=True)
class Play:
    ship: Ship
    cell: Cell


@dataclass(frozen=True)
class Move:
    origin: Cell
    destination: Cell
    discard: Ship


@dataclass(frozen=True)
class Support:
    cell: Cell
    discard: Ship | None


@dataclass(frozen=True)
class Go:
    pass


@dataclass(frozen=True)
class Retreat:
    discard: Ship


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class RetreatTo:
    cell: Cell


@dataclass(frozen=True)
class Reveal:
    cell: Cell


@dataclass(frozen=True)
class Swap:
    cell: Cell
    ship: Ship


@dataclass(frozen=True)
class End:
    pass


@dataclass(frozen=True)
class OfferDraw:
    pass


@dataclass(frozen=True)
class AcceptDraw:
    pass


Order = (
    Play
    | Move
    | Support
    | Go
    | Retreat
    | Pass
    | RetreatTo
    | Reveal
    | Swap
    | End
    | OfferDraw
    | AcceptDraw
)

PRIVATE_ORDERS: tuple[type, ...] = (Play, Move, Support, Retreat, Pass)
"""Orders given only by DM: they would tell the opponent a card or a plan."""

EXAMPLES = {
    "play": "play frigate at D1",
    "move": "move D1 to D2 discard patrol",
    "support": "support from C3 discard fire",
    "go": "go",
    "retreat": "retreat discard sub",
    "pass": "pass",
    "retreat_to": "retreat to E3",
    "reveal": "reveal B4",
    "swap": "swap A2 with frigate",
    "end": "end",
    "offer_draw": "offer stop",
    "accept": "accept",
}

ALL_EXAMPLES = (
    "`play frigate at D1`, `move D1 to D2 discard patrol`, `support from C3 discard fire`, "
    "`go`, `pass`, `retreat discard sub`, `retreat to E3`, `reveal B4`, `swap A2 with frigate`, "
    "`end`, `offer stop` or `accept`"
)

_OFFER_WORDS = (
    ["offer", "stop"],
    ["offer", "to", "stop"],
    ["offer", "a", "stop"],
    ["offer", "draw"],
    ["offer", "a", "draw"],
)

_LOOSE_CELL = re.compile(r"(?<![a-z0-9])([a-z])\s+(\d{1,3})(?![a-z0-9])")
_CELL_WORD = re.compile(r"^[a-z]\d{1,3}$")


def _words(text: str) -> list[str]:
    """Lower case, commas as spaces, ``discarding`` as ``discard``, and ``B 2`` as ``b2``."""
    cleaned = text.lower().replace(",", " ")
    cleaned = _LOOSE_CELL.sub(r"\1\2", cleaned)
    words = cleaned.split()
    return ["discard" if word == "discarding" else word for word in words]


def _expected(verb: str, problem: str = "") -> OrderSyntaxError:
    lead = f"{problem}: " if problem else ""
    return OrderSyntaxError(f"{lead}expected e.g. `{EXAMPLES[verb]}`")


def _cell(word: str, verb: str) -> Cell:
    if not _CELL_WORD.match(word):
        raise _expected(verb, f"{word!r} is not a square such as B2")
    return parse_cell(word)


def _ship(words: list[str], verb: str) -> Ship:
    if not words:
        raise _expected(verb, "name a ship")
    return parse_ship(" ".join(words))


def _drop(words: list[str], *little: str) -> list[str]:
    """Without a leading little word (``at``, ``to``…), which players may leave out."""
    return words[1:] if words and words[0] in little else words


@lookalikes.cells_pointed_out
def parse_order(text: str) -> Order:
    """Text → order, or OrderSyntaxError saying what was expected, with an example."""
    if len(text) > MAX_ORDER_TEXT:
        raise OrderSyntaxError(f"that is too long for an order: expected e.g. {ALL_EXAMPLES}")
    words = _words(text)
    if not words:
        raise OrderSyntaxError(f"expected an order, e.g. {ALL_EXAMPLES}")
    verb, rest = words[0], words[1:]
    if verb == "play":
        if len(rest) < 2:
            raise _expected("play")
        ship_words = rest[:-1]
        if ship_words and ship_words[-1] in ("at", "on"):
            ship_words = ship_words[:-1]
        return Play(_ship(ship_words, "play"), _cell(rest[-1], "play"))
    if verb == "move":
        if len(rest) < 2:
            raise _expected("move")
        origin = _cell(rest[0], "move")
        rest = _drop(rest[1:], "to")
        if not rest:
            raise _expected("move")
        destination = _cell(rest[0], "move")
        discard = _drop(rest[1:], "discard")
        if not discard:
            raise _expected("move", "a move needs a card to discard")
        return Move(origin, destination, _ship(discard, "move"))
    if verb == "support":
        rest = _drop(rest, "from")
        if not rest:
            raise _expected("support")
        cell = _cell(rest[0], "support")
        discard = _drop(rest[1:], "discard")
        return Support(cell, _ship(discard, "support") if discard else None)
    if verb == "retreat":
        if rest and rest[0] == "to":
            if len(rest) != 2:
                raise _expected("retreat_to")
            return RetreatTo(_cell(rest[1], "retreat_to"))
        discard = _drop(rest, "discard")
        if not discard:
            raise _expected("retreat", "a retreat needs a card to discard")
        return Retreat(_ship(discard, "retreat"))
    if verb == "reveal":
        if len(rest) != 1:
            raise _expected("reveal")
        return Reveal(_cell(rest[0], "reveal"))
    if verb == "swap":
        if len(rest) < 2:
            raise _expected("swap")
        return Swap(_cell(rest[0], "swap"), _ship(_drop(rest[1:], "with"), "swap"))
    if words == ["go"]:
        return Go()
    if words == ["pass"]:
        return Pass()
    if words in (["end"], ["end", "turn"]):
        return End()
    # `offer stop` says what it is: an agreed stop is won by the ships sunk, never a draw
    # (rules §5); `offer draw`, the rules' first words, is still understood.
    if words in _OFFER_WORDS:
        return OfferDraw()
    if words in (["accept"], ["accept", "draw"], ["accept", "the", "draw"]):
        return AcceptDraw()
    known = {"go": "go", "pass": "pass", "end": "end", "offer": "offer_draw", "accept": "accept"}
    if verb in known:
        raise _expected(known[verb])
    raise OrderSyntaxError(f"that is not an order of Silent Ships: expected e.g. {ALL_EXAMPLES}")


def describe_order(order: Order) -> str:
    """The canonical text of an order, which :func:`parse_order` reads back."""
    match order:
        case Play(ship, cell):
            return f"play {ship.card.short} at {cell}"
        case Move(origin, destination, discard):
            return f"move {origin} to {destination} discard {discard.card.short}"
        case Support(cell, None):
            return f"support from {cell}"
        case Support(cell, discard) if discard is not None:
            return f"support from {cell} discard {discard.card.short}"
        case Retreat(discard):
            return f"retreat discard {discard.card.short}"
        case RetreatTo(cell):
            return f"retreat to {cell}"
        case Reveal(cell):
            return f"reveal {cell}"
        case Swap(cell, ship):
            return f"swap {cell} with {ship.card.short}"
        case Go():
            return "go"
        case Pass():
            return "pass"
        case End():
            return "end"
        case OfferDraw():
            return "offer stop"
        case AcceptDraw():
            return "accept"
    raise AssertionError(f"unknown order {order!r}")


def action_of(order: Order) -> str:
    """The record's ``action`` for an order."""
    return {
        Play: "play",
        Move: "move",
        Support: "support",
        Go: "go",
        Retreat: "retreat",
        Pass: "pass",
        RetreatTo: "retreat_to",
        Reveal: "reveal",
        Swap: "swap",
        End: "end",
        OfferDraw: "offer_draw",
        AcceptDraw: "accept",
    }[type(order)]


def order_entry(order: Order) -> dict[str, Any]:
    """The record's entry for an order, without ``player`` (ships by id, cells canonical)."""
    entry: dict[str, Any] = {"action": action_of(order)}
    match order:
        case Play(ship, cell):
            entry |= {"ship": ship.value, "cell": str(cell)}
        case Move(origin, destination, discard):
            entry |= {"from": str(origin), "to": str(destination), "discard": discard.value}
        case Support(cell, discard):
            entry |= {"cell": str(cell), "discard": None if discard is None else discard.value}
        case Retreat(discard):
            entry |= {"discard": discard.value}
        case RetreatTo(cell) | Reveal(cell):
            entry |= {"cell": str(cell)}
        case Swap(cell, ship):
            entry |= {"cell": str(cell), "ship": ship.value}
    return entry


def order_from_entry(entry: dict[str, Any]) -> Order:
    """Inverse of :func:`order_entry` (extra keys such as ``player`` are ignored)."""
    action = entry["action"]
    if action == "play":
        return Play(Ship(entry["ship"]), parse_cell(entry["cell"]))
    if action == "move":
        return Move(parse_cell(entry["from"]), parse_cell(entry["to"]), Ship(entry["discard"]))
    if action == "support":
        discard = entry.get("discard")
        return Support(parse_cell(entry["cell"]), None if discard is None else Ship(discard))
    if action == "retreat":
        return Retreat(Ship(entry["discard"]))
    if action == "retreat_to":
        return RetreatTo(parse_cell(entry["cell"]))
    if action == "reveal":
        return Reveal(parse_cell(entry["cell"]))
    if action == "swap":
        return Swap(parse_cell(entry["cell"]), Ship(entry["ship"]))
    simple: dict[str, Order] = {
        "go": Go(),
        "pass": Pass(),
        "end": End(),
        "offer_draw": OfferDraw(),
        "accept": AcceptDraw(),
    }
    if action in simple:
        return simple[action]
    raise ValueError(f"unknown silentships action {action!r}")
