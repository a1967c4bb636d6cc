"""Rules §2 (setup) and the contract's joins and `@start` (shared/contracts/uboat.md)."""

from __future__ import annotations

import random

import pytest
from uboat_helpers import Driver, begin

from bot.games.base import IllegalOrderError, PlayerRef
from bot.games.uboat import UBOAT


def _joined(*names: str) -> Driver:
    driver = Driver()
    driver.line("@game uboat")
    for name in names:
        driver.line(f"{name} dm: join")
    return driver


def test_2_colours_in_join_order_and_each_captains_their_boat() -> None:
    driver = _joined("a", "b", "c", "d", "e", "f")
    record = driver.record()
    assert [p["colour"] for p in record["players"]] == [
        "red",
        "blue",
        "green",
        "yellow",
        "purple",
        "orange",
    ]
    assert [p["crew"] for p in record["players"]] == [p["colour"] for p in record["players"]]


def test_2_a_seventh_join_is_refused() -> None:
    driver = _joined("a", "b", "c", "d", "e", "f", "g")
    assert any("full" in text for text in driver.refusals("g"))
    assert "g" not in driver.ids


def test_2_a_join_after_the_start_is_refused() -> None:
    driver = begin({"a": "A1", "b": "B2"})
    driver.line("c dm: join")
    assert any("joining is closed" in text for text in driver.refusals("c"))


def test_2_joining_twice_is_refused() -> None:
    driver = _joined("a")
    assert driver.state is not None
    with pytest.raises(IllegalOrderError):
        UBOAT.rules.join(driver.state, PlayerRef("p1", "a"))


def test_2_the_latest_valid_starting_cell_stands() -> None:
    driver = _joined("a", "b")
    driver.line("a dm: start B2")
    driver.line("a dm: start at d 4")
    driver.line("a dm: start C3")  # an island: refused, D4 stands
    assert any("island 1" in text for text in driver.refusals("a"))
    assert driver.player(driver.record(), "a")["cell"] == "D4"
    driver.line("@start")
    assert driver.record()["start"]["boats"][0] == {
        "colour": "red",
        "captain": "a",
        "cell": "D4",
        "random": False,
    }


def test_2_a_starting_cell_off_the_board_is_refused() -> None:
    driver = _joined("a", "b")
    driver.line("a dm: start J1")
    assert any("off the 9x9 board" in text for text in driver.refusals("a"))


def test_2_several_boats_may_share_a_cell() -> None:
    driver = begin({"a": "B2", "b": "B2"})
    assert [b["cell"] for b in driver.record()["start"]["boats"]] == ["B2", "B2"]


def test_2_a_player_without_a_cell_is_placed_at_random_on_water() -> None:
    driver = begin({"a": "B2", "b": None}, seed=5)
    record = driver.record()
    boat = record["start"]["boats"][1]
    assert boat["random"] is True
    islands = {island["cell"] for island in record["game"]["islands"]}
    assert boat["cell"] not in islands
    notices = [n for n in driver.resolutions[0][1].notices if n.to == driver.ids["b"]]
    assert notices and boat["cell"] in notices[0].text


def test_2_random_placement_comes_from_the_seed() -> None:
    cells = {
        begin({"a": None, "b": None}, seed=seed).record()["start"]["boats"][0]["cell"]
        for seed in range(8)
    }
    assert len(cells) > 1
    same = [begin({"a": None, "b": None}, seed=3).record() for _ in range(2)]
    assert same[0] == same[1]


def test_2_starting_needs_two_players() -> None:
    driver = _joined("a")
    driver.line("@start")
    assert any("at least 2 players" in text for text in driver.refusals("@host"))
    assert driver.record()["game"]["phase"] == "setup"


def test_2_start_naming_a_player_is_refused() -> None:
    driver = _joined("a", "b")
    assert driver.state is not None
    with pytest.raises(IllegalOrderError):
        UBOAT.rules.start(driver.state, random.Random(0), "p1")


def test_2_record_in_setup() -> None:
    driver = _joined("a", "b")
    driver.line("a dm: start B2")
    record = driver.record()
    assert record["game"]["phase"] == "setup"
    assert record["game"]["turn"] == 0
    assert record["start"] == {"boats": []}
    assert [p["cell"] for p in record["players"]] == ["B2", None]
    assert record["turns"] == []


def test_2_round_orders_in_setup_are_refused() -> None:
    driver = _joined("a", "b")
    driver.line("a dm: fire E6")
    assert any("not started" in text and "start" in text for text in driver.refusals("a"))


def test_2_a_starting_cell_after_setup_is_refused() -> None:
    driver = begin({"a": "B2", "b": "D4"})
    driver.line("a dm: start E2")
    assert any("setup" in text for text in driver.refusals("a"))


def test_2_start_opens_round_one_with_its_timer() -> None:
    driver = begin({"a": "B2", "b": "D4"}, options="round=1h")
    assert driver.state is not None
    assert UBOAT.rules.turn(driver.state) == 1
    assert [(t.key, t.seconds) for t in UBOAT.rules.timers(driver.state)] == [("round:1", 3600.0)]
    assert driver.pending == {"round:1": 3600.0}


def test_2_leaving_in_setup_frees_the_colour() -> None:
    driver = _joined("a", "b")
    assert driver.state is not None
    driver.state = UBOAT.rules.remove(driver.state, "p1").state
    driver.line("c dm: join")
    record = driver.record()
    assert [(p["name"], p["status"], p["colour"]) for p in record["players"]] == [
        ("a", "left", None),
        ("b", "alive", "blue"),
        ("c", "alive", "red"),
    ]
    driver.line("@start")
    assert [b["captain"] for b in driver.record()["start"]["boats"]] == ["c", "b"]
