"""Substitutes (issue 30 item 4, issue 39 item 2): the game's host offers a seat to
someone else with ``replace OLD NEW``; the newcomer takes it by DM (``seat yes GAME``)
and only then gets the seat's board and plays it; the old player's orders and `board`
are refused, saying why; the seat keeps its name, so the record names it as before and
lists who played it from which turn. (That the record still replays from its orders:
tests/games/sonar/scripts/sonar-substitute.txt, through test_sonar_scenarios' replay of
every script.)

A substitute is no way to read a seat: the newcomer is named by mention or handle, never
by a display name; they see nothing until they accept; a host who plays needs the seat's
player's agreement (unless that player has been silent over two deadlines); a seat never
goes to anyone who plays or played another seat of the game."""

from __future__ import annotations

from pathlib import Path

import pytest
from host_fakes import HostKit

from bot.host.play.record import game_record

HOST = "fake:id-ref"  # an admin of the bot who plays no seat


@pytest.fixture
def ref_kit(tmp_path: Path) -> HostKit:
    return HostKit(tmp_path, admins=frozenset({HOST}))


def _to(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if f'"user_id":"id-{user}"' in r.address]


def _public(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == "public"]


def _seat_holders(kit: HostKit) -> list[tuple[str, str]]:
    with kit.store.transaction() as tx:
        return [(p.name, p.user_id) for p in tx.players(1)]


def _battle_with_carol_waiting(kit: HostKit) -> None:
    kit.two_player_battle()
    kit.say("carol", "games", dm=True)  # the host has heard from carol: it knows her id


def test_a_substitute_gets_the_seats_board_once_they_accept_and_plays_it(
    ref_kit: HostKit,
) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    assert kit.say("ref", "replace bob <@id-carol>").outcome.value == "handled"
    assert _public(kit)[-1] == (
        "#bst game 1: the host offers bob's seat to carol. It is theirs once they accept "
        "with `seat yes 1` to me by DM (`seat no 1` declines)."
    )
    (invitation,) = _to(kit, "carol")[1:]
    assert "offers you bob's seat" in invitation and "cruiser" not in invitation
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-bob")]
    assert kit.say("carol", "seat yes 1", dm=True).outcome.value == "handled"
    assert _public(kit)[-1] == (
        "#bst game 1: bob's seat is carol's, who plays it from turn 1 on (still called bob)."
    )
    welcome = _to(kit, "carol")[-1]
    assert welcome.startswith("#bst game 1: bob's seat is yours")
    assert "cruiser" in welcome  # bob's fleet: the seat's board, to carol alone
    (row,) = [r for r in kit.outbox() if r.kind.startswith("substitute:")]
    assert '"user_name":"carol"' in row.address and row.render  # with its picture
    assert kit.say("carol", "board", dm=True).outcome.value == "handled"
    assert "cruiser" in _to(kit, "carol")[-1]
    assert kit.say("carol", "#bst C1").outcome.value == "handled"
    with kit.store.transaction() as tx:
        assert {k: o.text for k, o in tx.standing_orders(1, 1).items()} == {"p2": "#bst C1"}


def test_a_newcomer_named_by_a_display_name_is_refused(ref_kit: HostKit) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    kit.say("bob", "games", dm=True)
    # A stranger who took the display name "carol" last: a name is anyone's.
    assert kit.say("ref", "replace bob carol").outcome.value == "refused"
    assert "by mention or handle, not by name" in _to(kit, "ref")[-1]
    assert "such as `replace @bob @carol`" in _to(kit, "ref")[-1]
    assert _to(kit, "carol")[1:] == []
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-bob")]


def test_a_handle_names_only_an_account_whose_name_is_that_handle(ref_kit: HostKit) -> None:
    kit = ref_kit
    kit.two_player_battle()
    kit.say("dave", "games", dm=True)  # a display name "dave": not the handle @dave
    assert kit.say("ref", "replace bob @dave").outcome.value == "refused"
    assert "I have not heard from @dave" in _to(kit, "ref")[-1]
    kit.say("@dave", "games", dm=True)  # (X names its people "@handle")
    assert kit.say("ref", "replace bob @DAVE").outcome.value == "handled"
    assert kit.say("@dave", "seat yes", dm=True).outcome.value == "handled"
    assert "cruiser" in _to(kit, "@dave")[-1]
    assert not any("cruiser" in text for text in _to(kit, "dave"))


def test_a_newcomer_may_decline_and_nothing_changes(ref_kit: HostKit) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    kit.say("ref", "replace bob <@id-carol>")
    assert kit.say("carol", "seat no 1", dm=True).outcome.value == "handled"
    assert _public(kit)[-1] == "#bst game 1: carol declined bob's seat; nothing changes."
    assert not any("cruiser" in text for text in _to(kit, "carol"))
    assert kit.say("carol", "seat yes 1", dm=True).outcome.value == "refused"
    assert "no seat is offered to you" in _to(kit, "carol")[-1]
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-bob")]


def test_a_host_who_plays_needs_the_seats_players_agreement(kit: HostKit) -> None:
    # The attack: alice hosts and plays; she names her own unlinked second account.
    kit.two_player_battle()
    kit.say("bob", "#bst C1")
    kit.say("alt", "games", dm=True)
    assert kit.say("alice", "replace bob <@id-alt>").outcome.value == "handled"
    assert "and bob agrees to it (the same `seat yes 1`)" in _public(kit)[-1]
    assert "would hand your seat (bob) to alt" in _to(kit, "bob")[-1]
    assert kit.say("alt", "seat yes 1", dm=True).outcome.value == "handled"
    assert "once bob says yes too" in _to(kit, "alt")[-1]
    assert not any("cruiser" in text for text in _to(kit, "alt"))
    assert kit.say("bob", "seat no 1", dm=True).outcome.value == "handled"
    assert _public(kit)[-1] == "#bst game 1: bob kept bob's seat; nothing changes."
    assert not any("cruiser" in text for text in _to(kit, "alt"))
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-bob")]
    # With bob's yes, the seat changes hands.
    kit.say("alice", "replace bob <@id-alt>")
    kit.say("bob", "seat yes 1", dm=True)
    kit.say("alt", "seat yes 1", dm=True)
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-alt")]


