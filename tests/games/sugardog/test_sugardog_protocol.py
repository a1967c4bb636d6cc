"""Sugar Dog behind the host's protocol (bot/games/base.py): verbs, parsing, codecs,
timers, seats, views and the words the host posts."""

from __future__ import annotations

import json
import random

import pytest
from sugardog_helpers import play, setup_game

from bot.games.base import (
    Channel,
    Given,
    IllegalOrderError,
    OrderSyntaxError,
    PlayerRef,
)
from bot.games.sugardog import (
    SUGARDOG,
    Cruise,
    FireTorpedo,
    LayMine,
    Order,
    Ping,
    ShowLog,
    SilentRunning,
    StartingCell,
)
from bot.games.sugardog.board import Cell, Direction
from bot.games.sugardog.views import PrivateView, PublicView, RevealedView

UP, DOWN, LEFT, RIGHT = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


# ----------------------------------------------------------------------------- verbs


def test_the_verbs_are_the_contracts_orders_all_private() -> None:
    assert [v.name for v in SUGARDOG.verbs] == [
        "cell",
        "silent",
        "cruise",
        "ping",
        "torpedo",
        "mine",
        "log",
    ]
    assert all(verb.private for verb in SUGARDOG.verbs)
    assert [a.name for a in SUGARDOG.option_args] == ["move_time", "max_players", "seed"]


@pytest.mark.parametrize(
    ("verb", "values", "order"),
    [
        ("cell", ["C4"], StartingCell(Cell(2, 3))),
        ("silent", [""], SilentRunning(None)),
        ("silent", ["left"], SilentRunning(LEFT)),
        ("cruise", ["up", "right"], Cruise(UP, RIGHT)),
        ("ping", [], Ping()),
        ("torpedo", ["down"], FireTorpedo(DOWN)),
        ("mine", [], LayMine()),
        ("log", [], ShowLog()),
    ],
)
def test_a_verbs_text_is_read_back_by_the_parser(
    verb: str, values: list[str], order: object
) -> None:
    (found,) = [v for v in SUGARDOG.verbs if v.name == verb]
    assert SUGARDOG.rules.parse(found.text(values)) == order


def test_every_choice_of_every_verb_parses() -> None:
    for verb in SUGARDOG.verbs:
        for arg in verb.args:
            for choice in arg.choices:
                values = [
                    choice if a is arg else (a.choices[0] if a.choices else "C4") for a in verb.args
                ]
                SUGARDOG.rules.parse(verb.text(values))


# ----------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("Cruise U, L", Cruise(UP, LEFT)),
        ("cruise up,left", Cruise(UP, LEFT)),
        ("#sugardog silent UP", SilentRunning(UP)),
        ("@hostbot torpedo d", FireTorpedo(DOWN)),
        ("  PING ", Ping()),
        ("silent running r", SilentRunning(RIGHT)),
        ("c-4", StartingCell(Cell(2, 3))),
        ("Start c 4", StartingCell(Cell(2, 3))),
        ("aa10", StartingCell(Cell(26, 9))),
    ],
)
def test_words_are_case_insensitive_and_spaces_and_commas_are_free(
    text: str, order: object
) -> None:
    assert SUGARDOG.rules.parse(text) == order


@pytest.mark.parametrize(
    "text", ["", "fire", "silent sideways", "silent up up", "ping now", "torpedo north", "x" * 600]
)
def test_text_that_is_no_order_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(OrderSyntaxError) as refusal:
        SUGARDOG.rules.parse(text)
    assert "`" in refusal.value.message


@pytest.mark.parametrize(
    "order",
    [
        StartingCell(Cell(27, 11)),
        SilentRunning(None),
        SilentRunning(UP),
        Cruise(LEFT, DOWN),
        Ping(),
        FireTorpedo(RIGHT),
        LayMine(),
        ShowLog(),
    ],
)
def test_describe_gives_canonical_text_and_the_order_codec_round_trips(order: Order) -> None:
    assert SUGARDOG.rules.parse(SUGARDOG.words.describe(order)) == order
    data = SUGARDOG.codec.encode_order(order)
    assert SUGARDOG.codec.decode_order(json.loads(json.dumps(data))) == order


