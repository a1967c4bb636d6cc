"""Sonar's scenario scripts (``tests/games/sonar/scripts/*.txt``) played through the real host.

Each script is played once with the ``run_script_text`` fixture (the real host, its
store, clock and script adapter; no images drawn) and every ``# expect:`` fact of it is
asserted on the record the host writes. Every record is also checked against the
contract (``shared/contracts/sonar.md``) key by key, and replayed from its options,
start and orders alone. The transcript is checked for what the public must never learn:
no public post names a cell of a sub that was neither fired at nor sunk, and two games
whose hidden fleets differ where nothing public tells them apart post the same bytes.

"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import GameError, RecordContext
from bot.games.sonar import SONAR, Fleet
from bot.games.sonar.board import Board, parse_cell, parse_facing
from bot.games.sonar.encounters import Course, ever_meet
from bot.games.sonar.fleet import Submarine, fleet_lengths
from bot.games.sonar.options import parse_options
from bot.games.sonar.record import build_record
from bot.games.sonar.resolution import Play, resolve_turn
from bot.games.sonar.state import Action, Captain, Phase, SonarState, Status

SCRIPTS = Path(__file__).resolve().parent / "scripts"
ALL_SCRIPTS = sorted(path.name for path in SCRIPTS.glob("*.txt"))

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]

_PLAYED: dict[str, tuple[list[str], Record]] = {}


@pytest.fixture
def play(run_script_text: Run) -> Callable[[str], tuple[list[str], Record]]:
    """Play a script by name through the host, once per test session: (transcript, record)."""

    def played(name: str) -> tuple[list[str], Record]:
        if name not in _PLAYED:
            _PLAYED[name] = run_script_text((SCRIPTS / name).read_text(encoding="utf-8"))
        transcript, record = _PLAYED[name]
        return list(transcript), record

    return played


# --- reading records and transcripts ----------------------------------------------


def turn(record: Record, number: int) -> Record:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return dict(found)


def player(record: Record, name: str) -> Record:
    (found,) = [p for p in record["players"] if p["name"] == name]
    return dict(found)


def state_of_game(record: Record) -> tuple[str, int, str | None]:
    game = record["game"]
    return game["phase"], game["turn"], game["to_move"]


def shot(shooter: str, cell: str, result: str, owner: str = "", sub: int = 0) -> Record:
    event: Record = {"type": "shot", "player": shooter, "cell": cell, "result": result}
    if owner:
        event.update(owner=owner, sub=sub)
    return event


def miss(shooter: str, cell: str, distance: int) -> Record:
    return {"type": "shot", "player": shooter, "cell": cell, "result": "miss", "distance": distance}


def shoot(shooter: str, *cells: str, at_random: bool = False, timeout: bool = False) -> Record:
    return {
        "player": shooter,
        "action": "shoot",
        "cells": list(cells),
        "random": at_random,
        "timeout": timeout,
    }


def public(transcript: list[str]) -> list[str]:
    return [
        line.removeprefix("-> public: ") for line in transcript if line.startswith("-> public: ")
    ]


def dms(transcript: list[str], name: str) -> list[str]:
    prefix = f"-> dm {name}: "
    return [line.removeprefix(prefix) for line in transcript if line.startswith(prefix)]


def course_of(sub: Record) -> Course:
    return Course(parse_cell(sub["cells"][0]), parse_facing(sub["facing"]), sub["length"])


def courses_at_start(record: Record, name: str) -> list[Course]:
    (found,) = [p for p in record["start"]["players"] if p["name"] == name]
    return [course_of(sub) for sub in found["subs"]]


def cells_at(record: Record, name: str, moves: int) -> set[str]:
    """The cells of ``name``'s subs after ``moves`` turns, as if none had sunk."""
    board = Board(record["game"]["rows"])
    return {str(c) for course in courses_at_start(record, name) for c in course.cells(board, moves)}


# --- the contract's record format, key by key ----------------------------------------

OPTION_KEYS = {"size", "ships", "one_shot", "hide_hits", "move_time", "on_timeout", "placement"}
FACINGS = {"l", "r", "ul", "ur", "dl", "dr"}
EVENT_KEYS = {
    "shot": {"player", "cell", "result"},
    "sunk": {"player", "sub", "cells"},
    "eliminated": {"player"},
    "left": {"player"},
    "finished": {"winners", "draw"},
}
_CELL_TEXT = re.compile(r"^[a-x]([1-9]|[1-3]\d|4[0-8])$")


def check_cells(board: Board, cells: list[str], facing: str, length: int) -> None:
    """Lower-case cells on the board, bow first, each a step behind the one before."""
    assert len(cells) == length
    assert all(_CELL_TEXT.match(cell) for cell in cells), cells
    parsed = [parse_cell(cell) for cell in cells]
    assert all(board.contains(cell) for cell in parsed), cells
    back = parse_facing(facing).opposite
    for ahead, behind in itertools.pairwise(parsed):
        assert board.step(ahead, back) == behind, cells


