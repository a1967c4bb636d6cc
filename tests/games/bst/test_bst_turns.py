"""Rules §4 (orders), §5 (resolution), §6 (views) and §7 (leave and end in battle), one
test per rule, named after it; it spans those sections, so the file keeps its name."""

from __future__ import annotations

import random

import pytest
from bst_helpers import ev, fleet, join, new, pid, place, records, setup, turn

from bot.games.base import Channel, IllegalOrderError, Outcome, WrongChannelError
from bot.games.bst import BST, BstState
from bot.games.bst.cells import Cell, parse_cell
from bot.games.bst.record import record_players
from bot.games.bst.views import CaptainStatus, Phase, PrivateView, PublicView


def private(state: BstState, name: str) -> PrivateView:
    view = BST.views.view(state, pid(name))
    assert isinstance(view, PrivateView)
    return view


def public(state: BstState) -> PublicView:
    view = BST.views.view(state, None)
    assert isinstance(view, PublicView)
    return view


def cells(text: str) -> tuple[Cell, ...]:
    return tuple(parse_cell(word) for word in text.split())


# ---------------------------------------------------------------- §4 orders


def test_4_shot_by_dm_refused() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    with pytest.raises(WrongChannelError) as caught:
        BST.rules.accept(
            state, pid("ahab"), BST.rules.parse("H4"), Channel.PRIVATE, random.Random(0)
        )
    assert caught.value.message == "shots are public: post `#bst H4` in the game channel"


def test_4_move_posted_publicly_refused_and_told_to_dm() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    for text in ("move sub at A2 1 down", "rotate carrier at C3"):
        with pytest.raises(WrongChannelError, match=r"moves are private.*DM"):
            BST.rules.accept(
                state, pid("ahab"), BST.rules.parse(text), Channel.PUBLIC, random.Random(0)
            )


def test_4_shot_accepted_as_standing_order() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    order = BST.rules.parse("#bst H4")
    accepted = BST.rules.accept(state, pid("ahab"), order, Channel.PUBLIC, random.Random(0))
    assert accepted.standing == order and accepted.state == state and accepted.notices == ()
    with pytest.raises(IllegalOrderError, match="K4 is off the 10x10 board"):
        BST.rules.accept(
            state, pid("ahab"), BST.rules.parse("K4"), Channel.PUBLIC, random.Random(0)
        )


def test_4_orders_refused_before_the_battle() -> None:
    state = join(new(), "ahab", "nemo")
    with pytest.raises(IllegalOrderError, match="not started"):
        BST.rules.accept(
            state, pid("ahab"), BST.rules.parse("H4"), Channel.PUBLIC, random.Random(0)
        )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("move cruiser at G7 3 up", "you have no cruiser at G7"),
        ("move cruiser at F2 1 right", "you have no cruiser at F2"),  # nemo's: no leak
        ("move carrier at C1 1 up", "lies along a row, so it moves left or right"),
        ("move carrier at C1 6 right", "moves 1 to 5 cells; got 6"),
        ("move carrier at C1 0 right", "moves 1 to 5 cells; got 0"),
        ("move carrier at C1 1 left", "off the 10x10 board"),
        ("move sub at A2 1 up", "off the 10x10 board"),
        ("move sub at A2 2 down", "exactly 1 cell"),
        ("rotate sub at A2", "submarine cannot rotate"),
    ],
)
def test_4_move_validation_refusals(text: str, message: str) -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    with pytest.raises(IllegalOrderError, match=message):
        BST.rules.accept(
            state, pid("ahab"), BST.rules.parse(text), Channel.PRIVATE, random.Random(0)
        )


def test_4_rotation_off_the_edge_refused() -> None:
    state = setup({"ahab": "sub: J10\ncarrier: B1-B5", "nemo": "cruiser: A8-A10, cruiser: H1-H3"})
    # a carrier within one cell of the top edge cannot rotate off it
    with pytest.raises(IllegalOrderError, match="cannot rotate"):
        BST.rules.accept(
            state,
            pid("ahab"),
            BST.rules.parse("rotate carrier at B2"),
            Channel.PRIVATE,
            random.Random(0),
        )
    # a cruiser flush with an edge cannot rotate off that edge
    with pytest.raises(IllegalOrderError, match="cannot rotate"):
        BST.rules.accept(
            state,
            pid("nemo"),
            BST.rules.parse("rotate cruiser at A9"),
            Channel.PRIVATE,
            random.Random(0),
        )
    accepted = BST.rules.accept(
        state,
        pid("nemo"),
        BST.rules.parse("rotate cruiser at H1"),
        Channel.PRIVATE,
        random.Random(0),
    )
    assert accepted.standing is not None


