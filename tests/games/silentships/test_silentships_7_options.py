"""Silent Ships rules §7: the options, their canonical text, their refusals, and what
the move time does when it runs out in each step of a turn."""

from __future__ import annotations

import random

import pytest
from silentships_helpers import GAME, act, arranged, table

from bot.games.base import Channel, OptionError
from bot.games.silentships.cells import parse_cell
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Phase, TurnStep

ALL_IDS = [ship.value for ship in Ship]


def test_7_every_option_has_a_default_in_canonical_text() -> None:
    assert GAME.rules.options(GAME.rules.new_game({})) == {
        "move_time": "1d",
        "response_time": "10m",
        "max_turns": "60",
        "first": "coin",
        "deck1": "shuffled",
        "deck2": "shuffled",
    }
    assert [arg.name for arg in GAME.option_args] == list(
        GAME.rules.options(GAME.rules.new_game({}))
    )


def test_7_durations_are_written_in_the_hosts_form() -> None:
    options = GAME.rules.options(GAME.rules.new_game({"move_time": "90m", "response_time": "1d"}))
    assert (options["move_time"], options["response_time"]) == ("1h30m", "1d")
    for bad in ("0m", "soon", "-5m"):
        with pytest.raises(OptionError, match="move_time"):
            GAME.rules.new_game({"move_time": bad})


def test_7_max_turns_runs_from_2_to_999() -> None:
    assert GAME.rules.options(GAME.rules.new_game({"max_turns": "2"}))["max_turns"] == "2"
    assert GAME.rules.options(GAME.rules.new_game({"max_turns": "999"}))["max_turns"] == "999"
    for bad in ("1", "1000", "ten", ""):
        with pytest.raises(OptionError, match="from 2 to 999"):
            GAME.rules.new_game({"max_turns": bad})


def test_7_first_is_a_coin_toss_or_the_first_to_join() -> None:
    assert GAME.rules.options(GAME.rules.new_game({"first": "JOINED"}))["first"] == "joined"
    with pytest.raises(OptionError, match=r"coin .* or joined"):
        GAME.rules.new_game({"first": "me"})
    for seed in range(6):
        t = table(f"first=joined seed={seed}", players=("zed", "amy"))
        assert t.record()["start"]["first"] == "zed"


def test_7_a_listed_deck_has_the_named_ships_on_top_and_the_rest_in_ship_order() -> None:
    options = GAME.rules.options(
        GAME.rules.new_game({"deck1": "flag,ram", "deck2": "Flag Ship,special_operations_craft"})
    )
    assert options["deck1"].split(",") == [
        "flag_ship",
        "ramming_ship",
        *[ship for ship in ALL_IDS if ship not in ("flag_ship", "ramming_ship")],
    ]
    assert options["deck2"].split(",")[:3] == [
        "flag_ship",
        "special_operations_craft",
        "speed_boat",
    ]
    t = table("deck1=flag,ram deck2=sub")
    assert t.record()["start"]["decks"]["ahab"] == options["deck1"].split(",")
    assert t.record()["start"]["decks"]["nemo"][0] == "submarine"


def test_7_unlisted_decks_are_shuffled_with_the_seed() -> None:
    one = table("seed=3").record()["start"]["decks"]
    two = table("seed=3").record()["start"]["decks"]
    other = table("seed=4").record()["start"]["decks"]
    assert one == two
    assert one != other
    assert all(sorted(deck) == sorted(ALL_IDS) for deck in one.values())


def test_7_unknown_or_repeated_ships_are_refused() -> None:
    with pytest.raises(OptionError, match="'yacht' is not a ship"):
        GAME.rules.new_game({"deck1": "flag,yacht"})
    with pytest.raises(OptionError, match="listed twice"):
        GAME.rules.new_game({"deck2": "flag,flag_ship"})
    with pytest.raises(OptionError, match="shuffled or ships"):
        GAME.rules.new_game({"deck1": "flag,,ram"})


def test_7_unknown_keys_are_refused_naming_the_known_ones() -> None:
    with pytest.raises(OptionError) as refused:
        GAME.rules.new_game({"turn": "8h"})
    for key in ("move_time", "response_time", "max_turns", "first", "deck1", "deck2"):
        assert key in refused.value.message


