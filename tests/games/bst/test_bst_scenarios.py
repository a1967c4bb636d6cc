"""Scenario scripts (tests/games/bst/scripts/*.txt) played through the real host, one test per
script, named after the rule it checks. The facts asserted are the script's
``# expect:`` comments."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parent / "scripts"

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]


def play(run_script_text: Run, name: str) -> tuple[list[str], Record]:
    return run_script_text((SCRIPTS / name).read_text(encoding="utf-8"))


def player(record: Record, name: str) -> Record:
    (found,) = [p for p in record["players"] if p["name"] == name]
    return found


def fleet(record: Record, name: str) -> list[tuple[str, list[str]]]:
    """(kind, cells) of a captain's ships, in a stable order."""
    return sorted((s["kind"], s["cells"]) for s in player(record, name)["ships"])


def ship_at(record: Record, name: str, cell: str) -> Record:
    (found,) = [s for s in player(record, name)["ships"] if cell in s["cells"]]
    return found


def turn(record: Record, number: int) -> Record:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return found


def events(record: Record, number: int, kind: str | None = None) -> list[Record]:
    return [e for e in turn(record, number)["events"] if kind is None or e["type"] == kind]


def dms(transcript: list[str], name: str) -> list[str]:
    return [line for line in transcript if line.startswith(f"-> dm {name}: ")]


def public(transcript: list[str]) -> list[str]:
    return [line for line in transcript if line.startswith("-> public: ")]


def cells(text: str) -> list[str]:
    return text.split()


def assert_legal_fleet(record: Record) -> None:
    """Every ship on the board, straight, of its length; no two ships share a cell."""
    rows, cols = record["game"]["rows"], record["game"]["cols"]
    lengths = {"carrier": 5, "submarine": 1, "cruiser": 3}
    seen: set[str] = set()
    for captain in record["players"]:
        kinds = sorted(s["kind"] for s in captain["ships"])
        assert kinds in (["carrier", "submarine"], ["cruiser", "cruiser"]), captain
        for ship in captain["ships"]:
            assert len(ship["cells"]) == lengths[ship["kind"]]
            coords = [(ord(c[0]) - 64, int(c[1:])) for c in ship["cells"]]
            assert all(1 <= r <= rows and 1 <= c <= cols for r, c in coords)
            assert len({r for r, _ in coords}) == 1 or len({c for _, c in coords}) == 1
            assert not seen & set(ship["cells"]), f"overlap at {seen & set(ship['cells'])}"
            seen |= set(ship["cells"])


# --- the shared examples ---------------------------------------------------


def test_example_first_game_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "bst-first-game.txt")
    assert fleet(record, "ahab") == [
        ("carrier", cells("A3 B3 C3 D3 E3")),
        ("submarine", ["A2"]),
    ]
    assert events(record, 1) == [
        {"type": "moved", "player": "nemo", "ship": "cruiser", "cells": ["J6", "J7", "J8"]},
        {"type": "shot", "player": "ahab", "cell": "F3", "result": "hit"},
    ]
    assert ship_at(record, "nemo", "F1")["damaged"] == ["F3"]
    assert events(record, 2) == [
        {"type": "rotated", "player": "ahab", "ship": "carrier", "cells": cells("A3 B3 C3 D3 E3")},
        {"type": "shot", "player": "nemo", "cell": "A2", "result": "hit"},
        {"type": "destroyed", "player": "ahab", "ship": "submarine", "cells": ["A2"]},
    ]
    assert player(record, "ahab")["status"] == "alive"
    assert record["game"]["phase"] == "battle" and record["game"]["turn"] == 3


def test_example_collisions_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "bst-collisions.txt")
    assert events(record, 1) == [
        {"type": "collision", "player": "kirk", "ship": "submarine", "cells": ["E5"]},
        {"type": "collision", "player": "spock", "ship": "submarine", "cells": ["E7"]},
        {"type": "moved", "player": "uhura", "ship": "cruiser", "cells": ["G5", "G6", "G7"]},
    ]