def check_format(record: Record) -> None:
    assert record["format"] == "sonar-record/1"
    game = record["game"]
    assert {
        "kind",
        "rows",
        "cols",
        "options",
        "phase",
        "turn",
        "to_move",
        "winners",
        "draw",
    } <= set(game)
    assert game["kind"] == "sonar"
    rows = game["rows"]
    assert game["cols"] == 2 * rows and game["options"]["size"] == str(rows)
    board = Board(rows)
    options = game["options"]
    assert set(options) - {"seed"} == OPTION_KEYS
    assert all(isinstance(value, str) for value in options.values())
    phase = game["phase"]
    assert phase in ("setup", "battle", "finished")
    names = [p["name"] for p in record["players"]]
    assert len(set(names)) == len(names)
    if phase == "setup":
        assert (game["turn"], game["to_move"], record["start"]) == (0, None, None)
        assert record["turns"] == []
    if phase == "battle":
        assert options["ships"].isdigit()
        assert game["turn"] == len(record["turns"]) + 1
        assert player(record, game["to_move"])["status"] == "alive"
    if phase == "finished":
        assert game["to_move"] is None
        if record["turns"]:
            assert game["turn"] == record["turns"][-1]["number"]
            assert record["turns"][-1]["events"][-1] == {
                "type": "finished",
                "winners": game["winners"],
                "draw": game["draw"],
            }
    assert game["winners"] == [name for name in names if name in game["winners"]]
    for captain in record["players"]:
        assert set(captain) >= {"name", "status", "subs"}
        assert captain["status"] in ("alive", "eliminated", "left")
        for sub in captain["subs"]:
            assert set(sub) >= {"id", "length", "facing", "cells", "hits", "sunk"}
            assert sub["facing"] in FACINGS
            check_cells(board, sub["cells"], sub["facing"], sub["length"])
            assert sub["hits"] == [cell for cell in sub["cells"] if cell in sub["hits"]]
            assert sub["sunk"] == (sub["hits"] == sub["cells"])
        if captain["status"] == "eliminated":
            assert captain["subs"] and all(sub["sunk"] for sub in captain["subs"])
    start = record["start"]
    if start is not None:
        ships = int(options["ships"])
        in_battle = [p["name"] for p in start["players"]]
        assert in_battle == [name for name in names if name in in_battle]
        assert start["first"] == in_battle[0]
        for fleet in start["players"]:
            subs = fleet["subs"]
            assert [s["id"] for s in subs] == list(range(1, ships + 1))
            assert [s["length"] for s in subs] == list(fleet_lengths(ships))
            for sub in subs:
                assert set(sub) >= {"id", "length", "facing", "cells"}
                check_cells(board, sub["cells"], sub["facing"], sub["length"])
    for number, entry in enumerate(record["turns"], start=1):
        assert entry["number"] == number
        first, *others = entry["orders"]
        assert entry["player"] == first["player"]
        assert first["action"] in ("shoot", "skip", "leave", "end")
        if first["action"] == "shoot":
            assert set(first) >= {"cells", "random", "timeout"}
            assert 1 <= len(first["cells"]) == len(set(first["cells"]))
        assert all(order["action"] == "leave" for order in others)
        assert [o["player"] for o in others] == sorted(o["player"] for o in others)
        check_events(entry)


def check_events(entry: Record) -> None:
    """Every event with its keys, in the contract's order: the shots in the order fired,
    each killer shot followed by its ``sunk`` (and ``eliminated``), then ``left`` in the
    order of the leave orders, then ``finished``."""
    events = entry["events"]
    for event in events:
        assert set(event) >= {"type"} | EVENT_KEYS[event["type"]], event
    shots = [e["cell"] for e in events if e["type"] == "shot"]
    fired = entry["orders"][0].get("cells", [])
    assert shots == fired
    for index, event in enumerate(events):
        if event["type"] != "shot":
            continue
        if event["result"] == "miss":
            assert isinstance(event["distance"], int) and event["distance"] >= 1
        else:
            assert {"owner", "sub"} <= set(event)
        if event["result"] == "sunk":
            sunk = events[index + 1]
            assert (sunk["type"], sunk["player"], sunk["sub"]) == (
                "sunk",
                event["owner"],
                event["sub"],
            )
    tail = [e["type"] for e in events if e["type"] in ("left", "finished")]
    assert tail == sorted(tail, key=lambda kind: kind == "finished")
    leaves = [o["player"] for o in entry["orders"] if o["action"] == "leave"]
    assert [e["player"] for e in events if e["type"] == "left"] == leaves
    if any(e["type"] in ("left", "finished") for e in events):
        first_tail = next(i for i, e in enumerate(events) if e["type"] in ("left", "finished"))
        assert all(e["type"] in ("left", "finished") for e in events[first_tail:])


# --- the record replays ----------------------------------------------------------------


def replay(record: Record) -> Record:
    """The record rebuilt from its options, start and orders alone, by the rules."""
    options = {k: v for k, v in record["game"]["options"].items() if k != "seed"}
    board = Board(record["game"]["rows"])
    start = record["start"]
    fleets = {
        fleet["name"]: tuple(Submarine(sub["id"], course_of(sub)) for sub in fleet["subs"])
        for fleet in start["players"]
    }
    captains = tuple(
        Captain(p["name"], p["name"], fleet=fleets[p["name"]])
        if p["name"] in fleets
        else Captain(p["name"], p["name"], status=Status.LEFT)
        for p in record["players"]
    )
    state = SonarState(
        options=parse_options(options),
        phase=Phase.BATTLE,
        captains=captains,
        ships=int(options["ships"]),
        to_move=start["first"],
        first=start["first"],
    )
    assert board == state.board
    rebuilt_turns = []
    for entry in record["turns"]:
        order, *leaves = entry["orders"]
        assert order["player"] == state.to_move
        leaving = {o["player"] for o in leaves}
        state = replace(
            state,
            captains=tuple(replace(c, leaving=c.id in leaving) for c in state.captains),
        )
        action = Action(order["action"])
        cells = tuple(parse_cell(cell) for cell in order.get("cells", []))
        play = Play(
            action,
            cells=cells,
            at_random=bool(order.get("random")),
            timeout=bool(order.get("timeout")),
        )
        # The cells of a random shot are in the record: replayed as given, nothing is drawn.
        resolution = resolve_turn(state, play, random.Random())
        state = resolution.state
        rebuilt_turns.append([e.record() for e in resolution.events])
    context = RecordContext(1, {}, state.phase.value, {})
    rebuilt = build_record(state, [], context)
    rebuilt["turns"] = rebuilt_turns
    return rebuilt


# --- the shared examples, through the host ---------------------------------------------