def test_encoded_orders_use_the_records_canonical_keys() -> None:
    assert SUGARDOG.codec.encode_order(Cruise(UP, LEFT)) == {
        "action": "cruise",
        "directions": ["up", "left"],
    }
    assert SUGARDOG.codec.encode_order(SilentRunning(None)) == {
        "action": "silent",
        "direction": None,
    }


# ----------------------------------------------------------------------------- states


def _states() -> list[object]:
    setup = play("@game sugardog move_time=2h seed=5\na dm: join\nb dm: join\nc dm: join\na dm: C3")
    battle = setup_game({"a": "B2", "b": "E5", "c": ""}, options="seed=9")
    for line in ("a dm: torpedo right", "b dm: mine", "c dm: silent", "a dm: ping", "b dm: leave"):
        battle.line(line)
    finished = setup_game({"a": "B2", "b": "B3"})
    finished.line("a dm: cruise up up")
    return [setup.game_state(), battle.game_state(), finished.game_state()]


def test_the_state_codec_round_trips_through_json() -> None:
    for state in _states():
        data = SUGARDOG.codec.encode_state(state)  # type: ignore[arg-type]
        again = SUGARDOG.codec.decode_state(json.loads(json.dumps(data)))
        assert again == state
        assert SUGARDOG.codec.encode_state(again) == data


def test_decoding_something_else_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Sugar Dog state"):
        SUGARDOG.codec.decode_state({"format": "bst-state/1"})


# ----------------------------------------------------------------------------- time


def test_one_move_clock_runs_in_battle_and_none_in_setup_or_after_the_end() -> None:
    table = play("@game sugardog move_time=3h\na dm: join\nb dm: join")
    assert SUGARDOG.rules.timers(table.game_state()) == ()
    assert SUGARDOG.rules.to_act(table.game_state()) == {"p1", "p2"}
    table.line("@start b")
    (timer,) = SUGARDOG.rules.timers(table.game_state())
    assert (timer.key, timer.seconds, timer.held) == ("move:1", 10800, False)
    assert "b" in timer.label
    assert SUGARDOG.rules.to_act(table.game_state()) == {"p2"}
    table.line("b dm: silent")
    assert [t.key for t in SUGARDOG.rules.timers(table.game_state())] == ["move:2"]


def test_a_deadline_that_no_longer_runs_changes_nothing() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    state = table.game_state()
    stale = SUGARDOG.rules.expire(state, "move:7", [], random.Random(0))
    assert stale.state is state and stale.events == ()


def test_resolve_takes_the_latest_order_of_the_player_to_move() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    state = table.game_state()
    orders: list[Given[Order]] = [Given("p1", Ping(), 0.0, 0), Given("p1", LayMine(), 1.0, 1)]
    resolution = SUGARDOG.rules.resolve(state, orders, random.Random(0))
    assert resolution.orders == ({"player": "p1", "action": "mine", "timeout": False},)
    with pytest.raises(IllegalOrderError):
        SUGARDOG.rules.resolve(state, [Given("p2", Ping(), 0.0, 0)], random.Random(0))


def test_an_accepted_action_completes_the_turn_at_once() -> None:
    table = setup_game({"a": "A1", "b": "F6"})
    state = table.game_state()
    accepted = SUGARDOG.rules.accept(state, "p1", Ping(), Channel.PRIVATE, random.Random(0))
    assert accepted.resolve_now and accepted.standing == Ping() and accepted.state is state
    assert accepted.notices[0].to == "p1"


def test_the_start_tells_each_randomly_placed_captain_privately() -> None:
    state = SUGARDOG.rules.new_game({})
    for n, name in enumerate(("a", "b", "c"), 1):
        state = SUGARDOG.rules.join(state, PlayerRef(f"p{n}", name))
    started = SUGARDOG.rules.start(state, random.Random(1), None)
    assert started.changed == {"p1", "p2", "p3"}
    assert {n.to for n in started.notices} == {"p1", "p2", "p3"}
    assert all(n.to is not None for n in started.notices)
    with pytest.raises(IllegalOrderError):
        SUGARDOG.rules.start(started.state, random.Random(1), None)


