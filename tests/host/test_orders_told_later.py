"""An order the game tells later (Silent Ships' plays and moves, #42) gets no reply of
its own: the host says so, so a platform that shows "working on it" for a command
(Discord's deferred slash command) takes the placeholder away instead of leaving it."""

from __future__ import annotations

from pathlib import Path

from host_fakes import HostKit

from bot.host.commands.inbox import Outcome


def test_an_order_told_later_is_handled_unanswered(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    deck = "frigate,salvage,ram,speed,patrol"
    kit.say("alice", f"#silentships new first=joined deck1={deck} deck2={deck}")
    kit.say("alice", "#silentships join")
    kit.say("bob", "#silentships join")
    kit.say("alice", "#silentships start")
    held = kit.say("alice", "play frigate at D1", dm=True)
    assert held.outcome is Outcome.HANDLED and not held.answered
    refused = kit.say("alice", "play frigate at A4", dm=True)
    assert refused.outcome is Outcome.REFUSED and refused.answered
    ended = kit.say("alice", "end", dm=True)
    assert ended.outcome is Outcome.HANDLED and ended.answered
    assert kit.game().turn == 2  # (the orders did act)