def test_example_first_game(play: Callable[[str], tuple[list[str], Record]]) -> None:
    _, record = play("sonar-first-game.txt")
    # expect: start.first ahab; ahab's sub 1 cells [l5, k5], sub 2 [c20, b20, a20];
    start = record["start"]
    assert start["first"] == "ahab"
    ahab, nemo = start["players"]
    assert [s["cells"] for s in ahab["subs"]] == [["l5", "k5"], ["c20", "b20", "a20"]]
    # expect: nemo's sub 1 is the 2-sub [f10, g10], sub 2 the 3-sub [h3, i3, j3]
    assert [(s["id"], s["length"], s["cells"]) for s in nemo["subs"]] == [
        (1, 2, ["f10", "g10"]),
        (2, 3, ["h3", "i3", "j3"]),
    ]
    # expect: turn 1 shot e10 hit, owner nemo, sub 1 (its bow, now on e10)
    assert turn(record, 1)["events"] == [shot("ahab", "e10", "hit", "nemo", 1)]
    # expect: turn 2 shots: b11 hit owner ahab sub 1; a1 miss, distance 5
    assert turn(record, 2)["events"] == [
        shot("nemo", "b11", "hit", "ahab", 1),
        miss("nemo", "a1", 5),
    ]
    # expect: turn 3: d10 sunk (owner nemo, sub 1), then a sunk event with cells [c10, d10];
    # expect: h3 miss, distance 1 (nemo's 3-sub has sailed on to e3 f3 g3)
    assert turn(record, 3)["events"] == [
        shot("ahab", "d10", "sunk", "nemo", 1),
        {"type": "sunk", "player": "nemo", "sub": 1, "cells": ["c10", "d10"]},
        miss("ahab", "h3", 1),
    ]
    # expect: nemo's sub 1 sunk, hits [c10, d10]; ahab's sub 1 cells [c11, b11], hits [c11];
    sunk = player(record, "nemo")["subs"][0]
    assert (sunk["sunk"], sunk["hits"]) == (True, ["c10", "d10"])
    damaged = player(record, "ahab")["subs"][0]
    assert (damaged["cells"], damaged["hits"], damaged["sunk"]) == (["c11", "b11"], ["c11"], False)
    # expect: phase battle, turn 4, to_move nemo
    assert state_of_game(record) == ("battle", 4, "nemo")


def test_example_clock(play: Callable[[str], tuple[list[str], Record]]) -> None:
    transcript, record = play("sonar-clock.txt")
    # expect: turns 1 and 2 are skips ({"player": "ahab", "action": "skip"}), with no events
    assert turn(record, 1)["orders"] == [{"player": "ahab", "action": "skip"}]
    assert turn(record, 2)["orders"] == [{"player": "nemo", "action": "skip"}]
    assert turn(record, 1)["events"] == turn(record, 2)["events"] == []
    # ahab's turn timed out at 8h, nemo's at 16h; flint's runs to 24h (no drift)
    assert any("Turn 3 (flint) closes 2026-01-02 00:00 UTC" in line for line in public(transcript))
    # expect: turn 3 j23 miss, distance 3 (nemo's sub, after three moves, is on g23 h22)
    assert turn(record, 3)["events"] == [miss("flint", "j23", 3)]
    assert turn(record, 4)["orders"] == [shoot("ahab", "i24")]
    # refused while paused, and no deadline fires
    assert "the game is paused: orders wait until its host resumes it" in dms(transcript, "nemo")
    # expect: turn 5 orders [{"player": "nemo", "action": "leave"}], events [left nemo];
    assert turn(record, 5)["orders"] == [{"player": "nemo", "action": "leave"}]
    assert turn(record, 5)["events"] == [{"type": "left", "player": "nemo"}]
    # expect: nemo status left, his sub where he left it: [e25, f24]
    nemo = player(record, "nemo")
    assert (nemo["status"], nemo["subs"][0]["cells"]) == ("left", ["e25", "f24"])
    # expect: turn 6 c1 miss, distance 8 (ahab's sub has wrapped to m2 n1)
    assert turn(record, 6)["events"] == [miss("flint", "c1", 8)]
    assert player(record, "ahab")["subs"][0]["cells"] == ["m2", "n1"]
    # expect: phase battle, turn 7, to_move ahab
    assert state_of_game(record) == ("battle", 7, "ahab")


def test_example_random_fleets(play: Callable[[str], tuple[list[str], Record]]) -> None:
    transcript, record = play("sonar-random-fleets.txt")
    # refused: under placement=random the host places every fleet
    assert "placement=random" in dms(transcript, "frobisher")[1]
    # expect: options ships "4" (12 / 3 players), size "16", placement "random";
    options = record["game"]["options"]
    assert (options["ships"], options["size"], options["placement"]) == ("4", "16", "random")
    assert options["seed"] == "2026"
    # expect: each player holds subs 1..4 of lengths 2, 3, 3, 4, each facing a different way,
    # expect: each a straight line behind its bow; no two subs meet in any of the next 64 turns
    board = Board(16)
    courses = []
    for fleet in record["start"]["players"]:
        subs = fleet["subs"]
        assert [(s["id"], s["length"]) for s in subs] == [(1, 2), (2, 3), (3, 3), (4, 4)]
        assert len({s["facing"] for s in subs}) == 4
        courses += [course_of(sub) for sub in subs]  # (straight lines: check_format)
    for moves in range(64):
        occupied = [cell for course in courses for cell in course.cells(board, moves)]
        assert len(occupied) == len(set(occupied))
    # expect: turn 1 order shoot, random true, 2 cells (the first turn is halved), none on
    # expect: drake's subs
    order = turn(record, 1)["orders"][0]
    assert (order["action"], order["random"], order["timeout"]) == ("shoot", True, False)
    assert len(order["cells"]) == 2
    assert not set(order["cells"]) & cells_at(record, "drake", 1)
    # expect: turn 2 order cells [a1, b2, c3, d4]; to_move frobisher; 2 turns resolved
    assert turn(record, 2)["orders"] == [shoot("raleigh", "a1", "b2", "c3", "d4")]
    assert state_of_game(record) == ("battle", 3, "frobisher")
    assert len(record["turns"]) == 2
    # refused: it is frobisher's turn now
    assert dms(transcript, "raleigh")[-1] == "it is not your turn: frobisher is to move (turn 3)"


