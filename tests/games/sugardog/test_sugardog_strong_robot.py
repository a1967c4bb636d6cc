"""Sugar Dog's ``strong`` robot (bot/games/sugardog/strong_robot.py): declared beside the
easy one, it tracks where the other submarine can be from the public turns alone, plays
whole games legally, and gives the same orders in two games that differ only in where the
other captain hides."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sugardog_helpers import setup_game

from benchmarks.robots_play import Table, fresh, new_table, play, twins
from bot.games.base import PlayerId, Robot, Said
from bot.games.grid import Direction
from bot.games.sugardog import SUGARDOG, Phase
from bot.games.sugardog.board import Cell, parse_cell
from bot.games.sugardog.robot import ROBOT
from bot.games.sugardog.strong_robot import STRONG_ROBOT, whereabouts
from bot.games.sugardog.views import PrivateView


def test_sugardog_declares_an_easy_and_a_strong_robot() -> None:
    assert SUGARDOG.robot_at("easy") is SUGARDOG.robot is ROBOT
    assert SUGARDOG.robot_at("strong") is STRONG_ROBOT


def test_a_ping_puts_the_other_submarine_on_one_cell_and_a_silent_turn_lets_it_step() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"})
    view = SUGARDOG.views.view(table.game_state(), "p1")
    assert isinstance(view, PrivateView)
    assert len(whereabouts(view)["p2"]) == 36  # anywhere at first
    table.line("ahab dm: ping")
    view = SUGARDOG.views.view(table.game_state(), "p1")
    assert isinstance(view, PrivateView)
    assert whereabouts(view)["p2"] == {parse_cell("E5")}
    table.line("nemo dm: silent up")
    view = SUGARDOG.views.view(table.game_state(), "p1")
    assert isinstance(view, PrivateView)
    assert whereabouts(view)["p2"] == {parse_cell(c) for c in ("E5", "E6", "E4", "D5", "F5")}


def test_the_strong_robot_fires_at_a_submarine_it_has_pinned_within_reach() -> None:
    table = setup_game({"ahab": "B2", "nemo": "B4"})
    table.line("ahab dm: silent")
    table.line("nemo dm: ping")  # nemo is on B4, two cells up from ahab
    view = SUGARDOG.views.view(table.game_state(), "p1")
    (said,) = STRONG_ROBOT.orders(view, "p1", random.Random(0))
    assert said.text == "torpedo up"


def test_the_strong_robot_beats_the_easy_one() -> None:
    score = 0.0
    for seed in range(10):
        seat = seed % 2
        seats = [fresh(STRONG_ROBOT if i == seat else ROBOT) for i in range(2)]
        score += play(SUGARDOG, seats, seed).score(f"p{seat + 1}")
    assert score >= 8


class Creeper:
    """A captain whose public record never depends on where it is: it starts where its
    random source says and runs silent, a step at random when it can."""

    demo_players = 2

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        assert isinstance(view, PrivateView)
        size = view.public.size
        if view.public.phase is Phase.SETUP:
            return [Said(str(Cell(rng.randrange(size), rng.randrange(size))), public=False)]
        here = view.side.cell
        if view.public.current != player or here is None:
            return []
        steps = [d for d in Direction if here.step(d).on_board(size)]
        return [Said(f"silent {rng.choice(steps).value}", public=False)]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_strong_robot_gives_the_same_orders_whatever_the_other_captain_hides(
    seed: int, hidden: int
) -> None:
    tables = []
    for theirs in (seed, hidden):
        seats: dict[str, Robot] = {"p1": fresh(STRONG_ROBOT), "p2": Creeper()}
        table = Table(SUGARDOG, new_table(SUGARDOG, 2, seed), seats, seed)
        table.rngs["p2"] = random.Random(theirs)  # where nemo starts and how it sails
        table.setup()
        tables.append(table)
    assume(tables[0].state != tables[1].state)  # nemo starts elsewhere
    assert twins(SUGARDOG, tables[0], tables[1], "p1", 60) >= 1