def test_example_placement_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "bst-placement.txt")
    assert fleet(record, "drake") == [("carrier", cells("B2 B3 B4 B5 B6")), ("submarine", ["J10"])]
    assert fleet(record, "raleigh") == [
        ("cruiser", cells("D4 E4 F4")),
        ("cruiser", cells("E1 E2 E3")),
    ]
    assert_legal_fleet(record)
    assert any("placed at random" in line for line in dms(transcript, "frobisher"))


# --- §1 board and coordinates ----------------------------------------------


def test_1_cell_syntax_tolerated_and_canonical_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s1_cell_syntax.txt")
    assert fleet(record, "alice") == [("carrier", cells("C1 C2 C3 C4 C5")), ("submarine", ["A2"])]
    assert turn(record, 1)["orders"] == [
        {"player": "alice", "action": "shoot", "cell": "H2"},
        {"player": "bob", "action": "shoot", "cell": "H9"},
        {"player": "carol", "action": "shoot", "cell": "F2"},
    ]
    assert [(e["player"], e["cell"], e["result"]) for e in events(record, 1, "shot")] == [
        ("alice", "H2", "hit"),
        ("bob", "H9", "miss"),
        ("carol", "F2", "hit"),
    ]


def test_1_aa_rows_on_big_boards_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s1_big_board_aa_rows.txt")
    assert (record["game"]["rows"], record["game"]["cols"]) == (30, 12)
    assert ship_at(record, "bob", "AA10")["cells"] == ["Z10", "AA10", "AB10"]
    assert fleet(record, "alice") == [
        ("carrier", cells("AC1 AC2 AC3 AC4 AC5")),
        ("submarine", ["AA3"]),
    ]
    assert [(e["player"], e["cell"], e["result"]) for e in events(record, 1, "shot")] == [
        ("alice", "AB10", "hit"),
        ("bob", "AA3", "hit"),
    ]
    assert events(record, 1, "destroyed") == [
        {"type": "destroyed", "player": "alice", "ship": "submarine", "cells": ["AA3"]}
    ]


def test_1_off_board_cells_refused_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s1_off_board_refused.txt")
    assert fleet(record, "alice") == [("carrier", cells("C4 C5 C6 C7 C8")), ("submarine", ["A2"])]
    assert turn(record, 1) == {"number": 1, "orders": [], "events": []}
    alice = dms(transcript, "alice")
    assert any("I2 is off the 8x8 board" in line for line in alice)
    assert any("C9 is off the 8x8 board" in line for line in alice)
    assert any("I1 is off the 8x8 board" in line for line in alice)
    assert any("A9 is off the 8x8 board" in line for line in alice)
    assert len(dms(transcript, "bob")) >= 1 and "A0" in " ".join(dms(transcript, "bob")).upper()


# --- §2-3 fleets, joining and placement -----------------------------------


def test_2_carrier_and_submarine_every_name_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s2_carrier_sub_loadout.txt")
    assert fleet(record, "alice") == [("carrier", cells("C1 C2 C3 C4 C5")), ("submarine", ["A2"])]
    assert fleet(record, "bob") == [("carrier", cells("J6 J7 J8 J9 J10")), ("submarine", ["E5"])]
    assert fleet(record, "carol") == [
        ("carrier", cells("A10 B10 C10 D10 E10")),
        ("submarine", ["H8"]),
    ]
    assert (record["game"]["phase"], record["game"]["turn"]) == ("battle", 1)


def test_2_two_cruisers_with_semicolons_and_reversed_ranges_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s2_two_cruisers_loadout.txt")
    assert fleet(record, "alice") == [
        ("cruiser", cells("B2 B3 B4")),
        ("cruiser", cells("E5 F5 G5")),
    ]
    assert fleet(record, "bob") == [
        ("cruiser", cells("A10 B10 C10")),
        ("cruiser", cells("J8 J9 J10")),
    ]


