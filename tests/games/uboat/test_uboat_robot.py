"""The simulated crew of ``bst demo --game uboat`` (``bot/games/uboat/robot.py``): it plays
whole games legally from its own view only, and with some sense (evading, firing at
what the last round gave away, capturing islands)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from uboat_helpers import Driver, begin, give_island, set_boat

from bot.games.base import Said
from bot.games.uboat import UBOAT
from bot.games.uboat.cells import parse_cell as cell
from bot.games.uboat.robot import ROBOT, ROUTES, sightings
from bot.games.uboat.state import Phase
from bot.games.uboat.values import Colour
from bot.games.uboat.views import PrivateView

NAMES = ["ann", "ben", "cy", "dee", "eve", "fay"]


def speak(driver: Driver, rng: random.Random, everyone: bool) -> int:
    """Every player who may act sends what its robot says, from its own view. Returns how
    many orders were sent."""
    assert driver.state is not None
    acting = UBOAT.rules.to_act(driver.state)
    sent = 0
    for name, player in list(driver.ids.items()):
        if not (everyone or player in acting):
            continue
        for said in ROBOT.orders(UBOAT.views.view(driver.state, player), player, rng):
            driver.say(name, said.text, public=said.public)
            sent += 1
    return sent


def robots_game(seed: int, players: int, options: str = "") -> Driver:
    driver = Driver(seed=seed)
    driver.line(f"@game uboat {options}")
    for name in NAMES[:players]:
        driver.line(f"{name} dm: join")
    rng = random.Random(seed)
    speak(driver, rng, everyone=True)
    driver.line("@start")
    for _ in range(200):
        assert driver.state is not None
        if driver.state.phase is Phase.FINISHED:
            break
        speak(driver, rng, everyone=False)
        driver.line("@close")
    return driver


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 4), (3, 6), (4, 3), (5, 5)])
def test_robots_play_a_whole_game_legally(seed: int, players: int) -> None:
    driver = robots_game(seed, players)
    assert driver.state is not None and driver.state.phase is Phase.FINISHED
    assert driver.refusals() == []
    assert driver.state.turn <= driver.state.options.rounds
    assert all(0 <= boat.health <= 3 for boat in driver.state.boats)
    assert not any(boat.placed_at_random for boat in driver.state.boats)
    orders = [order for step in driver.history for order in step.orders]
    assert {order["action"] for order in orders} >= {"fire", "move"}


def test_robots_play_small_seas_without_islands_and_rams_and_evasions_come() -> None:
    actions: set[str] = set()
    for seed in range(6):
        driver = robots_game(seed, 4, "size=5 islands=none rounds=20")
        assert driver.refusals() == []
        actions |= {order["action"] for step in driver.history for order in step.orders}
    assert {"fire", "move", "evade"} <= actions


def test_the_robot_waits_once_its_order_stands() -> None:
    driver = begin({"a": "B2", "b": "H8"})
    assert driver.state is not None
    first = ROBOT.orders(UBOAT.views.view(driver.state, "p1"), "p1", random.Random(1))
    assert len(first) == 1 and not first[0].public
    driver.say("a", first[0].text)
    assert ROBOT.orders(UBOAT.views.view(driver.state, "p1"), "p1", random.Random(1)) == []


def test_the_robot_sees_only_its_own_view() -> None:
    """Two games that differ only in where another boat hides: the same orders."""
    said = []
    for other in ("H8", "D9"):
        driver = begin({"a": "B2", "b": other})
        assert driver.state is not None
        view = UBOAT.views.view(driver.state, "p1")
        said.append(ROBOT.orders(view, "p1", random.Random(7)))
    assert said[0] == said[1]


def test_a_damaged_robot_evades_in_its_window() -> None:
    driver = begin({"a": "B2", "b": "B4"}, options="islands=none")
    driver.line("a dm: fire B4")
    driver.line("@close")
    assert driver.state is not None and driver.state.window_open
    (evasion,) = ROBOT.orders(UBOAT.views.view(driver.state, "p2"), "p2", random.Random(3))
    assert evasion.text.startswith("evade ") and len(evasion.text.split()) >= 3
    assert driver.say("b", evasion.text) is not None
    # The round's order waits until the window has closed (from the new cell).
    assert ROBOT.orders(UBOAT.views.view(driver.state, "p2"), "p2", random.Random(3)) == []
    driver.line("@close")
    (order,) = ROBOT.orders(UBOAT.views.view(driver.state, "p2"), "p2", random.Random(3))
    assert driver.say("b", order.text) is not None


def test_the_robot_fires_where_the_last_round_showed_an_enemy() -> None:
    driver = begin({"a": "B2", "b": "E2", "c": "E5"}, options="islands=none")
    driver.line("c dm: fire E2")  # Blue hit squarely: everyone now knows it is on E2
    driver.line("@close")
    driver.line("@close")  # Blue's evade window (Blue sent none)
    assert driver.state is not None
    public = UBOAT.views.view(driver.state, None)
    assert sightings(public, Colour.RED) == {Colour.BLUE: cell("E2")}  # type: ignore[arg-type]
    said = ROBOT.orders(UBOAT.views.view(driver.state, "p1"), "p1", random.Random(1))
    assert said == [Said("fire E2", public=False)]


def test_a_ram_gives_the_rammers_cell_away_unless_fog_hides_its_route() -> None:
    driver = begin({"a": "B2", "b": "F6"}, options="islands=4@I9")
    driver.line("b dm: ram up up")  # F6 → F4, striking F3
    driver.line("@close")
    assert driver.state is not None
    public = UBOAT.views.view(driver.state, None)
    assert sightings(public, Colour.RED) == {Colour.BLUE: cell("F4")}  # type: ignore[arg-type]
    driver = begin({"a": "B2", "b": "F6"}, options="islands=4@I9")
    give_island(driver, 4, "blue")
    driver.line("b dm: ram up up")
    driver.line("@close")
    assert driver.state is not None
    assert sightings(UBOAT.views.view(driver.state, None), Colour.RED) == {}  # type: ignore[arg-type]


def test_the_robot_rams_an_enemy_beside_it_rather_than_fire_on_itself() -> None:
    driver = begin({"a": "B3", "b": "C5"}, options="islands=none")
    driver.line("b dm: ram up up")  # Blue ends on C3, beside Red, striking C2
    driver.line("@close")
    assert driver.state is not None
    (order,) = ROBOT.orders(UBOAT.views.view(driver.state, "p1"), "p1", random.Random(1))
    assert order.text == "ram left right"  # back onto B3, striking C3
    assert driver.say("a", order.text) is not None


def test_the_robot_captures_the_biggest_island_in_range() -> None:
    driver = begin({"a": "E3", "b": "A9"})
    assert driver.state is not None
    said = ROBOT.orders(UBOAT.views.view(driver.state, "p1"), "p1", NeverHunts())
    assert said == [Said("fire E5", public=False)]  # island 5, two away (not 2@G3 nor 1@C3)


class NeverHunts(random.Random):
    """A random source whose draws never fall under the robot's odds of hunting."""

    def random(self) -> float:
        return 0.99


