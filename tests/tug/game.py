"""The rules of Tug (a game for the tests): two seats pull a rope in turns.

Players join in turn to the seats ``north`` and ``south`` (a seat's people are its
crew). The seats move in turn; on its turn any member of the moving crew may
``pull N`` (1–3: the rope moves N toward the mover, and the turn ends) or ``dare``:
then the other crew must answer ``give`` (the rope moves 2 toward the darer) or
``hold`` (1 toward the holder) within ``response_time``, while the mover's
``move_time`` waits; then the mover's clock runs on and the mover still pulls. A move timer that runs out passes
the turn; an answer timer that runs out holds. The rope at ``target`` or beyond
wins for that seat's crew. Every order carries its sender; among one crew's
pulls of a turn the latest stands. It writes only what differs from every game:
the neutral rules and words (``bot/games/base.py``) say the rest.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import timedelta
from typing import Any

from bot.games import base
from bot.games.base import Accepted, Event, Given, IllegalOrderError, Notice, Resolution, Timer
from bot.games.option import OptionTable, duration, in_seconds, number
from bot.games.standings import ranked
from tests.tug.robot import ROBOT

SEATS = ("north", "south")
TOWARD = {"north": -1, "south": 1}  # north wins at -target, south at +target
OPTIONS = OptionTable(
    (in_seconds(duration("move_time", timedelta(hours=1), "time for a seat's move")),
     in_seconds(duration("response_time", timedelta(minutes=10), "time to answer a dare")),
     number("target", 3, 1, 9, "the rope's distance that wins",
            refusal="{name}: expected a whole number from {low} to {high}, got {got}")),
    unknown="unknown option(s) [{key!r}]: expected {names}",
)  # fmt: skip
SAID = {"pulled": "{by} pulled {steps}: rope at {rope}.", "dared": "The {seat} crew dares.",
        "answered": "The {seat} crew answers {answer}: rope at {rope}.",
        "timeout": "The {seat} crew ran out of time."}  # fmt: skip
HELP = "Tug: `pull 1`–`pull 3` on your crew's turn, or `dare`; answer a dare with `give` or `hold` by DM."


@dataclass(frozen=True)
class Order:
    action: str  # pull | dare | give | hold
    steps: int = 0


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
    players: tuple[tuple[base.PlayerId, str, str], ...] = ()  # (id, name, seat)
    phase: str = "setup"
    turn: int = 0
    first: str = "north"
    rope: int = 0
    asked: str | None = None  # the seat that must answer a dare
    winners: tuple[base.PlayerId, ...] = ()
    draw: bool = False

    def seat_of(self, player: base.PlayerId) -> str | None:
        return next((seat for pid, _, seat in self.players if pid == player), None)

    def mover(self) -> str:
        return self.first if self.turn % 2 == 1 else _other(self.first)

    def crew_of(self, seat: str) -> tuple[base.PlayerId, ...]:
        return tuple(pid for pid, _, s in self.players if s == seat)

    def everyone(self) -> frozenset[base.PlayerId]:
        return frozenset(pid for pid, _, _ in self.players)


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _ended(state: TugState, events: list[Event]) -> TugState:
    """The state after the rope moved: won by a seat's crew if it reached the target."""
    for seat in SEATS:
        if state.rope * TOWARD[seat] >= state.options.target:
            events.append(Event("finished", {"winners": list(state.crew_of(seat)), "draw": False}))
            return replace(state, phase="finished", winners=state.crew_of(seat))
    return state


