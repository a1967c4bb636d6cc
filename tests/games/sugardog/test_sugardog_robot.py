"""The simulated captain of ``bst demo --game sugardog`` (bot/games/sugardog/robot.py):
it plays from its own view only, always legally, with some sense, and its games end."""

from __future__ import annotations

import random

import pytest
from sugardog_helpers import Table, play, setup_game

from bot.games.base import Said
from bot.games.sugardog import SUGARDOG, Phase
from bot.games.sugardog.board import Cell, parse_cell
from bot.games.sugardog.robot import ROBOT


def robot_turn(table: Table, rng: random.Random) -> str:
    state = table.game_state()
    mover = state.current
    assert mover is not None
    said = ROBOT.orders(SUGARDOG.views.view(state, mover), mover, rng)
    assert len(said) == 1 and not said[0].public
    return said[0].text


def robots_game(captains: int, seed: int) -> Table:
    rng = random.Random(seed)
    names = [f"c{n}" for n in range(captains)]
    table = play("\n".join(["@game sugardog move_time=1h", *(f"{n} dm: join" for n in names)]))
    for name in names:
        player = table.ids[name]
        for said in ROBOT.orders(SUGARDOG.views.view(table.game_state(), player), player, rng):
            table.line(f"{name} dm: {said.text}")
    table.line("@start")
    for _ in range(1500):
        state = table.game_state()
        if state.phase is not Phase.BATTLE:
            break
        table.line(f"{table.names[state.current or '']} dm: {robot_turn(table, rng)}")
        assert not table.refusals, table.refusals[-1]
    return table


def test_in_setup_it_sends_a_secret_starting_cell_on_the_board_once() -> None:
    table = play("@game sugardog\nahab dm: join\nnemo dm: join")
    view = SUGARDOG.views.view(table.game_state(), "p1")
    (said,) = ROBOT.orders(view, "p1", random.Random(1))
    assert not said.public and parse_cell(said.text).on_board(6)
    table.line(f"ahab dm: {said.text}")
    assert ROBOT.orders(SUGARDOG.views.view(table.game_state(), "p1"), "p1", random.Random(1)) == []


def test_it_waits_when_it_is_not_its_turn_or_it_is_out() -> None:
    table = setup_game({"ahab": "B2", "nemo": "B4"})
    assert ROBOT.orders(SUGARDOG.views.view(table.game_state(), "p2"), "p2", random.Random(0)) == []
    table.line("ahab dm: cruise up up")  # both go down together
    assert ROBOT.orders(SUGARDOG.views.view(table.game_state(), "p1"), "p1", random.Random(0)) == []


def test_it_fires_at_a_submarine_just_pinged_in_its_row() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E2"})
    table.line("ahab dm: ping")  # nemo now knows ahab is in B2, his own row
    assert ROBOT.orders(SUGARDOG.views.view(table.game_state(), "p2"), "p2", random.Random(0)) == [
        Said("torpedo left", public=False)
    ]


def test_it_slips_out_of_the_path_of_a_torpedo_it_heard() -> None:
    table = setup_game({"ahab": "B3", "nemo": "F3"})
    table.line("ahab dm: torpedo right")  # heard in C3, D3: heading for E3, F3 next
    for seed in range(10):
        text = robot_turn(table, random.Random(seed))
        assert text in ("silent up", "silent down"), text


@pytest.mark.parametrize(("captains", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_a_game_of_robots_is_played_legally_to_the_end(captains: int, seed: int) -> None:
    table = robots_game(captains, seed)
    state = table.game_state()
    assert state.phase is Phase.FINISHED
    assert SUGARDOG.rules.outcome(state) is not None


def test_it_decides_from_its_view_alone() -> None:
    """Two games where only nemo's hidden facts differ: ahab's view, and so his orders,
    are the same."""
    orders = []
    for nemo in ("E5", "A6"):
        table = setup_game({"ahab": "C3", "nemo": nemo})
        table.line("ahab dm: silent")
        table.line("nemo dm: mine")
        assert table.game_state().captain("p2").cell == Cell(*{"E5": (4, 4), "A6": (0, 5)}[nemo])  # type: ignore[union-attr]
        orders.append([robot_turn(table, random.Random(seed)) for seed in range(20)])
    assert orders[0] == orders[1]
