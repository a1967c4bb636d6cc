"""Rules §3 (a round, steps 1 to 6 and the evade window) and §6 (the end)."""

from __future__ import annotations

import random

from uboat_helpers import (
    begin,
    cell_of,
    give_island,
    health_of,
    last_events,
    of_type,
    set_boat,
)

from bot.games.base import Given
from bot.games.uboat import UBOAT, Hold, Move
from bot.games.uboat.cells import Direction
from bot.games.uboat.values import Colour

NO_ISLANDS = "islands=none"


# --- step 1: fire ----------------------------------------------------------------


def test_3_1_direct_hit_two_beside_one() -> None:
    driver = begin({"a": "A3", "b": "C3", "c": "C4", "d": "H8"}, NO_ISLANDS)
    driver.line("a dm: fire C3")
    driver.line("@close")
    (fire,) = of_type(last_events(driver), "fire")
    assert fire["hits"] == [{"boat": "blue", "damage": 2}, {"boat": "green", "damage": 1}]
    assert (health_of(driver, "blue"), health_of(driver, "green")) == (1, 2)


def test_3_1_the_cross_wraps() -> None:
    driver = begin({"a": "B2", "b": "A9", "c": "I1"}, NO_ISLANDS)
    driver.line("a dm: fire A1")
    driver.line("@close")
    (fire,) = of_type(last_events(driver), "fire")
    assert fire["hits"] == [{"boat": "blue", "damage": 1}, {"boat": "green", "damage": 1}]


def test_3_1_fire_lands_on_positions_at_the_round_start() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("b dm: move down down down")
    driver.line("@close")
    events = last_events(driver)
    assert of_type(events, "fire")[0]["hits"] == [{"boat": "blue", "damage": 2}]
    # Hit by fire: its move is cancelled, so it stays.
    assert of_type(events, "cancelled") == [{"type": "cancelled", "boat": "blue", "action": "move"}]
    assert of_type(events, "moved") == []
    assert cell_of(driver, "blue") == "C1"


def test_3_1_damage_stacks_and_health_stops_at_zero() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "E1", "d": "H8"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("c dm: fire C1")
    driver.line("@close")
    events = last_events(driver)
    assert [f["hits"] for f in of_type(events, "fire")] == [
        [{"boat": "blue", "damage": 2}],
        [{"boat": "blue", "damage": 2}],
    ]
    assert health_of(driver, "blue") == 0
    assert of_type(events, "destroyed") == [{"type": "destroyed", "boat": "blue", "freed": []}]


def test_3_1_a_blast_hits_the_shooter_too() -> None:
    driver = begin({"a": "A1", "b": "E5"}, NO_ISLANDS)
    driver.line("a dm: fire A2")
    driver.line("@close")
    assert of_type(last_events(driver), "fire")[0]["hits"] == [{"boat": "red", "damage": 1}]
    assert health_of(driver, "red") == 2


def test_3_1_direct_hit_captures_an_island() -> None:
    driver = begin({"a": "C5", "b": "H8"})
    driver.line("a dm: fire C3")
    driver.line("@close")
    assert of_type(last_events(driver), "captured") == [
        {"type": "captured", "island": 1, "boat": "red", "from": None}
    ]
    assert driver.record()["game"]["islands"][0]["owner"] == "red"


def test_3_1_two_direct_hits_on_an_island_change_nothing() -> None:
    driver = begin({"a": "C5", "b": "C1"})
    give_island(driver, 1, "blue")
    driver.line("a dm: fire C3")
    driver.line("b dm: fire C3")
    driver.line("@close")
    assert of_type(last_events(driver), "captured") == []
    assert driver.record()["game"]["islands"][0]["owner"] == "blue"


def test_3_1_a_neighbour_hit_does_not_capture() -> None:
    driver = begin({"a": "C5", "b": "H8"})
    driver.line("a dm: fire C4")
    driver.line("@close")
    assert of_type(last_events(driver), "captured") == []


def test_3_1_capture_from_an_owner() -> None:
    driver = begin({"a": "C5", "b": "H8"})
    give_island(driver, 1, "blue")
    driver.line("a dm: fire C3")
    driver.line("@close")
    assert of_type(last_events(driver), "captured")[0]["from"] == "blue"


# --- steps 2 to 4: moves and rams --------------------------------------------------


def test_3_3_moves_at_once_and_boats_never_collide() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: move right right")
    driver.line("b dm: move left left")
    driver.line("@close")
    assert (cell_of(driver, "red"), cell_of(driver, "blue")) == ("C1", "A1")