def test_3_each_placement_error_named_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_placement_errors.txt")
    alice = " ".join(dms(transcript, "alice"))
    assert "needs 5 cells, C1-C4 has 4" in alice
    assert "C1-D5" in alice and "straight" in alice
    assert "C11 is off the 10x10 board" in alice
    assert "you sent submarine, cruiser" in alice
    assert "you sent submarine, carrier, submarine" in alice
    assert "overlap at C3" in alice
    assert "expected" in alice and "please place my ships" in alice
    assert not any("Fleet placed" in line for line in dms(transcript, "alice"))
    assert "placed at random" in alice
    assert_legal_fleet(record)


def test_3_latest_valid_placement_stands_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_replacement.txt")
    assert fleet(record, "alice") == [
        ("cruiser", cells("B2 B3 B4")),
        ("cruiser", cells("E5 F5 G5")),
    ]
    assert fleet(record, "bob") == [("carrier", cells("H1 H2 H3 H4 H5")), ("submarine", ["J10"])]
    assert any("needs 3 cells, B2-B3 has 2" in line for line in dms(transcript, "alice"))


def test_3_first_come_conflict_refused_other_not_told_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_first_come_conflict.txt")
    assert fleet(record, "drake") == [("carrier", cells("B2 B3 B4 B5 B6")), ("submarine", ["J10"])]
    assert fleet(record, "raleigh") == [
        ("cruiser", cells("D4 E4 F4")),
        ("cruiser", cells("E1 E2 E3")),
    ]
    raleigh = dms(transcript, "raleigh")
    assert any("overlaps another captain's ship" in line for line in raleigh)
    assert not any("B4" in line or "B6" in line for line in raleigh if "overlaps" in line)
    assert not any("overlap" in line for line in dms(transcript, "drake"))


def test_3_both_retry_conflict_withdraws_both_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_both_retry_conflict.txt")
    assert any("B4" in line and "withdrawn" in line for line in dms(transcript, "raleigh"))
    assert any("B4" in line and "withdrawn" in line for line in dms(transcript, "drake"))
    assert fleet(record, "drake") == [("carrier", cells("B2 B3 B4 B5 B6")), ("submarine", ["J10"])]
    # raleigh's withdrawn placement does not stand: placed at random at the start
    assert fleet(record, "raleigh") != [
        ("cruiser", cells("A4 B4 C4")),
        ("cruiser", cells("E1 E2 E3")),
    ]
    assert any("placed at random" in line for line in dms(transcript, "raleigh"))
    assert_legal_fleet(record)


def test_3_random_placement_and_random_at_start_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_random_placement.txt")
    assert [p["name"] for p in record["players"]] == ["alice", "bob", "carol"]
    assert_legal_fleet(record)
    assert any("Placed at random" in line for line in dms(transcript, "alice"))
    assert any("Placed at random" in line for line in dms(transcript, "carol"))
    assert any("sent no placement" in line for line in dms(transcript, "bob"))


def test_3_random_never_probes_overlaps_settled_when_setup_closes_script(
    run_script_text: Run,
) -> None:
    transcript, record = play(run_script_text, "s3_random_never_probes.txt")
    bob = dms(transcript, "bob")
    # The draw, answered at once, crosses alice's carrier on B: it avoided nothing.
    (drawn,) = [line for line in bob if "Placed at random" in line]
    assert "cruiser A3-C3, cruiser B4-D4" in drawn
    assert fleet(record, "alice") == [("carrier", cells("B1 B2 B3 B4 B5")), ("submarine", ["E2"])]
    assert_legal_fleet(record)
    assert fleet(record, "bob") != [("cruiser", cells("A3 B3 C3")), ("cruiser", cells("B4 C4 D4"))]
    (told,) = [line for line in bob if "Your fleet overlapped" in line]
    assert "Your fleet overlapped another captain's, placed before it, so you were" in told
    assert "alice" not in told.split("Captains afloat")[0]
    assert not any("overlapped" in line for line in dms(transcript, "alice"))


def test_3_joining_after_setup_refused_without_late_join_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_late_join_off.txt")
    assert [p["name"] for p in record["players"]] == ["alice", "bob"]
    assert any("joining is closed" in line for line in dms(transcript, "carol"))


