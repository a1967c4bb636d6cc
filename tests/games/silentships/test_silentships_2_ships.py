"""Silent Ships rules §2: the ships, their attack values and abilities (one test per ability),
and the House values kept in one table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from silentships_helpers import GAME, accepted_events, act, arranged

from bot.games.base import Channel, IllegalOrderError
from bot.games.silentships.cells import parse_cell
from bot.games.silentships.combat import Role, unit_value
from bot.games.silentships.ships import CARDS, Ship
from bot.games.silentships.state import Phase, SilentShipsState, Status


def answer(
    state: SilentShipsState, text: str = "pass"
) -> tuple[SilentShipsState, list[dict[str, Any]]]:
    """nemo answers ahab's attack; the state after and the events of the answer."""
    accepted = GAME.rules.accept(
        state, "p2", GAME.rules.parse(text), Channel.PRIVATE, random.Random(0)
    )
    return accepted.state, [event.record() for event in accepted.events]


def combat_of(events: list[dict[str, Any]]) -> tuple[int, int, str]:
    combat = next(e for e in events if e["type"] == "combat")
    return combat["attack"], combat["defence"], combat["winner"]


def unit(state: SilentShipsState, cell: str) -> tuple[str, Ship, bool] | None:
    found = state.unit_at(parse_cell(cell))
    return None if found is None else (found.owner, found.ship, found.face_up)


def test_2_attack_values_follow_the_card_table_with_house_values_marked() -> None:
    printed = {
        Ship.SPEED_BOAT: 4,
        Ship.SALVAGE_SHIP: 2,
        Ship.SPECIAL_OPERATIONS_CRAFT: 1,
        Ship.FIRE_SHIP: 6,
    }
    house = {
        Ship.FLAG_SHIP: 5,
        Ship.FRIGATE: 4,
        Ship.SUBMARINE: 3,
        Ship.RAMMING_SHIP: 3,
        Ship.PATROL_SHIP: 2,
        Ship.MISSILE_BOAT: 2,
        Ship.AMMUNITION_SHIP: 1,
    }
    assert {ship: CARDS[ship].attack for ship in Ship} == printed | house
    assert {ship for ship in Ship if CARDS[ship].house} == set(house)
    assert list(Ship) == list(CARDS)  # the table's order is the ship order


# ---------------------------------------------------------------- Speed Boat


def test_2_speed_boat_face_up_moves_up_to_three_squares_in_a_straight_line() -> None:
    state = arranged("nemo: B4 speed up", hands={"nemo": "frigate ram"}, turn=2)
    moved = act(state, "nemo", "move B4 to B1 discard frigate")
    assert unit(moved, "B1") == ("p2", Ship.SPEED_BOAT, True)
    assert accepted_events(state, "nemo", "move B4 to B2 discard ram") == [
        {"type": "moved", "player": "p2", "ship": "speed_boat", "from": "B4", "to": "B2"}
    ]
    far = arranged("nemo: A3 speed up", hands={"nemo": "frigate"}, turn=2)
    with pytest.raises(IllegalOrderError, match="1 to 3 squares"):
        act(far, "nemo", "move A3 to E3 discard frigate")
    with pytest.raises(IllegalOrderError, match="not next to"):
        act(state, "nemo", "move B4 to C3 discard frigate")


def test_2_speed_boat_face_down_moves_one_square() -> None:
    state = arranged("nemo: B4 speed", hands={"nemo": "frigate"}, turn=2)
    with pytest.raises(IllegalOrderError, match="face-down, so it moves one square"):
        act(state, "nemo", "move B4 to B2 discard frigate")
    assert unit(act(state, "nemo", "move B4 to B3 discard frigate"), "B3") is not None


def test_2_speed_boat_moves_over_empty_squares_only() -> None:
    state = arranged("ahab: B3 frigate; nemo: B4 speed up", hands={"nemo": "ram"}, turn=2)
    with pytest.raises(IllegalOrderError, match="not clear"):
        act(state, "nemo", "move B4 to B2 discard ram")


