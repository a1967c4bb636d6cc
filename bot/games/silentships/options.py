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
from dataclasses import dataclass, replace
from datetime import timedelta

from bot.games.base import OptionError
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import whole_number
from bot.games.silentships.ships import SHIP_ORDER, Ship, find_ship, short_words

MIN_TURNS = 2
MAX_TURNS = 999


class FirstPlayer(enum.Enum):
    """How the player who moves first is chosen."""

    COIN = "coin"
    JOINED = "joined"


@dataclass(frozen=True)
class SilentShipsOptions:
    move_time: timedelta = timedelta(hours=24)
    response_time: timedelta = timedelta(minutes=10)
    max_turns: int = 60
    first: FirstPlayer = FirstPlayer.COIN
    deck1: tuple[Ship, ...] | None = None  # None: shuffled at the start
    deck2: tuple[Ship, ...] | None = None

    def text(self) -> dict[str, str]:
        """Every option in canonical text, defaults included (the record's ``game.options``)."""
        return {
            "move_time": format_duration(self.move_time),
            "response_time": format_duration(self.response_time),
            "max_turns": str(self.max_turns),
            "first": self.first.value,
            "deck1": deck_text(self.deck1),
            "deck2": deck_text(self.deck2),
        }


KNOWN_KEYS = ("move_time", "response_time", "max_turns", "first", "deck1", "deck2")


def parse_options(raw: Mapping[str, str]) -> SilentShipsOptions:
    """The options from their texts; OptionError names the known keys or the range."""
    options = SilentShipsOptions()
    for key, text in raw.items():
        name = key.strip().lower()
        if name not in KNOWN_KEYS:
            raise OptionError(
                f"unknown option {key!r}: the options of silentships are {', '.join(KNOWN_KEYS)} "
                "(e.g. `move_time=8h max_turns=40`)"
            )
        if name == "move_time":
            options = replace(options, move_time=_parse_time(name, text))
        elif name == "response_time":
            options = replace(options, response_time=_parse_time(name, text))
        elif name == "max_turns":
            options = replace(options, max_turns=_parse_max_turns(text))
        elif name == "first":
            options = replace(options, first=_parse_first(text))
        elif name == "deck1":
            options = replace(options, deck1=parse_deck(name, text))
        else:
            options = replace(options, deck2=parse_deck(name, text))
    return options


def _parse_time(name: str, text: str) -> timedelta:
    try:
        return parse_duration(text)
    except OptionError as error:
        raise OptionError(f"{name}: {error.message}") from None


def _parse_max_turns(text: str) -> int:
    stripped = text.strip()
    turns = whole_number(stripped)
    if turns is None or not MIN_TURNS <= turns <= MAX_TURNS:
        raise OptionError(
            f"max_turns must be a whole number from {MIN_TURNS} to {MAX_TURNS} "
            f"(e.g. max_turns=60); got {stripped[:40]!r}"
        )
    return turns


def _parse_first(text: str) -> FirstPlayer:
    try:
        return FirstPlayer(text.strip().lower())
    except ValueError:
        raise OptionError(
            f"first must be coin (a coin toss) or joined (the first to join moves first); "
            f"got {text.strip()!r}"
        ) from None


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
