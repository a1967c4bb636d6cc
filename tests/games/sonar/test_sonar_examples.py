"""The shared examples (``shared/examples/sonar-*.txt``), played through the game object
alone, each ``# expect:`` fact checked against the record they produce."""

from __future__ import annotations

from pathlib import Path

import pytest
from sonar_helpers import EXAMPLES, SCRIPTS, Table, play_script, player_of, turn_of

from bot.games.sonar.board import Board, parse_cell, parse_facing
from bot.games.sonar.encounters import Course, ever_meet

NAMES = ("sonar-first-game.txt", "sonar-clock.txt", "sonar-random-fleets.txt")
OURS = ("sonar-draw.txt", "sonar-end.txt", "sonar-no-room.txt")


@pytest.mark.parametrize("name", NAMES)
def test_the_examples_are_copied_unchanged_to_tests_scripts(name: str) -> None:
    assert (SCRIPTS / name).read_text() == (EXAMPLES / name).read_text()


def test_first_game_example() -> None:
    table = play_script(SCRIPTS / "sonar-first-game.txt")
    assert table.refusals == []
    record = table.record()
    start = record["start"]
    # expect: start.first ahab; ahab's sub 1 cells [l5, k5], sub 2 [c20, b20, a20]
    assert start["first"] == "ahab"
    ahab, nemo = start["players"]
    assert [s["cells"] for s in ahab["subs"]] == [["l5", "k5"], ["c20", "b20", "a20"]]
    # expect: nemo's sub 1 is the 2-sub [f10, g10], sub 2 the 3-sub [h3, i3, j3]
    assert [(s["id"], s["length"], s["cells"]) for s in nemo["subs"]] == [
        (1, 2, ["f10", "g10"]),
        (2, 3, ["h3", "i3", "j3"]),
    ]
    # expect: turn 1 shot e10 hit, owner nemo, sub 1 (its bow, now on e10)
    assert turn_of(record, 1)["events"] == [
        {
            "type": "shot",
            "player": "ahab",
            "cell": "e10",
            "result": "hit",
            "owner": "nemo",
            "sub": 1,
        }
    ]
    # expect: turn 2 shots: b11 hit owner ahab sub 1; a1 miss, distance 5
    assert turn_of(record, 2)["events"] == [
        {
            "type": "shot",
            "player": "nemo",
            "cell": "b11",
            "result": "hit",
            "owner": "ahab",
            "sub": 1,
        },
        {"type": "shot", "player": "nemo", "cell": "a1", "result": "miss", "distance": 5},
    ]
    # expect: turn 3: d10 sunk (owner nemo, sub 1), then a sunk event with cells [c10, d10];
    # expect: h3 miss, distance 1
    assert turn_of(record, 3)["events"] == [
        {
            "type": "shot",
            "player": "ahab",
            "cell": "d10",
            "result": "sunk",
            "owner": "nemo",
            "sub": 1,
        },
        {"type": "sunk", "player": "nemo", "sub": 1, "cells": ["c10", "d10"]},
        {"type": "shot", "player": "ahab", "cell": "h3", "result": "miss", "distance": 1},
    ]
    # expect: nemo's sub 1 sunk, hits [c10, d10]; ahab's sub 1 cells [c11, b11], hits [c11];
    sunk = player_of(record, "nemo")["subs"][0]
    assert (sunk["sunk"], sunk["hits"]) == (True, ["c10", "d10"])
    damaged = player_of(record, "ahab")["subs"][0]
    assert (damaged["cells"], damaged["hits"], damaged["sunk"]) == (["c11", "b11"], ["c11"], False)
    # expect: phase battle, turn 4, to_move nemo
    game = record["game"]
    assert (game["phase"], game["turn"], game["to_move"]) == ("battle", 4, "nemo")


def test_clock_example() -> None:
    table = play_script(SCRIPTS / "sonar-clock.txt")
    record = table.record()
    # expect: turns 1 and 2 are skips, with no events
    assert turn_of(record, 1)["orders"] == [{"player": "ahab", "action": "skip"}]
    assert turn_of(record, 2)["orders"] == [{"player": "nemo", "action": "skip"}]
    assert turn_of(record, 1)["events"] == turn_of(record, 2)["events"] == []
    # expect: turn 3 j23 miss, distance 3 (nemo's sub, after three moves, is on g23 h22)
    assert turn_of(record, 3)["events"] == [
        {"type": "shot", "player": "flint", "cell": "j23", "result": "miss", "distance": 3}
    ]
    # refused while paused, and no deadline fires
    assert [r.line for r in table.refusals] == ["nemo: a1"]
    assert "paused" in table.refusals[0].message
    assert turn_of(record, 4)["player"] == "ahab"
    # expect: turn 5 orders [{"player": "nemo", "action": "leave"}], events [left nemo];
    assert turn_of(record, 5)["orders"] == [{"player": "nemo", "action": "leave"}]
    assert turn_of(record, 5)["events"] == [{"type": "left", "player": "nemo"}]
    # expect: nemo status left, his sub where he left it: [e25, f24]
    nemo = player_of(record, "nemo")
    assert nemo["status"] == "left"
    assert nemo["subs"][0]["cells"] == ["e25", "f24"]
    # expect: turn 6 c1 miss, distance 8 (ahab's sub has wrapped to m2 n1)
    assert turn_of(record, 6)["events"] == [
        {"type": "shot", "player": "flint", "cell": "c1", "result": "miss", "distance": 8}
    ]
    assert player_of(record, "ahab")["subs"][0]["cells"] == ["m2", "n1"]
    # expect: phase battle, turn 7, to_move ahab
    game = record["game"]
    assert (game["phase"], game["turn"], game["to_move"]) == ("battle", 7, "ahab")
    assert len(record["turns"]) == 6