class TugRules(base.NeutralRules[TugState, Order]):
    """Tug's state machine, where it differs from the neutral rules."""

    def new_game(self, options: Mapping[str, str]) -> TugState:
        return TugState(TugOptions(**OPTIONS.parse(options)))

    def join(self, state: TugState, player: base.PlayerRef) -> TugState:
        if state.phase != "setup":
            raise IllegalOrderError("the game has started: joining is closed")
        if state.seat_of(player.id) is not None:
            raise IllegalOrderError("you are already in this game")
        seat = SEATS[len(state.players) % 2]
        return replace(state, players=(*state.players, (player.id, player.name, seat)))

    def start(self, state: TugState, rng: random.Random, first: str | None) -> Resolution[TugState]:
        if state.phase != "setup":
            raise IllegalOrderError("the game has already started")
        if len(state.players) < 2:
            raise IllegalOrderError("Tug needs two players or more, one on each seat")
        seat = state.seat_of(first) if first else "north"
        started = replace(state, phase="battle", turn=1, first=seat or "north")
        return Resolution(started, (Event("began", {"first": started.first}),), state.everyone())

    def parse(self, text: str) -> Order:
        words = text.lower().split()
        if words[:1] == ["pull"] and len(words) == 2 and words[1] in ("1", "2", "3"):
            return Order("pull", int(words[1]))
        if words in (["dare"], ["give"], ["hold"]):
            return Order(words[0])
        raise base.OrderSyntaxError("expected `pull 1` to `pull 3`, `dare`, `give` or `hold`")

    def accept(self, state: TugState, player: str, order: Order, channel: base.Channel,
               rng: random.Random) -> Accepted[TugState, Order]:  # fmt: skip
        seat = state.seat_of(player)
        if state.phase != "battle" or seat is None:
            raise IllegalOrderError("there is no rope to pull now")
        if order.action in ("give", "hold"):
            if state.asked != seat:
                raise IllegalOrderError("nobody dared your crew: wait for your turn")
            if channel is base.Channel.PUBLIC:
                raise IllegalOrderError("answer a dare by DM")
            return self._answer(state, player, seat, order.action, timeout=False)
        if state.asked is not None:
            raise IllegalOrderError(f"the {state.asked} crew is answering a dare: wait")
        if seat != state.mover():
            raise IllegalOrderError(f"it is the {state.mover()} crew's move, not yours")
        if order.action == "pull":
            return Accepted(state, order, (Notice(f"Pulling {order.steps}.", to=player),), True)
        question = Notice(f"The {seat} crew dares you: `give` or `hold`?", crew=True,
                          to=state.crew_of(_other(seat))[0], choices=("give", "hold"))  # fmt: skip
        return Accepted(replace(state, asked=_other(seat)), None, (question,),
                        events=(Event("dared", {"seat": seat, "by": player}),),
                        orders=({"player": player, "action": "dare"},))  # fmt: skip

    def _answer(self, state: TugState, player: str, seat: str, answer: str, *, timeout: bool
                ) -> Accepted[TugState, Order]:  # fmt: skip
        rope = state.rope + (2 * TOWARD[_other(seat)] if answer == "give" else TOWARD[seat])
        entry = {"player": player, "action": answer, **({"timeout": True} if timeout else {})}
        events = [Event("answered", {"seat": seat, "by": player, "answer": answer, "rope": rope})]
        after = _ended(replace(state, asked=None, rope=rope), events)
        return Accepted(after, None, (), events=tuple(events), orders=(entry,),
                        changed=state.everyone())  # fmt: skip

    def timers(self, state: TugState) -> tuple[Timer, ...]:
        if state.phase != "battle":
            return ()
        move = Timer(f"move:{state.turn}", state.options.move_time, f"{state.mover()}'s move",
                     held=state.asked is not None)  # fmt: skip
        if state.asked is None:
            return (move,)
        answer = f"{state.asked}'s answer"
        return (move, Timer(f"answer:{state.turn}", state.options.response_time, answer))

    def to_act(self, state: TugState) -> frozenset[str]:
        if state.phase != "battle":
            return state.everyone()
        return frozenset(state.crew_of(state.asked or state.mover()))

    def resolve(self, state: TugState, orders: Sequence[Given[Order]], rng: random.Random
                ) -> Resolution[TugState]:  # fmt: skip
        mover = state.mover()
        pulls = [g for g in orders if g.order.action == "pull" and state.seat_of(g.player) == mover]
        last = max(pulls, key=lambda g: (g.sent_at, g.sequence))  # the latest of the crew's
        rope = state.rope + last.order.steps * TOWARD[mover]
        events = [Event("pulled", {"seat": mover, "by": last.player, "steps": last.order.steps,
                                   "rope": rope})]  # fmt: skip
        after = _ended(replace(state, rope=rope, turn=state.turn + 1), events)
        entry = {"player": last.player, "action": "pull", "steps": last.order.steps}
        return Resolution(after, tuple(events), state.everyone(), orders=(entry,))

    def expire(self, state: TugState, timer: str, orders: Sequence[Given[Order]],
               rng: random.Random) -> Resolution[TugState]:  # fmt: skip
        if timer.startswith("answer:") and state.asked is not None:
            crew = state.crew_of(state.asked)
            done = self._answer(state, crew[0], state.asked, "hold", timeout=True)
            return Resolution(done.state, done.events, done.changed, orders=done.orders)
        timeout = Event("timeout", {"seat": state.mover()})
        return Resolution(replace(state, turn=state.turn + 1), (timeout,), frozenset())

    def remove(self, state: TugState, player: str) -> Resolution[TugState]:
        if state.phase != "setup":
            raise IllegalOrderError("a crew member cannot leave a rope in play")
        kept = tuple(p for p in state.players if p[0] != player)
        return Resolution(replace(state, players=kept), (), frozenset())

    def finish(self, state: TugState) -> Resolution[TugState]:
        everyone = tuple(pid for pid, _, _ in state.players)
        ended = replace(state, phase="finished", asked=None, winners=everyone, draw=True)
        drawn = Event("finished", {"winners": list(everyone), "draw": True})
        return Resolution(ended, (drawn,), frozenset())

    def outcome(self, state: TugState) -> base.Outcome | None:
        return base.Outcome(state.winners, state.draw) if state.phase == "finished" else None

    def standings(self, state: TugState, history: Sequence[base.Step]) -> tuple[base.Standing, ...]:
        if state.phase != "finished":
            return ()
        players = [pid for pid, _, _ in state.players]
        keys = {p: (1 if p in state.winners else 0,) for p in players}
        return ranked(players, keys, lambda p: (f"seat {state.seat_of(p)}",))

    def crew(self, state: TugState, player: str) -> tuple[str, ...]:
        seat = state.seat_of(player)
        return state.crew_of(seat) if seat else (player,)


