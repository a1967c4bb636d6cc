"""bst behind the game protocol: which orders stand at a turn's close (rules §4), the
timers it declares (§3, §4), its record, its verbs and options as data, and every
sentence the host posts for it, word for word."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from bst_helpers import as_given, join, new, orders_of, pid, place, records, setup, turn

from bot.games.base import (
    Event,
    Given,
    IllegalOrderError,
    Notice,
    OptionError,
    PlayerRef,
    RecordContext,
    Step,
    Timer,
)
from bot.games.bst import BST, BstState, Move, Order, Pass, Place, Rotate, Shoot
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import Direction, ShipKind
from bot.games.bst.options import KNOWN_KEYS, MAX_TURNS
from bot.games.bst.views import Phase

FLEETS = {
    "ahab": "sub: A2\ncarrier: C1-C5",
    "nemo": "cruiser: F1-F3, cruiser: J8-J10",
    "ishmael": "sub: H5, carrier: E6-E10",
}


def battle() -> BstState:
    return setup(FLEETS)


def close(state: BstState, orders: list[Given[Order]]) -> list[dict[str, object]]:
    return records(BST.rules.resolve(state, orders, random.Random(0)))


# ---------------------------------------------------------------- §4 standing orders


def test_4_declaring_again_replaces_the_earlier_action_the_newest_stands() -> None:
    state = battle()
    shot, move = (
        orders_of(state, {"nemo": "B2"})[pid("nemo")],
        orders_of(state, {"nemo": "move cruiser at J8 2 left"})[pid("nemo")],
    )
    resolution = BST.rules.resolve(
        state,
        [Given(pid("nemo"), shot, 10.0, 1), Given(pid("nemo"), move, 20.0, 2)],
        random.Random(0),
    )
    assert records(resolution) == [
        {"type": "moved", "player": pid("nemo"), "ship": "cruiser", "cells": ["J6", "J7", "J8"]}
    ]
    assert resolution.orders == (
        {
            "player": pid("nemo"),
            "action": "move",
            "ship": "cruiser",
            "at": "J8",
            "steps": 2,
            "direction": "left",
        },
    )


def test_4_the_newest_is_the_latest_in_sequence_whatever_the_list_order() -> None:
    state = battle()
    early = Given(pid("ahab"), Shoot(Cell(1, 1)), 10.0, 1)
    late = Given(pid("ahab"), Shoot(Cell(5, 0)), 20.0, 2)
    assert close(state, [late, early]) == close(state, [early, late])
    assert close(state, [early, late])[0]["cell"] == "F1"


def test_4_pass_withdraws_the_action() -> None:
    state = battle()
    resolution = BST.rules.resolve(
        state,
        [
            Given(pid("ahab"), Shoot(Cell(5, 0)), 10.0, 1),
            Given(pid("nemo"), Shoot(Cell(0, 1)), 11.0, 2),
            Given(pid("ahab"), Pass(), 12.0, 3),
        ],
        random.Random(0),
    )
    assert [(r["player"], r["cell"]) for r in records(resolution)[:1]] == [(pid("nemo"), "A2")]
    assert [o["player"] for o in resolution.orders] == [pid("nemo")]  # a pass is no order


def test_4_an_order_after_a_pass_stands_again() -> None:
    state = battle()
    resolution = BST.rules.resolve(
        state,
        [Given(pid("ahab"), Pass(), 10.0, 1), Given(pid("ahab"), Shoot(Cell(5, 0)), 11.0, 2)],
        random.Random(0),
    )
    assert resolution.orders == ({"player": pid("ahab"), "action": "shoot", "cell": "F1"},)


def test_4_the_order_of_a_captain_who_left_after_ordering_does_not_stand() -> None:
    state = battle()
    shot = Given(pid("ishmael"), Shoot(Cell(5, 0)), 10.0, 1)
    state = BST.rules.remove(state, pid("ishmael")).state
    assert state.phase is Phase.BATTLE
    resolution = BST.rules.resolve(state, [shot], random.Random(0))
    assert resolution.events == () and resolution.orders == ()


def test_4_orders_records_are_sorted_by_player_id() -> None:
    state = battle()
    given = as_given(orders_of(state, {"nemo": "A2", "ahab": "F1", "ishmael": "pass"}))
    resolution = BST.rules.resolve(state, given, random.Random(0))
    assert resolution.orders == (
        {"player": pid("ahab"), "action": "shoot", "cell": "F1"},
        {"player": pid("nemo"), "action": "shoot", "cell": "A2"},
    )


def test_4_one_order_each_in_any_arrival_order_gives_the_same_resolution() -> None:
    state = battle()
    orders = orders_of(
        state,
        {"ahab": "rotate carrier at C3", "ishmael": "move carrier at E6 3 left", "nemo": "E3"},
    )
    results = {
        repr(BST.rules.resolve(state, as_given(dict(arrival)), random.Random(0)))
        for arrival in itertools.permutations(orders.items())
    }
    assert len(results) == 1
    assert "collision" in next(iter(results))  # the three orders do meet


def test_4_no_turn_to_resolve_outside_the_battle() -> None:
    with pytest.raises(IllegalOrderError, match="battle is not on"):
        BST.rules.resolve(join(new(), "ahab", "nemo"), [], random.Random(0))


# ---------------------------------------------------------------- §3, §4 timers


def test_3_setup_without_a_deadline_runs_no_timer() -> None:
    state = join(new(), "ahab")
    assert BST.rules.timers(state) == ()
    assert BST.rules.turn(state) == 0


def test_3_the_first_setup_window_is_the_setup_deadline() -> None:
    state = new(setup_deadline="1d", turn="2h")
    assert BST.rules.timers(state) == (Timer("setup:0", 86_400.0, "Setup"),)


def test_3_a_setup_window_without_two_captains_gives_way_to_another_of_a_turn() -> None:
    state = join(new(setup_deadline="1d", turn="2h"), "ahab")
    with pytest.raises(IllegalOrderError, match="at least two captains"):
        BST.rules.start(state, random.Random(0))
    extended = BST.rules.expire(state, "setup:0", (), random.Random(0))
    assert extended.notices == (
        Notice(
            "setup needs at least two captains; it stays open, a turn at a time, until two "
            "have joined. Send `join` to play."
        ),
    )
    assert extended.events == () and extended.changed == frozenset()
    assert extended.state.setup_windows == 1
    assert BST.rules.timers(extended.state) == (Timer("setup:1", 7_200.0, "Setup"),)
    again = BST.rules.expire(extended.state, "setup:1", (), random.Random(0))
    assert BST.rules.timers(again.state) == (Timer("setup:2", 7_200.0, "Setup"),)
    assert BST.rules.turn(again.state) == 0
    # Said once a game: later windows open quietly (before: a post at every deadline).
    assert again.notices == ()
    assert BST.rules.expire(again.state, "setup:2", (), random.Random(0)).notices == ()


def test_3_the_setup_window_count_is_stored_only_once_there_is_one() -> None:
    state = join(new(setup_deadline="1d"), "ahab")
    assert "setup_windows" not in BST.codec.encode_state(state)  # older states decode the same
    extended = BST.rules.expire(state, "setup:0", (), random.Random(0)).state
    encoded = json.loads(json.dumps(BST.codec.encode_state(extended)))
    assert encoded["setup_windows"] == 1
    assert BST.codec.decode_state(encoded) == extended
    started = BST.rules.start(join(extended, "nemo"), random.Random(0)).state
    assert started.setup_windows == 0 and "setup_windows" not in BST.codec.encode_state(started)


def test_4_the_battle_runs_one_timer_a_turn() -> None:
    state = setup({"ahab": FLEETS["ahab"], "nemo": FLEETS["nemo"]}, turn="90m")
    assert BST.rules.timers(state) == (Timer("turn:1", 5_400.0, "Turn 1"),)
    assert BST.rules.turn(state) == 1
    state = turn(state, {}).state
    assert BST.rules.timers(state) == (Timer("turn:2", 5_400.0, "Turn 2"),)
    assert BST.rules.turn(state) == 2


def test_4_a_turn_timer_closes_the_turn_like_resolve() -> None:
    state = battle()
    given = as_given(orders_of(state, {"ahab": "F3", "nemo": "move cruiser at J8 2 left"}))
    assert BST.rules.expire(state, "turn:1", given, random.Random(3)) == BST.rules.resolve(
        state, given, random.Random(3)
    )


def test_4_a_timer_not_running_is_refused() -> None:
    state = battle()
    for key in ("turn:2", "setup:0", "evade:1"):
        with pytest.raises(IllegalOrderError, match="turn:1"):
            BST.rules.expire(state, key, (), random.Random(0))


def test_5_3_a_finished_game_runs_no_timer_and_keeps_its_last_turn() -> None:
    state = setup({"ahab": FLEETS["ahab"], "nemo": FLEETS["nemo"]})
    finished = turn(state, {"ahab": "F1"}).state
    finished = BST.rules.remove(finished, pid("nemo")).state
    assert finished.phase is Phase.FINISHED
    assert BST.rules.timers(finished) == ()
    assert BST.rules.turn(finished) == 2  # the turn in progress when nemo left
    assert BST.rules.timers(BST.rules.finish(join(new(setup_deadline="1h"), "a")).state) == ()


def test_start_names_no_first_captain() -> None:
    state = place(join(new(), "ahab", "nemo"), "ahab", FLEETS["ahab"])
    with pytest.raises(IllegalOrderError, match="no one moves first"):
        BST.rules.start(state, random.Random(0), pid("ahab"))
    assert BST.rules.start(state, random.Random(0), None).state.phase is Phase.BATTLE


def test_every_captain_is_their_own_crew() -> None:
    assert BST.rules.crew(battle(), pid("nemo")) == (pid("nemo"),)


# ---------------------------------------------------------------- the record


def test_record_from_a_hand_made_history() -> None:
    state = setup({"ahab": FLEETS["ahab"], "nemo": FLEETS["nemo"]}, turn="8h")
    first = turn(state, {"ahab": "F3", "nemo": "move cruiser at J8 2 left"})
    second = turn(first.state, {"nemo": "A2", "ahab": "rotate carrier at C3"})
    history = [
        Step(0, (), ()),
        Step(1, first.orders, tuple(e.record() for e in first.events)),
        Step(2, second.orders, tuple(e.record() for e in second.events)),
    ]
    names = {pid("ahab"): "Ahab", pid("nemo"): "Nemo"}
    record = BST.codec.record(second.state, history, RecordContext(7, names, "battle", {}))
    assert record == {
        "format": "bst-record/1",
        "game": {
            "id": 7,
            "kind": "bst",
            "rows": 10,
            "cols": 10,
            "options": {
                "turn": "8h",
                "shots": "after_moves",
                "placement_conflicts": "first_come",
                "loadouts": "both",
                "max_turns": "none",
                "setup_deadline": "none",
                "late_join": "off",
            },
            "phase": "battle",
            "turn": 3,
            "winners": [],
            "draw": False,
        },
        "players": [
            {
                "name": "Ahab",
                "status": "alive",
                "ships": [
                    {
                        "kind": "carrier",
                        "cells": ["A3", "B3", "C3", "D3", "E3"],
                        "damaged": [],
                        "destroyed": False,
                    },
                    {"kind": "submarine", "cells": ["A2"], "damaged": ["A2"], "destroyed": True},
                ],
            },
            {
                "name": "Nemo",
                "status": "alive",
                "ships": [
                    {
                        "kind": "cruiser",
                        "cells": ["F1", "F2", "F3"],
                        "damaged": ["F3"],
                        "destroyed": False,
                    },
                    {
                        "kind": "cruiser",
                        "cells": ["J6", "J7", "J8"],
                        "damaged": [],
                        "destroyed": False,
                    },
                ],
            },
        ],
        "turns": [
            {
                "number": 1,
                "orders": [
                    {"player": "Ahab", "action": "shoot", "cell": "F3"},
                    {
                        "player": "Nemo",
                        "action": "move",
                        "ship": "cruiser",
                        "at": "J8",
                        "steps": 2,
                        "direction": "left",
                    },
                ],
                "events": [
                    {
                        "type": "moved",
                        "player": "Nemo",
                        "ship": "cruiser",
                        "cells": ["J6", "J7", "J8"],
                    },
                    {"type": "shot", "player": "Ahab", "cell": "F3", "result": "hit"},
                ],
            },
            {
                "number": 2,
                "orders": [
                    {"player": "Ahab", "action": "rotate", "ship": "carrier", "at": "C3"},
                    {"player": "Nemo", "action": "shoot", "cell": "A2"},
                ],
                "events": [
                    {
                        "type": "rotated",
                        "player": "Ahab",
                        "ship": "carrier",
                        "cells": ["A3", "B3", "C3", "D3", "E3"],
                    },
                    {"type": "shot", "player": "Nemo", "cell": "A2", "result": "hit"},
                    {"type": "destroyed", "player": "Ahab", "ship": "submarine", "cells": ["A2"]},
                ],
            },
        ],
    }


def test_record_orders_sorted_by_name_not_by_id() -> None:
    history = [
        Step(
            1,
            (
                {"player": "p1", "action": "shoot", "cell": "A1"},
                {"player": "p2", "action": "pass"},
            ),
            ({"type": "finished", "winners": ["p2", "p1"], "draw": True},),
        )
    ]
    names = {"p1": "zed", "p2": "amy"}
    record = BST.codec.record(battle(), history, RecordContext(1, names, "finished", {}))
    (only,) = record["turns"]
    assert [o["player"] for o in only["orders"]] == ["amy", "zed"]
    assert list(only["orders"][0]) == ["player", "action"]
    assert only["events"] == [{"type": "finished", "winners": ["amy", "zed"], "draw": True}]
    assert record["game"]["turn"] == 1  # finished: the last turn resolved


def test_record_of_a_game_finished_in_setup_and_of_one_in_setup() -> None:
    state = join(new(size="8x12"), "ahab")
    names = {pid("ahab"): "ahab"}
    open_game = BST.codec.record(state, [], RecordContext(3, names, "setup", {}))
    assert (open_game["game"]["turn"], open_game["turns"]) == (0, [])
    assert (open_game["game"]["rows"], open_game["game"]["cols"]) == (8, 12)
    assert open_game["players"] == [{"name": "ahab", "status": "alive", "ships": []}]
    ended = BST.rules.finish(state).state
    record = BST.codec.record(ended, [Step(0, (), ())], RecordContext(3, names, "finished", {}))
    assert record["game"]["turn"] == 0
    assert (record["game"]["winners"], record["game"]["draw"]) == (["ahab"], True)


def test_record_steps_of_one_turn_share_its_entry() -> None:
    history = [
        Step(2, (), ({"type": "destroyed", "player": "p1", "ship": "submarine", "cells": ["A1"]},)),
        Step(2, ({"player": "p2", "action": "shoot", "cell": "B2"},), ()),
    ]
    record = BST.codec.record(
        battle(), history, RecordContext(1, {"p1": "a", "p2": "b"}, "battle", {})
    )
    assert [t["number"] for t in record["turns"]] == [2]
    assert record["turns"][0]["orders"] == [{"player": "b", "action": "shoot", "cell": "B2"}]
    assert record["turns"][0]["events"][0]["player"] == "a"


# ---------------------------------------------------------------- verbs and options


@pytest.mark.parametrize(
    ("verb", "values", "typed", "order"),
    [
        (
            "place",
            ["sub: A2, carrier: C1-C5"],
            "sub: A2, carrier: C1-C5",
            Place(
                (
                    (ShipKind.SUBMARINE, (Cell(0, 1),)),
                    (ShipKind.CARRIER, tuple(Cell(2, c) for c in range(5))),
                )
            ),
        ),
        ("place", ["random"], "random", Place(None)),
        ("shoot", ["H14"], "H14", Shoot(Cell(7, 13))),
        (
            "move",
            ["cruiser", "G7", "3", "up"],
            "move cruiser G7 3 up",
            Move(ShipKind.CRUISER, Cell(6, 6), 3, Direction.UP),
        ),
        (
            "move",
            ["submarine", "A2", "1", "left"],
            "move submarine A2 1 left",
            Move(ShipKind.SUBMARINE, Cell(0, 1), 1, Direction.LEFT),
        ),
        ("rotate", ["carrier", "E8"], "rotate carrier E8", Rotate(ShipKind.CARRIER, Cell(4, 7))),
        ("pass", [], "pass", Pass()),
    ],
)
def test_7_every_verb_types_text_the_parser_reads(
    verb: str, values: list[str], typed: str, order: Order
) -> None:
    (found,) = [v for v in BST.verbs if v.name == verb]
    assert len(values) == len(found.args)
    assert found.text(values) == typed
    assert BST.rules.parse(found.text(values)) == order


def test_7_every_choice_of_every_verb_parses() -> None:
    verbs = {verb.name: verb for verb in BST.verbs}
    for ship, steps, direction in itertools.product(
        verbs["move"].args[0].choices, ("1", "5"), verbs["move"].args[3].choices
    ):
        order = BST.rules.parse(verbs["move"].text([ship, "C3", steps, direction]))
        assert order == Move(ShipKind(ship), Cell(2, 2), int(steps), Direction(direction))
    for ship in verbs["rotate"].args[0].choices:
        assert BST.rules.parse(verbs["rotate"].text([ship, "C3"])) == Rotate(
            ShipKind(ship), Cell(2, 2)
        )


def test_7_verbs_say_where_they_are_sent() -> None:
    assert {v.name: v.private for v in BST.verbs} == {
        "place": True,
        "shoot": False,
        "move": True,
        "rotate": True,
        "pass": True,
    }


def test_option_args_are_the_options_of_new_and_their_choices_are_accepted() -> None:
    assert [arg.name for arg in BST.option_args] == list(KNOWN_KEYS)
    assert all(not arg.required for arg in BST.option_args)
    for arg in BST.option_args:
        for choice in arg.choices:
            assert BST.rules.options(BST.rules.new_game({arg.name: choice}))[arg.name] == choice
    (max_turns,) = [arg for arg in BST.option_args if arg.name == "max_turns"]
    assert (max_turns.minimum, max_turns.maximum) == (1, MAX_TURNS)
    with pytest.raises(OptionError):
        BST.rules.new_game({"late_join": "sometimes"})


# ---------------------------------------------------------------- words, as the host posts them


def test_words_of_the_post_that_opens_a_game() -> None:
    state = new("10x12", turn="90m", max_turns="20", late_join="on")
    assert f"#bst game 12 {BST.words.opening(state)}" == (
        "#bst game 12 is open on a board of 10×12 (turn 1h30m, shots after_moves, "
        "placement_conflicts first_come, loadouts both, max_turns 20, late_join on). "
        "Captains: send `join` here, then your fleet by DM, e.g. "
        "`sub: A2, carrier: C1-C5` or `random`. The host starts the battle with `start`."
    )


def test_words_of_a_welcome_in_setup_count_the_captains_in() -> None:
    state = join(new(), "ahab")
    assert BST.words.welcome(state, pid("ahab"), 1) == (
        "ahab joined game 1 (1 captain). Send your fleet to me by DM, e.g. "
        "`sub: A2, carrier: C1-C5`, `cruiser: B2-B4, cruiser: E5-G5`, or `random`."
    )
    state = BST.rules.remove(join(state, "nemo", "drake"), pid("ahab")).state
    assert BST.words.welcome(state, pid("drake"), 1).startswith(
        "drake joined game 1 (2 captains). "
    )


def test_words_of_a_late_welcome() -> None:
    state = join(setup({"ahab": "", "nemo": ""}, late_join="on"), "ishmael")
    assert BST.words.welcome(state, pid("ishmael"), 4) == (
        "ishmael joined game 4: placed at random when turn 1 closes."
    )


def test_words_of_the_post_that_starts_the_battle() -> None:
    state = join(new(), "ahab", "drake", "nemo")
    state = BST.rules.remove(state, pid("drake")).state
    started = BST.rules.start(state, random.Random(0)).state
    names = {pid("ahab"): "ahab", pid("drake"): "drake", pid("nemo"): "nemo"}
    assert BST.words.beginning(started, names) == "the battle begins! 2 captains: ahab, nemo."
    assert BST.words.hint(started) == "Shoot in public (`#bst H14`); move or rotate by DM."


def test_words_of_a_turn_post_and_a_board() -> None:
    assert BST.words.report_title(3) == "turn 3"
    assert BST.words.quiet_report() == "No shots this turn."
    assert BST.words.board_heading("#bst game 1", 3) == "#bst game 1, turn 3:"
    assert (
        BST.words.board_heading("#bst game 1", 0) == "#bst game 1: your fleet as the battle begins."
    )


def test_words_of_results() -> None:
    names = {pid("a"): "amy", pid("b"): "bob"}
    state = setup({"a": "", "b": ""})
    assert BST.words.result(state, names) == ""
    won = BST.rules.remove(state, pid("b")).state
    assert BST.words.result(won, names) == "amy wins the battle!"
    drawn = BST.rules.finish(state).state
    assert BST.words.result(drawn, names) == "The battle ends in a draw between amy, bob."
    nobody = BST.rules.finish(
        BST.rules.remove(BST.rules.remove(join(new(), "a", "b"), pid("a")).state, pid("b")).state
    )
    assert BST.words.result(nobody.state, names) == "The battle ends in a draw."


def test_words_of_a_reminder_a_replay_and_an_example() -> None:
    state = turn(turn(battle(), {}).state, {}).state
    assert BST.words.reminder(state, "2 h") == (
        "turn 3 closes in 2 h and you have no order yet (shoot in public, move or rotate by DM)."
    )
    assert BST.words.replay_caption() == "the replay of the whole battle."
    assert BST.words.example() == "`#bst H14` or `move cruiser at G7 3 up`"
    assert [BST.words.player_word(n) for n in (0, 1, 2)] == ["captains", "captain", "captains"]
    assert (BST.title, BST.tag, BST.simultaneous) == ("BattleshipTwitter", "#bst", True)


@pytest.mark.parametrize(
    ("standing", "replaced", "reply"),
    [
        (Shoot(Cell(7, 13)), None, "Turn 4: shoot H14"),
        (Pass(), None, "Turn 4: no action (pass)"),
        (
            Shoot(Cell(7, 13)),
            Move(ShipKind.CRUISER, Cell(6, 6), 3, Direction.UP),
            "Turn 4: shoot H14 (replaces: move cruiser at G7 3 up)",
        ),
        (Pass(), Shoot(Cell(0, 0)), "Turn 4: no action (pass) (replaces: shoot A1)"),
        (
            Rotate(ShipKind.CARRIER, Cell(4, 7)),
            Pass(),
            "Turn 4: rotate carrier at E8 (replaces: pass)",
        ),
    ],
)
def test_4_every_order_is_acknowledged_with_what_now_stands(
    standing: Order, replaced: Order | None, reply: str
) -> None:
    assert BST.words.acknowledge(4, standing, replaced) == reply


def test_a_public_report_names_captains_from_the_hosts_names() -> None:
    events = [Event("shot", {"player": "p1", "cell": "A1", "result": "miss"})]
    assert BST.words.public_report(events, {"p1": "amy"}) == ["Shots: amy miss A1."]


def test_join_refusals_name_what_to_do() -> None:
    state = battle()
    with pytest.raises(IllegalOrderError, match="joining is closed"):
        BST.rules.join(state, PlayerRef("id-new", "new"))
