"""The game protocol: what every game hosted by bst provides.

A game is a pure module. It never reads the clock, never does I/O and never
uses the global ``random``; randomness comes in as a seeded ``random.Random``.
The host owns time, storage and platforms, and talks to a game only through
the :class:`Game` protocol below.

How the protocol serves both kinds of game
------------------------------------------

* **Simultaneous games** (bst, U-Boat Shootout): :meth:`Game.to_act` names
  every live player. Orders are *standing*: :meth:`Game.accept` returns the
  order to keep, a later order replaces an earlier one, and nothing happens
  until the host's deadline falls; then :meth:`Game.resolve` receives every
  standing order at once.
* **Alternating games** (Sonar, Sugar Dog, Silent Ships): :meth:`Game.to_act`
  names the one player (or the defender answering an attack) who may act now.
  :meth:`Game.accept` sets ``resolve_now`` when the order completes that
  player's turn, and the host resolves at once instead of waiting for the
  deadline. When the deadline falls first, :meth:`Game.resolve` gets no order
  from that player and applies the game's timeout rule (hold, skip, random
  shots, "no retreat").
* Orders that take effect at once (bst placements during setup, a Silent
  Ships card played mid-turn) return the changed state from
  :meth:`Game.accept` and no standing order.

Secrets leave a game only through :meth:`Game.view`: ``viewer=None`` is the
public view. :meth:`Game.reveal` shows everything and is for finished games
(the replay) and for the host's own records only.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

PlayerId = str
"""The host's stable key for a player in one game (never a platform handle)."""


class Channel(enum.Enum):
    """Where a message was sent: in the game's public channel or privately."""

    PUBLIC = "public"
    PRIVATE = "private"


class GameError(Exception):
    """A refusal meant for a person: ``str(error)`` is the reply to send."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OptionError(GameError):
    """A game option is unknown or out of range."""


class OrderSyntaxError(GameError):
    """The text is not an order at all; the message says what was expected."""


class IllegalOrderError(GameError):
    """The order is understood but not allowed now (phase, ship, board edge…)."""


class WrongChannelError(IllegalOrderError):
    """The order was sent where it must not be (a shot by DM, a move in public)."""


class PlacementError(IllegalOrderError):
    """A fleet placement is refused; the message names the exact problem."""


@dataclass(frozen=True)
class PlayerRef:
    """A player as a game knows them: the host's key and a display name."""

    id: PlayerId
    name: str


@dataclass(frozen=True)
class Notice:
    """A message a game wants delivered: to one player, or public when ``to`` is None."""

    text: str
    to: PlayerId | None = None


@dataclass(frozen=True)
class Event:
    """Something that happened in a resolution, in the record's vocabulary.

    ``data`` holds the record's keys other than ``type`` exactly as the game
    record (``bst-record/1``) writes them.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winners`` are player ids."""

    winners: tuple[PlayerId, ...]
    draw: bool


StateT = TypeVar("StateT")
OrderT = TypeVar("OrderT")


@dataclass(frozen=True)
class Accepted(Generic[StateT, OrderT]):
    """What :meth:`Game.accept` decided about one order.

    ``state`` is the (possibly unchanged) state, ``standing`` the order that
    now waits for the deadline (None when the order took effect at once),
    ``notices`` the messages to send (the sender's acknowledgement first), and
    ``resolve_now`` whether the host should resolve without waiting.
    """

    state: StateT
    standing: OrderT | None
    notices: tuple[Notice, ...]
    resolve_now: bool = False


@dataclass(frozen=True)
class Resolution(Generic[StateT]):
    """The result of closing a turn: the new state, its events in record
    order, and the players whose private board changed (they get a new one)."""

    state: StateT
    events: tuple[Event, ...]
    changed: frozenset[PlayerId]
    notices: tuple[Notice, ...] = ()
    """Private messages the resolution sends (random placements, collisions)."""


