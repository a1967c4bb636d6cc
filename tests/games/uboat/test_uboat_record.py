"""The record (contract "The record: uboat-record/1"), the codecs, and the host's
own verbs as the game sees them (leave/kick, end)."""

from __future__ import annotations

import json

import pytest
from uboat_helpers import Driver, begin, give_island, of_type, play, set_boat

from bot.games.base import IllegalOrderError, Step
from bot.games.uboat import UBOAT
from bot.games.uboat.cells import Direction

SCRIPT = """
@game uboat
alice public: #uboat join
bob dm: join
carol dm: join
dave dm: join
alice dm: start B5
bob dm: start F8
carol dm: start H5
dave dm: start F4
@start
alice dm: fire D5
bob dm: move up up left
carol dm: ram left
dave dm: move down
@close
dave dm: evade up up
@close
alice dm: move right right
bob dm: move down down
carol dm: fire E6
dave dm: move left
@close
"""


def test_record_has_every_key_of_the_contract() -> None:
    record = play(SCRIPT).record()
    assert record["format"] == "uboat-record/1"
    assert set(record) == {"format", "game", "players", "start", "turns"}
    assert set(record["game"]) == {
        "kind",
        "size",
        "islands",
        "options",
        "phase",
        "turn",
        "winners",
        "draw",
    }
    assert record["game"]["kind"] == "uboat" and record["game"]["size"] == 9
    assert [i["number"] for i in record["game"]["islands"]] == [1, 2, 3, 4, 5]
    for player in record["players"]:
        assert set(player) == {
            "name",
            "status",
            "colour",
            "crew",
            "health",
            "cell",
            "afloat",
            "islands",
        }
    json.dumps(record)


def test_record_replays_from_options_start_and_orders() -> None:
    """Every turn's events follow from the options, start and the turns' orders."""
    driver = play(SCRIPT)
    record = driver.record()
    replay = Driver()
    replay.line("@game uboat " + " ".join(f"{k}={v}" for k, v in record["game"]["options"].items()))
    for player in record["players"]:
        replay.line(f"{player['name']} dm: join")
    for boat in record["start"]["boats"]:
        replay.line(f"{boat['captain']} dm: start {boat['cell']}")
    replay.line("@start")
    for turn in record["turns"]:
        evasions = [o for o in turn["orders"] if o["action"] == "evade"]
        others = [o for o in turn["orders"] if o["action"] != "evade"]
        for order in evasions:
            replay.line(f"{order['player']} dm: evade {' '.join(order['route'])}")
        if evasions:
            replay.line("@close")
        for order in others:
            if order["action"] == "fire":
                text = f"fire {order['cell']}"
            elif order["action"] == "crew":
                text = f"crew {order['crew']}"
            else:
                text = f"{order['action']} {' '.join(order['route'])}"
            replay.line(f"{order['player']} dm: {text}")
        replay.line("@close")
    assert replay.record() == record


def test_record_orders_per_boat_in_colour_order_evasion_first() -> None:
    record = play(SCRIPT).record()
    orders = record["turns"][1]["orders"]
    assert [(o["boat"], o["action"]) for o in orders] == [
        ("red", "move"),
        ("blue", "move"),
        ("green", "fire"),
        ("yellow", "evade"),
        ("yellow", "move"),
    ]
    assert orders[3] == {
        "boat": "yellow",
        "player": "dave",
        "action": "evade",
        "route": ["up", "up"],
    }


def test_record_a_window_closed_in_the_round_in_progress_shows_only_in_players() -> None:
    driver = play("\n".join(SCRIPT.strip().splitlines()[:-5]))
    record = driver.record()
    assert len(record["turns"]) == 1
    assert driver.player(record, "dave")["cell"] == "F3"


def test_codec_round_trips_states_all_along_a_game() -> None:
    driver = Driver()
    states = []
    for line in SCRIPT.strip().splitlines():
        driver.line(line)
        if driver.state is not None:
            states.append(driver.state)
    for state in states:
        data = UBOAT.codec.encode_state(state)
        assert UBOAT.codec.decode_state(json.loads(json.dumps(data))) == state


@pytest.mark.parametrize(
    "text",
    ["start E2", "fire E6", "move up up left", "ram right", "hold", "evade down left", "crew blue"],
)
def test_codec_round_trips_orders(text: str) -> None:
    order = UBOAT.rules.parse(text)
    data = UBOAT.codec.encode_order(order)
    assert UBOAT.codec.decode_order(json.loads(json.dumps(data))) == order


def test_codec_refuses_a_bad_order_record() -> None:
    with pytest.raises(Exception, match="not a uboat order record"):
        UBOAT.codec.decode_order({"action": "shoot"})


def test_host_end_is_a_draw_between_the_crews_afloat() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"}, "islands=none")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver._change("end", UBOAT.rules.finish)
    record = driver.record()
    assert record["game"]["phase"] == "finished"
    assert record["game"]["winners"] == ["a", "c"] and record["game"]["draw"] is True
    assert record["turns"][-1]["number"] == 2
    assert record["turns"][-1]["events"] == [
        {
            "type": "finished",
            "winners": ["a", "c"],
            "draw": True,
            "boats": ["red", "green"],
            "scores": {"red": 0, "green": 0},
            "marks": [],
            "first_duelist": None,
        }
    ]
    assert driver.pending == {}
    assert driver.state is not None
    with pytest.raises(IllegalOrderError):
        UBOAT.rules.finish(driver.state)


def test_kick_of_a_captain_with_a_crew_keeps_the_boat() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"}, "islands=none")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    driver.line("b dm: crew red")
    driver.line("@close")
    driver._change("kick", lambda s: UBOAT.rules.remove(s, "p1"))
    events = [e.record() for e in driver.resolutions[-1][1].events]
    assert events == [{"type": "left", "player": "p1"}]
    record = driver.record()
    a = driver.player(record, "a")
    assert (a["status"], a["crew"], a["afloat"]) == ("left", None, True)
    driver.line("b dm: move down")  # b, not the captain, now decides for Red
    driver.line("@close")
    assert (
        of_type([e.record() for e in driver.resolutions[-1][1].events], "moved")[0]["boat"] == "red"
    )


def test_kick_of_the_last_crew_member_scuttles_the_boat() -> None:
    driver = begin({"a": "A1", "b": "C1"}, "islands=2@I5")
    give_island(driver, 2, "blue")
    driver._change("kick", lambda s: UBOAT.rules.remove(s, "p2"))
    events = [e.record() for e in driver.resolutions[-1][1].events]
    assert [e["type"] for e in events] == ["left", "destroyed", "finished"]
    assert events[1] == {"type": "destroyed", "boat": "blue", "freed": [2]}
    assert events[2]["winners"] == ["p1"]
    record = driver.record()
    assert record["game"]["phase"] == "finished" and record["game"]["winners"] == ["a"]
    assert record["turns"][-1]["events"][0] == {"type": "left", "player": "b"}


def test_history_steps_of_other_turns_do_not_leak_into_a_turn() -> None:
    driver = play(SCRIPT)
    assert driver.state is not None
    stray = Step(0, ({"player": "p1", "action": "start", "cell": "B5"},), ())
    from bot.games.base import RecordContext

    context = RecordContext(1, {v: k for k, v in driver.ids.items()}, "battle", {})
    with_stray = UBOAT.codec.record(driver.state, [stray, *driver.history], context)
    assert with_stray == driver.record()


def test_route_values_are_the_contract_words() -> None:
    assert [d.value for d in Direction] == ["up", "down", "left", "right"]
