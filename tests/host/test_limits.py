"""What one person may ask of a live host (issue 24 items 4 and 5): clocks have a
minimum where the clock is real, a game nobody joined ends at its setup deadline, and
each game's clock-driven posts an hour are bounded."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from host_fakes import RecordingAdapter, no_attachments

from bot.config import ConfigError, parse_config
from bot.host.clock import VirtualClock, to_datetime
from bot.host.limits import NO_LIMITS, Limits
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.service import Host
from bot.store import Store
from bot.wiring import limits_of, sqlite_url

LIVE = limits_of(parse_config({}, "test"))


class LiveHost:
    """The production host with the limits ``bst run`` uses, on a virtual clock."""

    def __init__(self, tmp_path: Path, limits: Limits = LIVE) -> None:
        self.store = Store(sqlite_url(tmp_path / "limits.sqlite"))
        self.clock = VirtualClock()
        self.adapter = RecordingAdapter()
        self.host = Host(
            self.store, self.clock, {"fake": self.adapter}, no_attachments, limits=limits
        )
        self._ids = iter(range(1, 1_000_000))

    def say(
        self, user: str, text: str, *, dm: bool = False, channel: str = "chan", scope: str = ""
    ) -> None:
        inbound = Inbound(
            platform="fake",
            channel="" if dm else channel,
            sender=Sender("fake", f"id-{user}", user),
            kind=InboundKind.DM if dm else InboundKind.PUBLIC,
            text=text,
            message_id=f"m{next(self._ids)}",
            sent_at=to_datetime(self.clock.now()),
        )
        asyncio.run(self.host.on_inbound(inbound))

    def run_for(self, seconds: float, step: float) -> None:
        for _ in range(int(seconds / step)):
            self.clock.advance(step)
            asyncio.run(self.host.tick())

    def flush(self) -> list[str]:
        asyncio.run(self.host.relay.flush())
        return self.adapter.texts()

    def public(self) -> list[str]:
        return [o.text for a, o in self.adapter.sent if not a.is_dm]


def test_the_live_defaults() -> None:
    assert (
        Limits(
            min_duration_s=60,
            commands_per_minute=20,
            open_games_per_host=3,
            open_games_per_channel=5,
        )
        == LIVE
    )
    with pytest.raises(
        ConfigError, match=r"\[limits\] commands_per_minute: expected a whole number of 0"
    ):
        parse_config({"limits": {"commands_per_minute": -1}}, "test")
    with pytest.raises(ConfigError, match=r"\[limits\] min_duration"):
        parse_config({"limits": {"min_duration": "soon"}}, "test")


def test_4_a_clock_shorter_than_the_minimum_is_refused_on_a_live_host(tmp_path: Path) -> None:
    live = LiveHost(tmp_path)
    live.say("mallory", "#bst new turn=1s setup_deadline=1s")
    (answer,) = live.flush()
    assert answer.startswith("turn: at least 1m on this host")
    assert "`new bst turn=1m`" in answer
    with live.store.transaction() as tx:
        assert tx.game(1) is None
    live.say("mallory", "#uboat new evade_window=1m round=2m")  # the defaults' lengths
    with live.store.transaction() as tx:
        assert tx.game(1) is not None


def test_4_virtual_clocks_keep_no_minimum(tmp_path: Path) -> None:
    scripted = LiveHost(tmp_path, NO_LIMITS)
    scripted.say("alice", "#bst new turn=1s setup_deadline=1s")
    with scripted.store.transaction() as tx:
        assert tx.game(1) is not None


def test_4_a_game_nobody_joined_ends_at_its_setup_deadline(tmp_path: Path) -> None:
    live = LiveHost(tmp_path)
    live.say("mallory", "#bst new turn=1m setup_deadline=1m")
    live.run_for(3600, step=30)  # an hour
    live.flush()
    posts = live.public()
    assert len(posts) == 2, posts  # the opening, then the cancellation: not 60 windows
    assert "nobody joined before setup closed, so the game is cancelled" in posts[-1]
    with live.store.transaction() as tx:
        game = tx.game(1)
        assert game is not None and game.phase == "finished" and game.deadline is None
