"""A whole game of robots played by the pure rules alone, as ``bst demo`` plays it through
the host: each robot sees only its own player's view and says what it would type; its text
is parsed and accepted as a person's; an order that completes a turn resolves it at once,
and when nobody has anything more to say the soonest timer runs out.

No store, no host, no clock: fast enough to play hundreds of games for the robots'
benchmark (:mod:`benchmarks.robots`) and for the robots' tests.
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


@dataclass
class Played:
    """How a game of robots ended, and the CPU each seat spent deciding."""

    outcome: Outcome
    players: tuple[str, ...]
    think_seconds: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)

    def score(self, player: str) -> float:
        """1 for a win, a half for a share of a draw, else 0."""
        if player not in self.outcome.winners:
            return 0.0
        return 0.5 if self.outcome.draw else 1.0


def fresh(robot: Robot) -> Robot:
    """A robot with no memory of another game (robots remember what they have seen)."""
    return copy.deepcopy(robot)


def play(
    game: Any,
    seats: list[Robot],
    seed: int,
    options: dict[str, str] | None = None,
    max_steps: int = MAX_STEPS,
) -> Played:
    """Play one game with one robot a seat (``p1``, ``p2``, … in seat order), seeded."""
    rules = game.rules
    rng = random.Random(seed)
    declared = {arg.name for arg in game.option_args}
    seeded = {"seed": str(seed)} if "seed" in declared else {}
    state = rules.new_game({**seeded, **(options or {})})
    players = tuple(f"p{i + 1}" for i in range(len(seats)))
    robots = dict(zip(players, seats, strict=True))
    played = Played(
        Outcome((), True), players, dict.fromkeys(players, 0.0), dict.fromkeys(players, 0)
    )
    for player in players:
        state = rules.join(state, PlayerRef(player, player))

    def speak(state: Any, player: str, given: list[Given[Any]]) -> Any:
        began = time.process_time()
        said = robots[player].orders(game.views.view(state, player), player, rng)
        played.think_seconds[player] += time.process_time() - began
        played.decisions[player] += 1
        for one in said:
            try:
                order = rules.parse(one.text)
                channel = Channel.PUBLIC if one.public else Channel.PRIVATE
                accepted = rules.accept(state, player, order, channel, rng)
            except GameError:
                continue  # refused (a placement meeting another's): as the host would
            state = accepted.state
            if accepted.standing is not None:
                given.append(Given(player, accepted.standing, 0.0, len(given)))
            if accepted.resolve_now:
                state = rules.resolve(state, given, rng).state
                given.clear()
        return state

    setup: list[Given[Any]] = []
    for player in players:
        state = speak(state, player, setup)
    state = rules.start(state, rng, None).state
    given: list[Given[Any]] = []
    turn = rules.turn(state)
    for _ in range(max_steps):
        if rules.outcome(state) is not None:
            break
        before = state
        acting = sorted(rules.to_act(state))
        for player in acting if game.simultaneous else acting[:1]:
            state = speak(state, player, given)
            if rules.turn(state) != turn:
                turn, given = rules.turn(state), []
        if game.simultaneous or state is before:
            timers = rules.timers(state)
            if not timers:
                break
            soonest = min(timers, key=lambda timer: timer.seconds)
            state = rules.expire(state, soonest.key, list(given), rng).state
            if rules.turn(state) != turn:
                turn, given = rules.turn(state), []
    if rules.outcome(state) is None:
        state = rules.finish(state).state
    outcome = rules.outcome(state)
    assert outcome is not None, f"{game.name}: the game did not end"
    played.outcome = outcome
    return played
