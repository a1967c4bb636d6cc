"""Rules §1-§3: options, joining, placement and the start of the battle."""

from __future__ import annotations

import random

import pytest
from bst_helpers import join, new, pid, place, setup

from bot.games.base import (
    Channel,
    IllegalOrderError,
    OptionError,
    PlacementError,
    PlayerRef,
    WrongChannelError,
)
from bot.games.bst import BST, BstState, Place
from bot.games.bst.cells import Cell
from bot.games.bst.record import record_board, record_players
from bot.games.bst.views import CaptainStatus, Phase
from bot.games.catalog import game_of_tag, get_game


def test_registered_as_bst() -> None:
    assert get_game("bst") is BST
    assert get_game("BST") is BST
    assert game_of_tag("#BST") is BST


def test_1_default_board_is_20x20_and_options_canonical() -> None:
    state = BST.rules.new_game({})
    assert record_board(state) == {"rows": 20, "cols": 20}
    assert BST.rules.options(state) == {
        "turn": "8h",
        "shots": "after_moves",
        "placement_conflicts": "first_come",
        "loadouts": "both",
        "max_turns": "none",
        "setup_deadline": "none",
        "late_join": "off",
    }


def test_1_size_square_or_rows_by_cols() -> None:
    assert record_board(BST.rules.new_game({"size": "8"})) == {"rows": 8, "cols": 8}
    assert record_board(BST.rules.new_game({"size": "8x12"})) == {"rows": 8, "cols": 12}
    assert record_board(BST.rules.new_game({"size": "702x999"})) == {"rows": 702, "cols": 999}
    assert record_board(BST.rules.new_game({"size": "1000"})) == {"rows": 1000, "cols": 1000}


@pytest.mark.parametrize("size", ["3", "1001x10", "10x1001", "ten", "4x3"])
def test_1_size_out_of_range_refused(size: str) -> None:
    with pytest.raises(OptionError, match="size"):
        BST.rules.new_game({"size": size})


@pytest.mark.parametrize(
    ("size", "says"),
    [("1001x10", "rows must be from 4 to 1000"), ("10x1001", "columns must be from 4 to 1000")],
)
def test_1_size_refusal_names_the_limits(size: str, says: str) -> None:
    with pytest.raises(OptionError, match=says):
        BST.rules.new_game({"size": size})


def test_options_parsed_and_kept_canonical() -> None:
    state = BST.rules.new_game(
        {
            "turn": "90m",
            "shots": "before_moves",
            "placement_conflicts": "both_retry",
            "loadouts": "carrier",
            "max_turns": "12",
            "setup_deadline": "1d",
            "late_join": "yes",
        }
    )
    assert BST.rules.options(state) == {
        "turn": "1h30m",
        "shots": "before_moves",
        "placement_conflicts": "both_retry",
        "loadouts": "carrier+submarine",
        "max_turns": "12",
        "setup_deadline": "1d",
        "late_join": "on",
    }


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"colour": "red"}, "colour"),
        ({"turn": "soon"}, "turn"),
        ({"shots": "never"}, "shots"),
        ({"max_turns": "-2"}, "max_turns"),
        ({"late_join": "maybe"}, "late_join"),
        ({"loadouts": "battleship"}, "loadouts"),
    ],
)
def test_bad_options_refused_naming_them(options: dict[str, str], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        BST.rules.new_game(options)


def test_unknown_option_lists_the_known_keys() -> None:
    with pytest.raises(OptionError, match="placement_conflicts"):
        BST.rules.new_game({"speed": "fast"})


def test_3_join_twice_refused() -> None:
    state = join(new(), "ahab")
    with pytest.raises(IllegalOrderError, match="already in this game"):
        join(state, "ahab")


def test_3_placement_example_orientation_sub_top_left_carrier_below() -> None:
    state = place(join(new(), "ahab"), "ahab", "sub: A2\ncarrier: C1-C5")
    captain = state.captain(pid("ahab"))
    assert captain is not None
    carrier, sub = captain.ships
    assert sub.cells == (Cell(0, 1),)  # row A is the top, column 2 from the left
    assert carrier.cells == tuple(Cell(2, c) for c in range(5))  # a row below it


def test_3_placement_acknowledged_privately_listing_the_fleet() -> None:
    state = join(new(), "ahab")
    accepted = BST.rules.accept(
        state,
        pid("ahab"),
        BST.rules.parse("sub: A2\ncarrier: C1-C5"),
        Channel.PRIVATE,
        random.Random(0),
    )
    assert accepted.standing is None
    (notice,) = accepted.notices
    assert notice.to == pid("ahab")
    assert "carrier C1-C5" in notice.text and "submarine A2" in notice.text


def test_3_placement_in_public_refused_without_echoing_cells() -> None:
    state = join(new(), "ahab")
    with pytest.raises(WrongChannelError) as caught:
        BST.rules.accept(
            state,
            pid("ahab"),
            BST.rules.parse("sub: A2, carrier: C1-C5"),
            Channel.PUBLIC,
            random.Random(0),
        )
    assert "DM" in caught.value.message
    assert "A2" not in caught.value.message and "C1" not in caught.value.message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("carrier: C1-C4, sub: A2", "the aircraft carrier needs 5 cells, C1-C4 has 4"),
        ("cruiser: B2-B5, cruiser: E5-G5", "the cruiser needs 3 cells, B2-B5 has 4"),
        ("carrier: C6-C10, sub: K2", "K2 is off the 10x10 board"),
        ("carrier: C7-C11, sub: A2", "C11 is off"),
        ("carrier: C1-C5, sub: C3", "overlap at C3"),
        ("carrier: C1-C5, cruiser: E5-G5", "a fleet is"),
        ("sub: A2", "a fleet is"),
        ("sub: A2, sub: A4", "a fleet is"),
    ],
)
def test_3_placement_errors_name_the_exact_problem(text: str, message: str) -> None:
    state = join(new(), "ahab")
    with pytest.raises(PlacementError, match=message):
        place(state, "ahab", text)