def test_3_late_join_placed_at_random_at_next_close_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s3_late_join_on.txt")
    assert [p["name"] for p in record["players"]] == ["alice", "bob", "carol"]
    assert player(record, "carol")["status"] == "alive"
    assert len(player(record, "carol")["ships"]) == 2
    assert_legal_fleet(record)


def test_3_setup_deadline_closes_setup_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_setup_deadline.txt")
    assert any("Turn 2 closes 2026-01-01 17:00 UTC" in line for line in public(transcript))
    assert [t["number"] for t in record["turns"]] == [1]
    assert record["game"]["turn"] == 2
    assert any("placed at random" in line for line in dms(transcript, "bob"))
    assert_legal_fleet(record)


def test_3_a_setup_with_one_captain_says_so_once_a_game_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_setup_with_one_captain.txt")
    said = [line for line in public(transcript) if "needs at least two captains" in line]
    assert len(said) == 1  # before: once at every deadline, for ever (issue 39 item 10)
    assert record["game"]["phase"] == "battle" and record["game"]["turn"] == 1
    assert [p["name"] for p in record["players"]] == ["alice", "bob"]


def test_3_loadouts_option_restricts_fleet_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s3_loadout_option.txt")
    assert any("two cruisers" in line for line in dms(transcript, "alice"))
    assert fleet(record, "alice") == [
        ("cruiser", cells("B2 B3 B4")),
        ("cruiser", cells("E5 F5 G5")),
    ]


# --- §4 turns ----------------------------------------------------------------


def test_4_one_action_per_turn_replacement_acked_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_one_action_replaces.txt")
    assert turn(record, 1)["orders"] == [{"player": "alice", "action": "shoot", "cell": "J9"}]
    acks = [line for line in dms(transcript, "alice") if line.startswith("-> dm alice: Turn 1:")]
    assert acks == [
        "-> dm alice: Turn 1: shoot F1",
        "-> dm alice: Turn 1: move carrier at C1 2 right (replaces: shoot F1)",
        "-> dm alice: Turn 1: rotate carrier at C3 (replaces: move carrier at C1 2 right)",
        "-> dm alice: Turn 1: shoot J9 (replaces: rotate carrier at C3)",
    ]
    assert fleet(record, "alice")[0] == ("carrier", cells("C1 C2 C3 C4 C5"))


def test_4_pass_withdraws_the_action_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_pass.txt")
    assert turn(record, 1)["orders"] == [{"player": "bob", "action": "shoot", "cell": "A2"}]
    assert any("(replaces: shoot F1)" in line for line in dms(transcript, "alice"))
    assert ship_at(record, "bob", "F1")["damaged"] == []


def test_4_shot_by_dm_refused_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_shot_by_dm_refused.txt")
    refusals = [line for line in dms(transcript, "bob") if "shots are public" in line]
    assert len(refusals) == 2 and "#bst A2" in refusals[0]
    assert turn(record, 1)["orders"] == []
    assert ship_at(record, "alice", "A2")["damaged"] == []


def test_4_move_posted_publicly_not_executed_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_move_in_public_refused.txt")
    assert turn(record, 1)["orders"] == []
    assert any("by DM" in line for line in dms(transcript, "bob"))
    assert any("by DM" in line for line in dms(transcript, "alice"))
    assert fleet(record, "bob")[0] == ("cruiser", cells("F1 F2 F3"))


