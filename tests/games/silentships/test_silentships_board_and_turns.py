"""Silent Ships rules §1 (components and board) and §3 (setup and turns)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from silentships_helpers import GAME, Table, accepted_events, act, arranged, ships, table

from bot.games.base import Given, IllegalOrderError, OrderSyntaxError, PlayerRef
from bot.games.silentships.cells import ALL_CELLS, parse_cell
from bot.games.silentships.orders import End
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Phase, TurnStep

DECKS = "deck1=frigate,salvage,ram,speed,patrol deck2=sub,missile,fire,ammo,flag"


def end_turn(state, name: str):  # type: ignore[no-untyped-def]
    """The turn player's ``end``, resolved as the host does."""
    pid = {"ahab": "p1", "nemo": "p2"}[name]
    return GAME.rules.resolve(state, [Given(pid, End(), 0.0, 0)], random.Random(0))


# ---------------------------------------------------------------- §1 components and board


def test_1_the_board_is_five_columns_by_four_rows_with_islands_a2_and_e3() -> None:
    game = table(DECKS).record()["game"]
    assert (game["cols"], game["rows"], game["islands"]) == (5, 4, ["A2", "E3"])
    assert len(ALL_CELLS) == 20
    assert str(parse_cell("e4")) == "E4"
    for off_board in ("F1", "A5", "A0"):
        with pytest.raises(OrderSyntaxError, match="not a square of the board"):
            parse_cell(off_board)


def test_1_adjacency_is_orthogonal() -> None:
    state = arranged("ahab: C2 frigate", hands={"ahab": "sub flag"})
    with pytest.raises(IllegalOrderError, match="not next to C2"):
        act(state, "ahab", "move C2 to D3 discard sub")
    moved = act(state, "ahab", "move C2 to C3 discard sub")
    assert moved.unit_at(parse_cell("C3")) is not None
    assert moved.unit_at(parse_cell("C2")) is None


def test_1_one_unit_per_square() -> None:
    state = arranged("ahab: C1 frigate, C2 ram", hands={"ahab": "sub flag"})
    with pytest.raises(IllegalOrderError, match="C1 is taken"):
        act(state, "ahab", "play sub at C1")
    with pytest.raises(IllegalOrderError, match="your own unit"):
        act(state, "ahab", "move C1 to C2 discard flag")


def test_1_the_player_who_moves_first_has_country_c1() -> None:
    firsts = set()
    for seed in range(12):
        t = Table().play(
            [f"@game silentships seed={seed}", "ahab dm: join", "nemo dm: join", "@start"]
        )
        record = t.record()
        first = record["start"]["first"]
        other = "nemo" if first == "ahab" else "ahab"
        firsts.add(first)
        assert t.player(first)["country"] == "C1"
        assert t.player(other)["country"] == "C4"
        assert (record["game"]["turn"], record["game"]["player"]) == (1, first)
    assert firsts == {"ahab", "nemo"}, "the coin is really tossed"


def test_1_each_deck_holds_one_of_each_of_the_eleven_ships() -> None:
    t = Table().play(["@game silentships seed=7", "a dm: join", "b dm: join", "@start"])
    for deck in t.record()["start"]["decks"].values():
        assert sorted(deck) == sorted(ship.value for ship in Ship)


# ---------------------------------------------------------------- §3 setup and turns


def test_3_each_player_is_dealt_three_and_the_first_turn_draws_two() -> None:
    t = table(DECKS)
    assert len(t.player("ahab")["hand"]) == 5
    assert len(t.player("nemo")["hand"]) == 3
    assert t.player("ahab")["deck"] == [
        "special_operations_craft",
        "fire_ship",
        "flag_ship",
        "submarine",
        "missile_boat",
        "ammunition_ship",
    ]


def test_3_a_unit_on_an_island_draws_a_third_card() -> None:
    on_island = arranged("ahab: A2 frigate; nemo: C4 sub", turn=2)
    drew = [e for e in end_turn(on_island, "nemo").events if e.type == "drew"]
    assert len(drew[0].data["cards"]) == 3
    ashore = arranged("ahab: B2 frigate; nemo: C4 sub", turn=2)
    drew = [e for e in end_turn(ashore, "nemo").events if e.type == "drew"]
    assert len(drew[0].data["cards"]) == 2


def test_3_ships_are_played_face_down_on_the_country_or_beside_it() -> None:
    state = arranged("", hands={"ahab": "frigate ram sub flag", "nemo": "fire"})
    for cell in ("A1", "C2", "E1", "C4"):
        with pytest.raises(IllegalOrderError, match="played on B1, C1 or D1 only"):
            act(state, "ahab", f"play frigate at {cell}")
    played = act(state, "ahab", "play frigate at B1", "play ram on C1", "play sub D1")
    assert [(str(u.cell), u.ship, u.face_up) for u in played.units] == [
        ("B1", Ship.FRIGATE, False),
        ("C1", Ship.RAMMING_SHIP, False),
        ("D1", Ship.SUBMARINE, False),
    ]
    assert played.admiral("p1").hand == (Ship.FLAG_SHIP,)
    with pytest.raises(IllegalOrderError, match="you hold no Fire Ship"):
        act(state, "ahab", "play fire at C1")
    second = arranged("", hands={"nemo": "fire"}, turn=2)
    assert act(second, "nemo", "play fire at B4").unit_at(parse_cell("B4")) is not None
    with pytest.raises(IllegalOrderError, match="B4, C4 or D4"):
        act(second, "nemo", "play fire at C1")


