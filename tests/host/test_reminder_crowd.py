"""A public reminder naming a crowd is split into posts that each name a bounded few."""

from __future__ import annotations

from host_fakes import HostKit

from bot.host.outbox import posts
from bot.host.play.turns import NAMES_PER_REMINDER


def test_a_reminder_naming_a_crowd_is_split_each_post_naming_its_own(kit: HostKit) -> None:
    crowd = [f"captain{n}" for n in range(2 * NAMES_PER_REMINDER + 7)]
    kit.host.reminder_seconds = 3600
    kit.host.public_reminders = frozenset({"fake"})  # one public post, as on Discord
    kit.say("alice", "#bst new size=30x30 turn=8h")
    for name in crowd:
        kit.say(name, "join")
    kit.say("alice", "start")
    game = kit.game()
    assert game.deadline is not None
    kit.clock.set(game.deadline - 1800)
    kit.tick()
    kit.tick()  # nothing twice
    reminders = [row for row in kit.outbox() if row.kind.startswith("reminder")]
    assert len(reminders) == 3
    named = [posts.MENTION_TOKEN.findall(row.text) for row in reminders]
    assert all(len(names) <= NAMES_PER_REMINDER for names in named)
    everyone = [name for names in named for name in names]
    assert len(everyone) == len(set(everyone)) == len(crowd)
    assert all("closes in 30 min" in row.text for row in reminders)
