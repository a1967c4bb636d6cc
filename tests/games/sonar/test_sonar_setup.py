"""Rules §1 (players, placement=given) and the contract's setup orders: joining, the
fleet a player sends by DM, ``random`` to withdraw it, leaving, and starting. It spans
rules §1 and the contract, so it is named after the setup, not a section."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from sonar_helpers import Table, given_game

from bot.games.base import (
    Channel,
    IllegalOrderError,
    OrderSyntaxError,
    PlacementError,
    PlayerRef,
    RecordContext,
    WrongChannelError,
)
from bot.games.sonar import SONAR, SonarState
from bot.games.sonar.state import Status


def new(**options: str) -> SonarState:
    return SONAR.rules.new_game({"placement": "given", "ships": "2", "size": "12", **options})


def joined(*names: str, **options: str) -> SonarState:
    state = new(**options)
    for i, name in enumerate(names, start=1):
        state = SONAR.rules.join(state, PlayerRef(f"p{i}", name))
    return state


def send(
    state: SonarState, player: str, text: str, channel: Channel = Channel.PRIVATE
) -> SonarState:
    return SONAR.rules.accept(
        state, player, SONAR.rules.parse(text), channel, random.Random(0)
    ).state


def test_1_two_to_four_players_a_fifth_is_refused() -> None:
    state = joined("a", "b", "c", "d")
    with pytest.raises(IllegalOrderError, match="the game is full"):
        SONAR.rules.join(state, PlayerRef("p5", "e"))


def test_1_joining_twice_or_after_the_start_is_refused() -> None:
    state = joined("a", "b")
    with pytest.raises(IllegalOrderError, match="already in this game"):
        SONAR.rules.join(state, PlayerRef("p1", "a"))
    started = SONAR.rules.start(state, random.Random(0), None).state
    with pytest.raises(IllegalOrderError, match="joining is closed"):
        SONAR.rules.join(started, PlayerRef("p3", "c"))


def test_1_the_first_to_join_moves_first_and_start_takes_no_name() -> None:
    state = joined("zed", "amy")
    with pytest.raises(IllegalOrderError, match="first captain to join moves first"):
        SONAR.rules.start(state, random.Random(0), "p2")
    started = SONAR.rules.start(state, random.Random(0), None).state
    assert started.to_move == started.first == "p1"
    assert SONAR.rules.turn(started) == 1


def test_1_start_needs_two_players() -> None:
    with pytest.raises(IllegalOrderError, match="at least 2 captains; 1 has joined"):
        SONAR.rules.start(joined("a"), random.Random(0), None)


def test_1_a_fleet_stands_numbered_by_length_ties_in_the_order_listed() -> None:
    state = send(joined("a", "b", ships="3"), "p1", "3 e5 ur; 2 a1 ur\n3 h9 ur")
    subs = state.captains[0].fleet
    assert [(s.id, s.length, str(s.course.bow)) for s in subs] == [
        (1, 2, "a1"),
        (2, 3, "e5"),
        (3, 3, "h9"),
    ]


def test_1_the_latest_valid_fleet_stands() -> None:
    state = send(joined("a", "b"), "p1", "2 a1 ur, 3 c5 ur")
    state = send(state, "p1", "2 b2 dr, 3 f6 dr")
    assert [str(s.course.bow) for s in state.captains[0].fleet] == ["b2", "f6"]


def test_1_a_fleet_as_typed_in_a_script_with_backslash_n() -> None:
    state = send(joined("a", "b"), "p1", "2 l5 ur\\n3 c20 ur")
    assert [str(s.course.bow) for s in state.captains[0].fleet] == ["l5", "c20"]


def test_1_random_withdraws_a_fleet() -> None:
    state = send(joined("a", "b"), "p1", "2 a1 ur, 3 c5 ur")
    state = send(state, "p1", "random")
    assert state.captains[0].fleet == ()


@pytest.mark.parametrize(
    ("text", "error", "says"),
    [
        ("2 a1 ur", PlacementError, "exactly 2 subs of lengths 2, 3; yours has 2"),
        ("2 a1 ur, 2 c5 ur", PlacementError, "yours has 2, 2"),
        ("2 a1 ur, 3 m5 ur", PlacementError, "3 m5 ur is off the board"),
        ("2 a1 ur, 3 c25 ur", PlacementError, "off the board"),
        ("2 a1 ur, 3 c5 north", OrderSyntaxError, "not a facing"),
        ("2 a1 ur, 3 b1 ur", PlacementError, "would meet your sub 2 a1 ur at once"),
        ("2 a1 r, 3 a5 l", PlacementError, "3 a5 l would meet your sub 2 a1 r in turn 2"),
        ("2 a1, 3 c5 ur", OrderSyntaxError, "its length, bow cell and facing"),
    ],
)
def test_1_a_fleet_is_refused_naming_the_problem(
    text: str, error: type[Exception], says: str
) -> None:
    state = joined("a", "b")
    with pytest.raises(error, match=says):
        send(state, "p1", text)


def _told(state: SonarState, player: str, text: str) -> tuple[SonarState, str]:
    accepted = SONAR.rules.accept(
        state, player, SONAR.rules.parse(text), Channel.PRIVATE, random.Random(0)
    )
    (notice,) = accepted.notices
    assert notice.to == player
    return accepted.state, notice.text


def test_1_a_fleet_meeting_another_players_sub_is_refused_at_the_start_first_come() -> None:
    state = send(joined("a", "b"), "p1", "2 a1 ur, 3 c5 ur")
    # Head on along a's lane, but answered as any fleet: no answer in setup depends on
    # where a's subs are (answered at once, a fleet placed told where they were not).
    state, told = _told(state, "p2", "2 b1 dl, 3 h9 ur")
    assert told.startswith("Fleet placed: sub 1: 2 b1 dl")
    assert state.captains[1].fleet
    started = SONAR.rules.start(state, random.Random(2), None)
    a, b = started.state.captains
    assert [str(sub.course.bow) for sub in a.fleet] == ["a1", "c5"] and not a.placed_at_random
    assert b.placed_at_random and [str(sub.course.bow) for sub in b.fleet] != ["b1", "h9"]
    (told_b,) = [n for n in started.notices if n.to == "p2" and "placed at random" in n.text]
    why = told_b.text.split("Your fleet, placed at random")[0]
    assert why == (
        "Your fleet would meet a sub of a fleet sent before it, so it was refused (never "
        "where or when: no probing). "
    )
    assert not [n for n in started.notices if n.to == "p1" and "refused" in n.text]
    assert all(c.placed_seq == 0 for c in started.state.captains)


def test_1_first_come_is_the_order_the_standing_fleets_were_sent() -> None:
    state = send(joined("a", "b"), "p1", "2 e1 ur, 3 h9 ur")
    state = send(state, "p2", "2 b1 dl, 3 h9 ur")
    state = send(state, "p1", "2 a1 ur, 3 c5 ur")  # sent again: now after b's
    assert [c.placed_seq for c in state.captains] == [3, 2]
    assert SONAR.codec.decode_state(SONAR.codec.encode_state(state)) == state
    started = SONAR.rules.start(state, random.Random(2), None)
    a, b = started.state.captains
    assert a.placed_at_random and not b.placed_at_random
    assert [str(sub.course.bow) for sub in b.fleet] == ["b1", "h9"]


def test_1_a_fleet_refused_three_times_by_an_older_version_is_placed_at_random() -> None:
    """States stored before meeting was settled at the start may hold a captain refused
    past the allowance: the host still takes no fleet from them and places theirs."""
    state = send(joined("a", "b"), "p1", "2 a1 ur, 3 c5 ur")
    refused = [*state.captains]
    refused[1] = replace(refused[1], overlap_refusals=4)
    state = replace(state, captains=tuple(refused))
    with pytest.raises(IllegalOrderError, match="no longer takes your fleets"):
        send(state, "p2", "2 e1 ur, 3 h9 ur")
    started = SONAR.rules.start(state, random.Random(2), None)
    (told_p2,) = [n for n in started.notices if n.to == "p2" and "placed at random" in n.text]
    assert told_p2.text.startswith("After 3 refusals")


def test_1_a_fleet_in_public_is_refused_without_echoing_it() -> None:
    state = joined("a", "b")
    with pytest.raises(WrongChannelError) as refused:
        send(state, "p1", "2 a1 ur, 3 c5 ur", Channel.PUBLIC)
    assert "a1" not in refused.value.message and "c5" not in refused.value.message


def test_1_fleets_and_random_are_refused_under_placement_random() -> None:
    state = SONAR.rules.join(SONAR.rules.new_game({"ships": "2"}), PlayerRef("p1", "a"))
    for text in ("2 a1 ur, 3 c5 ur", "random"):
        with pytest.raises(IllegalOrderError, match="placement=random"):
            send(state, "p1", text)


def test_1_shots_in_setup_are_refused() -> None:
    with pytest.raises(IllegalOrderError, match="has not started yet"):
        send(joined("a", "b"), "p1", "f11", Channel.PUBLIC)


def test_1_fleets_after_the_start_are_refused() -> None:
    table = given_game({"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"})
    table.say("b", "2 e1 ur, 3 h9 ur", Channel.PRIVATE)
    assert "fleets can no longer be changed" in table.refusals[0].message


def test_1_strangers_are_refused() -> None:
    with pytest.raises(IllegalOrderError, match="not in this game"):
        send(joined("a", "b"), "p9", "2 a1 ur, 3 c5 ur")


def test_1_leaving_in_setup_leaves_no_subs_and_rejoining_is_allowed() -> None:
    state = send(joined("a", "b", "c"), "p2", "2 a1 ur, 3 c5 ur")
    state = SONAR.rules.remove(state, "p2").state
    assert state.captains[1].status is Status.LEFT and state.captains[1].fleet == ()
    table_record = SONAR.codec.record(state, [], _context(state))
    assert table_record["players"][1] == {"name": "b", "status": "left", "subs": []}
    assert table_record["start"] is None
    back = SONAR.rules.join(state, PlayerRef("p2", "b"))
    assert back.captains[1].status is Status.ALIVE


def test_1_a_player_who_left_in_setup_is_not_in_the_battle() -> None:
    table = Table({"ships": "1"})
    for name in ("a", "b", "c"):
        table.say(name, "join", Channel.PRIVATE)
    table.say("b", "leave", Channel.PRIVATE)
    table.line("@start")
    record = table.record()
    assert [p["name"] for p in record["start"]["players"]] == ["a", "c"]
    assert record["players"][1] == {"name": "b", "status": "left", "subs": []}


def _context(state: SonarState) -> RecordContext:
    return RecordContext(1, {c.id: c.name for c in state.captains}, state.phase.value, {})
