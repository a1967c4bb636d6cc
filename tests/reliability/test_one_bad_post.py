"""One bad post never stops a platform (issue 24, item 1).

Every number a player or host types is bounded and refused with its bounds named,
in every game's options and the host's commands; a message that makes the host fail
anyway is answered, recorded as ``failed`` and never handled again, so nothing queued
behind it waits; only a database failing for now is left for the platform to deliver
again. Through the real Host on a virtual clock (tests/host/host_fakes.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import pytest
from host_fakes import HostKit
from host_kit import MultiKit
from sqlalchemy.exc import OperationalError
from sqlmodel import col, select
from test_migrations import POSTGRES, fresh_postgres_schema

from bot.adapters.script_adapter import ScriptError
from bot.host.commands.inbox import FAILED_REPLY, Outcome, quote_briefly
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.play import orders
from bot.host.runtime.clock import to_datetime
from bot.store.models import GameRow, InboundRow

HUGE = "99999999999999999999"

OUT_OF_RANGE = [
    # (what is sent, what the refusal must name)
    ("#bst new turn=99999999999d", "at most 365d"),
    ("#bst new setup_deadline=99999999999d", "at most 365d"),
    ("#bst new turn=1000000000000000000000000000s", "at most 365d"),
    ("#bst new turn=366d", "at most 365d"),
    (f"#bst new seed={HUGE}1234", "from 0 to 999999999999999999"),
    ("#bst new seed=٣", "from 0 to 999999999999999999"),
    (f"#bst new max_turns={HUGE}", "from 1 to 999999999"),
    (f"#bst new size={HUGE}x10", "such as 20 or 8x12"),
    ("#sonar new move_time=99999999999d", "at most 365d"),
    (f"#sonar new size={HUGE}", "from 4 to 24"),
    ("#sonar new ships=٣", "from"),
    (f"#sonar new seed={HUGE}", "from 0 to 999999999999999999"),
    ("#uboat new round=99999999999d", "at most 365d"),
    ("#uboat new evade_window=99999999999d", "at most 365d"),
    (f"#uboat new rounds={HUGE}", "from"),
    ("#uboat new size=٣", "from"),
    (f"#uboat new islands={HUGE}@C3", "N@CELL"),
    (f"#uboat new seed={HUGE}", "from 0 to 999999999999999999"),
    ("#sugardog new move_time=99999999999d", "at most 365d"),
    (f"#sugardog new seed={HUGE}", "from 0 to 999999999999999999"),
    ("#silentships new move_time=99999999999d", "at most 365d"),
    ("#silentships new response_time=99999999999d", "at most 365d"),
    (f"#silentships new max_turns={HUGE}", "from"),
    (f"#silentships new seed={HUGE}", "from 0 to 999999999999999999"),
]


@pytest.fixture
def kit(tmp_path: Path):
    made = HostKit(tmp_path)
    yield made
    made.store.dispose()


def _games(kit: HostKit) -> list[GameRow]:
    with kit.store.transaction() as tx:
        return list(tx.session.exec(select(GameRow)).all())


def _inbound_rows(kit: HostKit) -> list[InboundRow]:
    with kit.store.transaction() as tx:
        return list(tx.session.exec(select(InboundRow).order_by(col(InboundRow.id))).all())


@pytest.mark.parametrize(("text", "bounds"), OUT_OF_RANGE)
def test_a_number_out_of_range_is_refused_naming_its_bounds(kit: HostKit, text, bounds):
    effect = kit.say("alice", text)
    kit.flush()
    assert effect.outcome is Outcome.REFUSED, text
    (reply,) = kit.adapter.texts()
    assert bounds in reply, reply
    assert len(reply) < 400  # the refusal quotes what was typed, cut short
    assert _games(kit) == []
    # And the next message is handled as if nothing had happened.
    assert kit.say("alice", "#bst new size=10").outcome is Outcome.HANDLED


def test_a_dm_join_with_a_huge_game_number_is_refused_and_names_what_is_expected(kit: HostKit):
    kit.say("alice", "#bst new size=10")
    for number in (HUGE, "1" * 1900, "²", "٣"):
        effect = kit.say("bob", f"join {number}", dm=True, channel="")
        assert effect.outcome is Outcome.REFUSED, number
    kit.flush()
    replies = [t for t in kit.adapter.texts() if "you can join from here" in t]
    assert len(replies) == 4, kit.adapter.texts()
    assert all("such as `join 12`" in reply for reply in replies), replies
    assert all(len(reply) < 300 for reply in replies)
    with kit.store.transaction() as tx:
        assert tx.players(1) == []


def test_extend_is_bounded_by_what_a_clock_may_run(kit: HostKit):
    kit.two_player_battle()
    before = kit.game().deadline
    assert kit.say("alice", "extend 99999999999d").outcome is Outcome.REFUSED
    assert kit.say("alice", "extend 300d").outcome is Outcome.HANDLED
    after_one = kit.game().deadline
    assert after_one == before + 300 * 86400
    # Extend after extend would push the deadline on for ever: refused, naming the room left.
    assert kit.say("alice", "extend 300d").outcome is Outcome.REFUSED
    assert kit.game().deadline == after_one
    kit.flush()
    refusals = [t for t in kit.adapter.texts() if "365d" in t]
    assert len(refusals) == 2, kit.adapter.texts()
    assert "extended by at most" in refusals[1]
    # pause still says how long is left, however long that is
    assert kit.say("alice", "pause").outcome is Outcome.HANDLED


def _orders_fail_on(cell: str, error: Exception, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every order naming ``cell`` makes the host fail with ``error`` (a bug, in effect)."""
    real_order = orders.order

    def order(commands, tx, row, game_row, text):  # type: ignore[no-untyped-def]
        if cell in text:
            raise error
        return real_order(commands, tx, row, game_row, text)

    monkeypatch.setattr(orders, "order", order)


