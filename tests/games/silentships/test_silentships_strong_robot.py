"""Silent Ships' ``strong`` robot (bot/games/silentships/strong_robot.py): declared beside
the easy one, it counts the other admiral's unseen ships, plays whole games legally, and
gives the same orders in two games that differ only in the other admiral's hidden cards."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.robots_play import Table, fresh, new_table, play, twins
from bot.games.base import PlayerId, Robot, Said
from bot.games.catalog import get_game
from bot.games.silentships.robot import ROBOT
from bot.games.silentships.ships import SHIP_ORDER, Ship
from bot.games.silentships.strong_robot import STRONG_ROBOT, CountedReading
from bot.games.silentships.views import PrivateView

GAME = get_game("silentships")


def test_silentships_declares_an_easy_and_a_strong_robot() -> None:
    assert GAME.robot_at("easy") is GAME.robot is ROBOT
    assert GAME.robot_at("strong") is STRONG_ROBOT


def test_the_count_leaves_out_the_ships_seen_and_sunk() -> None:
    table = Table(
        GAME,
        new_table(GAME, 2, 1, {"first": "joined"}),
        {"p1": fresh(ROBOT), "p2": fresh(ROBOT)},
        1,
    )
    table.setup()
    view = GAME.views.view(table.state, "p1")
    assert isinstance(view, PrivateView)
    counted = CountedReading(view, "p1")
    assert sorted(counted.pool, key=SHIP_ORDER.index) == list(SHIP_ORDER)  # nothing seen yet
    assert counted.flag_chance == 1 / 11


def test_the_strong_robot_plays_whole_games_legally() -> None:
    for seed in range(4):
        seats = [fresh(STRONG_ROBOT), fresh(ROBOT)][:: 1 if seed % 2 else -1]
        played = play(GAME, seats, seed)
        assert played.outcome.winners


class Idler:
    """An admiral whose public record never depends on its cards: it ends its turns and
    never answers an attack."""

    demo_players = 2

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        assert isinstance(view, PrivateView)
        public = view.public
        if public.attack is not None and public.attack.defender == player:
            return [Said("pass", public=False)]
        if public.to_move == player and public.attack is None:
            return [Said("end", public=True)]
        return []


@settings(max_examples=8, deadline=None)
@given(st.permutations(SHIP_ORDER), st.permutations(SHIP_ORDER))
def test_the_strong_robot_gives_the_same_orders_whatever_the_other_admiral_holds(
    one: list[Ship], two: list[Ship]
) -> None:
    assume(one[:5] != two[:5])
    tables = []
    for deck in (one, two):
        options = {
            "first": "joined",
            "deck1": ",".join(s.value for s in SHIP_ORDER),
            "deck2": ",".join(s.value for s in deck),
        }
        seats: dict[str, Robot] = {"p1": fresh(STRONG_ROBOT), "p2": Idler()}
        table = Table(GAME, new_table(GAME, 2, 0, options), seats, 0)
        table.setup()
        tables.append(table)
    assert twins(GAME, tables[0], tables[1], "p1", 200) >= 3