def test_4_destroyed_ship_never_moves() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    state = turn(state, {"nemo": "A2"}).state
    with pytest.raises(IllegalOrderError, match="destroyed"):
        BST.rules.accept(
            state,
            pid("ahab"),
            BST.rules.parse("move sub at A2 1 down"),
            Channel.PRIVATE,
            random.Random(0),
        )


def test_4_eliminated_and_left_players_orders_refused() -> None:
    state = setup(
        {
            "a": "sub: A1, carrier: J1-J5",
            "b": "sub: C1, carrier: E1-E5",
            "c": "cruiser: G1-G3, cruiser: H5-H7",
            "d": "sub: A10, carrier: B6-B10",
        }
    )
    for shots in ({"a": "C1", "c": "E1"}, {"a": "E2", "c": "E3"}, {"a": "E4", "c": "E5"}):
        state = turn(state, shots).state
    state = BST.rules.remove(state, pid("c")).state
    assert state.phase is Phase.BATTLE
    for name, message in (("b", "eliminated"), ("c", "left")):
        with pytest.raises(IllegalOrderError, match=message):
            BST.rules.accept(
                state, pid(name), BST.rules.parse("H1"), Channel.PUBLIC, random.Random(0)
            )


def test_4_pass_is_a_standing_order_that_does_nothing() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    resolved = turn(state, {"ahab": "pass", "nemo": "pass"})
    assert resolved.events == () and resolved.state.turn == 2


# ---------------------------------------------------------------- §5.1 movement

COLLISION_FLEETS = {
    "kirk": "sub: E5\ncarrier: A1-A5",
    "spock": "sub: E7\ncarrier: J1-J5",
    "uhura": "cruiser: G2-G4\ncruiser: C8-C10",
}


def test_5_1_head_on_ships_both_stop() -> None:
    # shared/examples/bst-collisions.txt
    state = setup(COLLISION_FLEETS)
    resolved = turn(
        state,
        {
            "kirk": "move sub at E5 1 right",
            "spock": "move sub at E7 1 left",
            "uhura": "move cruiser at G2 3 right",
        },
    )
    assert records(resolved) == [
        ev("collision", "kirk", "submarine", "E5"),
        ev("collision", "spock", "submarine", "E7"),
        ev("moved", "uhura", "cruiser", "G5 G6 G7"),
    ]
    assert private(resolved.state, "kirk").collisions == cells("E6")
    assert private(resolved.state, "spock").collisions == cells("E6")
    assert private(resolved.state, "uhura").collisions == ()
    assert resolved.changed == {pid("kirk"), pid("spock"), pid("uhura")}
    told = {notice.to for notice in resolved.notices}
    assert told == {pid("kirk"), pid("spock")}
    assert all("kirk" not in n.text and "spock" not in n.text for n in resolved.notices)


def test_5_1_following_into_vacated_cell() -> None:
    state = setup({"a": "sub: E5\ncarrier: A1-A5", "b": "sub: E6\ncarrier: J1-J5"})
    resolved = turn(state, {"a": "move sub at E5 1 right", "b": "move sub at E6 1 right"})
    assert records(resolved) == [
        ev("moved", "a", "submarine", "E6"),
        ev("moved", "b", "submarine", "E7"),
    ]


def test_5_1_following_a_longer_ship_step_by_step() -> None:
    state = setup({"a": "cruiser: E1-E3, cruiser: J1-J3", "b": "sub: E4\ncarrier: A1-A5"})
    resolved = turn(state, {"a": "move cruiser at E1 3 right", "b": "move sub at E4 1 right"})
    # Step 1: the cruiser follows the sub into E4. Step 2: the sub has finished its one
    # cell, so it is not moving any more, and the cruiser runs into it (rule 1).
    assert records(resolved) == [
        ev("collision", "a", "cruiser", "E2 E3 E4"),
        ev("moved", "b", "submarine", "E5"),
    ]


