"""Substitutes (issue 30 item 4): the game's host hands a seat to someone else with
``replace OLD NEW``. The newcomer gets the seat's board by DM and plays it; the old
player's orders and `board` are refused, saying why; the seat keeps its name, so the
record names it as before and lists who played it from which turn. (That the record
still replays from its orders: tests/games/sonar/scripts/sonar-substitute.txt, through
test_sonar_scenarios' replay of every script.)"""

from __future__ import annotations

from host_fakes import HostKit

from bot.host.record import game_record


def _to(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if f'"user_id":"id-{user}"' in r.address]


def _public(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == "public"]


def _battle_with_carol_waiting(kit: HostKit) -> None:
    kit.two_player_battle()
    kit.say("carol", "games", dm=True)  # the host has heard from carol: it knows her id


def test_a_substitute_gets_the_seats_board_and_plays_it(kit: HostKit) -> None:
    _battle_with_carol_waiting(kit)
    assert kit.say("alice", "replace bob carol").outcome.value == "handled"
    assert _public(kit)[-1] == (
        "#bst game 1: the host handed bob's seat to carol, who plays it from turn 1 on "
        "(still called bob)."
    )
    welcome = _to(kit, "carol")[-1]
    assert welcome.startswith("#bst game 1: the host handed you bob's seat")
    assert "cruiser" in welcome  # bob's fleet: the seat's board, to carol alone
    (row,) = [r for r in kit.outbox() if r.kind.startswith("substitute:")]
    assert '"user_name":"carol"' in row.address and row.render  # with its picture
    assert kit.say("carol", "board", dm=True).outcome.value == "handled"
    assert "cruiser" in _to(kit, "carol")[-1]
    assert kit.say("carol", "#bst C1").outcome.value == "handled"
    with kit.store.transaction() as tx:
        assert {k: o.text for k, o in tx.standing_orders(1, 1).items()} == {"p2": "#bst C1"}


def test_the_old_player_no_longer_sees_the_board_nor_orders(kit: HostKit) -> None:
    _battle_with_carol_waiting(kit)
    kit.say("alice", "replace @bob @carol")
    told = _to(kit, "bob")[-1]
    assert "the host handed your seat (bob) to carol" in told
    before = len(_to(kit, "bob"))
    assert kit.say("bob", "board").outcome.value == "refused"
    assert kit.say("bob", "#bst C1").outcome.value == "refused"
    refusals = _to(kit, "bob")[before:]
    assert len(refusals) == 2
    assert all("handed your seat in this game to carol" in text for text in refusals)
    assert not any("cruiser" in text for text in refusals)
    with kit.store.transaction() as tx:
        assert tx.standing_orders(1, 1) == {}


def test_the_record_keeps_the_seat_and_says_who_played_it_from_when(kit: HostKit) -> None:
    _battle_with_carol_waiting(kit)
    kit.say("bob", "#bst C1")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    kit.say("alice", "replace bob carol")
    kit.say("carol", "#bst D1")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    record = game_record(kit.store, 1)
    assert [p["name"] for p in record["players"]] == ["alice", "bob"]
    orders = [[o["player"] for o in t["orders"]] for t in record["turns"]]
    assert orders == [["bob"], ["bob"]]  # the seat's name, as before
    assert record["substitutes"] == [
        {"seat": "bob", "from_turn": 2, "player": "carol", "after": "bob"}
    ]


def test_a_record_without_a_substitute_has_no_such_field(kit: HostKit) -> None:
    kit.two_player_battle()
    assert "substitutes" not in game_record(kit.store, 1)


def test_replace_is_the_hosts_and_refuses_bad_input_with_an_example(kit: HostKit) -> None:
    _battle_with_carol_waiting(kit)
    cases = {
        ("bob", "replace bob carol"): "only the game's host",
        ("alice", "replace bob"): "such as `replace @bob @carol`",
        ("alice", "replace zed carol"): "no captain called 'zed'",
        ("alice", "replace bob erin"): "I have not heard from 'erin'",
        ("alice", "replace bob alice"): "alice already plays in this game (as alice)",
        ("alice", "replace bob bob"): "bob already plays that seat",
    }
    for (user, text), expected in cases.items():
        assert kit.say(user, text).outcome.value == "refused", text
        assert expected in _to(kit, user)[-1], (text, _to(kit, user)[-1])
    with kit.store.transaction() as tx:
        assert [(p.name, p.user_id) for p in tx.players(1)] == [
            ("alice", "id-alice"),
            ("bob", "id-bob"),
        ]


def test_a_seat_can_change_hands_twice(kit: HostKit) -> None:
    _battle_with_carol_waiting(kit)
    kit.say("dave", "games", dm=True)
    kit.say("alice", "replace bob carol")
    kit.say("alice", "replace bob dave")
    assert "cruiser" in _to(kit, "dave")[-1]
    assert kit.say("carol", "board").outcome.value == "refused"
    record = game_record(kit.store, 1)
    assert [(s["player"], s["after"]) for s in record["substitutes"]] == [
        ("carol", "bob"),
        ("dave", "carol"),
    ]


def test_a_newcomer_whose_platform_shows_names_as_handles_is_found_either_way(
    kit: HostKit,
) -> None:
    kit.two_player_battle()
    kit.say("@dave", "games", dm=True)  # (X shows its people as "@handle")
    assert kit.say("alice", "replace bob dave").outcome.value == "handled"
    assert "cruiser" in _to(kit, "@dave")[-1]
