"""Sonar's ``strong`` robot (bot/games/sonar/strong_robot.py): declared beside the easy one,
it keeps every position the other subs may have, never rules out the true one, plays whole
games legally, and gives the same orders in two games that differ only in where the other
captain's subs are."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.robots_play import Table, fresh, new_table, twins
from bot.games.base import Channel, PlayerId, Robot, Said
from bot.games.sonar import SONAR
from bot.games.sonar.robot import ROBOT
from bot.games.sonar.strong_robot import STRONG_ROBOT, StrongSonarRobot
from bot.games.sonar.views import PrivateView


def test_sonar_declares_an_easy_and_a_strong_robot() -> None:
    assert SONAR.robot_at("easy") is SONAR.robot is ROBOT
    assert SONAR.robot_at("strong") is STRONG_ROBOT


def test_the_true_position_of_every_other_sub_is_never_ruled_out() -> None:
    kept = 0
    for seed in range(2):
        robot = StrongSonarRobot()
        table = Table(
            SONAR,
            new_table(SONAR, 2, seed, {"size": "12", "ships": "4"}),
            {"p1": robot, "p2": fresh(ROBOT)},
            seed,
        )
        table.setup()
        for _ in range(40):
            if table.over():
                break
            acting = table.acting()
            if acting == ["p1"]:
                view = SONAR.views.view(table.state, "p1")
                robot.orders(view, "p1", random.Random(0))
                memory = robot._memories["p1"]
                theirs = SONAR.views.view(table.state, "p2")
                assert isinstance(theirs, PrivateView)
                for sub in theirs.subs:
                    if not sub.sunk:
                        bows = memory.alive[(sub.facing, sub.length)]
                        assert memory.board.index(sub.cells[0]) in bows
                        kept += 1
            table.step(acting)
    assert kept > 20


class Drifter:
    """A captain whose public record never depends on where its subs are: it fires at
    cells its random source draws."""

    demo_players = 2

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        assert isinstance(view, PrivateView)
        if view.public.to_move != player:
            return []
        return [Said("random", public=True)]


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_strong_robot_gives_the_same_orders_whatever_the_other_captain_hides(
    seed: int, hidden: int
) -> None:
    tables = []
    for theirs in (seed, hidden):
        seats: dict[str, Robot] = {"p1": fresh(STRONG_ROBOT), "p2": Drifter()}
        options = {"size": "12", "ships": "3", "placement": "given"}
        state = new_table(SONAR, 2, seed, options)
        fleet = SONAR.rules.parse("2 a1 r, 3 c1 r, 3 e1 r")
        state = SONAR.rules.accept(state, "p1", fleet, Channel.PRIVATE, random.Random(0)).state
        table = Table(SONAR, state, seats, seed)
        table.rng = random.Random(theirs)  # where the host places the other fleet
        table.setup()
        tables.append(table)
    assume(tables[0].state != tables[1].state)
    assert twins(SONAR, tables[0], tables[1], "p1", 30) >= 1
