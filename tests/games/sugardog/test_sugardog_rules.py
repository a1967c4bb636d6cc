"""Sugar Dog's rules, section by section (shared/rules/sugardog.md), played through the
game object with the script driver of sugardog_helpers."""

from __future__ import annotations

import random

import pytest
from sugardog_helpers import captain, contact, play, seen, setup_game

from bot.games.base import Channel, IllegalOrderError, OptionError, OrderSyntaxError, PlayerRef
from bot.games.sugardog import SUGARDOG, SilentRunning, StartingCell
from bot.games.sugardog.board import Cell, board_size, column_label, parse_cell

# ----------------------------------------------------------------------------- §1


@pytest.mark.parametrize(("players", "size"), [(1, 6), (2, 6), (3, 8), (4, 10), (11, 24)])
def test_1_board_is_6_for_two_and_grows_by_2_for_each_further_player(
    players: int, size: int
) -> None:
    assert board_size(players) == size
    state = SUGARDOG.rules.new_game({})
    for n in range(players):
        state = SUGARDOG.rules.join(state, PlayerRef(f"p{n}", f"c{n}"))
    assert SUGARDOG.views.view(state, None).size == size


def test_1_columns_are_letters_from_the_left_rows_numbers_from_the_bottom() -> None:
    assert parse_cell("C4") == Cell(column=2, row=3)
    assert parse_cell("c4") == parse_cell("C 4") == parse_cell("c-4") == Cell(2, 3)
    assert str(Cell(2, 3)) == "C4"
    assert [column_label(c) for c in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
    assert parse_cell("ab12") == Cell(27, 11)


def test_1_cells_are_ordered_by_column_then_row_number() -> None:
    cells = [parse_cell(t) for t in ("B1", "A10", "A2", "A1")]
    assert [str(c) for c in sorted(cells)] == ["A1", "A2", "A10", "B1"]


def test_1_two_submarines_may_start_in_the_same_cell() -> None:
    table = setup_game({"ahab": "B2", "nemo": "B2"})
    assert table.record()["start"]["cells"] == {"ahab": "B2", "nemo": "B2"}
    table.line("ahab dm: ping")
    (ping,) = table.events(1)
    assert ping["report"] == [
        seen("ahab", "submarine", "B2", 0),
        seen("nemo", "submarine", "B2", 0),
    ]
    assert [p["status"] for p in table.record()["players"]] == ["alive", "alive"]


def test_1_a_starting_cell_must_lie_on_the_board_of_the_players_joined_so_far() -> None:
    table = play("@game sugardog\na dm: join\nb dm: join\na dm: G7")
    (refusal,) = table.refusals
    assert refusal.message.startswith("G7 is off the 6×6 board")
    table.line("c dm: join")
    table.line("a dm: G7")
    assert captain(table, "a")["cell"] == "G7"
    assert table.record()["game"]["rows"] == 8


def test_1_the_starting_cell_is_secret_and_the_latest_one_stands() -> None:
    table = play("@game sugardog\na dm: join\nb dm: join\na dm: C3\na public: #sugardog D4")
    (refusal,) = table.refusals
    assert refusal.kind == "WrongChannelError"
    assert "D4" not in refusal.message and "by DM" in refusal.message
    table.line("a dm: start e5")
    assert captain(table, "a")["cell"] == "E5"
    assert table.dms("a")[-1].startswith("Your submarine will start at E5")


def test_1_a_starting_cell_from_someone_who_has_not_joined_is_refused() -> None:
    state = SUGARDOG.rules.new_game({})
    with pytest.raises(IllegalOrderError, match="not in this game"):
        SUGARDOG.rules.accept(
            state, "p9", StartingCell(Cell(0, 0)), Channel.PRIVATE, random.Random(0)
        )


def test_1_a_player_without_a_starting_cell_gets_a_random_one_told_privately() -> None:
    table = setup_game({"ahab": "B2", "nemo": ""}, options="seed=3")
    start = table.record()["start"]
    assert start["random"] == ["nemo"]
    cell = start["cells"]["nemo"]
    assert parse_cell(cell).on_board(6)
    assert any(cell in dm and "random" in dm for dm in table.dms("nemo"))
    assert not any(cell in text for text in table.public())
    again = setup_game({"ahab": "B2", "nemo": ""}, options="seed=3")
    assert again.record()["start"] == start


def test_1_a_cell_left_off_the_board_by_a_leave_is_drawn_again() -> None:
    table = play(
        "@game sugardog\na dm: join\nb dm: join\nc dm: join\na dm: H8\nb dm: A1\nc dm: leave\n@start"
    )
    start = table.record()["start"]
    assert start["random"] == ["a"] and parse_cell(start["cells"]["a"]).on_board(6)
    assert [p["status"] for p in table.record()["players"]] == ["alive", "alive", "left"]
    assert start["order"] == ["a", "b"]


def test_1_turn_order_is_join_order_rotated_to_the_named_first_player() -> None:
    cells = {"a": "A1", "b": "A2", "c": "A3", "d": "A4"}
    assert setup_game(cells, first="c").record()["start"]["order"] == ["c", "d", "a", "b"]
    assert setup_game(cells).record()["start"]["order"] == ["a", "b", "c", "d"]


def test_1_start_needs_two_players_and_a_named_first_player_who_joined() -> None:
    table = play("@game sugardog\na dm: join\n@start")
    assert "at least two" in table.refusals[0].message
    table.line("b dm: join")
    table.line("@start zed")
    assert "has not joined" in table.refusals[1].message
    assert table.record()["game"]["phase"] == "setup"
    table.line("@start b")
    assert table.record()["game"]["current"] == "b"


def test_1_joining_is_closed_once_the_game_has_started() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    table.line("c dm: join")
    assert "joining is closed" in table.refusals[-1].message


def test_1_destroyed_players_are_skipped_in_the_turn_order() -> None:
    table = setup_game({"a": "B2", "b": "B4", "c": "F6"})
    table.line("a dm: cruise up up")  # into b (not silent): both destroyed
    assert [e["type"] for e in table.events(1)][2:] == [
        "impact",
        "eliminated",
        "eliminated",
        "finished",
    ]
    assert table.record()["game"]["phase"] == "finished"  # only c afloat
    table = setup_game({"a": "B2", "b": "E5", "c": "F6", "d": "A6"})
    table.line("a dm: torpedo right")  # C2, D2: nothing
    table.line("b dm: torpedo right")  # F5, then off next turn
    table.line("c dm: cruise left down")  # E6, E5: into b: both destroyed
    assert table.record()["game"]["current"] == "d"
    table.line("d dm: silent")
    assert table.record()["game"]["current"] == "a"
    table.line("a dm: silent")
    assert table.record()["game"]["current"] == "d"


def test_1_a_timeout_is_a_silent_stay_and_the_next_clock_starts_at_the_deadline() -> None:
    table = setup_game({"a": "B2", "b": "E5"}, options="move_time=1h")
    table.line("@wait 30m")
    table.line("a dm: silent up")  # at 30m: b's clock runs to 1h30m
    table.line("@wait 1h")  # to 1h30m: b times out; a's runs to 2h30m
    assert table.turn(2)["orders"] == [
        {"player": "b", "action": "silent", "direction": None, "timeout": True}
    ]
    assert table.step_times[-1] == 5400
    assert captain(table, "b")["silent"] is True
    assert table.deadlines == {"move:3": 9000}


# ----------------------------------------------------------------------------- §2


def test_2_silent_running_stays_or_moves_one_cell_and_only_its_name_is_public() -> None:
    table = setup_game({"a": "B2", "b": "E5"})
    table.line("a dm: silent up")
    assert table.events(1) == [{"type": "silent", "player": "a", "cell": "B3"}]
    assert "B3" not in table.public()[-1] and "silent running" in table.public()[-1]
    assert table.dms("a")[-1] == "You run silent at B3."
    table.line("b dm: silent")
    assert table.events(2) == [{"type": "silent", "player": "b", "cell": "E5"}]


@pytest.mark.parametrize("order", ["silent left", "cruise up left", "cruise down down"])
def test_2_a_silent_move_or_a_cruise_step_off_the_board_is_refused(order: str) -> None:
    table = setup_game({"a": "A1", "b": "E5"})
    table.line(f"a dm: {order}")
    (refusal,) = table.refusals
    assert refusal.message == "that leaves the board: you are at A1"
    assert table.record()["game"]["turn"] == 1


def test_2_a_cruise_moves_exactly_two_cells_and_may_turn_or_double_back() -> None:
    table = setup_game({"a": "B2", "b": "F6"})
    table.line("a dm: cruise up right")
    assert table.events(1) == [contact("a", "B3"), contact("a", "C3")]
    table.line("b dm: silent")
    table.line("a dm: cruise down up")
    assert table.events(3) == [contact("a", "C2"), contact("a", "C3")]
    assert captain(table, "a")["cell"] == "C3"


@pytest.mark.parametrize("text", ["cruise up", "cruise up up up", "cruise"])
def test_2_a_cruise_of_other_than_two_steps_is_refused(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="exactly two steps"):
        SUGARDOG.rules.parse(text)


def test_2_a_torpedo_needs_a_direction() -> None:
    with pytest.raises(OrderSyntaxError, match="direction"):
        SUGARDOG.rules.parse("torpedo")


def test_2_a_torpedo_fired_toward_the_edge_is_not_refused_but_lost() -> None:
    table = setup_game({"a": "A1", "b": "E5"})
    table.line("a dm: torpedo left")
    assert table.events(1) == [
        {"type": "launched", "player": "a", "torpedo": 1, "cell": "A1", "direction": "left"},
        {"type": "lost", "player": "a", "torpedo": 1},
    ]
    assert "Contact" not in table.public()[-1] and "lost" not in table.public()[-1]
    assert table.dms("a")[-1].endswith("Your torpedo 1 left the board: it is lost.")


def test_2_torpedoes_are_unlimited_and_numbered_per_player() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    for _ in range(4):
        table.line("a dm: torpedo left")
        table.line("b dm: silent")
    launched = [
        e["torpedo"]
        for t in table.record()["turns"]
        for e in t["events"]
        if e["type"] == "launched"
    ]
    assert launched == [1, 2, 3, 4]


def test_2_three_mines_per_submarine_and_several_may_lie_in_one_cell() -> None:
    table = setup_game({"a": "B2", "b": "F6"})
    for _ in range(3):
        table.line("a dm: mine")
        table.line("b dm: silent")
    assert captain(table, "a")["mines"] == ["B2", "B2", "B2"]
    assert captain(table, "a")["mines_left"] == 0
    table.line("a dm: mine")
    assert "no mines left" in table.refusals[-1].message
    assert table.record()["game"]["turn"] == 7


def test_2_orders_are_private_and_a_public_one_is_refused_without_echo() -> None:
    table = setup_game({"a": "B2", "b": "F6"})
    table.line("a public: #sugardog torpedo right")
    (refusal,) = table.refusals
    assert refusal.kind == "WrongChannelError"
    assert refusal.message.startswith("orders are private")
    assert "right" not in refusal.message
    assert table.record()["turns"] == []


def test_2_only_the_player_to_move_orders() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"}, first="nemo")
    table.line("ahab dm: ping")
    assert table.refusals[-1].message.startswith("it is nemo's turn")
    table.line("zed dm: ping")
    assert "not in this game" in table.refusals[-1].message


def test_2_the_log_shows_own_orders_and_what_was_learned_and_is_not_an_action() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"}, first="nemo")
    table.line("nemo dm: mine")
    table.line("ahab dm: torpedo right")
    table.line("nemo dm: silent left")
    before = SUGARDOG.codec.encode_state(table.game_state())
    order = SUGARDOG.rules.parse("log")
    accepted = SUGARDOG.rules.accept(
        table.game_state(), "p2", order, Channel.PUBLIC, random.Random(0)
    )
    assert accepted.standing is None and not accepted.resolve_now and not accepted.events
    assert SUGARDOG.codec.encode_state(accepted.state) == before
    (notice,) = accepted.notices
    assert notice.to == "p2"
    lines = notice.text.splitlines()
    assert lines[0] == "Your log, nemo (starting cell E5):"
    assert lines[1].startswith("Turn 1, you: mine → E5, 2 mines left.")
    assert "Contact at C2: ahab's torpedo 1" in lines[2] and "B2" not in lines[2]
    assert lines[3].startswith("Turn 3, you: silent left → D5, 2 mines left.")
    ahab_log = SUGARDOG.rules.accept(
        table.game_state(), "p1", order, Channel.PRIVATE, random.Random(0)
    )
    assert "D5" not in ahab_log.notices[0].text and "E5" not in ahab_log.notices[0].text
    assert "fired from B2 heading right" in ahab_log.notices[0].text


def test_2_a_destroyed_captain_and_a_finished_game_refuse_orders() -> None:
    table = setup_game({"a": "B2", "b": "B4", "c": "F6"})
    table.line("a dm: silent")
    table.line("b dm: silent")
    table.line("c dm: torpedo left")  # E6, D6
    table.line("a dm: cruise up up")  # into b, silent: passes it; B4
    assert [e["type"] for e in table.events(4)] == ["contact", "contact"]
    table.line("b dm: cruise left right")  # A4, B4: a is there, not silent: both out
    assert table.record()["game"]["winners"] == ["c"]
    table.line("c dm: ping")
    assert "over" in table.refusals[-1].message


# ----------------------------------------------------------------------------- §3


def test_3_a_cruiser_entering_a_cell_with_a_submarine_that_is_not_silent_destroys_both() -> None:
    table = setup_game({"a": "B2", "b": "B4", "c": "F6", "d": "A6"})
    table.line("a dm: cruise up up")
    assert table.events(1) == [
        contact("a", "B3"),
        contact("a", "B4"),
        {
            "type": "impact",
            "cell": "B4",
            "player": "a",
            "unit": "submarine",
            "destroyed": [
                {"player": "a", "unit": "submarine"},
                {"player": "b", "unit": "submarine"},
            ],
        },
        {"type": "eliminated", "player": "a"},
        {"type": "eliminated", "player": "b"},
    ]
    assert captain(table, "a")["cell"] == "B4" and captain(table, "a")["status"] == "eliminated"
    assert table.record()["game"]["current"] == "c"


def test_3_a_cruiser_passes_a_silent_submarine() -> None:
    table = setup_game({"a": "B2", "b": "B3", "c": "F6"}, first="b")
    table.line("b dm: silent")
    table.line("c dm: silent")
    table.line("a dm: cruise up up")
    assert table.events(3) == [contact("a", "B3"), contact("a", "B4")]


def test_3_silence_lasts_until_the_submarines_own_next_action() -> None:
    table = setup_game({"a": "B2", "b": "B3", "c": "F6"}, first="b")
    table.line("b dm: silent")
    table.line("c dm: silent")
    table.line("a dm: silent")
    table.line("b dm: ping")  # no longer silent
    assert captain(table, "b")["silent"] is False
    table.line("c dm: silent")
    table.line("a dm: cruise up right")
    assert [e["type"] for e in table.events(6)] == [
        "contact",
        "impact",
        "eliminated",
        "eliminated",
        "finished",
    ]


def test_3_no_submarine_is_silent_at_the_start() -> None:
    table = setup_game({"a": "B2", "b": "B3", "c": "F6"})
    assert not any(p["silent"] for p in table.record()["players"])
    table.line("a dm: cruise up up")
    assert table.events(1)[1]["type"] == "impact"


def test_3_a_cruiser_entering_a_mine_is_destroyed_with_it() -> None:
    table = setup_game({"a": "B2", "b": "C3", "c": "F6"}, first="b")
    table.line("b dm: mine")
    table.line("c dm: silent")
    table.line("a dm: cruise right up")  # C2, C3: b's mine and b (not silent)
    impact = table.events(3)[2]
    assert impact["destroyed"] == [
        {"player": "a", "unit": "submarine"},
        {"player": "b", "unit": "submarine"},
        {"player": "b", "unit": "mine"},
    ]
    assert captain(table, "b")["mines"] == []


def test_3_everything_in_the_cell_is_destroyed_silent_submarines_included() -> None:
    table = setup_game({"a": "B2", "b": "C3", "c": "F6", "d": "A6"}, first="b")
    table.line("b dm: mine")
    table.line("c dm: silent")
    table.line("d dm: silent")
    table.line("a dm: silent")
    table.line("b dm: silent")  # b is silent, sitting on its mine
    table.line("c dm: silent")
    table.line("d dm: silent")
    table.line("a dm: cruise right up")  # the mine sets it off; b goes down too
    impact = table.events(8)[2]
    assert [u["player"] for u in impact["destroyed"]] == ["a", "b", "b"]
    assert captain(table, "b")["status"] == "eliminated"


def test_3_a_silent_move_never_collides_and_never_triggers_a_mine() -> None:
    table = setup_game({"a": "B2", "b": "C3", "c": "F6"}, first="b")
    table.line("b dm: mine")
    table.line("c dm: silent")
    table.line("a dm: silent right")  # C2
    table.line("b dm: silent down")  # C2, with a: nothing happens
    table.line("c dm: silent")
    table.line("a dm: silent up")  # C3: b's mine ignores a silent submarine
    assert [e["type"] for t in table.record()["turns"] for e in t["events"]] == ["mine"] + [
        "silent"
    ] * 5
    assert captain(table, "a")["cell"] == "C3" and captain(table, "b")["cell"] == "C2"


def test_3_a_mine_never_hits_its_layer_as_it_is_laid_but_does_afterwards() -> None:
    table = setup_game({"a": "B2", "b": "F6", "c": "F1"})
    table.line("a dm: mine")
    assert captain(table, "a")["status"] == "alive"
    table.line("b dm: silent")
    table.line("c dm: silent")
    table.line("a dm: cruise up down")  # back into its own mine
    assert table.events(4)[2]["destroyed"] == [
        {"player": "a", "unit": "submarine"},
        {"player": "a", "unit": "mine"},
    ]


def test_3_a_cruiser_entering_a_torpedo_is_destroyed_with_it() -> None:
    table = setup_game({"a": "A4", "b": "C2", "c": "F6"})
    table.line("a dm: torpedo right")  # B4, C4
    table.line("b dm: cruise up up")  # C3, C4: the torpedo is there
    assert table.events(2)[2] == {
        "type": "impact",
        "cell": "C4",
        "player": "b",
        "unit": "submarine",
        "destroyed": [
            {"player": "a", "unit": "torpedo", "torpedo": 1},
            {"player": "b", "unit": "submarine"},
        ],
    }
    assert captain(table, "a")["torpedoes"] == []
    table = setup_game({"a": "A4", "b": "D2", "c": "F6"})
    table.line("a dm: torpedo right")  # B4, C4
    table.line("b dm: cruise up left")  # D3, C3
    table.line("c dm: silent")
    table.line("a dm: silent")  # torpedo D4, E4
    table.line("b dm: cruise up right")  # C4, D4: the torpedo moved on, nothing there
    assert [e["type"] for e in table.events(5)] == ["contact", "contact"]


def test_3_a_torpedo_hits_a_silent_submarine_a_mine_and_another_torpedo() -> None:
    table = setup_game({"a": "A4", "b": "C4", "c": "F6"}, first="b")
    table.line("b dm: silent")
    table.line("c dm: silent")
    table.line("a dm: torpedo right")  # B4, C4: b is silent but a torpedo hits it
    assert table.events(3)[2:4] == [
        contact("a", "C4", torpedo=1),
        {
            "type": "impact",
            "cell": "C4",
            "player": "a",
            "unit": "torpedo",
            "torpedo": 1,
            "destroyed": [
                {"player": "a", "unit": "torpedo", "torpedo": 1},
                {"player": "b", "unit": "submarine"},
            ],
        },
    ]
    table = setup_game({"a": "A4", "b": "C4", "c": "F6"}, first="b")
    table.line("b dm: mine")
    table.line("c dm: silent")
    table.line("a dm: torpedo right")
    assert [u["unit"] for u in table.events(3)[3]["destroyed"]] == ["torpedo", "submarine", "mine"]
    table = setup_game({"a": "A3", "b": "C1", "c": "F6"})
    table.line("a dm: torpedo right")  # B3, C3
    table.line("b dm: torpedo up")  # C2, C3: a's torpedo is there
    assert table.events(2)[3]["destroyed"] == [
        {"player": "a", "unit": "torpedo", "torpedo": 1},
        {"player": "b", "unit": "torpedo", "torpedo": 1},
    ]


def test_3_contacts_name_their_owner_and_unit_and_private_facts_stay_private() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"})
    table.line("ahab dm: torpedo right")
    post = table.public()[-1]
    assert "Contact at C2: ahab's torpedo 1." in post and "Contact at D2: ahab's torpedo 1." in post
    assert "B2" not in post and "right" not in post
    table.line("nemo dm: mine")
    assert "E5" not in table.public()[-1]


# ----------------------------------------------------------------------------- §4


def test_4_a_ping_lists_the_pinger_then_own_units_then_everyone_nearest_first() -> None:
    table = setup_game({"a": "C3", "b": "C5", "c": "E3", "d": "A3"}, first="b")
    table.line("b dm: mine")  # b mine C5
    table.line("c dm: torpedo down")  # E2, E1
    table.line("d dm: mine")  # d mine A3
    table.line("a dm: mine")  # a mine C3
    table.line("b dm: silent")
    table.line("c dm: silent")  # c's torpedo leaves the board
    table.line("d dm: silent")
    table.line("a dm: ping")
    (ping,) = table.events(8)
    assert ping["report"] == [
        seen("a", "submarine", "C3", 0),
        seen("a", "mine", "C3", 0),
        # distance 2 from C3: A3 (d's sub and mine), C5 (b's sub and mine), E3 (c's sub):
        # cell order first, then units by player name, submarine before mine
        seen("d", "submarine", "A3", 2),
        seen("d", "mine", "A3", 2),
        seen("b", "submarine", "C5", 2),
        seen("b", "mine", "C5", 2),
        seen("c", "submarine", "E3", 2),
    ]


def test_4_a_destroyed_players_mines_and_torpedoes_are_still_listed() -> None:
    table = setup_game({"a": "B2", "b": "B4", "c": "F6", "d": "H8"}, first="b")
    table.line("b dm: mine")  # B4
    table.line("c dm: silent")
    table.line("d dm: silent")
    table.line("a dm: torpedo right")  # C2, D2
    table.line("b dm: cruise down down")  # B3, B2: into a (not silent): both out
    table.line("c dm: ping")
    (ping,) = table.events(6)
    assert ping["report"] == [
        seen("c", "submarine", "F6", 0),
        seen("d", "submarine", "H8", 4),
        seen("b", "mine", "B4", 6),
        seen("a", "torpedo", "D2", 6, torpedo=1),
    ]


# ----------------------------------------------------------------------------- §5


def test_5_torpedoes_run_two_cells_at_each_of_their_owners_turns_before_the_action() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    table.line("a dm: torpedo up")  # A2, A3
    table.line("b dm: silent")
    table.line("a dm: ping")
    assert [e["type"] for e in table.events(3)] == ["contact", "contact", "ping"]
    assert table.events(3)[2]["report"][1] == seen("a", "torpedo", "A5", 4, torpedo=1)


def test_5_a_new_torpedo_starts_in_the_launchers_cell_without_hitting_it() -> None:
    table = setup_game({"a": "B2", "b": "F6"})
    table.line("a dm: mine")
    table.line("b dm: silent")
    table.line("a dm: torpedo up")
    assert [e["type"] for e in table.events(3)] == ["launched", "contact", "contact"]


def test_5_a_players_torpedoes_move_oldest_first() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    table.line("a dm: torpedo up")  # 1: A2, A3
    table.line("b dm: silent")
    table.line("a dm: silent right")  # 1: A4, A5; a now at B1
    table.line("b dm: silent")
    table.line("a dm: torpedo up")  # 1: A6 then lost; 2: B2, B3
    assert table.events(5) == [
        contact("a", "A6", torpedo=1),
        {"type": "lost", "player": "a", "torpedo": 1},
        {"type": "launched", "player": "a", "torpedo": 2, "cell": "B1", "direction": "up"},
        contact("a", "B2", torpedo=2),
        contact("a", "B3", torpedo=2),
    ]


def test_5_a_destroyed_players_torpedoes_stop_but_still_destroy() -> None:
    table = setup_game({"a": "B1", "b": "B3", "c": "D3", "d": "J10"})
    table.line("a dm: torpedo right")  # C1, D1
    table.line("b dm: cruise down down")  # B2, B1: into a, both out
    table.line("c dm: silent")
    table.line("d dm: silent")
    assert captain(table, "a")["torpedoes"] == [{"torpedo": 1, "cell": "D1", "direction": "right"}]
    table.line("c dm: cruise down down")  # D2, D1: a's torpedo is still there
    assert table.events(5)[2]["destroyed"] == [
        {"player": "a", "unit": "torpedo", "torpedo": 1},
        {"player": "c", "unit": "submarine"},
    ]
    assert table.record()["game"]["winners"] == ["d"]


def test_5_a_torpedo_that_runs_off_the_board_later_is_lost_before_the_action() -> None:
    table = setup_game({"a": "A3", "b": "F6"})
    table.line("a dm: torpedo right")  # B3, C3
    table.line("b dm: silent")
    table.line("a dm: silent")  # D3, E3
    table.line("b dm: silent")
    table.line("a dm: silent")  # F3, then off the board
    assert table.events(5) == [
        contact("a", "F3", torpedo=1),
        {"type": "lost", "player": "a", "torpedo": 1},
        {"type": "silent", "player": "a", "cell": "A3"},
    ]
    assert captain(table, "a")["torpedoes"] == []


# ----------------------------------------------------------------------------- §6


def test_6_the_last_submarine_afloat_wins() -> None:
    table = setup_game({"a": "A4", "b": "C4"})
    table.line("a dm: torpedo right")
    record = table.record()
    assert record["game"]["winners"] == ["a"] and record["game"]["draw"] is False
    assert record["game"]["current"] is None and record["game"]["turn"] == 1
    assert SUGARDOG.rules.outcome(table.game_state()) is not None
    assert SUGARDOG.rules.timers(table.game_state()) == ()


def test_6_the_game_ends_the_moment_at_most_one_submarine_is_afloat() -> None:
    table = setup_game({"a": "B2", "b": "B3"})
    table.line("a dm: cruise up up")  # the second step never happens
    assert [e["type"] for e in table.events(1)] == [
        "contact",
        "impact",
        "eliminated",
        "eliminated",
        "finished",
    ]
    assert table.events(1)[-1] == {"type": "finished", "winners": ["a", "b"], "draw": True}
    assert captain(table, "a")["cell"] == "B3"


def test_6_a_draw_is_between_the_owners_destroyed_together() -> None:
    table = setup_game({"zed": "B2", "amy": "B4", "cy": "B5"})
    table.line("zed dm: mine")  # B2
    table.line("amy dm: silent")
    table.line("cy dm: silent")
    table.line("zed dm: silent up")  # B3, silent
    table.line("amy dm: cruise down down")  # passes zed at B3, hits zed's mine at B2
    assert [u["player"] for u in table.events(5)[2]["destroyed"]] == ["amy", "zed"]
    table.line("cy dm: ping")  # no longer silent
    table.line("zed dm: cruise up up")  # B4, B5: into cy
    record = table.record()
    assert record["game"]["winners"] == ["cy", "zed"] and record["game"]["draw"] is True
    assert [p["status"] for p in record["players"]] == ["eliminated"] * 3
    assert SUGARDOG.words.result(table.game_state(), table.names).startswith(
        "Draw between cy and zed"
    )


# ----------------------------------------------------------------------------- options


def test_options_move_time_defaults_to_1d_in_canonical_text() -> None:
    assert SUGARDOG.rules.options(SUGARDOG.rules.new_game({})) == {"move_time": "1d"}
    for given, canonical in (("90m", "1h30m"), ("120m", "2h"), ("24h", "1d"), ("10m", "10m")):
        assert SUGARDOG.rules.options(SUGARDOG.rules.new_game({"move_time": given})) == {
            "move_time": canonical
        }


@pytest.mark.parametrize("value", ["30s", "0m", "soon", "-1h"])
def test_options_move_time_must_be_a_duration_of_at_least_1m(value: str) -> None:
    from bot.games.base import OptionError

    with pytest.raises(OptionError, match="move_time"):
        SUGARDOG.rules.new_game({"move_time": value})


def test_options_an_unknown_key_is_refused_naming_the_known_ones() -> None:
    from bot.games.base import OptionError

    with pytest.raises(OptionError, match="move_time, max_players, seed"):
        SUGARDOG.rules.new_game({"size": "8"})


def test_options_seed_appears_only_when_given() -> None:
    from bot.games.base import OptionError

    assert SUGARDOG.rules.options(SUGARDOG.rules.new_game({"seed": "7"})) == {
        "move_time": "1d",
        "seed": "7",
    }
    with pytest.raises(OptionError, match="seed"):
        SUGARDOG.rules.new_game({"seed": "-3"})
    table = play("@game sugardog move_time=6h seed=42\na dm: join")
    assert table.record()["game"]["options"] == {"move_time": "6h", "seed": "42"}


def test_options_move_time_is_the_length_of_each_move_clock() -> None:
    table = setup_game({"a": "A1", "b": "F6"}, options="move_time=10m")
    (timer,) = SUGARDOG.rules.timers(table.game_state())
    assert (timer.key, timer.seconds) == ("move:1", 600)
    table.line("@wait 25m")
    assert [t["player"] for t in table.record()["turns"]] == ["a", "b"]


# ----------------------------------------------------------------------------- host verbs


def test_leave_in_setup_and_come_back() -> None:
    table = play("@game sugardog\na dm: join\nb dm: join\na dm: B2\na dm: leave")
    assert captain(table, "a") == {**captain(table, "a"), "status": "left", "cell": None}
    table.line("a dm: join")
    assert captain(table, "a")["status"] == "alive"


def test_leave_in_battle_takes_the_submarine_out_and_is_recorded() -> None:
    table = setup_game({"a": "B2", "b": "E5", "c": "F1"})
    table.line("b dm: leave")  # during a's turn
    assert table.record()["game"]["current"] == "a"
    table.line("a dm: silent")
    turn = table.turn(1)
    assert turn["player"] == "a"
    assert turn["orders"] == [
        {"player": "b", "action": "leave"},
        {"player": "a", "action": "silent", "direction": None, "timeout": False},
    ]
    assert turn["events"][0] == {"type": "left", "player": "b"}
    assert table.record()["game"]["current"] == "c"  # b is skipped
    assert "E5" not in " ".join(table.public())
    table.line("c dm: leave")  # the player to move leaves: a wins at once
    record = table.record()
    assert record["game"]["winners"] == ["a"] and record["game"]["phase"] == "finished"
    assert record["turns"][-1]["events"][-1] == {
        "type": "finished",
        "winners": ["a"],
        "draw": False,
    }


def test_the_hosts_kick_of_the_player_to_move_ends_their_turn() -> None:
    table = setup_game({"a": "B2", "b": "E5", "c": "F1"})
    table.line("@host kick a")
    assert table.record()["game"]["current"] == "b" and table.record()["game"]["turn"] == 2
    assert table.turn(1)["orders"] == [{"player": "a", "action": "leave"}]


def test_the_hosts_end_is_a_draw_between_the_submarines_afloat() -> None:
    table = setup_game({"b": "B2", "a": "E5", "c": "F1"})
    table.line("b dm: cruise up up")
    table.line("@host end")
    record = table.record()
    assert record["game"]["phase"] == "finished" and record["game"]["draw"] is True
    assert record["game"]["winners"] == ["a", "b", "c"]
    assert record["turns"][-1] == {
        "number": 2,
        "player": "a",
        "orders": [],
        "events": [{"type": "finished", "winners": ["a", "b", "c"], "draw": True}],
    }


def test_an_order_during_setup_says_what_to_send() -> None:
    state = SUGARDOG.rules.join(SUGARDOG.rules.new_game({}), PlayerRef("p1", "a"))
    with pytest.raises(IllegalOrderError, match="starting cell"):
        SUGARDOG.rules.accept(state, "p1", SilentRunning(None), Channel.PRIVATE, random.Random(0))


# ----------------------------------------------------------------------------- record


def test_record_in_setup_shows_the_board_so_far_and_an_empty_start() -> None:
    table = play("@game sugardog move_time=90m\na dm: join\nb dm: join\nc dm: join\nb dm: H8")
    record = table.record()
    assert record["format"] == "sugardog-record/1"
    assert record["game"] == {
        "kind": "sugardog",
        "rows": 8,
        "cols": 8,
        "options": {"move_time": "1h30m"},
        "phase": "setup",
        "turn": 0,
        "current": None,
        "winners": [],
        "draw": False,
    }
    assert record["start"] == {} and record["turns"] == []
    assert [p["cell"] for p in record["players"]] == [None, "H8", None]
    assert record["players"][0] == {
        "name": "a",
        "status": "alive",
        "cell": None,
        "silent": False,
        "mines_left": 3,
        "mines": [],
        "torpedoes": [],
    }
    summary = SUGARDOG.words.summary(table.game_state(), "p2")
    assert (
        summary.splitlines()[0] == "#sugardog 8×8, setup: join, then DM your secret starting cell."
    )
    assert "Your starting cell: H8." in summary
    assert "H8" not in SUGARDOG.words.summary(table.game_state(), None)


def test_options_max_players_caps_the_table_naming_the_bound() -> None:
    """Issue 24: "2 or more players" had no end (200 captains: 37 s a turn). At most 11
    (the 24 × 24 board) by default; a host may set fewer; the refusal names the bound."""
    state = SUGARDOG.rules.new_game({})
    for n in range(11):
        state = SUGARDOG.rules.join(state, PlayerRef(f"p{n}", f"captain{n}"))
    with pytest.raises(IllegalOrderError, match=r"at most 11 captains \(option max_players"):
        SUGARDOG.rules.join(state, PlayerRef("p11", "one too many"))
    small = SUGARDOG.rules.new_game({"max_players": "3"})
    assert SUGARDOG.rules.options(small)["max_players"] == "3"
    for n in range(3):
        small = SUGARDOG.rules.join(small, PlayerRef(f"p{n}", f"captain{n}"))
    with pytest.raises(IllegalOrderError, match="at most 3 captains"):
        SUGARDOG.rules.join(small, PlayerRef("p3", "fourth"))
    # A leaver frees a seat; coming back into a full table is refused like any join.
    small = SUGARDOG.rules.remove(small, "p2").state
    small = SUGARDOG.rules.join(small, PlayerRef("p3", "fourth"))
    with pytest.raises(IllegalOrderError, match="at most 3 captains"):
        SUGARDOG.rules.join(small, PlayerRef("p2", "captain2"))
    assert "max_players" not in SUGARDOG.rules.options(SUGARDOG.rules.new_game({}))


@pytest.mark.parametrize("value", ["1", "12", "200", "x", "-3"])
def test_options_max_players_out_of_range_is_refused_naming_the_range(value: str) -> None:
    with pytest.raises(OptionError, match="max_players: expected a number from 2 to 11"):
        SUGARDOG.rules.new_game({"max_players": value})


def test_options_max_players_is_kept_when_the_state_is_stored_and_read_again() -> None:
    # The host stores every state and reads it back: the cap must survive that.
    state = SUGARDOG.rules.new_game({"max_players": "3"})
    again = SUGARDOG.codec.decode_state(SUGARDOG.codec.encode_state(state))
    assert again.options.max_players == 3
    assert SUGARDOG.rules.options(again)["max_players"] == "3"
