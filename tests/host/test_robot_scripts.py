"""Robot seats played through scripts (``tests/host/robot_scripts/*.txt``, issue 44): the
real host on the script path, each script's ``# expect:`` facts asserted on the record
and the transcript it writes — whole games of one person with robots to their end,
``robots=``, ``add robot`` / ``remove robot``, ``fill=robots`` and ``away=robot``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parent / "robot_scripts"

Run = Callable[[str], tuple[list[str], dict[str, Any]]]


@pytest.fixture
def play(run_script_text: Run) -> Callable[[str], tuple[list[str], dict[str, Any]]]:
    def played(name: str) -> tuple[list[str], dict[str, Any]]:
        return run_script_text((SCRIPTS / name).read_text(encoding="utf-8"))

    return played


def _names(record: dict[str, Any]) -> list[str]:
    return [p["name"] for p in record["players"]]


def _orders_of(record: dict[str, Any], number: int) -> dict[str, Any]:
    (turn,) = [t for t in record["turns"] if t["number"] == number]
    return {order["player"]: order for order in turn["orders"]}


def _never_to_a_robot(transcript: list[str], record: dict[str, Any]) -> None:
    robots = [name for name in _names(record) if "-robot-" in name]
    assert robots
    assert not [line for line in transcript if any(f"-> dm {r}:" in line for r in robots)]


def test_sonar_one_person_and_a_robot_play_to_the_end(play: Any) -> None:
    transcript, record = play("sonar-robots-whole-game.txt")
    assert record["game"]["phase"] == "finished"
    assert _names(record) == ["easy-robot-1", "ahab"]
    robot_turns = [t for t in record["turns"] if "easy-robot-1" in _orders_of(record, t["number"])]
    assert len(robot_turns) >= len(record["turns"]) // 2  # it played every turn of its own
    _never_to_a_robot(transcript, record)


def test_bst_one_person_and_two_robots_play_to_the_end(play: Any) -> None:
    transcript, record = play("bst-robots-whole-game.txt")
    assert record["game"]["phase"] == "finished"
    assert _names(record) == ["easy-robot-1", "easy-robot-2", "alice"]
    assert set(_orders_of(record, 1)) == {"easy-robot-1", "easy-robot-2", "alice"}
    assert set(_orders_of(record, 2)) == {"easy-robot-1", "easy-robot-2"}
    _never_to_a_robot(transcript, record)


def test_the_host_adds_and_removes_robots_by_script(play: Any) -> None:
    transcript, record = play("sonar-add-robot.txt")
    assert _names(record) == ["ahab", "strong-robot-2", "easy-robot-3"]
    assert [p["status"] for p in record["players"]][1] == "left"
    assert "-> public: strong-robot-2 (a robot, level strong) takes a seat in #sonar game 1." in (
        transcript
    )
    assert any("one of easy, strong" in line for line in transcript)  # `wizard`
    assert any("its robots: strong-robot-2); got 'ahab'" in line for line in transcript)
    assert record["game"]["turn"] == 3  # ahab's turn 1 timed out; the robot played turn 2
    assert set(_orders_of(record, 2)) == {"easy-robot-3"}


def test_fill_robots_fills_a_uboat_table_of_one_person(play: Any) -> None:
    transcript, record = play("uboat-fill-robots.txt")
    assert _names(record) == ["ahab", "easy-robot-2", "easy-robot-3", "easy-robot-4"]
    assert record["game"]["phase"] == "battle"
    _never_to_a_robot(transcript, record)


def test_away_robot_plays_bobs_seat_until_he_sends_an_order(play: Any) -> None:
    transcript, record = play("bst-away-robot.txt")
    announced = [line for line in transcript if "a robot plays turn" in line]
    assert len(announced) == 3  # turns 1, 2 and 3: once a turn
    assert not any("bob" in line for line in announced)
    assert "bob" in _orders_of(record, 1)  # the robot's, as soon as he was away
    assert "bob" in _orders_of(record, 2)
    assert _orders_of(record, 3)["bob"]["cell"] == "J1"  # his own: the seat is his again
    assert record["game"]["turn"] == 4
    assert not any("a robot plays turn 4" in line for line in transcript)
