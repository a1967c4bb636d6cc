"""The shared examples (tests/games/uboat/scripts/*.txt, copies of shared/examples) played
through the game object, checked against their ``# expect:`` facts."""

from __future__ import annotations

from pathlib import Path

from uboat_helpers import Driver, events_of, play

from bot.games.uboat import UBOAT

SCRIPTS = Path(__file__).resolve().parent / "scripts"
SHARED = Path(__file__).resolve().parents[4] / "shared" / "examples"


def _script(name: str) -> str:
    return (SCRIPTS / name).read_text(encoding="utf-8")


def test_scripts_are_unchanged_copies_of_the_shared_examples() -> None:
    for name in ("uboat-first-rounds.txt", "uboat-crews-and-scoring.txt"):
        if (SHARED / name).exists():
            assert _script(name) == (SHARED / name).read_text(encoding="utf-8")


def _until(script: str, marker: int) -> str:
    """The script up to (not including) its ``marker``-th ``@close`` line."""
    lines, closes = [], 0
    for line in script.splitlines():
        if line.strip() == "@close":
            closes += 1
            if closes == marker:
                break
        lines.append(line)
    return "\n".join(lines)


def test_first_rounds_colours_and_start() -> None:
    driver = play(_until(_script("uboat-first-rounds.txt"), 1))
    record = driver.record()
    assert [(p["name"], p["colour"]) for p in record["players"]] == [
        ("alice", "red"),
        ("bob", "blue"),
        ("carol", "green"),
        ("dave", "yellow"),
    ]
    assert record["game"]["phase"] == "battle"
    assert record["game"]["turn"] == 1
    assert [(b["colour"], b["cell"], b["random"]) for b in record["start"]["boats"]] == [
        ("red", "B5", False),
        ("blue", "F8", False),
        ("green", "H5", False),
        ("yellow", "F4", False),
    ]


def test_first_rounds_round_one() -> None:
    driver = play(_until(_script("uboat-first-rounds.txt"), 2))
    record = driver.record()
    (turn,) = record["turns"]
    assert turn["events"] == [
        {"type": "fire", "boat": "red", "cell": "D5", "hits": []},
        {
            "type": "moved",
            "boat": "blue",
            "route": ["up", "up", "left"],
            "cell": "E6",
            "fog": False,
        },
        {"type": "moved", "boat": "yellow", "route": ["down"], "cell": "F5", "fog": False},
        {
            "type": "rammed",
            "boat": "green",
            "route": ["left"],
            "cell": "G5",
            "struck": "F5",
            "hits": [{"boat": "yellow", "damage": 2}],
            "fog": False,
        },
    ]
    _, resolution = driver.resolutions[-1]
    names = {player_id: name for name, player_id in driver.ids.items()}
    public = "\n".join(UBOAT.words.public_report(resolution.events, names))
    assert "Blue: up, up, left" in public
    assert "F5" in public
    assert "E6" not in public and "G5" not in public


def test_first_rounds_window_then_round_two() -> None:
    script = _script("uboat-first-rounds.txt")
    driver = play(_until(script, 3))
    record = driver.record()
    # The second @close reached round 2's evade window, not its end.
    assert len(record["turns"]) == 1
    assert driver.player(record, "dave")["cell"] == "F3"
    assert record["game"]["turn"] == 2
    window_steps = [step for step in driver.history if step.cause == "evade:2"]
    assert len(window_steps) == 1
    driver = play(script)
    record = driver.record()
    assert any("4 away" in text and "range is 2" in text for text in driver.refusals("alice"))
    turn = driver.turn(record, 2)
    assert turn["events"] == [
        {"type": "evaded", "boat": "yellow", "route": ["up", "up"], "cell": "F3"},
        {"type": "fire", "boat": "green", "cell": "E6", "hits": [{"boat": "blue", "damage": 2}]},
        {"type": "cancelled", "boat": "blue", "action": "move"},
        {"type": "moved", "boat": "red", "route": ["right", "right"], "cell": "D5", "fog": False},
        {"type": "moved", "boat": "yellow", "route": ["left"], "cell": "E3", "fog": False},
    ]
    assert [(o["boat"], o["action"]) for o in turn["orders"]] == [
        ("red", "move"),
        ("blue", "move"),
        ("green", "fire"),
        ("yellow", "evade"),
        ("yellow", "move"),
    ]
    now = {p["colour"]: (p["cell"], p["health"]) for p in record["players"]}
    assert now == {"red": ("D5", 3), "blue": ("E6", 1), "green": ("G5", 3), "yellow": ("E3", 1)}
    assert record["game"]["turn"] == 3


