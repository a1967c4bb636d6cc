"""A whole game of robots played by the pure rules alone, as ``bst demo`` plays it through
the host: each robot sees only its own player's view and says what it would type; its text
is parsed and accepted as a person's; an order that completes a turn resolves it at once,
and when nobody has anything more to say the soonest timer runs out.

No store, no host, no clock: fast enough to play hundreds of games for the robots'
benchmark (:mod:`benchmarks.robots`) and for the robots' tests (:func:`twins`: two games
told apart only by another player's secrets, in step).
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Channel, GameError, Given, Outcome, PlayerRef, Robot

MAX_STEPS = 3000
"""A game still running after this many rounds of orders is ended by the host (a draw
between those still in it, in every game's ``finish``)."""


def fresh(robot: Robot) -> Robot:
    """A robot with no memory of another game (robots remember what they have seen)."""
    return copy.deepcopy(robot)


def new_table(game: Any, players: int, seed: int, options: dict[str, str] | None = None) -> Any:
    """A game in setup, seeded where the game takes a seed, with ``p1``…``pN`` joined."""
    declared = {arg.name for arg in game.option_args}
    seeded = {"seed": str(seed)} if "seed" in declared else {}
    state = game.rules.new_game({**seeded, **(options or {})})
    for number in range(1, players + 1):
        state = game.rules.join(state, PlayerRef(f"p{number}", f"p{number}"))
    return state


@dataclass
class Table:
    """One game in play: its state, the robot of each seat (each with its own random
    source) and the orders of the turn in progress."""

    game: Any
    state: Any
    robots: dict[str, Robot]
    seed: int
    given: list[Given[Any]] = field(default_factory=list)
    think_seconds: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    said: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules = self.game.rules
        self.rng = random.Random(f"{self.seed}:rules")
        self.rngs = {p: random.Random(f"{self.seed}:{p}") for p in self.robots}
        self.turn = self.rules.turn(self.state)
        for player in self.robots:
            self.think_seconds.setdefault(player, 0.0)
            self.decisions.setdefault(player, 0)

    def speak(self, player: str) -> None:
        """``player``'s robot looks at its own view and says what it would type."""
        view = self.game.views.view(self.state, player)
        began = time.process_time()
        said = self.robots[player].orders(view, player, self.rngs[player])
        self.think_seconds[player] += time.process_time() - began
        self.decisions[player] += 1
        for one in said:
            self.said.append((player, one.text))
            try:
                order = self.rules.parse(one.text)
                channel = Channel.PUBLIC if one.public else Channel.PRIVATE
                accepted = self.rules.accept(self.state, player, order, channel, self.rng)
            except GameError:
                continue  # refused (a placement meeting another's): as the host would
            self.state = accepted.state
            if accepted.standing is not None:
                self.given.append(Given(player, accepted.standing, 0.0, len(self.given)))
            if accepted.resolve_now:
                self.state = self.rules.resolve(self.state, self.given, self.rng).state
                self.given = []
            self.new_turn()

    def new_turn(self) -> None:
        if self.rules.turn(self.state) != self.turn:
            self.turn, self.given = self.rules.turn(self.state), []

    def setup(self) -> None:
        """Everyone says what they would in setup; then the game starts."""
        for player in self.robots:
            self.speak(player)
        self.state = self.rules.start(self.state, self.rng, None).state
        self.given = []
        self.turn = self.rules.turn(self.state)

    def acting(self) -> list[str]:
        """Who speaks this step: everyone who may act in a simultaneous game, else the
        one player the rules name."""
        acting = sorted(self.rules.to_act(self.state))
        return acting if self.game.simultaneous else acting[:1]

    def step(self, acting: list[str]) -> bool:
        """One round of orders from ``acting``; then, in a simultaneous game or when nobody
        changed anything, the soonest timer runs out. False: nothing can happen any more."""
        before = self.state
        for player in acting:
            self.speak(player)
        if self.game.simultaneous or self.state is before:
            timers = self.rules.timers(self.state)
            if not timers:
                return False
            soonest = min(timers, key=lambda timer: timer.seconds)
            self.state = self.rules.expire(
                self.state, soonest.key, list(self.given), self.rng
            ).state
            self.new_turn()
        return True

    def over(self) -> bool:
        return self.rules.outcome(self.state) is not None


@dataclass
class Played:
    """How a game of robots ended, and the CPU each seat spent deciding."""

    outcome: Outcome
    players: tuple[str, ...]
    think_seconds: dict[str, float]
    decisions: dict[str, int]

    def score(self, player: str) -> float:
        """1 for a win, a half for a share of a draw, else 0."""
        if player not in self.outcome.winners:
            return 0.0
        return 0.5 if self.outcome.draw else 1.0


def play(
    game: Any,
    seats: list[Robot],
    seed: int,
    options: dict[str, str] | None = None,
    max_steps: int = MAX_STEPS,
) -> Played:
    """Play one game with one robot a seat (``p1``, ``p2``, … in seat order), seeded."""
    state = new_table(game, len(seats), seed, options)
    players = tuple(f"p{i + 1}" for i in range(len(seats)))
    table = Table(game, state, dict(zip(players, seats, strict=True)), seed)
    table.setup()
    for _ in range(max_steps):
        if table.over() or not table.step(table.acting()):
            break
    if not table.over():
        table.state = game.rules.finish(table.state).state
    outcome = game.rules.outcome(table.state)
    assert outcome is not None, f"{game.name}: the game did not end"
    return Played(outcome, players, table.think_seconds, table.decisions)


def twins(game: Any, one: Table, two: Table, player: str, steps: int) -> int:
    """Play two tables in step while ``player``'s views agree, and check that ``player``'s
    robot says the same in both each time; how many of its decisions were compared (the
    tables must differ only in what ``player`` may not see)."""
    compared = 0
    for _ in range(steps):
        if one.over() or two.over():
            break
        if game.views.view(one.state, player) != game.views.view(two.state, player):
            break  # the games are told apart now (a shot found the hidden difference)
        acting = one.acting()
        if acting != two.acting():
            break
        before = (len(one.said), len(two.said))
        one.step(acting)
        two.step(acting)
        mine = [
            [text for who, text in table.said[start:] if who == player]
            for table, start in zip((one, two), before, strict=True)
        ]
        assert mine[0] == mine[1], f"{player} said {mine[0]} in one game, {mine[1]} in the other"
        compared += player in acting
    return compared
