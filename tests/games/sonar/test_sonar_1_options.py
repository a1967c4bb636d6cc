"""Rules §1, the options: their values, canonical texts and refusals; and what each one
changes in play (size, ships, one_shot, hide_hits, move_time, on_timeout, placement)."""

from __future__ import annotations

import pytest
from sonar_helpers import Table, given_game, turn_of

from bot.games.base import Channel, OptionError
from bot.games.sonar import SONAR
from bot.games.sonar.views import PrivateView, PublicView

DEFAULTS = {
    "size": "16",
    "ships": "auto",
    "one_shot": "off",
    "hide_hits": "off",
    "move_time": "1d",
    "on_timeout": "random",
    "placement": "random",
}


def test_1_defaults_in_canonical_text() -> None:
    assert SONAR.rules.options(SONAR.rules.new_game({})) == DEFAULTS


@pytest.mark.parametrize(
    ("given", "key", "canonical"),
    [
        ({"size": "24"}, "size", "24"),
        ({"size": " 4 "}, "size", "4"),
        ({"ships": "16"}, "ships", "16"),
        ({"ships": "auto"}, "ships", "auto"),
        ({"one_shot": "YES"}, "one_shot", "on"),
        ({"one_shot": "true"}, "one_shot", "on"),
        ({"hide_hits": "1"}, "hide_hits", "on"),
        ({"hide_hits": "no"}, "hide_hits", "off"),
        ({"move_time": "90m"}, "move_time", "1h30m"),
        ({"move_time": "8H"}, "move_time", "8h"),
        ({"move_time": "36h"}, "move_time", "1d12h"),
        ({"on_timeout": "Skip"}, "on_timeout", "skip"),
        ({"placement": "given", "ships": "3"}, "placement", "given"),
    ],
)
def test_1_option_values_are_kept_in_canonical_text(
    given: dict[str, str], key: str, canonical: str
) -> None:
    assert SONAR.rules.options(SONAR.rules.new_game(given))[key] == canonical


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"size": "5"}, "even number from 4 to 24"),
        ({"size": "26"}, "even number from 4 to 24"),
        ({"size": "2"}, "even number from 4 to 24"),
        ({"size": "big"}, "even number from 4 to 24"),
        ({"ships": "0"}, "from 1 to 16"),
        ({"ships": "17"}, "from 1 to 16"),
        ({"one_shot": "maybe"}, "on or off"),
        ({"hide_hits": "2"}, "on or off"),
        ({"move_time": "soon"}, "duration such as"),
        ({"on_timeout": "pass"}, "random or skip"),
        ({"placement": "mine"}, "random or given"),
        ({"placement": "given"}, "needs ships=N"),
        ({"speed": "3"}, "size, ships, one_shot, hide_hits, move_time, on_timeout, placement"),
    ],
)
def test_1_bad_options_are_refused_naming_the_range_or_the_known_keys(
    given: dict[str, str], says: str
) -> None:
    with pytest.raises(OptionError, match=says):
        SONAR.rules.new_game(given)


def test_1_ships_shows_auto_until_the_start_then_the_number() -> None:
    table = Table({})
    for name in ("a", "b", "c"):
        table.say(name, "join", Channel.PRIVATE)
    assert table.record()["game"]["options"]["ships"] == "auto"
    table.line("@start")
    assert table.record()["game"]["options"]["ships"] == "4"
    assert SONAR.rules.options(table.state)["ships"] == "4"


def test_1_size_sets_n_rows_and_2n_columns() -> None:
    record = Table({"size": "10"}).record()
    assert (record["game"]["rows"], record["game"]["cols"]) == (10, 20)


def test_1_one_shot_allows_one_charge_a_turn() -> None:
    table = given_game({"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"}, one_shot="on")
    table.line("a public: #sonar p1")
    table.line("b public: #sonar p2, p3")
    assert "at most 1 charge" in table.refusals[-1].message
    table.line("b public: #sonar p2")
    assert len(table.record()["turns"]) == 2


def test_1_hide_hits_shows_a_hit_only_on_the_turn_it_happens() -> None:
    fleets = {"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"}
    for hide, later in (("off", True), ("on", False)):
        table = given_game(fleets, hide_hits=hide)
        table.line("a public: #sonar i5")  # b's 2-sub bow, after one move
        public = SONAR.views.view(table.state, None)
        assert isinstance(public, PublicView)
        assert [str(c) for c in public.board.hits] == ["i5"]
        table.line("b public: #sonar p1, p2")
        public = SONAR.views.view(table.state, None)
        assert isinstance(public, PublicView)
        assert ([str(c) for c in public.board.hits] == ["j5"]) is later
        # The owner always sees their own hit, hide_hits or not.
        private = SONAR.views.view(table.state, "p2")
        assert isinstance(private, PrivateView)
        assert [str(c) for c in private.subs[0].hits] == ["j5"]


def test_1_hide_hits_changes_only_what_is_shown_never_the_record() -> None:
    fleets = {"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"}
    records = []
    for hide in ("off", "on"):
        table = given_game(fleets, hide_hits=hide)
        table.play(["a public: #sonar i5", "b public: #sonar p1, p2", "a public: #sonar k5, j5"])
        record = table.record()
        del record["game"]["options"]["hide_hits"]
        records.append(record)
    assert records[0] == records[1]


def test_1_move_time_is_the_turn_timer() -> None:
    table = given_game({"a": "2 a1 ur", "b": "2 h5 ur"}, move_time="45m")
    (timer,) = SONAR.rules.timers(table.state)
    assert (timer.key, timer.seconds) == ("turn:1", 45 * 60)
    assert table.deadlines == {"turn:1": 45 * 60.0}


def test_1_on_timeout_random_fires_every_allowed_charge_at_random() -> None:
    table = given_game({"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"}, move_time="1h")
    table.line("@close")
    order = turn_of(table.record(), 1)["orders"][0]
    assert order["random"] and order["timeout"] and len(order["cells"]) == 1


def test_1_on_timeout_skip_fires_nothing_but_the_subs_still_move() -> None:
    table = given_game({"a": "2 a1 ur", "b": "2 h5 ur"}, on_timeout="skip")
    table.line("@close")
    record = table.record()
    assert turn_of(record, 1) == {
        "number": 1,
        "player": "a",
        "orders": [{"player": "a", "action": "skip"}],
        "events": [],
    }
    assert record["players"][0]["subs"][0]["cells"] == ["b1", "a1"]


def test_1_placement_given_takes_fleets_and_random_refuses_them() -> None:
    given = given_game({"a": "2 a1 ur", "b": "2 h5 ur"})
    assert given.record()["start"]["players"][0]["subs"][0]["cells"] == ["a1", "p25"]
    table = Table({"ships": "1"})
    table.say("a", "join", Channel.PRIVATE)
    table.say("a", "2 a1 ur", Channel.PRIVATE)
    assert "placement=random" in table.refusals[0].message