def test_2_loadouts_option_restricts_fleets() -> None:
    state = join(new(loadouts="cruisers"), "ahab")
    with pytest.raises(PlacementError, match="two cruisers"):
        place(state, "ahab", "sub: A2, carrier: C1-C5")
    place(state, "ahab", "cruiser: B2-B4, cruiser: E5-G5")


def test_3_latest_valid_placement_stands() -> None:
    state = place(join(new(), "ahab"), "ahab", "sub: A2\ncarrier: C1-C5")
    state = place(state, "ahab", "cruiser: B2-B4, cruiser: E5-G5")
    with pytest.raises(PlacementError):
        place(state, "ahab", "sub: A2")  # refused: the earlier placement still stands
    captain = state.captain(pid("ahab"))
    assert captain is not None
    assert [ship.kind.value for ship in captain.ships] == ["cruiser", "cruiser"]


def _answer(state: BstState, name: str, text: str) -> tuple[BstState, str]:
    accepted = BST.rules.accept(
        state, pid(name), BST.rules.parse(text), Channel.PRIVATE, random.Random(0)
    )
    (notice,) = accepted.notices
    assert notice.to == pid(name)
    return accepted.state, notice.text


def test_3_first_come_conflict_refused_without_saying_where() -> None:
    # shared/examples/bst-placement.txt
    state = join(new(), "drake", "raleigh", "frobisher")
    state = place(state, "drake", "carrier: B2-B6\nsub: J10")
    state, refused = _answer(state, "raleigh", "cruiser: A4-C4\ncruiser: E1-E3")
    assert "overlaps another captain's ship" in refused
    assert "B4" not in refused and "drake" not in refused
    raleigh = state.captain(pid("raleigh"))
    assert raleigh is not None and raleigh.ships == () and raleigh.overlap_refusals == 1
    state = place(state, "raleigh", "cruiser: D4-F4\ncruiser: E1-E3")
    started = BST.rules.start(state, random.Random(3))
    after = started.state
    cells = {c.name: {cell for ship in c.ships for cell in ship.cells} for c in after.captains}
    assert cells["drake"] == {Cell(1, c) for c in range(1, 6)} | {Cell(9, 9)}
    assert cells["raleigh"] == {Cell(r, 3) for r in (3, 4, 5)} | {Cell(4, c) for c in range(3)}
    assert len(cells["frobisher"]) == 6
    assert not cells["frobisher"] & (cells["drake"] | cells["raleigh"])
    (notice,) = started.notices
    assert notice.to == pid("frobisher") and "random" in notice.text


def test_3_first_come_refusal_is_the_same_wherever_the_other_fleet_is() -> None:
    answers = set()
    for other in (
        "carrier: B2-B6, sub: J10",
        "cruiser: A4-C4, cruiser: H1-H3",
        "carrier: A4-E4, sub: A1",
    ):
        state = join(new(), "drake", "raleigh")
        state = place(state, "drake", other)
        answers.add(_answer(state, "raleigh", "cruiser: A4-C4\ncruiser: E1-E3")[1])
    assert len(answers) == 1


