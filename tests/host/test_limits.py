"""What one person may ask of a live host (issue 24 items 4 and 5): clocks have a
minimum where the clock is real, a game nobody joined ends at its setup deadline, and
each game's clock-driven posts an hour are bounded."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from host_fakes import RecordingAdapter, no_attachments

from bot.config import ConfigError, parse_config
from bot.host.messages import Capabilities, Inbound, InboundKind, Sender
from bot.host.runtime.clock import VirtualClock, to_datetime
from bot.host.runtime.limits import NO_LIMITS, Limits
from bot.host.runtime.service import Host
from bot.store import NewGame, Store
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
        self,
        user: str,
        text: str,
        *,
        dm: bool = False,
        channel: str = "chan",
        server: str = "",
        servers: frozenset[str] | None = None,
    ) -> None:
        """``server``: the community a public message is posted in; ``servers``: those
        the adapter knows the sender belongs to (for a DM)."""
        inbound = Inbound(
            platform="fake",
            channel="" if dm else channel,
            sender=Sender("fake", f"id-{user}", user, communities=servers),
            kind=InboundKind.DM if dm else InboundKind.PUBLIC,
            text=text,
            message_id=f"m{next(self._ids)}",
            sent_at=to_datetime(self.clock.now()),
            community="" if dm else server,
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
            private_answers=True,
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


def _players(live: LiveHost, game_id: int) -> list[str]:
    with live.store.transaction() as tx:
        return [p.name for p in tx.players(game_id)]


def _dms_to(live: LiveHost, user: str) -> list[str]:
    return [o.text for a, o in live.adapter.sent if a.user_id == f"id-{user}"]


# --- item 3: a game opened in a server is joined from there, or by its members ---------


def test_3_a_dm_join_reaches_only_games_of_the_senders_servers(tmp_path: Path) -> None:
    live = LiveHost(tmp_path, NO_LIMITS)
    live.say("ann", "#bst new", channel="c-a", server="guild-a")
    live.say("bea", "#bst new", channel="c-b", server="guild-b")
    live.say("cat", "#bst new reach=all", channel="c-c", server="guild-c")
    live.flush()
    # mallory is in none of these servers: only the game opened to all is hers to join.
    live.say("mallory", "join 1", dm=True, servers=frozenset())
    live.say("mallory", "join 2", dm=True, servers=None)  # (the adapter cannot tell)
    live.say("mallory", "join 3", dm=True, servers=frozenset())
    live.say("mallory", "join 4", dm=True, servers=frozenset())  # (no such game)
    live.flush()
    answers = _dms_to(live, "mallory")
    # The same words whether the game is another server's or does not exist (but for the
    # number the sender named).
    unnumbered = [re.sub(r"^there is no game \d+", "there is no game N", a) for a in answers]
    assert unnumbered[0] == unnumbered[1] == unnumbered[3]
    assert answers[0].startswith("there is no game 1 you can join from here")
    assert (_players(live, 1), _players(live, 2), _players(live, 3)) == ([], [], ["mallory"])
    # a member of guild-a may join its game by DM; a plain `join` lists only what she can
    # reach (guild-a's and the open one), never guild-b's.
    live.say("amy", "join 1", dm=True, servers=frozenset({"guild-a"}))
    live.say("zed", "join", dm=True, servers=frozenset({"guild-a"}))
    live.flush()
    assert _players(live, 1) == ["amy"]
    (listing,) = _dms_to(live, "zed")
    assert "(1, 3)" in listing and "2" not in listing.split("(")[1].split(")")[0]


def test_3_a_buttons_game_number_is_no_way_around_reach(tmp_path: Path) -> None:
    """Issue 39 item 13: a click carries its game's number (Inbound.game); from a DM it
    reaches only what a typed DM does: another server's game is not joined."""
    live = LiveHost(tmp_path, NO_LIMITS)
    live.say("ann", "#bst new", channel="c-a", server="guild-a")

    def click(user: str, servers: frozenset[str]) -> None:
        inbound = Inbound(
            platform="fake",
            channel="",
            sender=Sender("fake", f"id-{user}", user, communities=servers),
            kind=InboundKind.DM,
            text="join",
            message_id=f"click-{user}",
            sent_at=to_datetime(live.clock.now()),
            game=1,
        )
        asyncio.run(live.host.on_inbound(inbound))

    click("mallory", frozenset({"guild-b"}))
    assert _players(live, 1) == []
    click("amy", frozenset({"guild-a"}))
    assert _players(live, 1) == ["amy"]


