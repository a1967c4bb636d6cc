"""Rules §4: a move or rotation posted in public is not executed, the player is told
privately to send it by DM, and the host takes the public message down where the
platform lets it (on Discord, with Manage Messages)."""

from __future__ import annotations

from pathlib import Path

from host_fakes import HostKit, RecordingAdapter
from sqlmodel import select

from bot.host.inbox import Outcome
from bot.host.messages import Address, DeliveryError
from bot.store import InboundRow, loads


class WithdrawingAdapter(RecordingAdapter):
    """A RecordingAdapter on a platform that can delete a message someone posted."""

    def __init__(self) -> None:
        super().__init__()
        self.withdrawn: list[Address] = []
        self.refuse: DeliveryError | None = None

    async def withdraw(self, address: Address) -> None:
        if self.refuse is not None:
            raise self.refuse
        self.withdrawn.append(address)


def kit_that_withdraws(tmp_path: Path) -> tuple[HostKit, WithdrawingAdapter]:
    kit = HostKit(tmp_path)
    adapter = WithdrawingAdapter()
    kit.adapter = adapter
    kit.host.adapters["fake"] = adapter
    kit.host.relay.adapters = kit.host.adapters
    return kit, adapter


def test_rule_4_a_move_posted_in_public_is_not_executed_and_is_taken_down(tmp_path: Path) -> None:
    kit, adapter = kit_that_withdraws(tmp_path)
    kit.two_player_battle()
    kit.flush()
    adapter.sent.clear()
    effect = kit.say("bob", "#bst move cruiser at F1 1 down", message_id="leak")
    assert effect.outcome is Outcome.REFUSED
    with kit.store.transaction() as tx:
        assert tx.standing_orders(1, 1) == {}  # not executed
    kit.flush()
    [taken_down] = adapter.withdrawn
    assert (taken_down.channel, taken_down.reply_to, taken_down.user_id) == ("chan", "leak", None)
    # Then the private answer; nothing was said in public.
    [(address, outbound)] = adapter.sent
    assert address.is_dm and address.user_id == "id-bob"
    assert "moves are private" in outbound.text and "by DM" in outbound.text
    withdraw_rows = [r for r in kit.outbox() if r.kind.startswith("withdraw:")]
    assert [r.status for r in withdraw_rows] == ["sent"]
    assert withdraw_rows[0].text == ""


def test_rule_4_the_public_message_is_taken_down_before_the_private_answer(tmp_path: Path) -> None:
    kit, _adapter = kit_that_withdraws(tmp_path)
    kit.two_player_battle()
    kit.say("bob", "#bst rotate cruiser at F2", message_id="leak")
    with kit.store.transaction() as tx:
        [leak] = tx.session.exec(select(InboundRow).where(InboundRow.message_id == "leak")).all()
    kinds = [r.kind for r in kit.outbox() if r.kind.split(":")[1:2] == [str(leak.id)]]
    assert kinds == [f"withdraw:{leak.id}", f"reply:{leak.id}"]  # the relay sends in id order


def test_rule_4_a_placement_posted_in_public_is_taken_down_too(tmp_path: Path) -> None:
    kit, adapter = kit_that_withdraws(tmp_path)
    kit.say("alice", "#bst new size=10x10")
    kit.say("alice", "join")
    assert kit.say("alice", "#bst sub: A2, carrier: C1-C5", message_id="fleet").outcome is (
        Outcome.REFUSED
    )
    kit.flush()
    assert [a.reply_to for a in adapter.withdrawn] == ["fleet"]


def test_rule_4_a_shot_sent_by_dm_is_refused_and_nothing_is_taken_down(tmp_path: Path) -> None:
    kit, adapter = kit_that_withdraws(tmp_path)
    kit.two_player_battle()
    assert kit.say("bob", "H2", dm=True).outcome is Outcome.REFUSED
    kit.flush()
    assert adapter.withdrawn == []
    assert not [r for r in kit.outbox() if r.kind.startswith("withdraw:")]


def test_on_a_platform_that_cannot_delete_the_row_is_skipped_and_nothing_empty_is_sent(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path)  # its RecordingAdapter has no withdraw (as X has none)
    kit.two_player_battle()
    kit.flush()
    kit.adapter.sent.clear()
    kit.say("bob", "#bst move cruiser at F1 1 down")
    kit.flush()
    assert [r.status for r in kit.outbox() if r.kind.startswith("withdraw:")] == ["skipped"]
    assert [address.is_dm for address, _ in kit.adapter.sent] == [True]
    assert all(outbound.text for _, outbound in kit.adapter.sent)


def test_without_the_permission_the_row_is_undeliverable_and_nobody_is_nudged(
    tmp_path: Path,
) -> None:
    kit, adapter = kit_that_withdraws(tmp_path)
    kit.two_player_battle()
    kit.flush()
    adapter.refuse = DeliveryError("Discord answered 403 (code 50013)", permanent=True)
    kit.say("bob", "#bst move cruiser at F1 1 down")
    kit.flush()
    [row] = [r for r in kit.outbox() if r.kind.startswith("withdraw:")]
    assert row.status == "undeliverable" and "50013" in row.error
    assert not [r for r in kit.outbox() if r.kind.startswith("nudge:")]
    assert loads(row.address)["reply_to"]


def test_a_redelivered_public_move_is_taken_down_once(tmp_path: Path) -> None:
    kit, adapter = kit_that_withdraws(tmp_path)
    kit.two_player_battle()
    kit.say("bob", "#bst move cruiser at F1 1 down", message_id="leak")
    assert kit.say("bob", "#bst move cruiser at F1 1 down", message_id="leak").outcome is (
        Outcome.DUPLICATE
    )
    kit.flush()
    assert [a.reply_to for a in adapter.withdrawn] == ["leak"]
