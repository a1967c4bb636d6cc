"""Silent Ships rules §4: attacks — supports, the defender's answer, retreat, combat —
and the clocks of an attack (the move time stops while the defender answers)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from silentships_helpers import GAME, act, arranged, table

from bot.games.base import Channel, IllegalOrderError
from bot.games.silentships.cells import parse_cell
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import SilentShipsState, TurnStep


def events_of(state: SilentShipsState, name: str, text: str) -> list[dict[str, Any]]:
    pid = {"ahab": "p1", "nemo": "p2"}[name]
    accepted = GAME.rules.accept(
        state, pid, GAME.rules.parse(text), Channel.PRIVATE, random.Random(0)
    )
    return [e.record() for e in accepted.events]


def attack_on_d3(
    units: str = "", ahab: str = "sub flag ram", nemo: str = "fire frigate"
) -> SilentShipsState:
    """ahab's frigate on D2 attacks nemo's submarine on D3 (step supports)."""
    state = arranged(f"ahab: D2 frigate {units}", hands={"ahab": ahab, "nemo": nemo})
    return act(state, "ahab", "move D2 to D3 discard sub")


def with_units(
    ahab: str, nemo: str, ahab_hand: str = "sub flag ram", nemo_hand: str = "fire frigate"
) -> SilentShipsState:
    state = arranged(f"ahab: {ahab}; nemo: {nemo}", hands={"ahab": ahab_hand, "nemo": nemo_hand})
    return act(state, "ahab", "move D2 to D3 discard sub")


def test_4_a_move_onto_an_enemy_unit_is_an_attack() -> None:
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "flag"})
    assert events_of(state, "ahab", "move D2 to D3 discard flag") == [
        {
            "type": "attack",
            "player": "p1",
            "ship": "frigate",
            "from": "D2",
            "to": "D3",
            "target": "submarine",
        }
    ]
    attacking = act(state, "ahab", "move D2 to D3 discard flag")
    assert attacking.step is TurnStep.SUPPORTS
    assert GAME.rules.to_act(attacking) == frozenset({"p1"})


def test_4_1_the_attacker_adds_supports_from_squares_next_to_the_target() -> None:
    state = with_units("D2 frigate, C3 ram, B3 patrol, E2 flag", "D3 sub")
    with pytest.raises(IllegalOrderError, match="not next to the target D3"):
        act(state, "ahab", "support B3 discard flag")
    with pytest.raises(IllegalOrderError, match="not next to the target D3"):
        act(state, "ahab", "support E2 discard flag")
    assert events_of(state, "ahab", "support from C3 discarding flag") == [
        {"type": "support", "player": "p1", "ship": "ramming_ship", "cell": "C3", "side": "attack"}
    ]
    with pytest.raises(IllegalOrderError, match="a support costs a card"):
        act(state, "ahab", "support C3")


def test_4_1_each_unit_supports_once_and_attacker_and_target_are_not_supports() -> None:
    state = with_units("D2 frigate, C3 ram", "D3 sub, D4 patrol", nemo_hand="fire frigate")
    supported = act(state, "ahab", "support C3 discard flag")
    with pytest.raises(IllegalOrderError, match="supports already"):
        act(supported, "ahab", "support C3 discard ram")
    with pytest.raises(IllegalOrderError, match="attacking unit"):
        act(state, "ahab", "support D2 discard ram")
    answering = act(state, "ahab", "go")
    with pytest.raises(IllegalOrderError, match="is the target"):
        act(answering, "nemo", "support D3 discard fire")
    with pytest.raises(IllegalOrderError, match="you have no unit on C3"):
        act(answering, "nemo", "support C3 discard fire")


def test_4_1_supports_belong_to_the_attacker_before_go_and_to_the_defender_after() -> None:
    state = with_units("D2 frigate, C3 ram", "D3 sub, D4 patrol")
    with pytest.raises(IllegalOrderError, match="supports are added during an attack"):
        act(state, "nemo", "support D4 discard fire")
    answering = act(state, "ahab", "go")
    with pytest.raises(IllegalOrderError, match="supports are added during an attack"):
        act(answering, "ahab", "support C3 discard flag")
    assert answering.step is TurnStep.RESPONSE
    assert GAME.rules.to_act(answering) == frozenset({"p2"})


def test_4_go_asks_the_defender_privately_with_choices() -> None:
    state = with_units("D2 frigate", "D3 sub, D4 patrol")
    accepted = GAME.rules.accept(
        state, "p1", GAME.rules.parse("go"), Channel.PUBLIC, random.Random(0)
    )
    # (the attacker's `go` is told with their next answer: one a combat, see
    # test_silentships_acknowledgements)
    question, public = accepted.notices
    assert accepted.state.held == ("go",)
    assert question.to == "p2"
    assert question.choices[0] == "pass"
    assert "retreat discard fire" in question.choices
    assert "support from D4 discard frigate" in question.choices
    assert all(GAME.rules.parse(choice) for choice in question.choices)
    assert public.to is None and "submarine" not in public.text.lower()
    assert accepted.orders == ({"player": "p1", "action": "go"},)


def test_4_2_a_retreat_with_one_free_square_happens_at_once() -> None:
    # Around D3: D2 the attacker, C3 ahab's, D4 nemo's: only E3 is free.
    state = act(with_units("D2 frigate, C3 ram", "D3 sub, D4 patrol"), "ahab", "go")
    events = events_of(state, "nemo", "retreat discard fire")
    assert events == [
        {"type": "retreated", "player": "p2", "ship": "submarine", "from": "D3", "to": "E3"},
        {"type": "moved", "player": "p1", "ship": "frigate", "from": "D2", "to": "D3"},
    ]
    after = act(state, "nemo", "retreat discard fire")
    assert after.step is TurnStep.ACTIONS and after.attack is None
    assert after.unit_at(parse_cell("E3")).ship is Ship.SUBMARINE  # type: ignore[union-attr]
    assert after.unit_at(parse_cell("D3")).face_up is False  # type: ignore[union-attr]
    assert after.admiral("p2").discards == (Ship.FIRE_SHIP,)


def test_4_2_with_several_free_squares_the_attacker_chooses() -> None:
    state = act(with_units("D2 frigate", "D3 sub"), "ahab", "go")
    accepted = GAME.rules.accept(
        state, "p2", GAME.rules.parse("retreat discard fire"), Channel.PRIVATE, random.Random(0)
    )
    retreating = accepted.state
    assert retreating.step is TurnStep.RETREAT
    assert [str(c) for c in retreating.attack.retreat_squares] == ["C3", "E3", "D4"]  # type: ignore[union-attr]
    question = accepted.notices[-1]
    assert question.to == "p1" and question.choices == (
        "retreat to C3",
        "retreat to E3",
        "retreat to D4",
    )
    with pytest.raises(IllegalOrderError, match="may retreat to C3, E3 or D4 only"):
        act(retreating, "ahab", "retreat to D2", public=True)
    with pytest.raises(IllegalOrderError, match="retreat to"):
        act(retreating, "nemo", "retreat to C3")
    assert events_of(retreating, "ahab", "retreat to d4") == [
        {"type": "retreated", "player": "p2", "ship": "submarine", "from": "D3", "to": "D4"},
        {"type": "moved", "player": "p1", "ship": "frigate", "from": "D2", "to": "D3"},
    ]


def test_4_2_a_retreat_needs_a_card_and_a_free_square_other_than_where_the_attack_came_from() -> (
    None
):
    empty_handed = act(with_units("D2 frigate", "D3 sub", nemo_hand=""), "ahab", "go")
    with pytest.raises(IllegalOrderError, match="your hand is empty"):
        act(empty_handed, "nemo", "retreat discard fire")
    boxed_in = act(with_units("D2 frigate, C3 ram", "D3 sub, D4 patrol, E3 flag"), "ahab", "go")
    with pytest.raises(IllegalOrderError, match="no retreat"):
        act(boxed_in, "nemo", "retreat discard fire")


def test_4_2_a_retreat_must_come_before_any_defence_support() -> None:
    state = act(with_units("D2 frigate", "D3 sub, D4 patrol"), "ahab", "go")
    supported = act(state, "nemo", "support D4 discard frigate")
    with pytest.raises(IllegalOrderError, match="before any support"):
        act(supported, "nemo", "retreat discard fire")


def test_4_3_the_defender_adds_supports_then_passes() -> None:
    state = act(with_units("D2 frigate", "D3 sub, D4 patrol, E3 missile"), "ahab", "go")
    state = act(state, "nemo", "support D4 discard frigate", "support E3 discard fire")
    assert state.step is TurnStep.RESPONSE
    events = events_of(state, "nemo", "pass")
    combat = next(e for e in events if e["type"] == "combat")
    assert (combat["attack"], combat["defence"], combat["winner"]) == (4, 7, "defence")


def test_4_4_every_fighter_is_revealed_attacker_target_then_supports_in_order() -> None:
    state = with_units("D2 frigate, C3 ram, E2 ammo up", "D3 sub, D4 patrol, E3 missile")
    state = act(state, "ahab", "support C3 discard flag", "go")
    state = act(state, "nemo", "support E3 discard fire", "support D4 discard frigate")
    revealed = [
        (e["player"], e["ship"], e["cell"])
        for e in events_of(state, "nemo", "pass")
        if e["type"] == "revealed"
    ]
    assert revealed == [
        ("p1", "frigate", "D2"),
        ("p2", "submarine", "D3"),
        ("p1", "ramming_ship", "C3"),
        ("p2", "missile_boat", "E3"),
        ("p2", "patrol_ship", "D4"),
    ]


def test_4_4_the_defence_wins_ties_and_nothing_moves() -> None:
    state = act(with_units("D2 frigate", "D3 frigate"), "ahab", "go")
    after = act(state, "nemo", "pass")
    events = events_of(state, "nemo", "pass")
    assert [e["type"] for e in events] == ["revealed", "revealed", "combat"]
    assert events[-1]["winner"] == "defence"
    assert after.unit_at(parse_cell("D2")).owner == "p1"  # type: ignore[union-attr]
    assert after.unit_at(parse_cell("D3")).owner == "p2"  # type: ignore[union-attr]


def test_4_4_a_beaten_target_is_sunk_into_the_attackers_pile_and_the_attacker_moves_in() -> None:
    state = act(with_units("D2 frigate", "D3 sub"), "ahab", "go")
    events = events_of(state, "nemo", "pass")
    assert events[-2:] == [
        {"type": "sunk", "player": "p2", "ship": "submarine", "cell": "D3", "by": "p1"},
        {"type": "moved", "player": "p1", "ship": "frigate", "from": "D2", "to": "D3"},
    ]
    after = act(state, "nemo", "pass")
    assert after.admiral("p1").sank == (Ship.SUBMARINE,)
    assert [str(u.cell) for u in after.units] == ["D3"]
    assert after.step is TurnStep.ACTIONS


def test_4_the_attackers_move_time_stops_while_the_defender_answers() -> None:
    state = with_units("D2 frigate", "D3 sub")
    assert [(t.key, t.held) for t in GAME.rules.timers(state)] == [("move:1", False)]
    answering = act(state, "ahab", "go")
    timers = GAME.rules.timers(answering)
    assert [(t.key, t.held) for t in timers] == [("move:1", True), ("response:1", False)]
    assert timers[1].seconds == 600
    after = act(answering, "nemo", "pass")
    assert [(t.key, t.held) for t in GAME.rules.timers(after)] == [("move:1", False)]
    assert after.step is TurnStep.ACTIONS


def test_4_no_answer_means_no_retreat_and_no_more_supports_but_supports_added_stand() -> None:
    t = table(
        "deck1=frigate,salvage,ram,speed,patrol deck2=sub,missile,fire,ammo,flag",
        "ahab dm: play frigate at D1",
        "ahab dm: move D1 to D2 discard patrol",
        "ahab dm: end",
        "nemo dm: play sub at D4",
        "nemo dm: move D4 to D3 discard fire",
        "nemo dm: play missile at D4",
        "nemo dm: end",
        "ahab dm: move D2 to D3 discard speed",
        "ahab dm: go",
        "nemo dm: support D4 discard flag",
        "@close",
    )
    orders = t.turn(3)["orders"]
    assert orders[-2:] == [
        {"player": "nemo", "action": "support", "cell": "D4", "discard": "flag_ship"},
        {"player": "nemo", "action": "pass", "timeout": True},
    ]
    combat = t.events("combat")[-1]
    assert (combat["attack"], combat["defence"], combat["winner"]) == (4, 5, "defence")
    assert t.record()["game"]["step"] == "actions"


def test_4_orders_out_of_step_are_refused() -> None:
    state = with_units("D2 frigate, C3 ram", "D3 sub")
    for text in ("end", "play flag at C1", "move C3 to C2 discard flag", "swap D2 with flag"):
        with pytest.raises(IllegalOrderError, match="an attack is in progress"):
            act(state, "ahab", text)
    for who, text in (
        ("ahab", "pass"),
        ("nemo", "pass"),
        ("nemo", "go"),
        ("ahab", "retreat to C3"),
    ):
        with pytest.raises(IllegalOrderError):
            act(state, who, text)
    answering = act(state, "ahab", "go")
    for who, text in (("ahab", "go"), ("ahab", "pass"), ("ahab", "end")):
        with pytest.raises(IllegalOrderError):
            act(answering, who, text)
    # Revealing goes on in any step, for either player.
    assert act(answering, "ahab", "reveal C3").unit_at(parse_cell("C3")).face_up  # type: ignore[union-attr]