def test_2_speed_boat_attack_comes_from_the_square_before_the_target() -> None:
    state = arranged("ahab: B1 frigate; nemo: B4 speed up", hands={"nemo": "ram"}, turn=2)
    assert accepted_events(state, "nemo", "move B4 to B1 discard ram") == [
        {"type": "moved", "player": "p2", "ship": "speed_boat", "from": "B4", "to": "B2"},
        {
            "type": "attack",
            "player": "p2",
            "ship": "speed_boat",
            "from": "B2",
            "to": "B1",
            "target": "frigate",
        },
    ]
    attacking = act(state, "nemo", "move B4 to B1 discard ram")
    assert attacking.attack is not None and str(attacking.attack.origin) == "B2"


# ---------------------------------------------------------------- Salvage Ship


def test_2_salvage_ship_adds_one_for_each_ship_its_owner_has_sunk() -> None:
    sank_two = arranged(
        "ahab: D2 salvage; nemo: D3 frigate", hands={"ahab": "sub"}, sank={"ahab": "ram patrol"}
    )
    state = act(sank_two, "ahab", "move D2 to D3 discard sub", "go")
    assert combat_of(answer(state)[1]) == (4, 4, "defence")
    sank_three = arranged(
        "ahab: D2 salvage; nemo: D3 frigate",
        hands={"ahab": "sub"},
        sank={"ahab": "ram patrol flag"},
    )
    state = act(sank_three, "ahab", "move D2 to D3 discard sub", "go")
    assert combat_of(answer(state)[1]) == (5, 4, "attack")
    assert unit_value(Ship.SALVAGE_SHIP, Role.SUPPORT, 2) == 4


# ---------------------------------------------------------------- Special Operations Craft


def test_2_special_operations_craft_swaps_with_a_sunk_ship_on_an_island() -> None:
    state = arranged("ahab: A2 specops up", sank={"nemo": "frigate ram"})
    swapped = act(state, "ahab", "swap A2 with frigate", public=True)
    assert unit(swapped, "A2") == ("p1", Ship.FRIGATE, False)
    assert swapped.admiral("p2").sank == (Ship.RAMMING_SHIP, Ship.SPECIAL_OPERATIONS_CRAFT)
    assert len(swapped.admiral("p2").sank) == len(state.admiral("p2").sank)
    assert accepted_events(state, "ahab", "swap A2 frigate") == [
        {"type": "swapped", "player": "p1", "cell": "A2", "ship": "frigate"}
    ]


def test_2_special_operations_craft_swaps_on_the_opponents_country_too() -> None:
    state = arranged("ahab: C4 specops up", sank={"nemo": "flag"})
    assert unit(act(state, "ahab", "swap C4 with flag"), "C4") == ("p1", Ship.FLAG_SHIP, False)


def test_2_special_operations_craft_swap_refusals() -> None:
    face_down = arranged("ahab: A2 specops", sank={"nemo": "frigate"})
    with pytest.raises(IllegalOrderError, match="face-up Special Operations Craft"):
        act(face_down, "ahab", "swap A2 with frigate")
    ashore = arranged("ahab: B2 specops up", sank={"nemo": "frigate"})
    with pytest.raises(IllegalOrderError, match="island or your opponent's country"):
        act(ashore, "ahab", "swap B2 with frigate")
    not_sunk = arranged("ahab: A2 specops up", sank={"nemo": "frigate"})
    with pytest.raises(IllegalOrderError, match="not among your sunk ships"):
        act(not_sunk, "ahab", "swap A2 with ram")
    other = arranged("ahab: A2 frigate up", sank={"nemo": "ram"})
    with pytest.raises(IllegalOrderError, match="face-up Special Operations Craft"):
        act(other, "ahab", "swap A2 with ram")


# ---------------------------------------------------------------- Fire Ship


def test_2_fire_ship_is_sunk_after_defending_when_the_defence_wins() -> None:
    state = arranged("ahab: D2 ram; nemo: D3 fire", hands={"ahab": "sub"})
    state = act(state, "ahab", "move D2 to D3 discard sub", "go")
    after, events = answer(state)
    assert combat_of(events) == (3, 6, "defence")
    assert events[-1] == {
        "type": "sunk",
        "player": "p2",
        "ship": "fire_ship",
        "cell": "D3",
        "by": "p1",
    }
    assert unit(after, "D2") == ("p1", Ship.RAMMING_SHIP, True)  # the attacker stays
    assert unit(after, "D3") is None
    assert after.admiral("p1").sank == (Ship.FIRE_SHIP,)


