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


# --- every case for every kind (issue 44 item 3) -------------------------------------


def _robot_orders(record: dict[str, Any], robot: str) -> int:
    return sum(1 for t in record["turns"] for o in t["orders"] if o["player"] == robot)


@pytest.mark.parametrize("kind", ["sugardog", "silentships", "uboat"])
def test_one_person_and_robots_play_every_kind_to_its_end(play: Any, kind: str) -> None:
    transcript, record = play(f"{kind}-robots-whole-game.txt")
    assert record["game"]["phase"] == "finished"
    robots = [name for name in _names(record) if "-robot-" in name]
    assert _names(record) == [*robots, "ahab"] and robots
    assert all(_robot_orders(record, robot) for robot in robots)
    _never_to_a_robot(transcript, record)


@pytest.mark.parametrize(("kind", "table"), [("bst", 12), ("sonar", 2), ("sugardog", 2),
                                             ("silentships", 2)])  # fmt: skip
def test_fill_robots_fills_every_kinds_table_at_start(play: Any, kind: str, table: int) -> None:
    transcript, record = play(f"{kind}-fill-robots.txt")
    robots = [f"easy-robot-{n}" for n in range(2, table + 1)]
    assert _names(record) == ["ahab", *robots]
    assert record["game"]["phase"] in ("battle", "running")
    assert all(_robot_orders(record, robot) for robot in robots)  # as soon as they could
    _never_to_a_robot(transcript, record)


@pytest.mark.parametrize("kind", ["bst", "sugardog", "silentships", "uboat"])
def test_the_host_adds_and_removes_robots_in_every_kind(play: Any, kind: str) -> None:
    transcript, record = play(f"{kind}-add-robot.txt")
    assert f"-> public: strong-robot-2 (a robot, level strong) takes a seat in #{kind} game 1." in (
        transcript
    )
    assert any("one of easy, strong" in line for line in transcript)  # `wizard`
    assert any("its robots: strong-robot-2); got 'ahab'" in line for line in transcript)
    assert any(
        "strong-robot-2 was removed from the game by the host." in line for line in transcript
    )
    assert _names(record)[0] == "ahab" and _names(record)[-1] == "easy-robot-3"
    assert _robot_orders(record, "easy-robot-3")
    _never_to_a_robot(transcript, record)


@pytest.mark.parametrize("kind", ["sonar", "sugardog", "uboat"])
def test_away_robot_plays_nemos_seat_until_he_sends_anything(play: Any, kind: str) -> None:
    transcript, record = play(f"{kind}-away-robot.txt")
    announced = [line for line in transcript if "a robot plays turn" in line]
    assert len(announced) == 3  # once for each of nemo's turns while away
    assert not any("nemo" in line for line in announced)
    last = max(int(line.split("a robot plays turn ")[1].split()[0]) for line in announced)
    assert record["game"]["turn"] > last + 2  # his seat is his again after `board`
    assert record["game"]["phase"] == "battle"


def test_away_robot_plays_a_silent_ships_seat_to_the_win(play: Any) -> None:
    transcript, record = play("silentships-away-robot.txt")
    announced = [line for line in transcript if "a robot plays turn" in line]
    assert not any("nemo" in line for line in announced)
    assert "a robot plays turn 2 for a player who is away" in announced[0]
    assert record["game"]["phase"] == "finished"
    assert _orders_of(record, 2)["nemo"]


@pytest.mark.parametrize(
    ("kind", "robot"),
    [("bst", "easy-robot-2"), ("sonar", "strong-robot-2"), ("sugardog", "easy-robot-2"),
     ("silentships", "easy-robot-2"), ("uboat", "easy-robot-4")],
)  # fmt: skip
def test_a_robot_takes_a_gone_players_seat_in_every_kind(play: Any, kind: str, robot: str) -> None:
    transcript, record = play(f"{kind}-replace-robot.txt")
    gone = "bob" if kind == "bst" else "nemo"
    assert record["substitutes"] == [{"seat": gone, "from_turn": 1, "player": robot, "after": gone}]
    level = robot.partition("-")[0]
    assert any(f"seat is {robot}'s (a robot, level {level})" in line for line in transcript)
    assert sum(1 for t in record["turns"] for o in t["orders"] if o["player"] == gone)
    if kind != "uboat":  # (U-Boat's twelve rounds: its script closes two)
        assert record["game"]["phase"] == "finished"
    assert not [line for line in transcript if f"-> dm {robot}:" in line]
