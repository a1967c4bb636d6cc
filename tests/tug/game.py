"""The rules of Tug (a game for the tests): two seats pull a rope in turns.

Players join in turn to the seats ``north`` and ``south`` (a seat's people are its
crew). The seats move in turn; on its turn any member of the moving crew may
``pull N`` (1–3: the rope moves N toward the mover, and the turn ends) or ``dare``:
then the other crew must answer ``give`` (the rope moves 2 toward the darer) or
``hold`` (1 toward the holder) within ``response_time``, while the mover's
``move_time`` waits; then the mover's clock runs on and the mover still pulls. A move
timer that runs out passes the turn; an answer timer that runs out holds. The rope at
``target`` or beyond wins for that seat's crew. Every order carries its sender; among
one crew's pulls of a turn the latest stands. It writes only what differs from every
game (its words in ``words.py``): the neutral rules of seats in turn
(``bot/games/alternating.py``, ``seating.py``), its verbs as its parser
(``verb_orders.py``), the frozen codec (``frozen.py``) and the record's turns
(``record.py``) say the rest.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial
from typing import Any

from bot.games import base
from bot.games.alternating import AlternatingRules
from bot.games.base import Accepted, Event, GamePhase, Given, IllegalOrderError, Notice
from bot.games.frozen import FrozenCodec
from bot.games.option import OptionTable, duration, in_seconds, number
from bot.games.record import turns_by_number
from bot.games.seating import Player, everyone, seat_of, seated
from bot.games.verb_orders import VerbOrder as Order
from bot.games.verb_orders import parse_verb
from tests.tug.robot import ROBOT
from tests.tug.words import TugWords

SEATS = ("north", "south")
TOWARD = {"north": -1, "south": 1}  # north wins at -target, south at +target
WHOLE = "{name}: expected a whole number from {low} to {high}, got {got}"
OPTIONS = OptionTable(
    (
        in_seconds(duration("move_time", timedelta(hours=1), "time for a seat's move")),
        in_seconds(duration("response_time", timedelta(minutes=10), "time to answer a dare")),
        number("target", 3, 1, 9, "the rope's distance that wins", refusal=WHOLE),
    ),
    unknown="unknown option(s) [{key!r}]: expected {names}",
)
STEPS = base.Arg("steps", base.ArgKind.NUMBER, "1 to 3", minimum=1, maximum=3)
VERBS = (
    base.Verb("pull", "Pull the rope 1 to 3 toward your seat", private=False, args=(STEPS,)),
    base.Verb("dare", "Dare the other crew to hold", private=False),
    base.Verb("give", "Answer a dare: give 2", private=True),
    base.Verb("hold", "Answer a dare: hold (1 back)", private=True),
)


@dataclass(frozen=True)
class TugOptions:
    move_time: int = 3600
    response_time: int = 600
    target: int = 3

    def text(self) -> dict[str, str]:
        return OPTIONS.text(self)


@dataclass(frozen=True)
class TugState:
    options: TugOptions
    players: tuple[Player, ...] = ()
    phase: GamePhase = GamePhase.SETUP
    turn: int = 0
    first: str = "north"
    rope: int = 0
    asked: str | None = None  # the seat that must answer a dare
    winners: tuple[base.PlayerId, ...] = ()
    draw: bool = False


def _ended(state: TugState, events: list[Event]) -> TugState:
    """The state after the rope moved: won by a seat's crew if it reached the target."""
    for seat in SEATS:
        if state.rope * TOWARD[seat] >= state.options.target:
            events.append(Event("finished", {"winners": list(seated(state, seat)), "draw": False}))
            return replace(state, phase=GamePhase.FINISHED, winners=seated(state, seat))
    return state


