"""U-Boat Shootout through the real host: every script of ``tests/games/uboat/scripts/`` played
with the script adapter, each ``# expect:`` fact asserted on the record it writes, the
``uboat-record/1`` format checked key by key, and nothing hidden in public (rules §4):
two games that differ only in hidden facts post the same public bytes, and no public
post names a cell the public does not know."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parent / "scripts"

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]


def play(run: Run, name: str) -> tuple[list[str], Record]:
    transcript, record = run((SCRIPTS / name).read_text(encoding="utf-8"))
    assert_record_format(record)
    assert_no_hidden_cell_in_public(transcript, record)
    return transcript, record


def turn(record: Record, number: int) -> Record:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return found


def events(record: Record, number: int, kind: str | None = None) -> list[Record]:
    return [e for e in turn(record, number)["events"] if kind is None or e["type"] == kind]


def player(record: Record, name: str) -> Record:
    (found,) = [p for p in record["players"] if p["name"] == name]
    return found


def boat_start(record: Record, colour: str) -> Record:
    (found,) = [b for b in record["start"]["boats"] if b["colour"] == colour]
    return found


def dms(transcript: list[str], name: str) -> list[str]:
    return [line for line in transcript if line.startswith(f"-> dm {name}: ")]


def public(transcript: list[str]) -> list[str]:
    return [line for line in transcript if line.startswith("-> public: ")]


def said_to(transcript: list[str], text: str) -> set[str]:
    """Who was told ``text``: player names, or ``public``."""
    told = set()
    for line in transcript:
        if text in line:
            head = line.split(": ", 1)[0]
            told.add("public" if head == "-> public" else head.removeprefix("-> dm "))
    return told


def hits(event: Record) -> list[tuple[str, int]]:
    return [(hit["boat"], hit["damage"]) for hit in event["hits"]]


# --- the record's format, key by key (shared/contracts/uboat.md) ---------------------

CELL = re.compile(r"^[A-Z][1-9][0-9]?$")
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
DIRECTIONS = {"up", "down", "left", "right"}
EVENT_KEYS = {
    "evaded": {"boat", "route", "cell"},
    "fire": {"boat", "cell", "hits"},
    "captured": {"island", "boat", "from"},
    "cancelled": {"boat", "action"},
    "moved": {"boat", "route", "cell", "fog"},
    "rammed": {"boat", "route", "cell", "struck", "hits", "fog"},
    "destroyed": {"boat", "freed"},
    "healed": {"boat", "health"},
    "joined": {"player", "crew", "chosen"},
    "sonar": {"boat", "distance"},
    "finished": {"winners", "draw", "boats", "scores", "marks", "first_duelist"},
    "left": {"player"},  # ours: the host's kick (games.md: "as the game's file says")
}
OPTION_KEYS = ["size", "islands", "island_powers", "rounds", "round", "evade_window"]


def _route(route: Any) -> None:
    assert isinstance(route, list) and 1 <= len(route) <= 3 and set(route) <= DIRECTIONS


def assert_record_format(record: Record) -> None:
    # The contract's keys, and the host's own addition: the journal that replays it (#31).
    assert list(record) == ["format", "game", "players", "start", "turns", "replay"]
    assert record["format"] == "uboat-record/1"
    game = record["game"]
    assert list(game) == [
        "kind", "size", "islands", "options", "phase", "turn", "winners", "draw",
    ]  # fmt: skip
    assert game["kind"] == "uboat" and isinstance(game["size"], int)
    numbers = [island["number"] for island in game["islands"]]
    assert numbers == sorted(numbers)
    for island in game["islands"]:
        assert list(island) == ["number", "cell", "owner"]
        assert CELL.match(island["cell"]) and island["owner"] in (None, *COLOURS)
    options = game["options"]
    assert list(options)[:6] == OPTION_KEYS and set(options) <= {*OPTION_KEYS, "seed"}
    assert all(isinstance(value, str) for value in options.values())
    assert options["size"] == str(game["size"])
    assert game["phase"] in ("setup", "battle", "finished")
    assert isinstance(game["turn"], int) and isinstance(game["draw"], bool)
    assert game["winners"] == sorted(game["winners"])
    for entry in record["players"]:
        assert list(entry) == [
            "name", "status", "colour", "crew", "health", "cell", "afloat", "islands",
        ]  # fmt: skip
        assert entry["status"] in ("alive", "eliminated", "left")
        assert 0 <= entry["health"] <= 3 and isinstance(entry["afloat"], bool)
        assert entry["cell"] is None or CELL.match(entry["cell"])
        assert entry["islands"] == sorted(entry["islands"])
        assert (entry["status"] == "alive") == (entry["crew"] is not None)
    assert list(record["start"]) == ["boats"]
    colours = [boat["colour"] for boat in record["start"]["boats"]]
    assert colours == sorted(colours, key=COLOURS.index)
    for boat in record["start"]["boats"]:
        assert list(boat) == ["colour", "captain", "cell", "random"]
        assert CELL.match(boat["cell"]) and isinstance(boat["random"], bool)
    if game["phase"] == "setup":
        assert record["start"]["boats"] == [] and record["turns"] == []
    assert [t["number"] for t in record["turns"]] == list(range(1, len(record["turns"]) + 1))
    for entry in record["turns"]:
        assert list(entry) == ["number", "orders", "events"]
        for order in entry["orders"]:
            if order["action"] == "crew":
                assert list(order) == ["player", "action", "crew"]
            elif order["action"] == "fire":
                assert list(order) == ["boat", "player", "action", "cell"]
            else:
                assert order["action"] in ("move", "ram", "evade")
                assert list(order) == ["boat", "player", "action", "route"]
                _route(order["route"])
        for event in entry["events"]:
            assert set(event) == {"type", *EVENT_KEYS[event["type"]]}, event
            for key in ("cell", "struck"):
                if key in event:
                    assert CELL.match(event[key])
            if "route" in event:
                _route(event["route"])
            for hit in event.get("hits", ()):
                assert list(hit) == ["boat", "damage"] and hit["damage"] in (1, 2, 3)
    finished = [e for t in record["turns"] for e in t["events"] if e["type"] == "finished"]
    if game["phase"] == "finished":
        (last,) = finished
        assert record["turns"][-1]["events"][-1] == last
        assert (last["winners"], last["draw"]) == (game["winners"], game["draw"])
        assert game["turn"] == record["turns"][-1]["number"]
    else:
        assert finished == [] and game["winners"] == [] and not game["draw"]


# --- nothing hidden in public (rules §4) -----------------------------------------------

CELL_IN_TEXT = re.compile(r"\b([A-Z][1-9][0-9]?)\b")


def hidden_cells(record: Record) -> set[str]:
    """Every cell a boat has been at that the public was never told: not a blast's tile,
    a ram's struck tile or an island's cell."""
    boats = {boat["cell"] for boat in record["start"]["boats"]}
    boats |= {p["cell"] for p in record["players"] if p["cell"]}
    told = {island["cell"] for island in record["game"]["islands"]}
    for entry in record["turns"]:
        for event in entry["events"]:
            if event["type"] in ("moved", "rammed", "evaded"):
                boats.add(event["cell"])
            if event["type"] == "fire":
                told.add(event["cell"])
            if event["type"] == "rammed":
                told.add(event["struck"])
    return boats - told


def assert_no_hidden_cell_in_public(transcript: Iterable[str], record: Record) -> None:
    hidden = hidden_cells(record)
    for line in public(list(transcript)):
        named = set(CELL_IN_TEXT.findall(line)) & hidden
        assert not named, f"{sorted(named)} named in public: {line}"


# --- the shared examples ------------------------------------------------------------


def test_example_first_rounds_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-first-rounds.txt")
    colours = {p["name"]: p["colour"] for p in record["players"]}
    assert colours == {"alice": "red", "bob": "blue", "carol": "green", "dave": "yellow"}
    assert [(b["colour"], b["cell"], b["random"]) for b in record["start"]["boats"]] == [
        ("red", "B5", False),
        ("blue", "F8", False),
        ("green", "H5", False),
        ("yellow", "F4", False),
    ]
    assert events(record, 1) == [
        {"type": "fire", "boat": "red", "cell": "D5", "hits": []},
        {"type": "moved", "boat": "blue", "route": ["up", "up", "left"], "cell": "E6", "fog": False},
        {"type": "moved", "boat": "yellow", "route": ["down"], "cell": "F5", "fog": False},
        {
            "type": "rammed", "boat": "green", "route": ["left"], "cell": "G5", "struck": "F5",
            "hits": [{"boat": "yellow", "damage": 2}], "fog": False,
        },
    ]  # fmt: skip
    round_one = [line for line in public(transcript) if ", round 1:" in line]
    assert len(round_one) == 1
    assert "Blue: up, up, left" in round_one[0] and "F5" in round_one[0]
    assert "E6" not in round_one[0] and "G5" not in round_one[0]
    assert events(record, 2) == [
        {"type": "evaded", "boat": "yellow", "route": ["up", "up"], "cell": "F3"},
        {"type": "fire", "boat": "green", "cell": "E6", "hits": [{"boat": "blue", "damage": 2}]},
        {"type": "cancelled", "boat": "blue", "action": "move"},
        {"type": "moved", "boat": "red", "route": ["right", "right"], "cell": "D5", "fog": False},
        {"type": "moved", "boat": "yellow", "route": ["left"], "cell": "E3", "fog": False},
    ]
    assert any("E6 is 4 away" in line and "range is 2" in line for line in dms(transcript, "alice"))
    now = {p["colour"]: (p["cell"], p["health"]) for p in record["players"]}
    assert now == {"red": ("D5", 3), "blue": ("E6", 1), "green": ("G5", 3), "yellow": ("E3", 1)}
    assert (record["game"]["phase"], record["game"]["turn"]) == ("battle", 3)
    # The evasion is the crew's alone: told to dave, never in public.
    assert said_to(transcript, "evaded up, up") == {"dave"}


def test_example_first_rounds_window_is_the_first_close(run_script_text: Run) -> None:
    text = (SCRIPTS / "uboat-first-rounds.txt").read_text(encoding="utf-8")
    until_window = text[: text.index("alice dm: fire E6")]
    transcript, record = run_script_text(until_window)
    assert len(record["turns"]) == 1 and record["game"]["turn"] == 2
    assert player(record, "dave")["cell"] == "F3"
    # The window's close is not announced: the last public post is round 1's report.
    assert ", round 1:" in public(transcript)[-1]


def test_example_crews_and_scoring_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-crews-and-scoring.txt")
    assert events(record, 1) == [
        {"type": "fire", "boat": "red", "cell": "C3", "hits": []},
        {"type": "fire", "boat": "blue", "cell": "E5", "hits": []},
        {"type": "fire", "boat": "green", "cell": "C7", "hits": []},
        {"type": "captured", "island": 1, "boat": "red", "from": None},
        {"type": "captured", "island": 3, "boat": "green", "from": None},
        {"type": "captured", "island": 5, "boat": "blue", "from": None},
        {"type": "sonar", "boat": "red", "distance": 4},
    ]
    assert said_to(transcript, "Sonar (island 1): the nearest enemy U-boat is 4 away") == {"ann"}
    assert events(record, 2) == [
        {"type": "fire", "boat": "blue", "cell": "D8", "hits": [{"boat": "green", "damage": 3}]},
        {"type": "cancelled", "boat": "green", "action": "move"},
        {"type": "destroyed", "boat": "green", "freed": [3]},
        {"type": "sonar", "boat": "red", "distance": 4},
    ]
    assert not any(e["type"] == "evaded" for e in events(record, 3))
    assert not any("Round 3's evade window" in line for line in public(transcript))
    assert any("C7 is 2 away" in line and "range is 1" in line for line in dms(transcript, "ben"))
    assert turn(record, 3)["orders"] == [
        {"boat": "red", "player": "ann", "action": "fire", "cell": "E5"},
        {"boat": "blue", "player": "ben", "action": "move", "route": ["up"]},
        {"player": "cy", "action": "crew", "crew": "red"},
    ]
    assert events(record, 3) == [
        {"type": "fire", "boat": "red", "cell": "E5", "hits": []},
        {"type": "captured", "island": 5, "boat": "red", "from": "blue"},
        {"type": "moved", "boat": "blue", "route": ["up"], "cell": "E6", "fog": False},
        {"type": "joined", "player": "cy", "crew": "red", "chosen": True},
        {
            "type": "finished", "winners": ["ann", "cy"], "draw": False, "boats": ["red"],
            "scores": {"red": 6, "blue": 0}, "marks": ["ann"], "first_duelist": "ben",
        },
    ]  # fmt: skip
    assert (record["game"]["phase"], record["game"]["turn"]) == ("finished", 3)
    assert player(record, "cy")["status"] == "alive" and player(record, "cy")["crew"] == "red"
    # The result is said once, in the last round's report (not again as a notice).
    assert sum("Red wins: ann, cy" in line for line in public(transcript)) == 1


# --- options, refusals, the host's words ---------------------------------------------


def test_1_options_bad_values_refused_then_every_option_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-options.txt")
    refusals = dms(transcript, "host")
    for expected in (
        "size must be a whole number from 5 to 26; got '4'",
        "size must be a whole number from 5 to 26; got '27'",
        "unknown option 'colour': the options of uboat are size, islands",
        "island numbers must be distinct",
        "island cells must be distinct",
        "island numbers must be from 1 to 99; got 100",
        "island 1 at Z3 is off the 9x9 board",
        "island_powers must be house or none; got 'some'",
        "rounds must be a whole number from 1 to 99; got '0'",
        "rounds must be a whole number from 1 to 99; got '100'",
        "round must be from 2m to 1d; got 1m",
        "round must be from 2m to 1d; got 2d",
        "evade_window must be from 1m to less than the round (10m); got 10m",
        "evade_window must be from 1m to less than the round (5m); got 5m",
        "evade_window must be from 1m to less than the round (10m); got 30s",
        "the default islands (1@C3,2@G3,3@C7,4@G7,5@E5) need size 7 or more",
        "seed: expected a whole number",
        "starting needs at least 2 players; 1 has joined",
    ):
        assert any(expected in line for line in refusals), expected
    # The refused @game lines opened no game: the one that opened is game 1.
    assert public(transcript)[0].startswith("-> public: #uboat game 1 is open on a 7x7 sea")
    game = record["game"]
    assert game["options"] == {
        "size": "7", "islands": "2@B2,5@F6", "island_powers": "none", "rounds": "2",
        "round": "1h30m", "evade_window": "1h", "seed": "7",
    }  # fmt: skip
    assert game["size"] == 7
    assert [(i["number"], i["cell"]) for i in game["islands"]] == [(2, "B2"), (5, "F6")]
    assert boat_start(record, "green") == {
        "colour": "green", "captain": "cy", "cell": "D4", "random": True,
    }  # fmt: skip
    assert any("placed at random: it starts at D4" in line for line in dms(transcript, "cy"))
    assert any("Round 1 closes 2026-01-01 01:30 UTC" in line for line in public(transcript))
    assert events(record, 1) == [
        {"type": "fire", "boat": "red", "cell": "F6", "hits": []},
        {"type": "captured", "island": 5, "boat": "red", "from": None},
    ]
    (fire,) = events(record, 2, "fire")
    assert hits(fire) == [("blue", 2), ("green", 1)]
    assert events(record, 2, "finished") == [
        {
            "type": "finished", "winners": ["ann"], "draw": False, "boats": ["red"],
            "scores": {"red": 5, "blue": 0, "green": 0}, "marks": ["ann"], "first_duelist": "ben",
        }
    ]  # fmt: skip


def test_3_refusals_say_why_and_change_nothing_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-refusals.txt")
    ann = " ".join(dms(transcript, "ann"))
    for expected in (
        "the hunt has not started yet: for now send your secret starting cell, e.g. `start E6`",
        "C3 is island 1: start on water",
        "J2 is off the 9x9 board (A1 to I9)",
        "expected an order such as `fire E6`",
        "orders are secret: send them to me by DM",
        "starting cells are sent in setup",
        "F5 is 4 away and Red's range is 3 this round",
        "A10 is off the 9x9 board",
        "a route has 1 to 3 steps; 'up up up up' has 4",
        "step 3 of right, up, up from B5 would enter island 1 at C3",
        "no evade window is open for Red",
        "you are on Red's crew: `crew` is only for a player whose U-boat was sunk",
        "B8 is 3 away and Red's range is 2 this round",
    ):
        assert expected in ann, expected
    # A secret posted in public is answered privately and never echoed in public: no
    # public post names B5 or B8 before round 1's report (which names B8, the blast's tile).
    posts = public(transcript)
    report = next(i for i, line in enumerate(posts) if ", round 1:" in line)
    assert report >= 3 and not any("B5" in line or "B8" in line for line in posts[:report])
    assert any("joining is closed" in line for line in dms(transcript, "fay"))
    ben = " ".join(dms(transcript, "ben"))
    assert ben.count("your U-boat was sunk, so you give no orders") == 2
    assert "Blue was sunk: choose a U-boat afloat (red, green, yellow, purple)" in ben
    assert "there is no Orange U-boat in this game" in ben
    assert "you are on Red's crew: `crew` is only for a player whose U-boat was sunk" in ben
    assert turn(record, 1)["orders"] == [
        {"boat": "red", "player": "ann", "action": "fire", "cell": "B8"}
    ]
    assert hits(events(record, 1, "fire")[0]) == [("blue", 2)]
    assert turn(record, 2) == {"number": 2, "orders": [], "events": []}
    assert events(record, 3, "destroyed") == [{"type": "destroyed", "boat": "blue", "freed": []}]
    assert turn(record, 4) == {
        "number": 4,
        "orders": [{"player": "ben", "action": "crew", "crew": "red"}],
        "events": [{"type": "joined", "player": "ben", "crew": "red", "chosen": True}],
    }
    assert (player(record, "ben")["status"], player(record, "ben")["crew"]) == ("alive", "red")
    assert turn(record, 5)["orders"] == []
    (finished,) = events(record, 5)
    assert finished["draw"] and finished["boats"] == ["red", "green", "yellow", "purple"]
    assert finished["winners"] == ["ann", "ben", "cy", "dee", "eve"]
    after_end = transcript[
        transcript.index(next(line for line in transcript if "replay" in line)) :
    ]
    assert len(after_end) == 3 and all(line.startswith("-> dm ") for line in after_end[1:])


def test_host_words_seven_joins_leave_pause_extend_kick_end_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-host-words.txt")
    assert any("this game is full: 6 U-boats at most" in line for line in dms(transcript, "p7"))
    assert any("there is no `leave` in U-Boat Shootout" in line for line in dms(transcript, "p6"))
    assert player(record, "p6") == {
        "name": "p6", "status": "left", "colour": None, "crew": None, "health": 0,
        "cell": None, "afloat": False, "islands": [],
    }  # fmt: skip
    assert player(record, "p7")["colour"] == "orange"
    assert [b["captain"] for b in record["start"]["boats"]] == ["p1", "p2", "p3", "p4", "p5", "p7"]
    posts = public(transcript)
    assert any("Round 2's evade window closes 2026-01-01 00:11 UTC" in line for line in posts)
    assert any("resumed: round 2's evade window closes 2026-01-01 01:11 UTC; round 2 closes "
               "2026-01-01 01:20 UTC" in line for line in posts)  # fmt: skip
    assert any(
        "evade window extended: it now closes 2026-01-01 01:16 UTC" in line for line in posts
    )
    assert events(record, 2) == [
        {"type": "evaded", "boat": "blue", "route": ["down"], "cell": "A4"},
        {"type": "left", "player": "p3"},
        {"type": "destroyed", "boat": "green", "freed": [2]},
    ]
    assert player(record, "p2")["cell"] == "A4"
    assert any("Round 3 closes 2026-01-01 01:35 UTC" in line for line in posts)
    assert any("p3 was removed from the game by the host. Green is out of the game: no one is left aboard. Island 2 is free." in line
               for line in posts)  # fmt: skip
    (finished,) = events(record, 3)
    assert finished["type"] == "finished" and finished["draw"]
    assert finished["winners"] == ["p1", "p2", "p4", "p5", "p7"]
    assert (record["game"]["phase"], record["game"]["turn"]) == ("finished", 3)
    # The result is said once (the host's headline, then the game's result).
    assert sum("The game ends in a draw" in line for line in posts) == 1


# --- rounds, powers, crews and endings -----------------------------------------------


def test_3_6_evasion_withdraws_what_no_longer_fits_and_wait_fires_in_order_script(
    run_script_text: Run,
) -> None:
    transcript, record = play(run_script_text, "uboat-evasion-and-wait.txt")
    assert any(
        "your `fire A1` no longer fits and is withdrawn (A1 is 4 away" in line
        for line in dms(transcript, "ben")
    )
    assert any("A2 is 4 away" in line and "from A6" in line for line in dms(transcript, "ben"))
    assert turn(record, 2)["orders"] == [
        {"boat": "red", "player": "ann", "action": "move", "route": ["right"]},
        {"boat": "blue", "player": "ben", "action": "evade", "route": ["down", "down", "down"]},
        {"boat": "blue", "player": "ben", "action": "fire", "cell": "A4"},
    ]
    assert events(record, 2) == [
        {"type": "evaded", "boat": "blue", "route": ["down", "down", "down"], "cell": "A6"},
        {"type": "fire", "boat": "blue", "cell": "A4", "hits": []},
        {"type": "moved", "boat": "red", "route": ["right"], "cell": "B1", "fog": False},
    ]
    assert said_to(transcript, "evaded down, down, down") == {"ben"}
    # The window's close posted nothing in public: round 1's report, then round 2's.
    reports = [line for line in public(transcript) if ", round " in line]
    assert [line.split(", round ")[1][:2] for line in reports[:2]] == ["1:", "2:"]
    assert not any("evade" in line.lower() for line in reports[1:])
    assert [t["number"] for t in record["turns"]] == [1, 2, 3, 4]
    assert record["game"]["turn"] == 5 and record["game"]["phase"] == "battle"
    assert any("Round 5 closes 2026-01-01 00:50 UTC" in line for line in public(transcript))


def test_7_house_island_powers_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-powers.txt")
    assert events(record, 1, "captured") == [
        {"type": "captured", "island": 1, "boat": "yellow", "from": None},
        {"type": "captured", "island": 2, "boat": "red", "from": None},
        {"type": "captured", "island": 3, "boat": "green", "from": None},
        {"type": "captured", "island": 4, "boat": "blue", "from": None},
    ]
    assert [hits(e) for e in events(record, 1, "fire")] == [[], [("blue", 1)], [("green", 1)], []]
    assert events(record, 1, "sonar") == [{"type": "sonar", "boat": "yellow", "distance": 3}]
    assert said_to(transcript, "Sonar (island 1): the nearest enemy U-boat is 3 away") == {"dee"}
    ann = " ".join(dms(transcript, "ann"))
    assert "E7 is 4 away and Red's range is 3 this round (3, +1 with Long guns, −1" in ann
    assert "E6 is 3 away and Red's range is 2 this round (3, +1 with Long guns, −2" in ann
    assert turn(record, 2)["orders"][0] == {
        "boat": "red", "player": "ann", "action": "fire", "cell": "E6",
    }  # fmt: skip
    assert events(record, 2, "moved") == [
        {"type": "moved", "boat": "blue", "route": ["left", "up"], "cell": "F7", "fog": True}
    ]
    assert events(record, 2, "healed") == [{"type": "healed", "boat": "green", "health": 3}]
    assert said_to(transcript, "the Dry dock repaired Green: health 3") == {"cy"}
    round_two = next(line for line in public(transcript) if ", round 2:" in line)
    assert "Blue moved." in round_two and "left" not in round_two and "F7" not in round_two
    assert events(record, 3, "rammed") == [
        {
            "type": "rammed", "boat": "blue", "route": ["up"], "cell": "F6", "struck": "F5",
            "hits": [], "fog": True,
        }
    ]  # fmt: skip
    round_three = next(line for line in public(transcript) if ", round 3:" in line)
    assert "Blue rammed, striking F5: no U-boat hit." in round_three
    assert events(record, 3, "captured") == [
        {"type": "captured", "island": 5, "boat": "red", "from": None}
    ]
    (finished,) = events(record, 3, "finished")
    assert finished["winners"] == ["ann"]
    assert finished["scores"] == {"red": 7, "blue": 4, "green": 3, "yellow": 1}


def test_5_a_sunk_boats_player_is_adrift_until_the_next_rounds_end(run_script_text: Run) -> None:
    text = (SCRIPTS / "uboat-crews.txt").read_text(encoding="utf-8")
    _, record = run_script_text(text[: text.index("@close") + len("@close")])
    ben = player(record, "ben")
    assert (ben["status"], ben["crew"], ben["afloat"], ben["health"]) == (
        "eliminated", None, False, 0,
    )  # fmt: skip
    assert record["game"]["turn"] == 2


def test_5_crews_default_and_chosen_captain_first_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-crews.txt")
    assert [hits(e) for e in events(record, 1, "fire")] == [[("blue", 2)], [("blue", 2)]]
    assert events(record, 1, "destroyed") == [{"type": "destroyed", "boat": "blue", "freed": []}]
    assert events(record, 2) == [
        {"type": "joined", "player": "ben", "crew": "red", "chosen": False}
    ]
    assert any(
        "ben joined Red's crew (the crew with fewest members)" in p for p in public(transcript)
    )
    assert any("Red: ben's order `move up` now stands" in line for line in dms(transcript, "ann"))
    ben = " ".join(dms(transcript, "ben"))
    assert "Red: captain ann's order `fire D6` now stands" in ben
    assert "captain ann's `fire D6` stands over yours" in ben
    assert turn(record, 3)["orders"] == [
        {"boat": "red", "player": "ann", "action": "fire", "cell": "D6"},
        {"boat": "green", "player": "cy", "action": "fire", "cell": "D6"},
    ]
    assert events(record, 3, "destroyed") == [{"type": "destroyed", "boat": "yellow", "freed": []}]
    assert turn(record, 4) == {
        "number": 4,
        "orders": [
            {"boat": "red", "player": "ben", "action": "move", "route": ["down"]},
            {"player": "dee", "action": "crew", "crew": "green"},
        ],
        "events": [
            {"type": "moved", "boat": "red", "route": ["down"], "cell": "C5", "fog": False},
            {"type": "joined", "player": "dee", "crew": "green", "chosen": True},
        ],
    }
    (finished,) = events(record, 5)
    assert (finished["draw"], finished["winners"]) == (True, ["ann", "ben", "cy", "dee"])
    assert finished["boats"] == ["red", "green"]
    assert [(p["name"], p["crew"]) for p in record["players"]] == [
        ("ann", "red"), ("ben", "red"), ("cy", "green"), ("dee", "green"),
    ]  # fmt: skip


def test_3_4_rams_strike_after_moves_and_the_last_boat_wins_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-rams-and-last-boat.txt")
    assert events(record, 1) == [
        {
            "type": "rammed", "boat": "red", "route": ["down", "down"], "cell": "B3",
            "struck": "B4", "hits": [{"boat": "blue", "damage": 2}], "fog": False,
        },
        {
            "type": "rammed", "boat": "green", "route": ["down"], "cell": "E4", "struck": "E5",
            "hits": [], "fog": False,
        },
    ]  # fmt: skip
    assert record["game"]["islands"][0]["owner"] is None
    assert events(record, 2) == [
        {"type": "evaded", "boat": "blue", "route": ["down"], "cell": "B5"},
        {"type": "fire", "boat": "blue", "cell": "B3", "hits": [{"boat": "red", "damage": 2}]},
        {"type": "cancelled", "boat": "red", "action": "ram"},
        {"type": "moved", "boat": "green", "route": ["left", "left"], "cell": "C4", "fog": False},
    ]
    assert events(record, 3) == [
        {"type": "fire", "boat": "green", "cell": "B3", "hits": [{"boat": "red", "damage": 2}]},
        {
            "type": "rammed", "boat": "blue", "route": ["up"], "cell": "B4", "struck": "B3",
            "hits": [{"boat": "red", "damage": 2}], "fog": False,
        },
        {"type": "destroyed", "boat": "red", "freed": []},
    ]  # fmt: skip
    assert events(record, 4) == [
        {
            "type": "fire", "boat": "green", "cell": "B4",
            "hits": [{"boat": "blue", "damage": 2}, {"boat": "green", "damage": 1}],
        },
        {"type": "destroyed", "boat": "blue", "freed": []},
        {"type": "joined", "player": "ann", "crew": "green", "chosen": False},
        {
            "type": "finished", "winners": ["ann", "cy"], "draw": False, "boats": ["green"],
            "scores": {"green": 0}, "marks": ["cy"], "first_duelist": "ben",
        },
    ]  # fmt: skip
    assert player(record, "ben")["status"] == "eliminated"
    assert any("Green wins: ann, cy" in line for line in public(transcript))


def test_6_tie_goes_to_the_largest_island_and_contested_islands_stay_script(
    run_script_text: Run,
) -> None:
    _, record = play(run_script_text, "uboat-endings.txt")
    assert events(record, 1, "captured") == [
        {"type": "captured", "island": 1, "boat": "blue", "from": None},
        {"type": "captured", "island": 3, "boat": "red", "from": None},
    ]
    assert events(record, 2, "captured") == [
        {"type": "captured", "island": 2, "boat": "blue", "from": None}
    ]
    (finished,) = events(record, 2, "finished")
    assert finished == {
        "type": "finished", "winners": ["ann"], "draw": False, "boats": ["red"],
        "scores": {"red": 3, "blue": 3, "green": 0}, "marks": ["ann"], "first_duelist": "ben",
    }  # fmt: skip
    assert [i["owner"] for i in record["game"]["islands"]] == ["blue", "blue", "red"]


def test_6_last_boats_sinking_together_draw_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "uboat-sunk-together.txt")
    assert events(record, 1) == [
        {"type": "fire", "boat": "red", "cell": "C5",
         "hits": [{"boat": "red", "damage": 1}, {"boat": "blue", "damage": 2}]},
        {"type": "fire", "boat": "blue", "cell": "C4",
         "hits": [{"boat": "red", "damage": 2}, {"boat": "blue", "damage": 1}]},
        {"type": "destroyed", "boat": "red", "freed": []},
        {"type": "destroyed", "boat": "blue", "freed": []},
        {"type": "finished", "winners": ["ann", "ben"], "draw": True, "boats": ["red", "blue"],
         "scores": {}, "marks": [], "first_duelist": None},
    ]  # fmt: skip
    assert [p["status"] for p in record["players"]] == ["eliminated", "eliminated"]


def test_every_script_is_played_by_a_test() -> None:
    played = {match for match in re.findall(r'"(uboat-[a-z-]+\.txt)"', Path(__file__).read_text())}
    assert {path.name for path in SCRIPTS.glob("*.txt")} <= played


# --- nothing hidden in public -----------------------------------------------------------

TWIN = """\
@game uboat islands=none rounds=6
ann public: #uboat join
ben dm: join
cy dm: join
dee public: #uboat join
ann dm: start {ann}
ben dm: start B3
cy dm: start {cy}
dee dm: start {dee}
@start
ann dm: fire B3
cy dm: move left
dee dm: move up up
@close
{evasion}
@close
dee dm: fire E4
cy dm: move down
@close
ann public: #uboat status
@host end
"""


@pytest.mark.parametrize(
    "twins",
    [
        (
            {"ann": "A1", "cy": "H2", "dee": "E8", "evasion": "ben dm: evade down"},
            {"ann": "D3", "cy": "G6", "dee": "F5", "evasion": "# (no evasion)"},
        )
    ],
)
def test_4_games_differing_only_in_hidden_facts_post_the_same_public_bytes(
    run_script_text: Run, twins: tuple[dict[str, str], dict[str, str]]
) -> None:
    first, second = (run_script_text(TWIN.format(**facts)) for facts in twins)
    # The hidden facts differ: starts, cells now, an evasion...
    assert first[1]["start"] != second[1]["start"]
    assert [p["cell"] for p in first[1]["players"]] != [p["cell"] for p in second[1]["players"]]
    # ...and nothing public tells them apart.
    assert public(first[0]) == public(second[0])
    assert len(public(first[0])) >= 8
    for transcript, record in (first, second):
        assert_record_format(record)
        assert_no_hidden_cell_in_public(transcript, record)


def test_6_awards_a_mark_to_the_winning_captain_and_the_first_duelist_script(
    run_script_text: Run,
) -> None:
    transcript, record = play(run_script_text, "uboat-awards.txt")
    assert events(record, 2, "joined") == [
        {"type": "joined", "player": "cy", "crew": "blue", "chosen": True}
    ]
    (finished,) = events(record, 4, "finished")
    assert finished == {
        "type": "finished", "winners": ["ann"], "draw": False, "boats": ["red"],
        "scores": {"red": 0}, "marks": ["ann"], "first_duelist": "cy",
    }  # fmt: skip
    assert any(
        "ann earns a mark of victory; cy is the First Duelist" in line
        for line in public(transcript)
    )
    # The game is over: the sunk crew is not asked to choose a crew to join.
    assert not any("send `crew" in line for line in dms(transcript, "cy")[-3:])


def test_2_a_players_start_without_a_readable_cell_is_answered_about_the_cell_script(
    run_script_text: Run,
) -> None:
    transcript, record = play(run_script_text, "uboat-start-unreadable.txt")
    answers = dms(transcript, "ben")
    assert sum("start needs a cell" in line for line in answers) == 2
    # the Cyrillic В is pointed out as typed, with the Latin spelling (#42, look-alikes)
    assert any("'В4' is written with a Cyrillic letter" in line for line in answers)
    assert any("`B4`" in line for line in answers)
    assert not any("only the game's host" in line for line in answers)
    assert boat_start(record, "blue")["cell"] == "B4"


def test_board_after_the_end_shows_the_final_board(run_script_text: Run) -> None:
    script = (SCRIPTS / "uboat-awards.txt").read_text(encoding="utf-8") + "ann dm: board\n"
    transcript, _ = run_script_text(script)
    last = dms(transcript, "ann")[-1]
    assert "not in a game" not in last
    assert "finished after round 4" in last and "Winners: ann." in last


def test_6_places_count_crews_so_the_runner_up_boat_is_2nd(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "uboat-crews-and-scoring.txt")
    assert record["game"]["winners"] == ["ann", "cy"]  # Red's crew: ann and cy
    assert any("you share 1st place of 3 with 1 other" in line for line in dms(transcript, "cy"))
    assert any("you came 2nd of 3" in line for line in dms(transcript, "ben"))


def test_3_6_an_evasion_is_told_once_and_a_plain_range_is_not_explained(
    run_script_text: Run,
) -> None:
    transcript, _ = play(run_script_text, "uboat-evasion-and-wait.txt")
    told = [line for line in dms(transcript, "ben") if "evaded down, down, down" in line]
    assert len(told) == 1 and told[0].count("evaded") == 1
    assert any("range is 3 this round: fire at" in line for line in dms(transcript, "ben"))
    assert not any("this round (3)" in line for line in transcript)


def test_status_says_rounds_in_a_game_of_rounds(run_script_text: Run) -> None:
    script = "@game uboat islands=none\nann dm: join\nben dm: join\n@start\nann dm: status\n"
    transcript, _ = run_script_text(script)
    status = dms(transcript, "ann")[-1]
    assert "match, round 1\\nRound closes" in status and "turn" not in status.lower()
