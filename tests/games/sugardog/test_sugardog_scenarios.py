"""Sugar Dog through the real host: every script of tests/games/sugardog/scripts/ played with
the script adapter, a database and the host's own posts (``run_script_text``), and every
``# expect:`` fact of each script asserted on the record it writes and the messages it
sends. Then what must never leak: the public posts of two games whose hidden facts
differ where nothing public tells them apart are byte-identical, and no public post
names a cell that nothing public announced (shared/contracts/sugardog.md, "What is
public")."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "tests" / "games" / "sugardog" / "scripts"
CONTRACT = ROOT.parent / "shared" / "contracts" / "sugardog.md"

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]
Played = tuple[list[str], Record]

DIRECTIONS = ("up", "down", "left", "right")


# --------------------------------------------------------------------------- helpers


_PLAYED: dict[str, Played] = {}
"""Each script is played once per session: a run is deterministic (same script, same
messages, same record), and several tests read the same run."""


@pytest.fixture
def play(run_script_text: Run) -> Callable[[str], Played]:
    def run(name: str) -> Played:
        if name not in _PLAYED:
            _PLAYED[name] = run_script_text((SCRIPTS / f"{name}.txt").read_text(encoding="utf-8"))
        return _PLAYED[name]

    return run


def turn(record: Record, number: int) -> Record:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return dict(found)


def events(record: Record, number: int) -> list[Record]:
    return list(turn(record, number)["events"])


def order(record: Record, number: int) -> Record:
    (found,) = turn(record, number)["orders"]
    return dict(found)


def player(record: Record, name: str) -> Record:
    (found,) = [p for p in record["players"] if p["name"] == name]
    return dict(found)


def public(transcript: list[str]) -> list[str]:
    return [
        line.removeprefix("-> public: ") for line in transcript if line.startswith("-> public: ")
    ]


def dms(transcript: list[str], name: str) -> list[str]:
    prefix = f"-> dm {name}: "
    return [line.removeprefix(prefix) for line in transcript if line.startswith(prefix)]


def turn_post(transcript: list[str], number: int) -> str:
    """The one public post of a turn (two would fail here: nothing is said twice)."""
    (found,) = [line for line in public(transcript) if f", turn {number}: " in line]
    return found


def contact(name: str, cell: str, torpedo: int | None = None) -> Record:
    if torpedo is None:
        return {"type": "contact", "player": name, "unit": "submarine", "cell": cell}
    return {"type": "contact", "player": name, "unit": "torpedo", "torpedo": torpedo, "cell": cell}


def silent(name: str, cell: str) -> Record:
    return {"type": "silent", "player": name, "cell": cell}


def launched(name: str, number: int, cell: str, direction: str) -> Record:
    return {
        "type": "launched",
        "player": name,
        "torpedo": number,
        "cell": cell,
        "direction": direction,
    }


def seen(name: str, unit: str, cell: str, distance: int, torpedo: int | None = None) -> Record:
    item: Record = {"player": name, "unit": unit}
    if torpedo is not None:
        item["torpedo"] = torpedo
    return {**item, "cell": cell, "distance": distance}


def sub(name: str) -> Record:
    return {"player": name, "unit": "submarine"}


def timed_out(name: str) -> Record:
    return {"player": name, "action": "silent", "direction": None, "timeout": True}


def assert_each_turn_posted_once(transcript: list[str], record: Record) -> None:
    """One public post per resolved turn, and no sentence of it said a second time."""
    for entry in record["turns"]:
        if entry["orders"] and entry["orders"][0]["action"] == "leave":
            continue  # the host's own post says who left (lobby/admin)
        if not entry["orders"]:
            continue  # the host's end
        post = turn_post(transcript, entry["number"])
        sentences = [s for s in re.split(r"(?<=\.) ", post) if s]
        repeated = {s for s in sentences if sentences.count(s) > 1 and not s.startswith("Contact")}
        assert not repeated, post
    for name in {p["name"] for p in record["players"]}:
        for text in dms(transcript, name):
            lines = [line for line in text.split("\\n") if line.startswith("You ")]
            assert len(lines) == len(set(lines)), text


# --------------------------------------------------------------------------- the examples


def test_first_game_gives_the_contracts_record_example_through_the_host(
    play: Callable[[str], Played],
) -> None:
    transcript, record = play("sugardog-first-game")
    if CONTRACT.exists():
        text = CONTRACT.read_text(encoding="utf-8")
        block = re.search(r"## Record: `sugardog-record/1`\s*```json\n(.*?)```", text, re.DOTALL)
        assert block is not None
        example = json.loads(block.group(1))
        for key in ("format", "game", "players", "start", "turns"):
            assert record[key] == example[key], key
        assert record.keys() - {"replay"} == example.keys()  # (replay: the journal, #31)
        for number, expected in enumerate(example["turns"], start=1):
            assert turn(record, number) == expected
    # expect: start {"order": ["nemo", "ahab"], "cells": {"ahab": "B2", "nemo": "E5"}, "random": []}
    assert record["start"] == {
        "order": ["nemo", "ahab"],
        "cells": {"ahab": "B2", "nemo": "E5"},
        "random": [],
    }
    # expect: turn 1: mine nemo E5 left 2
    assert events(record, 1) == [{"type": "mine", "player": "nemo", "cell": "E5", "left": 2}]
    # expect: turn 2: launched ahab torpedo 1 from B2 right; contacts C2, D2
    assert events(record, 2) == [
        launched("ahab", 1, "B2", "right"),
        contact("ahab", "C2", 1),
        contact("ahab", "D2", 1),
    ]
    # expect: turn 3: silent nemo D5 (told only to nemo)
    assert events(record, 3) == [silent("nemo", "D5")]
    assert "D5" not in turn_post(transcript, 3)
    assert any("You run silent at D5." in dm for dm in dms(transcript, "nemo"))
    assert not any(
        "D5" in dm for dm in dms(transcript, "ahab") if dm.startswith("#sugardog game 1, turn 4:")
    )
    # expect: turn 4: the timeout, ahab's torpedo first: contacts E2, F2; silent ahab B2
    assert order(record, 4) == timed_out("ahab")
    assert events(record, 4) == [
        contact("ahab", "E2", 1),
        contact("ahab", "F2", 1),
        silent("ahab", "B2"),
    ]
    assert turn_post(transcript, 4).startswith(
        "#sugardog game 1, turn 4: ahab: time ran out (a silent stay). Contact at E2"
    )
    # expect: turn 5 report: D5 (0), E5 (1), B2 (5), F2 (5)
    (ping,) = events(record, 5)
    assert ping["report"] == [
        seen("nemo", "submarine", "D5", 0),
        seen("nemo", "mine", "E5", 1),
        seen("ahab", "submarine", "B2", 5),
        seen("ahab", "torpedo", "F2", 5, torpedo=1),
    ]
    # expect: turn 6: lost ahab torpedo 1; contacts B3, B4
    assert events(record, 6) == [
        {"type": "lost", "player": "ahab", "torpedo": 1},
        contact("ahab", "B3"),
        contact("ahab", "B4"),
    ]
    assert "lost" not in turn_post(transcript, 6)
    # expect: turn 7: launched nemo torpedo 1 from D5 left; contacts C5, B5
    assert events(record, 7)[0] == launched("nemo", 1, "D5", "left")
    # expect: turn 8: impact B5 destroying ahab's submarine and nemo's torpedo 1; nemo wins
    assert events(record, 8)[1:] == [
        {
            "type": "impact",
            "cell": "B5",
            "player": "ahab",
            "unit": "submarine",
            "destroyed": [sub("ahab"), {"player": "nemo", "unit": "torpedo", "torpedo": 1}],
        },
        {"type": "eliminated", "player": "ahab"},
        {"type": "finished", "winners": ["nemo"], "draw": False},
    ]
    final = turn_post(transcript, 8)
    assert final.endswith(
        "ahab's submarine is destroyed: ahab is out. nemo wins: the last submarine afloat."
    )
    assert final.count("wins") == 1
    assert public(transcript)[-1] == "#sugardog game 1: the replay of the whole hunt."
    assert_each_turn_posted_once(transcript, record)


def test_clock_setup_refusals_a_random_start_and_timeouts(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-clock")
    # the refusals: K2 off the board, a public starting cell, jack out of turn
    jack, jill = dms(transcript, "jack"), dms(transcript, "jill")
    assert "K2 is off the 6×6 board: send a cell from A1 to F6, e.g. `C4`" in jack
    assert "your starting cell is secret: send it by DM" in jill
    assert "it is jill's turn: wait for yours" in jack
    # expect: start.order ["jill", "jack"]; start.cells jack "B5"; start.random ["jill"]
    assert record["start"]["order"] == ["jill", "jack"]
    assert record["start"]["cells"]["jack"] == "B5"
    assert record["start"]["random"] == ["jill"]
    jill_cell = record["start"]["cells"]["jill"]
    assert any(f"your submarine starts at {jill_cell}." in dm for dm in jill)
    assert not any(jill_cell in line for line in public(transcript))
    # expect: turn 1: jill timed out at 6h
    assert order(record, 1) == timed_out("jill")
    assert "jack's move (turn 2) closes 2026-01-01 12:00 UTC." in turn_post(transcript, 1)
    # expect: turn 2: mine jack B5 left 2, at 6h; jill's time now runs to 12h
    assert events(record, 2) == [{"type": "mine", "player": "jack", "cell": "B5", "left": 2}]
    assert "jill's move (turn 3) closes 2026-01-01 12:00 UTC." in turn_post(transcript, 2)
    # expect: turn 3: jill timed out at 12h; turn 4: jack timed out at 18h
    assert order(record, 3) == timed_out("jill") and order(record, 4) == timed_out("jack")
    assert "jill's move (turn 5) closes 2026-01-02 00:00 UTC." in turn_post(transcript, 4)
    # expect: game.turn 5, current jill; options {"move_time": "6h", "seed": "42"}
    assert record["game"]["turn"] == 5 and record["game"]["current"] == "jill"
    assert record["game"]["options"] == {"move_time": "6h", "seed": "42"}
    assert_each_turn_posted_once(transcript, record)


def test_sonar_silent_running_and_active_sonar_with_three(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-sonar")
    # expect: start.order ["spock", "uhura", "kirk"]; board 8x8
    assert record["start"]["order"] == ["spock", "uhura", "kirk"]
    assert (record["game"]["rows"], record["game"]["cols"]) == (8, 8)
    assert record["game"]["options"] == {"move_time": "1d"}
    # expect: turn 3: launched kirk torpedo 1 from E5 left; contacts D5, C5
    assert events(record, 3) == [
        launched("kirk", 1, "E5", "left"),
        contact("kirk", "D5", 1),
        contact("kirk", "C5", 1),
    ]
    # expect: turn 5: contacts F3, E3 of uhura's submarine
    assert events(record, 5) == [contact("uhura", "F3"), contact("uhura", "E3")]
    # expect: turn 6: kirk's torpedo first (B5, A5), then silent kirk E5
    assert events(record, 6) == [
        contact("kirk", "B5", 1),
        contact("kirk", "A5", 1),
        silent("kirk", "E5"),
    ]
    # expect: turn 7 report: B6 (0), B7 (1), A5 (2), E5 (4), E3 (6)
    (ping,) = events(record, 7)
    assert ping["report"] == [
        seen("spock", "submarine", "B6", 0),
        seen("spock", "mine", "B7", 1),
        seen("kirk", "torpedo", "A5", 2, torpedo=1),
        seen("kirk", "submarine", "E5", 4),
        seen("uhura", "submarine", "E3", 6),
    ]
    # expect: turn 8: contacts E4, E5 of uhura's submarine, no impact (kirk ran silent)
    assert events(record, 8) == [contact("uhura", "E4"), contact("uhura", "E5")]
    # expect: turn 9: lost kirk torpedo 1, then E5 (0), E5 (0), B6 (4), B7 (5)
    lost, ping = events(record, 9)
    assert lost == {"type": "lost", "player": "kirk", "torpedo": 1}
    assert ping["report"] == [
        seen("kirk", "submarine", "E5", 0),
        seen("uhura", "submarine", "E5", 0),
        seen("spock", "submarine", "B6", 4),
        seen("spock", "mine", "B7", 5),
    ]
    # expect: all three alive; kirk and uhura both in E5, neither silent; current spock
    assert [p["status"] for p in record["players"]] == ["alive"] * 3
    assert player(record, "kirk")["cell"] == player(record, "uhura")["cell"] == "E5"
    assert not player(record, "kirk")["silent"] and not player(record, "uhura")["silent"]
    assert record["game"]["current"] == "spock"
    assert_each_turn_posted_once(transcript, record)


# --------------------------------------------------------------------------- our scripts


def test_the_originals_example_command_log_and_map(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-original-log")
    assert record["start"]["order"] == ["ahab", "nemo"]
    assert events(record, 1) == [silent("ahab", "D4")]
    assert events(record, 3) == [{"type": "mine", "player": "ahab", "cell": "D4", "left": 2}]
    assert events(record, 4) == [contact("nemo", "E1"), contact("nemo", "F1")]
    assert events(record, 5) == [silent("ahab", "E4")]
    assert events(record, 7) == [silent("ahab", "F4")]
    assert events(record, 9) == [
        launched("ahab", 1, "F4", "down"),
        contact("ahab", "F3", 1),
        contact("ahab", "F2", 1),
    ]
    ahab = dms(transcript, "ahab")
    logs = [dm for dm in ahab if dm.startswith("Your log, ahab")]
    assert len(logs) == 2 and logs[0] == logs[1]  # by DM, and asked in public: by DM too
    log = logs[0].split("\\n")
    own = [line for line in log if line.startswith("Turn ") and ", you: " in line]
    assert [line.split(" → ")[1].split(",")[0] for line in own] == ["D4", "D4", "E4", "F4", "F4"]
    assert "2 mines left" in own[1]
    assert "Contact at F1: nemo's submarine." in " ".join(log)
    # the map the original draws: s in F4, m in D4, t in F2, c in F1
    board = ahab[-1].split("\\n")
    assert board[-1].startswith("Key: ")  # (issue 27: a text board has its key)
    assert board[-15:-1] == [
        "  +---+---+---+---+---+---+",
        "6 |   |   |   |   |   |   |",
        "  +---+---+---+---+---+---+",
        "5 |   |   |   |   |   |   |",
        "  +---+---+---+---+---+---+",
        "4 |   |   |   | m |   | s |",
        "  +---+---+---+---+---+---+",
        "3 |   |   |   |   |   |   |",
        "  +---+---+---+---+---+---+",
        "2 |   |   |   |   |   | t |",
        "  +---+---+---+---+---+---+",
        "1 |   |   |   |   |   | c |",
        "  +---+---+---+---+---+---+",
        "    A   B   C   D   E   F",
    ]
    assert not any(line.startswith("Your log") for line in public(transcript))
    assert record["game"]["turn"] == 10 and record["game"]["current"] == "nemo"
    ahab_now = player(record, "ahab")
    assert (ahab_now["cell"], ahab_now["silent"], ahab_now["mines"], ahab_now["mines_left"]) == (
        "F4",
        False,
        ["D4"],
        2,
    )
    assert ahab_now["torpedoes"] == [{"torpedo": 1, "cell": "F2", "direction": "down"}]
    assert_each_turn_posted_once(transcript, record)


def test_options_refused_open_no_game_and_the_record_keeps_them_canonical(
    play: Callable[[str], Played],
) -> None:
    transcript, record = play("sugardog-options")
    host = dms(transcript, "host")
    # expect: refused, naming the keys move_time and seed
    assert "unknown option 'depth': the options are move_time, max_players, seed" in host
    # expect: refused: at least 1m
    assert any(text.startswith("move_time: at least 1m") for text in host)
    assert any(text.startswith("move_time: expected a duration") for text in host)
    # expect: refused: a whole number
    assert any(text.startswith("seed: expected a whole number") for text in host)
    assert sum("is open" in line for line in public(transcript)) == 1
    # expect: options {"move_time": "1h30m", "seed": "7"}
    assert record["game"]["options"] == {"move_time": "1h30m", "seed": "7"}
    # expect: start.order ["ahab", "nemo"]; start.random ["ahab", "nemo"]
    assert record["start"]["order"] == ["ahab", "nemo"]
    assert record["start"]["random"] == ["ahab", "nemo"]
    for name, cell in record["start"]["cells"].items():
        assert any(f"starts at {cell}." in dm for dm in dms(transcript, name))
        other = "nemo" if name == "ahab" else "ahab"
        assert not any(f"starts at {cell}." in dm for dm in dms(transcript, other))
    # expect: turn 1: ahab timed out at 1h30m; turn 2: nemo at 3h; turn 3, current ahab
    assert order(record, 1) == timed_out("ahab") and order(record, 2) == timed_out("nemo")
    assert "ahab's move (turn 3) closes 2026-01-01 04:30 UTC." in turn_post(transcript, 2)
    assert record["game"]["turn"] == 3 and record["game"]["current"] == "ahab"


def test_the_seed_draws_the_same_random_cells_every_time(run_script_text: Run) -> None:
    text = (SCRIPTS / "sugardog-options.txt").read_text(encoding="utf-8")
    first, second = run_script_text(text), run_script_text(text)
    assert first == second
    other = run_script_text(text.replace("seed=7", "seed=8"))
    assert other[1]["start"]["cells"] != first[1]["start"]["cells"]


def test_setup_cells_in_every_form_and_the_board_grows_with_the_captains(
    play: Callable[[str], Played],
) -> None:
    transcript, record = play("sugardog-setup")
    host, ahab, nemo, kirk = (dms(transcript, n) for n in ("host", "ahab", "nemo", "kirk"))
    # expect: refused: two captains are needed
    assert "starting needs at least two captains; 1 has joined" in host
    # expect: refused: "H8 is off the 6×6 board"
    assert any(text.startswith("H8 is off the 6×6 board") for text in nemo)
    # expect: refused: kirk has not joined
    assert kirk[0] == "you are not in this game: send `join` to play"
    # expect: refused in public; already in; spock has not joined
    assert "your starting cell is secret: send it by DM" in ahab
    assert "you are already in this game" in ahab
    assert any("spock" in text for text in host)
    # expect: board 8x8; start.order ["kirk", "ahab", "nemo"]
    assert (record["game"]["rows"], record["game"]["cols"]) == (8, 8)
    assert record["start"]["order"] == ["kirk", "ahab", "nemo"]
    # expect: start.cells ahab "B3", nemo "H8"; kirk at random
    cells = record["start"]["cells"]
    assert (cells["ahab"], cells["nemo"]) == ("B3", "H8")
    assert record["start"]["random"] == ["kirk"]
    assert [p["name"] for p in record["players"]] == ["ahab", "nemo", "kirk"]
    # expect: refused: the hunt has begun
    assert kirk[-1] == "the hunt has begun, so joining is closed in this game"
    assert not any("B3" in line or "H8" in line for line in public(transcript))


def test_refusals_in_battle_change_nothing(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-refusals")
    ahab, nemo = dms(transcript, "ahab"), dms(transcript, "nemo")
    assert dms(transcript, "spock") == ["you are not in this game: send `join` to play"]
    assert nemo[nemo.index("it is ahab's turn: wait for yours") - 1].startswith("#sugardog game 1")
    refusals = ahab[
        ahab.index("orders are private: DM me your order, e.g. `silent up` (nothing was done)") :
    ]
    assert refusals[1].startswith("that is not an order: on your turn send `silent`")
    assert refusals[2:4] == ["that leaves the board: you are at A1"] * 2
    assert (
        refusals[4] == "a cruise is exactly two steps: send two directions, e.g. `cruise up left`"
    )
    assert refusals[5].startswith("a torpedo needs one direction")
    assert refusals[6].startswith("the hunt has begun and your submarine is at sea")
    # expect: no turn resolved by any of these: turn 1, ahab still to move
    assert refusals[7] == "Turn 1: mine."
    assert not any("ahab: silent" in line for line in public(transcript))
    assert order(record, 1) == {"player": "ahab", "action": "mine", "timeout": False}
    # expect: refused: no mines left; ahab has mines ["A1", "A1", "A1"], mines_left 0
    assert any(text.startswith("you have no mines left") for text in ahab)
    assert player(record, "ahab")["mines"] == ["A1", "A1", "A1"]
    assert player(record, "ahab")["mines_left"] == 0
    # expect: turn 7: ahab's submarine A1 (0), his three mines A1 (0), nemo's submarine F6 (10)
    (ping,) = events(record, 7)
    assert ping["report"] == [
        seen("ahab", "submarine", "A1", 0),
        *[seen("ahab", "mine", "A1", 0)] * 3,
        seen("nemo", "submarine", "F6", 10),
    ]
    assert [t["number"] for t in record["turns"]] == list(range(1, 8))
    assert_each_turn_posted_once(transcript, record)


def test_a_draw_when_the_last_two_go_down_together(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-draw")
    assert events(record, 1) == [
        contact("ahab", "B3"),
        contact("ahab", "B4"),
        {
            "type": "impact",
            "cell": "B4",
            "player": "ahab",
            "unit": "submarine",
            "destroyed": [sub("ahab"), sub("nemo")],
        },
        {"type": "eliminated", "player": "ahab"},
        {"type": "eliminated", "player": "nemo"},
        {"type": "finished", "winners": ["ahab", "nemo"], "draw": True},
    ]
    assert (record["game"]["winners"], record["game"]["draw"]) == (["ahab", "nemo"], True)
    assert turn_post(transcript, 1).endswith(
        "Draw between ahab and nemo: their submarines went down together."
    )
    # expect: refused after the end (the host finds no game running for nemo)
    assert len(record["turns"]) == 1
    assert all("not in a game" in text for text in dms(transcript, "nemo")[-2:])


def test_collisions_silence_torpedoes_and_an_own_mine(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-collisions")
    assert events(record, 1) == [{"type": "mine", "player": "ahab", "cell": "C3", "left": 2}]
    assert events(record, 3) == [silent("kirk", "E5")]
    # expect: turn 4: contacts C4, C5; nemo in C5 runs silent: no impact
    assert events(record, 4) == [contact("ahab", "C4"), contact("ahab", "C5")]
    # expect: turn 5: the torpedo hits kirk, silent all the same
    assert events(record, 5) == [
        launched("nemo", 1, "C5", "right"),
        contact("nemo", "D5", 1),
        contact("nemo", "E5", 1),
        {
            "type": "impact",
            "cell": "E5",
            "player": "nemo",
            "unit": "torpedo",
            "torpedo": 1,
            "destroyed": [sub("kirk"), {"player": "nemo", "unit": "torpedo", "torpedo": 1}],
        },
        {"type": "eliminated", "player": "kirk"},
    ]
    # expect: turn 6 is ahab's (kirk skipped): his own mine destroys him; nemo wins
    assert turn(record, 6)["player"] == "ahab"
    assert events(record, 6)[2:] == [
        {
            "type": "impact",
            "cell": "C3",
            "player": "ahab",
            "unit": "submarine",
            "destroyed": [sub("ahab"), {"player": "ahab", "unit": "mine"}],
        },
        {"type": "eliminated", "player": "ahab"},
        {"type": "finished", "winners": ["nemo"], "draw": False},
    ]
    assert "ahab's move (turn 6)" in turn_post(transcript, 5)
    assert [(p["name"], p["status"], p["cell"]) for p in record["players"]] == [
        ("ahab", "eliminated", "C3"),
        ("nemo", "alive", "C5"),
        ("kirk", "eliminated", "E5"),
    ]
    assert (player(record, "ahab")["mines"], player(record, "ahab")["mines_left"]) == ([], 2)
    assert_each_turn_posted_once(transcript, record)


def test_torpedoes_run_oldest_first_meet_and_are_lost(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-torpedoes")
    assert events(record, 5) == [silent("ahab", "A1")]  # onto his mine, silently
    assert events(record, 6) == [
        launched("nemo", 1, "E6", "down"),
        contact("nemo", "E5", 1),
        contact("nemo", "E4", 1),
    ]
    assert events(record, 8) == [
        contact("nemo", "E3", 1),
        contact("nemo", "E2", 1),
        launched("nemo", 2, "E6", "left"),
        contact("nemo", "D6", 2),
        contact("nemo", "C6", 2),
    ]
    assert events(record, 9) == [
        contact("ahab", "D1", 1),
        contact("ahab", "E1", 1),
        silent("ahab", "A1"),
    ]
    torpedo_1 = {"player": "nemo", "unit": "torpedo", "torpedo": 1}
    assert events(record, 10)[:5] == [
        contact("nemo", "E1", 1),
        {
            "type": "impact",
            "cell": "E1",
            **torpedo_1,
            "destroyed": [{"player": "ahab", "unit": "torpedo", "torpedo": 1}, torpedo_1],
        },
        contact("nemo", "B6", 2),
        contact("nemo", "A6", 2),
        {
            "type": "ping",
            "player": "nemo",
            "cell": "E6",
            "report": [
                seen("nemo", "submarine", "E6", 0),
                seen("nemo", "torpedo", "A6", 4, torpedo=2),
                seen("ahab", "submarine", "A1", 9),
                seen("ahab", "mine", "A1", 9),
            ],
        },
    ]
    assert events(record, 12) == [
        {"type": "lost", "player": "nemo", "torpedo": 2},
        contact("nemo", "E5"),
        contact("nemo", "E4"),
    ]
    assert "lost" not in turn_post(transcript, 12)
    assert any("Your torpedo 2 left the board: it is lost." in dm for dm in dms(transcript, "nemo"))
    # ahab hears of his own torpedo 2 only (lost in turn 15), never of nemo's
    told = [dm for dm in dms(transcript, "ahab") if "torpedo 2 left the board" in dm]
    assert len(told) == 1 and told[0].startswith("#sugardog game 1, turn 16:")
    assert events(record, 15) == [
        contact("ahab", "A6", 2),
        {"type": "lost", "player": "ahab", "torpedo": 2},
        {"type": "mine", "player": "ahab", "cell": "A1", "left": 1},
    ]
    ahab = player(record, "ahab")
    assert (ahab["mines"], ahab["mines_left"], ahab["torpedoes"]) == (["A1", "A1"], 1, [])
    assert player(record, "nemo")["torpedoes"] == []
    assert (record["game"]["turn"], record["game"]["current"]) == (16, "nemo")
    assert_each_turn_posted_once(transcript, record)


def test_leave_and_kick_in_battle(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-leave-and-kick")
    # expect: turn 2: nemo's leave; kirk to move in turn 3
    assert turn(record, 2) == {
        "number": 2,
        "player": "nemo",
        "orders": [{"player": "nemo", "action": "leave"}],
        "events": [{"type": "left", "player": "nemo"}],
    }
    assert player(record, "nemo")["status"] == "left"
    assert turn(record, 3)["player"] == "kirk"
    left = [line for line in public(transcript) if line.startswith("nemo left the game.")]
    assert left == [
        "nemo left the game. nemo's submarine is gone from the water; their mines and torpedoes stay."
    ]
    # expect: turn 5: kirk's leave; finished, winners ["ahab"]
    assert turn(record, 5)["orders"] == [{"player": "kirk", "action": "leave"}]
    assert events(record, 5) == [
        {"type": "left", "player": "kirk"},
        {"type": "finished", "winners": ["ahab"], "draw": False},
    ]
    assert (record["game"]["phase"], record["game"]["winners"]) == ("finished", ["ahab"])
    kicked = [line for line in public(transcript) if line.startswith("kirk was removed")]
    assert len(kicked) == 1 and kicked[0].endswith("ahab wins: the last submarine afloat.")
    assert not any(cell in " ".join(public(transcript)) for cell in ("B2", "G7", "D4"))


def test_the_captain_whose_turn_begins_is_told_so(play: Callable[[str], Played]) -> None:
    """Turns are long (a day by default): like Sonar, Sugar Dog tells the captain to move
    that it is their turn: at the start, after each turn, after a timeout and after a
    leave that passes the turn; nobody else, and nobody once the game is over."""
    yours = re.compile(r"Turn (\d+) is yours: DM me one order, e\.g\. `silent`")

    def told(transcript: list[str]) -> dict[int, str]:
        found = {}
        for line in transcript:
            if line.startswith("-> dm ") and (match := yours.search(line)):
                name = line.removeprefix("-> dm ").split(":", 1)[0]
                assert int(match.group(1)) not in found, "told twice"
                found[int(match.group(1))] = name
        return found

    transcript, record = play("sugardog-first-game")
    movers = {t["number"]: t["player"] for t in record["turns"]}
    game = record["game"]
    now = {game["turn"]: game["current"]} if game["phase"] == "battle" else {}
    assert told(transcript) == {**movers, **now}
    transcript, record = play("sugardog-leave-and-kick")
    # nemo leaves on his own turn: kirk is told turn 3 is his; once ahab wins, nobody
    assert told(transcript) == {1: "ahab", 2: "nemo", 3: "kirk", 4: "ahab", 5: "kirk"}
    assert record["game"]["phase"] == "finished"


def test_the_hosts_end_is_a_draw_between_the_submarines_afloat(
    play: Callable[[str], Played],
) -> None:
    transcript, record = play("sugardog-end")
    assert turn(record, 2) == {
        "number": 2,
        "player": "nemo",
        "orders": [],
        "events": [{"type": "finished", "winners": ["ahab", "kirk", "nemo"], "draw": True}],
    }
    assert (record["game"]["phase"], record["game"]["draw"]) == ("finished", True)
    (ended,) = [line for line in public(transcript) if line.startswith("The host ended game 1.")]
    assert (
        ended
        == "The host ended game 1. No winner: a draw between ahab, kirk and nemo, still afloat."
    )
    assert not any(cell in " ".join(public(transcript)) for cell in ("B2", "G7", "D4"))


def test_pause_extend_and_resume_act_on_the_movers_clock(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-pause")
    posts = public(transcript)
    assert "Game 1 paused with 1 h left on the clock. `resume` to go on." in posts
    # expect: refused: the game is paused
    assert "the game is paused: orders wait until its host resumes it" in dms(transcript, "ahab")
    # expect: ahab's move (turn 1) closes at 07:30; nothing fired while paused
    assert "Game 1 resumed: ahab's move (turn 1) closes 2026-01-01 07:30 UTC." in posts
    assert order(record, 1) == {
        "player": "ahab",
        "action": "silent",
        "direction": None,
        "timeout": False,
    }
    # expect: nemo's clock runs 2h from 07:29; turn 2 timed out then
    assert "nemo's move (turn 2) closes 2026-01-01 09:29 UTC." in turn_post(transcript, 1)
    assert order(record, 2) == timed_out("nemo")
    assert "ahab's move (turn 3) closes 2026-01-01 11:29 UTC." in turn_post(transcript, 2)


# --------------------------------------------------------------------------- the format

UNIT_KEYS = ({"player", "unit"}, {"player", "unit", "torpedo"})
EVENT_KEYS = {
    "contact": ({"player", "unit", "cell"}, {"player", "unit", "torpedo", "cell"}),
    "impact": (
        {"cell", "player", "unit", "destroyed"},
        {"cell", "player", "unit", "torpedo", "destroyed"},
    ),
    "ping": ({"player", "cell", "report"},),
    "silent": ({"player", "cell"},),
    "launched": ({"player", "torpedo", "cell", "direction"},),
    "mine": ({"player", "cell", "left"},),
    "lost": ({"player", "torpedo"},),
    "eliminated": ({"player"},),
    "left": ({"player"},),
    "finished": ({"winners", "draw"},),
}
ORDER_KEYS = {
    "silent": {"player", "action", "direction", "timeout"},
    "cruise": {"player", "action", "directions", "timeout"},
    "ping": {"player", "action", "timeout"},
    "torpedo": {"player", "action", "direction", "timeout"},
    "mine": {"player", "action", "timeout"},
    "leave": {"player", "action"},
}


@pytest.mark.parametrize("name", sorted(path.stem for path in SCRIPTS.glob("*.txt")))
def test_every_record_is_in_the_contracts_format_key_by_key(
    play: Callable[[str], Played], name: str
) -> None:
    _, record = play(name)
    # The contract's keys, and the host's own addition: the journal that replays it (#31).
    assert list(record) == ["format", "game", "players", "start", "turns", "replay"]
    assert record["format"] == "sugardog-record/1"
    game = record["game"]
    assert list(game) == [
        "kind", "rows", "cols", "options", "phase", "turn", "current", "winners", "draw",
    ]  # fmt: skip
    assert game["kind"] == "sugardog" and game["rows"] == game["cols"]
    assert game["rows"] == 2 * len(record["players"]) + 2 or game["phase"] == "setup"
    assert set(game["options"]) in ({"move_time"}, {"move_time", "seed"})
    assert (game["current"] is None) == (game["phase"] != "battle")
    names = [p["name"] for p in record["players"]]
    for captain in record["players"]:
        assert list(captain) == [
            "name", "status", "cell", "silent", "mines_left", "mines", "torpedoes",
        ]  # fmt: skip
        assert captain["status"] in ("alive", "eliminated", "left")
        assert captain["mines"] == sorted(captain["mines"], key=lambda c: (c[0], int(c[1:])))
        assert len(captain["mines"]) <= 3 - captain["mines_left"]
        for torpedo in captain["torpedoes"]:
            assert list(torpedo) == ["torpedo", "cell", "direction"]
    start = record["start"]
    assert list(start) == ["order", "cells", "random"]
    assert sorted(start["order"]) == sorted(names) == sorted(start["cells"])
    assert start["random"] == sorted(start["random"])
    assert [t["number"] for t in record["turns"]] == list(range(1, len(record["turns"]) + 1))
    for entry in record["turns"]:
        assert list(entry) == ["number", "player", "orders", "events"]
        for given in entry["orders"]:
            assert given["player"] == entry["player"]
            assert set(given) == ORDER_KEYS[given["action"]]
        for event in entry["events"]:
            rest = set(event) - {"type"}
            assert rest in EVENT_KEYS[event["type"]], event
            for unit in event.get("destroyed", []):
                assert set(unit) in UNIT_KEYS
            for item in event.get("report", []):
                assert set(item) - {"cell", "distance"} in UNIT_KEYS
    if game["phase"] == "finished":
        assert record["turns"][-1]["events"][-1] == {
            "type": "finished",
            "winners": game["winners"],
            "draw": game["draw"],
        }


# --------------------------------------------------------------------------- nothing hidden


CELL = re.compile(r"\b([A-Z]{1,2})([1-9][0-9]?)\b")
EXAMPLE = re.compile(r"`[^`]*`")


def _announced_cells(record: Record) -> set[str]:
    """Every cell a public event names: contacts, impacts, ping reports."""
    cells: set[str] = set()
    for entry in record["turns"]:
        for event in entry["events"]:
            if event["type"] in ("contact", "impact", "ping"):
                cells.add(event["cell"])
            for item in event.get("report", []):
                cells.add(item["cell"])
    return cells


SCRIPT_NAMES = sorted(path.stem for path in SCRIPTS.glob("*.txt"))


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_no_public_post_names_a_cell_nothing_public_announced(
    play: Callable[[str], Played], name: str
) -> None:
    """Starting cells, silent moves, mines and launches are hidden: a public post may
    name only the cells that contacts, impacts and pings announced."""
    transcript, record = play(name)
    announced = _announced_cells(record)
    named: set[str] = set()
    for line in public(transcript):
        prose = EXAMPLE.sub("", line)  # `C4` in backticks is an example to type
        in_line = {"".join(match) for match in CELL.findall(prose)}
        assert in_line <= announced, (line, in_line - announced)
        named |= in_line
    hidden = set(record["start"].get("cells", {}).values())
    for entry in record["turns"]:
        for event in entry["events"]:
            if event["type"] in ("silent", "mine", "launched"):
                hidden.add(event["cell"])
    assert hidden  # (every script has something hidden to keep)
    assert not (hidden - announced) & named


OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _quiet_game(starts: tuple[str, str], moves: list[str]) -> str:
    """ahab and nemo take turns with quiet actions only (silent running, mines, time
    running out); after each turn its mover also sends an order out of turn (refused)."""
    lines = ["@game sugardog move_time=1h", "ahab dm: join", "nemo dm: join"]
    lines += [f"ahab dm: {starts[0]}", f"nemo dm: {starts[1]}", "@start"]
    for number, move in enumerate(moves):
        mover = "ahab" if number % 2 == 0 else "nemo"
        lines.append("@close" if move == "timeout" else f"{mover} dm: {move}")
        lines.append(f"{mover} dm: ping")
    return "\n".join(lines) + "\n"


def _apart(seed: int) -> tuple[str, str]:
    """Two games apart only in ahab's hidden facts: his starting cell, which way he runs
    silent, where he lays mines; nemo plays the same in both. ahab starts in the inner
    cells and each silent step of his is undone by his next one, so none is refused."""
    rng = random.Random(seed)
    inner = [f"{column}{row}" for column in "BCDE" for row in range(2, 6)]
    nemo_start = rng.choice(inner)
    kinds = [rng.choice(["silent", "mine", "timeout", "step"]) for _ in range(8)]
    games = []
    for ahab_start in rng.sample(inner, 2):
        away: str | None = None
        moves = []
        for number, kind in enumerate(kinds):
            if number % 2 == 1 or kind != "step":
                moves.append("silent" if kind == "step" else kind)
            elif away is None:
                away = rng.choice(DIRECTIONS)
                moves.append(f"silent {away}")
            else:
                moves.append(f"silent {OPPOSITE[away]}")
                away = None
        games.append(_quiet_game((ahab_start, nemo_start), moves))
    return games[0], games[1]


@pytest.mark.parametrize("seed", range(4))
def test_two_games_apart_only_in_hidden_facts_post_the_same_bytes(
    run_script_text: Run, seed: int
) -> None:
    first_text, second_text = _apart(seed)
    first, first_record = run_script_text(first_text)
    second, second_record = run_script_text(second_text)
    assert first_record["start"]["cells"]["ahab"] != second_record["start"]["cells"]["ahab"]
    assert len(first_record["turns"]) == len(second_record["turns"]) == 8
    assert public(first) == public(second)
    # nemo is told nothing of ahab's hidden facts: his DMs are the same bytes too
    assert dms(first, "nemo") == dms(second, "nemo")
    assert dms(first, "ahab") != dms(second, "ahab")  # (the games do differ)


def test_help_rules_status_and_board_in_sugar_dogs_words(play: Callable[[str], Played]) -> None:
    transcript, record = play("sugardog-words")
    posts = public(transcript)
    assert any(line.startswith("Sugar Dog (#sugardog): a submarine duel") for line in posts)
    # players read Sugar Dog's own word for its running phase; its record keeps `battle`
    assert record["game"]["phase"] == "battle"
    (status,) = [line for line in posts if line.startswith("#sugardog game 1: duel, turn 2")]
    # expect: the status names turn 2, ahab to move and his deadline, and no hidden cell
    assert "Turn closes 2026-01-01 08:00 UTC (in 8 h)." in status
    assert "turn 2: ahab to move." in status
    assert "D4" not in status and "C2" not in status and " s |" not in status
    # expect: the rules in short, by DM
    assert dms(transcript, "ahab")[-1].startswith("Sugar Dog rules, in short:")
    # expect: nemo's own board: his submarine in D4
    board = dms(transcript, "nemo")[-1]
    assert "Your submarine: D4, silent." in board
    assert "4 |   |   |   | s |   |   |" in board.split("\\n")


def test_words_an_impact_an_8x8_board_and_a_day_to_move(play: Callable[[str], Played]) -> None:
    transcript, _ = play("sugardog-collisions")
    posts = public(transcript)
    assert any("Impact at E5, set off by nemo's torpedo 1. Destroyed:" in p for p in posts)
    assert not any("ran into it" in line for line in transcript)
    assert any("captains on an 8×8 board" in p for p in posts)
    assert not any(" a 8×8" in line or " 1 d " in line or " 1 d." in line for line in transcript)


def test_the_opening_says_a_day_in_words(run_script_text: Run) -> None:
    transcript, _ = run_script_text("@game sugardog\n")
    (opening,) = public(transcript)
    assert "Each captain has 1 day to move." in opening and "on a 6×6 board" in opening
