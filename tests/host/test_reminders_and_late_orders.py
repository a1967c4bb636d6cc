"""Reminders before a deadline (§4 hosting option) and orders fetched after their turn resolved (§4)."""

from __future__ import annotations

from datetime import timedelta

from host_fakes import HostKit

from bot.host.runtime.clock import to_datetime


def test_4_reminder_goes_once_to_captains_without_an_order(kit: HostKit) -> None:
    kit.host.reminder_seconds = 3600
    kit.host.reminder_platforms = frozenset({"fake"})
    kit.two_player_battle()
    kit.say("alice", "#bst B2")
    game = kit.game()
    kit.clock.set(game.deadline - 1800)  # half an hour before the deadline
    kit.tick()
    kit.tick()  # a second pass must not remind again
    reminders = [row for row in kit.outbox() if row.kind == "reminder"]
    assert [row.recipient for row in reminders] == ["p2"]  # bob has no order; alice has one
    assert "turn 1 closes in 30 min" in reminders[0].text


def test_4_no_reminder_when_reminders_are_off(kit: HostKit) -> None:
    kit.two_player_battle()
    game = kit.game()
    kit.clock.set(game.deadline - 60)
    kit.tick()
    assert not [row for row in kit.outbox() if row.kind == "reminder"]


def test_4_order_stamped_in_a_resolved_turn_is_refused_not_moved_to_the_next(
    kit: HostKit,
) -> None:
    kit.two_player_battle()
    first_deadline = kit.game().deadline
    kit.clock.set(first_deadline)
    kit.tick()
    assert kit.game().turn == 2
    # An X poll that lagged: stamped during turn 1, arriving during turn 2.
    late = to_datetime(first_deadline) - timedelta(minutes=5)
    effect = kit.say("bob", "#bst C3", sent_at=late)
    assert effect.outcome.value == "refused"
    with kit.store.transaction() as tx:
        assert tx.standing_orders(1, 2) == {}
    replies = [
        row for row in kit.outbox() if row.recipient == "fake:id-bob" and "C3" not in row.text
    ]
    assert any("was not counted" in row.text for row in replies)