def test_3_in_its_channel_anyone_there_may_join(tmp_path: Path) -> None:
    live = LiveHost(tmp_path, NO_LIMITS)
    live.say("ann", "#bst new", channel="c-a", server="guild-a")
    live.say("newcomer", "#bst join", channel="c-a", server="guild-a")
    assert _players(live, 1) == ["newcomer"]


def test_3_reach_is_checked(tmp_path: Path) -> None:
    live = LiveHost(tmp_path, NO_LIMITS)
    live.say("ann", "#bst new reach=everywhere", channel="c-a", server="guild-a")
    (answer,) = live.flush()
    assert answer.startswith("reach: expected `server`") and "`new reach=all`" in answer


# --- item 5: per-person rates, quotas, private answers, no paid answers to chatter -----


def test_5_past_the_rate_one_slow_down_then_silence_until_the_minute_is_over(
    tmp_path: Path,
) -> None:
    live = LiveHost(tmp_path)
    live.say("ann", "#bst new")
    live.flush()
    sent_before = len(live.adapter.sent)
    for _ in range(40):
        live.say("mallory", "#bst status")
    live.flush()
    answers = [o.text for _, o in live.adapter.sent[sent_before:]]
    slow = [a for a in answers if a.startswith("slow down")]
    assert len(answers) == LIVE.commands_per_minute + 1 and len(slow) == 1
    assert "at most 20 messages a minute" in slow[0]
    live.say("ann", "#bst status")  # others are not slowed by mallory
    live.clock.advance(61)
    live.say("mallory", "#bst status")  # a minute later: answered again
    live.flush()
    assert not live.adapter.sent[-1][1].text.startswith("slow down")
    assert len(live.adapter.sent) == sent_before + len(answers) + 2


def test_5_chatter_in_a_game_channel_counts_unanswered(tmp_path: Path) -> None:
    """Issue 39 item 5: every message counts toward its sender's rate, talk included; talk
    uses up no warning and gets no answer; a minute later the sender is heard again."""
    live = LiveHost(tmp_path)
    live.say("ann", "#bst new")
    live.flush()
    sent_before = len(live.adapter.sent)
    for n in range(50):
        live.say("bob", f"what a game {n}")
    live.say("bob", "#bst join")  # past the rate: the one warning, then silence
    live.flush()
    assert [o.text[:9] for _, o in live.adapter.sent[sent_before:]] == ["slow down"]
    assert _players(live, 1) == []
    live.clock.advance(61)
    live.say("bob", "#bst join")
    assert _players(live, 1) == ["bob"]


def test_5_replies_from_a_non_player_in_a_games_thread_get_no_answer(tmp_path: Path) -> None:
    """Issue 39 item 5: an untagged reply in a game's thread (its leading mention of the
    bot taken off by the adapter) from someone who plays no seat is talk: 60 of them
    write nothing to the outbox, and do not stop the players' orders."""
    live = LiveHost(tmp_path)
    live.say("ann", "#bst new size=10x10")
    live.say("ann", "join")
    live.say("bob", "join")
    with live.store.transaction() as tx:
        before = len(tx.outbox())
    for n in range(60):
        live.say("mallory", f"great game {n}")
        live.say("mallory", "A1")
    with live.store.transaction() as tx:
        assert len(tx.outbox()) == before
    live.say("bob", "cruiser: F1-F3, cruiser: J8-J10", dm=True)
    with live.store.transaction() as tx:
        assert len(tx.outbox()) == before + 1  # bob's fleet is acknowledged


