"""Orders as typed, checked on arrival, and who decides for a boat (rules §3, §5;
contract "Orders": every refusal of its list)."""

from __future__ import annotations

import random

import pytest
from uboat_helpers import Driver, begin, give_island, last_events, of_type, set_boat

from bot.games.base import Channel, OrderSyntaxError, WrongChannelError
from bot.games.uboat import UBOAT, Evade, Fire, Hold, JoinCrew, Move, Ram, StartAt
from bot.games.uboat.cells import Direction
from bot.games.uboat.cells import parse_cell as cell
from bot.games.uboat.values import Colour

U, D, L, R = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("start E2", StartAt(cell("E2"))),
        ("START AT e 2", StartAt(cell("E2"))),
        ("fire E6", Fire(cell("E6"))),
        ("Fire at e6", Fire(cell("E6"))),
        ("#uboat fire E6", Fire(cell("E6"))),
        ("move up up left", Move((U, U, L))),
        ("move up, up, left", Move((U, U, L))),
        ("MOVE Up,Down", Move((U, D))),
        ("ram right right", Ram((R, R))),
        ("hold", Hold()),
        ("pass", Hold()),
        ("evade down left", Evade((D, L))),
        ("crew Blue", JoinCrew(Colour.BLUE)),
        ("move up up up up", Move((U, U, U, U))),  # read, then refused with its reason
    ],
)
def test_3_orders_as_typed(text: str, order: object) -> None:
    assert UBOAT.rules.parse(text) == order


@pytest.mark.parametrize(
    "text",
    ["", "shoot E6", "fire", "fire E", "fire 6E", "move", "move north", "crew pink", "hold on"],
)
def test_3_unreadable_text_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(OrderSyntaxError) as refused:
        UBOAT.rules.parse(text)
    assert "e.g." in refused.value.message or "such as" in refused.value.message


def test_3_every_verb_gives_text_that_parses() -> None:
    values = {"cell": "E6", "step1": "up", "step2": "", "step3": "left", "boat": "blue"}
    for verb in UBOAT.verbs:
        text = verb.text([values[arg.name] for arg in verb.args])
        order = UBOAT.rules.parse(text)
        typed = verb.name if verb.words is None else verb.words
        assert UBOAT.words.describe(order).split()[0] == typed
        assert UBOAT.rules.parse(UBOAT.words.describe(order)) == order
    assert {verb.name for verb in UBOAT.verbs} == {
        "position",
        "fire",
        "move",
        "ram",
        "hold",
        "evade",
        "crew",
    }
    assert all(verb.private for verb in UBOAT.verbs)


def test_3_any_order_in_public_is_refused_without_echoing_it() -> None:
    driver = begin({"a": "B5", "b": "H5"})
    assert driver.state is not None
    for text in ("fire E6", "move up", "start E2", "hold"):
        with pytest.raises(WrongChannelError) as refused:
            UBOAT.rules.accept(
                driver.state, "p1", UBOAT.rules.parse(text), Channel.PUBLIC, random.Random(0)
            )
        assert "E6" not in refused.value.message and "E2" not in refused.value.message
        assert "DM" in refused.value.message


def test_3_fire_within_range_wrapping() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    driver.line("a dm: fire I8")  # 1 + 2 = 3 away across both edges
    assert driver.refusals("a") == []


def test_3_fire_out_of_range_reply_gives_distance_and_range() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    driver.line("a dm: fire E1")
    (refusal,) = driver.refusals("a")
    assert "4 away" in refusal and "range is 3" in refusal


def test_3_fire_off_the_board_is_refused() -> None:
    driver = begin({"a": "A1", "b": "E5"})
    driver.line("a dm: fire J1")
    assert any("off the 9x9 board" in text for text in driver.refusals("a"))


def test_3_range_shrinks_for_each_round_fired_in_a_row() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    driver.line("a dm: fire A4")
    driver.line("@close")
    driver.line("a dm: fire A4")  # 3 away, range 2
    assert any("range is 2" in text for text in driver.refusals("a"))
    driver.line("a dm: fire A3")
    driver.line("@close")
    driver.line("a dm: fire A3")  # 2 away, range 1
    assert any("range is 1" in text for text in driver.refusals("a"))
    driver.line("a dm: hold")
    driver.line("@close")
    driver.line("a dm: fire A4")  # a round without fire: range 3 again
    assert len(driver.refusals("a")) == 2


def test_3_range_never_below_zero() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    set_boat(driver, "red", fired_in_a_row=5)
    driver.line("a dm: fire A2")
    assert any("range is 0" in text and "own tile, A1" in text for text in driver.refusals("a"))