def test_crew_is_one_captain() -> None:
    assert SUGARDOG.rules.crew(SUGARDOG.rules.new_game({}), "p1") == ("p1",)


# ----------------------------------------------------------------------------- views


def test_views_public_private_and_revealed() -> None:
    table = setup_game({"a": "B2", "b": "E5"})
    table.line("a dm: torpedo right")
    table.line("b dm: mine")
    state = table.game_state()
    public = SUGARDOG.views.view(state, None)
    assert isinstance(public, PublicView)
    assert (public.size, public.turn, public.current_name) == (6, 3, "a")
    assert [t.action for t in public.turns] == ["torpedo", "mine"]
    assert [c.mines_laid for c in public.captains] == [0, 1]
    mine = SUGARDOG.views.view(state, "p2")
    assert isinstance(mine, PrivateView)
    assert mine.side.cell == Cell(4, 4) and mine.side.mines == (Cell(4, 4),)
    assert mine.public == public
    theirs = SUGARDOG.views.view(state, "p1")
    assert isinstance(theirs, PrivateView)
    assert [t.number for t in theirs.side.torpedoes] == [1]
    assert SUGARDOG.views.view(state, "stranger") == public
    revealed = SUGARDOG.views.reveal(state)
    assert isinstance(revealed, RevealedView)
    assert [s.cell for s in revealed.sides] == [Cell(1, 1), Cell(4, 4)]


def test_a_private_view_holds_only_the_viewers_own_things() -> None:
    table = setup_game({"a": "B2", "b": "E5"})
    table.line("a dm: silent up")
    table.line("b dm: mine")
    view = SUGARDOG.views.view(table.game_state(), "p1")
    assert isinstance(view, PrivateView)
    assert "Cell(column=4, row=4)" not in repr(view)  # E5: b's submarine and mine


def test_the_text_board_is_in_the_originals_ascii_style_with_a_key() -> None:
    table = setup_game({"a": "B2", "b": "E5"})
    table.line("a dm: torpedo right")
    public = SUGARDOG.words.summary(table.game_state(), None)
    assert public.splitlines()[0] == "#sugardog 6×6, turn 2: b to move."
    assert "Contact at C2: a's torpedo 1." in public
    assert "+---" not in public  # the board as text goes only where no picture shows it
    board = SUGARDOG.words.text_board(table.game_state(), None).splitlines()
    assert board[-1].startswith("Key: c where something was last heard")
    assert board[-2] == "    A   B   C   D   E   F"
    assert board[-3] == "  +---+---+---+---+---+---+"
    row_2 = board[-6]  # rows from the top: 6 … 1, a rule under each
    assert row_2 == "2 |   |   |   | c |   |   |"  # the torpedo, last heard in D2
    private = SUGARDOG.words.summary(table.game_state(), "p1")
    assert "Your submarine: B2." in private
    mine = SUGARDOG.words.text_board(table.game_state(), "p1").splitlines()
    assert mine[-6] == "2 |   | s |   | t |   |   |"
    assert "s your submarine, t a torpedo, m a mine" in mine[-1]


def test_a_big_board_gets_a_compact_text_grid() -> None:
    names = ["a", "b", "c", "d", "e"]
    table = setup_game({name: f"{'ABCDE'[n]}{n + 1}" for n, name in enumerate(names)})
    lines = SUGARDOG.words.text_board(table.game_state(), "p1").splitlines()
    assert lines[-2].split() == [chr(ord("A") + n) for n in range(12)]
    assert lines[-3].split() == ["1", "s", *["."] * 11]


# ----------------------------------------------------------------------------- words


