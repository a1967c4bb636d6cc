"""U-Boat Shootout's ``strong`` robot (bot/games/uboat/strong_robot.py): declared beside the
easy one, it tracks where the other boats can be from public routes, blasts and hits, plays
whole matches legally, and gives the same orders in two matches that differ only in where
the other boats hide."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.robots_play import Table, fresh, new_table, play, twins
from bot.games.base import PlayerId, Robot, Said
from bot.games.uboat import UBOAT
from bot.games.uboat.cells import Cell, Sea
from bot.games.uboat.robot import ROBOT, sea_of
from bot.games.uboat.state import Phase
from bot.games.uboat.strong_robot import STRONG_ROBOT, _within
from bot.games.uboat.views import PrivateView


def test_uboat_declares_an_easy_and_a_strong_robot() -> None:
    assert UBOAT.robot_at("easy") is UBOAT.robot is ROBOT
    assert UBOAT.robot_at("strong") is STRONG_ROBOT


def test_an_evasion_lets_a_boat_be_up_to_three_steps_away_round_islands() -> None:
    sea = Sea(9, frozenset({Cell(2, 2)}))
    reached = _within(sea, {Cell(0, 0)}, 3)
    assert Cell(0, 0) in reached and Cell(3, 0) in reached and Cell(2, 2) not in reached
    assert Cell(4, 0) not in reached
    assert Cell(6, 0) in reached  # the sea wraps


def test_the_strong_crew_beats_three_easy_ones() -> None:
    score = 0.0
    for seed in range(8):
        seat = seed % 4
        seats = [fresh(STRONG_ROBOT if i == seat else ROBOT) for i in range(4)]
        score += play(UBOAT, seats, seed).score(f"p{seat + 1}")
    assert score >= 4  # a fair share is 2


class Holder:
    """A crew whose public record never depends on where it is: it starts where its
    random source says and holds."""

    demo_players = 4

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        assert isinstance(view, PrivateView)
        if view.public.phase is Phase.SETUP:
            return [Said(f"start {rng.choice(sea_of(view.public).water())}", public=False)]
        return []


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_strong_robot_gives_the_same_orders_whatever_the_others_hide(
    seed: int, hidden: int
) -> None:
    tables = []
    for theirs in (seed, hidden):
        seats: dict[str, Robot] = {"p1": fresh(STRONG_ROBOT), "p2": Holder(), "p3": Holder()}
        table = Table(UBOAT, new_table(UBOAT, 3, seed), seats, seed)
        table.rngs["p2"] = random.Random(theirs)  # where the others start
        table.rngs["p3"] = random.Random(theirs + 1)
        table.setup()
        tables.append(table)
    assume(tables[0].state != tables[1].state)
    assert twins(UBOAT, tables[0], tables[1], "p1", 40) >= 1
