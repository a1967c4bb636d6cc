"""Robots in live games (issue 44): a host seats robots (`new … robots=N`, `add robot
LEVEL`, `fill=robots` at `start`) and removes one (`remove robot NAME`); a robot is shown
as one, is never sent a message, and orders through the same path as a person (stored
as its seat's messages, replayed by `bst verify`), as soon as a turn opens; with
`away=robot` a robot plays an away player's seat until they send something themselves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host_fakes import HostKit
from sqlmodel import select

from bot.cli.verify import verify
from bot.games.base import GamePhase
from bot.host.play.record import game_record
from bot.store import PlayerRow
from bot.store.models import InboundRow


def _players(kit: HostKit) -> list[PlayerRow]:
    with kit.store.transaction() as tx:
        return tx.players(1)


def _standing(kit: HostKit, turn: int) -> dict[str, str]:
    with kit.store.transaction() as tx:
        return {key: o.text for key, o in tx.standing_orders(1, turn).items()}


def _robot_messages(kit: HostKit) -> list[InboundRow]:
    with kit.store.transaction() as tx:
        rows = tx.session.exec(select(InboundRow)).all()
        return [r for r in rows if r.message_id.startswith("robot:")]


def _to_robots(kit: HostKit) -> list[Any]:
    return [r for r in kit.outbox() if '"user_id":"robot:' in r.address]


def _host_said(kit: HostKit) -> str:
    return [r.text for r in kit.outbox() if r.recipient == "fake:id-alice"][-1]


def test_new_with_robots_seats_robots_that_place_play_and_are_never_sent_anything(
    kit: HostKit,
) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h robots=2")
    kit.say("alice", "join")
    kit.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)
    seated = _players(kit)
    assert [(p.name, p.robot) for p in seated] == [
        ("easy-robot-1", "easy"),
        ("easy-robot-2", "easy"),
        ("alice", ""),
    ]
    assert all(p.user_id.startswith("robot:") for p in seated[:2])
    assert "Robots seated: easy-robot-1, easy-robot-2." in kit.outbox()[0].text
    kit.say("alice", "start")
    assert kit.game().phase == GamePhase.RUNNING
    # The robots placed in setup and shot as the turn opened, as their seats' messages.
    assert set(_standing(kit, 1)) == {"p1", "p2"}
    assert {m.user_id for m in _robot_messages(kit)} == {p.user_id for p in seated[:2]}
    kit.say("alice", "#bst J9")
    kit.clock.set(kit.game().deadline)
    kit.tick()
    assert kit.game().turn == 2
    assert set(_standing(kit, 2)) == {"p1", "p2"}  # at once, in the new turn
    assert _to_robots(kit) == []  # every answer to a robot went nowhere
    said: list[str] = []
    verify(game_record(kit.store, 1), said.append)
    assert any(line.startswith("ok: the game replayed through the rules of bst") for line in said)


def test_the_host_adds_a_robot_of_a_level_and_removes_one_by_name_in_setup(
    kit: HostKit,
) -> None:
    kit.say("alice", "#sonar new sonar size=12 ships=2")
    kit.say("alice", "#sonar join")
    kit.say("alice", "add robot strong")
    assert [(p.name, p.robot) for p in _players(kit)] == [
        ("alice", ""),
        ("strong-robot-2", "strong"),
    ]
    assert kit.say("alice", "add robot wizard").outcome.value == "refused"
    assert "one of easy, strong, such as `add robot strong`" in _host_said(kit)
    assert kit.say("alice", "remove robot alice").outcome.value == "refused"
    assert "its robots: strong-robot-2" in _host_said(kit)
    assert kit.say("bob", "add robot").outcome.value == "refused"  # only the host
    kit.say("alice", "remove robot strong-robot-2")
    assert "strong-robot-2 was removed from the game by the host." in kit.outbox()[-1].text
    kit.say("alice", "add robot")
    assert [p.name for p in _players(kit)][-1] == "easy-robot-3"
    kit.say("alice", "start")
    assert kit.game().phase == GamePhase.RUNNING, kit.outbox()[-1].text
    assert kit.say("alice", "add robot").outcome.value == "refused"  # setup only


def test_robots_is_refused_with_an_example_when_it_is_no_count_or_level(kit: HostKit) -> None:
    for bad in ("robots=many", "robots=0", "robots=2:wizard", "fill=people"):
        assert kit.say("alice", f"#sonar new sonar {bad}").outcome.value == "refused"
        assert "such as `new sonar" in _host_said(kit)
    assert kit.game() is None


def test_fill_robots_fills_the_table_to_the_games_usual_size_at_start(kit: HostKit) -> None:
    kit.say("alice", "#uboat new uboat fill=robots:strong")
    kit.say("alice", "#uboat join")
    kit.say("alice", "start")
    players = _players(kit)
    # U-Boat's robot plays best at a table of 4: three robots join alice.
    assert [(p.name, p.robot) for p in players] == [
        ("alice", ""),
        ("strong-robot-2", "strong"),
        ("strong-robot-3", "strong"),
        ("strong-robot-4", "strong"),
    ]
    assert kit.game().phase == GamePhase.RUNNING


def _away_posts(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.kind == "away-robot"]


def test_away_robot_plays_an_away_players_seat_until_they_send_an_order(
    kit: HostKit,
) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=robot")
    kit.say("bob", "me away 3d", dm=True)
    kit.tick()
    kit.tick()  # (once: the robot's message has an id of its own)
    assert set(_standing(kit, 1)) == {"p2"}
    (said,) = _away_posts(kit)
    assert "a robot plays turn 1 for a player who is away" in said
    assert "bob" not in said
    assert {m.user_id for m in _robot_messages(kit)} == {"id-bob"}
    kit.say("alice", "#bst B2")
    kit.clock.set(kit.game().deadline)
    kit.tick()
    assert set(_standing(kit, 2)) == {"p2"}  # again as the next turn opens
    kit.say("bob", "#bst J1")  # bob takes his seat back
    assert _standing(kit, 2)["p2"].endswith("J1")
    kit.clock.set(kit.game().deadline)
    kit.tick()
    kit.clock.advance(60)
    kit.tick()
    assert _standing(kit, 3) == {}  # bob plays it himself now


def test_without_away_robot_nobody_plays_an_away_players_seat(kit: HostKit) -> None:
    kit.two_player_battle("size=10x10 turn=8h")
    kit.say("bob", "me away 3d", dm=True)
    kit.tick()
    assert _standing(kit, 1) == {}
    assert _robot_messages(kit) == []


# --- a robot takes a gone player's seat (`replace OLD robot [LEVEL]`) ---------------


def _public(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == "public"]


def test_the_host_hands_a_gone_players_seat_to_a_robot_which_plays_it_at_once(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path, admins=frozenset({"fake:id-ref"}))  # an admin who plays no seat
    try:
        kit.two_player_battle()
        assert kit.say("ref", "replace bob robot strong").outcome.value == "handled"
        assert _public(kit)[-1] == (
            "#bst game 1: bob's seat is strong-robot-2's (a robot, level strong), who plays "
            "it from turn 1 on (still called bob)."
        )
        bob = _players(kit)[1]
        assert (bob.name, bob.robot, bob.account_name) == ("bob", "strong", "strong-robot-2")
        assert bob.user_id.startswith("robot:")
        assert set(_standing(kit, 1)) == {"p2"}  # the robot shot as soon as it sat
        assert {m.user_id for m in _robot_messages(kit)} == {bob.user_id}
        assert kit.say("bob", "#bst C1").outcome.value == "refused"  # no longer his
        assert _to_robots(kit) == []
        record = game_record(kit.store, 1)
        assert record["substitutes"][0]["player"] == "strong-robot-2"
        kit.say("alice", "#bst B2")
        kit.clock.set(kit.game().deadline)
        kit.tick()
        report = [t for t in _public(kit) if "turn 1:" in t][-1]
        assert "bob [robot]" in report  # every post shows the seat's robot as one
        assert "alice [robot]" not in report
    finally:
        kit.store.dispose()


def test_a_host_who_plays_hands_a_seat_to_a_robot_once_its_player_agrees(kit: HostKit) -> None:
    kit.two_player_battle()
    assert kit.say("alice", "replace bob robot").outcome.value == "handled"
    assert "It plays it once bob agrees (the same `seat yes 1`)" in _public(kit)[-1]
    assert not _players(kit)[1].robot
    assert kit.say("bob", "seat yes 1", dm=True).outcome.value == "handled"
    bob = _players(kit)[1]
    assert (bob.robot, bob.account_name) == ("easy", "easy-robot-2")
    kit.tick()
    assert set(_standing(kit, 1)) == {"p2"}


def test_replace_by_a_robot_refuses_a_level_the_game_has_not_and_a_robots_seat(
    kit: HostKit,
) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h robots=1")
    kit.say("alice", "join")
    kit.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)
    kit.say("alice", "start")
    assert kit.say("alice", "replace alice robot wizard").outcome.value == "refused"
    assert "one of easy, strong, such as `replace alice robot strong`" in _host_said(kit)
    assert kit.say("alice", "replace easy-robot-1 robot strong").outcome.value == "refused"
    assert "played by a robot already (level easy)" in _host_said(kit)
    assert [p.robot for p in _players(kit)] == ["easy", ""]


def test_a_refused_start_seats_no_robots_for_fill(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=8x8 turn=8h fill=robots")
    kit.say("alice", "join")
    assert kit.say("alice", "start").outcome.value == "refused"
    assert "no room for 12 more fleets" in _host_said(kit)
    assert [p.name for p in _players(kit)] == ["alice"]  # a refusal changes nothing
    kit.say("alice", "options size=20x20")
    assert kit.say("alice", "start").outcome.value == "handled"
    assert len(_players(kit)) == 12


def test_a_seat_whose_player_left_the_game_is_no_robots_to_take(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h robots=1")
    for who, fleet in (("alice", "sub: A2\ncarrier: C1-C5"), ("bob", "cruiser: F1-F3, cruiser: J8-J10")):  # fmt: skip
        kit.say(who, "join")
        kit.say(who, fleet, dm=True)
    kit.say("alice", "start")
    kit.say("bob", "leave")
    assert kit.say("alice", "replace bob robot").outcome.value == "refused"
    assert "bob left the game (or was removed): their seat is out of play" in _host_said(kit)
    assert [p.robot for p in _players(kit)] == ["easy", "", ""]  # nothing changed