class Game(Protocol[StateT, OrderT]):
    """One game's rules. Every method is pure."""

    name: str
    """The registry name (``bst``)."""

    tag: str
    """The hashtag players write and the host's posts carry (``#bst``)."""

    battle_hint: str
    """One line on how to play a turn, for the announcement that the battle begins."""

    def new_game(self, options: Mapping[str, str]) -> StateT:
        """A game in setup with the given options (raises OptionError)."""
        ...

    def options(self, state: StateT) -> dict[str, str]:
        """The game's options in canonical text form, for records and status."""
        ...

    def join(self, state: StateT, player: PlayerRef) -> StateT:
        """Add a player (raises IllegalOrderError when joining is closed)."""
        ...

    def parse(self, text: str) -> OrderT:
        """Text → order. Raises OrderSyntaxError saying what was expected, with an example."""
        ...

    def accept(
        self,
        state: StateT,
        player: PlayerId,
        order: OrderT,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[StateT, OrderT]:
        """Validate an order for a player now; raise IllegalOrderError or decide it.

        ``rng`` is seeded by the host from the game's seed and the message, for
        orders that draw at once (``random`` placement)."""
        ...

    def describe(self, order: OrderT) -> str:
        """The canonical text of an order (``shoot H14``)."""
        ...

    def start(self, state: StateT, rng: random.Random) -> Resolution[StateT]:
        """Close setup and begin the first turn (raises IllegalOrderError if it can't)."""
        ...

    def to_act(self, state: StateT) -> frozenset[PlayerId]:
        """Who may give an order now."""
        ...

    def resolve(
        self, state: StateT, orders: Mapping[PlayerId, OrderT], rng: random.Random
    ) -> Resolution[StateT]:
        """Close the current turn with the standing orders (absent = no order)."""
        ...

    def remove(self, state: StateT, player: PlayerId) -> Resolution[StateT]:
        """A player leaves or is kicked."""
        ...

    def finish(self, state: StateT) -> Resolution[StateT]:
        """The host ends the game at once (a draw between those still alive)."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """None while the game runs."""
        ...

    def view(self, state: StateT, viewer: PlayerId | None) -> Any:
        """What ``viewer`` may see; ``None`` is the public view."""
        ...

    def reveal(self, state: StateT) -> Any:
        """Everything, for the replay of a finished game and the record."""
        ...

    def encode_state(self, state: StateT) -> dict[str, Any]:
        """JSON-ready form of a state (the store keeps it)."""
        ...

    def decode_state(self, data: Mapping[str, Any]) -> StateT:
        """Inverse of encode_state."""
        ...

    def encode_order(self, order: OrderT) -> dict[str, Any]:
        """JSON-ready form of an order, as the record writes it (without ``player``)."""
        ...

    def decode_order(self, data: Mapping[str, Any]) -> OrderT:
        """Inverse of encode_order."""
        ...

    def record_players(self, state: StateT) -> list[dict[str, Any]]:
        """The record's ``players`` list, in join order."""
        ...

    def record_board(self, state: StateT) -> dict[str, Any]:
        """Board facts for the record's ``game`` object (``rows``, ``cols``)."""
        ...

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        """A turn's events in words for everyone (public facts only)."""
        ...

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        """A turn's events in words for one player (their own facts only)."""
        ...

    def summary(self, state: StateT, viewer: PlayerId | None) -> str:
        """A short text of what ``viewer`` sees (public when None): the text
        beside every board image, and the whole board on a text-only console."""
        ...

    def help_text(self) -> str:
        """Short help for players."""
        ...

    def rules_text(self) -> str:
        """The rules summary."""
        ...


_REGISTRY: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> None:
    """Make a game available to the host under its name."""
    _REGISTRY[game.name] = game


def get_game(name: str) -> Game[Any, Any]:
    """The game registered as ``name`` (raises OptionError listing the known ones)."""
    try:
        return _REGISTRY[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise OptionError(f"unknown game {name!r}: expected one of {known}") from None


def game_names() -> Sequence[str]:
    return sorted(_REGISTRY)
