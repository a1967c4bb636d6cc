"""The shared examples (shared/examples/sugardog-*.txt), played through the game object
by the script driver, checked against every one of their ``# expect:`` facts; and the
record example of shared/contracts/sugardog.md, checked whole."""

from __future__ import annotations

import json
import re

import pytest
from sugardog_helpers import SCRIPTS, SHARED, SHARED_EXAMPLES, captain, contact, play_file, seen

EXAMPLES = ("sugardog-clock.txt", "sugardog-first-game.txt", "sugardog-sonar.txt")
CONTRACT = SHARED / "contracts" / "sugardog.md"


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_examples_are_copied_unchanged_to_tests_scripts(name: str) -> None:
    copy = (SCRIPTS / name).read_bytes()
    if (SHARED_EXAMPLES / name).exists():
        assert copy == (SHARED_EXAMPLES / name).read_bytes()
    assert b"# expect:" in copy


def _contract_record() -> dict[str, object]:
    text = CONTRACT.read_text(encoding="utf-8")
    block = re.search(r"## Record: `sugardog-record/1`\s*```json\n(.*?)```", text, re.DOTALL)
    assert block is not None
    record: dict[str, object] = json.loads(block.group(1))
    return record


@pytest.mark.skipif(not CONTRACT.exists(), reason="shared/ is not beside the work tree")
def test_the_first_game_gives_the_contracts_record_example_exactly() -> None:
    table = play_file(SCRIPTS / "sugardog-first-game.txt")
    assert table.record() == _contract_record()


def test_first_game() -> None:
    table = play_file(SCRIPTS / "sugardog-first-game.txt")
    record = table.record()
    # expect: phase battle, turn 1, current nemo; start {...} (checked as it began)
    assert record["start"] == {
        "order": ["nemo", "ahab"],
        "cells": {"ahab": "B2", "nemo": "E5"},
        "random": [],
    }
    assert table.refusals == []
    # turn 1: mine nemo E5 left 2 (nemo sits on it: harmless now)
    assert table.events(1) == [{"type": "mine", "player": "nemo", "cell": "E5", "left": 2}]
    # turn 2: launched ahab torpedo 1 from B2 right; contacts C2, D2
    assert table.events(2) == [
        {"type": "launched", "player": "ahab", "torpedo": 1, "cell": "B2", "direction": "right"},
        contact("ahab", "C2", torpedo=1),
        contact("ahab", "D2", torpedo=1),
    ]
    # turn 3: silent nemo D5 (told only to nemo)
    assert table.events(3) == [{"type": "silent", "player": "nemo", "cell": "D5"}]
    assert not any("D5" in text for text in table.public() if text.startswith("Turn 3"))
    assert any("D5" in text for text in table.dms("nemo"))
    # turn 4: the timeout, ahab's torpedo moves first; ahab is silent
    assert table.turn(4)["orders"] == [
        {"player": "ahab", "action": "silent", "direction": None, "timeout": True}
    ]
    assert table.events(4) == [
        contact("ahab", "E2", torpedo=1),
        contact("ahab", "F2", torpedo=1),
        {"type": "silent", "player": "ahab", "cell": "B2"},
    ]
    # turn 5 report: equal distances in cell order
    assert table.events(5)[0]["report"] == [
        seen("nemo", "submarine", "D5", 0),
        seen("nemo", "mine", "E5", 1),
        seen("ahab", "submarine", "B2", 5),
        seen("ahab", "torpedo", "F2", 5, torpedo=1),
    ]
    # turn 6: lost ahab torpedo 1; contacts B3, B4 of ahab's submarine
    assert table.events(6) == [
        {"type": "lost", "player": "ahab", "torpedo": 1},
        contact("ahab", "B3"),
        contact("ahab", "B4"),
    ]
    # turn 7: launched nemo torpedo 1 from D5 left; contacts C5, B5
    assert table.events(7) == [
        {"type": "launched", "player": "nemo", "torpedo": 1, "cell": "D5", "direction": "left"},
        contact("nemo", "C5", torpedo=1),
        contact("nemo", "B5", torpedo=1),
    ]
    # turn 8: contact B5; impact B5; eliminated ahab; finished, winners ["nemo"]
    assert table.events(8) == [
        contact("ahab", "B5"),
        {
            "type": "impact",
            "cell": "B5",
            "player": "ahab",
            "unit": "submarine",
            "destroyed": [
                {"player": "ahab", "unit": "submarine"},
                {"player": "nemo", "unit": "torpedo", "torpedo": 1},
            ],
        },
        {"type": "eliminated", "player": "ahab"},
        {"type": "finished", "winners": ["nemo"], "draw": False},
    ]
    # ahab eliminated in B5; nemo alive in D5 with mines ["E5"], mines_left 2
    assert captain(table, "ahab")["status"] == "eliminated"
    assert captain(table, "ahab")["cell"] == "B5"
    nemo = captain(table, "nemo")
    assert (nemo["status"], nemo["cell"], nemo["mines"], nemo["mines_left"]) == (
        "alive",
        "D5",
        ["E5"],
        2,
    )
    assert record["game"]["winners"] == ["nemo"] and record["game"]["draw"] is False