def test_a_host_who_plays_may_hand_on_the_seat_of_a_player_silent_two_deadlines(
    kit: HostKit,
) -> None:
    kit.two_player_battle()
    kit.say("carol", "games", dm=True)
    kit.say("bob", "#bst C1")
    for _ in range(2):
        kit.clock.set(kit.game().deadline + 1)
        kit.tick()
    kit.say("alice", "replace bob <@id-carol>")
    assert "agrees" in _public(kit)[-1]  # bob ordered in the turn before the last two closed…
    kit.say("carol", "seat no 1", dm=True)
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()  # …and a third deadline passes without a word from him
    kit.say("alice", "replace bob <@id-carol>")
    assert "agrees" not in _public(kit)[-1]
    kit.say("carol", "seat yes 1", dm=True)
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-carol")]


def test_a_seat_never_goes_to_anyone_who_plays_or_played_another(ref_kit: HostKit) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    kit.say("ref", "replace bob <@id-carol>")
    kit.say("carol", "seat yes 1", dm=True)
    cases = {
        "replace alice <@id-carol>": "carol already plays in this game (as bob)",
        "replace alice <@id-bob>": "bob played another seat of this game",
    }
    for text, expected in cases.items():
        assert kit.say("ref", text).outcome.value == "refused", text
        assert expected in _to(kit, "ref")[-1], (text, _to(kit, "ref")[-1])
    # A seat may go back to who played it.
    assert kit.say("ref", "replace bob <@id-bob>").outcome.value == "handled"


def test_an_offer_made_before_someone_took_another_seat_is_checked_again(
    ref_kit: HostKit,
) -> None:
    kit = ref_kit
    kit.two_player_battle()
    kit.say("carol", "games", dm=True)
    kit.say("ref", "replace bob <@id-carol>")
    kit.say("ref", "replace alice <@id-carol>")
    kit.say("carol", "seat yes", dm=True)  # (the older offer first)
    assert kit.say("carol", "seat yes 1", dm=True).outcome.value == "refused"
    assert "already plays in this game (as bob)" in _to(kit, "carol")[-1]
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-carol")]


def test_the_old_player_no_longer_sees_the_board_nor_orders(ref_kit: HostKit) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    kit.say("ref", "replace @bob <@id-carol>")
    kit.say("carol", "seat yes 1", dm=True)
    told = _to(kit, "bob")[-1]
    assert "your seat (bob) is carol's now" in told
    before = len(_to(kit, "bob"))
    assert kit.say("bob", "board").outcome.value == "refused"
    assert kit.say("bob", "#bst C1").outcome.value == "refused"
    refusals = _to(kit, "bob")[before:]
    assert len(refusals) == 2
    assert all("handed your seat in this game to carol" in text for text in refusals)
    assert not any("cruiser" in text for text in refusals)
    with kit.store.transaction() as tx:
        assert tx.standing_orders(1, 1) == {}


def test_the_record_keeps_the_seat_and_says_who_played_it_from_when(ref_kit: HostKit) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    kit.say("bob", "#bst C1")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    kit.say("ref", "replace bob <@id-carol>")
    assert "substitutes" not in game_record(kit.store, 1)  # (an offer is nothing yet)
    kit.say("carol", "seat yes 1", dm=True)
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
        ("bob", "replace bob <@id-carol>"): "only the game's host",
        ("alice", "replace bob"): "such as `replace @bob @carol`",
        ("alice", "replace zed <@id-carol>"): "no captain called 'zed'",
        ("alice", "replace bob <@id-erin>"): "I have not heard from <@id-erin>",
        ("alice", "replace bob <@id-alice>"): "alice already plays in this game (as alice)",
        ("alice", "replace bob <@id-bob>"): "bob already plays that seat",
        ("carol", "seat maybe 1"): "expected yes or no, and the game's number",
        ("carol", "seat yes 1"): "no seat is offered to you",
    }
    for (user, text), expected in cases.items():
        assert kit.say(user, text, dm=user == "carol").outcome.value == "refused", text
        assert expected in _to(kit, user)[-1], (text, _to(kit, user)[-1])
    assert _seat_holders(kit) == [("alice", "id-alice"), ("bob", "id-bob")]


def test_a_seat_can_change_hands_twice(ref_kit: HostKit) -> None:
    kit = ref_kit
    _battle_with_carol_waiting(kit)
    kit.say("dave", "games", dm=True)
    kit.say("ref", "replace bob <@id-carol>")
    kit.say("carol", "seat yes 1", dm=True)
    kit.say("ref", "replace bob <@id-dave>")
    kit.say("dave", "seat yes 1", dm=True)
    assert "cruiser" in _to(kit, "dave")[-1]
    assert kit.say("carol", "board").outcome.value == "refused"
    record = game_record(kit.store, 1)
    assert [(s["player"], s["after"]) for s in record["substitutes"]] == [
        ("carol", "bob"),
        ("dave", "carol"),
    ]


def test_help_outside_a_game_says_how_to_answer_a_seat(kit: HostKit) -> None:
    kit.say("carol", "help", dm=True)
    assert "`seat yes 12` or `seat no 12`" in _to(kit, "carol")[-1]
