"""Sonar behind the Game protocol: its declared verbs and options, the texts it gives
back parse again, codecs round-trip, and every word the host posts is written."""

from __future__ import annotations

import json
import random

import pytest
from sonar_helpers import Table, given_game

from bot.games.base import ArgKind, Channel, Event, Game, OrderSyntaxError, PlayerRef
from bot.games.sonar import SONAR, AtRandom, Fleet, Shots, SonarState
from bot.games.sonar.options import KNOWN_KEYS
from bot.games.sonar.orders import Order


def test_the_game_object_meets_the_protocol() -> None:
    game: Game[SonarState, Order] = SONAR  # mypy checks that the facade meets the protocol
    assert (game.name, game.tag, game.title, game.simultaneous) == (
        "sonar",
        "#sonar",
        "Sonar",
        False,
    )


def test_verbs_follow_the_contracts_table() -> None:
    verbs = {verb.name: verb for verb in SONAR.verbs}
    assert set(verbs) == {"shoot", "random", "fleet", "withdraw"}
    assert (verbs["shoot"].private, verbs["random"].private) == (False, False)
    assert (verbs["fleet"].private, verbs["withdraw"].private) == (True, True)
    assert verbs["shoot"].args[0].kind is ArgKind.CELLS


@pytest.mark.parametrize(
    ("verb", "values", "order"),
    [
        ("shoot", ["f11, a9"], Shots),
        ("shoot", ["f11"], Shots),
        ("random", [], AtRandom),
        ("fleet", ["2 n19 r, 3 a3 ur"], Fleet),
        ("withdraw", [], AtRandom),
    ],
)
def test_verb_texts_parse_back(verb: str, values: list[str], order: type) -> None:
    (found,) = [v for v in SONAR.verbs if v.name == verb]
    assert isinstance(SONAR.rules.parse(found.text(values)), order)


def test_option_args_are_the_options() -> None:
    assert tuple(arg.name for arg in SONAR.option_args) == KNOWN_KEYS
    assert all(not arg.required for arg in SONAR.option_args)


@pytest.mark.parametrize(
    "text", ["f11, a9 g24", "F11", "random", "2 n19 r\n3 a3 UR", "2 n19 right; 3 a3 up-right"]
)
def test_orders_describe_parse_and_codec_round_trip(text: str) -> None:
    from bot.games.sonar.orders import describe_order

    order: Order = SONAR.rules.parse(text)
    assert SONAR.rules.parse(describe_order(order)) == order
    encoded = SONAR.codec.encode_order(order)
    assert SONAR.codec.decode_order(json.loads(json.dumps(encoded))) == order


def test_a_bad_order_record_is_refused() -> None:
    with pytest.raises(OrderSyntaxError):
        SONAR.codec.decode_order({"action": "torpedo"})


def test_the_state_codec_round_trips_in_setup_and_battle() -> None:
    state = SONAR.rules.join(SONAR.rules.new_game({"size": "10"}), PlayerRef("p1", "a"))
    assert (
        SONAR.codec.decode_state(json.loads(json.dumps(SONAR.codec.encode_state(state)))) == state
    )
    table = given_game({"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"}, hide_hits="on")
    table.play(["a public: #sonar i5", "b dm: random", "b dm: leave"])
    data = json.loads(json.dumps(SONAR.codec.encode_state(table.state)))
    assert SONAR.codec.decode_state(data) == table.state


def test_every_word_the_host_posts_is_written() -> None:
    table = given_game({"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"})
    state, names = table.state, {"p1": "a", "p2": "b"}
    words = [
        SONAR.words.opening(state),
        SONAR.words.welcome(state, "p1", 3),
        SONAR.words.beginning(state, names),
        SONAR.words.hint(state),
        SONAR.words.report_title(3),
        SONAR.words.quiet_report(),
        SONAR.words.board_heading("#sonar game 3", 0),
        SONAR.words.board_heading("#sonar game 3", 2),
        SONAR.words.reminder(state, "2 h"),
        SONAR.words.replay_caption(),
        SONAR.words.example(),
        SONAR.words.player_word(1),
        SONAR.words.player_word(2),
        SONAR.words.help_text(),
        SONAR.words.rules_text(),
        SONAR.words.acknowledge(3, SONAR.rules.parse("f11"), None),
        SONAR.words.describe(SONAR.rules.parse("2 a1 ur")),
    ]
    assert all(isinstance(word, str) and word.strip() for word in words)
    assert SONAR.words.result(state, names) == ""
    assert "a moves first" in SONAR.words.beginning(state, names)
    assert SONAR.words.example() == "#sonar f11, a9"
    assert isinstance(SONAR.rules.parse(SONAR.words.example().removeprefix("#sonar ")), Shots)


def test_reports_tell_the_public_only_public_facts() -> None:
    table = given_game({"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"})
    table.line("a public: #sonar i5")
    events = [e for e in _events(table)]
    public = " ".join(SONAR.words.public_report(events, {"p1": "a", "p2": "b"}))
    assert public == "a fired at i5 (hit!)."
    assert SONAR.words.private_report(events, "p2") == ["Your sub 1 was hit at i5."]
    assert SONAR.words.private_report(events, "p1") == []


def test_crew_is_the_player_alone() -> None:
    table = given_game({"a": "2 a1 ur", "b": "2 h5 ur"})
    assert SONAR.rules.crew(table.state, "p2") == ("p2",)


def test_to_act_is_the_player_to_move() -> None:
    table = given_game({"a": "2 a1 ur", "b": "2 h5 ur"})
    assert SONAR.rules.to_act(table.state) == frozenset({"p1"})
    accepted = SONAR.rules.accept(
        table.state, "p1", SONAR.rules.parse("l20"), Channel.PUBLIC, random.Random(0)
    )
    assert accepted.resolve_now


def _events(table: Table) -> list[Event]:
    step = table.history[-1]
    return [Event(e["type"], {k: v for k, v in e.items() if k != "type"}) for e in step.events]
