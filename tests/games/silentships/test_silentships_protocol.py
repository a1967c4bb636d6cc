"""Silent Ships behind the host's protocol: parsing, verbs, codecs, timers, seats,
words and the record's shape (shared/contracts/silentships.md)."""

from __future__ import annotations

import json

import pytest
from silentships_helpers import GAME, Table, arranged, table

from bot.games.base import ArgKind, OrderSyntaxError, PlayerRef
from bot.games.silentships.cells import parse_cell
from bot.games.silentships.orders import (
    AcceptDraw,
    End,
    Go,
    Move,
    OfferDraw,
    Pass,
    Play,
    Retreat,
    RetreatTo,
    Reveal,
    Support,
    Swap,
    action_of,
)
from bot.games.silentships.ships import Ship

FIRST_GAME = "deck1=frigate,salvage,ram,speed,patrol deck2=sub,missile,fire,ammo,flag"

ORDERS = [
    Play(Ship.FRIGATE, parse_cell("D1")),
    Move(parse_cell("D1"), parse_cell("D2"), Ship.PATROL_SHIP),
    Support(parse_cell("C3"), Ship.FIRE_SHIP),
    Support(parse_cell("C3"), None),
    Go(),
    Retreat(Ship.SUBMARINE),
    Pass(),
    RetreatTo(parse_cell("E3")),
    Reveal(parse_cell("B4")),
    Swap(parse_cell("A2"), Ship.SPECIAL_OPERATIONS_CRAFT),
    End(),
    OfferDraw(),
    AcceptDraw(),
]


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("play frigate at D1", Play(Ship.FRIGATE, parse_cell("D1"))),
        ("PLAY Flag Ship on c1", Play(Ship.FLAG_SHIP, parse_cell("C1"))),
        (
            "play special_operations_craft b 1",
            Play(Ship.SPECIAL_OPERATIONS_CRAFT, parse_cell("B1")),
        ),
        (
            "move D1 to D2 discard patrol",
            Move(parse_cell("D1"), parse_cell("D2"), Ship.PATROL_SHIP),
        ),
        (
            "move d1, d2, discarding Patrol Ship",
            Move(parse_cell("D1"), parse_cell("D2"), Ship.PATROL_SHIP),
        ),
        ("support from C3 discard fire", Support(parse_cell("C3"), Ship.FIRE_SHIP)),
        ("support c3", Support(parse_cell("C3"), None)),
        ("retreat discard sub", Retreat(Ship.SUBMARINE)),
        ("retreat to E 3", RetreatTo(parse_cell("E3"))),
        ("reveal b4", Reveal(parse_cell("B4"))),
        ("swap A2 with frigate", Swap(parse_cell("A2"), Ship.FRIGATE)),
        ("Go", Go()),
        ("pass", Pass()),
        ("end turn", End()),
        ("END", End()),
        ("offer draw", OfferDraw()),
        ("accept draw", AcceptDraw()),
        ("accept", AcceptDraw()),
    ],
)
def test_orders_are_read_in_any_case_with_commas_and_little_words_optional(
    text: str, order: object
) -> None:
    assert GAME.rules.parse(text) == order


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "expected an order"),
        ("fire at will", "not an order of Silent Ships"),
        ("play yacht at C1", "'yacht' is not a ship"),
        ("play frigate", "expected e.g. `play frigate at D1`"),
        ("move D1 to D2", "needs a card to discard"),
        ("move D1 to F9 discard sub", "not a square of the board"),
        ("retreat", "needs a card to discard"),
        ("go now", "expected e.g. `go`"),
        ("x" * 600, "too long"),
    ],
)
def test_what_is_not_an_order_is_refused_with_an_example(text: str, expected: str) -> None:
    with pytest.raises(OrderSyntaxError, match=expected):
        GAME.rules.parse(text)


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: type(o).__name__)
def test_the_canonical_text_of_an_order_reads_back(order: object) -> None:
    assert GAME.rules.parse(GAME.words.describe(order)) == order  # type: ignore[arg-type]


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: type(o).__name__)
def test_orders_round_trip_through_the_codec(order: object) -> None:
    data = GAME.codec.encode_order(order)  # type: ignore[arg-type]
    assert json.loads(json.dumps(data)) == data
    assert GAME.codec.decode_order(data) == order


def test_every_verb_of_the_contract_table_and_its_text_parses_back() -> None:
    assert {verb.name: verb.private for verb in GAME.verbs} == {
        "play": True,
        "move": True,
        "support": True,
        "go": False,
        "retreat": True,
        "pass": True,
        "retreat_to": False,
        "reveal": False,
        "swap": False,
        "endturn": False,
        "offer_draw": False,
        "accept": False,
    }
    samples = {ArgKind.CELL: "B2", ArgKind.CHOICE: None}
    for verb in GAME.verbs:
        values = [samples[arg.kind] or arg.choices[-1] for arg in verb.args]
        order = GAME.rules.parse(verb.text(values))
        # The order's action is the verb's name, but for `endturn`, typed `end` (its
        # name stands apart from the host's `end`, which ends the game).
        action = {"endturn": "end"}.get(verb.name, verb.name)
        assert action_of(order) == action, verb.name
        required = [arg.required for arg in verb.args]
        if required and not required[-1]:
            shorter = GAME.rules.parse(verb.text(values[:-1]))
            assert action_of(shorter) == action


