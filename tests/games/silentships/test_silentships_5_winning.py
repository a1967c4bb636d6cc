"""Silent Ships rules §5: how a game is won (it never ends in a draw)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from silentships_helpers import GAME, act, arranged, table

from bot.games.base import Channel, Given, IllegalOrderError, Outcome, Resolution
from bot.games.silentships.orders import End
from bot.games.silentships.state import Phase, SilentShipsState, Status


def end(state: SilentShipsState, pid: str) -> Resolution[SilentShipsState]:
    return GAME.rules.resolve(state, [Given(pid, End(), 0.0, 0)], random.Random(0))


def finished(resolution: Resolution[SilentShipsState]) -> dict[str, Any]:
    event = resolution.events[-1].record()
    assert event["type"] == "finished"
    return event


def test_5_a_player_who_ends_their_turn_with_an_enemy_unit_on_their_country_loses() -> None:
    state = arranged("ahab: C2 frigate; nemo: C1 sub")
    resolution = end(state, "p1")
    assert finished(resolution) == {
        "type": "finished",
        "winners": ["p2"],
        "draw": False,
        "reason": "country",
        "sank": {"p1": 0, "p2": 0},
    }
    assert resolution.orders == ({"player": "p1", "action": "end"},)
    assert GAME.rules.outcome(resolution.state) == Outcome(("p2",), draw=False)
    assert resolution.state.admiral("p1").status is Status.ELIMINATED


def test_5_the_country_rule_holds_when_the_move_time_runs_out() -> None:
    state = arranged("nemo: C1 sub")
    resolution = GAME.rules.expire(state, "move:1", [], random.Random(0))
    assert resolution.orders == ({"player": "p1", "action": "end", "timeout": True},)
    assert finished(resolution)["reason"] == "country"


def test_5_only_the_turn_players_own_country_counts_at_the_end_of_their_turn() -> None:
    state = arranged("ahab: C4 frigate")
    after = end(state, "p1").state
    assert after.phase is Phase.BATTLE and after.turn == 2
    assert finished(end(after, "p2"))["winners"] == ["p1"]


def test_5_an_offer_stands_until_the_end_of_the_turn_it_was_made_in() -> None:
    state = arranged("ahab: C2 frigate; nemo: C3 sub")
    offered = act(state, "nemo", "offer draw", public=True)
    assert offered.offer == "p2"
    with pytest.raises(IllegalOrderError, match="offer stands already"):
        act(offered, "ahab", "offer draw")
    with pytest.raises(IllegalOrderError, match="no offer to accept"):
        act(offered, "nemo", "accept")
    next_turn = end(offered, "p1").state
    assert next_turn.offer is None
    with pytest.raises(IllegalOrderError, match="no offer to accept"):
        act(next_turn, "ahab", "accept")


def test_5_an_accepted_offer_ends_the_game_at_once_even_during_an_attack() -> None:
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "ram"}, sank={"ahab": "flag"})
    state = act(state, "ahab", "move D2 to D3 discard ram", "offer draw", "go")
    accepted = GAME.rules.accept(
        state, "p2", GAME.rules.parse("accept draw"), Channel.PUBLIC, random.Random(0)
    )
    assert accepted.orders == ({"player": "p2", "action": "accept"},)
    assert [e.record() for e in accepted.events] == [
        {
            "type": "finished",
            "winners": ["p1"],
            "draw": False,
            "reason": "agreed",
            "sank": {"p1": 1, "p2": 0},
        }
    ]
    assert accepted.state.attack is None and accepted.state.step is None
    assert GAME.rules.timers(accepted.state) == ()


def test_5_after_max_turns_the_player_who_sank_more_wins() -> None:
    state = arranged("ahab: B2 frigate", sank={"ahab": "ram"}, turn=2, options="max_turns=2")
    assert finished(end(state, "p2")) == {
        "type": "finished",
        "winners": ["p1"],
        "draw": False,
        "reason": "max_turns",
        "sank": {"p1": 1, "p2": 0},
    }
    early = replace(state, turn=1)
    assert end(early, "p1").state.phase is Phase.BATTLE


def test_5_the_second_player_wins_ties() -> None:
    state = arranged(
        "ahab: B2 frigate", sank={"ahab": "ram", "nemo": "sub"}, turn=2, options="max_turns=2"
    )
    assert finished(end(state, "p2"))["winners"] == ["p2"]
    t = table("max_turns=2", "ahab dm: end", "nemo dm: end")
    event = t.events("finished")[-1]
    assert (event["winners"], event["reason"]) == (["nemo"], "max_turns")
    assert t.turn(2)["orders"] == [{"player": "nemo", "action": "end"}]


def test_5_the_country_rule_comes_before_max_turns() -> None:
    state = arranged("ahab: C4 frigate", sank={"nemo": "sub"}, turn=2, options="max_turns=2")
    event = finished(end(state, "p2"))
    assert (event["winners"], event["reason"]) == (["p1"], "country")


def test_5_a_player_who_leaves_loses() -> None:
    state = arranged("ahab: B2 frigate; nemo: C3 sub", sank={"nemo": "ram"})
    resolution = GAME.rules.remove(state, "p2")
    assert resolution.orders == ({"player": "p2", "action": "leave"},)
    event = finished(resolution)
    assert (event["winners"], event["reason"]) == (["p1"], "left")
    assert resolution.state.admiral("p2").status is Status.LEFT
    assert resolution.state.admiral("p1").status is Status.ALIVE


def test_5_the_host_ending_the_game_decides_by_the_ships_sunk() -> None:
    state = arranged("ahab: B2 frigate", sank={"ahab": "ram"})
    event = finished(GAME.rules.finish(state))
    assert (event["winners"], event["reason"]) == (["p1"], "ended")
    in_setup = GAME.rules.finish(GAME.rules.new_game({}))
    assert in_setup.state.phase is Phase.FINISHED and in_setup.events == ()


def test_5_orders_after_the_end_are_refused() -> None:
    over = end(arranged("nemo: C1 sub"), "p1").state
    for name, text in (("ahab", "end"), ("nemo", "reveal C1"), ("nemo", "offer draw")):
        with pytest.raises(IllegalOrderError, match="this game is over"):
            act(over, name, text)
    assert GAME.rules.timers(over) == () and GAME.rules.to_act(over) == frozenset()