def test_3_3_moves_wrap() -> None:
    driver = begin({"a": "A1", "b": "E5"}, NO_ISLANDS)
    driver.line("a dm: move up left")
    driver.line("@close")
    assert cell_of(driver, "red") == "I9"


def test_3_4_rams_strike_after_every_move() -> None:
    driver = begin({"a": "A1", "b": "C3"}, NO_ISLANDS)
    driver.line("a dm: ram right")  # to B1, strikes C1
    driver.line("b dm: move up up")  # to C1
    driver.line("@close")
    events = last_events(driver)
    assert [e["type"] for e in events] == ["moved", "rammed"]
    assert events[1]["struck"] == "C1"
    assert events[1]["hits"] == [{"boat": "blue", "damage": 2}]


def test_3_4_rams_move_at_once_then_strike_at_once() -> None:
    driver = begin({"a": "A1", "b": "D1"}, NO_ISLANDS)
    driver.line("a dm: ram right")  # to B1, strikes C1
    driver.line("b dm: ram left")  # to C1, strikes B1
    driver.line("@close")
    rams = of_type(last_events(driver), "rammed")
    assert [(r["cell"], r["struck"], r["hits"]) for r in rams] == [
        ("B1", "C1", [{"boat": "blue", "damage": 2}]),
        ("C1", "B1", [{"boat": "red", "damage": 2}]),
    ]


def test_3_4_a_ram_on_an_island_tile_does_nothing() -> None:
    driver = begin({"a": "C5", "b": "H8"})
    driver.line("a dm: ram up")
    driver.line("@close")
    (ram,) = of_type(last_events(driver), "rammed")
    assert (ram["struck"], ram["hits"]) == ("C3", [])
    assert of_type(last_events(driver), "captured") == []


def test_3_4_a_boat_at_zero_not_yet_destroyed_is_struck_too() -> None:
    driver = begin({"a": "A1", "b": "C3", "c": "A3"}, NO_ISLANDS)
    set_boat(driver, "blue", health=2)
    driver.line("a dm: fire C3")  # blue to 0
    driver.line("c dm: ram right")  # B3, strikes C3
    driver.line("@close")
    (ram,) = of_type(last_events(driver), "rammed")
    assert ram["hits"] == [{"boat": "blue", "damage": 2}]


def test_3_2_a_boat_damaged_by_fire_does_not_ram_but_still_fires() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("b dm: ram left")
    driver.line("@close")
    events = last_events(driver)
    assert of_type(events, "cancelled") == [{"type": "cancelled", "boat": "blue", "action": "ram"}]
    assert of_type(events, "rammed") == []


def test_3_2_a_move_stands_in_the_record_even_when_cancelled() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("b dm: move down")
    driver.line("@close")
    orders = driver.turn(driver.record(), 1)["orders"]
    assert orders[1] == {"boat": "blue", "player": "b", "action": "move", "route": ["down"]}


# --- step 5: destruction and crews ---------------------------------------------------


def test_3_5_destroyed_boat_frees_its_islands_and_its_crew_is_adrift() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"})
    give_island(driver, 2, "blue")
    give_island(driver, 4, "blue")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert of_type(last_events(driver), "destroyed") == [
        {"type": "destroyed", "boat": "blue", "freed": [2, 4]}
    ]
    record = driver.record()
    bob = driver.player(record, "b")
    assert (bob["status"], bob["crew"], bob["afloat"], bob["health"], bob["cell"]) == (
        "eliminated",
        None,
        False,
        0,
        "C1",
    )
    question = [n for n in driver.resolutions[-1][1].notices if n.to == "p2" and n.choices]
    assert question and question[0].choices == ("crew red", "crew green")


def test_3_5_default_crew_is_the_one_with_fewest_members_ties_to_the_earliest_colour() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8", "d": "E1"}, NO_ISLANDS)
    set_boat(driver, "blue", health=1)
    set_boat(driver, "yellow", health=1)
    driver.line("a dm: fire D1")  # C1 and E1 beside it: Blue and Yellow sink
    driver.line("@close")
    driver.line("@close")  # Red (hit? no) — next round: both join by default
    joined = of_type(last_events(driver), "joined")
    # b joins first (join order): Red and Green have 1 member each, Red is earlier.
    # d then: Red has 2, Green 1 → Green.
    assert joined == [
        {"type": "joined", "player": "p2", "crew": "red", "chosen": False},
        {"type": "joined", "player": "p4", "crew": "green", "chosen": False},
    ]