def test_every_ship_name_is_a_choice_of_the_verbs() -> None:
    play = next(verb for verb in GAME.verbs if verb.name == "play")
    assert [GAME.rules.parse(f"play {word} at C1").ship for word in play.args[0].choices] == list(
        Ship
    )  # type: ignore[union-attr]


def test_states_round_trip_through_the_codec_all_game_long() -> None:
    t = table(
        FIRST_GAME,
        "ahab dm: play frigate at D1",
        "ahab dm: move D1 to D2 discard patrol",
        "ahab dm: end",
        "nemo dm: play sub at D4",
        "nemo dm: move D4 to D3 discard fire",
        "nemo dm: offer draw",
        "ahab dm: move D2 to D3 discard speed",
        "ahab dm: go",
    )
    for state in [GAME.rules.new_game({"deck1": "flag"}), *t.states]:
        data = GAME.codec.encode_state(state)
        assert json.loads(json.dumps(data)) == data
        assert GAME.codec.decode_state(data) == state


def test_turn_timers_and_who_acts() -> None:
    setup = GAME.rules.join(GAME.rules.new_game({}), PlayerRef("p1", "ahab"))
    assert (GAME.rules.turn(setup), GAME.rules.timers(setup), GAME.rules.to_act(setup)) == (
        0,
        (),
        frozenset(),
    )
    state = arranged("ahab: D2 frigate; nemo: D3 sub", hands={"ahab": "flag"}, turn=1)
    (clock,) = GAME.rules.timers(state)
    assert (clock.key, clock.seconds, clock.label, clock.held) == (
        "move:1",
        86400,
        "ahab's turn 1",
        False,
    )
    assert GAME.rules.to_act(state) == frozenset({"p1"})
    assert GAME.rules.crew(state, "p2") == ("p2",)
    assert GAME.simultaneous is False


def test_the_record_in_setup_is_empty_but_complete() -> None:
    t = Table().play(["@game silentships max_turns=9", "ahab dm: join"])
    record = t.record()
    assert record["format"] == "silentships-record/1"
    assert record["start"] == {} and record["turns"] == []
    assert record["game"]["phase"] == "setup" and record["game"]["turn"] == 0
    assert (record["game"]["player"], record["game"]["step"], record["game"]["deadline"]) == (
        None,
        None,
        None,
    )
    assert record["players"] == [
        {
            "name": "ahab",
            "status": "alive",
            "country": None,
            "hand": [],
            "deck": [],
            "discards": [],
            "units": [],
            "sank": [],
        }
    ]
    assert record["game"]["options"]["max_turns"] == "9"


def test_the_record_keeps_every_ship_in_exactly_one_place() -> None:
    t = table(
        FIRST_GAME,
        "ahab dm: play frigate at D1",
        "ahab dm: move D1 to D2 discard patrol",
        "ahab dm: end",
    )
    record = t.record()
    ahab, nemo = record["players"]
    for player, other in ((ahab, nemo), (nemo, ahab)):
        places = (
            player["hand"]
            + player["deck"]
            + player["discards"]
            + [u["ship"] for u in player["units"]]
            + other["sank"]
        )
        assert sorted(places) == sorted(ship.value for ship in Ship)
    assert list(record) == ["format", "game", "players", "start", "turns"]
    assert list(record["game"]) == [
        "kind",
        "cols",
        "rows",
        "islands",
        "options",
        "phase",
        "turn",
        "player",
        "step",
        "offer",
        "deadline",
        "winners",
        "draw",
    ]


def test_the_words_are_for_this_game() -> None:
    state = arranged("ahab: C2 frigate; nemo: C1 sub")
    names = {"p1": "ahab", "p2": "nemo"}
    assert "#silentships join" in GAME.words.opening(GAME.rules.new_game({}))
    assert "ahab" in GAME.words.beginning(state, names) and "C1" in GAME.words.beginning(
        state, names
    )
    assert GAME.words.player_word(1) == "admiral" and GAME.words.player_word(2) == "admirals"
    assert GAME.words.report_title(3) == "turn 3 is over"
    assert "turn 3" in GAME.words.board_heading("#silentships game 1", 3)
    assert GAME.words.result(state, names) == ""
    assert "ends in 2 h" in GAME.words.reminder(state, "2 h")
    assert (
        "Flag Ship 5*: if it is sunk, its owner loses" in GAME.words.rules_text()
        and "reveal CELL" in GAME.words.help_text()
    )
    assert GAME.words.acknowledge(3, End(), None) == "Turn 3: end."


def test_turns_begin_when_the_step_that_opened_them_happened() -> None:
    from bot.games.base import RecordContext, Step

    t = table(FIRST_GAME, "@wait 2h", "ahab dm: end")
    assert [turn["began"] for turn in t.record()["turns"]] == [
        "2026-01-01T00:00:00Z",
        "2026-01-01T02:00:00Z",
    ]
    # A host whose steps carry no moment gets null rather than a guess.
    plain = [Step(step.turn, step.orders, step.events) for step in t.history]
    context = RecordContext(1, t.names, "battle", {})
    record = GAME.codec.record(t.game, plain, context)
    assert [turn["began"] for turn in record["turns"]] == [None, None]
    assert record["game"]["deadline"] is None
