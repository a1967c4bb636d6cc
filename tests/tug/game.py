"""The rules of Tug (a game for the tests): two seats pull a rope in turns.

Players join in turn to the seats ``north`` and ``south`` (a seat's people are its
crew). The seats move in turn; on its turn any member of the moving crew may
``pull N`` (1–3: the rope moves N toward the mover, and the turn ends) or ``dare``:
then the other crew must answer ``give`` (the rope moves 2 toward the darer) or
``hold`` (1 toward the holder) within ``response_time``, while the mover's
``move_time`` waits; then the mover's clock runs on and the mover still pulls. A move timer that runs out passes
the turn; an answer timer that runs out holds. The rope at ``target`` or beyond
wins for that seat's crew. Every order carries its sender; among one crew's
pulls of a turn the latest stands.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import (
    Accepted,
    Arg,
    ArgKind,
    Channel,
    Event,
    Game,
    Given,
    IllegalOrderError,
    NeutralWords,
    Notice,
    OptionError,
    OrderSyntaxError,
    Outcome,
    PlayerId,
    PlayerRef,
    RecordContext,
    Resolution,
    Standing,
    Step,
    Timer,
    Verb,
)
from bot.games.duration import format_duration, parse_duration
from bot.games.standings import ranked
from tests.tug.robot import ROBOT

SEATS = ("north", "south")
TOWARD = {"north": -1, "south": 1}  # north wins at -target, south at +target


@dataclass(frozen=True)
class Order:
    action: str  # pull | dare | give | hold
    steps: int = 0


@dataclass(frozen=True)
class TugState:
    move_time: float
    response_time: float
    target: int
    players: tuple[tuple[PlayerId, str, str], ...] = ()  # (id, name, seat)
    phase: str = "setup"
    turn: int = 0
    first: str = "north"
    rope: int = 0
    asked: str | None = None  # the seat that must answer a dare
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False

    def seat_of(self, player: PlayerId) -> str | None:
        return next((seat for pid, _, seat in self.players if pid == player), None)

    def mover(self) -> str:
        other = SEATS[1] if self.first == SEATS[0] else SEATS[0]
        return self.first if self.turn % 2 == 1 else other

    def crew_of(self, seat: str) -> tuple[PlayerId, ...]:
        return tuple(pid for pid, _, s in self.players if s == seat)


def _duration(options: Mapping[str, str], key: str, default: str) -> float:
    try:
        return parse_duration(options.get(key, default)).total_seconds()
    except OptionError as error:
        raise OptionError(f"{key}: {error.message}") from None


class TugRules:
    """Tug's state machine."""

    def new_game(self, options: Mapping[str, str]) -> TugState:
        unknown = sorted(set(options) - {"move_time", "response_time", "target"})
        if unknown:
            raise OptionError(
                f"unknown option(s) {unknown}: expected move_time, response_time, target"
            )
        target = options.get("target", "3")
        if not target.isdigit() or not 1 <= int(target) <= 9:
            raise OptionError(f"target: expected a whole number from 1 to 9, got {target!r}")
        return TugState(
            move_time=_duration(options, "move_time", "1h"),
            response_time=_duration(options, "response_time", "10m"),
            target=int(target),
        )

    def options(self, state: TugState) -> dict[str, str]:
        def text(seconds: float) -> str:
            return format_duration(parse_duration(f"{int(seconds)}s"))

        return {
            "move_time": text(state.move_time),
            "response_time": text(state.response_time),
            "target": str(state.target),
        }

    def join(self, state: TugState, player: PlayerRef) -> TugState:
        if state.phase != "setup":
            raise IllegalOrderError("the game has started: joining is closed")
        if state.seat_of(player.id) is not None:
            raise IllegalOrderError("you are already in this game")
        seat = SEATS[len(state.players) % 2]
        return replace(state, players=(*state.players, (player.id, player.name, seat)))

    def start(
        self, state: TugState, rng: random.Random, first: PlayerId | None
    ) -> Resolution[TugState]:
        if state.phase != "setup":
            raise IllegalOrderError("the game has already started")
        if len(state.players) < 2:
            raise IllegalOrderError("Tug needs two players or more, one on each seat")
        seat = state.seat_of(first) if first else "north"
        started = replace(state, phase="battle", turn=1, first=seat or "north")
        return Resolution(started, (Event("began", {"first": started.first}),),
                          frozenset(pid for pid, _, _ in state.players))  # fmt: skip

    def parse(self, text: str) -> Order:
        words = text.lower().split()
        if words[:1] == ["pull"] and len(words) == 2 and words[1] in ("1", "2", "3"):
            return Order("pull", int(words[1]))
        if words in (["dare"], ["give"], ["hold"]):
            return Order(words[0])
        raise OrderSyntaxError("expected `pull 1` to `pull 3`, `dare`, `give` or `hold`")

    def accept(
        self, state: TugState, player: PlayerId, order: Order, channel: Channel, rng: random.Random
    ) -> Accepted[TugState, Order]:
        seat = state.seat_of(player)
        if state.phase != "battle" or seat is None:
            raise IllegalOrderError("there is no rope to pull now")
        if order.action in ("give", "hold"):
            if state.asked != seat:
                raise IllegalOrderError("nobody dared your crew: wait for your turn")
            if channel is Channel.PUBLIC:
                raise IllegalOrderError("answer a dare by DM")
            return self._answer(state, player, seat, order.action, timeout=False)
        if state.asked is not None:
            raise IllegalOrderError(f"the {state.asked} crew is answering a dare: wait")
        if seat != state.mover():
            raise IllegalOrderError(f"it is the {state.mover()} crew's move, not yours")
        if order.action == "pull":
            return Accepted(state, order, (Notice(f"Pulling {order.steps}.", to=player),),
                            resolve_now=True)  # fmt: skip
        other = SEATS[1] if seat == SEATS[0] else SEATS[0]
        dared = replace(state, asked=other)
        question = Notice(f"The {seat} crew dares you: `give` or `hold`?", to=state.crew_of(other)[0],
                          crew=True, choices=("give", "hold"))  # fmt: skip
        return Accepted(
            dared, None, (question,),
            events=(Event("dared", {"seat": seat, "by": player}),),
            orders=({"player": player, "action": "dare"},),
        )  # fmt: skip

    def _answer(
        self, state: TugState, player: PlayerId, seat: str, answer: str, *, timeout: bool
    ) -> Accepted[TugState, Order]:
        darer = SEATS[1] if seat == SEATS[0] else SEATS[0]
        rope = state.rope + (2 * TOWARD[darer] if answer == "give" else TOWARD[seat])
        after = self._over(replace(state, asked=None, rope=rope))
        entry = {"player": player, "action": answer, **({"timeout": True} if timeout else {})}
        events = [Event("answered", {"seat": seat, "by": player, "answer": answer, "rope": rope})]
        if after.phase == "finished":
            events.append(Event("finished", {"winners": list(after.winners), "draw": False}))
        return Accepted(after, None, (), events=tuple(events), orders=(entry,),
                        changed=frozenset(pid for pid, _, _ in state.players))  # fmt: skip

    def _over(self, state: TugState) -> TugState:
        for seat in SEATS:
            if state.rope * TOWARD[seat] >= state.target:
                return replace(state, phase="finished", winners=state.crew_of(seat))
        return state

    def turn(self, state: TugState) -> int:
        return state.turn

    def timers(self, state: TugState) -> tuple[Timer, ...]:
        if state.phase != "battle":
            return ()
        move = Timer(f"move:{state.turn}", state.move_time, f"{state.mover()}'s move",
                     held=state.asked is not None)  # fmt: skip
        if state.asked is None:
            return (move,)
        return (move, Timer(f"answer:{state.turn}", state.response_time, f"{state.asked}'s answer"))

    def to_act(self, state: TugState) -> frozenset[PlayerId]:
        if state.phase != "battle":
            return frozenset(pid for pid, _, _ in state.players)
        return frozenset(state.crew_of(state.asked or state.mover()))

    def resolve(
        self, state: TugState, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[TugState]:
        mover = state.mover()
        pulls = [g for g in orders if g.order.action == "pull" and state.seat_of(g.player) == mover]
        last = max(pulls, key=lambda g: (g.sent_at, g.sequence))  # the latest of the crew's
        rope = state.rope + last.order.steps * TOWARD[mover]
        after = self._over(replace(state, rope=rope, turn=state.turn + 1))
        events = [Event("pulled", {"seat": mover, "by": last.player, "steps": last.order.steps,
                                   "rope": rope})]  # fmt: skip
        if after.phase == "finished":
            events.append(Event("finished", {"winners": list(after.winners), "draw": False}))
        return Resolution(after, tuple(events), frozenset(pid for pid, _, _ in state.players),
                          orders=({"player": last.player, "action": "pull",
                                   "steps": last.order.steps},))  # fmt: skip

    def expire(
        self, state: TugState, timer: str, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[TugState]:
        if timer.startswith("answer:") and state.asked is not None:
            done = self._answer(state, state.crew_of(state.asked)[0], state.asked, "hold",
                                timeout=True)  # fmt: skip
            return Resolution(done.state, done.events, done.changed, orders=done.orders)
        mover = state.mover()
        passed = replace(state, turn=state.turn + 1)
        return Resolution(passed, (Event("timeout", {"seat": mover}),), frozenset())

    def remove(self, state: TugState, player: PlayerId) -> Resolution[TugState]:
        if state.phase == "setup":
            kept = tuple(p for p in state.players if p[0] != player)
            return Resolution(replace(state, players=kept), (), frozenset())
        raise IllegalOrderError("a crew member cannot leave a rope in play")

    def finish(self, state: TugState) -> Resolution[TugState]:
        everyone = tuple(pid for pid, _, _ in state.players)
        ended = replace(state, phase="finished", asked=None, winners=everyone, draw=True)
        return Resolution(ended, (Event("finished", {"winners": list(everyone), "draw": True}),),
                          frozenset())  # fmt: skip

    def outcome(self, state: TugState) -> Outcome | None:
        return Outcome(state.winners, state.draw) if state.phase == "finished" else None

    def standings(self, state: TugState, history: Sequence[Step]) -> tuple[Standing, ...]:
        if state.phase != "finished":
            return ()
        players = [pid for pid, _, _ in state.players]
        keys = {p: (1 if p in state.winners else 0,) for p in players}
        return ranked(players, keys, lambda p: (f"seat {state.seat_of(p)}",))

    def crew(self, state: TugState, player: PlayerId) -> tuple[PlayerId, ...]:
        seat = state.seat_of(player)
        return state.crew_of(seat) if seat else (player,)


class TugViews:
    """Tug's views: what each viewer may see."""

    def view(self, state: TugState, viewer: PlayerId | None) -> dict[str, Any]:
        return {
            "rope": state.rope,
            "turn": state.turn,
            "seat": state.seat_of(viewer or ""),
            "asked": state.asked,
        }

    def reveal(self, state: TugState) -> dict[str, Any]:
        return self.view(state, None)


class TugCodec:
    """Tug's state and orders as JSON, and the record."""

    def encode_state(self, state: TugState) -> dict[str, Any]:
        data = dict(state.__dict__)
        data["players"] = [list(p) for p in state.players]
        data["winners"] = list(state.winners)
        return data

    def decode_state(self, data: Mapping[str, Any]) -> TugState:
        values = dict(data)
        values["players"] = tuple(tuple(p) for p in data["players"])
        values["winners"] = tuple(data["winners"])
        return TugState(**values)

    def encode_order(self, order: Order) -> dict[str, Any]:
        return {"action": order.action, "steps": order.steps}

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        return Order(str(data["action"]), int(data.get("steps", 0)))

    def record(
        self, state: TugState, history: Sequence[Step], context: RecordContext
    ) -> dict[str, Any]:
        names = context.names

        def named(entry: Mapping[str, Any]) -> dict[str, Any]:
            out = {k: names.get(v, v) if k in ("player", "by") else v for k, v in entry.items()}
            if "winners" in out:
                out["winners"] = sorted(names.get(w, w) for w in out["winners"])
            return out

        turns: dict[int, dict[str, Any]] = {}
        for step in history:
            if step.cause == "start":
                continue
            turn = turns.setdefault(step.turn, {"number": step.turn, "orders": [], "events": []})
            turn["orders"] += [named(o) for o in step.orders]
            turn["events"] += [named(e) for e in step.events]
        return {
            "format": "tug-record/1",
            "game": {"kind": "tug", "options": TugRules().options(state), "phase": context.phase,
                     "turn": state.turn, "rope": state.rope, "deadlines": dict(context.deadlines),
                     "winners": sorted(names.get(w, w) for w in state.winners),
                     "draw": state.draw},
            "players": [{"name": name, "status": "alive", "seat": seat}
                        for _, name, seat in state.players],
            "start": {"first": state.first} if state.phase != "setup" else {},
            "turns": [turns[n] for n in sorted(turns)],
        }  # fmt: skip


class TugWords(NeutralWords[TugState, Order]):
    """Tug's words, where they differ from the neutral ones."""

    def describe(self, order: Order) -> str:
        return f"pull {order.steps}" if order.action == "pull" else order.action

    def opening(self, state: TugState) -> str:
        return "is open: send `join` to take a seat (north, south, north…)."

    def welcome(self, state: TugState, player: PlayerId, number: int) -> str:
        name = next(n for pid, n, _ in state.players if pid == player)
        return f"{name} joined game {number} on the {state.seat_of(player)} crew."

    def beginning(self, state: TugState, names: Mapping[PlayerId, str]) -> str:
        return f"the rope is taut; the {state.first} crew moves first."

    def hint(self, state: TugState) -> str:
        return "Send `pull 1`–`pull 3` or `dare`."

    def result(self, state: TugState, names: Mapping[PlayerId, str]) -> str:
        if state.phase != "finished":
            return ""
        if state.draw:
            return "The game ends in a draw."
        return "The " + str(state.seat_of(state.winners[0])) + " crew wins!"

    def reminder(self, state: TugState, left: str) -> str:
        return f"your crew's move ends in {left}."

    def example(self) -> str:
        return "`pull 2`"

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines = []
        for event in events:
            data = event.data
            if event.type == "pulled":
                lines.append(
                    f"{names.get(data['by'])} pulled {data['steps']}: rope at {data['rope']}."
                )
            elif event.type == "dared":
                lines.append(f"The {data['seat']} crew dares.")
            elif event.type == "answered":
                lines.append(
                    f"The {data['seat']} crew answers {data['answer']}: rope at {data['rope']}."
                )
            elif event.type == "timeout":
                lines.append(f"The {data['seat']} crew ran out of time.")
        return lines

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return []

    def summary(self, state: TugState, viewer: PlayerId | None) -> str:
        return f"Rope at {state.rope} (north wins at -{state.target}, south at +{state.target})."

    def text_board(self, state: TugState, viewer: PlayerId | None) -> str:
        rope = ["-"] * (2 * state.target + 1)
        rope[state.rope + state.target] = "|"
        return "N " + "".join(rope) + " S\nKey: | the rope's knot."

    def help_text(self) -> str:
        return "Tug: `pull 1`–`pull 3` on your crew's turn, or `dare`; answer a dare with `give` or `hold` by DM."

    def rules_text(self) -> str:
        return self.help_text()


TUG: Game[TugState, Order] = Game(
    name="tug",
    tag="#tug",
    title="Tug",
    verbs=(
        Verb(
            "pull",
            "Pull the rope 1 to 3 toward your seat",
            private=False,
            args=(Arg("steps", ArgKind.NUMBER, "1 to 3", minimum=1, maximum=3),),
        ),
        Verb("dare", "Dare the other crew to hold", private=False),
        Verb("give", "Answer a dare: give 2", private=True),
        Verb("hold", "Answer a dare: hold (1 back)", private=True),
    ),
    option_args=(
        Arg("move_time", ArgKind.DURATION, "time for a seat's move", required=False),
        Arg("response_time", ArgKind.DURATION, "time to answer a dare", required=False),
        Arg(
            "target",
            ArgKind.NUMBER,
            "the rope's distance that wins",
            required=False,
            minimum=1,
            maximum=9,
        ),
    ),
    rules=TugRules(),
    views=TugViews(),
    codec=TugCodec(),
    words=TugWords(),
    robot=ROBOT,
)