def test_3_at_range_zero_a_boat_can_fire_on_itself() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    set_boat(driver, "red", fired_in_a_row=3)
    driver.line("a dm: fire A1")
    assert driver.refusals("a") == []
    driver.line("@close")
    assert of_type(last_events(driver), "fire")[0]["hits"] == [{"boat": "red", "damage": 2}]


def test_3_firing_on_your_own_boat_is_warned_with_the_acknowledgement() -> None:
    """A blast hits the shooter's own U-boat too (rules §3): the order stands, and the
    sender is warned, only the sender, whether the boat is the blast's tile or beside it."""
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    direct = driver.say("a", "fire A1")
    assert direct is not None and direct.standing == Fire(cell("A1"))
    (warning,) = [n for n in direct.notices if n.text.startswith("Careful")]
    assert warning.to == driver.ids["a"]
    assert warning.text.startswith("Careful: A1 is your own tile: your blast will hit your own")
    beside = driver.say("a", "fire B1")
    assert beside is not None
    assert [n.text for n in beside.notices if n.text.startswith("Careful")] == [
        "Careful: your U-boat is beside B1, in the blast's cross: it will take an indirect "
        "hit from your own blast. Send another order to change it."
    ]
    clear = driver.say("a", "fire C1")
    assert clear is not None and not [n for n in clear.notices if n.text.startswith("Careful")]


def test_3_routes_need_1_to_3_steps() -> None:
    driver = begin({"a": "A1", "b": "E5"})
    driver.line("a dm: move up up up up")
    driver.line("a dm: ram left left left left")
    assert len([t for t in driver.refusals("a") if "1 to 3 steps" in t]) == 2


def test_3_routes_may_not_enter_or_cross_islands() -> None:
    driver = begin({"a": "C5", "b": "H8"})
    driver.line("a dm: move up up")  # C4, then island 1 at C3
    driver.line("a dm: ram up up up")
    driver.line("a dm: move right right")  # D5, then island 5 at E5
    refusals = driver.refusals("a")
    assert len(refusals) == 3
    assert "island 1 at C3" in refusals[0] and "step 2" in refusals[0]
    assert "island 5 at E5" in refusals[2]
    driver.line("a dm: move up")
    driver.line("a dm: ram up")  # strikes C3: allowed, it just does nothing
    assert len(driver.refusals("a")) == 3


def test_3_fire_at_an_island_is_allowed() -> None:
    driver = begin({"a": "C5", "b": "H8"})
    driver.line("a dm: fire C3")
    assert driver.refusals("a") == []


def test_3_orders_of_a_sunk_boat_are_refused_but_crew() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"}, options="islands=none")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("b dm: fire A1")
    assert any("sunk" in text and "crew" in text for text in driver.refusals("b"))
    driver.line("b dm: crew green")
    assert len(driver.refusals("b")) == 1


def test_5_crew_refusals() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"}, options="islands=none")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: crew green")  # on a crew
    assert any("Red's crew" in text for text in driver.refusals("a"))
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("b dm: crew blue")  # sunk
    driver.line("b dm: crew purple")  # absent
    refusals = driver.refusals("b")
    assert "Blue was sunk" in refusals[0]
    assert "no Purple" in refusals[1]


def test_3_evade_without_a_window_is_refused() -> None:
    driver = begin({"a": "A1", "b": "E5"})
    driver.line("a dm: evade up")
    assert any("no evade window" in text for text in driver.refusals("a"))


def test_3_orders_after_the_end_are_refused() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="rounds=1")
    driver.line("@close")
    driver.line("a dm: hold")
    assert any("over" in text for text in driver.refusals("a"))


def test_3_strangers_are_told_to_join() -> None:
    driver = begin({"a": "A1", "b": "E5"})
    driver.line("zed dm: fire E6")
    assert any("join" in text for text in driver.refusals("zed"))


def test_3_refusals_change_nothing() -> None:
    driver = begin({"a": "A1", "b": "E5"})
    before = driver.state
    for text in ("fire E1", "move up up up up", "evade up", "crew blue", "start B2", "fire Z9"):
        driver.line(f"a dm: {text}")
    assert driver.state is before
    assert len(driver.refusals("a")) == 6


def test_3_acknowledgement_says_what_stands() -> None:
    driver = begin({"a": "A1", "b": "E5"})
    accepted = driver.say("a", "fire A3")
    assert accepted is not None
    # A boat with a crew of one: the host's acknowledgement is the only reply (no echo).
    assert accepted.notices == ()
    assert accepted.standing == Fire(cell("A3"))
    assert UBOAT.words.acknowledge(1, Fire(cell("A3")), Hold()) == (
        "Round 1: your order is `fire A3` (replaces `hold`). A new order replaces it."
    )


