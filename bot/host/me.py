"""``me``: a person's own settings, answered privately, the same on every platform and
for every game: ``me`` shows them, ``me tz ZONE`` sets the time zone every private
message to them is written in, ``me quiet START-END`` (or ``off``) their quiet hours, in
which no reminder reaches them, ``me away 3d`` / ``me back`` whether they are away from
all their games (what that changes is each game's ``away`` option, see
:mod:`bot.host.away`). Nobody else sees them."""

from __future__ import annotations

from datetime import timedelta

from bot.games.base import GameError
from bot.games.duration import format_duration, parse_duration
from bot.host import posts
from bot.host.local_time import (
    DEFAULT_ZONE,
    PersonalTime,
    SettingError,
    format_clock,
    parse_quiet,
    parse_zone,
)
from bot.host.posts import Cause
from bot.host.routing import Refusal, command_word
from bot.store import Tx
from bot.store.models import PlayerSettingsRow
from bot.store.settings import save_settings, settings_of

USAGE = (
    "`me`, `me tz Europe/Paris`, `me quiet 23:00-08:00` (or `me quiet off`), "
    "`me away 3d` or `me back`"
)
LONGEST_AWAY = timedelta(days=30)


def personal_time(tx: Tx, platform: str, user_id: str) -> PersonalTime:
    """The account's zone and quiet hours (UTC and none where it set nothing)."""
    row = settings_of(tx, platform, user_id)
    return PersonalTime() if row is None else as_personal_time(row)


def as_personal_time(row: PlayerSettingsRow) -> PersonalTime:
    return PersonalTime(row.time_zone, row.quiet_start, row.quiet_end)


def describe(settings: PersonalTime, away_until: float | None, now: float) -> str:
    if settings.quiet_start is None or settings.quiet_end is None:
        quiet = "none"
    else:
        quiet = f"{format_clock(settings.quiet_start)}-{format_clock(settings.quiet_end)}"
    away = (
        f"away until {settings.format(away_until)}"
        if away_until is not None and away_until > now
        else "not away"
    )
    return (
        f"Your settings: time zone {settings.zone}; quiet hours {quiet} "
        f"(no reminder reaches you then; it comes before they begin); {away}. "
        f"Change them with {USAGE}."
    )


def _away_for(argument: str) -> timedelta:
    try:
        length = parse_duration(argument.strip())
    except GameError:
        raise SettingError(
            f"expected how long you are away, such as `me away 3d` or `me away 12h`, "
            f"got {argument.strip()!r}"
        ) from None
    if length > LONGEST_AWAY:
        raise SettingError(
            f"at most {format_duration(LONGEST_AWAY)} away at once, such as `me away 3d`"
        )
    return length


def me(tx: Tx, row: Cause, rest: str, *, now: float) -> None:
    """Carry out ``me …`` and answer privately with what now stands."""
    word, argument = command_word(rest)
    stored = settings_of(tx, row.platform, row.user_id)
    current = PersonalTime() if stored is None else as_personal_time(stored)
    try:
        away_until = None if stored is None else stored.away_until
        if word == "":
            posts.reply(tx, 0, row, describe(current, away_until, now), public=False)
            return
        if word in ("tz", "zone", "timezone"):
            if not argument.strip():
                raise SettingError("say which time zone, such as `me tz Europe/Paris`")
            changed = PersonalTime(parse_zone(argument), current.quiet_start, current.quiet_end)
        elif word == "quiet":
            if not argument.strip():
                raise SettingError(
                    "say which hours, such as `me quiet 23:00-08:00` or `me quiet off`"
                )
            quiet = parse_quiet(argument)
            start, end = quiet if quiet is not None else (None, None)
            changed = PersonalTime(current.zone, start, end)
        elif word == "away":
            if not argument.strip():
                raise SettingError("say for how long, such as `me away 3d`")
            changed = current
            away_until = now + _away_for(argument).total_seconds()
        elif word == "back" and not argument.strip():
            changed, away_until = current, None
        else:
            raise SettingError(f"`me {rest.strip()}` is not a setting: send {USAGE}")
    except SettingError as error:
        raise Refusal(str(error)) from error
    row_to_save = stored or PlayerSettingsRow(platform=row.platform, user_id=row.user_id)
    row_to_save.time_zone = changed.zone or DEFAULT_ZONE
    row_to_save.quiet_start = changed.quiet_start
    row_to_save.quiet_end = changed.quiet_end
    row_to_save.away_until = away_until
    row_to_save.updated_at = now
    save_settings(tx, row_to_save)
    posts.reply(tx, 0, row, describe(changed, away_until, now), public=False)