def test_a_message_that_makes_the_host_fail_is_answered_once_and_the_next_goes_on(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
):
    kit.two_player_battle()
    _orders_fail_on("J10", OverflowError("Python int too large to convert to C int"), monkeypatch)
    state_before = kit.game().state
    poison = kit.inbound("alice", "#bst J10", message_id="poison")
    effect = asyncio.run(kit.host.on_inbound(poison))
    assert effect.outcome is Outcome.FAILED
    assert kit.game().state == state_before
    # Delivered again (the platform's cursor had not moved yet): not handled again.
    assert asyncio.run(kit.host.on_inbound(poison)).outcome is Outcome.DUPLICATE
    # The one after it is handled.
    assert kit.say("bob", "#bst A1").outcome is Outcome.HANDLED
    kit.flush()
    assert kit.adapter.texts().count(FAILED_REPLY) == 1
    (failed,) = [row for row in _inbound_rows(kit) if row.message_id == "poison"]
    assert failed.outcome == "failed"


def test_in_a_batch_only_the_failing_message_fails(kit: HostKit, monkeypatch: pytest.MonkeyPatch):
    kit.two_player_battle()
    _orders_fail_on("J10", ValueError("a bug"), monkeypatch)
    batch = [
        kit.inbound("alice", "#bst A1"),
        kit.inbound("bob", "#bst J10"),
        kit.inbound("bob", "#bst B1"),
    ]
    results = kit.host.commands.handle_many(batch)
    assert [r.outcome for r in results] == [Outcome.HANDLED, Outcome.FAILED, Outcome.HANDLED]


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("UPDATE", {}, sqlite3.OperationalError("database is locked")),
        ConnectionResetError("the database went away"),
    ],
)
def test_a_database_failing_for_now_is_left_to_be_delivered_again(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch, error
):
    kit.two_player_battle()
    real_order = orders.order
    failures = [error]

    def order(commands, tx, row, game_row, text):
        if failures:
            raise failures.pop()
        return real_order(commands, tx, row, game_row, text)

    monkeypatch.setattr(orders, "order", order)
    shot = kit.inbound("alice", "#bst J10", message_id="shot")
    with pytest.raises(type(error)):
        asyncio.run(kit.host.on_inbound(shot))
    assert [row for row in _inbound_rows(kit) if row.message_id == "shot"] == []
    # Delivered again once the database is back: handled, once.
    assert asyncio.run(kit.host.on_inbound(shot)).outcome is Outcome.HANDLED


