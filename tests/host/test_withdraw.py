"""``withdraw``: a player takes back the order that stands for this turn (issue #19's
"confirm or withdraw an order"; on Discord its button comes with each acknowledgement).

An order given later in the turn stands again; the withdrawn ones stay in the history
but are not handed to the game, so the turn resolves as if they had not been given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Run = Callable[[str], tuple[list[str], dict[str, Any]]]

GAME = """\
@game bst size=10x10
alice dm: join
alice dm: sub: a2\\ncarrier: c1-c5
bob dm: join
bob dm: cruiser: f1-f3, cruiser: J8-J10
@start
"""


def shots(record: dict[str, Any], turn: int) -> list[tuple[str, str]]:
    (found,) = [t for t in record["turns"] if t["number"] == turn]
    return [(e["player"], e["cell"]) for e in found["events"] if e["type"] == "shot"]


def test_a_withdrawn_shot_is_not_fired(run_script_text: Run) -> None:
    transcript, record = run_script_text(
        GAME
        + "alice public: #bst H2\n"
        + "alice dm: withdraw\n"
        + "bob public: #bst C3\n"
        + "@close\n"
    )
    assert shots(record, 1) == [("bob", "C3")]
    assert any("-> dm alice: Your order for turn 1 is withdrawn" in line for line in transcript)


def test_an_order_after_a_withdrawal_stands(run_script_text: Run) -> None:
    _, record = run_script_text(
        GAME
        + "alice public: #bst H2\n"
        + "alice dm: withdraw\n"
        + "alice public: #bst H3\n"
        + "@close\n"
    )
    assert shots(record, 1) == [("alice", "H3")]


def test_withdraw_without_an_order_is_refused_and_changes_nothing(run_script_text: Run) -> None:
    transcript, record = run_script_text(
        GAME + "bob public: #bst C3\n" + "alice dm: withdraw\n" + "@close\n"
    )
    assert any("you have no order for turn 1 to withdraw" in line for line in transcript)
    assert shots(record, 1) == [("bob", "C3")]


def test_withdraw_in_setup_is_refused(run_script_text: Run) -> None:
    transcript, _ = run_script_text("@game bst size=10x10\nalice dm: join\nalice dm: withdraw\n")
    assert any("no order to withdraw before the battle starts" in line for line in transcript)
