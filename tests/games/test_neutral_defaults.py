"""The neutral defaults a game leans on so that it writes only what differs (issue 41):
seats at a table, seats that move in turn, orders read from the declared verbs, the codec
of frozen dataclasses and the record's turns. Tug (``tests/tug``) is built on all of them;
each is checked here on its own terms."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace

import pytest

from bot.games.alternating import AlternatingRules
from bot.games.base import (
    Accepted,
    Arg,
    ArgKind,
    GamePhase,
    IllegalOrderError,
    OrderSyntaxError,
    PlayerRef,
    Step,
    Verb,
)
from bot.games.record import turns_by_number
from bot.games.seating import Player
from bot.games.verb_orders import VerbOrder, parse_verb
from tests.tug.game import TUG, TugOptions, TugState

STEPS = Arg("steps", ArgKind.NUMBER, "1 to 3", minimum=1, maximum=3)
COLOUR = Arg("colour", ArgKind.CHOICE, "a colour", choices=("red", "blue"))
VERBS = (
    Verb("pull", "pull 1 to 3", private=False, args=(STEPS,)),
    Verb("dare", "dare", private=False),
    Verb("flag", "raise a flag", private=False, args=(COLOUR,)),
)


def test_a_verbs_parser_takes_exactly_what_its_arguments_offer() -> None:
    assert parse_verb(VERBS, "PULL 3") == VerbOrder("pull", ("3",))
    assert parse_verb(VERBS, "dare") == VerbOrder("dare")
    assert parse_verb(VERBS, "flag blue") == VerbOrder("flag", ("blue",))
    for text in ("pull 0", "pull 4", "pull 03", "pull", "dare now", "flag green", "shove 2"):
        with pytest.raises(OrderSyntaxError) as refused:
            parse_verb(VERBS, text)
        assert refused.value.message == "expected `pull 1` to `pull 3`, `dare` or `flag <colour>`"


def test_tugs_parser_is_its_declared_verbs() -> None:
    for verb in TUG.verbs:
        for arg in verb.args:
            low, high = arg.minimum, arg.maximum
            assert arg.kind is ArgKind.NUMBER and low is not None and high is not None
            assert TUG.rules.parse(f"{verb.name} {low}") == VerbOrder(verb.name, (str(low),))
            assert TUG.rules.parse(f"{verb.name} {high}") == VerbOrder(verb.name, (str(high),))
            with pytest.raises(OrderSyntaxError):
                TUG.rules.parse(f"{verb.name} {high + 1}")


def test_a_frozen_state_comes_back_from_json_as_it_was() -> None:
    players = (Player("p1", "alice", "north"), Player("p2", "bob", "south"))
    state = TugState(TugOptions(target=2), players, GamePhase.RUNNING, 3, "south", -1, "north")
    stored = json.loads(json.dumps(TUG.codec.encode_state(state)))
    assert TUG.codec.decode_state(stored) == state
    order = VerbOrder("pull", ("2",))
    assert TUG.codec.decode_order(json.loads(json.dumps(TUG.codec.encode_order(order)))) == order


@dataclass(frozen=True)
class Clocks:
    move_time: int = 60
    response_time: int = 10

    def text(self) -> dict[str, str]:
        return {}


@dataclass(frozen=True)
class Round:
    options: Clocks
    players: tuple[Player, ...] = ()
    phase: GamePhase = GamePhase.SETUP
    turn: int = 0
    first: str = "a"
    asked: str | None = None
    winners: tuple[str, ...] = ()
    draw: bool = False


class ThreeSeats(AlternatingRules[Round, VerbOrder]):
    seats = ("a", "b", "c")

    def unanswered(self, state: Round, seat: str) -> Accepted[Round, VerbOrder]:
        return Accepted(replace(state, asked=None), None, ())


def seated_round(rules: ThreeSeats, *names: str) -> Round:
    state = Round(Clocks())
    for name in names:
        state = rules.join(state, PlayerRef(name, name))
    return state


def test_seats_are_taken_in_turn_and_joining_closes_at_the_start() -> None:
    rules = ThreeSeats()
    state = seated_round(rules, "ann", "ben", "cat", "dan")
    assert [p.seat for p in state.players] == ["a", "b", "c", "a"]
    with pytest.raises(IllegalOrderError, match="already in"):
        rules.join(state, PlayerRef("ann", "ann"))
    with pytest.raises(IllegalOrderError, match="a player on every seat"):
        rules.start(seated_round(rules, "ann", "ben"), random.Random(0), None)
    started = rules.start(state, random.Random(0), "ben").state
    assert (started.phase, started.first) == (GamePhase.RUNNING, "b")
    with pytest.raises(IllegalOrderError, match="joining is closed"):
        rules.join(started, PlayerRef("eve", "eve"))
    with pytest.raises(IllegalOrderError, match="stay to its end"):
        rules.remove(started, "ann")


def test_seats_move_in_turn_and_a_question_holds_the_movers_clock() -> None:
    rules = ThreeSeats()
    state = rules.start(seated_round(rules, "ann", "ben", "cat"), random.Random(0), "ben").state
    movers = [rules.mover(replace(state, turn=turn)) for turn in (1, 2, 3, 4)]
    assert movers == ["b", "c", "a", "b"]
    assert rules.to_act(state) == {"ben"}
    asked = replace(state, asked="c")
    move, answer = rules.timers(asked)
    assert (move.key, move.held, answer.key, answer.seconds) == ("move:1", True, "answer:1", 10)
    assert rules.to_act(asked) == {"cat"}
    assert rules.expire(asked, "answer:1", [], random.Random(0)).state.asked is None
    passed = rules.expire(state, "move:1", [], random.Random(0))
    assert passed.state.turn == 2 and passed.events[0].record() == {"type": "timeout", "seat": "b"}


def test_the_hosts_end_is_a_draw_and_the_standings_put_the_winners_first() -> None:
    rules = ThreeSeats()
    state = rules.start(seated_round(rules, "ann", "ben", "cat"), random.Random(0), None).state
    ended = rules.finish(replace(state, asked="b")).state
    assert (ended.winners, ended.draw, ended.asked) == (("ann", "ben", "cat"), True, None)
    won = replace(state, phase=GamePhase.FINISHED, winners=("cat",))
    assert [(s.player, s.place, s.figures) for s in rules.standings(won, [])] == [
        ("cat", 1, ("seat c",)),
        ("ann", 2, ("seat a",)),
        ("ben", 2, ("seat b",)),
    ]
    assert rules.outcome(won) is not None and rules.outcome(state) is None


def test_the_records_turns_gather_the_steps_of_each_turn_with_names() -> None:
    history = [
        Step(0, (), ({"type": "began"},), cause="start"),
        Step(2, ({"player": "p2"},), ({"type": "x", "by": "p2", "winners": ["p2", "p1"]},)),
        Step(1, ({"player": "p1"},), ()),
        Step(2, (), ({"type": "y", "by": "p9"},)),
    ]
    names = {"p1": "zed", "p2": "amy"}
    assert turns_by_number(history, names, keys=("player", "by")) == [
        {"number": 1, "orders": [{"player": "zed"}], "events": []},
        {
            "number": 2,
            "orders": [{"player": "amy"}],
            "events": [
                {"type": "x", "by": "amy", "winners": ["amy", "zed"]},
                {"type": "y", "by": "p9"},
            ],
        },
    ]