def test_a_held_message_that_fails_does_not_stop_its_games_turns(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
):
    kit.two_player_battle("size=10x10 turn=1h")
    deadline = kit.game().deadline
    assert deadline is not None
    late = kit.inbound("alice", "#bst J10", sent_at=to_datetime(deadline + 1))
    assert asyncio.run(kit.host.on_inbound(late)).outcome is Outcome.HELD
    _orders_fail_on("J10", OverflowError("a bug"), monkeypatch)
    kit.clock.set(deadline + 2)
    kit.tick()
    assert kit.game().turn == 2
    (held,) = [row for row in _inbound_rows(kit) if row.message_id == late.message_id]
    assert held.outcome == "failed"
    assert FAILED_REPLY in kit.adapter.texts()
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    assert kit.game().turn == 3


def test_a_script_waiting_beyond_any_clock_names_its_line(run_script_text):
    with pytest.raises(ScriptError, match=r"line 3: `@wait` a duration must be at most 365d"):
        run_script_text("@game bst size=10x10\nalice public: #bst join\n@wait 100000d\n")
    with pytest.raises(ScriptError, match=r"line 1: `@wait`"):
        run_script_text(f"@wait {HUGE}d\n")


def test_a_script_passing_too_many_deadlines_names_its_line(run_script_text, monkeypatch):
    from bot.cli import script

    monkeypatch.setattr(script, "MAX_DEADLINES_PER_LINE", 3)
    text = (
        "@game bst size=10x10 turn=1h\n"
        "alice public: #bst join\nbob public: #bst join\n"
        "alice dm: random\nbob dm: random\n@start\n@wait 10h\n"
    )
    with pytest.raises(ScriptError, match=r"line 7: `@wait 10h` passes more than 3 deadlines"):
        run_script_text(text)


def test_a_script_with_an_overflowing_option_gets_the_refusal_not_a_crash(run_script_text):
    with pytest.raises(ScriptError, match="opened no game"):
        run_script_text("@game bst turn=99999999999d\n")


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(
                    not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL"
                ),
            ],
        ),
    ]
)
def any_database_kit(request: pytest.FixtureRequest, tmp_path: Path):
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(fresh_postgres_schema()) if request.param != "sqlite" else None
        kit = MultiKit(tmp_path, ["twitter"], url=url)
        stack.callback(kit.store.dispose)
        yield kit


def test_a_nul_in_a_message_or_a_name_is_taken_on_every_database(any_database_kit: MultiKit):
    """PostgreSQL refuses NUL in text, at every delivery: the message must not stall X."""
    kit = any_database_kit
    assert kit.say("twitter", "alice", "#bst new size=8", channel="c").outcome is Outcome.HANDLED
    joined = kit.deliver(
        Inbound(
            platform="twitter",
            channel="c",
            sender=Sender("twitter", "id-bob", "bob\x00"),
            kind=InboundKind.PUBLIC,
            text="#bst join\x00",
            message_id="nul-1",
            sent_at=to_datetime(kit.clock.now()),
        )
    )
    assert joined.outcome is Outcome.HANDLED
    refused = kit.say("twitter", "alice", "#bst \x00\x00 new turn=\x00", channel="c")
    assert refused.outcome is Outcome.REFUSED


def test_a_refusal_never_echoes_a_long_post(kit: HostKit):
    for text in (
        "#bst new size=" + "9" * 1500,
        "#bst new turn=" + "x" * 1500,
        "#bst " + "Z" * 1900,
    ):
        assert kit.say("alice", text).outcome is Outcome.REFUSED
    kit.flush()
    replies = kit.adapter.texts()
    assert len(replies) == 3
    assert all(len(reply) < 300 for reply in replies), [len(r) for r in replies]
    assert all("…'" in reply for reply in replies[:2]), replies
    # Words with apostrophes are not quotes: nothing of a sentence is cut.
    assert quote_briefly("you're in a game the captains can't see; " + "a" * 80 + " don't") == (
        "you're in a game the captains can't see; " + "a" * 80 + " don't"
    )