def test_5_open_games_per_channel_and_per_host_are_bounded(tmp_path: Path) -> None:
    live = LiveHost(tmp_path, Limits(open_games_per_host=2, open_games_per_channel=3))
    # (On the fake platform a game plays in its channel: one channel, one game; the
    # channel quota counts games that moved into threads there too: see the next test.)
    for n in range(3):
        live.say("mallory", "#bst new", channel=f"c{n}", server="guild-a")
    live.say("mallory", "#bst new", channel="c9", server="guild-b")  # another server
    live.flush()
    with live.store.transaction() as tx:
        assert tx.count_open_games("fake", creator="fake:id-mallory") == 3
    refused = _dms_to(live, "mallory")
    assert len(refused) == 1 and refused[0].startswith("you host 2 games that are still running")


def test_5_games_in_the_threads_of_a_channel_count_for_it(tmp_path: Path) -> None:
    live = LiveHost(tmp_path, Limits(open_games_per_channel=2))
    with live.store.transaction() as tx:
        for n, thread in enumerate(("t1", "t2")):  # two games moved into threads of "chan"
            tx.add_game(
                NewGame(
                    kind="bst", platform="fake", channel=thread, lobby="chan",
                    creator=f"fake:id-{n}", options="{}", seed=1, phase="setup",
                    state="{}", created_at=0.0,
                )
            )  # fmt: skip
    live.say("ann", "#bst new", channel="chan")
    (answer,) = live.flush()
    assert answer.startswith("this channel has 2 games running, the most it may have here (2)")


def test_5_help_and_status_asked_in_public_are_answered_privately(tmp_path: Path) -> None:
    live = LiveHost(tmp_path)
    live.say("ann", "#bst new")
    live.flush()
    before = len(live.adapter.sent)
    live.say("bob", "#bst help")
    live.say("bob", "#bst status")
    live.say("bob", "#sonar rules", channel="elsewhere")
    live.flush()
    answers = live.adapter.sent[before:]
    assert len(answers) == 3 and all(address.is_dm for address, _ in answers)


def test_5_where_answers_are_paid_chatter_mentioning_the_bot_gets_none(tmp_path: Path) -> None:
    live = LiveHost(tmp_path)
    live.adapter.capabilities = Capabilities(answers_cost=True)  # as the X adapter says
    live.host = Host(live.store, live.clock, {"fake": live.adapter}, no_attachments, limits=LIVE)
    live.say("ann", "#bst new")
    live.flush()
    before = len(live.adapter.sent)
    live.say("fan", "@bot you are great", channel="chan")  # chatter in a game's thread
    live.say("fan", "@bot hello there", channel="nowhere")  # where no game runs
    live.say("fan", "#bst H1", channel="chan")  # an order from no player: answered
    live.flush()
    answers = [o.text for _, o in live.adapter.sent[before:]]
    assert answers == ["you are not in this game: send `join` to play"]


def test_4_a_games_clock_driven_posts_an_hour_are_bounded_by_the_minimum(
    tmp_path: Path,
) -> None:
    """Two captains and the shortest clock a live host allows: at most one turn's posts a
    minute in public (the issue's `turn=1s` posted a map a second: 3,600 an hour)."""
    live = LiveHost(tmp_path)
    live.say("ann", "#bst new size=10x10 turn=1m")
    live.say("ann", "#bst join")
    live.say("bob", "#bst join")
    live.say("ann", "#bst start")
    live.flush()
    opened = len(live.public())
    live.run_for(3600, step=20)
    live.flush()
    turns = live.public()[opened:]
    assert 0 < len(turns) <= 60, len(turns)