def test_4_every_refusal_reason_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_order_refusals.txt")
    alice = dms(transcript, "alice")
    expected = [
        "you have no cruiser at F1",
        "you have no carrier at E5",
        "1 left would take it off the 10x10 board",
        "lies along a row, so it moves left or right",
        "a carrier moves 1 to 5 cells; got 6",
        "a carrier moves 1 to 5 cells; got 0",
        "a submarine moves exactly 1 cell",
        "ships have no bow",
        "a submarine cannot rotate",
        "is destroyed: wrecks never move",
    ]
    for text in expected:
        assert any(text in line for line in alice), text
    assert any("3 right would take it off" in line for line in dms(transcript, "bob"))
    assert any("cannot rotate" in line for line in dms(transcript, "bob"))
    assert any("cannot rotate" in line for line in dms(transcript, "carol"))
    assert turn(record, 1)["orders"] == [{"player": "bob", "action": "shoot", "cell": "A2"}]
    assert turn(record, 2)["orders"] == []
    assert fleet(record, "alice") == [("carrier", cells("C1 C2 C3 C4 C5")), ("submarine", ["A2"])]


def test_4_eliminated_players_orders_refused_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s4_eliminated_orders_refused.txt")
    assert turn(record, 4)["orders"] == []
    assert ship_at(record, "alice", "A2")["damaged"] == []
    assert player(record, "carol")["status"] == "eliminated"
    assert sum("eliminated" in line for line in dms(transcript, "carol")) >= 2


# --- §5.1 movement -----------------------------------------------------------


def test_5_1_head_on_subs_collide_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_1_head_on.txt")
    assert events(record, 1) == [
        {"type": "collision", "player": "kirk", "ship": "submarine", "cells": ["E5"]},
        {"type": "collision", "player": "spock", "ship": "submarine", "cells": ["E7"]},
    ]
    assert any("collided" in line for line in dms(transcript, "kirk"))
    assert any("collided" in line for line in dms(transcript, "spock"))


def test_5_1_following_into_vacated_cell_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_1_following.txt")
    assert events(record, 1) == [
        {"type": "moved", "player": "alice", "ship": "cruiser", "cells": cells("A3 A4 A5")},
        {"type": "moved", "player": "bob", "ship": "cruiser", "cells": cells("A6 A7 A8")},
    ]


def test_5_1_closed_cycle_all_succeed_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_1_closed_cycle.txt")
    moved = {(e["player"], tuple(e["cells"])) for e in events(record, 1, "moved")}
    assert moved == {("p1", ("B3",)), ("p2", ("C3",)), ("p3", ("C2",)), ("p4", ("B2",))}
    assert events(record, 1, "collision") == []


def test_5_1_pass_through_fails_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_1_pass_through.txt")
    assert events(record, 1) == [
        {"type": "collision", "player": "alice", "ship": "submarine", "cells": ["E5"]},
        {"type": "collision", "player": "bob", "ship": "submarine", "cells": ["E6"]},
    ]


def test_5_1_chain_of_failures_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_1_chain_of_failures.txt")
    assert events(record, 1) == [
        {"type": "collision", "player": "alice", "ship": "cruiser", "cells": cells("A1 A2 A3")},
        {"type": "collision", "player": "bob", "ship": "cruiser", "cells": cells("A4 A5 A6")},
    ]
    assert ship_at(record, "carol", "A7")["cells"] == cells("A7 A8 A9")
    # carol's ship was hit by bob's proposal: she is told, at her own cell only
    # (once, issue 27: the turn's notice, not again in the report or the summary)
    told = [line for line in dms(transcript, "carol") if "collided" in line]
    assert len(told) == 1 and told[0].count("collided") == 1
    assert "a ship collided with your cruiser at A7." in told[0]


def test_5_1_partial_move_then_collision_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_1_partial_move_then_collision.txt")
    assert events(record, 1) == [
        {"type": "collision", "player": "alice", "ship": "cruiser", "cells": cells("A3 A4 A5")}
    ]


def test_5_1_rotation_blocked_stays_unrotated_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_1_rotation_blocked.txt")
    assert events(record, 1) == [
        {
            "type": "collision",
            "player": "alice",
            "ship": "carrier",
            "cells": cells("C3 D3 E3 F3 G3"),
        }
    ]
    assert any("collided with your submarine at E2." in line for line in dms(transcript, "bob"))


