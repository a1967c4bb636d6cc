"""A person's own settings (issue 30 item 2): `me tz`, `me quiet`, private times in their
zone, and reminders that never fall in their quiet hours (the clock is virtual: the
script epoch, 2026-01-01 00:00 UTC, is 01:00 in Paris)."""

from __future__ import annotations

from datetime import datetime

import pytest
from host_fakes import HostKit

from bot.host.commands.local_time import PersonalTime, SettingError, parse_quiet, parse_zone


def _private(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == f"fake:id-{user}"]


def _epoch(*parts: int, zone: str = "UTC") -> float:
    from zoneinfo import ZoneInfo

    return datetime(*parts, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


def test_me_shows_the_defaults_utc_and_no_quiet_hours(kit: HostKit) -> None:
    kit.say("bob", "me", dm=True)
    (answer,) = _private(kit, "bob")
    assert "time zone UTC" in answer and "quiet hours none" in answer


def test_me_tz_and_quiet_answer_with_what_now_stands(kit: HostKit) -> None:
    kit.say("bob", "me tz europe/paris", dm=True)
    kit.say("bob", "me quiet 23:00-08:00", dm=True)
    first, second = _private(kit, "bob")
    assert "time zone Europe/Paris" in first and "quiet hours none" in first
    assert "time zone Europe/Paris" in second and "quiet hours 23:00-08:00" in second
    kit.say("bob", "me quiet off", dm=True)
    assert "quiet hours none" in _private(kit, "bob")[-1]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("EST", "abbreviations such as EST"),
        ("CET", "abbreviations such as EST"),
        ("Etc/GMT+5", "no IANA time zone"),
        ("Mars/Olympus", "no IANA time zone"),
    ],
)
def test_me_tz_refuses_abbreviations_and_unknown_zones_with_an_example_and_changes_nothing(
    kit: HostKit, given: str, expected: str
) -> None:
    effect = kit.say("bob", f"me tz {given}", dm=True)
    assert effect.outcome.value == "refused"
    (answer,) = _private(kit, "bob")
    assert expected in answer and "`me tz Europe/Paris`" in answer
    kit.say("bob", "me", dm=True)
    assert "time zone UTC" in _private(kit, "bob")[-1]


@pytest.mark.parametrize("given", ["23-08", "25:00-08:00", "08:00-08:00", "soon"])
def test_me_quiet_refuses_what_is_no_span_of_hours(kit: HostKit, given: str) -> None:
    effect = kit.say("bob", f"me quiet {given}", dm=True)
    assert effect.outcome.value == "refused"
    assert "23:00" in _private(kit, "bob")[0]


def test_me_in_public_is_answered_privately(kit: HostKit) -> None:
    kit.say("bob", "@bot me tz Asia/Tokyo")
    rows = [r for r in kit.outbox() if "Asia/Tokyo" in r.text]
    assert [r.recipient for r in rows] == ["fake:id-bob"]


def test_parse_zone_takes_iana_names_and_utc_only() -> None:
    assert parse_zone("America/New_York") == "America/New_York"
    assert parse_zone("utc") == "UTC"
    for bad in ("EST", "MST", "EST5EDT", "Etc/GMT-1", "Paris"):
        with pytest.raises(SettingError):
            parse_zone(bad)


def test_parse_quiet_reads_a_span_across_midnight() -> None:
    assert parse_quiet("23:00-08:00") == (23 * 60, 8 * 60)
    assert parse_quiet("off") is None


def test_private_times_are_in_the_players_zone_public_ones_in_utc(kit: HostKit) -> None:
    kit.two_player_battle()  # turn 1 closes 2026-01-01 08:00 UTC
    kit.say("bob", "me tz Europe/Paris", dm=True)
    kit.say("bob", "games", dm=True)
    assert "closes 2026-01-01 09:00 CET" in _private(kit, "bob")[-1]
    kit.say("alice", "games", dm=True)
    assert "closes 2026-01-01 08:00 UTC" in _private(kit, "alice")[-1]
    kit.say("bob", "status")  # asked in public: answered in public, in UTC
    public = [r.text for r in kit.outbox() if r.recipient == "public"]
    assert "closes 2026-01-01 08:00 UTC" in public[-1]


def test_quiet_hours_across_midnight_and_a_daylight_saving_gap() -> None:
    paris = PersonalTime("Europe/Paris", 23 * 60, 8 * 60)
    assert paris.quiet_since(_epoch(2026, 1, 2, 3, 0, zone="Europe/Paris")) == _epoch(
        2026, 1, 1, 23, 0, zone="Europe/Paris"
    )
    assert paris.quiet_since(_epoch(2026, 1, 2, 9, 0, zone="Europe/Paris")) is None
    # 29 March 2026: Paris skips 02:00-03:00. Quiet hours from 02:30 begin at 03:30 CEST.
    gap = PersonalTime("Europe/Paris", 2 * 60 + 30, 6 * 60)
    jump = _epoch(2026, 3, 29, 1, 30)  # 01:30 UTC = 03:30 CEST
    assert gap.quiet_since(jump) == jump
    assert gap.quiet_since(jump - 60) is None
    assert gap.format(jump) == "2026-03-29 03:30 CEST"


def test_a_reminder_in_quiet_hours_comes_before_they_begin_and_only_once(kit: HostKit) -> None:
    kit.host.reminder_seconds = 3600  # reminded at 07:00 UTC, an hour before 08:00 UTC
    kit.host.reminder_platforms = frozenset({"fake"})
    kit.say("bob", "me tz Europe/Paris", dm=True)
    kit.say("bob", "me quiet 06:00-10:00", dm=True)  # 05:00-09:00 UTC
    kit.say("carol", "me quiet 03:00-04:00", dm=True)  # carol plays in no game
    kit.two_player_battle()

    def reminders() -> list[str]:
        return [r.recipient for r in kit.outbox() if r.kind == "reminder"]

    kit.clock.set(_epoch(2026, 1, 1, 4, 58))
    kit.tick()
    assert reminders() == []
    kit.clock.set(_epoch(2026, 1, 1, 4, 59, 30))  # 05:59:30 in Paris: the last waking minute
    kit.tick()
    assert reminders() == ["p2"]
    (early,) = [r for r in kit.outbox() if r.kind == "reminder"]
    assert "turn 1 closes in 3 h" in early.text
    kit.clock.set(_epoch(2026, 1, 1, 7, 0))  # the usual moment: alice, not bob again
    kit.tick()
    kit.tick()
    assert sorted(reminders()) == ["p1", "p2"]


def test_no_reminder_reaches_a_player_who_is_quiet_the_whole_turn(kit: HostKit) -> None:
    kit.host.reminder_seconds = 3600
    kit.host.reminder_platforms = frozenset({"fake"})
    kit.say("bob", "me quiet 23:00-09:00", dm=True)  # UTC: the whole of turn 1
    kit.two_player_battle()
    for hour in range(8):
        kit.clock.set(_epoch(2026, 1, 1, hour, 30))
        kit.tick()
    assert [r.recipient for r in kit.outbox() if r.kind == "reminder"] == ["p1"]