def test_5_1_closed_cycle_all_move() -> None:
    state = setup(
        {
            "a": "sub: E5\ncarrier: A1-A5",
            "b": "sub: E6\ncarrier: B1-B5",
            "c": "sub: F6\ncarrier: C1-C5",
            "d": "sub: F5\ncarrier: J1-J5",
        }
    )
    resolved = turn(
        state,
        {
            "a": "move sub at E5 1 right",
            "b": "move sub at E6 1 down",
            "c": "move sub at F6 1 left",
            "d": "move sub at F5 1 up",
        },
    )
    assert records(resolved) == [
        ev("moved", "a", "submarine", "E6"),
        ev("moved", "b", "submarine", "F6"),
        ev("moved", "c", "submarine", "F5"),
        ev("moved", "d", "submarine", "E5"),
    ]


def test_5_1_pass_through_fails() -> None:
    state = setup({"a": "sub: E5\ncarrier: A1-A5", "b": "sub: E6\ncarrier: J1-J5"})
    resolved = turn(state, {"a": "move sub at E5 1 right", "b": "move sub at E6 1 left"})
    assert records(resolved) == [
        ev("collision", "a", "submarine", "E5"),
        ev("collision", "b", "submarine", "E6"),
    ]
    assert private(resolved.state, "a").collisions == cells("E5 E6")


def test_5_1_pass_through_of_a_cruiser_and_a_sub() -> None:
    state = setup({"a": "cruiser: E1-E3, cruiser: J1-J3", "b": "sub: E4\ncarrier: A1-A5"})
    resolved = turn(state, {"a": "move cruiser at E1 1 right", "b": "move sub at E4 1 left"})
    assert [r["type"] for r in records(resolved)] == ["collision", "collision"]


def test_5_1_rule1_stationary_ship_blocks_and_its_owner_is_told() -> None:
    state = setup({"a": "sub: E5\ncarrier: A1-A5", "b": "sub: E6\ncarrier: J1-J5"})
    resolved = turn(state, {"a": "move sub at E5 1 right"})
    assert records(resolved) == [ev("collision", "a", "submarine", "E5")]
    assert private(resolved.state, "a").collisions == cells("E6")
    assert private(resolved.state, "b").collisions == cells("E6")
    assert resolved.changed == {pid("a"), pid("b")}
    (to_b,) = [n for n in resolved.notices if n.to == pid("b")]
    assert "E6" in to_b.text and "a " not in to_b.text.split(":")[0]


def test_5_1_rule3_chain() -> None:
    # c follows b follows a, and a is blocked by a stationary carrier: all three stop.
    state = setup(
        {
            "a": "sub: E5\ncarrier: A1-A5",
            "b": "sub: E4\ncarrier: B1-B5",
            "c": "sub: E3\ncarrier: C1-C5",
            "d": "sub: J10\ncarrier: E6-I6",
        }
    )
    resolved = turn(
        state,
        {
            "a": "move sub at E5 1 right",
            "b": "move sub at E4 1 right",
            "c": "move sub at E3 1 right",
        },
    )
    assert records(resolved) == [
        ev("collision", "a", "submarine", "E5"),
        ev("collision", "b", "submarine", "E4"),
        ev("collision", "c", "submarine", "E3"),
    ]
    assert private(resolved.state, "d").collisions == cells("E6")
    # b hit a's stopped sub at E5, and c hit b's stopped sub at E4
    assert private(resolved.state, "b").collisions == cells("E4 E5")
    assert private(resolved.state, "c").collisions == cells("E4")


def test_5_1_failed_ship_stops_for_the_rest_of_the_turn() -> None:
    # The cruiser moves 2 of its 3 cells, then meets a carrier: a collision event only.
    state = setup({"a": "cruiser: E1-E3, cruiser: J1-J3", "b": "sub: J10\ncarrier: E6-I6"})
    resolved = turn(state, {"a": "move cruiser at E1 3 right"})
    assert records(resolved) == [ev("collision", "a", "cruiser", "E3 E4 E5")]
    assert fleet(resolved.state, "a")[0][1] == ["E3", "E4", "E5"]


