"""A join that names another game's tag (issue 42 item 7): ``#bst join`` in a channel
playing Sonar is refused, naming the game that plays there and its tag; it joins nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Run = Callable[[str], tuple[list[str], dict[str, Any]]]


def test_a_join_with_another_games_tag_is_refused_naming_the_game_here(
    run_script_text: Run,
) -> None:
    transcript, record = run_script_text(
        "@game sonar\nann public: #sonar join\nbob public: #bst join\ncy public: #SONAR join\n"
    )
    assert [p["name"] for p in record["players"]] == ["ann", "cy"]
    (said,) = [line for line in transcript if "not BattleshipTwitter" in line]
    assert "game 1 here is Sonar (#sonar)" in said and "send `#sonar join` to join it" in said