def test_3_5_a_crew_choice_joins_at_the_next_rounds_end() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"}, NO_ISLANDS)
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("b dm: crew green")
    assert driver.player(driver.record(), "b")["crew"] is None
    driver.line("@close")
    assert of_type(last_events(driver), "joined") == [
        {"type": "joined", "player": "p2", "crew": "green", "chosen": True}
    ]
    record = driver.record()
    bob = driver.player(record, "b")
    assert (bob["status"], bob["crew"], bob["colour"]) == ("alive", "green", "blue")


def test_3_5_a_choice_of_a_boat_sunk_meanwhile_falls_back_to_the_default() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8", "d": "H6"}, NO_ISLANDS)
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    set_boat(driver, "green", health=1)
    driver.line("b dm: crew green")
    driver.line("d dm: fire H8")
    driver.line("@close")
    (joined,) = of_type(last_events(driver), "joined")
    assert (joined["crew"], joined["chosen"]) == ("red", False)


# --- step 6: the evade window ----------------------------------------------------------


def test_3_6_a_damaged_boat_gets_a_window_with_two_deadlines() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert driver.state is not None
    assert [(t.key, t.seconds) for t in UBOAT.rules.timers(driver.state)] == [
        ("evade:2", 60.0),
        ("round:2", 600.0),
    ]
    assert driver.pending == {"evade:2": 660.0, "round:2": 1200.0}
    driver.line("@close")  # the window
    assert driver.pending == {"round:2": 1200.0}
    assert len(driver.record()["turns"]) == 1
    driver.line("@close")  # the round, still start + 2 x round
    assert driver.now == 1200.0
    assert driver.pending == {"round:3": 1800.0}


def test_3_6_no_damage_no_window() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("@close")
    assert driver.pending == {"round:2": 1200.0}


def test_3_6_wait_closes_the_window_then_the_round() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("b dm: evade down")
    driver.line("@wait 10m")
    record = driver.record()
    assert [t["number"] for t in record["turns"]] == [1, 2]
    assert record["turns"][1]["events"][0] == {
        "type": "evaded",
        "boat": "blue",
        "route": ["down"],
        "cell": "C2",
    }


def test_3_6_the_shooters_own_damage_opens_its_window() -> None:
    driver = begin({"a": "A1", "b": "E5"}, NO_ISLANDS)
    driver.line("a dm: fire A2")
    driver.line("@close")
    assert driver.state is not None and driver.state.evaders == {Colour.RED}


def test_3_6_an_evasion_is_unannounced_and_resolves_first() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("b dm: evade down down")
    driver.line("a dm: fire C1")  # aimed at where Blue was
    driver.line("@close")
    _, window = driver.resolutions[-1]
    assert UBOAT.words.public_report(window.events, {}) == []
    assert [n.crew for n in window.notices if "evaded" in n.text] == [True]
    driver.line("@close")
    assert of_type(last_events(driver), "fire")[0]["hits"] == []


def test_3_6_an_evade_only_from_the_damaged_boats_crew_while_open() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("a dm: evade up")  # Red was not damaged
    driver.line("@close")
    driver.line("b dm: evade up")  # window closed
    assert len(driver.refusals("a")) == 1
    assert any("no evade window" in text for text in driver.refusals("b"))


def test_3_6_orders_that_no_longer_fit_after_an_evasion_are_withdrawn() -> None:
    driver = begin({"a": "C8", "b": "C5"})
    driver.line("a dm: fire C6")  # Blue beside the blast: 1 damage
    driver.line("@close")
    driver.line("b dm: move up")  # C4: fits from C5
    driver.line("b dm: evade down")  # to C6
    driver.line("b dm: move up up")  # C4, then island 1 at C3: refused
    assert len(driver.refusals("b")) == 1
    driver.line("b dm: fire C2")  # 3 away from C5: fits now, 4 away after the evasion
    driver.line("@close")  # window
    _, window = driver.resolutions[-1]
    withdrawn = [n for n in window.notices if "withdrawn" in n.text]
    assert len(withdrawn) == 1 and withdrawn[0].to == "p2" and "fire C2" in withdrawn[0].text
    driver.line("@close")
    turn = driver.turn(driver.record(), 2)
    assert [o["action"] for o in turn["orders"] if o["boat"] == "blue"] == ["evade"]
    assert of_type(last_events(driver), "fire") == []


def test_3_6_a_new_order_after_a_withdrawal_stands() -> None:
    driver = begin({"a": "C8", "b": "C5"})
    driver.line("a dm: fire C6")
    driver.line("@close")
    driver.line("b dm: evade down")
    driver.line("b dm: fire C2")
    driver.line("@close")
    driver.line("b dm: fire C3")
    driver.line("@close")
    assert [f["cell"] for f in of_type(last_events(driver), "fire")] == ["C3"]