def test_5_1_stopped_ship_blocks_later_steps() -> None:
    # b's sub collides in step 1 and stays at F4; a's cruiser reaches F3 at step... no: a
    # moves along row E; b is blocked so it never leaves E4's neighbour.
    state = setup({"a": "cruiser: E1-E3, cruiser: J1-J3", "b": "sub: E5\ncarrier: F5-F9"})
    resolved = turn(state, {"a": "move cruiser at E1 3 right", "b": "move sub at E5 1 down"})
    # step 1: cruiser to E2-E4, sub blocked by its own carrier at F5 (a collision)
    # step 2: cruiser would enter E5 where the stopped sub stays: it stops at E2-E4
    assert records(resolved) == [
        ev("collision", "a", "cruiser", "E2 E3 E4"),
        ev("collision", "b", "submarine", "E5"),
    ]


def test_5_1_rotation_happens_in_step_1_and_a_follower_may_enter_its_vacated_cell() -> None:
    state = setup({"ahab": "sub: J10\ncarrier: C1-C5", "nemo": "cruiser: D2-F2, cruiser: H5-H7"})
    resolved = turn(state, {"ahab": "rotate carrier at C3", "nemo": "move cruiser at E2 1 up"})
    assert records(resolved) == [
        ev("rotated", "ahab", "carrier", "A3 B3 C3 D3 E3"),
        ev("moved", "nemo", "cruiser", "C2 D2 E2"),
    ]


def test_5_1_failed_rotation_leaves_the_ship_unrotated() -> None:
    state = setup({"ahab": "sub: J10\ncarrier: C1-C5", "nemo": "sub: A3\ncarrier: J1-J5"})
    resolved = turn(state, {"ahab": "rotate carrier at C3"})
    assert records(resolved) == [ev("collision", "ahab", "carrier", "C1 C2 C3 C4 C5")]
    assert private(resolved.state, "ahab").collisions == cells("A3")
    assert private(resolved.state, "nemo").collisions == cells("A3")


def test_5_1_blocked_by_wreck_and_the_wrecks_owner_is_told() -> None:
    state = setup(
        {
            "a": "sub: E6\ncarrier: A1-A5",
            "b": "sub: E5\ncarrier: J1-J5",
            "c": "cruiser: G1-G3, cruiser: H5-H7",
        }
    )
    state = turn(state, {"b": "E6"}).state  # a's sub is a wreck at E6
    resolved = turn(state, {"b": "move sub at E5 1 right"})
    assert records(resolved) == [ev("collision", "b", "submarine", "E5")]
    assert private(resolved.state, "a").collisions == cells("E6")
    assert pid("a") in resolved.changed


def test_5_1_collisions_do_no_damage() -> None:
    state = setup({"a": "sub: E5\ncarrier: A1-A5", "b": "sub: E6\ncarrier: J1-J5"})
    resolved = turn(state, {"a": "move sub at E5 1 right", "b": "move sub at E6 1 left"})
    assert all(not damaged for name in "ab" for _, _, damaged in fleet(resolved.state, name))


def test_5_1_own_ships_collide_too() -> None:
    state = setup({"a": "sub: C6\ncarrier: C1-C5", "b": "sub: J10\ncarrier: J1-J5"})
    resolved = turn(state, {"a": "move carrier at C1 1 right"})
    assert records(resolved) == [ev("collision", "a", "carrier", "C1 C2 C3 C4 C5")]
    assert private(resolved.state, "a").collisions == cells("C6")


# ---------------------------------------------------------------- §5.2 shots


def test_5_2_shots_after_moves_can_dodge() -> None:
    state = setup({"a": "sub: E5\ncarrier: A1-A5", "b": "sub: J10\ncarrier: J1-J5"})
    resolved = turn(state, {"a": "move sub at E5 1 down", "b": "E5"})
    assert records(resolved)[1] == {
        "type": "shot",
        "player": pid("b"),
        "cell": "E5",
        "result": "miss",
    }


def test_5_2_before_moves_shots_land_on_the_start_board() -> None:
    state = setup(
        {"a": "cruiser: E1-E3, cruiser: A1-A3", "b": "sub: J10\ncarrier: J1-J5"},
        shots="before_moves",
    )
    resolved = turn(state, {"a": "move cruiser at E1 2 right", "b": "E1"})
    assert records(resolved) == [
        ev("moved", "a", "cruiser", "E3 E4 E5"),
        {"type": "shot", "player": pid("b"), "cell": "E1", "result": "hit"},
    ]
    assert fleet(resolved.state, "a")[1] == ("cruiser", ["E3", "E4", "E5"], ["E3"])