def test_the_words_the_host_posts() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"}, first="nemo")
    state = table.game_state()
    names = table.names
    opening = SUGARDOG.words.opening(SUGARDOG.rules.new_game({"move_time": "12h"}))
    assert "6×6" in opening and "join" in opening and "12 h" in opening
    welcome = SUGARDOG.words.welcome(state, "p1", 3)
    assert welcome.startswith("ahab joined game 3") and "C4" in welcome
    beginning = SUGARDOG.words.beginning(state, names)
    assert "Turn order: nemo, ahab" in beginning and "nemo moves first" in beginning
    assert "B2" not in beginning and "E5" not in beginning
    assert "`ping`" in SUGARDOG.words.hint(state)
    assert SUGARDOG.words.report_title(4) == "turn 4"
    assert SUGARDOG.words.quiet_report()
    assert SUGARDOG.words.board_heading("#sugardog game 2", 0).endswith("as the hunt begins.")
    assert SUGARDOG.words.board_heading("#sugardog game 2", 3) == "#sugardog game 2, turn 3:"
    assert SUGARDOG.words.result(state, names) == ""
    assert "2 h" in SUGARDOG.words.reminder(state, "2 h")
    assert SUGARDOG.words.replay_caption()
    SUGARDOG.rules.parse(SUGARDOG.words.example())
    assert (SUGARDOG.words.player_word(1), SUGARDOG.words.player_word(2)) == ("captain", "captains")
    assert "`cruise up left`" in SUGARDOG.words.help_text()
    assert "6×6" in SUGARDOG.words.rules_text()
    assert (SUGARDOG.name, SUGARDOG.tag, SUGARDOG.title) == ("sugardog", "#sugardog", "Sugar Dog")
    assert SUGARDOG.simultaneous is False


def test_reports_public_and_private() -> None:
    table = setup_game({"ahab": "A1", "nemo": "E5"})
    table.line("ahab dm: torpedo left")
    state = table.game_state()
    events = state.history[-1].events
    assert SUGARDOG.words.public_report(events, table.names) == ["ahab: torpedo."]
    assert SUGARDOG.words.private_report(events, "p1") == [
        "You fired torpedo 1 from A1, heading left.",
        "Your torpedo 1 left the board: it is lost.",
    ]
    assert SUGARDOG.words.private_report(events, "p2") == []
    assert SUGARDOG.words.acknowledge(2, Ping(), LayMine()) == "Turn 2: ping (replaces: mine)"


def test_a_turns_public_report_names_the_mover_and_the_action_then_the_facts() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"}, first="nemo")
    table.line("nemo dm: ping")
    table.line("ahab dm: cruise up up")
    first, second = (entry.events for entry in table.game_state().history)
    names = table.names
    assert SUGARDOG.words.public_report(first, names) == [
        "nemo: active sonar (ping).",
        "Sonar report from E5: nemo's submarine E5 (0); ahab's submarine B2 (6).",
    ]
    assert SUGARDOG.words.public_report(second, names) == [
        "ahab: cruise.",
        "Contact at B3: ahab's submarine.",
        "Contact at B4: ahab's submarine.",
    ]


def test_a_timeouts_report_says_time_ran_out_but_its_record_is_a_plain_silent_event() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"})
    state = table.game_state()
    (timer,) = SUGARDOG.rules.timers(state)
    resolution = SUGARDOG.rules.expire(state, timer.key, [], random.Random(0))
    assert SUGARDOG.words.public_report(resolution.events, table.names) == [
        "ahab: time ran out (a silent stay)."
    ]
    assert [e.record() for e in resolution.events] == [
        {"type": "silent", "player": "p1", "cell": "B2"}
    ]
    # The host posts the reports (nothing twice); the only notice is the next captain's move.
    assert [(n.to, n.text.split(":")[0]) for n in resolution.notices] == [("p2", "Turn 2 is yours")]
    (stored,) = resolution.state.history
    assert SUGARDOG.words.public_report(stored.events, table.names) == ["ahab: silent running."]


def test_the_result_is_left_to_the_host_and_a_game_ended_by_torpedoes_says_so() -> None:
    table = setup_game({"ahab": "A1", "nemo": "A5"})
    table.line("ahab dm: torpedo up")  # runs to A3
    table.line("nemo dm: silent")
    table.line("ahab dm: mine")  # its torpedo runs into A5 first: nemo is out
    state = table.game_state()
    events = state.history[-1].events
    assert [e.type for e in events] == ["contact", "contact", "impact", "eliminated", "finished"]
    report = SUGARDOG.words.public_report(events, table.names)
    assert report[0] == "ahab's torpedoes ran first, and the hunt ended before the action."
    assert not any("wins" in line for line in report)
    assert SUGARDOG.words.result(state, table.names) == "ahab wins: the last submarine afloat."