class TugRules(AlternatingRules[TugState, Order]):
    """Tug's state machine, where it differs from the neutral rules of seats in turn."""

    seats = SEATS
    staying = "a crew member cannot leave a rope in play"
    too_few = "Tug needs two players or more, one on each seat"

    def new_game(self, options: Mapping[str, str]) -> TugState:
        return TugState(TugOptions(**OPTIONS.parse(options)))

    parse = staticmethod(partial(parse_verb, VERBS))

    def accept(
        self, state: TugState, player: str, order: Order, channel: base.Channel, _: random.Random
    ) -> Accepted[TugState, Order]:
        seat = seat_of(state, player)
        if state.phase is not GamePhase.RUNNING or seat is None:
            raise IllegalOrderError("there is no rope to pull now")
        if order.verb in ("give", "hold"):
            if state.asked != seat:
                raise IllegalOrderError("nobody dared your crew: wait for your turn")
            if channel is base.Channel.PUBLIC:
                raise IllegalOrderError("answer a dare by DM")
            return _answer(state, player, seat, order.verb, timeout=False)
        if state.asked is not None:
            raise IllegalOrderError(f"the {state.asked} crew is answering a dare: wait")
        if seat != self.mover(state):
            raise IllegalOrderError(f"it is the {self.mover(state)} crew's move, not yours")
        if order.verb == "pull":
            return Accepted(state, order, (Notice(f"Pulling {order.values[0]}.", to=player),), True)
        asked = seated(state, self.next_seat(seat))[0]
        question = f"The {seat} crew dares you: `give` or `hold`?"
        notice = Notice(question, crew=True, to=asked, choices=("give", "hold"))
        dared = Event("dared", {"seat": seat, "by": player})
        entry = {"player": player, "action": "dare"}
        after = replace(state, asked=self.next_seat(seat))
        return Accepted(after, None, (notice,), events=(dared,), orders=(entry,))

    def resolve(
        self, state: TugState, orders: Sequence[Given[Order]], _: random.Random
    ) -> base.Resolution[TugState]:
        mover = self.mover(state)
        pulls = [g for g in orders if g.order.verb == "pull" and seat_of(state, g.player) == mover]
        last = max(pulls, key=lambda g: (g.sent_at, g.sequence))  # the latest of the crew's
        steps = int(last.order.values[0])
        rope = state.rope + steps * TOWARD[mover]
        events = [Event("pulled", {"seat": mover, "by": last.player, "steps": steps, "rope": rope})]
        after = _ended(replace(state, rope=rope, turn=state.turn + 1), events)
        entry = {"player": last.player, "action": "pull", "steps": steps}
        return base.Resolution(after, tuple(events), frozenset(everyone(state)), orders=(entry,))

    def unanswered(self, state: TugState, seat: str) -> Accepted[TugState, Order]:
        return _answer(state, seated(state, seat)[0], seat, "hold", timeout=True)

    def crew(self, state: TugState, player: str) -> tuple[str, ...]:
        seat = seat_of(state, player)
        return seated(state, seat) if seat else (player,)


def _answer(
    state: TugState, player: str, seat: str, answer: str, *, timeout: bool
) -> Accepted[TugState, Order]:
    rope = state.rope + (-2 if answer == "give" else 1) * TOWARD[seat]  # give: 2 to the darer
    entry = {"player": player, "action": answer, **({"timeout": True} if timeout else {})}
    events = [Event("answered", {"seat": seat, "by": player, "answer": answer, "rope": rope})]
    after = _ended(replace(state, asked=None, rope=rope), events)
    changed = frozenset(everyone(state))
    return Accepted(after, None, (), events=tuple(events), orders=(entry,), changed=changed)


def _board(state: TugState, viewer: str | None = None) -> dict[str, Any]:
    """What anyone sees (no secrets in Tug): the same for ``reveal``."""
    seat = seat_of(state, viewer or "")
    return {"rope": state.rope, "turn": state.turn, "seat": seat, "asked": state.asked}


class TugViews:
    view = reveal = staticmethod(_board)


def record(
    state: TugState, history: Sequence[base.Step], context: base.RecordContext
) -> dict[str, Any]:
    """Tug's record, ``tug-record/1``: names for ids, the rope, one entry a turn."""
    names = context.names
    winners = sorted(names.get(w, w) for w in state.winners)
    game: dict[str, Any] = {"kind": "tug", "options": state.options.text(), "phase": context.phase}
    game |= {"turn": state.turn, "rope": state.rope, "deadlines": dict(context.deadlines)}
    return {
        "format": "tug-record/1",
        "game": game | {"winners": winners, "draw": state.draw},
        "players": [{"name": p.name, "status": "alive", "seat": p.seat} for p in state.players],
        "start": {"first": state.first} if state.phase is not GamePhase.SETUP else {},
        "turns": turns_by_number(history, names, keys=("player", "by")),
    }


TUG: base.Game[TugState, Order] = base.Game(
    name="tug",
    tag="#tug",
    title="Tug",
    verbs=VERBS,
    option_args=OPTIONS.args,
    rules=TugRules(),
    views=TugViews(),
    codec=FrozenCodec(TugState, Order, record),
    words=TugWords(),
    robot=ROBOT,
)