def test_5_2_before_moves_a_ship_destroyed_by_shots_does_not_move() -> None:
    state = setup(
        {"a": "sub: E5\ncarrier: A1-A5", "b": "sub: J10\ncarrier: J1-J5"}, shots="before_moves"
    )
    resolved = turn(state, {"a": "move sub at E5 1 down", "b": "E5"})
    assert records(resolved) == [
        {"type": "shot", "player": pid("b"), "cell": "E5", "result": "hit"},
        ev("destroyed", "a", "submarine", "E5"),
    ]


def test_5_2_damage_moves_with_ship() -> None:
    # shared/examples/bst-first-game.txt, then the hit cruiser moves on
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    state = turn(state, {"ahab": "F3"}).state
    assert fleet(state, "nemo")[0] == ("cruiser", ["F1", "F2", "F3"], ["F3"])
    state = turn(state, {"nemo": "move cruiser at F1 2 right"}).state
    assert fleet(state, "nemo")[0] == ("cruiser", ["F3", "F4", "F5"], ["F5"])
    state = turn(state, {"ahab": "F3"}).state  # the tail is hit now: the front stays hit
    assert fleet(state, "nemo")[0] == ("cruiser", ["F3", "F4", "F5"], ["F3", "F5"])


def test_5_2_damage_turns_with_a_rotating_ship() -> None:
    state = setup({"ahab": "sub: J10\ncarrier: C1-C5", "nemo": "sub: J1\ncarrier: H5-H9"})
    state = turn(state, {"nemo": "C1"}).state
    state = turn(state, {"ahab": "rotate carrier at C3"}).state
    assert fleet(state, "ahab")[0] == ("carrier", ["A3", "B3", "C3", "D3", "E3"], ["A3"])


def test_5_2_own_ship_and_wreck_hits_and_repeated_hits() -> None:
    state = setup(
        {
            "a": "sub: E5\ncarrier: A1-A5",
            "b": "sub: J10\ncarrier: J1-J5",
            "c": "cruiser: G1-G3, cruiser: H5-H7",
        }
    )
    resolved = turn(state, {"a": "A1", "b": "E5", "c": "E5"})
    assert [r.get("result") for r in records(resolved)][:3] == ["hit", "hit", "hit"]
    assert fleet(resolved.state, "a")[0][2] == ["A1"]
    resolved = turn(resolved.state, {"b": "E5", "c": "A1"})  # a wreck, a damaged segment
    assert [r["result"] for r in records(resolved)] == ["hit", "hit"]
    assert [r["type"] for r in records(resolved)] == ["shot", "shot"]


def test_5_2_several_shots_on_one_cell_each_reported_sorted_by_name() -> None:
    state = setup(
        {
            "zed": "sub: E5\ncarrier: A1-A5",
            "amy": "sub: J10\ncarrier: J1-J5",
            "bob": "cruiser: G1-G3, cruiser: H5-H7",
        }
    )
    resolved = turn(state, {"zed": "C5", "bob": "C5", "amy": "C5"})
    assert [(r["player"], r["result"]) for r in records(resolved)] == [
        (pid("amy"), "miss"),
        (pid("bob"), "miss"),
        (pid("zed"), "miss"),
    ]
    assert [s.shooter_name for s in public(resolved.state).shots] == ["amy", "bob", "zed"]


def test_5_2_destroyed_ship_is_a_public_wreck_that_blocks() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    resolved = turn(state, {"nemo": "A2"})
    assert records(resolved)[-1] == ev("destroyed", "ahab", "submarine", "A2")
    (wreck,) = public(resolved.state).wrecks
    assert (wreck.owner_name, wreck.cells) == ("ahab", cells("A2"))


# ---------------------------------------------------------------- §5.3 end