def test_2_fire_ship_beaten_is_sunk_once_and_the_attacker_moves_in() -> None:
    state = arranged("ahab: D2 speed, C3 frigate; nemo: D3 fire", hands={"ahab": "sub ram"})
    state = act(state, "ahab", "move D2 to D3 discard sub", "support C3 discard ram", "go")
    after, events = answer(state)
    assert combat_of(events) == (8, 6, "attack")
    assert [e["type"] for e in events].count("sunk") == 1
    assert unit(after, "D3") == ("p1", Ship.SPEED_BOAT, True)


def test_2_fire_ship_supporting_the_defence_is_not_sunk() -> None:
    state = arranged(
        "ahab: D2 frigate; nemo: D3 flag, E3 fire", hands={"ahab": "sub", "nemo": "ram"}
    )
    state = act(state, "ahab", "move D2 to D3 discard sub", "go")
    state = act(state, "nemo", "support E3 discard ram")
    after, events = answer(state)
    assert combat_of(events) == (4, 11, "defence")
    assert not [e for e in events if e["type"] == "sunk"]
    assert unit(after, "E3") == ("p2", Ship.FIRE_SHIP, True)


# ---------------------------------------------------------------- Flag Ship


def test_2_flag_ship_sunk_loses_its_owner_the_game() -> None:
    state = arranged("ahab: D2 frigate, C3 ram; nemo: D3 flag", hands={"ahab": "sub patrol"})
    state = act(state, "ahab", "move D2 to D3 discard sub", "support C3 discard patrol", "go")
    after, events = answer(state)
    assert combat_of(events) == (7, 5, "attack")
    assert [e["type"] for e in events][-3:] == ["sunk", "moved", "finished"]
    assert events[-1] == {
        "type": "finished",
        "winners": ["p1"],
        "draw": False,
        "reason": "flag_ship",
        "sank": {"p1": 1, "p2": 0},
    }
    assert after.phase is Phase.FINISHED
    assert after.admiral("p2").status is Status.ELIMINATED


# ---------------------------------------------------------------- Frigate


def test_2_frigate_counts_four_whatever_its_role() -> None:
    assert [unit_value(Ship.FRIGATE, role, 3) for role in Role] == [4, 4, 4]
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "ram"})
    state = act(state, "ahab", "move D2 to D3 discard ram", "go")
    assert combat_of(answer(state)[1]) == (4, 3, "attack")


# ---------------------------------------------------------------- Submarine


def test_2_submarine_that_survives_a_combat_turns_face_down_again() -> None:
    # As the target that wins.
    state = arranged("ahab: D2 patrol; nemo: D3 sub", hands={"ahab": "ram"})
    state = act(state, "ahab", "move D2 to D3 discard ram", "go")
    after, events = answer(state)
    assert events[-1] == {"type": "hidden", "player": "p2", "ship": "submarine", "cell": "D3"}
    assert unit(after, "D3") == ("p2", Ship.SUBMARINE, False)
    # As the attacker that wins: hidden on the square it moved into.
    state = arranged("ahab: D2 sub; nemo: D3 specops", hands={"ahab": "ram"})
    state = act(state, "ahab", "move D2 to D3 discard ram", "go")
    after, events = answer(state)
    assert combat_of(events) == (3, 1, "attack")
    assert events[-1] == {"type": "hidden", "player": "p1", "ship": "submarine", "cell": "D3"}
    assert unit(after, "D3") == ("p1", Ship.SUBMARINE, False)
    # As a support.
    state = arranged("ahab: D2 frigate, C3 sub; nemo: D3 ram", hands={"ahab": "flag fire"})
    state = act(state, "ahab", "move D2 to D3 discard flag", "support C3 discard fire", "go")
    after, events = answer(state)
    assert events[-1] == {"type": "hidden", "player": "p1", "ship": "submarine", "cell": "C3"}


def test_2_a_sunk_submarine_does_not_hide() -> None:
    state = arranged("ahab: D2 sub, C3 frigate; nemo: D3 sub", hands={"ahab": "ram flag"})
    state = act(state, "ahab", "move D2 to D3 discard ram", "support C3 discard flag", "go")
    after, events = answer(state)
    hidden = [e for e in events if e["type"] == "hidden"]
    assert hidden == [{"type": "hidden", "player": "p1", "ship": "submarine", "cell": "D3"}]
    assert unit(after, "D3") == ("p1", Ship.SUBMARINE, False)


# ---------------------------------------------------------------- Ramming Ship