def test_5_1_rotation_into_vacated_cells_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_1_rotation_into_vacated.txt")
    assert events(record, 1) == [
        {"type": "rotated", "player": "alice", "ship": "carrier", "cells": cells("E1 E2 E3 E4 E5")},
        {"type": "moved", "player": "bob", "ship": "submarine", "cells": ["F2"]},
    ]


def test_5_1_wreck_blocks_and_owner_told_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_1_wreck_blocks.txt")
    assert events(record, 1, "destroyed") == [
        {"type": "destroyed", "player": "alice", "ship": "submarine", "cells": ["E5"]}
    ]
    assert events(record, 2) == [
        {"type": "collision", "player": "bob", "ship": "submarine", "cells": ["E6"]}
    ]
    after_2 = [line for line in dms(transcript, "alice") if "#bst game 1, turn 3:" in line]
    assert after_2 and "a ship collided with your submarine at E5." in after_2[0]
    assert "bob" not in after_2[0].split("Your ships")[1]  # not whose ship it was


# --- §5.2 shots --------------------------------------------------------------


def test_5_2_after_moves_a_move_dodges_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_2_after_moves_dodge.txt")
    assert events(record, 1) == [
        {"type": "moved", "player": "alice", "ship": "submarine", "cells": ["E6"]},
        {"type": "shot", "player": "bob", "cell": "E5", "result": "miss"},
    ]
    assert ship_at(record, "alice", "E6")["damaged"] == []


def test_5_2_before_moves_destroyed_ship_does_not_move_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_2_before_moves.txt")
    assert events(record, 1) == [
        {"type": "moved", "player": "alice", "ship": "submarine", "cells": ["E6"]},
        {"type": "shot", "player": "carol", "cell": "J8", "result": "hit"},
    ]
    assert events(record, 3) == [
        {"type": "shot", "player": "bob", "cell": "E6", "result": "hit"},
        {"type": "destroyed", "player": "alice", "ship": "submarine", "cells": ["E6"]},
    ]
    assert ship_at(record, "alice", "E6")["destroyed"] is True


def test_5_2_own_ship_and_wreck_hits_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_2_own_ship_and_wreck_hit.txt")
    assert events(record, 1) == [
        {"type": "shot", "player": "alice", "cell": "A2", "result": "hit"},
        {"type": "destroyed", "player": "alice", "ship": "submarine", "cells": ["A2"]},
    ]
    assert events(record, 2) == [
        {"type": "shot", "player": "alice", "cell": "C1", "result": "hit"},
        {"type": "shot", "player": "bob", "cell": "A2", "result": "hit"},
    ]
    assert events(record, 3) == [{"type": "shot", "player": "bob", "cell": "C1", "result": "hit"}]
    assert ship_at(record, "alice", "C1")["damaged"] == ["C1"]


def test_5_2_several_shooters_on_one_cell_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_2_several_shooters.txt")
    assert [(e["player"], e["cell"], e["result"]) for e in events(record, 1)] == [
        ("alice", "F2", "hit"),
        ("bob", "F2", "hit"),
        ("carol", "J1", "miss"),
        ("dave", "F2", "hit"),
    ]
    assert [p["name"] for p in record["players"]] == ["dave", "carol", "bob", "alice"]
    assert [o["player"] for o in turn(record, 1)["orders"]] == ["alice", "bob", "carol", "dave"]


def test_5_2_damage_moves_with_the_ship_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_2_damage_moves_with_ship.txt")
    assert events(record, 2) == [
        {"type": "moved", "player": "bob", "ship": "cruiser", "cells": cells("F3 F4 F5")}
    ]
    rotated = events(record, 3, "rotated")
    assert [e["cells"] for e in rotated if e["player"] == "bob"] == [cells("E4 F4 G4")]
    ship = ship_at(record, "bob", "F4")
    # the damaged end segment turned with the ship: it is one end, never the centre
    assert ship["damaged"] in (["E4"], ["G4"])


# --- §5.3 after the shots ----------------------------------------------------


