"""What a player meets first, in every game (issue 27): how a game is opened and
cancelled, how shots carry talk, what the end says. Played through the real host with
the ``run_script_text`` fixture (no images drawn)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]


def public(transcript: list[str]) -> list[str]:
    return [line for line in transcript if line.startswith("-> public: ")]


def test_ending_a_game_nobody_joined_cancels_it_and_names_no_draw(run_script_text: Run) -> None:
    transcript, record = run_script_text("@game sonar\n@host end\n")
    (said,) = public(transcript)[1:]
    assert "cancelled game 1: nobody had joined" in said
    assert "draw" not in said
    assert record["game"]["phase"] == "finished"


def test_a_message_to_a_finished_game_names_its_kind_to_start_again(run_script_text: Run) -> None:
    transcript, _ = run_script_text("@game uboat\n@host end\nbob public: #uboat join\n")
    assert transcript[-1].endswith("game 1 is over: a host starts a new one with `new uboat`")


SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def play(run_script_text: Run, name: str) -> tuple[list[str], Record]:
    return run_script_text((SCRIPTS / name).read_text(encoding="utf-8"))


def orders(record: Record, number: int) -> list[Record]:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return list(found["orders"])


def test_4_words_after_a_shots_cell_are_talk(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "bst/s4_shot_with_talk.txt")
    assert orders(record, 1) == [
        {"player": "alice", "action": "shoot", "cell": "F1"},
        {"player": "bob", "action": "shoot", "cell": "C1"},
    ]
    assert orders(record, 2) == [{"player": "alice", "action": "shoot", "cell": "F2"}]
    to_bob = [line for line in transcript if line.startswith("-> dm bob: ")]
    assert any("Cyrillic letter 'С'" in line and "`C2`" in line for line in to_bob)
    assert any("one shot a turn" in line and "C2 and C3" in line for line in to_bob)


def test_words_after_a_volleys_cells_are_talk_in_sonar(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "sonar/sonar-talk.txt")
    (shot,) = orders(record, 1)
    assert shot["cells"] == ["f11", "g3"]
    assert any("cells first, then talk" in line for line in transcript)
