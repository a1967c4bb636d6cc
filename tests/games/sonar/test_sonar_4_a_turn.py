"""Rules §4, a turn: the move, the charges allowed, hits, killer shots and misses, the
outcome, and the decisions on timeouts, leaving and the host's ``end``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sonar_helpers import Table, given_game, player_of, turn_of

from bot.games.base import Channel, IllegalOrderError, OrderSyntaxError
from bot.games.sonar import SONAR
from bot.games.sonar.board import Board, parse_cell
from bot.games.sonar.state import Phase

ONE_EACH = {"a": "2 a1 ur", "b": "2 a5 ur"}
THREE_EACH = {"a": "2 a1 ur, 3 a3 ur, 3 a5 ur", "b": "2 a9 ur, 3 a11 ur, 3 a13 ur"}


def game(fleets: dict[str, str], **options: str) -> Table:
    return given_game(fleets, size="12", **options)


def events(table: Table, number: int) -> list[dict[str, Any]]:
    return list(turn_of(table.record(), number)["events"])


def nearest(table: Table, target: str) -> int:
    """The distance from ``target`` to the nearest segment of a sub on the board now."""
    board = Board(table.state.options.size)
    cells = [
        parse_cell(cell)
        for player in table.record()["players"]
        if player["status"] == "alive"
        for sub in player["subs"]
        if not sub["sunk"]
        for cell in sub["cells"]
    ]
    return int(min(board.distance(parse_cell(target), cell) for cell in cells))


def test_4_1_every_sub_moves_one_step_before_the_charges() -> None:
    table = game(ONE_EACH)
    table.line("a public: #sonar b1")  # a's own bow, one step up-right of a1
    assert events(table, 1) == [
        {"type": "shot", "player": "a", "cell": "b1", "result": "hit", "owner": "a", "sub": 1}
    ]
    assert player_of(table.record(), "b")["subs"][0]["cells"] == ["b5", "a5"]


def test_4_1_subs_wrap_round_the_board() -> None:
    table = game(ONE_EACH, on_timeout="skip")
    table.play(["@close"] * 12)
    # Twelve steps up-right from a1 cross the top edge: half a board (6 columns) along.
    assert player_of(table.record(), "a")["subs"][0]["cells"] == ["a7", "l1"]


def test_4_2_the_first_turn_gets_half_the_charges_rounded_up() -> None:
    table = game(THREE_EACH)
    table.line("a public: #sonar l20, k20, j20")
    assert "at most 2 charges" in table.refusals[0].message
    table.line("a public: #sonar l20, k20")
    table.line("b public: #sonar l20, k20, j20")
    assert len(turn_of(table.record(), 2)["orders"][0]["cells"]) == 3


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("#sonar l20, l20", "l20 appears twice"),
        ("#sonar m1", "off the board"),
        ("#sonar a25", "off the board"),
        ("#sonar l20, k20, j20", "at most 2 charges"),
    ],
)
def test_4_2_bad_shots_are_refused_and_change_nothing(text: str, says: str) -> None:
    table = game(THREE_EACH)
    before = SONAR.codec.encode_state(table.state)
    table.line(f"a public: {text}")
    assert says in table.refusals[0].message
    assert SONAR.codec.encode_state(table.state) == before


@pytest.mark.parametrize("text", ["#sonar", "#sonar fire at will", "#sonar 11f"])
def test_4_2_a_turn_needs_at_least_one_cell(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="such as `f11, a9`"):
        SONAR.rules.parse(text.removeprefix("#sonar").strip() or "")


def test_4_2_only_the_player_to_move_may_fire() -> None:
    table = game(THREE_EACH)
    table.line("b public: #sonar l20")
    assert "it is not your turn: a is to move (turn 1)" in table.refusals[0].message


def test_4_2_shots_may_come_by_dm() -> None:
    table = game(ONE_EACH)
    table.line("a dm: l20")
    assert table.refusals == [] and SONAR.rules.turn(table.state) == 2


def test_4_2_charges_are_counted_as_the_turn_begins_and_every_one_is_fired() -> None:
    table = game(THREE_EACH)
    table.line("a public: #sonar l20, k20")
    # b's 2-sub is on c9 b9 after two moves: b sinks it with two charges, then fires a third.
    table.line("b public: #sonar c9, b9, f20")
    shots = [e for e in events(table, 2) if e["type"] == "shot"]
    assert [(e["cell"], e["result"]) for e in shots] == [
        ("c9", "hit"),
        ("b9", "sunk"),
        ("f20", "miss"),
    ]
    assert table.state.shots_allowed("p1") == 3
    table.line("a public: #sonar l21, k21, j21")
    assert table.refusals == []


def test_4_2_random_fires_exactly_the_allowed_charges_at_distinct_cells_off_own_subs() -> None:
    for seed in range(5):
        table = game(THREE_EACH)
        table.seed = seed
        table.line("a public: #sonar l20, k20")
        table.line("b public: #sonar random")
        order = turn_of(table.record(), 2)["orders"][0]
        assert order["random"] and not order["timeout"]
        assert len(order["cells"]) == len(set(order["cells"])) == 3
        own = {c for sub in player_of(table.record(), "b")["subs"] for c in sub["cells"]}
        assert not own & set(order["cells"])


def test_4_3_a_hit_a_second_hit_and_the_killer_shot() -> None:
    table = game(ONE_EACH)
    table.line("a public: #sonar b5")  # b's bow
    table.line("b public: #sonar l20")
    table.line("a public: #sonar d5")  # the bow again, two steps on: a hit again
    table.line("b public: #sonar l21")
    table.line("a public: #sonar e5")  # the stern: the killer shot
    assert [e["result"] for e in events(table, 1) + events(table, 3)] == ["hit", "hit"]
    assert events(table, 5)[:2] == [
        {"type": "shot", "player": "a", "cell": "e5", "result": "sunk", "owner": "b", "sub": 1},
        {"type": "sunk", "player": "b", "sub": 1, "cells": ["f5", "e5"]},
    ]


def test_4_3_a_miss_shows_the_distance_to_the_nearest_segment_after_earlier_shots() -> None:
    table = game(THREE_EACH)
    table.line("a public: #sonar l20, k20")
    table.line("b public: #sonar c9, b9, d9")  # the third charge no longer finds the 2-sub
    third = events(table, 2)[-1]
    assert third["result"] == "miss"
    assert third["distance"] == nearest(table, "d9") > 1


def test_4_3_a_miss_counts_the_shooters_own_subs() -> None:
    table = game(ONE_EACH)
    table.line("a public: #sonar c1")  # next to a's own bow on b1
    assert events(table, 1) == [
        {"type": "shot", "player": "a", "cell": "c1", "result": "miss", "distance": 1}
    ]


def test_4_3_a_sunk_sub_leaves_the_board() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.play(
        [
            "a public: #sonar b5",
            "b public: #sonar l20",
            "c public: #sonar l21",
            "a public: #sonar d5",  # b's stern: sunk on e5 d5
            "c public: #sonar e5",  # where it sank: nothing there now
        ]
    )
    assert events(table, 4)[1]["cells"] == ["e5", "d5"]
    assert events(table, 5)[0] == {
        "type": "shot",
        "player": "c",
        "cell": "e5",
        "result": "miss",
        "distance": nearest(table, "e5"),
    }


def test_4_4_the_last_player_with_live_subs_wins() -> None:
    table = game(ONE_EACH)
    table.play(["a public: #sonar b5", "b public: #sonar l20", "a public: #sonar c5"])
    assert events(table, 3)[2:] == [
        {"type": "eliminated", "player": "b"},
        {"type": "finished", "winners": ["a"], "draw": False},
    ]
    game_record = table.record()["game"]
    assert (game_record["phase"], game_record["turn"], game_record["to_move"]) == (
        "finished",
        3,
        None,
    )
    assert player_of(table.record(), "b")["status"] == "eliminated"
    assert SONAR.rules.outcome(table.state) is not None and SONAR.rules.timers(table.state) == ()
    table.line("b public: #sonar a1")
    assert "over" in table.refusals[-1].message


def test_4_players_with_no_live_subs_are_skipped() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.play(
        [
            "a public: #sonar b5",
            "b public: #sonar l20",
            "c public: #sonar l21",
            "a public: #sonar d5",
        ]
    )
    assert table.record()["game"]["to_move"] == "c"
    table.line("c public: #sonar l22")
    assert table.record()["game"]["to_move"] == "a"
    table.line("b public: #sonar l23")
    assert "no subs left" in table.refusals[-1].message


def test_4_4_a_draw_between_the_players_whose_last_subs_sank_in_that_turn() -> None:
    table = game(ONE_EACH)
    table.play(
        [
            "a public: #sonar b1",  # a's own bow
            "b public: #sonar l20",
            "b dm: leave",  # waits for a's turn to end
            "a public: #sonar c1",  # a's own stern: a's last sub sinks
        ]
    )
    turn = turn_of(table.record(), 3)
    assert turn["orders"] == [
        {"player": "a", "action": "shoot", "cells": ["c1"], "random": False, "timeout": False},
        {"player": "b", "action": "leave"},
    ]
    assert turn["events"] == [
        {"type": "shot", "player": "a", "cell": "c1", "result": "sunk", "owner": "a", "sub": 1},
        {"type": "sunk", "player": "a", "sub": 1, "cells": ["d1", "c1"]},
        {"type": "eliminated", "player": "a"},
        {"type": "left", "player": "b"},
        {"type": "finished", "winners": ["a"], "draw": True},
    ]


def test_4_decision_a_leave_waits_for_the_turn_in_progress() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.line("c dm: leave")
    assert SONAR.rules.turn(table.state) == 1 and table.state.captains[2].leaving
    assert any(to == "p3" and "when turn 1" in text for to, text in table.notices)
    table.line("c dm: leave")
    assert "already leaves" in table.refusals[-1].message
    table.line("a public: #sonar l20")
    turn = turn_of(table.record(), 1)
    assert turn["orders"][1:] == [{"player": "c", "action": "leave"}]
    assert turn["events"][-1] == {"type": "left", "player": "c"}
    assert player_of(table.record(), "c") == {
        "name": "c",
        "status": "left",
        "subs": [
            {"id": 1, "length": 2, "facing": "ur", "cells": ["b9", "a9"], "hits": [], "sunk": False}
        ],
    }
    assert table.record()["game"]["to_move"] == "b"


def test_4_decision_others_leaving_in_one_turn_are_sorted_by_name() -> None:
    table = game({"a": "2 a1 ur", "zed": "2 a5 ur", "bea": "2 a9 ur", "cy": "2 a13 ur"})
    table.play(["zed dm: leave", "bea dm: leave", "a public: #sonar l20"])
    assert [o["player"] for o in turn_of(table.record(), 1)["orders"]] == ["a", "bea", "zed"]
    assert [e["player"] for e in events(table, 1) if e["type"] == "left"] == ["bea", "zed"]


def test_4_decision_the_player_to_move_leaving_resolves_their_turn_at_once() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.line("a dm: leave")
    assert turn_of(table.record(), 1) == {
        "number": 1,
        "player": "a",
        "orders": [{"player": "a", "action": "leave"}],
        "events": [{"type": "left", "player": "a"}],
    }
    assert player_of(table.record(), "a")["subs"][0]["cells"] == ["b1", "a1"]


def test_4_decision_a_kick_is_a_leave() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur"})
    table.line("@host kick a")
    record = table.record()
    assert turn_of(record, 1)["orders"] == [{"player": "a", "action": "leave"}]
    assert record["game"]["winners"] == ["b"] and record["game"]["draw"] is False


def test_4_decision_a_player_with_no_live_subs_cannot_leave() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.play(["a public: #sonar b5", "b public: #sonar l20", "c public: #sonar l21"])
    table.play(["a public: #sonar d5", "b dm: leave"])
    assert "no live subs" in table.refusals[-1].message


def test_4_decision_a_waiting_leave_lapses_if_the_player_is_sunk_out_first() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.play(["a public: #sonar b5", "b public: #sonar l20", "c public: #sonar l21"])
    table.play(["b dm: leave", "a public: #sonar d5"])
    turn = turn_of(table.record(), 4)
    assert [o["action"] for o in turn["orders"]] == ["shoot"]
    assert player_of(table.record(), "b")["status"] == "eliminated"


def test_4_decision_end_resolves_the_turn_and_draws_between_those_with_live_subs() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur", "c": "2 a9 ur"})
    table.play(["a public: #sonar l20", "c dm: leave", "@host end"])
    record = table.record()
    assert turn_of(record, 2) == {
        "number": 2,
        "player": "b",
        "orders": [{"player": "b", "action": "end"}, {"player": "c", "action": "leave"}],
        "events": [
            {"type": "left", "player": "c"},
            {"type": "finished", "winners": ["a", "b"], "draw": True},
        ],
    }
    assert record["game"]["turn"] == 2
    assert player_of(record, "a")["subs"][0]["cells"] == ["c1", "b1"]  # the subs still moved


def test_4_decision_end_in_setup_is_a_draw_without_turns() -> None:
    table = Table({"ships": "1"})
    table.play(["a dm: join", "b dm: join", "@host end"])
    record = table.record()
    assert record["game"]["phase"] == "finished"
    assert record["game"]["winners"] == ["a", "b"] and record["game"]["draw"] is True
    assert record["turns"] == []


def test_4_decision_a_timed_out_turn_s_successor_begins_at_that_deadline() -> None:
    table = game({"a": "2 a1 ur", "b": "2 a5 ur"}, move_time="8h")
    table.line("@wait 20h")
    assert len(table.record()["turns"]) == 2
    assert table.deadlines == {"turn:3": 24 * 3600.0}


def test_4_an_accepted_turn_resolves_at_once() -> None:
    table = game(ONE_EACH)
    accepted = SONAR.rules.accept(
        table.state, "p1", SONAR.rules.parse("l20"), Channel.PUBLIC, random.Random(0)
    )
    assert accepted.resolve_now and accepted.standing == SONAR.rules.parse("l20")
    assert accepted.state == table.state
    assert accepted.notices[0].to == "p1"


def test_4_resolve_needs_the_movers_shots() -> None:
    table = game(ONE_EACH)
    with pytest.raises(IllegalOrderError, match="no shots"):
        SONAR.rules.resolve(table.state, [], random.Random(0))


def test_4_a_stale_timer_changes_nothing() -> None:
    table = game(ONE_EACH)
    resolution = SONAR.rules.expire(table.state, "turn:7", [], random.Random(0))
    assert resolution.state == table.state and resolution.events == ()
    assert table.state.phase is Phase.BATTLE
