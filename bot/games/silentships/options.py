"""The options of a game of Silent Ships (rules §7), as ``@game silentships key=value``.

``move_time`` (24h) is the time a player has for a turn, ``response_time`` (10m)
the time a defender has to answer an attack, ``max_turns`` (60, from 2 to 999)
the player turns after which the ships sunk decide. ``first`` is ``coin`` (a
seeded toss) or ``joined`` (the first to join moves first). ``deck1`` and
``deck2`` are the first and the second player's decks: ``shuffled``, or ships
listed top first, the rest following in ship order (for tests and puzzles).
Unknown keys, values out of range and unknown or repeated ships are refused.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from bot.games.base import ArgKind, OptionError
from bot.games.option import Option, OptionTable, choice, duration, enum_words, number
from bot.games.silentships.ships import SHIP_ORDER, Ship, find_ship, short_words

MIN_TURNS = 2
MAX_TURNS = 999


class FirstPlayer(enum.Enum):
    """How the player who moves first is chosen."""

    COIN = "coin"
    JOINED = "joined"


def parse_deck(key: str, text: str) -> tuple[Ship, ...] | None:
    """``shuffled`` → None; ``flag,ram`` → all 11 ships, the named ones on top in that order."""
    if text.strip().lower() == "shuffled":
        return None
    listed: list[Ship] = []
    for word in text.split(","):
        if not word.strip():
            raise OptionError(
                f"{key}: expected shuffled or ships separated by commas, top first "
                f"(e.g. {key}=flag,ram); got {text.strip()!r}"
            )
        ship = find_ship(word)
        if ship is None:
            raise OptionError(
                f"{key}: {word.strip()!r} is not a ship; ships are {short_words()} "
                f"(e.g. {key}=flag,ram)"
            )
        if ship in listed:
            raise OptionError(f"{key}: {ship.value} is listed twice (a deck has one of each ship)")
        listed.append(ship)
    return (*listed, *(ship for ship in SHIP_ORDER if ship not in listed))


def deck_text(deck: tuple[Ship, ...] | None) -> str:
    return "shuffled" if deck is None else ",".join(ship.value for ship in deck)


def _deck_option(name: str, doc: str) -> Option[tuple[Ship, ...] | None]:
    return Option(name, ArgKind.TEXT, None, doc, lambda text: parse_deck(name, text), deck_text)


MOVE_TIME = duration("move_time", timedelta(hours=24), "time a player has for a turn (24h)")
RESPONSE_TIME = duration(
    "response_time", timedelta(minutes=10), "time a defender has to answer an attack (10m)"
)
MAX_TURNS_OPTION = number(
    "max_turns",
    60,
    MIN_TURNS,
    MAX_TURNS,
    "player turns before the ships sunk decide (60)",
    refusal="{name} must be a whole number from {low} to {high} (e.g. max_turns=60); got {got}",
)
FIRST = choice(
    "first",
    FirstPlayer.COIN,
    "who moves first: a coin toss, or the first to join",
    enum_words(FirstPlayer),
    refusal="{name} must be coin (a coin toss) or joined (the first to join moves first); "
    "got {got}",
)
DECK1 = _deck_option("deck1", "first player's deck: shuffled, or ships top first")
DECK2 = _deck_option("deck2", "second player's deck: shuffled, or ships top first")

OPTIONS = OptionTable(
    (MOVE_TIME, RESPONSE_TIME, MAX_TURNS_OPTION, FIRST, DECK1, DECK2),
    unknown="unknown option {key!r}: the options of silentships are {names} "
    "(e.g. `move_time=8h max_turns=40`)",
)
KNOWN_KEYS = OPTIONS.keys


@dataclass(frozen=True)
class SilentShipsOptions:
    move_time: timedelta = MOVE_TIME.default
    response_time: timedelta = RESPONSE_TIME.default
    max_turns: int = MAX_TURNS_OPTION.default
    first: FirstPlayer = FIRST.default
    deck1: tuple[Ship, ...] | None = DECK1.default  # None: shuffled at the start
    deck2: tuple[Ship, ...] | None = DECK2.default

    def text(self) -> dict[str, str]:
        """Every option in canonical text, defaults included (the record's ``game.options``)."""
        return OPTIONS.text(self)


def parse_options(raw: Mapping[str, str]) -> SilentShipsOptions:
    """The options from their texts; OptionError names the known keys or the range."""
    return SilentShipsOptions(**OPTIONS.parse(raw))