def test_3_an_evasion_and_a_round_order_do_not_replace_each_other() -> None:
    text = UBOAT.words.acknowledge(2, Move((L,)), Evade((U, U)))
    assert text == "Round 2: your order is `move left`. A new order replaces it."
    assert "(replaces" not in UBOAT.words.acknowledge(2, Evade((U,)), Fire(cell("A3")))
    assert "replaces `evade up`" in UBOAT.words.acknowledge(2, Evade((D,)), Evade((U,)))


def test_3_the_latest_order_stands() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    driver.line("a dm: fire A3")
    driver.line("a dm: move down")
    driver.line("@close")
    events = last_events(driver)
    assert of_type(events, "fire") == []
    assert of_type(events, "moved")[0]["route"] == ["down"]


def test_3_hold_replaces_an_earlier_order_and_is_not_recorded() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=none")
    driver.line("a dm: fire A3")
    driver.line("a dm: hold")
    driver.line("@close")
    assert last_events(driver) == []
    assert driver.turn(driver.record(), 1)["orders"] == []


def _crewed() -> Driver:
    """Red (a) and Blue (b, captain) with c, who joined Blue's crew after Green sank."""
    driver = begin({"a": "A1", "b": "E5", "c": "C1"}, options="islands=none")
    set_boat(driver, "green", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("c dm: crew blue")
    driver.line("@close")
    return driver


def test_5_the_captains_order_stands_over_a_later_crew_order() -> None:
    driver = _crewed()
    driver.line("b dm: move down")
    accepted = driver.say("c", "move up")
    assert accepted is not None
    to_sender, to_captain = accepted.notices
    assert to_sender.to == "p3" and "captain b's `move down` stands over yours" in to_sender.text
    assert to_captain.to == "p2" and "c sent `move up`; captain b's `move down` stands" in (
        to_captain.text
    )
    driver.line("@close")
    moved = of_type(last_events(driver), "moved")
    assert [(m["boat"], m["route"]) for m in moved] == [("blue", ["down"])]
    orders = driver.turn(driver.record(), 3)["orders"]
    assert orders == [{"boat": "blue", "player": "b", "action": "move", "route": ["down"]}]


def test_5_without_the_captain_the_latest_crew_order_stands() -> None:
    driver = _crewed()
    accepted = driver.say("c", "move up")
    assert accepted is not None
    # The sender's own acknowledgement is the host's; the captain hears what now stands.
    (to_captain,) = accepted.notices
    assert (to_captain.to, to_captain.text) == (
        "p2",
        "Round 3, Blue: c's order `move up` now stands.",
    )
    driver.line("@close")
    orders = driver.turn(driver.record(), 3)["orders"]
    assert orders == [{"boat": "blue", "player": "c", "action": "move", "route": ["up"]}]


def test_5_a_captains_hold_stands_over_a_crew_fire() -> None:
    driver = _crewed()
    driver.line("c dm: fire E7")
    driver.line("b dm: hold")
    driver.line("@close")
    assert of_type(last_events(driver), "fire") == []


def test_5_crew_shares_the_seat() -> None:
    driver = _crewed()
    state = driver.state
    assert UBOAT.rules.crew(state, "p2") == ("p2", "p3")
    assert UBOAT.rules.crew(state, "p3") == ("p2", "p3")
    assert UBOAT.rules.crew(state, "p1") == ("p1",)


def test_5_precedence_does_not_depend_on_arrival_order() -> None:
    from bot.games.base import Given

    driver = _crewed()
    state = driver.state
    orders = [
        Given("p3", Move((U,)), 10.0, 1),
        Given("p3", Move((D,)), 20.0, 2),
        Given("p1", Hold(), 5.0, 3),
    ]
    forward = UBOAT.rules.expire(state, "round:3", orders, random.Random(0))
    backward = UBOAT.rules.expire(state, "round:3", list(reversed(orders)), random.Random(0))
    assert forward.events == backward.events
    assert of_type([e.record() for e in forward.events], "moved")[0]["route"] == ["down"]


def test_3_long_guns_add_one_to_range() -> None:
    driver = begin({"a": "A1", "b": "E5"}, options="islands=2@I9")
    give_island(driver, 2, "red")
    driver.line("a dm: fire A5")  # 4 away
    assert driver.refusals("a") == []