def test_7_the_move_time_running_out_ends_the_turn() -> None:
    t = table("move_time=2h", "ahab dm: play frigate at C1", "@close")
    assert t.turn(1)["orders"][-1] == {"player": "ahab", "action": "end", "timeout": True}
    assert (t.turn(2)["began"], t.record()["game"]["deadline"]) == (
        "2026-01-01T02:00:00Z",
        "2026-01-01T04:00:00Z",
    )


def test_7_the_move_time_running_out_during_supports_sends_the_attack_then_ends_the_turn() -> None:
    state = arranged("ahab: D2 frigate, C3 ram; nemo: D3 sub", hands={"ahab": "flag fire"})
    state = act(state, "ahab", "move D2 to D3 discard flag", "support C3 discard fire")
    resolution = GAME.rules.expire(state, "move:1", [], random.Random(0))
    assert resolution.orders == ({"player": "p1", "action": "go", "timeout": True},)
    answering = resolution.state
    assert answering.step is TurnStep.RESPONSE
    assert [(t.key, t.held) for t in GAME.rules.timers(answering)] == [("response:1", False)]
    assert resolution.notices[0].to == "p2" and resolution.notices[0].choices
    after = GAME.rules.accept(
        answering, "p2", GAME.rules.parse("pass"), Channel.PRIVATE, random.Random(0)
    )
    assert after.orders == (
        {"player": "p2", "action": "pass"},
        {"player": "p1", "action": "end", "timeout": True},
    )
    assert [e.type for e in after.events][-1] == "drew"
    assert (after.state.turn, after.state.to_move) == (2, "p2")


def test_7_the_move_time_running_out_in_step_retreat_takes_the_first_free_square() -> None:
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "flag", "nemo": "fire"})
    state = act(state, "ahab", "move D2 to D3 discard flag", "go")
    state = act(state, "nemo", "retreat discard fire")
    assert state.step is TurnStep.RETREAT
    resolution = GAME.rules.expire(state, "move:1", [], random.Random(0))
    assert resolution.orders == (
        {"player": "p1", "action": "retreat_to", "cell": "C3", "timeout": True},
        {"player": "p1", "action": "end", "timeout": True},
    )
    assert resolution.state.unit_at(parse_cell("C3")).ship is Ship.SUBMARINE  # type: ignore[union-attr]
    assert resolution.state.turn == 2


def test_7_a_retreat_after_the_move_time_ran_out_goes_to_the_first_free_square_at_once() -> None:
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "flag", "nemo": "fire"})
    state = act(state, "ahab", "move D2 to D3 discard flag")
    state = GAME.rules.expire(state, "move:1", [], random.Random(0)).state
    after = GAME.rules.accept(
        state, "p2", GAME.rules.parse("retreat discard fire"), Channel.PRIVATE, random.Random(0)
    )
    assert after.orders == (
        {"player": "p2", "action": "retreat", "discard": "fire_ship"},
        {"player": "p1", "action": "retreat_to", "cell": "C3", "timeout": True},
        {"player": "p1", "action": "end", "timeout": True},
    )


def test_7_the_response_time_running_out_is_a_pass() -> None:
    state = arranged(
        "ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "flag"}, options="response_time=30m"
    )
    state = act(state, "ahab", "move D2 to D3 discard flag", "go")
    assert GAME.rules.timers(state)[1].seconds == 1800
    resolution = GAME.rules.expire(state, "response:1", [], random.Random(0))
    assert resolution.orders == ({"player": "p2", "action": "pass", "timeout": True},)
    assert any(e.type == "combat" for e in resolution.events)
    assert resolution.state.step is TurnStep.ACTIONS


def test_7_a_timer_no_longer_running_changes_nothing() -> None:
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "flag"})
    answering = act(state, "ahab", "move D2 to D3 discard flag", "go")
    for stale in ("move:1", "move:7", "response:2", "evade:1"):
        resolution = GAME.rules.expire(answering, stale, [], random.Random(0))
        assert resolution.state is answering and resolution.events == ()
    assert GAME.rules.expire(GAME.rules.new_game({}), "move:1", [], random.Random(0)).events == ()
    assert GAME.rules.new_game({}).phase is Phase.SETUP
