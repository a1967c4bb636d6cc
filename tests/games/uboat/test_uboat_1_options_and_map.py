"""Rules §1: options and map (shared/rules/uboat.md; contract "Options")."""

from __future__ import annotations

import pytest

from bot.games.base import OptionError
from bot.games.uboat import UBOAT
from bot.games.uboat.cells import Cell, Direction, Sea, parse_cell

DEFAULTS = {
    "size": "9",
    "islands": "1@C3,2@G3,3@C7,4@G7,5@E5",
    "island_powers": "house",
    "rounds": "12",
    "round": "10m",
    "evade_window": "1m",
}


def test_1_defaults_listed_in_canonical_text() -> None:
    assert UBOAT.rules.options(UBOAT.rules.new_game({})) == DEFAULTS


def test_1_every_option_in_canonical_text() -> None:
    state = UBOAT.rules.new_game(
        {
            "size": "12",
            "islands": "7@k11,2@a1",
            "island_powers": "NONE",
            "rounds": "3",
            "round": "90m",
            "evade_window": "60m",
        }
    )
    assert UBOAT.rules.options(state) == {
        "size": "12",
        "islands": "2@A1,7@K11",
        "island_powers": "none",
        "rounds": "3",
        "round": "1h30m",
        "evade_window": "1h",
    }


def test_1_durations_in_the_hosts_form() -> None:
    assert UBOAT.rules.options(UBOAT.rules.new_game({"round": "24h"}))["round"] == "1d"
    assert UBOAT.rules.options(UBOAT.rules.new_game({"round": "60m"}))["round"] == "1h"


def test_1_islands_none() -> None:
    state = UBOAT.rules.new_game({"islands": "none"})
    assert UBOAT.rules.options(state)["islands"] == "none"
    assert state.options.islands == ()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"colour": "red"}, "size, islands, island_powers, rounds, round, evade_window"),
        ({"size": "4"}, "5 to 26"),
        ({"size": "27"}, "5 to 26"),
        ({"size": "nine"}, "5 to 26"),
        ({"rounds": "0"}, "1 to 99"),
        ({"rounds": "100"}, "1 to 99"),
        ({"round": "1m"}, "2m to 1d"),
        ({"round": "25h"}, "2m to 1d"),
        ({"round": "soon"}, "duration"),
        ({"evade_window": "30s"}, "1m to less than the round"),
        ({"evade_window": "10m"}, "1m to less than the round"),
        ({"round": "2m", "evade_window": "2m"}, "1m to less than the round"),
        ({"island_powers": "some"}, "house or none"),
        ({"islands": "0@A1"}, "1 to 99"),
        ({"islands": "100@A1"}, "1 to 99"),
        ({"islands": "1@A1,1@B2"}, "distinct"),
        ({"islands": "1@A1,2@a1"}, "distinct"),
        ({"islands": "1@Z1"}, "off the 9x9 board"),
        ({"islands": "C3"}, "N@CELL"),
        ({"size": "6"}, "need size 7"),
    ],
)
def test_1_bad_options_are_refused_naming_the_range(options: dict[str, str], words: str) -> None:
    with pytest.raises(OptionError) as refused:
        UBOAT.rules.new_game(options)
    assert words in refused.value.message


def test_1_small_board_with_its_own_islands() -> None:
    state = UBOAT.rules.new_game({"size": "5", "islands": "1@C3"})
    assert state.options.size == 5


def test_1_board_wraps_both_ways() -> None:
    sea = Sea(9, frozenset())
    assert [str(c) for c in sea.cross(parse_cell("A1"))] == ["A1", "A9", "A2", "I1", "B1"]
    assert sea.step(parse_cell("I5"), Direction.RIGHT) == parse_cell("A5")
    assert sea.step(parse_cell("E1"), Direction.UP) == parse_cell("E9")


def test_1_distance_is_wrapped_manhattan() -> None:
    sea = Sea(9, frozenset())
    assert sea.distance(parse_cell("A1"), parse_cell("I9")) == 2
    assert sea.distance(parse_cell("B5"), parse_cell("E6")) == 4
    assert sea.distance(parse_cell("C5"), parse_cell("C5")) == 0


def test_1_cells_are_column_then_row() -> None:
    assert parse_cell("C3") == Cell(row=2, col=2)
    assert parse_cell("e 6") == parse_cell("E6") == Cell(row=5, col=4)
    assert str(Cell(row=8, col=0)) == "A9"


def test_1_option_args_cover_every_option() -> None:
    assert [arg.name for arg in UBOAT.option_args] == list(DEFAULTS)
