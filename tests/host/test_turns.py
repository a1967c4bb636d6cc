"""The turn clock: no drift, pause/resume/extend, catch-up, exactly-once resolution."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from host_fakes import HostKit

from bot.games.catalog import get_game
from bot.host.commands.inbox import Commands
from bot.host.play.turns import TurnClock
from bot.host.runtime.clock import VirtualClock
from bot.store import Store

HOUR = 3600.0
TURN = 8 * HOUR


def started(kit: HostKit) -> float:
    kit.two_player_battle("size=10x10 turn=8h")
    return kit.clock.now()


def turn_numbers(kit: HostKit) -> list[int]:
    with kit.store.transaction() as tx:
        return [t.number for t in tx.turns(1)]


def test_4_deadlines_do_not_drift(kit: HostKit) -> None:
    t0 = started(kit)
    assert kit.game().deadline == t0 + TURN
    for n in range(1, 5):
        # the host wakes a little late each time (within the grace)
        kit.clock.set(t0 + n * TURN + 37)
        assert kit.tick() == 1
        assert kit.game().deadline == t0 + (n + 1) * TURN
        assert kit.game().turn == n + 1


def test_4_pause_and_resume_keep_the_time_left(kit: HostKit) -> None:
    t0 = started(kit)
    kit.clock.set(t0 + 3 * HOUR)
    kit.say("alice", "pause")
    assert kit.game().deadline is None
    assert kit.game().paused_remaining == 5 * HOUR
    kit.clock.set(t0 + 100 * HOUR)
    assert kit.tick() == 0  # nothing resolves while paused
    kit.say("alice", "resume")
    assert kit.game().deadline == t0 + 105 * HOUR
    assert kit.game().paused_remaining is None


def test_4_extend_shifts_later_deadlines(kit: HostKit) -> None:
    t0 = started(kit)
    kit.say("alice", "extend 2h")
    assert kit.game().deadline == t0 + TURN + 2 * HOUR
    kit.clock.set(t0 + TURN + 2 * HOUR)
    assert kit.tick() == 1
    assert kit.game().deadline == t0 + 2 * TURN + 2 * HOUR


def test_4_extend_while_paused_adds_to_the_time_left(kit: HostKit) -> None:
    t0 = started(kit)
    kit.say("alice", "pause")
    kit.say("alice", "extend 1h")
    kit.clock.set(t0 + 50 * HOUR)
    kit.say("alice", "resume")
    assert kit.game().deadline == t0 + 50 * HOUR + TURN + HOUR


def test_4_catch_up_resolves_each_overdue_turn_once_on_the_same_schedule(kit: HostKit) -> None:
    t0 = started(kit)
    # the host was down across three deadlines (8h, 16h, 24h) and wakes at 25h
    now = t0 + 3 * TURN + HOUR
    kit.clock.set(now)
    assert kit.tick() == 3
    assert turn_numbers(kit) == [0, 1, 2, 3]
    assert kit.game().turn == 4
    assert kit.game().deadline == t0 + 4 * TURN  # the schedule, not a new one from now
    assert kit.tick() == 0


def test_4_catch_up_puts_each_order_in_the_turn_it_was_stamped(kit: HostKit) -> None:
    t0 = started(kit)
    from bot.host.runtime.clock import to_datetime
    from bot.store import loads

    kit.adapter.pending += [
        kit.inbound("alice", "#bst F1", sent_at=to_datetime(t0 + 1 * HOUR), message_id="a"),
        kit.inbound("alice", "#bst F2", sent_at=to_datetime(t0 + 9 * HOUR), message_id="b"),
        kit.inbound("bob", "#bst A2", sent_at=to_datetime(t0 + 17 * HOUR), message_id="c"),
    ]
    kit.clock.set(t0 + 3 * TURN + HOUR)
    assert kit.tick() == 3
    with kit.store.transaction() as tx:
        orders = {t.number: loads(t.orders) for t in tx.turns(1)}
    assert orders[1] == [{"player": "p1", "action": "shoot", "cell": "F1"}]
    assert orders[2] == [{"player": "p1", "action": "shoot", "cell": "F2"}]
    assert orders[3] == [{"player": "p2", "action": "shoot", "cell": "A2"}]


def test_4_a_turn_closed_late_does_not_move_the_next_deadline(kit: HostKit) -> None:
    t0 = started(kit)
    kit.clock.set(t0 + TURN + 10 * 60)  # ten minutes late
    kit.tick()
    assert kit.game().deadline == t0 + 2 * TURN
    kit.clock.set(t0 + 2 * TURN + 3 * HOUR)  # three hours late
    kit.tick()
    assert kit.game().deadline == t0 + 3 * TURN


def test_4_a_setup_deadline_closed_late_starts_turn_1_at_the_deadline(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 setup_deadline=1h turn=8h")
    t0 = kit.clock.now()
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.clock.set(t0 + HOUR + 2 * HOUR)  # the host wakes two hours after it
    assert kit.tick() == 1
    assert (kit.game().phase, kit.game().deadline) == ("battle", t0 + HOUR + TURN)


def test_3_a_setup_window_missed_while_down_is_announced_once(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 setup_deadline=1h turn=1h")
    t0 = kit.clock.now()
    kit.say("alice", "join")
    kit.clock.set(t0 + 5 * HOUR + 60)  # four more windows passed meanwhile
    kit.tick()
    assert kit.game().deadline == t0 + 6 * HOUR  # still on the hour
    assert len([r for r in kit.outbox() if r.kind.startswith("setup-extended:")]) == 1


def test_resolve_game_twice_for_the_same_turn_resolves_once(kit: HostKit) -> None:
    t0 = started(kit)
    kit.clock.set(t0 + TURN)
    assert kit.host.turns.resolve_game(1, 1) is True
    assert kit.host.turns.resolve_game(1, 1) is False
    assert turn_numbers(kit) == [0, 1]
    assert kit.game().turn == 2


def test_two_clocks_over_one_sqlite_file_resolve_each_turn_once(
    kit: HostKit, tmp_path: Path
) -> None:
    t0 = started(kit)
    url = kit.store.url
    clock = VirtualClock(t0 + 3 * TURN - 1)  # turns 1 and 2 due, within the schedule
    stores = [Store(url), Store(url)]
    clocks = [TurnClock(s, clock, Commands(s, clock)) for s in stores]
    results: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def work(turns: TurnClock) -> None:
        try:
            barrier.wait()
            results.append(turns.resolve_due())
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(c,)) for c in clocks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert sum(results) == 2
    assert turn_numbers(kit) == [0, 1, 2]
    with kit.store.transaction() as tx:
        keys = [(r.game_id, r.turn, r.kind, r.recipient) for r in tx.outbox()]
    assert len(keys) == len(set(keys))
    assert sum(1 for k in keys if k[2] == "map") == 3  # turn 0, 1, 2: one map each
    for store in stores:
        store.dispose()


def test_3_the_setup_deadline_counts_only_the_captains_still_in(kit: HostKit) -> None:
    """Two joined, one left: the setup deadline must not try to start a battle of one."""
    kit.say("alice", "#bst new size=10x10 setup_deadline=1h")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("bob", "leave")
    kit.clock.advance(HOUR)
    assert kit.tick() == 1
    assert kit.game().phase == "setup"
    assert any("needs at least two captains" in r.text for r in kit.outbox())
    kit.say("carol", "join")  # a second captain comes, and the next deadline starts it
    kit.clock.advance(kit.game().deadline - kit.clock.now())
    kit.tick()
    assert kit.game().phase == "battle"
    [begins] = [r.text for r in kit.outbox() if r.kind == "map"]
    assert "2 captains: alice, carol." in begins  # bob, who left, is not named


def test_5_a_captain_whose_ship_is_struck_by_a_moving_ship_is_told_privately(
    kit: HostKit,
) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)
    kit.say("bob", "cruiser: C7-C9, cruiser: J8-J10", dm=True)
    kit.say("alice", "start")
    kit.say("bob", "move cruiser at C7 2 left", dm=True)  # into alice's carrier at C5
    kit.clock.advance(TURN)
    assert kit.tick() == 1
    boards = {r.recipient: r.text for r in kit.outbox() if r.kind == "board" and r.turn == 1}
    assert "a ship collided with your carrier at C5" in boards["p1"]  # not whose ship
    assert "bob" not in boards["p1"].split("Captains afloat")[0]
    assert "your cruiser collided at C5" in boards["p2"]
    assert not [r for r in kit.outbox() if r.kind.startswith("turn-notice:")]  # one DM each


def test_3_a_captain_who_left_during_setup_may_join_again(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("bob", "leave")
    assert kit.say("bob", "join").outcome.value == "handled"
    joined = [r.text for r in kit.outbox() if r.text.startswith("bob joined")]
    assert joined[-1].startswith("bob joined game 1 (2 captains)")
    kit.say("alice", "start")
    assert kit.game().phase == "battle"
    kit.say("bob", "leave")
    assert kit.say("bob", "join").outcome.value == "refused"  # not once the battle is on


class RecordingScheduler:
    """What Host._arm_deadline asks of APScheduler: date jobs."""

    def __init__(self) -> None:
        self.jobs: list[dict[str, object]] = []

    def add_job(self, func: object, trigger: str, **kwargs: object) -> None:
        self.jobs.append({"trigger": trigger, **kwargs})


def test_the_alarm_is_armed_for_the_next_deadline_and_never_for_one_past(kit: HostKit) -> None:
    t0 = started(kit)
    scheduler = RecordingScheduler()
    kit.host._scheduler = scheduler
    kit.host._arm_deadline()
    [job] = scheduler.jobs
    assert job["trigger"] == "date" and job["run_date"].timestamp() == t0 + TURN  # type: ignore[union-attr]
    # Overdue (a game waiting for its platform): the sweeper comes back to it; an alarm
    # armed for "now" would fire, find it waiting, re-arm for "now" and spin.
    kit.clock.set(t0 + TURN + 1)
    kit.host._arm_deadline()
    assert len(scheduler.jobs) == 1


def test_the_collector_is_paused_while_a_turn_resolves_and_on_again_after(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    from bot.games.bst import turns

    seen: list[bool] = []
    real_expire = turns.expire

    def expire(state, timer, orders, rng):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real_expire(state, timer, orders, rng)

    # A deadline that falls is a timer running out: the host calls the game's expire.
    monkeypatch.setattr(get_game("bst").rules, "expire", expire)
    t0 = started(kit)
    assert gc.isenabled()
    kit.clock.set(t0 + TURN)
    assert kit.tick() == 1
    assert seen == [False] and gc.isenabled()


def test_the_collector_is_paused_while_a_turns_state_is_read_and_its_posts_written(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    game = get_game("bst")
    seen: dict[str, list[bool]] = {"decode": [], "report": []}
    real_decode, real_report = game.codec.decode_state, game.words.public_report

    def decode_state(data):  # type: ignore[no-untyped-def]
        seen["decode"].append(gc.isenabled())
        return real_decode(data)

    def public_report(events, names):  # type: ignore[no-untyped-def]
        seen["report"].append(gc.isenabled())
        return real_report(events, names)

    t0 = started(kit)
    monkeypatch.setattr(game.codec, "decode_state", decode_state)
    monkeypatch.setattr(game.words, "public_report", public_report)
    kit.clock.set(t0 + TURN)
    assert kit.tick() == 1
    assert seen["decode"] and not any(seen["decode"])
    assert seen["report"] and not any(seen["report"])  # (the turn's posts)
    assert gc.isenabled()