def test_3_a_fourth_overlap_is_not_refused_the_fleet_is_placed_at_random() -> None:
    state = join(new(), "drake", "raleigh")
    state = place(state, "drake", "carrier: B2-B6\nsub: J10")
    state = place(state, "raleigh", "cruiser: H1-H3\ncruiser: H5-H7")  # a valid one first
    probes = ["cruiser: A2-C2, cruiser: E1-E3", "cruiser: A3-C3, cruiser: E1-E3",
              "cruiser: A4-C4, cruiser: E1-E3"]  # fmt: skip
    for n, probe in enumerate(probes, start=1):
        state, refused = _answer(state, "raleigh", probe)
        assert f"{n} of 3" in refused and "previous placement stands" in refused
    raleigh = state.captain(pid("raleigh"))
    assert raleigh is not None and len(raleigh.ships) == 2  # still the valid one
    state, answer = _answer(state, "raleigh", "cruiser: A5-C5, cruiser: E1-E3")
    assert "placed at random when setup closes" in answer
    raleigh = state.captain(pid("raleigh"))
    assert raleigh is not None and raleigh.ships == ()
    # From now on no placement is taken, overlapping or not: nothing more to learn.
    with pytest.raises(IllegalOrderError, match="placed at random when setup closes"):
        place(state, "raleigh", "cruiser: H1-H3\ncruiser: H5-H7")
    with pytest.raises(IllegalOrderError, match="placed at random when setup closes"):
        place(state, "raleigh", "cruiser: A6-C6\ncruiser: E1-E3")
    decoded = BST.codec.decode_state(BST.codec.encode_state(state))
    assert decoded == state
    started = BST.rules.start(state, random.Random(1))
    (notice,) = started.notices
    assert notice.to == pid("raleigh") and "After 3 refusals" in notice.text
    raleigh = started.state.captain(pid("raleigh"))
    assert raleigh is not None and raleigh.placed_at_random and len(raleigh.ships) == 2


def test_3_both_retry_withdraws_both() -> None:
    state = join(new(placement_conflicts="both_retry"), "drake", "raleigh")
    state = place(state, "drake", "carrier: B2-B6\nsub: J10")
    accepted = BST.rules.accept(
        state,
        pid("raleigh"),
        BST.rules.parse("cruiser: A4-C4\ncruiser: E1-E3"),
        Channel.PRIVATE,
        random.Random(0),
    )
    assert all(not c.ships for c in accepted.state.captains)
    told = {notice.to: notice.text for notice in accepted.notices}
    assert set(told) == {pid("drake"), pid("raleigh")}
    assert all("B4" in text for text in told.values())
    assert all("withdrawn" in text for text in told.values())


def test_3_random_placement_is_legal_in_setup_and_apart_once_setup_closes() -> None:
    state = join(new("6x6"), "a", "b", "c")
    for i, name in enumerate("abc"):
        state = BST.rules.accept(
            state, pid(name), Place(None), Channel.PRIVATE, random.Random(i)
        ).state
    cells = [cell for c in state.captains for ship in c.ships for cell in ship.cells]
    # Drawn on the board alone (no probing with `random`): on 6x6 these three overlap.
    assert len(cells) == 18 and len(set(cells)) < 18
    assert all(0 <= cell.row < 6 and 0 <= cell.col < 6 for cell in cells)
    started = BST.rules.start(state, random.Random(0))
    cells = [cell for c in started.state.captains for ship in c.ships for cell in ship.cells]
    assert len(cells) == len(set(cells)) == 18


def test_3_random_in_setup_ignores_a_full_board_the_start_states_capacity() -> None:
    state = join(new("4x4", loadouts="cruisers"), "a", "b", "c")
    state = place(state, "a", "cruiser: A1-A3, cruiser: B1-B3")
    state = place(state, "b", "cruiser: C1-C3, cruiser: D1-D3")
    # Only column 4 is free, but `random` never looks at the others' ships.
    drawn = BST.rules.accept(state, pid("c"), Place(None), Channel.PRIVATE, random.Random(0))
    assert drawn.state.captain(pid("c")).ships
    with pytest.raises(PlacementError, match=r"no room for 1 more fleets.*16 cells, 4 free"):
        BST.rules.start(drawn.state, random.Random(0))


def test_3_a_carrier_never_fits_a_4x4_board() -> None:
    state = join(new("4x4", loadouts="carrier"), "a")
    with pytest.raises(PlacementError, match="no room"):
        BST.rules.accept(state, pid("a"), Place(None), Channel.PRIVATE, random.Random(0))


