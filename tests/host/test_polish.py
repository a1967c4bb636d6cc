"""What a player meets first, in every game (issue 27): how a game is opened and
cancelled, how shots carry talk, what the end says. Played through the real host with
the ``run_script_text`` fixture (no images drawn)."""

from __future__ import annotations

from collections.abc import Callable
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
