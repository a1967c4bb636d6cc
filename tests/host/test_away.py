"""Away (issue 30 item 3): `me away 3d` / `me back`, and what it means in a game: by
default nothing; with the host's `away=N`, a turn that falls while a player it waits
for is away waits for them, up to N, once a turn, announced without naming them."""

from __future__ import annotations

from host_fakes import HostKit


def _private(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == f"fake:id-{user}"]


def _away_posts(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.kind == "away"]


def test_me_away_and_back_answer_with_what_now_stands(kit: HostKit) -> None:
    kit.say("bob", "me away 3d", dm=True)
    assert "away until 2026-01-04 00:00 UTC" in _private(kit, "bob")[-1]
    kit.say("bob", "me back", dm=True)
    assert "not away" in _private(kit, "bob")[-1]


def test_me_away_refuses_what_is_no_length_and_changes_nothing(kit: HostKit) -> None:
    for bad in ("me away soon", "me away 90d", "me away"):
        effect = kit.say("bob", bad, dm=True)
        assert effect.outcome.value == "refused"
        assert "`me away 3d`" in _private(kit, "bob")[-1]
    kit.say("bob", "me", dm=True)
    assert "not away" in _private(kit, "bob")[-1]


def test_by_default_away_changes_nothing_the_turn_falls_on_time(kit: HostKit) -> None:
    kit.two_player_battle()
    kit.say("bob", "me away 3d", dm=True)
    kit.clock.set(kit.game().deadline)
    kit.tick()
    assert kit.game().turn == 2
    assert _away_posts(kit) == []


def test_with_away_option_a_turn_waits_once_for_an_away_player_and_names_nobody(
    kit: HostKit,
) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    kit.say("bob", "me away 3d", dm=True)
    kit.say("alice", "#bst B2")
    first = kit.game().deadline
    kit.clock.set(first)
    kit.tick()
    kit.tick()
    game = kit.game()
    assert game.turn == 1  # it waits for bob
    assert game.deadline == first + 12 * 3600
    (said,) = _away_posts(kit)
    assert "waits up to 12 h " in said and "2026-01-01 20:00 UTC" in said
    assert "bob" not in said
    kit.clock.set(game.deadline)  # bob is still away: the turn waited once, it falls now
    kit.tick()
    assert kit.game().turn == 2
    assert len(_away_posts(kit)) == 1


def test_a_turn_waits_only_until_the_away_player_is_back(kit: HostKit) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    kit.say("bob", "me away 10h", dm=True)  # back at 10:00 UTC, the turn falls at 08:00
    first = kit.game().deadline
    kit.clock.set(first)
    kit.tick()
    assert kit.game().deadline == first + 2 * 3600


def test_no_wait_for_an_away_player_whose_order_is_in(kit: HostKit) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    kit.say("bob", "me away 3d", dm=True)
    kit.say("bob", "#bst C3")
    kit.clock.set(kit.game().deadline)
    kit.tick()
    assert kit.game().turn == 2
    assert _away_posts(kit) == []


def test_the_away_option_is_refused_with_an_example_when_it_is_no_length(kit: HostKit) -> None:
    effect = kit.say("alice", "#bst new away=soon")
    assert effect.outcome.value == "refused"
    assert "`new away=12h`" in _private(kit, "alice")[-1]
    assert kit.game() is None


def test_the_host_sets_the_away_option_in_setup_and_the_game_keeps_its_own(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h")
    kit.say("alice", "join")
    kit.say("alice", "options away=6h")
    assert '"away":"6h"' in kit.game().options
    assert '"size":"10x10"' in kit.game().options
    effect = kit.say("alice", "options away=forever")
    assert effect.outcome.value == "refused"
    assert '"away":"6h"' in kit.game().options