def test_contract_record_example_key_by_key(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    _, record = play("sonar-contract-record.txt")
    # expect: the record is the contract's example, key by key
    assert_contains(record, CONTRACT_EXAMPLE)


def assert_contains(actual: Any, expected: Any, where: str = "record") -> None:
    """Every key of ``expected`` in ``actual`` with the same value (extra keys are fine)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is missing"
            assert_contains(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for index, (got, wanted) in enumerate(zip(actual, expected, strict=True)):
            assert_contains(got, wanted, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


CONTRACT_EXAMPLE: Record = {
    "format": "sonar-record/1",
    "game": {
        "kind": "sonar",
        "rows": 16,
        "cols": 32,
        "options": {
            "size": "16",
            "ships": "1",
            "one_shot": "off",
            "hide_hits": "off",
            "move_time": "1d",
            "on_timeout": "random",
            "placement": "given",
        },
        "phase": "finished",
        "turn": 3,
        "to_move": None,
        "winners": ["alice"],
        "draw": False,
    },
    "players": [
        {
            "name": "alice",
            "status": "alive",
            "subs": [
                {
                    "id": 1,
                    "length": 2,
                    "facing": "ul",
                    "cells": ["i6", "h7"],
                    "hits": [],
                    "sunk": False,
                }
            ],
        },
        {
            "name": "bob",
            "status": "eliminated",
            "subs": [
                {
                    "id": 1,
                    "length": 2,
                    "facing": "ur",
                    "cells": ["a26", "p18"],
                    "hits": ["a26", "p18"],
                    "sunk": True,
                }
            ],
        },
        {
            "name": "carol",
            "status": "left",
            "subs": [
                {
                    "id": 1,
                    "length": 2,
                    "facing": "dr",
                    "cells": ["f5", "g4"],
                    "hits": [],
                    "sunk": False,
                }
            ],
        },
    ],
    "start": {
        "first": "alice",
        "players": [
            {
                "name": "alice",
                "subs": [{"id": 1, "length": 2, "facing": "ul", "cells": ["f9", "e10"]}],
            },
            {
                "name": "bob",
                "subs": [{"id": 1, "length": 2, "facing": "ur", "cells": ["n18", "m18"]}],
            },
            {
                "name": "carol",
                "subs": [{"id": 1, "length": 2, "facing": "dr", "cells": ["h3", "i2"]}],
            },
        ],
    },
    "turns": [
        {
            "number": 1,
            "player": "alice",
            "orders": [shoot("alice", "o18")],
            "events": [shot("alice", "o18", "hit", "bob", 1)],
        },
        {
            "number": 2,
            "player": "bob",
            "orders": [shoot("bob", "f11"), {"player": "carol", "action": "leave"}],
            "events": [miss("bob", "f11", 3), {"type": "left", "player": "carol"}],
        },
        {
            "number": 3,
            "player": "alice",
            "orders": [shoot("alice", "p18")],
            "events": [
                shot("alice", "p18", "sunk", "bob", 1),
                {"type": "sunk", "player": "bob", "sub": 1, "cells": ["a26", "p18"]},
                {"type": "eliminated", "player": "bob"},
                {"type": "finished", "winners": ["alice"], "draw": False},
            ],
        },
    ],
}
"""``shared/contracts/sonar.md``'s example record, as written there."""


# --- scripts of our own: rules §3, §4 and the host's lines ------------------------------


def test_4_4_draw_when_the_last_subs_sink_as_the_last_rival_leaves(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-draw.txt")
    # expect: turn 1 shot b1 hit, owner ahab, sub 1
    assert turn(record, 1)["events"] == [shot("ahab", "b1", "hit", "ahab", 1)]
    # expect: turn 3 orders [ahab shoot [c1], {"player": "nemo", "action": "leave"}]
    assert turn(record, 3)["orders"] == [
        shoot("ahab", "c1"),
        {"player": "nemo", "action": "leave"},
    ]
    # expect: turn 3 events: c1 sunk (owner ahab, sub 1), sunk [d1, c1], eliminated ahab, left nemo,
    # expect: finished {"winners": ["ahab"], "draw": true}
    assert turn(record, 3)["events"] == [
        shot("ahab", "c1", "sunk", "ahab", 1),
        {"type": "sunk", "player": "ahab", "sub": 1, "cells": ["d1", "c1"]},
        {"type": "eliminated", "player": "ahab"},
        {"type": "left", "player": "nemo"},
        {"type": "finished", "winners": ["ahab"], "draw": True},
    ]
    # expect: phase finished, turn 3, to_move null; ahab eliminated; nemo left, his sub on [d5, c5]
    assert state_of_game(record) == ("finished", 3, None)
    assert player(record, "ahab")["status"] == "eliminated"
    nemo = player(record, "nemo")
    assert (nemo["status"], nemo["subs"][0]["cells"]) == ("left", ["d5", "c5"])
    last = public(transcript)[-3]  # then the standings (issue 27), then the replay
    assert last.endswith(
        "The game ends in a draw: no captain has a sub afloat (ahab was the last)."
    )


def test_4_host_end_resolves_the_turn_then_a_draw_between_the_living(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    _, record = play("sonar-end.txt")
    # expect: turn 2 orders [{"player": "nemo", "action": "end"}, {"player": "flint", "action": "leave"}]
    assert turn(record, 2)["orders"] == [
        {"player": "nemo", "action": "end"},
        {"player": "flint", "action": "leave"},
    ]
    # expect: turn 2 events [left flint, finished {"winners": ["ahab", "nemo"], "draw": true}]
    assert turn(record, 2)["events"] == [
        {"type": "left", "player": "flint"},
        {"type": "finished", "winners": ["ahab", "nemo"], "draw": True},
    ]
    # expect: ahab's sub has sailed on to [c1, b1]; phase finished, turn 2
    assert player(record, "ahab")["subs"][0]["cells"] == ["c1", "b1"]
    assert state_of_game(record)[:2] == ("finished", 2)


def test_4_host_end_with_one_captain_afloat_is_that_captains_win(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-end-sole-survivor.txt")
    # expect: turn 1 orders [{"player": "amy", "action": "end"}, {"player": "bob", "action": "leave"}]
    assert turn(record, 1)["orders"] == [
        {"player": "amy", "action": "end"},
        {"player": "bob", "action": "leave"},
    ]
    # expect: turn 1 events [left bob, finished {"winners": ["amy"], "draw": false}]
    assert turn(record, 1)["events"] == [
        {"type": "left", "player": "bob"},
        {"type": "finished", "winners": ["amy"], "draw": False},
    ]
    # expect: the last public post says amy wins; phase finished, turn 1, to_move null
    assert (record["game"]["winners"], record["game"]["draw"]) == (["amy"], False)
    assert state_of_game(record) == ("finished", 1, None)
    ending = [post for post in public(transcript) if "The host ended game 1" in post]
    assert ending and ending[-1].endswith("amy wins: the last captain with subs afloat.")
    assert not any("draw" in post for post in public(transcript))


def test_3_start_refused_with_the_largest_ships_that_fits(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-no-room.txt")
    # expect: refused: 6 subs each cannot be placed so that no two ever meet (no arrangement
    # expect: exists): at most ships=5 fits; the game stays in setup (phase setup, start null)
    (refusal,) = dms(transcript, "host")
    assert "6 subs each cannot be placed" in refusal
    assert "no arrangement exists" in refusal and "at most ships=5 fits" in refusal
    assert (record["game"]["phase"], record["start"]) == ("setup", None)
    assert record["game"]["options"]["ships"] == "auto"


def test_3_after_a_refused_start_the_host_changes_options_in_setup(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-options-after-refused-start.txt")
    # refused: at most ships=5 fits; the game stays in setup
    refusal, started = dms(transcript, "host")
    assert "at most ships=5 fits" in refusal and started == "Game 1 started."
    # refused: only the host may change the options
    assert any(
        dm.startswith("only the game's host can `options`") for dm in dms(transcript, "nemo")
    )
    # expect: the options are now ships "4", size "12"; ahab and nemo still in, flint left; phase setup
    (changed,) = [post for post in public(transcript) if "changed the options" in post]
    assert changed.startswith("The host changed the options (ships=4): #sonar game 1 is open")
    options = record["game"]["options"]
    assert (options["ships"], options["size"]) == ("4", "12")
    assert [(p["name"], p["status"]) for p in record["players"]] == [
        ("ahab", "alive"), ("nemo", "alive"), ("flint", "left"),
    ]  # fmt: skip
    # expect: start.players ahab and nemo with 4 subs each (flint is not seated); phase battle, turn 1, to_move ahab
    assert [(p["name"], len(p["subs"])) for p in record["start"]["players"]] == [
        ("ahab", 4), ("nemo", 4),
    ]  # fmt: skip
    assert state_of_game(record) == ("battle", 1, "ahab")


def test_4_3_hits_sail_with_their_sub_and_the_last_captain_afloat_wins(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-win.txt")
    # expect: turn 1 shot b5 hit, owner nemo, sub 1
    assert turn(record, 1)["events"] == [shot("ahab", "b5", "hit", "nemo", 1)]
    # expect: turn 2 shot c9 hit, owner flint, sub 1
    assert turn(record, 2)["events"] == [shot("nemo", "c9", "hit", "flint", 1)]
    # expect: turn 3: c5 sunk (owner nemo, sub 1), sunk [d5, c5], eliminated nemo
    assert turn(record, 3)["events"] == [
        shot("flint", "c5", "sunk", "nemo", 1),
        {"type": "sunk", "player": "nemo", "sub": 1, "cells": ["d5", "c5"]},
        {"type": "eliminated", "player": "nemo"},
    ]
    # refused: nemo has no subs left; refused: nemo has nothing left to leave
    # (before the end: the game then tells nemo his place, issue 27)
    assert [line for line in dms(transcript, "nemo") if "is over:" not in line][-2:] == [
        "you have no subs left: you are out of this battle",
        "nemo has no live subs left: there is nothing to leave",
    ]
    # expect: turn 4 shot e9 hit again, owner flint, sub 1 (nemo is skipped: turn 5 is flint's)
    assert turn(record, 4)["events"] == [shot("ahab", "e9", "hit", "flint", 1)]
    assert turn(record, 5)["player"] == "flint"
    # expect: turn 6: f9 sunk (owner flint, sub 1), sunk [g9, f9], eliminated flint,
    # expect: finished {"winners": ["ahab"], "draw": false}; phase finished, turn 6, to_move null
    assert turn(record, 6)["events"] == [
        shot("ahab", "f9", "sunk", "flint", 1),
        {"type": "sunk", "player": "flint", "sub": 1, "cells": ["g9", "f9"]},
        {"type": "eliminated", "player": "flint"},
        {"type": "finished", "winners": ["ahab"], "draw": False},
    ]
    assert state_of_game(record) == ("finished", 6, None)
    # expect: flint's sub hits [g9, f9], sunk; ahab alive, his sub on [g1, f1] unhit
    flint = player(record, "flint")["subs"][0]
    assert (flint["hits"], flint["sunk"]) == (["g9", "f9"], True)
    ahab = player(record, "ahab")
    assert ahab["status"] == "alive"
    assert (ahab["subs"][0]["cells"], ahab["subs"][0]["hits"]) == (["g1", "f1"], [])
    posts = public(transcript)
    assert posts[-3].endswith("ahab wins: the last captain with subs afloat.")
    assert posts[-2].startswith("#sonar game 1 is over. Final standings:\\n1st ahab: ")
    assert posts[-1] == "#sonar game 1: the replay of the whole hunt."


def test_1_one_shot_fires_one_charge_a_turn(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-one-shot.txt")
    too_many = "you may fire at most 1 charge this turn (one_shot: one a turn"
    # refused: at most 1 charge
    assert sum(line.startswith(too_many) for line in dms(transcript, "ahab")) == 1
    # expect: turn 1 shot f11 only
    assert turn(record, 1)["orders"] == [shoot("ahab", "f11")]
    # refused: at most 1 charge, though nemo has 3 live subs
    assert sum(line.startswith(too_many) for line in dms(transcript, "nemo")) == 1
    # expect: turn 2 order shoot, random true, timeout false, 1 cell
    order = turn(record, 2)["orders"][0]
    assert (order["random"], order["timeout"], len(order["cells"])) == (True, False, 1)
    assert not set(order["cells"]) & cells_at(record, "nemo", 2)


def test_4_2_a_random_volley_is_marked_in_public(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-random-volley.txt")
    # expect: turn 1 order shoot, random true, timeout false, 1 cell; its shot event says random true
    order = turn(record, 1)["orders"][0]
    assert (order["random"], order["timeout"], len(order["cells"])) == (True, False, 1)
    (cell,) = order["cells"]
    (event,) = turn(record, 1)["events"]
    assert (event["cell"], event["random"]) == (cell, True)
    # expect: the public report of turn 1 reads "ahab fired at random (*: never at ahab's own subs): CELL* (…)"
    (report,) = [post for post in public(transcript) if post.startswith("#sonar game 1, turn 1:")]
    marked = f"ahab fired at random (*: never at ahab's own subs): {cell}* ("
    assert report.startswith(f"#sonar game 1, turn 1: {marked}")
    # expect: turn 2's shots carry no random mark, in the record or in public ("nemo fired at f11 (…")
    assert all("random" not in event for event in turn(record, 2)["events"])
    (report,) = [post for post in public(transcript) if post.startswith("#sonar game 1, turn 2:")]
    assert report.startswith("#sonar game 1, turn 2: nemo fired at f11 (") and "*" not in report


def _status_grid(transcript: list[str]) -> str:
    """The rows of the text board in the public status."""
    (status,) = [line for line in public(transcript) if line.startswith("#sonar game 1: hunt")]
    return "\n".join(row for row in status.split("\\n") if re.match(r"[a-x] +\d+ ", row))


def test_1_hide_hits_shows_a_hit_only_in_its_own_turn(
    play: Callable[[str], tuple[list[str], Record]],
    run_script_text: Run,
) -> None:
    hidden_transcript, hidden = play("sonar-hide-hits.txt")
    text = (SCRIPTS / "sonar-hide-hits.txt").read_text(encoding="utf-8")
    shown_transcript, shown = run_script_text(text.replace("hide_hits=on", "hide_hits=off"))
    # expect: turn 1 shot b13 hit, owner nemo, sub 2
    assert turn(hidden, 1)["events"] == [shot("ahab", "b13", "hit", "nemo", 2)]
    # hide_hits changes only what is shown: the same game, the same record
    assert hidden["game"]["options"]["hide_hits"] == "on"
    assert {**hidden["game"], "options": {}} == {**shown["game"], "options": {}}
    assert (hidden["players"], hidden["turns"]) == (shown["players"], shown["turns"])
    assert player(hidden, "nemo")["subs"][1]["hits"] == ["d13"]
    # expect: the public board after turn 3 shows the hit (now on d13) only without hide_hits
    assert _status_grid(hidden_transcript).count(" x") == 0
    assert _status_grid(shown_transcript).count(" x") == 1


def test_4_timeouts_fire_at_random_from_each_deadline(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-timeouts.txt")
    # expect: turn 1 order shoot, random true, timeout true, 2 cells (half of 3, rounded up),
    # expect: none on ahab's own subs after the move
    first = turn(record, 1)["orders"][0]
    assert (first["random"], first["timeout"], len(first["cells"])) == (True, True, 2)
    assert not set(first["cells"]) & cells_at(record, "ahab", 1)
    # expect: turns 2, 3 and 4 timed out too (at 16h, 1d and 1d8h), 3 charges each
    for number, mover in ((2, "nemo"), (3, "ahab"), (4, "nemo")):
        (order,) = turn(record, number)["orders"]
        assert (order["player"], order["random"], order["timeout"]) == (mover, True, True)
        assert len(order["cells"]) == 3
        assert not set(order["cells"]) & cells_at(record, mover, number)
    assert not any(e["type"] == "sunk" for t in record["turns"] for e in t["events"])
    # expect: phase battle, turn 5, to_move nemo; turn 5 closes 2026-01-02 16:00 UTC
    assert state_of_game(record) == ("battle", 5, "ahab")
    closes = [re.search(r"Turn \d+ \(\w+\) closes [^.]*", line) for line in public(transcript)]
    assert [m.group(0) for m in closes if m] == [
        "Turn 1 (ahab) closes 2026-01-01 08:00 UTC",
        "Turn 2 (nemo) closes 2026-01-01 16:00 UTC",
        "Turn 3 (ahab) closes 2026-01-02 00:00 UTC",
        "Turn 4 (nemo) closes 2026-01-02 08:00 UTC",
        "Turn 5 (ahab) closes 2026-01-02 16:00 UTC",
    ]


def test_4_kick_is_a_leave_that_waits_for_the_turn_in_progress(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-kick.txt")
    # expect: turn 1 orders [ahab shoot [l20], {"player": "flint", "action": "leave"}]
    # expect: turn 1 events [l20 miss, left flint]; flint left, his sub where it was: [b9, a9]
    assert turn(record, 1)["orders"] == [
        shoot("ahab", "l20"),
        {"player": "flint", "action": "leave"},
    ]
    assert turn(record, 1)["events"] == [
        miss("ahab", "l20", 1),
        {"type": "left", "player": "flint"},
    ]
    flint = player(record, "flint")
    assert (flint["status"], flint["subs"][0]["cells"]) == ("left", ["b9", "a9"])
    # expect: turn 2 orders [{"player": "nemo", "action": "leave"}], events [left nemo]
    # expect: nemo left, his sub on [c5, b5]; to_move drake (flint is skipped)
    assert turn(record, 2)["orders"] == [{"player": "nemo", "action": "leave"}]
    assert turn(record, 2)["events"] == [{"type": "left", "player": "nemo"}]
    nemo = player(record, "nemo")
    assert (nemo["status"], nemo["subs"][0]["cells"]) == ("left", ["c5", "b5"])
    # refused: flint has already left; refused: no such captain
    assert dms(transcript, "host")[-2:] == [
        "flint has already left this game",
        "no captain called 'blackbeard' in this game: name one as `status` lists them, "
        "such as `@carol`",
    ]
    # expect: phase battle, turn 3, to_move drake
    assert state_of_game(record) == ("battle", 3, "drake")


def test_setup_leave_rejoin_withdraw_and_questions_change_nothing(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-setup.txt")
    # expect: nothing changed: phase setup, start null, no turns; ahab holds [a1, l19] and
    # expect: [a9, l3, k3] (his second fleet); nemo holds [] (withdrawn), flint left with [],
    # expect: drake back with [] — seen at the start, which takes the fleets as they stood
    flint = player(record, "flint")
    assert (flint["status"], flint["subs"]) == ("left", [])
    assert [p["name"] for p in record["start"]["players"]] == ["ahab", "nemo", "drake"]
    ahab = courses_at_start(record, "ahab")
    board = Board(12)
    assert [[str(c) for c in course.cells(board)] for course in ahab] == [
        ["a1", "l19"],
        ["a9", "l3", "k3"],
    ]
    assert not record["turns"] and state_of_game(record) == ("battle", 1, "ahab")
    # nemo's `random` withdrew his fleet: he and drake are placed at random around ahab's
    assert (
        "No fleet of yours stands now: the host places it at random when the battle starts."
        in dms(transcript, "nemo")
    )
    placed = [c for name in ("nemo", "drake") for c in courses_at_start(record, name)]
    assert placed and all(c not in ahab for c in placed)
    everyone = ahab + placed
    assert not any(ever_meet(board, a, b) for i, a in enumerate(everyone) for b in everyone[:i])
    for name in ("nemo", "drake"):
        assert any("Your fleet, placed at random" in dm for dm in dms(transcript, name))
        assert len({c.facing for c in courses_at_start(record, name)}) == 2
    # help, rules and status answer in public; board by DM only, whoever asks where
    posts = public(transcript)
    assert any(line.startswith("Sonar (#sonar):") for line in posts)
    assert any(line.startswith("Sonar rules, in short") for line in posts)
    assert any(line.startswith("#sonar game 1: setup") for line in posts)
    assert any("Your subs: none yet." in dm for dm in dms(transcript, "nemo"))
    assert any(
        "Your subs: 1: 2 a1 l19 ur; 2: 3 a9 l3 k3 ur." in dm for dm in dms(transcript, "ahab")
    )


def test_4_pause_extend_and_resume_move_the_deadline(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-pause.txt")
    posts = public(transcript)
    # refused: nothing to pause in setup
    assert dms(transcript, "host")[0] == (
        "nothing to pause: no deadline is running (`status` shows the game's clocks)"
    )
    # expect: 6h left on turn 1
    assert "Game 1 paused with 6 h left on the clock. `resume` to go on." in posts
    # refused: the game is paused
    assert "the game is paused: orders wait until its host resumes it" in dms(transcript, "ahab")
    # nothing fires while paused
    assert "Extended by 1h (the game is paused)." in posts
    # expect: turn 1 now closes 3d2h + 7h = 2026-01-04 09:00 UTC
    assert "Game 1 resumed: turn 1 (ahab) closes 2026-01-04 09:00 UTC." in posts
    # expect: turn 1 closes 2026-01-04 11:00 UTC
    assert "Turn 1 (ahab) extended: it now closes 2026-01-04 11:00 UTC." in posts
    # expect: turn 1 timed out at 2026-01-04 11:00 (random, 1 charge); turn 2 closes 2026-01-04 19:00 UTC
    (order,) = turn(record, 1)["orders"]
    assert (order["random"], order["timeout"], len(order["cells"])) == (True, True, 1)
    assert any(line.endswith("Turn 2 (nemo) closes 2026-01-04 19:00 UTC.") for line in posts)
    # refused: the game is not paused
    assert dms(transcript, "host")[-1] == "the game is not paused"
    assert state_of_game(record) == ("battle", 2, "nemo")


def test_4_leave_and_kick_are_refused_while_paused(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-paused-leave.txt")
    # refused: the game is paused (nemo's leave, and the host's kick of flint)
    assert "paused" in dms(transcript, "nemo")[-1]
    assert "paused" in dms(transcript, "host")[-1]
    # expect: everyone still alive, no turns resolved
    assert [p["status"] for p in record["players"]] == ["alive", "alive", "alive"]
    assert record["turns"] == []


def test_a_public_message_without_the_tag_is_chat(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-chat.txt")
    # expect: chat: no turn resolved; then turn 1 shot e10 (tag and words in any case)
    assert turn(record, 1)["orders"] == [shoot("ahab", "e10")]
    assert turn(record, 1)["events"][0]["cell"] == "e10"
    assert len(record["turns"]) == 1
    assert not any("not a cell" in dm for dm in dms(transcript, "ahab"))


def test_tags_and_words_in_any_case(play: Callable[[str], tuple[list[str], Record]]) -> None:
    _, record = play("sonar-chat.txt")
    assert [p["name"] for p in record["players"]] == ["ahab", "nemo"]
    nemo = courses_at_start(record, "nemo")
    assert [(str(c.bow), c.facing.value) for c in nemo] == [("a5", "ur")]
    assert turn(record, 1)["orders"][0]["cells"] == ["e10"]


def test_4_a_leave_on_ones_own_turn_hands_the_turn_on_in_words(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, _ = play("sonar-kick.txt")
    # nemo's kick ended turn 2 at once: drake is told turn 3 is his, and the public when it closes
    assert any("Turn 3 is yours" in dm for dm in dms(transcript, "drake"))
    assert any("Turn 3 (drake) closes" in line for line in public(transcript))


def test_4_a_leave_that_waits_is_told_to_the_leaver(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, _ = play("sonar-draw.txt")
    assert any(dm.startswith("You leave when turn 3") for dm in dms(transcript, "nemo"))


def test_refusals_say_what_was_expected_and_change_nothing(
    play: Callable[[str], tuple[list[str], Record]],
) -> None:
    transcript, record = play("sonar-refusals.txt")
    host = dms(transcript, "host")
    assert host[:3] == [
        "placement=given needs ships=N (the fleet each player sends), e.g. "
        "`@game sonar placement=given ships=4`",
        "size: expected an even number from 4 to 24; got 5",
        "unknown option 'colour': the options are size, ships, one_shot, hide_hits, "
        "move_time, on_timeout, placement",
    ]
    assert host[3:] == [
        "starting needs at least 2 captains; 1 has joined",
        "in Sonar the first captain to join moves first: start without a name",
        "Game 1 started.",
    ]
    ahab = dms(transcript, "ahab")
    refused = [
        line for line in ahab if not line.startswith(("ahab joined", "Fleet placed", "#sonar"))
    ]
    expected = [
        "fleets are secret: send yours to me by DM",
        "a fleet here is exactly 2 subs of lengths 2, 3; yours has 2",
        "your sub 3 a33 ur is off the board",
        "'up' is not a facing",
        "your sub 3 b1 ur would meet your sub 2 a1 ur at once",
        "your sub 3 a5 r would meet your sub 2 a1 ur in turn 24",
        "the battle has not started yet",
        "you may fire at most 1 charge this turn",
        "a1 appears twice",
        "i1 is off the board",
        "a17 is off the board",
        "expected shots such as `f11, a9`",
        "'zz' is not a cell",
        "the battle has started: fleets can no longer be changed",
        "Turn 1: 1 charge at random.",
    ]
    assert len(refused) == len(expected)
    for line, start in zip(refused, expected, strict=True):
        assert line.startswith(start), (line, start)
    # a refusal names an example of what it expected
    for line in refused[1:-2]:
        assert "`" in line or "e.g." in line or "such as" in line, line
    # nemo's fleet, meeting ahab's, is placed in setup like any other (an answer at once
    # told where ahab's subs were not) and refused at the start, never saying where or when.
    nemo = dms(transcript, "nemo")
    assert any(dm.startswith("Fleet placed: sub 1: 2 d1 ur") for dm in nemo)
    (told,) = [dm for dm in nemo if "so it was refused" in dm]
    assert "Your fleet would meet a sub of a fleet sent before it, so it was refused" in told
    assert "ahab" not in told.split("Your fleet, placed at random")[0]
    assert "a1" not in told.split("Your fleet, placed at random")[0]
    assert "it is not your turn: ahab is to move (turn 1)" in dms(transcript, "nemo")
    assert dms(transcript, "bligh") == [
        "the game is full: Sonar takes 2 to 4 captains",
        "the battle has started, so joining is closed in this game",
    ]
    # expect: start: ahab, nemo, flint, drake; ahab's fleet as sent, the others' at random
    assert [str(c.bow) for c in courses_at_start(record, "nemo")] != ["d1", "e5"]
    assert [p["name"] for p in record["start"]["players"]] == ["ahab", "nemo", "flint", "drake"]
    assert [str(c.bow) for c in courses_at_start(record, "ahab")] == ["a1", "c5"]
    # expect: turn 1 resolves: 1 charge at random; nothing else changed before it
    assert len(record["turns"]) == 1
    order = turn(record, 1)["orders"][0]
    assert (order["player"], order["random"], len(order["cells"])) == ("ahab", True, 1)


# --- every script: the contract's format, the replay, nothing hidden in public ------------


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_every_record_keeps_the_contracts_format(
    play: Callable[[str], tuple[list[str], Record]], name: str
) -> None:
    _, record = play(name)
    check_format(record)


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_every_record_replays_from_its_options_start_and_orders(
    play: Callable[[str], tuple[list[str], Record]], name: str
) -> None:
    _, record = play(name)
    if record["start"] is None:
        pytest.skip(reason="the game never began: nothing to replay")
    rebuilt = replay(record)
    assert rebuilt["turns"] == [t["events"] for t in record["turns"]]
    assert rebuilt["players"] == record["players"]
    for key in ("phase", "turn", "to_move", "winners", "draw"):
        assert rebuilt["game"][key] == record["game"][key], key


_QUOTED = re.compile(r"`[^`]*`|(?:e\.g\.|such as) [a-x]\d+(?: or [a-x]\d+)?")
_CELL_WORD = re.compile(r"(?<![\w#])([a-x]\d{1,2})(?!\w)")


def named_cells(text: str) -> set[str]:
    """The cells a message names, leaving out the examples it quotes (the transcript
    writes a message's line breaks as ``\\n``)."""
    return set(_CELL_WORD.findall(_QUOTED.sub(" ", text.replace("\\n", " "))))


def public_facts(record: Record) -> set[str]:
    """Cells anyone may name in public: every cell fired at, every cell of a sunk sub."""
    facts = set()
    for entry in record["turns"]:
        for event in entry["events"]:
            if event["type"] == "shot":
                facts.add(event["cell"])
            if event["type"] == "sunk":
                facts |= set(event["cells"])
    return facts


def said_by(name: str, script: str, board: Board) -> set[str]:
    """Cells a player gave themselves, and those of every fleet they sent (a reply may
    repeat them to them)."""
    cells: set[str] = set()
    for line in script.splitlines():
        if not line.startswith(f"{name} "):
            continue
        text = line.partition(":")[2]
        cells |= set(_CELL_WORD.findall(text.lower()))
        try:
            order = SONAR.rules.parse(text)
        except GameError:
            continue
        if isinstance(order, Fleet):
            cells |= {str(cell) for course in order.subs for cell in course.cells(board)}
    return cells


def own_cells(record: Record, name: str) -> set[str]:
    """Every cell ``name``'s subs held at any time of the game."""
    if record["start"] is None or name not in [p["name"] for p in record["start"]["players"]]:
        return {cell for sub in player(record, name)["subs"] for cell in sub["cells"]}
    return set().union(*(cells_at(record, name, t) for t in range(record["game"]["turn"] + 1)))


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_no_public_post_names_a_hidden_cell(
    play: Callable[[str], tuple[list[str], Record]], name: str
) -> None:
    transcript, record = play(name)
    allowed = public_facts(record)
    for line in public(transcript):
        assert named_cells(line) <= allowed, line


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_a_dm_names_only_its_readers_own_cells_and_public_ones(
    play: Callable[[str], tuple[list[str], Record]], name: str
) -> None:
    transcript, record = play(name)
    script = (SCRIPTS / name).read_text(encoding="utf-8")
    for captain in record["players"]:
        reader = captain["name"]
        mine = own_cells(record, reader) | said_by(reader, script, Board(record["game"]["rows"]))
        allowed = public_facts(record) | mine
        for line in dms(transcript, reader):
            assert named_cells(line) <= allowed, (reader, line)


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_no_public_post_says_a_sentence_twice(
    play: Callable[[str], tuple[list[str], Record]], name: str
) -> None:
    transcript, _ = play(name)
    for line in public(transcript):
        sentences = [s for s in re.split(r"(?<=[.!])\s+(?=[A-Z#])|\\n", line) if s]
        assert len(sentences) == len(set(sentences)), line


HIDDEN_FLEETS = """\
# Two games that differ only in where nemo's sub sails: every charge falls next to ahab's
# sub (the same in both) and far from nemo's, so nothing public tells the games apart.
@game sonar size=12 ships=1 placement=given on_timeout=skip move_time=8h seed=5
ahab dm: join
ahab dm: 2 a1 ur
nemo dm: join
nemo dm: {nemo}
flint dm: join
flint dm: 2 a9 ur
@start
ahab public: #sonar b2
nemo public: #sonar c2
flint public: #sonar d1
ahab public: #sonar status
@close
nemo dm: f2
flint public: #sonar g1
flint dm: leave
ahab public: #sonar status
ahab dm: h2
nemo public: #sonar i1
@host end
"""


def _pair(run_script_text: Run) -> Iterator[tuple[list[str], Record]]:
    for fleet in ("2 a13 ur", "2 g17 dl"):
        yield run_script_text(HIDDEN_FLEETS.format(nemo=fleet))


def test_5_nothing_hidden_in_public_two_hidden_fleets_post_the_same_bytes(
    run_script_text: Run,
) -> None:
    (one, first), (two, second) = _pair(run_script_text)
    # the games do differ, where no one but nemo can see
    assert courses_at_start(first, "nemo") != courses_at_start(second, "nemo")
    assert first["turns"] == second["turns"] and len(first["turns"]) == 9
    assert any(e["result"] == "hit" for t in first["turns"] for e in t["events"] if "result" in e)
    assert public(one) == public(two)
    for name in ("ahab", "flint", "host"):
        assert dms(one, name) == dms(two, name), name
    assert dms(one, "nemo") != dms(two, "nemo")