def test_5_3_elimination_game_goes_on_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s4_eliminated_orders_refused.txt")
    assert [e["type"] for e in events(record, 3)] == [
        "shot",
        "shot",
        "destroyed",
        "destroyed",
        "eliminated",
    ]
    assert events(record, 3, "eliminated") == [{"type": "eliminated", "player": "carol"}]
    assert record["game"]["phase"] == "battle" and record["game"]["turn"] == 5


def test_5_3_last_captain_afloat_wins_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s5_3_win.txt")
    assert events(record, 6)[-3:] == [
        {"type": "destroyed", "player": "bob", "ship": "submarine", "cells": ["J10"]},
        {"type": "eliminated", "player": "bob"},
        {"type": "finished", "winners": ["alice"], "draw": False},
    ]
    game = record["game"]
    assert (game["phase"], game["turn"], game["winners"], game["draw"]) == (
        "finished",
        6,
        ["alice"],
        False,
    )
    assert player(record, "bob")["status"] == "eliminated"
    assert len(record["turns"]) == 6
    assert any("alice wins" in line for line in public(transcript))


def test_5_3_draw_between_players_eliminated_together_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_3_draw_together.txt")
    last = events(record, 6)
    assert last[-1]["type"] == "finished" and last[-1]["draw"] is True
    assert sorted(last[-1]["winners"]) == ["alice", "bob"]
    assert sorted(e["player"] for e in last if e["type"] == "eliminated") == ["alice", "bob"]
    assert record["game"]["draw"] is True
    assert sorted(record["game"]["winners"]) == ["alice", "bob"]


def test_5_3_max_turns_draw_between_captains_alive_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s5_3_max_turns_draw.txt")
    game = record["game"]
    assert (game["phase"], game["turn"], game["draw"]) == ("finished", 2, True)
    assert sorted(game["winners"]) == ["alice", "bob", "carol"]
    assert [t["number"] for t in record["turns"]] == [1, 2]
    assert events(record, 2)[-1]["type"] == "finished"


# --- §7 other commands -------------------------------------------------------


def test_7_help_rules_status_board_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_help_rules_status_board.txt")
    assert any("BattleshipTwitter" in line for line in public(transcript))  # help, in public
    assert any("rules" in line.lower() for line in dms(transcript, "bob"))
    assert any("setup" in line for line in public(transcript) if "#bst game 1: setup" in line)
    assert any("battle, turn 1" in line for line in dms(transcript, "bob"))
    board = [line for line in dms(transcript, "alice") if "Your ships: carrier C1-C5" in line]
    assert board, "alice's board by DM"
    assert not any("Your ships" in line for line in public(transcript))
    assert any("join" in line for line in dms(transcript, "carol"))
    assert turn(record, 1)["orders"] == []


def test_7_join_and_leave_in_setup_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_join_leave_setup.txt")
    assert [(p["name"], p["status"]) for p in record["players"]] == [
        ("alice", "alive"),
        ("bob", "alive"),
        ("carol", "left"),
    ]
    assert any("already in this game" in line for line in dms(transcript, "alice"))
    assert record["game"]["phase"] == "battle"


def test_7_leave_in_battle_ships_become_wrecks_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s7_leave_in_battle.txt")
    carol = player(record, "carol")
    assert carol["status"] == "left"
    assert all(s["destroyed"] for s in carol["ships"])
    assert fleet(record, "carol") == [("carrier", cells("E6 E7 E8 E9 E10")), ("submarine", ["H8"])]
    game = record["game"]
    assert (game["phase"], game["winners"], game["draw"]) == ("finished", ["alice"], False)
    assert game["turn"] == 1
    [turn] = record["turns"]
    assert [(o["player"], o["action"]) for o in turn["orders"]] == [("alice", "shoot")]
    assert [e["player"] for e in turn["events"] if e["type"] == "shot"] == ["alice"]


def test_7_kick_by_host_only_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_kick.txt")
    assert any("only the game's host" in line for line in dms(transcript, "alice"))
    carol = player(record, "carol")
    assert carol["status"] == "left" and all(s["destroyed"] for s in carol["ships"])
    assert any("nobody" in line for line in dms(transcript, "host"))
    assert record["game"]["phase"] == "battle"