def test_5_3_elimination_and_win() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    for cell in ("C1", "C2", "C3", "C4"):
        state = turn(state, {"nemo": cell}).state
    resolved = turn(state, {"nemo": "A2", "ahab": "F1"})
    state = resolved.state
    assert records(resolved)[-1] == ev("destroyed", "ahab", "submarine", "A2")
    state = turn(state, {"nemo": "C5"})
    assert records(state)[-3:] == [
        ev("destroyed", "ahab", "carrier", "C1 C2 C3 C4 C5"),
        {"type": "eliminated", "player": pid("ahab")},
        {"type": "finished", "winners": [pid("nemo")], "draw": False},
    ]
    final = state.state
    assert final.phase is Phase.FINISHED and final.turn == 6
    assert BST.rules.outcome(final) == Outcome((pid("nemo"),), False)
    assert BST.rules.to_act(final) == frozenset()


def test_5_3_last_ships_going_down_together_is_a_draw() -> None:
    state = setup({"a": "sub: A1, carrier: J1-J5", "b": "sub: C1, carrier: E1-E5"})
    for col in range(1, 5):
        state = turn(state, {"a": f"E{col}", "b": f"J{col}"}).state
    state = turn(state, {"a": "C1", "b": "A1"}).state
    resolved = turn(state, {"a": "E5", "b": "J5"})
    assert records(resolved)[-3:] == [
        {"type": "eliminated", "player": pid("a")},
        {"type": "eliminated", "player": pid("b")},
        {"type": "finished", "winners": [pid("a"), pid("b")], "draw": True},
    ]
    assert BST.rules.outcome(resolved.state) == Outcome((pid("a"), pid("b")), True)


def test_5_3_max_turns_draw_between_all_alive() -> None:
    state = setup(
        {
            "a": "sub: A1, carrier: J1-J5",
            "b": "sub: C1, carrier: E1-E5",
            "c": "sub: G1, carrier: H5-H9",
        },
        max_turns="2",
    )
    state = turn(state, {"a": "C1"}).state
    resolved = turn(state, {})
    assert records(resolved) == [
        {"type": "finished", "winners": [pid("a"), pid("b"), pid("c")], "draw": True}
    ]
    assert resolved.state.turn == 2 and resolved.state.phase is Phase.FINISHED


def test_7_leave_in_battle_turns_ships_into_wrecks_and_may_end_the_game() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    removed = BST.rules.remove(state, pid("nemo"))
    assert [e.record() for e in removed.events] == [
        ev("destroyed", "nemo", "cruiser", "F1 F2 F3"),
        ev("destroyed", "nemo", "cruiser", "J8 J9 J10"),
        {"type": "finished", "winners": [pid("ahab")], "draw": False},
    ]
    players = record_players(removed.state)
    assert players[1]["status"] == "left"
    assert players[1]["ships"][0] == {
        "kind": "cruiser",
        "cells": ["F1", "F2", "F3"],
        "damaged": ["F1", "F2", "F3"],
        "destroyed": True,
    }


def test_7_end_is_a_draw_between_captains_still_alive() -> None:
    state = setup(
        {
            "a": "sub: A1, carrier: J1-J5",
            "b": "sub: C1, carrier: E1-E5",
            "c": "sub: G1, carrier: H5-H9",
        }
    )
    state = BST.rules.remove(state, pid("b")).state
    finished = BST.rules.finish(state)
    assert [e.record() for e in finished.events] == [
        {"type": "finished", "winners": [pid("a"), pid("c")], "draw": True}
    ]
    assert BST.rules.outcome(finished.state) == Outcome((pid("a"), pid("c")), True)


# ---------------------------------------------------------------- examples, record, views