def test_4_starting_needs_two_captains() -> None:
    with pytest.raises(IllegalOrderError, match="at least two captains; 1 has joined"):
        BST.rules.start(join(new(), "ahab"), random.Random(0))


def test_3_setup_closes_into_turn_1_and_everyone_gets_a_board() -> None:
    state = join(new(), "ahab", "nemo")
    state = place(state, "ahab", "sub: A2\ncarrier: C1-C5")
    started = BST.rules.start(state, random.Random(0))
    assert started.state.phase is Phase.BATTLE and started.state.turn == 1
    assert started.changed == {pid("ahab"), pid("nemo")}
    assert [n.to for n in started.notices] == [pid("nemo")]
    assert BST.rules.to_act(started.state) == {pid("ahab"), pid("nemo")}


def test_3_joining_after_setup_refused_unless_late_join() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": ""})
    with pytest.raises(IllegalOrderError, match="joining is closed"):
        join(state, "ishmael")


def test_3_late_joiner_placed_at_random_at_the_next_close() -> None:
    state = setup({"ahab": "sub: A2\ncarrier: C1-C5", "nemo": ""}, late_join="on")
    state = join(state, "ishmael")
    assert pid("ishmael") not in BST.rules.to_act(state)
    with pytest.raises(IllegalOrderError, match="when this turn closes"):
        BST.rules.accept(
            state, pid("ishmael"), BST.rules.parse("H1"), Channel.PUBLIC, random.Random(0)
        )
    resolved = BST.rules.resolve(state, [], random.Random(5))
    captain = resolved.state.captain(pid("ishmael"))
    assert captain is not None and len(captain.ships) == 2
    assert pid("ishmael") in resolved.changed
    assert pid("ishmael") in BST.rules.to_act(resolved.state)
    cells = [cell for c in resolved.state.captains for ship in c.ships for cell in ship.cells]
    assert len(cells) == len(set(cells))


def test_leave_in_setup_marks_left_without_ships() -> None:
    state = place(join(new(), "ahab", "nemo"), "ahab", "sub: A2\ncarrier: C1-C5")
    removed = BST.rules.remove(state, pid("ahab"))
    captain = removed.state.captain(pid("ahab"))
    assert captain is not None and captain.status is CaptainStatus.LEFT and not captain.ships
    assert removed.events == ()


def test_non_player_orders_refused() -> None:
    state = setup({"ahab": "", "nemo": ""})
    with pytest.raises(IllegalOrderError, match="send `join`"):
        BST.rules.accept(state, "stranger", BST.rules.parse("H1"), Channel.PUBLIC, random.Random(0))


def test_player_ref_name_is_kept() -> None:
    state = BST.rules.join(new(), PlayerRef("42", "Ahab"))
    assert record_players(state) == [{"name": "Ahab", "status": "alive", "ships": []}]


@pytest.mark.parametrize("size", ["20x4", "4x20", "5x24"])
def test_3_random_placement_at_start_fits_boards_too_narrow_one_way(size: str) -> None:
    """Crowded boards are packed; a carrier fits only along the long side of a 20×4."""
    for seed in range(6):
        state = new(size)
        for n in range(5):
            state = join(state, f"c{n}")
        started = BST.rules.start(state, random.Random(seed)).state
        cells = [cell for c in started.captains for ship in c.ships for cell in ship.cells]
        assert len(cells) == len(set(cells))  # apart from each other
        assert all(started.on_board(cell) for cell in cells)
        for captain in started.captains:
            lengths = sorted(len(ship.cells) for ship in captain.ships)
            assert lengths in ([1, 5], [3, 3])
            for ship in captain.ships:  # straight lines
                rows = {cell.row for cell in ship.cells}
                cols = {cell.col for cell in ship.cells}
                assert len(rows) == 1 or len(cols) == 1


def test_a_placement_sent_in_the_battle_is_answered_with_the_battle_orders() -> None:
    """#42: `carrier: C1-C5` typed once the battle is on is refused with what to send now."""
    state = setup({"alice": "sub: A2, carrier: C1-C5", "bob": "cruiser: F1-F3, cruiser: J8-J10"})
    order = BST.rules.parse("carrier: C1-C5")
    with pytest.raises(IllegalOrderError) as caught:
        BST.rules.accept(state, pid("alice"), order, Channel.PRIVATE, random.Random(0))
    assert caught.value.message.startswith("the battle has started: fleets can no longer be placed")
    assert "`H14` (shoot, in public), `move cruiser at G7 3 up`" in caught.value.message