def test_7_end_is_a_draw_between_captains_alive_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_end.txt")
    assert any("only the game's host can `end`" in line for line in dms(transcript, "bob"))
    game = record["game"]
    assert (game["phase"], game["turn"], game["draw"]) == ("finished", 1, True)
    assert sorted(game["winners"]) == ["alice", "bob", "carol"]
    assert len(record["turns"]) == 1


def test_7_pause_resume_moves_deadline_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_pause_resume.txt")
    assert any("paused with 6 h left" in line for line in public(transcript))
    assert any("turn 1 closes 2026-01-02 08:00 UTC" in line for line in public(transcript))
    assert any("Turn 2 closes 2026-01-02 16:00 UTC" in line for line in public(transcript))
    assert [t["number"] for t in record["turns"]] == [1]
    assert record["game"]["turn"] == 2


def test_7_extend_shifts_later_deadlines_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_extend.txt")
    lines = public(transcript)
    assert any("now closes 2026-01-01 10:00 UTC" in line for line in lines)
    assert any("Turn 2 closes 2026-01-01 18:00 UTC" in line for line in lines)
    assert any("Turn 3 closes 2026-01-02 02:00 UTC" in line for line in lines)
    assert [t["number"] for t in record["turns"]] == [1, 2]


def test_7_host_commands_from_non_host_refused_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_non_host_refused.txt")
    refusals = [line for line in dms(transcript, "bob") if "only the game's host" in line]
    assert [r.split("`")[1] for r in refusals] == ["start", "pause", "extend", "end", "kick"]
    assert any("Turn 2 closes 2026-01-01 16:00 UTC" in line for line in public(transcript))
    assert record["game"]["phase"] == "battle" and record["game"]["turn"] == 2
    assert all(p["status"] == "alive" for p in record["players"])


def test_7_tag_optional_and_case_insensitive_script(run_script_text: Run) -> None:
    _, record = play(run_script_text, "s7_tags_and_case.txt")
    assert fleet(record, "alice") == [("carrier", cells("C1 C2 C3 C4 C5")), ("submarine", ["A2"])]
    assert turn(record, 1)["orders"] == [
        {"player": "alice", "action": "shoot", "cell": "F1"},
        {
            "player": "bob",
            "action": "move",
            "ship": "cruiser",
            "at": "J8",
            "steps": 2,
            "direction": "left",
        },
    ]


def test_contract_wait_fires_every_deadline_in_order_script(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "s7_wait_fires_every_deadline.txt")
    assert [t["number"] for t in record["turns"]] == [1, 2, 3]
    assert record["game"]["turn"] == 4
    closes = [line for line in public(transcript) if ", turn " in line and "closes" in line]
    assert [c.split(", turn ")[1].split(":")[0] for c in closes] == ["1", "2", "3"]


def test_every_script_has_a_test() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    missing = [p.name for p in sorted(SCRIPTS.glob("*.txt")) if f'"{p.name}"' not in source]
    assert not missing, missing


@pytest.mark.parametrize("path", sorted(SCRIPTS.glob("*.txt")), ids=lambda p: p.stem)
def test_every_script_states_its_expectations(path: Path) -> None:
    assert "# expect:" in path.read_text(encoding="utf-8")


def test_5_hits_are_grouped_and_a_sinking_and_an_elimination_are_told(
    run_script_text: Run,
) -> None:
    transcript, record = play(run_script_text, "s5_hits_grouped_sinking_and_elimination_told.txt")
    assert player(record, "ahab")["status"] == "eliminated"
    said = " ".join(dms(transcript, "ahab"))
    assert (
        "Turn 1: your carrier was hit at C1 by bob, carol and dave; "
        "your submarine was sunk at A2 by erin.\\n"
    ) in said
    assert (
        "Turn 2: your carrier was hit at C2 by bob, hit at C3 by carol, hit at C4 by dave "
        "and sunk at C5 by erin. "
        "Your whole fleet is sunk: you are out of the battle."
    ) in said
