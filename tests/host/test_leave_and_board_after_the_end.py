"""#42 item 12: `leave` during a battle is confirmed where a person types (a script's
acts at once, as the contracts say); `board` after the end shows the final board."""

from __future__ import annotations

from pathlib import Path

from host_fakes import HostKit

from bot.adapters.bluesky.adapter import BlueskyAdapter
from bot.adapters.discord.adapter import DiscordAdapter
from bot.adapters.mastodon.adapter import MastodonAdapter
from bot.adapters.twitter.adapter import TwitterAdapter
from bot.games.base import GamePhase
from bot.host.commands.inbox import Outcome

DECK = "frigate,salvage,ram,speed,patrol"


def _battle(kit: HostKit) -> None:
    kit.say("alice", f"#silentships new first=joined deck1={DECK} deck2={DECK}")
    kit.say("alice", "#silentships join")
    kit.say("bob", "#silentships join")
    kit.say("alice", "#silentships start")


def _texts_to(kit: HostKit, who: str) -> list[str]:
    return [row.text for row in kit.outbox() if row.recipient.endswith(f"id-{who}")]


def test_the_live_platforms_declare_that_a_person_types_there() -> None:
    for adapter in (DiscordAdapter, TwitterAdapter, MastodonAdapter, BlueskyAdapter):
        assert adapter.capabilities.confirms_final_steps is True, adapter


def test_leave_in_a_battle_asks_first_where_a_person_types(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.host.commands.confirm_platforms = frozenset({"fake"})
    _battle(kit)
    asked = kit.say("bob", "leave", dm=True)
    assert asked.outcome is Outcome.HANDLED
    assert kit.game().phase == GamePhase.RUNNING  # nothing changed
    assert _texts_to(kit, "bob")[-1] == (
        "Leaving game 1 is final: you cannot join it again. With two players, leaving ends "
        "it. Send `leave yes` to leave; nothing changes until you do."
    )
    refused = kit.say("bob", "leave now", dm=True)
    assert refused.outcome is Outcome.REFUSED
    assert kit.game().phase == GamePhase.RUNNING
    kit.say("bob", "leave yes", dm=True)
    assert kit.game().phase == GamePhase.FINISHED


def test_leave_acts_at_once_in_a_script(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)  # (its platform declares nothing: as a script's)
    _battle(kit)
    kit.say("bob", "leave", dm=True)
    assert kit.game().phase == GamePhase.FINISHED


def test_board_asked_in_the_channel_after_the_end_is_the_final_board(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    _battle(kit)
    kit.say("bob", "leave", dm=True)
    answer = kit.say("alice", "#silentships board")
    assert answer.outcome is Outcome.HANDLED
    final = _texts_to(kit, "alice")[-1]
    assert "· finished" in final and "Your hand:" in final
    # Someone who did not play it is told the game is over, as before.
    stranger = kit.say("carol", "#silentships board")
    assert stranger.outcome is Outcome.REFUSED