def test_first_game_as_it_began() -> None:
    lines = (SCRIPTS / "sugardog-first-game.txt").read_text(encoding="utf-8").splitlines()
    started = lines[: lines.index("@start nemo") + 1]
    from sugardog_helpers import Table

    record = Table().play(started).record()
    # expect: phase battle, turn 1, current nemo
    assert (record["game"]["phase"], record["game"]["turn"], record["game"]["current"]) == (
        "battle",
        1,
        "nemo",
    )
    assert record["turns"] == []


def test_sonar() -> None:
    table = play_file(SCRIPTS / "sugardog-sonar.txt")
    record = table.record()
    assert table.refusals == []
    # start.order ["spock", "uhura", "kirk"]; board 8x8
    assert record["start"]["order"] == ["spock", "uhura", "kirk"]
    assert (record["game"]["rows"], record["game"]["cols"]) == (8, 8)
    # turn 3: launched kirk torpedo 1 from E5 left; contacts D5, C5
    assert table.events(3) == [
        {"type": "launched", "player": "kirk", "torpedo": 1, "cell": "E5", "direction": "left"},
        contact("kirk", "D5", torpedo=1),
        contact("kirk", "C5", torpedo=1),
    ]
    # turn 5: contacts F3, E3 of uhura's submarine
    assert table.events(5) == [contact("uhura", "F3"), contact("uhura", "E3")]
    # turn 6: kirk's torpedo moves first (contacts B5, A5), then silent kirk E5
    assert table.events(6) == [
        contact("kirk", "B5", torpedo=1),
        contact("kirk", "A5", torpedo=1),
        {"type": "silent", "player": "kirk", "cell": "E5"},
    ]
    # turn 7 report, nearest first by |dcolumn| + |drow|
    assert table.events(7)[0]["report"] == [
        seen("spock", "submarine", "B6", 0),
        seen("spock", "mine", "B7", 1),
        seen("kirk", "torpedo", "A5", 2, torpedo=1),
        seen("kirk", "submarine", "E5", 4),
        seen("uhura", "submarine", "E3", 6),
    ]
    # turn 8: kirk ran silent last: uhura's cruise passes him; no impact
    assert table.events(8) == [contact("uhura", "E4"), contact("uhura", "E5")]
    # turn 9: lost kirk torpedo 1, then the report
    assert table.events(9) == [
        {"type": "lost", "player": "kirk", "torpedo": 1},
        {
            "type": "ping",
            "player": "kirk",
            "cell": "E5",
            "report": [
                seen("kirk", "submarine", "E5", 0),
                seen("uhura", "submarine", "E5", 0),
                seen("spock", "submarine", "B6", 4),
                seen("spock", "mine", "B7", 5),
            ],
        },
    ]
    # all three alive; kirk and uhura both in E5, neither silent now; current spock
    players = {p["name"]: p for p in record["players"]}
    assert all(p["status"] == "alive" for p in players.values())
    assert players["kirk"]["cell"] == players["uhura"]["cell"] == "E5"
    assert not players["kirk"]["silent"] and not players["uhura"]["silent"]
    assert record["game"]["current"] == "spock"


def test_clock() -> None:
    table = play_file(SCRIPTS / "sugardog-clock.txt")
    record = table.record()
    # K2 is off the 6x6 board; C3 in public; ping out of turn: three refusals
    assert [(r.name, r.kind) for r in table.refusals] == [
        ("jack", "IllegalOrderError"),
        ("jill", "WrongChannelError"),
        ("jack", "IllegalOrderError"),
    ]
    assert table.refusals[0].message.startswith("K2 is off the 6×6 board")
    assert "C3" not in table.refusals[1].message
    assert table.refusals[2].message.startswith("it is jill's turn")
    # start.order ["jill", "jack"]; start.cells jack "B5"; start.random ["jill"]
    assert record["start"]["order"] == ["jill", "jack"]
    assert record["start"]["cells"]["jack"] == "B5"
    assert record["start"]["random"] == ["jill"]
    jill_cell = record["start"]["cells"]["jill"]
    assert any(jill_cell in dm for dm in table.dms("jill"))
    # turn 1: jill timed out at 6h
    timeout = {"action": "silent", "direction": None, "timeout": True}
    assert table.turn(1)["orders"] == [{"player": "jill", **timeout}]
    steps = dict(zip(range(len(table.history)), table.step_times, strict=True))
    assert steps[1] == 6 * 3600
    # turn 2: mine jack B5 left 2, at 6h; jill's time now runs to 12h
    assert table.events(2) == [{"type": "mine", "player": "jack", "cell": "B5", "left": 2}]
    assert steps[2] == 6 * 3600
    # turn 3: jill timed out at 12h; turn 4: jack timed out at 18h
    assert table.turn(3)["orders"] == [{"player": "jill", **timeout}]
    assert table.turn(4)["orders"] == [{"player": "jack", **timeout}]
    assert (steps[3], steps[4]) == (12 * 3600, 18 * 3600)
    # game.turn 5, current jill; options {"move_time": "6h", "seed": "42"}
    assert (record["game"]["turn"], record["game"]["current"]) == (5, "jill")
    assert record["game"]["options"] == {"move_time": "6h", "seed": "42"}
    assert table.deadlines == {"move:5": 24 * 3600}
