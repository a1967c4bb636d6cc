"""Rules §3, fleets: the lengths, random placement that never meets, even facings, and a
start refused (naming the largest ``ships`` that fits) when no arrangement exists."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from sonar_helpers import Table, given_game

from bot.games.base import Channel, IllegalOrderError, PlayerRef
from bot.games.sonar import SONAR
from bot.games.sonar.board import Board, Facing
from bot.games.sonar.encounters import Course, ever_meet
from bot.games.sonar.fleet import fleet_lengths
from bot.games.sonar.placement import place_fleets


def never_meet(board: Board, courses: list[Course]) -> bool:
    """Walk a whole period: no cell is ever held by two subs."""
    for turn in range(board.period):
        held = [cell for course in courses for cell in course.cells(board, turn)]
        if len(held) != len(set(held)):
            return False
    return True


def test_3_lengths_are_2_3_3_4_4_4_and_so_on() -> None:
    assert fleet_lengths(1) == (2,)
    assert fleet_lengths(6) == (2, 3, 3, 4, 4, 4)
    assert fleet_lengths(16) == (2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7)


@pytest.mark.parametrize(
    ("rows", "players", "ships"),
    [(16, 2, 6), (16, 3, 4), (16, 4, 3), (14, 2, 6), (8, 2, 4), (4, 4, 1), (20, 2, 9), (24, 3, 8)],
)
def test_3_random_fleets_never_meet_in_a_whole_period(rows: int, players: int, ships: int) -> None:
    board = Board(rows)
    result = place_fleets(board, [], [fleet_lengths(ships)] * players, random.Random(rows + ships))
    assert result.fleets is not None
    assert [[c.length for c in fleet] for fleet in result.fleets] == [
        list(fleet_lengths(ships))
    ] * players
    courses = [course for fleet in result.fleets for course in fleet]
    assert all(board.contains(c.bow) for c in courses)
    assert never_meet(board, courses)


@pytest.mark.parametrize(("ships", "spread"), [(4, {1}), (6, {1}), (8, {1, 2}), (12, {2})])
def test_3_each_players_facings_are_as_even_as_possible(ships: int, spread: set[int]) -> None:
    board = Board(20)
    result = place_fleets(board, [], [fleet_lengths(ships)] * 2, random.Random(ships))
    assert result.fleets is not None
    for fleet in result.fleets:
        counts = Counter(course.facing for course in fleet)
        assert set(counts.values()) <= spread
        assert len(counts) == min(ships, 6)


def test_3_the_same_seed_places_the_same_fleets_and_another_seed_others() -> None:
    board = Board(16)

    def fleets(seed: int) -> object:
        return place_fleets(board, [], [fleet_lengths(6)] * 2, random.Random(seed)).fleets

    assert fleets(7) == fleets(7)
    assert fleets(7) != fleets(8)


def test_3_fleets_placed_around_given_ones_never_meet_them() -> None:
    board = Board(12)
    fixed = [
        Course(board.cell_at(0), Facing.UP_RIGHT, 2),
        Course(board.cell_at(40), Facing.DOWN_LEFT, 3),
    ]
    result = place_fleets(board, fixed, [fleet_lengths(2)] * 2, random.Random(3))
    assert result.fleets is not None
    assert never_meet(board, [*fixed, *(c for fleet in result.fleets for c in fleet)])


def test_3_two_players_with_six_subs_need_size_14() -> None:
    board12, board14 = Board(12), Board(14)
    refused = place_fleets(board12, [], [fleet_lengths(6)] * 2, random.Random(1))
    assert refused.fleets is None and refused.complete  # proved: no arrangement exists
    assert place_fleets(board14, [], [fleet_lengths(6)] * 2, random.Random(1)).fleets is not None


def test_3_a_search_out_of_budget_says_it_did_not_try_everything() -> None:
    result = place_fleets(Board(16), [], [fleet_lengths(10)] * 4, random.Random(0), budget=5)
    assert result.fleets is None
    assert not result.complete
    assert result.tried == 5


def _start(size: int, names: int, **options: str) -> Table:
    table = Table({"size": str(size), **options})
    for i in range(names):
        table.say(f"c{i}", "join", Channel.PRIVATE)
    table.line("@start")
    return table


def test_3_start_on_size_8_refused_naming_4_subs_each() -> None:
    table = _start(8, 2)
    assert table.state.phase.value == "setup"
    assert len(table.refusals) == 1
    message = table.refusals[0].message
    assert "6 subs each" in message
    assert "at most ships=4 fits" in message
    assert "no arrangement exists" in message


def test_3_start_with_4_subs_each_on_size_8_is_fine() -> None:
    table = _start(8, 2, ships="4")
    assert table.refusals == []
    assert table.state.phase.value == "battle"
    courses = [sub.course for c in table.state.captains for sub in c.fleet]
    assert len(courses) == 8
    assert never_meet(Board(8), courses)


def test_3_the_default_ships_depend_on_the_players_at_the_start() -> None:
    for players, ships in ((2, 6), (3, 4), (4, 3)):
        table = _start(16, players)
        assert table.state.ships == ships
        assert all(len(c.fleet) == ships for c in table.state.captains)


def test_3_refused_start_changes_nothing() -> None:
    state = SONAR.rules.new_game({"size": "8"})
    for i in (1, 2):
        state = SONAR.rules.join(state, PlayerRef(f"p{i}", f"c{i}"))
    before = SONAR.codec.encode_state(state)
    with pytest.raises(IllegalOrderError):
        SONAR.rules.start(state, random.Random(0), None)
    assert SONAR.codec.encode_state(state) == before


def test_3_who_sent_no_fleet_is_placed_at_random_around_the_others() -> None:
    table = given_game({"ahab": "2 l5 ur, 3 c20 ur", "nemo": ""}, size="12")
    ahab, nemo = table.state.captains
    assert not ahab.placed_at_random and nemo.placed_at_random
    assert [s.length for s in nemo.fleet] == [2, 3]
    board = Board(12)
    assert not any(ever_meet(board, a.course, b.course) for a in ahab.fleet for b in nemo.fleet)
    assert any(to == "p2" and "placed at random" in text for to, text in table.notices)


def test_3_a_start_with_no_room_around_the_fleets_sent_is_refused() -> None:
    table = Table({"size": "8", "ships": "4", "placement": "given"})
    table.play(["a dm: join", "a dm: 2 h4 r, 3 c1 r, 3 h1 r, 4 b8 r", "b dm: join", "@start"])
    # Every sub of a's sails along a row: any sub of b's that does not would meet one.
    (refusal,) = table.refusals
    assert "the fleets sent leave no room" in refusal.message
    assert "no arrangement exists" in refusal.message
    assert "at most ships=4 fits" in refusal.message
    assert table.state.phase.value == "setup"