def test_crews_and_scoring_round_one() -> None:
    driver = play(_until(_script("uboat-crews-and-scoring.txt"), 2))
    turn = driver.turn(driver.record(), 1)
    assert [(e["boat"], e["cell"], e["hits"]) for e in events_of(turn, "fire")] == [
        ("red", "C3", []),
        ("blue", "E5", []),
        ("green", "C7", []),
    ]
    assert [(e["island"], e["boat"], e["from"]) for e in events_of(turn, "captured")] == [
        (1, "red", None),
        (3, "green", None),
        (5, "blue", None),
    ]
    assert events_of(turn, "sonar") == [{"type": "sonar", "boat": "red", "distance": 4}]
    _, resolution = driver.resolutions[-1]
    sonar = [n for n in resolution.notices if "Sonar" in n.text]
    assert [(n.to, n.crew) for n in sonar] == [(driver.ids["ann"], True)]


def test_crews_and_scoring_sinking() -> None:
    driver = play(_until(_script("uboat-crews-and-scoring.txt"), 3))
    record = driver.record()
    turn = driver.turn(record, 2)
    assert events_of(turn, "fire") == [
        {"type": "fire", "boat": "blue", "cell": "D8", "hits": [{"boat": "green", "damage": 3}]}
    ]
    assert events_of(turn, "cancelled") == [
        {"type": "cancelled", "boat": "green", "action": "move"}
    ]
    assert events_of(turn, "destroyed") == [{"type": "destroyed", "boat": "green", "freed": [3]}]
    assert events_of(turn, "sonar") == [{"type": "sonar", "boat": "red", "distance": 4}]
    cy = driver.player(record, "cy")
    assert (cy["status"], cy["crew"]) == ("eliminated", None)
    assert "evade:3" not in driver.pending


def test_crews_and_scoring_end() -> None:
    driver = play(_script("uboat-crews-and-scoring.txt"))
    record = driver.record()
    assert any("range is 1" in text for text in driver.refusals("ben"))
    turn = driver.turn(record, 3)
    assert turn["events"] == [
        {"type": "fire", "boat": "red", "cell": "E5", "hits": []},
        {"type": "captured", "island": 5, "boat": "red", "from": "blue"},
        {"type": "moved", "boat": "blue", "route": ["up"], "cell": "E6", "fog": False},
        {"type": "joined", "player": "cy", "crew": "red", "chosen": True},
        {
            "type": "finished",
            "winners": ["ann", "cy"],
            "draw": False,
            "boats": ["red"],
            "scores": {"red": 6, "blue": 0},
            "marks": ["ann"],
            "first_duelist": "ben",
        },
    ]
    assert turn["orders"][-1] == {"player": "cy", "action": "crew", "crew": "red"}
    assert record["game"]["phase"] == "finished"
    assert record["game"]["turn"] == 3
    assert record["game"]["winners"] == ["ann", "cy"]
    assert record["game"]["draw"] is False
    assert driver.pending == {}


def test_driver_close_does_nothing_after_the_end() -> None:
    driver = play(_script("uboat-crews-and-scoring.txt"))
    before = driver.record()
    driver.line("@close")
    assert driver.record() == before
    assert isinstance(driver, Driver)
