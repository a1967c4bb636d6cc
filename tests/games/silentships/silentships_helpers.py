"""Helpers for the Silent Ships rules tests: a small host that plays script lines
(shared/contracts/games.md) through the game object, and boards set up by hand.

:class:`Table` does what the host does, simply: ``@game`` options (``seed``
taken out), joins with ids ``p1``, ``p2``…, ``@start``, messages through
``parse``/``accept`` (``resolve`` when an order completes a turn), timers as the
game declares them on a virtual clock from 2026-01-01T00:00:00Z (a held timer
keeps its time left), ``@close``/``@wait`` firing deadlines through ``expire``,
and every change stored as a history step stamped with its moment.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.games.base import (
    Accepted,
    Channel,
    GameError,
    Given,
    Notice,
    PlayerRef,
    RecordContext,
    Resolution,
    Step,
)
from bot.games.duration import parse_duration
from bot.games.silentships import SILENT_SHIPS, SilentShipsState
from bot.games.silentships.cells import parse_cell
from bot.games.silentships.options import parse_options
from bot.games.silentships.ships import Ship, find_ship, in_ship_order
from bot.games.silentships.state import Admiral, Phase, TurnStep, Unit

GAME = SILENT_SHIPS
START = datetime(2026, 1, 1, tzinfo=UTC)
TAG = re.compile(r"(^|\s)#silentships\b", re.IGNORECASE)


@dataclass(frozen=True)
class TimedStep(Step):
    """A history step with the moment it happened, as the host stores it."""

    at: str | None = None


def iso(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Running:
    """A timer as the host keeps it: a deadline while it runs, its time left while held."""

    key: str
    deadline: float | None
    left: float | None


@dataclass
class Reply:
    sender: str
    text: str
    refused: bool
    message: str = ""
    notices: tuple[Notice, ...] = ()


@dataclass
class Table:
    """One game on a virtual clock, driven by script lines."""

    state: SilentShipsState | None = None
    seed: int = 0
    now: float = 0.0
    ids: dict[str, str] = field(default_factory=dict)
    history: list[Step] = field(default_factory=list)
    timers: dict[str, Running] = field(default_factory=dict)
    replies: list[Reply] = field(default_factory=list)
    messages: int = 0
    states: list[SilentShipsState] = field(default_factory=list)
    public_notices: list[tuple[int, str]] = field(default_factory=list)
    """Public notices, with the number of history steps stored when they were given."""

    # ------------------------------------------------------------ reading scripts

    def play(self, lines: Iterable[str]) -> Table:
        for line in lines:
            self.line(line)
        return self

    def line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        if line.startswith("@game "):
            words = line.split()[2:]
            options = dict(word.split("=", 1) for word in words)
            self.seed = int(options.pop("seed", "0"))
            self.state = GAME.rules.new_game(options)
            return
        if line == "@start":
            self.change(GAME.rules.start(self.game, random.Random(self.seed), None))
            return
        if line == "@close":
            self.close()
            return
        if line.startswith("@wait "):
            self.wait(parse_duration(line.split(None, 1)[1]).total_seconds())
            return
        match = re.match(r"^([\w-]+) (public|dm): (.*)$", line)
        assert match, f"not a script line: {line!r}"
        name, where, text = match.groups()
        if where == "public":
            if not TAG.search(text):
                return
            text = TAG.sub(" ", text).strip()
        self.say(name, Channel.PUBLIC if where == "public" else Channel.PRIVATE, text)

    # ------------------------------------------------------------ the host's part

    @property
    def game(self) -> SilentShipsState:
        assert self.state is not None, "no @game line yet"
        return self.state

    @property
    def names(self) -> dict[str, str]:
        return {pid: name for name, pid in self.ids.items()}

    def pid(self, name: str) -> str:
        return self.ids[name]

    def say(self, name: str, channel: Channel, text: str) -> Reply:
        self.messages += 1
        words = text.strip().lower()
        try:
            if words == "join":
                pid = self.ids.setdefault(name, f"p{len(self.ids) + 1}")
                self.state = GAME.rules.join(self.game, PlayerRef(pid, name))
                reply = Reply(name, text, refused=False)
            elif words == "leave":
                self.change(GAME.rules.remove(self.game, self.pid(name)))
                reply = Reply(name, text, refused=False)
            else:
                pid = self.ids.get(name, f"stranger-{name}")
                order = GAME.rules.parse(text)
                rng = random.Random(f"{self.seed}:{self.messages}")
                accepted = GAME.rules.accept(self.game, pid, order, channel, rng)
                reply = Reply(name, text, refused=False, notices=accepted.notices)
                self.accepted(accepted, pid, rng)
        except GameError as error:
            reply = Reply(name, text, refused=True, message=error.message)
        self.replies.append(reply)
        return reply

    def accepted(
        self, accepted: Accepted[SilentShipsState, Any], player: str, rng: random.Random
    ) -> None:
        before = GAME.rules.turn(self.game)
        self.state = accepted.state
        if accepted.events or accepted.orders:
            self.store(before, accepted.orders, tuple(e.record() for e in accepted.events))
        self.publish(accepted.notices)
        if accepted.resolve_now:
            assert accepted.standing is not None
            given = Given(player, accepted.standing, self.now, self.messages)
            self.change(GAME.rules.resolve(self.game, [given], rng))
        else:
            self.sync()

    def change(self, resolution: Resolution[SilentShipsState]) -> None:
        before = GAME.rules.turn(self.game)
        self.state = resolution.state
        self.store(before, resolution.orders, tuple(e.record() for e in resolution.events))
        self.publish(resolution.notices)
        self.sync()

    def publish(self, notices: tuple[Notice, ...]) -> None:
        self.public_notices += [(len(self.history), n.text) for n in notices if n.to is None]

    def store(self, turn: int, orders: Any, events: Any) -> None:
        self.history.append(TimedStep(turn, tuple(orders), tuple(events), at=iso(self.now)))
        self.states.append(self.game)

    def sync(self) -> None:
        """Arm new timers, keep running ones, hold and resume, drop the rest."""
        kept: dict[str, Running] = {}
        for timer in GAME.rules.timers(self.game):
            old = self.timers.get(timer.key)
            if old is None:
                old = (
                    Running(timer.key, None, timer.seconds)
                    if timer.held
                    else Running(timer.key, self.now + timer.seconds, None)
                )
            elif timer.held and old.deadline is not None:
                old = Running(timer.key, None, old.deadline - self.now)
            elif not timer.held and old.deadline is None:
                assert old.left is not None
                old = Running(timer.key, self.now + old.left, None)
            kept[timer.key] = old
        self.timers = kept

    def due(self) -> Running | None:
        running = [t for t in self.timers.values() if t.deadline is not None]
        return min(running, key=lambda t: (t.deadline, t.key), default=None)

    def fire(self, timer: Running) -> None:
        assert timer.deadline is not None
        self.now = timer.deadline
        rng = random.Random(f"{self.seed}:{timer.key}")
        self.change(GAME.rules.expire(self.game, timer.key, [], rng))

    def close(self) -> None:
        timer = self.due()
        if timer is not None:
            self.fire(timer)

    def wait(self, seconds: float) -> None:
        until = self.now + seconds
        while (
            (timer := self.due()) is not None
            and timer.deadline is not None
            and timer.deadline <= until
        ):
            self.fire(timer)
        self.now = until

    # ------------------------------------------------------------ reading results

    def record(self) -> dict[str, Any]:
        deadlines = {t.key: iso(t.deadline) for t in self.timers.values() if t.deadline is not None}
        context = RecordContext(1, self.names, self.game.phase.value, deadlines)
        record = GAME.codec.record(self.game, self.history, context)
        json.dumps(record)  # the record must be JSON as it is
        return record

    def player(self, name: str) -> dict[str, Any]:
        return next(p for p in self.record()["players"] if p["name"] == name)

    def turn(self, number: int) -> dict[str, Any]:
        return next(t for t in self.record()["turns"] if t["number"] == number)

    @property
    def last(self) -> Reply:
        return self.replies[-1]

    def events(self, type_: str | None = None) -> list[dict[str, Any]]:
        found = [e for t in self.record()["turns"] for e in t["events"]]
        return [e for e in found if type_ is None or e["type"] == type_]


def script(text: str) -> list[str]:
    return [line for line in text.strip().splitlines()]


def table(options: str, *lines: str, players: tuple[str, str] = ("ahab", "nemo")) -> Table:
    """A game with ``options`` (``@game silentships`` words), both players joined in
    order and started (``first=joined`` unless the options say otherwise), then ``lines``."""
    words = options if "first=" in options else f"first=joined {options}"
    head = [f"@game silentships {words}".strip()]
    head += [f"{name} dm: join" for name in players]
    return Table().play([*head, "@start", *lines])


# ---------------------------------------------------------------- boards set by hand


def ships(text: str) -> tuple[Ship, ...]:
    found = []
    for word in text.replace(",", " ").split():
        ship = find_ship(word)
        assert ship is not None, word
        found.append(ship)
    return tuple(found)


def arranged(
    units: str,
    hands: dict[str, str] | None = None,
    sank: dict[str, str] | None = None,
    turn: int = 1,
    options: str = "",
) -> SilentShipsState:
    """A battle state laid out by hand: ``units`` like ``"ahab: D2 frigate up, C3 ram;
    nemo: D3 sub"`` (``up``: face-up). ahab (p1) moves first (country C1), nemo (p2)
    second (C4). Cards not placed are in the deck, so each ship is somewhere once."""
    raw = dict(word.split("=", 1) for word in options.split())
    state = SilentShipsState(options=parse_options(raw))
    hands = hands or {}
    sank = sank or {}
    placed: list[Unit] = []
    owners = {"ahab": "p1", "nemo": "p2"}
    for part in units.split(";"):
        if not part.strip():
            continue
        name, rest = part.split(":", 1)
        for item in rest.split(","):
            words = item.split()
            if not words:
                continue
            ship = find_ship(words[1])
            assert ship is not None, words[1]
            placed.append(
                Unit(owners[name.strip()], ship, parse_cell(words[0]), face_up="up" in words[2:])
            )
    admirals = []
    for name, pid in owners.items():
        hand = ships(hands.get(name, ""))
        pile = ships(sank.get(name, ""))
        taken = {u.ship for u in placed if u.owner == pid} | set(hand)
        taken |= set(ships(sank.get("nemo" if name == "ahab" else "ahab", "")))
        deck = tuple(s for s in Ship if s not in taken)
        admirals.append(Admiral(pid, name, hand=in_ship_order(hand), deck=deck, sank=pile))
    state = replace(
        state,
        admirals=tuple(admirals),
        phase=Phase.BATTLE,
        first="p1",
        turn=turn,
        step=TurnStep.ACTIONS,
        dealt=(("p1", tuple(Ship)), ("p2", tuple(Ship))),
    )
    return state.with_units(placed)


def act(state: SilentShipsState, name: str, *texts: str, public: bool = False) -> SilentShipsState:
    """Accept each order of ``name`` (``ahab`` is p1, ``nemo`` p2) in turn; resolve ``end``."""
    pid = {"ahab": "p1", "nemo": "p2"}[name]
    for text in texts:
        order = GAME.rules.parse(text)
        channel = Channel.PUBLIC if public else Channel.PRIVATE
        accepted = GAME.rules.accept(state, pid, order, channel, random.Random(0))
        state = accepted.state
        if accepted.resolve_now:
            assert accepted.standing is not None
            given = Given(pid, accepted.standing, 0.0, 0)
            state = GAME.rules.resolve(state, [given], random.Random(0)).state
    return state


def accepted_events(state: SilentShipsState, name: str, text: str) -> list[dict[str, Any]]:
    """The record entries of the events one order gives."""
    pid = {"ahab": "p1", "nemo": "p2"}[name]
    accepted = GAME.rules.accept(
        state, pid, GAME.rules.parse(text), Channel.PRIVATE, random.Random(0)
    )
    return [e.record() for e in accepted.events]


# ---------------------------------------------------------------- random games


def check_invariants(state: SilentShipsState) -> None:
    """What must hold after every change of a game."""
    from bot.games.silentships.cells import ALL_CELLS
    from bot.games.silentships.state import Side, Status

    assert state == GAME.codec.decode_state(json.loads(json.dumps(GAME.codec.encode_state(state))))
    if state.phase is Phase.SETUP:
        assert state.units == () and state.turn == 0
        return
    cells = [unit.cell for unit in state.units]
    assert len(set(cells)) == len(cells), "one unit per square"
    assert cells == sorted(cells) and all(cell in ALL_CELLS for cell in cells)
    for admiral in state.admirals:
        other = state.admiral(state.opponent(admiral.id))
        places = (
            *admiral.hand,
            *admiral.deck,
            *admiral.discards,
            *(unit.ship for unit in state.units_of(admiral.id)),
            *other.sank,
        )
        assert sorted(s.value for s in places) == sorted(s.value for s in Ship), admiral.name
        assert admiral.hand == in_ship_order(admiral.hand)
    timers = {timer.key: timer for timer in GAME.rules.timers(state)}
    if state.phase is Phase.FINISHED:
        assert state.step is None and state.attack is None and state.offer is None
        assert len(state.winners) == 1 and state.reason is not None
        assert state.admiral(state.winners[0]).status is Status.ALIVE
        assert state.admiral(state.opponent(state.winners[0])).status is not Status.ALIVE
        assert timers == {} and GAME.rules.outcome(state) is not None
        return
    assert 1 <= state.turn <= state.options.max_turns and state.step is not None
    assert all(admiral.status is Status.ALIVE for admiral in state.admirals)
    attack = state.attack
    assert (attack is not None) == (state.step is not TurnStep.ACTIONS)
    if attack is None:
        assert list(timers) == [f"move:{state.turn}"] and not state.out_of_time
        return
    assert attack.attacker == state.to_move and attack.defender == state.opponent(attack.attacker)
    attacking, target = state.unit_at(attack.origin), state.unit_at(attack.target)
    assert attacking is not None and attacking.owner == attack.attacker
    assert target is not None and target.owner == attack.defender
    assert attack.origin.is_next_to(attack.target)
    supporting = [support.cell for support in attack.supports]
    assert len(set(supporting)) == len(supporting)
    for support in attack.supports:
        unit = state.unit_at(support.cell)
        owner = attack.attacker if support.side is Side.ATTACK else attack.defender
        assert unit is not None and unit.owner == owner
        assert support.cell not in (attack.origin, attack.target)
    assert bool(attack.retreat_squares) == (state.step is TurnStep.RETREAT)
    for square in attack.retreat_squares:
        assert state.unit_at(square) is None and square.is_next_to(attack.target)
    if state.out_of_time:
        assert state.step is TurnStep.RESPONSE and list(timers) == [f"response:{attack.number}"]
    elif state.step is TurnStep.RESPONSE:
        assert timers[f"move:{state.turn}"].held and f"response:{attack.number}" in timers


PRIVATE_VERBS = ("play", "move", "support", "retreat discard", "pass")


def random_order(state: SilentShipsState, player: str, rng: random.Random) -> str:
    """A text ``player`` might send now: mostly sensible, sometimes not allowed."""
    from bot.games.silentships.cells import ALL_CELLS, play_squares

    admiral = state.admiral(player)
    hand = [ship.card.short for ship in admiral.hand] or ["frigate"]
    own = [unit for unit in state.units_of(player)] or None
    card = rng.choice(hand) if rng.random() < 0.9 else rng.choice(list(Ship)).card.short
    cell = rng.choice(ALL_CELLS)
    attack = state.attack
    if rng.random() < 0.04:
        return rng.choice(["offer draw", "accept", "end", "go", "pass", "hello", "retreat to B2"])
    if attack is not None and state.step is TurnStep.SUPPORTS and player == attack.attacker:
        if own and rng.random() < 0.45:
            near = [u for u in own if u.cell.is_next_to(attack.target) or u.face_up]
            unit = rng.choice(near or own)
            return f"support from {unit.cell}" + ("" if rng.random() < 0.15 else f" discard {card}")
        return (
            "go"
            if rng.random() < 0.8
            else f"reveal {rng.choice(own or [Unit(player, Ship.FRIGATE, cell)]).cell}"
        )
    if attack is not None and state.step is TurnStep.RESPONSE and player == attack.defender:
        roll = rng.random()
        if own and roll < 0.35:
            unit = rng.choice(own)
            return f"support from {unit.cell}" + ("" if rng.random() < 0.15 else f" discard {card}")
        if roll < 0.6:
            return f"retreat discard {card}"
        return "pass"
    if attack is not None and state.step is TurnStep.RETREAT and player == attack.attacker:
        squares = [*attack.retreat_squares, cell]
        return f"retreat to {rng.choice(squares)}"
    roll = rng.random()
    if roll < 0.25:
        squares = play_squares(state.country(player))
        return f"play {card} at {rng.choice(squares) if rng.random() < 0.9 else cell}"
    if roll < 0.8 and own:
        unit = rng.choice(own)
        around = list(unit.cell.neighbours())
        if unit.face_up and rng.random() < 0.5:
            around += [c for c in ALL_CELLS if unit.cell.in_line(c, 2) or unit.cell.in_line(c, 3)]
        goals = [u.cell for u in state.units if u.owner != player]
        goals.append(state.country(state.opponent(player)))
        if rng.random() < 0.7:
            # Head for the enemy, so that games have attacks.
            around.sort(key=lambda c: min(abs(c.row - g.row) + abs(c.col - g.col) for g in goals))
            around = around[:1]
        return f"move {unit.cell} to {rng.choice(around)} discard {card}"
    if roll < 0.85 and own:
        return f"reveal {rng.choice(own).cell}"
    if roll < 0.88 and own:
        crafts = [u for u in own if u.ship is Ship.SPECIAL_OPERATIONS_CRAFT] or own
        sunk = state.admiral(state.opponent(player)).sank or tuple(Ship)
        return f"swap {rng.choice(crafts).cell} with {rng.choice(sunk).card.short}"
    return "end"


def playthrough(
    seed: int,
    messages: int = 400,
    options: str = "max_turns=40 first=coin",
    check: Any = None,
) -> Table:
    """A seeded random game: random orders (some refused) and deadlines falling now and
    then, until it ends or ``messages`` are sent; ``check(table)`` after every line."""
    rng = random.Random(seed)
    t = Table().play([f"@game silentships seed={seed} {options}", "ahab dm: join", "nemo dm: join"])
    t.line("@start")
    names = {pid: name for name, pid in t.ids.items()}
    for _ in range(messages):
        state = t.game
        if state.phase is Phase.FINISHED:
            break
        if rng.random() < 0.02:
            t.close()
        else:
            (actor,) = GAME.rules.to_act(state)
            if rng.random() < 0.08:
                actor = state.opponent(actor)
            text = random_order(state, actor, rng)
            verb = text.split()[0]
            private = verb in ("play", "move", "support", "pass") or text.startswith(
                "retreat discard"
            )
            public = rng.random() < (0.05 if private else 0.5)
            before, steps = t.state, len(t.history)
            t.line(f"{names[actor]} {'public: #silentships' if public else 'dm:'} {text}")
            if t.last.refused:
                assert t.state is before and len(t.history) == steps, "a refusal changed something"
        if check is not None:
            check(t)
    return t