def _board(state: TugState, viewer: str | None = None) -> dict[str, Any]:
    """What anyone sees (no secrets in Tug): the same for ``reveal``."""
    return {"rope": state.rope, "turn": state.turn, "seat": state.seat_of(viewer or ""),
            "asked": state.asked}  # fmt: skip


class TugViews:
    view = reveal = staticmethod(_board)


class TugCodec:
    """Tug's state and orders as JSON, and the record."""

    encode_state = encode_order = staticmethod(asdict)

    def decode_state(self, data: Mapping[str, Any]) -> TugState:
        players = tuple((pid, name, seat) for pid, name, seat in data["players"])
        return TugState(**{**data, "options": TugOptions(**data["options"]), "players": players,
                           "winners": tuple(data["winners"])})  # fmt: skip

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        return Order(str(data["action"]), int(data.get("steps", 0)))

    def record(self, state: TugState, history: Sequence[base.Step], context: base.RecordContext
               ) -> dict[str, Any]:  # fmt: skip
        names = context.names

        def named(entry: Mapping[str, Any]) -> dict[str, Any]:
            out = {k: names.get(v, v) if k in ("player", "by") else v for k, v in entry.items()}
            if "winners" in out:
                out["winners"] = sorted(names.get(w, w) for w in out["winners"])
            return out

        turns: dict[int, dict[str, Any]] = {}
        for step in (step for step in history if step.cause != "start"):
            turn = turns.setdefault(step.turn, {"number": step.turn, "orders": [], "events": []})
            turn["orders"] += [named(o) for o in step.orders]
            turn["events"] += [named(e) for e in step.events]
        return {
            "format": "tug-record/1",
            "game": {"kind": "tug", "options": state.options.text(), "phase": context.phase,
                     "turn": state.turn, "rope": state.rope, "deadlines": dict(context.deadlines),
                     "winners": sorted(names.get(w, w) for w in state.winners), "draw": state.draw},
            "players": [{"name": name, "status": "alive", "seat": seat}
                        for _, name, seat in state.players],
            "start": {"first": state.first} if state.phase != "setup" else {},
            "turns": [turns[n] for n in sorted(turns)],
        }  # fmt: skip


class TugWords(base.NeutralWords[TugState, Order]):
    """Tug's words, where they differ from the neutral ones."""

    def describe(self, order: Order) -> str:
        return f"pull {order.steps}" if order.action == "pull" else order.action

    def opening(self, state: TugState) -> str:
        return "is open: send `join` to take a seat (north, south, north…)."

    def welcome(self, state: TugState, player: str, number: int) -> str:
        name = next(n for pid, n, _ in state.players if pid == player)
        return f"{name} joined game {number} on the {state.seat_of(player)} crew."

    def beginning(self, state: TugState, names: Mapping[str, str]) -> str:
        return f"the rope is taut; the {state.first} crew moves first."

    def hint(self, state: TugState) -> str:
        return "Send `pull 1`–`pull 3` or `dare`."

    def result(self, state: TugState, names: Mapping[str, str]) -> str:
        if state.phase != "finished":
            return ""
        if state.draw:
            return "The game ends in a draw."
        return "The " + str(state.seat_of(state.winners[0])) + " crew wins!"

    def reminder(self, state: TugState, left: str) -> str:
        return f"your crew's move ends in {left}."

    def example(self) -> str:
        return "`pull 2`"

    def public_report(self, events: Sequence[Event], names: Mapping[str, str]) -> list[str]:
        return [SAID[e.type].format(**{**e.data, "by": names.get(e.data.get("by", ""))})
                for e in events if e.type in SAID]  # fmt: skip

    def summary(self, state: TugState, viewer: str | None) -> str:
        target = state.options.target
        return f"Rope at {state.rope} (north wins at -{target}, south at +{target})."

    def text_board(self, state: TugState, viewer: str | None) -> str:
        rope = ["-"] * (2 * state.options.target + 1)
        rope[state.rope + state.options.target] = "|"
        return "N " + "".join(rope) + " S\nKey: | the rope's knot."

    def help_text(self) -> str:
        return HELP

    rules_text = help_text


N = base.ArgKind.NUMBER
VERBS = (
    base.Verb("pull", "Pull the rope 1 to 3 toward your seat", private=False,
              args=(base.Arg("steps", N, "1 to 3", minimum=1, maximum=3),)),
    base.Verb("dare", "Dare the other crew to hold", private=False),
    base.Verb("give", "Answer a dare: give 2", private=True),
    base.Verb("hold", "Answer a dare: hold (1 back)", private=True),
)  # fmt: skip
TUG: base.Game[TugState, Order] = base.Game(
    name="tug", tag="#tug", title="Tug", verbs=VERBS, option_args=OPTIONS.args,
    rules=TugRules(), views=TugViews(), codec=TugCodec(), words=TugWords(), robot=ROBOT,
)  # fmt: skip