def test_3_6_no_window_when_the_game_ends() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS + " rounds=1")
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert driver.pending == {}
    assert driver.state is not None and UBOAT.rules.timers(driver.state) == ()


# --- §6 the end -------------------------------------------------------------------------


def test_6_the_last_boat_afloat_wins() -> None:
    driver = begin({"a": "A1", "b": "C1"}, NO_ISLANDS)
    set_boat(driver, "blue", health=2)
    driver.line("a dm: fire C1")
    driver.line("@close")
    (finished,) = of_type(last_events(driver), "finished")
    assert finished == {
        "type": "finished",
        "winners": ["p1"],
        "draw": False,
        "boats": ["red"],
        "scores": {"red": 0},
        "marks": ["p1"],
        "first_duelist": "p2",
    }
    assert driver.state is not None
    outcome = UBOAT.rules.outcome(driver.state)
    assert outcome is not None and outcome.winners == ("p1",) and not outcome.draw
    assert of_type(last_events(driver), "sonar") == []


def test_6_boats_sinking_together_draw() -> None:
    driver = begin({"a": "A1", "b": "B1"}, NO_ISLANDS)
    set_boat(driver, "red", health=1)
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire B1")
    driver.line("@close")
    (finished,) = of_type(last_events(driver), "finished")
    assert (finished["winners"], finished["draw"], finished["boats"], finished["scores"]) == (
        ["p1", "p2"],
        True,
        ["red", "blue"],
        {},
    )
    record = driver.record()
    assert record["game"]["winners"] == ["a", "b"] and record["game"]["draw"] is True


def test_6_after_the_last_round_the_highest_island_sum_wins() -> None:
    driver = begin({"a": "A1", "b": "I9", "c": "E9"}, "rounds=1")
    give_island(driver, 5, "red")
    give_island(driver, 1, "blue")
    give_island(driver, 3, "blue")
    driver.line("@close")
    (finished,) = of_type(last_events(driver), "finished")
    assert finished["scores"] == {"red": 5, "blue": 4, "green": 0}
    assert (finished["boats"], finished["draw"]) == (["red"], False)


def test_6_a_tie_goes_to_the_largest_island() -> None:
    driver = begin({"a": "A1", "b": "I9"}, "rounds=1")
    give_island(driver, 5, "red")
    give_island(driver, 1, "blue")
    give_island(driver, 4, "blue")
    driver.line("@close")
    (finished,) = of_type(last_events(driver), "finished")
    assert finished["scores"] == {"red": 5, "blue": 5}
    assert (finished["boats"], finished["draw"], finished["winners"]) == (["red"], False, ["p1"])


def test_6_crews_holding_no_island_draw() -> None:
    driver = begin({"a": "A1", "b": "I9", "c": "E9"}, "rounds=1")
    driver.line("@close")
    (finished,) = of_type(last_events(driver), "finished")
    assert (finished["boats"], finished["draw"]) == (["red", "blue", "green"], True)
    assert finished["winners"] == ["p1", "p2", "p3"]


def test_6_winners_are_the_crews_sorted_by_name() -> None:
    driver = begin({"zoe": "A1", "amy": "C1", "bob": "A3"}, NO_ISLANDS)
    set_boat(driver, "blue", health=1)
    driver.line("zoe dm: fire C1")
    driver.line("@close")
    driver.line("amy dm: crew red")
    set_boat(driver, "green", health=1)
    driver.line("zoe dm: fire A3")
    driver.line("@close")
    record = driver.record()
    assert record["game"]["winners"] == ["amy", "zoe"]


def test_6_the_game_goes_on_until_the_last_round() -> None:
    driver = begin({"a": "A1", "b": "I9"}, "rounds=2")
    driver.line("@close")
    assert driver.record()["game"]["phase"] == "battle"
    driver.line("@close")
    assert driver.record()["game"]["phase"] == "finished"
    assert driver.record()["game"]["turn"] == 2


def test_3_expire_of_a_stale_timer_changes_nothing() -> None:
    driver = begin({"a": "A1", "b": "I9"})
    assert driver.state is not None
    state = driver.state
    result = UBOAT.rules.expire(state, "round:7", [Given("p1", Hold(), 0.0, 1)], random.Random(0))
    assert result.state is state and result.events == ()
    result = UBOAT.rules.expire(
        state, "evade:1", [Given("p1", Move((Direction.UP,)), 0.0, 1)], random.Random(0)
    )
    assert result.state is state