def test_example_first_game() -> None:
    # shared/examples/bst-first-game.txt
    state = new("10x10", turn="8h")
    state = join(state, "ahab")
    state = place(state, "ahab", "sub: A2\ncarrier: C1-C5")
    state = join(state, "nemo")
    state = place(state, "nemo", "cruiser: F1-F3, cruiser: J8-J10")
    state = BST.rules.start(state, random.Random(0)).state
    assert (state.phase, state.turn) == (Phase.BATTLE, 1)
    assert fleet(state, "ahab") == [
        ("carrier", ["C1", "C2", "C3", "C4", "C5"], []),
        ("submarine", ["A2"], []),
    ]
    first = turn(state, {"ahab": "#bst F3", "nemo": "move cruiser at J8 2 left"})
    assert records(first) == [
        ev("moved", "nemo", "cruiser", "J6 J7 J8"),
        {"type": "shot", "player": pid("ahab"), "cell": "F3", "result": "hit"},
    ]
    assert fleet(first.state, "nemo")[0] == ("cruiser", ["F1", "F2", "F3"], ["F3"])
    second = turn(first.state, {"ahab": "rotate carrier at C3", "nemo": "#BST a2"})
    assert records(second) == [
        ev("rotated", "ahab", "carrier", "A3 B3 C3 D3 E3"),
        {"type": "shot", "player": pid("nemo"), "cell": "A2", "result": "hit"},
        ev("destroyed", "ahab", "submarine", "A2"),
    ]
    final = second.state
    assert final.turn == 3
    ahab = record_players(final)[0]
    assert ahab["status"] == "alive"
    assert ahab["ships"] == [
        {
            "kind": "carrier",
            "cells": ["A3", "B3", "C3", "D3", "E3"],
            "damaged": [],
            "destroyed": False,
        },
        {"kind": "submarine", "cells": ["A2"], "damaged": ["A2"], "destroyed": True},
    ]


def test_6_private_view_holds_own_ships_and_public_facts_only() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    state = turn(state, {"ahab": "F3"}).state
    view = private(state, "nemo")
    assert view.public == public(state)
    assert [ship.cells for ship in view.ships] == [cells("F1 F2 F3"), cells("J8 J9 J10")]
    assert view.ships[0].damaged == frozenset(cells("F3"))
    assert [(s.shooter_name, str(s.cell), s.hit) for s in public(state).shots] == [
        ("ahab", "F3", True)
    ]
    assert public(state).wrecks == ()
    assert "C1" not in BST.words.summary(state, None) and "F1" not in BST.words.summary(state, None)
    assert "F1-F3" in BST.words.summary(state, pid("nemo"))


def test_6_reveal_shows_every_fleet() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"})
    revealed = BST.views.reveal(state)
    assert [f.owner_name for f in revealed.fleets] == ["ahab", "nemo"]
    assert revealed.fleets[1].ships[1].cells == cells("J8 J9 J10")


def test_state_encoding_round_trips_exactly() -> None:
    state = setup(
        {
            "ahab": "sub: A2\ncarrier: C1-C5",
            "nemo": "cruiser: F1-F3, cruiser: J8-J10",
            "ishmael": "",
        },
        late_join="on",
        max_turns="9",
    )
    state = turn(state, {"ahab": "F3", "nemo": "move cruiser at J8 2 left"}).state
    state = BST.rules.remove(state, pid("ishmael")).state
    encoded = BST.codec.encode_state(state)
    import json

    assert BST.codec.decode_state(json.loads(json.dumps(encoded))) == state


def test_captain_statuses_in_views() -> None:
    state = setup(
        {
            "a": "sub: A1, carrier: J1-J5",
            "b": "sub: C1, carrier: E1-E5",
            "c": "sub: G1, carrier: H5-H9",
        }
    )
    state = BST.rules.remove(state, pid("c")).state
    assert [c.status for c in public(state).captains] == [
        CaptainStatus.ALIVE,
        CaptainStatus.ALIVE,
        CaptainStatus.LEFT,
    ]
    assert [c.name for c in public(state).alive] == ["a", "b"]


def test_5_3_a_late_joiner_placed_at_this_close_keeps_the_battle_going() -> None:
    """Decision (the rules are silent): a newcomer is placed at the close, after the
    shots, and then counts as afloat; the captain who sank the last other fleet in that
    same turn has not won yet."""
    state = setup(
        {"ahab": "sub: A2\ncarrier: C1-C5", "nemo": "cruiser: F1-F3, cruiser: J8-J10"},
        late_join="on",
    )
    for cell in ("C1", "C2", "C3", "C4", "A2"):
        state = turn(state, {"nemo": cell}).state
    state = join(state, "ishmael")
    resolved = turn(state, {"nemo": "C5"})
    types = [r["type"] for r in records(resolved)]
    assert "eliminated" in types and "finished" not in types
    assert resolved.state.phase is Phase.BATTLE
    assert BST.rules.outcome(resolved.state) is None
    assert BST.rules.to_act(resolved.state) == {pid("nemo"), pid("ishmael")}