def test_3_a_move_discards_the_card_the_player_chooses() -> None:
    state = arranged("ahab: C1 frigate", hands={"ahab": "sub flag ram"})
    moved = act(state, "ahab", "move C1 to C2 discard flag")
    assert moved.admiral("p1").discards == (Ship.FLAG_SHIP,)
    assert moved.admiral("p1").hand == (Ship.SUBMARINE, Ship.RAMMING_SHIP)
    with pytest.raises(IllegalOrderError, match="you hold no Fire Ship"):
        act(state, "ahab", "move C1 to C2 discard fire")


def test_3_a_move_needs_a_card_to_discard() -> None:
    state = arranged("ahab: C1 frigate")
    with pytest.raises(IllegalOrderError, match="your hand is empty"):
        act(state, "ahab", "move C1 to C2 discard sub")


def test_3_a_unit_may_act_any_number_of_times_in_a_turn() -> None:
    state = arranged("ahab: C1 frigate", hands={"ahab": "sub flag ram"})
    state = act(state, "ahab", "move C1 to C2 discard sub", "move C2 to B2 discard flag")
    state = act(state, "ahab", "move B2 to A2 discard ram")
    assert [str(u.cell) for u in state.units] == ["A2"]


def test_3_players_turn_their_own_units_face_up_at_any_time_in_either_turn() -> None:
    state = arranged("ahab: C1 frigate; nemo: C4 sub")
    revealed = act(state, "nemo", "reveal C4", public=True)
    assert revealed.unit_at(parse_cell("C4")).face_up  # type: ignore[union-attr]
    assert accepted_events(state, "nemo", "reveal C4") == [
        {"type": "revealed", "player": "p2", "ship": "submarine", "cell": "C4"}
    ]
    with pytest.raises(IllegalOrderError, match="face-up already"):
        act(revealed, "nemo", "reveal C4")
    with pytest.raises(IllegalOrderError, match="you have no unit on C1"):
        act(state, "nemo", "reveal C1")


def test_3_an_empty_deck_is_reshuffled_from_the_discards() -> None:
    state = arranged("nemo: C4 sub", turn=2)
    ahab = replace(state.admiral("p1"), deck=(), discards=ships("frigate ram flag"), hand=())
    events = end_turn(state.with_admiral(ahab), "nemo")
    kinds = [e.type for e in events.events]
    assert kinds == ["reshuffled", "drew"]
    reshuffled, drew = events.events
    assert sorted(reshuffled.data["deck"]) == ["flag_ship", "frigate", "ramming_ship"]
    assert drew.data["cards"] == reshuffled.data["deck"][:2]
    after = events.state.admiral("p1")
    assert after.discards == () and len(after.deck) == 1


def test_3_with_no_discards_either_the_player_draws_fewer() -> None:
    state = arranged("nemo: C4 sub", turn=2)
    ahab = replace(state.admiral("p1"), deck=(Ship.FRIGATE,), discards=(), hand=())
    events = end_turn(state.with_admiral(ahab), "nemo").events
    assert [e.record() for e in events] == [{"type": "drew", "player": "p1", "cards": ["frigate"]}]
    empty = replace(ahab, deck=())
    events = end_turn(state.with_admiral(empty), "nemo").events
    assert [e.record() for e in events] == [{"type": "drew", "player": "p1", "cards": []}]


def test_3_sunk_ships_are_never_reshuffled() -> None:
    state = arranged("nemo: C4 sub", sank={"nemo": "speed"}, turn=2)
    ahab = replace(state.admiral("p1"), deck=(), discards=(Ship.FRIGATE,), hand=())
    events = end_turn(state.with_admiral(ahab), "nemo").events
    assert events[0].record()["deck"] == ["frigate"]
    assert events[1].record()["cards"] == ["frigate"]


def test_3_only_the_turn_player_plays_moves_swaps_and_ends() -> None:
    state = arranged("nemo: C4 sub", hands={"nemo": "frigate"})
    for text in ("play frigate at B4", "move C4 to C3 discard frigate", "end"):
        with pytest.raises(IllegalOrderError, match="it is ahab's turn"):
            act(state, "nemo", text)


def test_3_end_gives_the_turn_to_the_other_player() -> None:
    t = table(DECKS, "ahab public: #silentships end")
    game = t.record()["game"]
    assert (game["turn"], game["player"], game["step"]) == (2, "nemo", "actions")
    assert t.turn(2)["events"] == [
        {"type": "drew", "player": "nemo", "cards": ["ammunition_ship", "flag_ship"]}
    ]


def test_3_start_needs_exactly_two_players_and_takes_no_name() -> None:
    state = GAME.rules.new_game({})
    state = GAME.rules.join(state, PlayerRef("p1", "ahab"))
    with pytest.raises(IllegalOrderError, match="exactly two players"):
        GAME.rules.start(state, random.Random(0), None)
    state = GAME.rules.join(state, PlayerRef("p2", "nemo"))
    with pytest.raises(IllegalOrderError, match="without a name"):
        GAME.rules.start(state, random.Random(0), "p2")
    with pytest.raises(IllegalOrderError, match="two have joined"):
        GAME.rules.join(state, PlayerRef("p3", "moby"))
    started = GAME.rules.start(state, random.Random(0), None).state
    assert started.phase is Phase.BATTLE and started.step is TurnStep.ACTIONS
    with pytest.raises(IllegalOrderError):
        GAME.rules.join(started, PlayerRef("p3", "moby"))


def test_3_a_player_who_leaves_in_setup_may_join_again() -> None:
    state = GAME.rules.join(GAME.rules.new_game({}), PlayerRef("p1", "ahab"))
    state = GAME.rules.remove(state, "p1").state
    assert state.admirals == ()
    state = GAME.rules.join(state, PlayerRef("p1", "ahab"))
    assert [a.name for a in state.admirals] == ["ahab"]
