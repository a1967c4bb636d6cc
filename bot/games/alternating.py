"""Seats that move in turn, and a question one seat may put to the next.

The seats move in turn, from the seat that moves first: the moving seat's clock
(``move_time``) runs for its move, and a move clock that runs out passes the turn (a
``timeout`` event). A seat may be asked a question (a dare, an attack): while it
answers, within ``response_time``, the mover's clock is held with its time left and
only the asked seat may act; an answer clock that runs out answers for the asked seat
(:meth:`AlternatingRules.unanswered`). A game whose state keeps ``first`` and ``asked``
beside the seated table (:mod:`bot.games.seating`) subclasses :class:`AlternatingRules`
and writes its orders and its answers.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar, Protocol, TypeVar

from bot.games.base import (
    Accepted,
    Described,
    Event,
    GamePhase,
    Given,
    IllegalOrderError,
    OrderT,
    PlayerId,
    Resolution,
    Timer,
)
from bot.games.seating import SeatedRules, Table, everyone, seat_of, seated


class Clocks(Described, Protocol):
    """The options that time the seats: a move, and an answer (both in seconds)."""

    @property
    def move_time(self) -> int: ...

    @property
    def response_time(self) -> int: ...


class InTurn(Table, Protocol):
    """What the alternating rules read of a seated game's state."""

    @property
    def options(self) -> Clocks: ...

    @property
    def first(self) -> str: ...

    @property
    def asked(self) -> str | None: ...


InTurnT = TypeVar("InTurnT", bound=InTurn)


class AlternatingRules(SeatedRules[InTurnT, OrderT], abc.ABC):
    """The neutral rules of seats that move in turn (see the module's docstring)."""

    too_few: ClassVar[str] = "the game needs a player on every seat"
    """The refusal of a start before every seat has a player."""

    def start(
        self, state: InTurnT, rng: random.Random, first: PlayerId | None
    ) -> Resolution[InTurnT]:
        """The first turn begins: the seat of the player the host named moves first (else
        the first seat)."""
        if state.phase is not GamePhase.SETUP:
            raise IllegalOrderError("the game has already started")
        if len(state.players) < len(self.seats):
            raise IllegalOrderError(self.too_few)
        seat = (seat_of(state, first) if first else None) or self.seats[0]
        started = replace(state, phase=GamePhase.RUNNING, turn=1, first=seat)
        return Resolution(started, (Event("began", {"first": seat}),), frozenset(everyone(state)))

    def next_seat(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def mover(self, state: InTurnT) -> str:
        """The seat whose move it is: the first on turn 1, then each in turn."""
        return self.seats[(self.seats.index(state.first) + state.turn - 1) % len(self.seats)]

    def timers(self, state: InTurnT) -> tuple[Timer, ...]:
        if state.phase is not GamePhase.RUNNING:
            return ()
        label, held = f"{self.mover(state)}'s move", state.asked is not None
        move = Timer(f"move:{state.turn}", state.options.move_time, label, held)
        if state.asked is None:
            return (move,)
        answer = f"{state.asked}'s answer"
        return (move, Timer(f"answer:{state.turn}", state.options.response_time, answer))

    def to_act(self, state: InTurnT) -> frozenset[str]:
        if state.phase is not GamePhase.RUNNING:
            return frozenset(everyone(state))
        return frozenset(seated(state, state.asked or self.mover(state)))

    def expire(
        self, state: InTurnT, timer: str, orders: Sequence[Given[OrderT]], rng: random.Random
    ) -> Resolution[InTurnT]:
        if timer.startswith("answer:") and state.asked is not None:
            done = self.unanswered(state, state.asked)
            return Resolution(done.state, done.events, done.changed, orders=done.orders)
        timeout = Event("timeout", {"seat": self.mover(state)})
        return Resolution(replace(state, turn=state.turn + 1), (timeout,), frozenset())

    def finish(self, state: InTurnT) -> Resolution[InTurnT]:
        return super().finish(replace(state, asked=None))  # no question outlives the game

    @abc.abstractmethod
    def unanswered(self, state: InTurnT, seat: str) -> Accepted[InTurnT, OrderT]:
        """The answer given for the asked ``seat`` when its time runs out: what its own
        answer would have done at once."""