def test_a_four_boat_match_of_robots_shows_a_sinking_a_crew_change_a_ram_and_an_evasion() -> None:
    """The demo's match (``bst demo --game uboat``: four boats, seed 1): robots that hunt
    make the seed's story, not a quiet race for islands."""
    assert ROBOT.demo_players == 4
    seen: set[str] = set()
    for seed in (1, 2, 4):
        driver = robots_game(seed, ROBOT.demo_players)
        assert driver.refusals() == []
        kinds = {event["type"] for step in driver.history for event in step.events}
        seen |= kinds
        if seed == 1:
            assert {"destroyed", "joined", "rammed", "evaded"} <= kinds
    assert {"destroyed", "joined", "rammed", "evaded"} <= seen


def test_a_sunk_robot_joins_the_crew_with_the_most_islands() -> None:
    driver = begin({"a": "A1", "b": "E5", "c": "C1"}, options="islands=1@I9,2@I8")
    give_island(driver, 2, "blue")
    set_boat(driver, "green", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert driver.state is not None
    view = UBOAT.views.view(driver.state, "p3")
    assert isinstance(view, PrivateView) and view.adrift
    assert ROBOT.orders(view, "p3", random.Random(1)) == [Said("crew blue", public=False)]
    chosen = replace(view, crew_choice=Colour.BLUE)
    assert ROBOT.orders(chosen, "p3", random.Random(1)) == []


def test_every_route_of_one_to_three_steps_is_considered() -> None:
    assert len(ROUTES) == 4 + 16 + 64
    assert len(set(ROUTES)) == len(ROUTES)
