"""Silent Ships through the real host: every script of tests/games/silentships/scripts/ played
with ``run_script_text``, each ``# expect:`` fact asserted on the record the host wrote,
the record's shape checked key by key against shared/contracts/silentships.md, and the
game's secrets kept out of every public post (design rule 3).

Tests are named after the rules' sections (shared/rules/silentships.md) or the contract.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import script as script_cli
from bot.games.base import Event
from bot.games.catalog import get_game
from bot.games.silentships.ships import SHIP_ORDER, Ship

SCRIPTS = Path(__file__).resolve().parent / "scripts"
ALL_SCRIPTS = sorted(SCRIPTS.glob("*.txt"))

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]


def play(run_script_text: Run, name: str) -> tuple[list[str], Record]:
    return run_script_text((SCRIPTS / name).read_text(encoding="utf-8"))


def player(record: Record, name: str) -> Record:
    (found,) = [p for p in record["players"] if p["name"] == name]
    return found


def turn(record: Record, number: int) -> Record:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return found


def events(record: Record, number: int, kind: str | None = None) -> list[Record]:
    return [e for e in turn(record, number)["events"] if kind is None or e["type"] == kind]


def orders(record: Record, number: int) -> list[Record]:
    return list(turn(record, number)["orders"])


def public(transcript: Iterable[str]) -> list[str]:
    return [line for line in transcript if line.startswith("-> public: ")]


def dms(transcript: Iterable[str], name: str) -> list[str]:
    return [line for line in transcript if line.startswith(f"-> dm {name}: ")]


def after(transcript: list[str], needle: str) -> list[str]:
    """The lines printed after the first line that contains ``needle``."""
    index = next(i for i, line in enumerate(transcript) if needle in line)
    return transcript[index + 1 :]


# --- the record's shape (shared/contracts/silentships.md, "The record") --------------

IDS = [ship.value for ship in SHIP_ORDER]
CELL_ORDER = [f"{col}{row}" for row in range(1, 5) for col in "ABCDE"]
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
ACTIONS = {
    "play": {"ship", "cell"},
    "move": {"from", "to", "discard"},
    "support": {"cell", "discard"},
    "go": set(),
    "retreat": {"discard"},
    "pass": set(),
    "retreat_to": {"cell"},
    "reveal": {"cell"},
    "swap": {"cell", "ship"},
    "end": set(),
    "offer_draw": set(),
    "accept": set(),
    "leave": set(),
}
EVENT_KEYS = {
    "drew": {"player", "cards"},
    "reshuffled": {"player", "deck"},
    "played": {"player", "ship", "cell"},
    "moved": {"player", "ship", "from", "to"},
    "attack": {"player", "ship", "from", "to", "target"},
    "support": {"player", "ship", "cell", "side"},
    "retreated": {"player", "ship", "from", "to"},
    "revealed": {"player", "ship", "cell"},
    "combat": {"attacker", "defender", "attack", "defence", "winner"},
    "sunk": {"player", "ship", "cell", "by"},
    "hidden": {"player", "ship", "cell"},
    "swapped": {"player", "cell", "ship"},
    "finished": {"winners", "draw", "reason", "sank"},
}
OPTION_KEYS = {"move_time", "response_time", "max_turns", "first", "deck1", "deck2"}


def assert_contract_shape(record: Record) -> None:
    """Every key the contract names, with values of its kinds, and the card bookkeeping:
    each player's 11 ships in exactly one of deck, hand, discards, units, the other's sank."""
    # The contract's keys, and the host's own addition: the journal that replays it (#31).
    assert set(record) == {"format", "game", "players", "start", "turns", "replay"}
    assert record["format"] == "silentships-record/1"
    game = record["game"]
    assert set(game) == {
        "kind", "cols", "rows", "islands", "options", "phase", "turn", "player", "step",
        "offer", "deadline", "winners", "draw",
    }  # fmt: skip
    assert (game["kind"], game["cols"], game["rows"], game["islands"]) == (
        "silentships", 5, 4, ["A2", "E3"],
    )  # fmt: skip
    assert OPTION_KEYS <= set(game["options"]) <= OPTION_KEYS | {"seed"}
    assert all(isinstance(value, str) for value in game["options"].values())
    assert game["draw"] is False
    names = [p["name"] for p in record["players"]]
    if game["phase"] == "battle":
        assert game["player"] in names and game["winners"] == []
        assert game["step"] in ("actions", "supports", "response", "retreat")
        assert STAMP.match(game["deadline"])
        assert game["offer"] in (None, *names)
    else:
        assert (game["player"], game["step"], game["deadline"], game["offer"]) == (None,) * 4
    if game["phase"] == "finished":
        assert len(game["winners"]) == 1 and game["winners"][0] in names
    for admiral in record["players"]:
        assert set(admiral) == {
            "name", "status", "country", "hand", "deck", "discards", "units", "sank",
        }  # fmt: skip
        assert admiral["status"] in ("alive", "eliminated", "left")
        assert admiral["hand"] == sorted(admiral["hand"], key=IDS.index)
        cells = [unit["cell"] for unit in admiral["units"]]
        assert cells == sorted(cells, key=CELL_ORDER.index)
        assert all(set(unit) == {"cell", "ship", "face_up"} for unit in admiral["units"])
    if record["start"]:
        assert set(record["start"]) == {"first", "decks"}
        assert {name: sorted(deck) for name, deck in record["start"]["decks"].items()} == {
            name: sorted(IDS) for name in names
        }
        for admiral in record["players"]:
            (other,) = [p for p in record["players"] if p is not admiral]
            held = (
                admiral["deck"] + admiral["hand"] + admiral["discards"] + other["sank"]
                + [unit["ship"] for unit in admiral["units"]]
            )  # fmt: skip
            assert sorted(held) == sorted(IDS), admiral["name"]
    turns = record["turns"]
    assert [t["number"] for t in turns] == list(range(1, len(turns) + 1))
    if turns:
        first = record["start"]["first"]
        (second,) = [name for name in names if name != first]
        assert [t["player"] for t in turns] == [(first, second)[i % 2] for i in range(len(turns))]
    for number, entry in enumerate(turns, start=1):
        assert set(entry) == {"number", "player", "began", "orders", "events"}
        assert STAMP.match(entry["began"])
        for order in entry["orders"]:
            assert order["player"] in names
            keys = set(order) - {"player", "action", "timeout"}
            assert keys == ACTIONS[order["action"]], order
            assert order.get("timeout", False) in (True, False)
        kinds = [event["type"] for event in entry["events"]]
        opening = 2 if kinds[:1] == ["reshuffled"] else 1
        assert kinds[opening - 1] == "drew", f"turn {number} opens with its draw"
        for event in entry["events"]:
            assert set(event) - {"type"} == EVENT_KEYS[event["type"]], event
        if "finished" in kinds:
            assert kinds[-1] == "finished" and number == len(turns)
    if game["phase"] == "finished" and turns:
        assert turns[-1]["events"][-1]["type"] == "finished"


# --- nothing hidden in public (rules §6; contract, "Orders") -----------------------


def ship_words(ship: Ship) -> tuple[str, ...]:
    return (ship.value, ship.card.name, ship.card.short)


def named_ships(line: str) -> set[Ship]:
    """The ships a line names, by id, card name or short word (as whole words)."""
    return {
        ship
        for ship in SHIP_ORDER
        for word in ship_words(ship)
        if re.search(rf"(?<![A-Za-z_]){re.escape(word)}(?![A-Za-z_])", line, re.IGNORECASE)
    }


def public_ships(record: Record) -> set[Ship]:
    """Ships that were face-up or in a sunk pile at some moment of the game."""
    return {
        Ship(event["ship"])
        for t in record["turns"]
        for event in t["events"]
        if event["type"] in ("revealed", "sunk", "hidden", "swapped")
    }


def assert_no_hidden_ship_in_public(transcript: list[str], record: Record) -> None:
    allowed = public_ships(record)
    for line in public(transcript):
        leaked = named_ships(line) - allowed
        assert not leaked, f"{sorted(s.value for s in leaked)} named in public: {line}"


# --- every script --------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_SCRIPTS, ids=[p.stem for p in ALL_SCRIPTS])
def test_every_script_keeps_the_contract_and_its_secrets(run_script_text: Run, path: Path) -> None:
    transcript, record = run_script_text(path.read_text(encoding="utf-8"))
    assert_contract_shape(record)
    assert_no_hidden_ship_in_public(transcript, record)


def test_every_script_has_a_test_of_its_facts() -> None:
    tested = {
        name.removeprefix("test_script_") for name in globals() if name.startswith("test_script_")
    }
    assert {p.stem.replace("-", "_") for p in ALL_SCRIPTS} == tested


# --- the shared examples ---------------------------------------------------------


def test_script_silentships_first_game(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "silentships-first-game.txt")
    assert record["start"]["first"] == "ahab"
    assert (player(record, "ahab")["country"], player(record, "nemo")["country"]) == ("C1", "C4")
    assert record["game"]["islands"] == ["A2", "E3"]
    assert events(record, 1)[0] == {
        "type": "drew", "player": "ahab", "cards": ["speed_boat", "patrol_ship"],
    }  # fmt: skip
    assert [(o["action"], o.get("ship") or o.get("discard")) for o in orders(record, 1)] == [
        ("play", "frigate"), ("move", "patrol_ship"), ("play", "ramming_ship"), ("end", None),
    ]  # fmt: skip
    assert any("ships are played on B1, C1 or D1 only" in line for line in dms(transcript, "ahab"))
    assert events(record, 2) == [
        {"type": "drew", "player": "nemo", "cards": ["ammunition_ship", "flag_ship"]},
        {"type": "played", "player": "nemo", "ship": "submarine", "cell": "D4"},
        {"type": "moved", "player": "nemo", "ship": "submarine", "from": "D4", "to": "D3"},
        {"type": "played", "player": "nemo", "ship": "missile_boat", "cell": "C4"},
    ]
    assert events(record, 3, "attack") == [
        {"type": "attack", "player": "ahab", "ship": "frigate", "from": "D2", "to": "D3",
         "target": "submarine"},
    ]  # fmt: skip
    assert events(record, 3)[-7:] == [
        {"type": "support", "player": "ahab", "ship": "ramming_ship", "cell": "C3", "side": "attack"},
        {"type": "revealed", "player": "ahab", "ship": "frigate", "cell": "D2"},
        {"type": "revealed", "player": "nemo", "ship": "submarine", "cell": "D3"},
        {"type": "revealed", "player": "ahab", "ship": "ramming_ship", "cell": "C3"},
        {"type": "combat", "attacker": "ahab", "defender": "nemo", "attack": 7, "defence": 3,
         "winner": "attack"},
        {"type": "sunk", "player": "nemo", "ship": "submarine", "cell": "D3", "by": "ahab"},
        {"type": "moved", "player": "ahab", "ship": "frigate", "from": "D2", "to": "D3"},
    ]  # fmt: skip
    ahab = player(record, "ahab")
    assert (ahab["sank"], ahab["hand"]) == (["submarine"], [])
    assert ahab["discards"] == [
        "patrol_ship", "salvage_ship", "special_operations_craft", "speed_boat", "fire_ship",
    ]  # fmt: skip
    assert events(record, 4) == [
        {"type": "drew", "player": "nemo", "cards": ["speed_boat", "salvage_ship"]},
    ]
    assert (record["game"]["turn"], record["game"]["player"]) == (4, "nemo")
    # The defender's question goes to nemo alone; the public hears only that nemo answers.
    question = [line for line in dms(transcript, "nemo") if "Answer by DM within 10m" in line]
    assert len(question) == 1 and "ahab attacks your unit on D3 from D2" in question[0]
    assert not [line for line in public(transcript) if "Answer by DM" in line]
    assert any("nemo answers within 10m" in line for line in public(transcript))


def test_script_silentships_clock(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "silentships-clock.txt")
    assert orders(record, 1)[-1] == {"player": "kit", "action": "end", "timeout": True}
    assert turn(record, 2)["began"] == "2026-01-01T04:00:00Z"
    assert {"player": "kit", "action": "pass", "timeout": True} in orders(record, 2)
    assert events(record, 2, "revealed") == [
        {"type": "revealed", "player": "lou", "ship": "speed_boat", "cell": "B4"},  # by `reveal`
        {"type": "revealed", "player": "kit", "ship": "patrol_ship", "cell": "B2"},
    ]
    assert events(record, 2, "combat") == [
        {"type": "combat", "attacker": "lou", "defender": "kit", "attack": 4, "defence": 4,
         "winner": "defence"},
    ]  # fmt: skip
    assert orders(record, 2)[-1] == {"player": "lou", "action": "end", "timeout": True}
    assert turn(record, 3)["began"] == "2026-01-01T08:30:00Z"
    assert record["game"]["deadline"] == "2026-01-01T12:30:00Z"
    # The answer's deadline, then lou's turn with the 3h it had left (05:30 + 3h).
    assert any("lou's turn 2 closes 2026-01-01 08:30 UTC" in line for line in public(transcript))


def test_script_silentships_endings(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "silentships-endings.txt")
    assert events(record, 2, "combat")[0]["defence"] == 6
    assert events(record, 2, "sunk") == [
        {"type": "sunk", "player": "ahab", "ship": "fire_ship", "cell": "D2", "by": "nemo"},
    ]
    assert not [e for e in events(record, 2, "moved") if e["to"] == "D2"]
    assert player(record, "nemo")["units"] == [
        {"cell": "D3", "ship": "ramming_ship", "face_up": True},
    ]
    assert player(record, "nemo")["sank"] == ["fire_ship"]
    assert events(record, 2)[-1] == {
        "type": "finished", "winners": ["nemo"], "draw": False, "reason": "agreed",
        "sank": {"ahab": 0, "nemo": 1},
    }  # fmt: skip
    assert [p["status"] for p in record["players"]] == ["eliminated", "alive"]
    assert any("there is no offer to accept" in line for line in dms(transcript, "ahab"))
    # The winner is said once in the final post (not by the report and again by the result).
    # (The offer's terms say "nemo wins" too, conditionally: that post is the offer's.)
    final = [
        line for line in public(transcript) if "nemo wins" in line and "offers to stop" not in line
    ]
    assert len(final) == 1 and final[0].count("nemo wins") == 1


def test_6_one_public_picture_a_turn_and_one_a_combat(tmp_path: Path) -> None:
    """Rules §6 as hosted: the plays and moves of a turn are shown by its map; the channel
    gets a picture as the battle begins, with each combat and as each turn ends, never one
    an action (a 25-turn game posted 107 pictures). Played with its pictures drawn."""
    record_path = tmp_path / "record.json"
    result = asyncio.run(
        script_cli.run_script(
            SCRIPTS / "silentships-first-game.txt",
            record_path=record_path,
            out_dir=tmp_path / "out",
            echo=lambda _line: None,
            database=tmp_path / "db.sqlite",
        )
    )
    transcript = list(result.adapter.transcript)
    result.store.dispose()
    record = json.loads(record_path.read_text(encoding="utf-8"))
    posts = public(transcript)
    pictured = [line for line in posts if "[image: " in line]
    combats = sum(e["type"] == "combat" for t in record["turns"] for e in t["events"])
    turns_over = len(record["turns"]) - (record["game"]["phase"] != "finished")
    assert combats == 1 and turns_over == 3
    assert len(pictured) == 1 + turns_over + combats
    # (#42: nor a post an action: the turn's map shows the plays and moves)
    assert [line for line in posts if "plays a ship face-down on D1" in line] == []
    assert any("Combat: ahab 7 against nemo 3" in line for line in pictured)
    assert sum("turn 1 is over" in line for line in pictured) == 1


# --- the contract --------------------------------------------------------------------

CONTRACT_RECORD: Record = {
    "format": "silentships-record/1",
    "game": {"kind": "silentships", "cols": 5, "rows": 4, "islands": ["A2", "E3"],
             "options": {"move_time": "1d", "response_time": "10m", "max_turns": "60",
                         "first": "joined",
                         "deck1": "submarine,frigate,flag_ship,ramming_ship,patrol_ship,speed_boat,"
                                  "salvage_ship,special_operations_craft,fire_ship,missile_boat,"
                                  "ammunition_ship",
                         "deck2": "ramming_ship,ammunition_ship,missile_boat,speed_boat,"
                                  "salvage_ship,special_operations_craft,fire_ship,flag_ship,"
                                  "frigate,submarine,patrol_ship"},
             "phase": "battle", "turn": 3, "player": "alice", "step": "actions", "offer": None,
             "deadline": "2026-01-02T00:10:00Z", "winners": [], "draw": False},
    "players": [
        {"name": "alice", "status": "alive", "country": "C1",
         "hand": ["speed_boat", "salvage_ship", "patrol_ship"],
         "deck": ["special_operations_craft", "fire_ship", "missile_boat", "ammunition_ship"],
         "discards": ["flag_ship", "ramming_ship"],
         "units": [{"cell": "C1", "ship": "frigate", "face_up": True},
                   {"cell": "C2", "ship": "submarine", "face_up": False}],
         "sank": []},
        {"name": "bob", "status": "alive", "country": "C4",
         "hand": ["missile_boat", "ammunition_ship"],
         "deck": ["special_operations_craft", "fire_ship", "flag_ship", "frigate", "submarine",
                  "patrol_ship"],
         "discards": ["speed_boat", "salvage_ship"],
         "units": [{"cell": "C3", "ship": "ramming_ship", "face_up": True}], "sank": []},
    ],
    "start": {"first": "alice",
              "decks": {"alice": ["submarine", "frigate", "flag_ship", "ramming_ship",
                                  "patrol_ship", "speed_boat", "salvage_ship",
                                  "special_operations_craft", "fire_ship", "missile_boat",
                                  "ammunition_ship"],
                        "bob": ["ramming_ship", "ammunition_ship", "missile_boat", "speed_boat",
                                "salvage_ship", "special_operations_craft", "fire_ship",
                                "flag_ship", "frigate", "submarine", "patrol_ship"]}},
    "turns": [
        {"number": 1, "player": "alice", "began": "2026-01-01T00:00:00Z",
         "orders": [{"player": "alice", "action": "play", "ship": "submarine", "cell": "C1"},
                    {"player": "alice", "action": "move", "from": "C1", "to": "C2",
                     "discard": "flag_ship"},
                    {"player": "alice", "action": "play", "ship": "frigate", "cell": "C1"},
                    {"player": "alice", "action": "end"}],
         "events": [{"type": "drew", "player": "alice", "cards": ["ramming_ship", "patrol_ship"]},
                    {"type": "played", "player": "alice", "ship": "submarine", "cell": "C1"},
                    {"type": "moved", "player": "alice", "ship": "submarine", "from": "C1",
                     "to": "C2"},
                    {"type": "played", "player": "alice", "ship": "frigate", "cell": "C1"}]},
        {"number": 2, "player": "bob", "began": "2026-01-01T00:00:00Z",
         "orders": [{"player": "bob", "action": "play", "ship": "ramming_ship", "cell": "C4"},
                    {"player": "bob", "action": "move", "from": "C4", "to": "C3",
                     "discard": "speed_boat"},
                    {"player": "bob", "action": "move", "from": "C3", "to": "C2",
                     "discard": "salvage_ship"},
                    {"player": "bob", "action": "go"},
                    {"player": "alice", "action": "support", "cell": "C1",
                     "discard": "ramming_ship"},
                    {"player": "alice", "action": "pass", "timeout": True},
                    {"player": "bob", "action": "end"}],
         "events": [{"type": "drew", "player": "bob", "cards": ["speed_boat", "salvage_ship"]},
                    {"type": "played", "player": "bob", "ship": "ramming_ship", "cell": "C4"},
                    {"type": "moved", "player": "bob", "ship": "ramming_ship", "from": "C4",
                     "to": "C3"},
                    {"type": "attack", "player": "bob", "ship": "ramming_ship", "from": "C3",
                     "to": "C2", "target": "submarine"},
                    {"type": "support", "player": "alice", "ship": "frigate", "cell": "C1",
                     "side": "defence"},
                    {"type": "revealed", "player": "bob", "ship": "ramming_ship", "cell": "C3"},
                    {"type": "revealed", "player": "alice", "ship": "submarine", "cell": "C2"},
                    {"type": "revealed", "player": "alice", "ship": "frigate", "cell": "C1"},
                    {"type": "combat", "attacker": "bob", "defender": "alice", "attack": 3,
                     "defence": 7, "winner": "defence"},
                    {"type": "hidden", "player": "alice", "ship": "submarine", "cell": "C2"}]},
        {"number": 3, "player": "alice", "began": "2026-01-01T00:10:00Z", "orders": [],
         "events": [{"type": "drew", "player": "alice",
                     "cards": ["speed_boat", "salvage_ship"]}]},
    ],
}  # fmt: skip
"""The example record of shared/contracts/silentships.md, as written there."""


def test_script_contract_example_record(run_script_text: Run) -> None:
    _, record = play(run_script_text, "contract_example_record.txt")
    for key in CONTRACT_RECORD:
        assert record[key] == CONTRACT_RECORD[key], key
    assert {k: v for k, v in record.items() if k != "replay"} == CONTRACT_RECORD


def test_script_contract_refusals(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "contract_refusals.txt")
    assert orders(record, 1) == [
        {"player": "ahab", "action": "play", "ship": "frigate", "cell": "C1"},
        {"player": "ahab", "action": "offer_draw"},
        {"player": "ahab", "action": "end"},
    ]
    assert orders(record, 2) == [] and record["game"]["offer"] is None
    replies = dms(transcript, "ahab")
    for why in (
        "the game has not started yet",
        "`play` orders are private: send them to me by DM (nothing was done)",
        "'plane' is not a ship: name one as speed, salvage, specops",
        "ships are played on B1, C1 or D1 only",
        "you hold no Missile Boat (your hand: speed, frigate, sub, ram, patrol)",
        "that is not an order of Silent Ships: expected e.g.",
        "you have no unit on C1 (you have no unit on the board)",
        "C1 is taken (free now: B1 or D1)",
        "C3 is not next to C1",
        "you hold no Missile Boat to discard",
        "a move needs a card to discard: expected e.g. `move D1 to D2 discard patrol`",
        "you have no unit on C4 (your units are on C1)",
        "only a face-up Special Operations Craft swaps",
        "`go` sends your attack to the defender",
        "`pass` answers an attack on your unit",
        "supports are added during an attack",
        "`retreat to` chooses where a retreating target goes",
        "there is no offer to accept: send `offer stop` to make one",
        "ahab's offer stands already",
        "there is no offer to accept: yours waits for your opponent",
    ):
        assert any(why in line for line in replies), why
    assert any("it is ahab's turn" in line for line in dms(transcript, "nemo"))
    assert any("joining is closed" in line for line in dms(transcript, "carl"))
    assert any("the game has already started" in line for line in dms(transcript, "host"))
    # The refusal of a private order sent in public names none of the sender's cards.
    (wrong_channel,) = [line for line in replies if "orders are private" in line]
    assert not named_ships(wrong_channel)
    # Refusals are private: no public post answers them.
    assert not [line for line in public(transcript) if "refused" in line or "not " in line]


def test_contract_untagged_public_messages_get_no_reply(run_script_text: Run) -> None:
    text = (SCRIPTS / "silentships-first-game.txt").read_text(encoding="utf-8")
    head = text.split("ahab dm: play frigate at D1")[0]
    transcript, _ = run_script_text(head + "ahab public: hello everyone\n")
    assert after(transcript, "Game 1 started") == []


# --- §2 ships ----------------------------------------------------------------------


def test_script_s2_support_abilities(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s2_support_abilities.txt")
    assert [o for o in orders(record, 5) if o["action"] == "support"] == [
        {"player": "ahab", "action": "support", "cell": "B3", "discard": None},
        {"player": "ahab", "action": "support", "cell": "C1", "discard": "salvage_ship"},
        {"player": "nemo", "action": "support", "cell": "C4", "discard": "speed_boat"},
    ]
    assert events(record, 5, "support")[-1]["side"] == "defence"
    assert [(e["player"], e["ship"], e["cell"]) for e in events(record, 5, "revealed")] == [
        ("ahab", "frigate", "D3"), ("nemo", "patrol_ship", "C3"), ("nemo", "ramming_ship", "C4"),
    ]  # fmt: skip
    (combat,) = events(record, 5, "combat")
    assert (combat["attack"], combat["defence"], combat["winner"]) == (9, 7, "attack")
    assert any(
        "a face-up Ammunition Ship supports without a discard: send `support from B3`" in line
        for line in dms(transcript, "ahab")
    )
    (status,) = [line for line in public(transcript) if "Silent Ships · turn 5" in line]
    assert "nemo to answer the attack on C3" in status
    # Face-down units show their owner only; the face-up ones their ship.
    assert "2?" in status and "1MI" in status and "1AM" in status


# --- §3 setup and turns --------------------------------------------------------------


def test_script_s3_island_draw_and_reshuffle(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_island_draw_and_reshuffle.txt")
    assert events(record, 3, "drew")[0]["cards"] == [
        "salvage_ship", "special_operations_craft", "fire_ship",
    ]  # fmt: skip
    assert events(record, 5, "drew")[0]["cards"] == ["flag_ship", "missile_boat"]
    reshuffled, drew = events(record, 7)[:2]
    assert reshuffled["type"] == "reshuffled" and reshuffled["player"] == "ahab"
    assert sorted(reshuffled["deck"]) == sorted(
        ["patrol_ship", "submarine", "speed_boat", "salvage_ship", "special_operations_craft",
         "fire_ship", "ramming_ship", "flag_ship", "missile_boat"]
    )  # fmt: skip
    assert drew["cards"] == ["ammunition_ship", reshuffled["deck"][0]]
    ahab = player(record, "ahab")
    assert (ahab["discards"], ahab["deck"]) == ([], reshuffled["deck"][1:])
    assert any("ahab draws 3 cards" in line for line in public(transcript))
    assert any("a new deck of 9" in line for line in public(transcript))
    # The same seed deals and shuffles the same way.
    assert play(run_script_text, "s3_island_draw_and_reshuffle.txt")[1] == record


# --- §4 attacks ------------------------------------------------------------------------


def test_script_s4_retreat_chosen_by_attacker(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_retreat_chosen_by_attacker.txt")
    assert events(record, 2, "attack") == [
        {"type": "attack", "player": "nemo", "ship": "fire_ship", "from": "C4", "to": "C3",
         "target": "frigate"},
    ]  # fmt: skip
    assert [o["action"] for o in orders(record, 2)] == [
        "play", "move", "go", "retreat", "retreat_to", "play", "end",
    ]  # fmt: skip
    assert orders(record, 2)[4] == {"player": "nemo", "action": "retreat_to", "cell": "B3"}
    assert events(record, 2)[3:5] == [
        {"type": "retreated", "player": "ahab", "ship": "frigate", "from": "C3", "to": "B3"},
        {"type": "moved", "player": "nemo", "ship": "fire_ship", "from": "C4", "to": "C3"},
    ]
    assert not events(record, 2, "combat")
    nemo_replies = dms(transcript, "nemo")
    assert any("an attack is in progress" in line for line in nemo_replies)
    assert any("choose the square, `retreat to C2` or `retreat to B3` or `retreat to D3`" in line
               for line in nemo_replies)  # fmt: skip
    assert any("may retreat to C2, B3 or D3 only" in line for line in nemo_replies)
    assert any("a retreat must come before any support" in line for line in nemo_replies)
    assert [(e["player"], e["ship"], e["cell"]) for e in events(record, 3, "revealed")] == [
        ("ahab", "frigate", "B3"), ("nemo", "fire_ship", "C3"), ("nemo", "missile_boat", "C4"),
    ]  # fmt: skip
    (combat,) = events(record, 3, "combat")
    assert (combat["attack"], combat["defence"], combat["winner"]) == (4, 8, "defence")
    assert events(record, 3, "sunk") == [
        {"type": "sunk", "player": "nemo", "ship": "fire_ship", "cell": "C3", "by": "ahab"},
    ]
    assert player(record, "ahab")["units"] == [{"cell": "B3", "ship": "frigate", "face_up": True}]


# --- §5 winning --------------------------------------------------------------------


def test_script_s5_flag_ship_sunk(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_flag_ship_sunk.txt")
    assert orders(record, 1)[1] == {"player": "ahab", "action": "reveal", "cell": "C1"}
    assert events(record, 1, "moved")[0] == {
        "type": "moved", "player": "ahab", "ship": "speed_boat", "from": "C1", "to": "C3",
    }  # fmt: skip
    assert [(e["player"], e["ship"]) for e in events(record, 5, "revealed")] == [
        ("nemo", "flag_ship"), ("ahab", "frigate"),
    ]  # fmt: skip
    assert events(record, 5)[-4:] == [
        {"type": "combat", "attacker": "ahab", "defender": "nemo", "attack": 8, "defence": 5,
         "winner": "attack"},
        {"type": "sunk", "player": "nemo", "ship": "flag_ship", "cell": "C4", "by": "ahab"},
        {"type": "moved", "player": "ahab", "ship": "speed_boat", "from": "C3", "to": "C4"},
        {"type": "finished", "winners": ["ahab"], "draw": False, "reason": "flag_ship",
         "sank": {"ahab": 1, "nemo": 0}},
    ]  # fmt: skip
    assert record["game"]["phase"] == "finished" and record["game"]["turn"] == 5
    assert any("the replay of the whole battle" in line for line in public(transcript))


def test_script_s5_country_invaded(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_country_invaded.txt")
    assert any("C1 is taken" in line for line in dms(transcript, "ahab"))
    assert orders(record, 3) == [{"player": "ahab", "action": "end"}]
    assert events(record, 3)[-1] == {
        "type": "finished", "winners": ["nemo"], "draw": False, "reason": "country",
        "sank": {"ahab": 0, "nemo": 0},
    }  # fmt: skip
    assert player(record, "ahab")["status"] == "eliminated"
    assert player(record, "nemo")["units"] == [
        {"cell": "C1", "ship": "speed_boat", "face_up": True}
    ]
    # The danger is pointed out as ahab's turn begins: in public, in ahab's DM and board.
    told = "nemo's unit is on ahab's country C1: ahab must dislodge it this turn or lose."
    assert any(told in line for line in public(transcript))
    turn_start = next(line for line in dms(transcript, "ahab") if "turn 3:" in line)
    assert "nemo's unit is on your country C1: dislodge it this turn or you lose." in turn_start
    # `end` warns once, changing nothing; the second `end` loses.
    warnings = [line for line in dms(transcript, "ahab") if "if you end your turn now" in line]
    assert len(warnings) == 1 and "send `end` again" in warnings[0]
    said = dms(transcript, "ahab")
    assert said.index(warnings[0]) < said.index("-> dm ahab: Turn 3: you end your turn.")


def test_script_s5_max_turns_and_lapsed_offer(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_max_turns_and_lapsed_offer.txt")
    assert orders(record, 1) == [
        {"player": "ahab", "action": "offer_draw"}, {"player": "ahab", "action": "end"},
    ]  # fmt: skip
    assert any("there is no offer to accept" in line for line in dms(transcript, "nemo"))
    assert orders(record, 2) == [{"player": "nemo", "action": "end"}]
    assert events(record, 2)[-1] == {
        "type": "finished", "winners": ["nemo"], "draw": False, "reason": "max_turns",
        "sank": {"ahab": 0, "nemo": 0},
    }  # fmt: skip
    assert len(record["turns"]) == 2


def test_script_s5_offer_stop_says_its_terms(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_offer_stop_says_its_terms.txt")
    terms = "if nemo accepts, nemo wins: 0–0, ties go to the second player"
    assert orders(record, 1)[0] == {"player": "ahab", "action": "offer_draw"}
    assert f"-> public: ahab offers to stop here, the ships sunk decide ({terms}): " in "\n".join(
        public(transcript)
    )
    assert any(f"The offer stands until the end of this turn: {terms}." in line
               for line in dms(transcript, "ahab"))  # fmt: skip
    assert any(f"ahab offers to stop ({terms}; `accept`)." in line
               for line in dms(transcript, "nemo"))  # fmt: skip
    assert events(record, 1)[-1] == {
        "type": "finished", "winners": ["nemo"], "draw": False, "reason": "agreed",
        "sank": {"ahab": 0, "nemo": 0},
    }  # fmt: skip
    # `offer draw` is still understood; with a ship sunk the terms say who leads.
    endings, _ = play(run_script_text, "silentships-endings.txt")
    assert any(
        "nemo offers to stop here, the ships sunk decide (if ahab accepts, nemo wins: 1–0 in "
        "ships sunk)" in line
        for line in public(endings)
    )


def test_script_s5_leave_loses(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_leave_loses.txt")
    assert record["start"]["first"] == "ahab"
    assert orders(record, 1) == [{"player": "nemo", "action": "leave"}]
    assert events(record, 1)[-1] == {
        "type": "finished", "winners": ["ahab"], "draw": False, "reason": "left",
        "sank": {"ahab": 0, "nemo": 0},
    }  # fmt: skip
    assert [(p["name"], p["status"]) for p in record["players"]] == [
        ("ahab", "alive"), ("nemo", "left"),
    ]  # fmt: skip
    assert any("nemo left the game. ahab wins" in line for line in public(transcript))


# --- §7 options and time ---------------------------------------------------------------


def test_script_s7_options(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_options.txt")
    refusals = dms(transcript, "host")
    for why in (
        "unknown option 'bogus': the options of silentships are move_time, response_time, "
        "max_turns, first, deck1, deck2",
        "max_turns must be a whole number from 2 to 999 (e.g. max_turns=60); got '1'",
        "max_turns must be a whole number from 2 to 999 (e.g. max_turns=60); got '1000'",
        "deck1: flag_ship is listed twice",
        "deck2: 'plane' is not a ship",
        "first must be coin (a coin toss) or joined",
        "move_time: expected a duration",
    ):
        assert any(why in line for line in refusals), why
    assert record["game"]["options"] == {
        "move_time": "1h30m", "response_time": "1h30m", "max_turns": "999", "first": "coin",
        "deck1": "shuffled",
        "deck2": "flag_ship,ramming_ship,speed_boat,salvage_ship,special_operations_craft,"
                 "fire_ship,frigate,submarine,patrol_ship,missile_boat,ammunition_ship",
        "seed": "42",
    }  # fmt: skip
    first = record["start"]["first"]
    (second,) = [p["name"] for p in record["players"] if p["name"] != first]
    decks = record["start"]["decks"]
    assert decks[second] == record["game"]["options"]["deck2"].split(",")
    assert sorted(decks[first]) == sorted(IDS) and decks[first] != IDS
    # The seed decides the toss and the shuffle: the same script gives the same game.
    assert play(run_script_text, "s7_options.txt")[1] == record


def test_script_s7_move_time_ends_in_attack(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_move_time_ends_in_attack.txt")
    assert orders(record, 2)[2:] == [
        {"player": "nemo", "action": "go", "timeout": True},
        {"player": "ahab", "action": "retreat", "discard": "speed_boat"},
        {"player": "nemo", "action": "retreat_to", "cell": "C2", "timeout": True},
        {"player": "nemo", "action": "end", "timeout": True},
    ]
    assert events(record, 2)[-2:] == [
        {"type": "retreated", "player": "ahab", "ship": "frigate", "from": "C3", "to": "C2"},
        {"type": "moved", "player": "nemo", "ship": "fire_ship", "from": "C4", "to": "C3"},
    ]
    assert turn(record, 3)["began"] == "2026-01-01T01:00:00Z"
    # In step supports the move time ran out: the answer's clock alone runs (01:10).
    assert any("ahab answers within 10m" in line for line in public(transcript))
    assert orders(record, 3)[-2:] == [
        {"player": "ahab", "action": "retreat_to", "cell": "B3", "timeout": True},
        {"player": "ahab", "action": "end", "timeout": True},
    ]
    assert turn(record, 4)["began"] == "2026-01-01T02:00:00Z"
    assert orders(record, 4) == [{"player": "nemo", "action": "end", "timeout": True}]
    assert turn(record, 5)["began"] == "2026-01-01T03:00:00Z"
    assert record["game"]["deadline"] == "2026-01-01T04:00:00Z"


# --- the host's verbs ----------------------------------------------------------------


def test_script_host_kick(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "host_kick.txt")
    assert any("only the game's host can `kick`" in line for line in dms(transcript, "ahab"))
    assert orders(record, 1) == [{"player": "nemo", "action": "leave"}]
    assert events(record, 1)[-1]["reason"] == "left"
    assert record["game"]["winners"] == ["ahab"]
    assert player(record, "nemo")["status"] == "left"
    assert any("nemo was removed from the game by the host" in line for line in public(transcript))


def test_script_host_end(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "host_end.txt")
    assert events(record, 3)[-1] == {
        "type": "finished", "winners": ["nemo"], "draw": False, "reason": "ended",
        "sank": {"ahab": 0, "nemo": 0},
    }  # fmt: skip
    assert orders(record, 3) == []
    assert (record["game"]["phase"], record["game"]["turn"]) == ("finished", 3)
    assert [p["status"] for p in record["players"]] == ["eliminated", "alive"]
    assert any("The host ended game 1. nemo wins" in line for line in public(transcript))


def test_script_host_pause_resume_extend(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "host_pause_resume_extend.txt")
    assert any("the game is paused" in line for line in dms(transcript, "ahab"))
    lines = public(transcript)
    assert any("resumed: ahab's turn 1 closes 2026-01-01 07:00 UTC" in line for line in lines)
    assert any("it now closes 2026-01-01 07:30 UTC" in line for line in lines)
    assert orders(record, 1)[-1] == {"player": "ahab", "action": "end", "timeout": True}
    assert turn(record, 2)["began"] == "2026-01-01T07:30:00Z"
    # extend moved the answer's deadline (08:00 → 09:00), not the held move clock (2h left).
    assert any(
        "ahab's answer extended: it now closes 2026-01-01 09:00 UTC" in line for line in lines
    )
    assert orders(record, 2)[-1] == {"player": "ahab", "action": "pass", "timeout": True}
    assert record["game"]["deadline"] == "2026-01-01T11:00:00Z"


# --- nothing hidden in public: two games told apart only by their secrets ---------------

SECRETS = """@game silentships first=joined deck1={deck1} deck2={deck2}
ahab public: #silentships join
nemo dm: join
@start
ahab dm: play {a1} at C1
ahab dm: move C1 to C2 discard {a2}
ahab dm: play {a3} at D1
ahab dm: move D1 to D2 discard {a4}
ahab public: #silentships status
ahab dm: board
ahab public: #silentships end
nemo dm: play {b1} at C4
nemo dm: move C4 to C3 discard {b2}
nemo dm: move C3 to C2 discard {b3}
ahab dm: pass
nemo public: #silentships go
ahab dm: retreat discard {a5}
nemo public: #silentships retreat to B2
nemo public: #silentships offer draw
nemo public: #silentships end
ahab dm: move B2 to A2 discard {a6}
ahab public: #silentships play {a7} at C1
ahab public: #silentships end
nemo dm: move C2 to C1 discard {b4}
nemo dm: play {b5} at C4
nemo public: #silentships status
nemo public: #silentships end
ahab dm: board
@close
"""
"""A game with an attack and a retreat but no combat, so no card is ever face-up: which
ship is where and which cards are held are its only secrets. Cards are named by their
place in each deck ({a1} is the first player's top card)."""


def secret_game(deck1: list[Ship], deck2: list[Ship]) -> str:
    names = {f"a{i}": ship.card.short for i, ship in enumerate(deck1, start=1)}
    names |= {f"b{i}": ship.card.short for i, ship in enumerate(deck2, start=1)}
    return SECRETS.format(
        deck1=",".join(ship.value for ship in deck1),
        deck2=",".join(ship.value for ship in deck2),
        **names,
    )


def shuffled(seed: int) -> list[Ship]:
    deck = list(SHIP_ORDER)
    random.Random(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_6_public_posts_are_the_same_whatever_the_hidden_cards(
    run_script_text: Run, seed: int
) -> None:
    one, record_one = run_script_text(secret_game(list(SHIP_ORDER), list(reversed(SHIP_ORDER))))
    two, record_two = run_script_text(secret_game(shuffled(seed), shuffled(seed + 100)))
    assert record_one["start"]["decks"] != record_two["start"]["decks"]
    # Both games went the whole way: ahab ended turn 5 with nemo on C1 and lost.
    for record in (record_one, record_two):
        assert record["game"]["winners"] == ["nemo"]
        assert record["turns"][-1]["events"][-1]["reason"] == "country"
        assert not public_ships(record)
    assert public(one) == public(two)
    assert len(public(one)) > 12
    for line in public(one):
        assert not named_ships(line), line
    # The private side did differ: the players were told their own cards.
    assert dms(one, "ahab") != dms(two, "ahab")


def test_turns_played_counts_a_players_own_turns_not_their_defence_answers(
    run_script_text: Run,
) -> None:
    """#42: nemo answered ahab's attack in turn 3 (`pass`) but played turn 2 alone."""
    script = (SCRIPTS / "silentships-first-game.txt").read_text(encoding="utf-8")
    transcript, record = run_script_text(script + "nemo dm: leave\n")
    assert record["game"]["phase"] == "finished"
    ends = [line for line in transcript if "turns played" in line or "turn played" in line]
    assert any("ahab: 1 ship sunk, 2 turns played" in line for line in ends), ends
    assert any("nemo: 0 ships sunk, 1 turn played" in line for line in ends), ends


def test_an_agreed_stop_ends_with_no_late_done_and_no_one_eliminated(run_script_text: Run) -> None:
    """#42: the `accept` that ends the game is answered by the end's posts (no "Done:
    accept." after them); its loser lost on the count, and is never shown "eliminated";
    the turn's closing post says no false "nothing happened"."""
    transcript, _ = play(run_script_text, "s5_offer_stop_says_its_terms.txt")
    assert not any("Done: accept" in line for line in dms(transcript, "nemo"))
    boards = [line for line in transcript if "· finished" in line]
    assert boards and not any("eliminated" in line for line in boards)
    assert any("ahab (C1, lost at the stop)" in line for line in boards)
    assert not any("nothing happened" in line for line in public(transcript))


def test_plays_and_plain_moves_are_not_posted_one_by_one(run_script_text: Run) -> None:
    """#42: a turn's face-down plays and moves make no public post each (the turn's map
    shows them); an attack and its combat still do."""
    transcript, _ = play(run_script_text, "silentships-first-game.txt")
    posts = public(transcript)
    assert not any("plays a ship face-down" in line for line in posts)
    assert any("attacks" in line for line in posts)
    words = get_game("silentships").words
    played = [Event("played", {"player": "p1", "ship": "frigate", "cell": "D1"})]
    assert words.public_report(played, {"p1": "ahab"}) == []
    assert words.public_report_in_full(played, {"p1": "ahab"})  # the web page tells it
