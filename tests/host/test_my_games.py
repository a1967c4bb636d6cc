"""``games``: a player's own games on the platform, answered privately, each with its
clock and whether their order is in (issue #19's ``/games``)."""

from __future__ import annotations

from pathlib import Path

from host_fakes import HostKit


def test_games_lists_each_game_with_its_clock_and_the_players_order(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.two_player_battle()  # game 1 in "chan": alice and bob, turn 1 running
    kit.say("carol", "#bst new size=10x10", channel="other")
    kit.say("alice", "#bst join", channel="other")
    kit.say("alice", "#bst H2")  # alice's order for game 1's turn 1
    kit.flush()
    before = len(kit.adapter.sent)
    kit.say("alice", "games", dm=True)
    kit.say("bob", "games", dm=True)
    kit.flush()
    (alice, _), (bob, _) = kit.adapter.sent[before:]
    alice_text, bob_text = (o.text for _, o in kit.adapter.sent[before:])
    assert alice.user_name == "alice" and bob.user_name == "bob"  # privately
    # No channel links on this platform: the host's channel token leaves nothing behind.
    assert alice_text.splitlines() == [
        "Your games:",
        f"- #bst game 1: battle, turn 1, closes {_closes(kit)}; your order is in",
        "- #bst game 2: setup",
    ]
    assert bob_text.splitlines()[1].endswith("; no order from you yet")


def test_games_for_someone_in_no_game_says_how_to_join(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.say("dora", "games", dm=True)
    kit.flush()
    assert kit.adapter.texts() == ["You are in no game now: send `join` in a game's channel."]


def test_talk_that_starts_with_games_in_a_sonar_channel_is_ignored(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.say("alice", "#sonar new")
    kit.flush()
    before = len(kit.adapter.sent)
    kit.say("alice", "games tonight?")
    kit.flush()
    assert len(kit.adapter.sent) == before
    kit.say("alice", "games")  # the word alone is the question, answered privately
    kit.flush()
    [(address, outbound)] = kit.adapter.sent[before:]
    assert address.is_dm and outbound.text.startswith("You are in no game now")


def _closes(kit: HostKit) -> str:
    from bot.host.runtime.clock import format_utc

    deadline = kit.game(1).deadline
    assert deadline is not None
    return format_utc(deadline)