def test_2_ramming_ship_wins_ties_when_it_attacks() -> None:
    state = arranged("ahab: D2 ram; nemo: D3 sub", hands={"ahab": "flag"})
    state = act(state, "ahab", "move D2 to D3 discard flag", "go")
    after, events = answer(state)
    assert combat_of(events) == (3, 3, "attack")
    assert unit(after, "D3") == ("p1", Ship.RAMMING_SHIP, True)


def test_2_ramming_ship_does_not_win_ties_as_a_support() -> None:
    state = arranged("ahab: D2 patrol, C3 ram; nemo: D3 flag", hands={"ahab": "sub fire"})
    state = act(state, "ahab", "move D2 to D3 discard sub", "support C3 discard fire", "go")
    assert combat_of(answer(state)[1]) == (5, 5, "defence")


# ---------------------------------------------------------------- Patrol Ship


def test_2_patrol_ship_adds_two_when_it_is_the_target_only() -> None:
    state = arranged("ahab: D2 frigate; nemo: D3 patrol", hands={"ahab": "sub"})
    state = act(state, "ahab", "move D2 to D3 discard sub", "go")
    assert combat_of(answer(state)[1]) == (4, 4, "defence")
    # As a support for the defence it counts 2.
    state = arranged(
        "ahab: D2 frigate; nemo: D3 sub, E3 patrol", hands={"ahab": "flag", "nemo": "ram"}
    )
    state = act(state, "ahab", "move D2 to D3 discard flag", "go")
    state = act(state, "nemo", "support E3 discard ram")
    assert combat_of(answer(state)[1]) == (4, 5, "defence")
    # As the attacker it counts 2.
    assert unit_value(Ship.PATROL_SHIP, Role.ATTACKER, 0) == 2


# ---------------------------------------------------------------- Missile Boat


def test_2_missile_boat_face_up_supports_from_two_squares_away_in_a_line() -> None:
    state = arranged("ahab: D2 frigate, B3 missile up; nemo: D3 sub", hands={"ahab": "flag ram"})
    state = act(state, "ahab", "move D2 to D3 discard flag", "support B3 discard ram", "go")
    assert combat_of(answer(state)[1]) == (6, 3, "attack")


def test_2_missile_boat_face_down_or_off_the_line_supports_only_from_next_door() -> None:
    face_down = arranged("ahab: D2 frigate, B3 missile; nemo: D3 sub", hands={"ahab": "flag ram"})
    attacking = act(face_down, "ahab", "move D2 to D3 discard flag")
    with pytest.raises(IllegalOrderError, match="must be face-up to support from there"):
        act(attacking, "ahab", "support B3 discard ram")
    diagonal = arranged("ahab: D2 frigate, C4 missile up; nemo: D3 sub", hands={"ahab": "flag ram"})
    attacking = act(diagonal, "ahab", "move D2 to D3 discard flag")
    with pytest.raises(IllegalOrderError, match="not next to the target D3"):
        act(attacking, "ahab", "support C4 discard ram")


# ---------------------------------------------------------------- Ammunition Ship


def test_2_ammunition_ship_face_up_supports_for_three_without_a_discard() -> None:
    state = arranged("ahab: D2 frigate, C3 ammo up; nemo: D3 flag", hands={"ahab": "sub ram"})
    state = act(state, "ahab", "move D2 to D3 discard sub")
    with pytest.raises(IllegalOrderError, match="without a discard"):
        act(state, "ahab", "support C3 discard ram")
    supported = act(state, "ahab", "support C3")
    assert supported.admiral("p1").hand == (Ship.RAMMING_SHIP,)
    assert GAME.codec.encode_order(GAME.rules.parse("support C3"))["discard"] is None
    _, events = answer(act(supported, "ahab", "go"))
    assert combat_of(events) == (7, 5, "attack")


def test_2_ammunition_ship_face_down_supports_for_three_with_a_discard() -> None:
    state = arranged("ahab: D2 frigate, C3 ammo; nemo: D3 flag", hands={"ahab": "sub ram"})
    state = act(state, "ahab", "move D2 to D3 discard sub")
    with pytest.raises(IllegalOrderError, match="a support costs a card"):
        act(state, "ahab", "support C3")
    state = act(state, "ahab", "support C3 discard ram", "go")
    assert combat_of(answer(state)[1]) == (7, 5, "attack")
    assert unit_value(Ship.AMMUNITION_SHIP, Role.ATTACKER, 0) == 1