def test_clock_example_turn_deadlines_do_not_drift() -> None:
    """Turn 3 began at turn 2's deadline (16 h), so it falls at 24 h, not 8 h after the wait."""
    table = Table().play((SCRIPTS / "sonar-clock.txt").read_text().splitlines()[:11])
    assert table.deadlines == {"turn:3": 24 * 3600.0}


def test_random_fleets_example() -> None:
    table = play_script(SCRIPTS / "sonar-random-fleets.txt")
    record = table.record()
    # refused: under placement=random the host places every fleet
    assert "placement=random" in table.refusals[0].message
    # expect: options ships "4" (12 / 3 players), size "16", placement "random";
    options = record["game"]["options"]
    assert (options["ships"], options["size"], options["placement"]) == ("4", "16", "random")
    # expect: each player holds subs 1..4 of lengths 2, 3, 3, 4, each facing a different way,
    # expect: each a straight line behind its bow; no two subs meet in any of the next 64 turns
    board = Board(16)
    courses = []
    for player in record["start"]["players"]:
        subs = player["subs"]
        assert [(s["id"], s["length"]) for s in subs] == [(1, 2), (2, 3), (3, 3), (4, 4)]
        assert len({s["facing"] for s in subs}) == 4
        for sub in subs:
            course = Course(parse_cell(sub["cells"][0]), parse_facing(sub["facing"]), sub["length"])
            assert [str(c) for c in course.cells(board)] == sub["cells"]
            courses.append(course)
    for turn in range(64):
        occupied = [cell for course in courses for cell in course.cells(board, turn)]
        assert len(occupied) == len(set(occupied))
    assert not any(ever_meet(board, a, b) for i, a in enumerate(courses) for b in courses[:i])
    # expect: turn 1 order shoot, random true, 2 cells (the first turn is halved), none on
    # drake's subs
    order = turn_of(record, 1)["orders"][0]
    assert (order["action"], order["random"], len(order["cells"])) == ("shoot", True, 2)
    drake = courses[:4]
    assert not set(order["cells"]) & {str(c) for course in drake for c in course.cells(board, 1)}
    # expect: turn 2 order cells [a1, b2, c3, d4]; to_move frobisher; 2 turns resolved
    assert turn_of(record, 2)["orders"][0]["cells"] == ["a1", "b2", "c3", "d4"]
    assert record["game"]["to_move"] == "frobisher"
    assert len(record["turns"]) == 2
    # refused: it is frobisher's turn now
    assert "frobisher is to move" in table.refusals[1].message


@pytest.mark.parametrize("name", NAMES + OURS)
def test_every_example_script_replays_the_same_record(name: str) -> None:
    first = play_script(Path(SCRIPTS / name)).record()
    again = play_script(Path(SCRIPTS / name)).record()
    assert first == again


# --- scripts of our own (tests/games/sonar/scripts), for the host to run later too ---------------


def test_draw_script() -> None:
    table = play_script(SCRIPTS / "sonar-draw.txt")
    assert table.refusals == []
    record = table.record()
    assert turn_of(record, 1)["events"][0]["owner"] == "ahab"
    turn = turn_of(record, 3)
    assert turn["orders"] == [
        {"player": "ahab", "action": "shoot", "cells": ["c1"], "random": False, "timeout": False},
        {"player": "nemo", "action": "leave"},
    ]
    assert turn["events"] == [
        {
            "type": "shot",
            "player": "ahab",
            "cell": "c1",
            "result": "sunk",
            "owner": "ahab",
            "sub": 1,
        },
        {"type": "sunk", "player": "ahab", "sub": 1, "cells": ["d1", "c1"]},
        {"type": "eliminated", "player": "ahab"},
        {"type": "left", "player": "nemo"},
        {"type": "finished", "winners": ["ahab"], "draw": True},
    ]
    game = record["game"]
    assert (game["phase"], game["turn"], game["to_move"]) == ("finished", 3, None)
    assert player_of(record, "ahab")["status"] == "eliminated"
    nemo = player_of(record, "nemo")
    assert (nemo["status"], nemo["subs"][0]["cells"]) == ("left", ["d5", "c5"])


def test_end_script() -> None:
    table = play_script(SCRIPTS / "sonar-end.txt")
    assert table.refusals == []
    record = table.record()
    assert turn_of(record, 2) == {
        "number": 2,
        "player": "nemo",
        "orders": [{"player": "nemo", "action": "end"}, {"player": "flint", "action": "leave"}],
        "events": [
            {"type": "left", "player": "flint"},
            {"type": "finished", "winners": ["ahab", "nemo"], "draw": True},
        ],
    }
    assert player_of(record, "ahab")["subs"][0]["cells"] == ["c1", "b1"]
    assert (record["game"]["phase"], record["game"]["turn"]) == ("finished", 2)


def test_no_room_script() -> None:
    table = play_script(SCRIPTS / "sonar-no-room.txt")
    (refusal,) = table.refusals
    assert refusal.line == "@start"
    assert "6 subs each cannot be placed" in refusal.message
    assert "no arrangement exists" in refusal.message
    assert "at most ships=5 fits" in refusal.message
    record = table.record()
    assert (record["game"]["phase"], record["start"]) == ("setup", None)
