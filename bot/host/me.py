"""``me``: a person's own settings, answered privately, the same on every platform and
for every game: ``me`` shows them, ``me tz ZONE`` sets the time zone every private
message to them is written in, ``me quiet START-END`` (or ``off``) their quiet hours, in
which no reminder reaches them, ``me away 3d`` / ``me back`` whether they are away from
all their games (what that changes is each game's ``away`` option, see
:mod:`bot.host.away`). Nobody else sees them."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta

from bot.games.base import GameError
from bot.games.catalog import games
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
from bot.host.ratings import ordinal
from bot.host.routing import Refusal
from bot.store import Tx, records
from bot.store.changes import NewOffer
from bot.store.ratings import ratings_of, top_ratings
from bot.store.seats import add_offer, drop_offer, latest_sender, pending_link
from bot.store.settings import (
    account_key,
    linked_accounts,
    own_row,
    person_of,
    row_by_link_digest,
    save_settings,
    settings_of,
)

USAGE = (
    "`me`, `me tz Europe/Paris`, `me quiet 23:00-08:00` (or `me quiet off`), "
    "`me away 3d` or `me back`, `me link` to link your account on another platform, "
    "`me rating`, `me top KIND`, `me web off` (or `on`)"
)
LINK_SECONDS = 600.0
CONFIRM = "yes"  # ``me link CODE yes``: linked only when asked again, warned
LINK_OFFER = "link"  # (an offers row: this account was warned about this code)
_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
_CODE_LENGTH = 8  # 40 bits, valid 10 minutes, and senders are rate-limited
LONGEST_AWAY = timedelta(days=30)


def personal_time(tx: Tx, platform: str, user_id: str) -> PersonalTime:
    """The account's zone and quiet hours (UTC and none where it set nothing)."""
    row = settings_of(tx, platform, user_id)
    return PersonalTime() if row is None else as_personal_time(row)


def as_personal_time(row: records.AccountSettings) -> PersonalTime:
    return PersonalTime(row.time_zone, row.quiet_start, row.quiet_end)


def describe(
    settings: PersonalTime,
    away_until: float | None,
    now: float,
    linked: str = "",
    on_web: bool = True,
) -> str:
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
        f"(no reminder reaches you then; it comes before they begin); {away}"
        f"{linked}; {_web_words(on_web)}. Change them with {USAGE}."
    )


def _web_words(on_web: bool) -> str:
    return (
        "the web page shows your ratings and public games"
        if on_web
        else "the web page shows nothing of you"
    )


def _web(argument: str) -> bool:
    """``me web off``: the web page's leaderboards and players' pages leave you out."""
    said = argument.strip().lower()
    if said not in ("on", "off"):
        raise SettingError(
            "say `me web off` to keep your ratings and games off the web page, or `me web on`"
        )
    return said == "on"


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


@dataclass(frozen=True)
class Standing:
    """One's settings as a change reads and returns them."""

    time: PersonalTime
    away_until: float | None
    on_web: bool


# A change of one's settings: what stands → the same, changed.
Change = Callable[[Standing], Standing]


def not_a_setting(rest: str) -> Refusal:
    return Refusal(f"`me {rest.strip()}` is not a setting: send {USAGE}")


def show(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me``: the settings as they stand."""
    stored = settings_of(tx, row.platform, row.user_id)
    current = PersonalTime() if stored is None else as_personal_time(stored)
    away_until = None if stored is None else stored.away_until
    on_web = True if stored is None else stored.on_web
    linked = _linked_text(tx, row, stored)
    said = describe(current, away_until, now, linked, on_web)
    posts.reply(tx, 0, row, said, public=False)


def zone(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me tz ZONE``."""

    def change(now_set: Standing) -> Standing:
        if not argument.strip():
            raise SettingError("say which time zone, such as `me tz Europe/Paris`")
        current = now_set.time
        zoned = PersonalTime(parse_zone(argument), current.quiet_start, current.quiet_end)
        return replace(now_set, time=zoned)

    _change(tx, row, change, now=now)


def quiet(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me quiet HH:MM-HH:MM`` or ``me quiet off``."""

    def change(now_set: Standing) -> Standing:
        if not argument.strip():
            raise SettingError("say which hours, such as `me quiet 23:00-08:00` or `me quiet off`")
        hours = parse_quiet(argument)
        start, end = hours if hours is not None else (None, None)
        return replace(now_set, time=PersonalTime(now_set.time.zone, start, end))

    _change(tx, row, change, now=now)


def away(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me away DURATION``."""

    def change(now_set: Standing) -> Standing:
        if not argument.strip():
            raise SettingError("say for how long, such as `me away 3d`")
        return replace(now_set, away_until=now + _away_for(argument).total_seconds())

    _change(tx, row, change, now=now)


def back(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me back``."""
    _change(tx, row, lambda now_set: replace(now_set, away_until=None), now=now)


def web(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me web on|off``."""
    _change(tx, row, lambda now_set: replace(now_set, on_web=_web(argument)), now=now)


def _change(tx: Tx, row: Cause, change: Change, *, now: float) -> None:
    """Change the sender's settings and answer privately with what now stands."""
    stored = settings_of(tx, row.platform, row.user_id)
    current = PersonalTime() if stored is None else as_personal_time(stored)
    standing = Standing(
        current,
        None if stored is None else stored.away_until,
        True if stored is None else stored.on_web,
    )
    try:
        changed = change(standing)
    except SettingError as error:
        raise Refusal(str(error)) from error
    save_settings(
        tx,
        replace(
            stored or records.AccountSettings(row.platform, row.user_id),
            time_zone=changed.time.zone or DEFAULT_ZONE,
            quiet_start=changed.time.quiet_start,
            quiet_end=changed.time.quiet_end,
            away_until=changed.away_until,
            on_web=changed.on_web,
            updated_at=now,
        ),
    )
    said = describe(changed.time, changed.away_until, now, on_web=changed.on_web)
    posts.reply(tx, 0, row, said, public=False)


def link(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me link [CODE [yes]]``: see _link."""
    _link(tx, row, argument, now=now)


def unlink(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me unlink``: see _unlink."""
    _unlink(tx, row, now=now)


def rating(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me rating``: see _rating."""
    _rating(tx, row)


def top(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me top KIND``: see _top."""
    _top(tx, row, argument)


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode("ascii", "replace")).hexdigest()


def _linked_text(tx: Tx, row: Cause, standing: records.AccountSettings | None) -> str:
    """``; linked with your accounts on discord and x`` where the account is linked."""
    if standing is None:
        return ""
    person = account_key(standing.platform, standing.user_id)
    accounts = [standing, *linked_accounts(tx, person)]
    others = sorted(
        {a.platform for a in accounts if (a.platform, a.user_id) != (row.platform, row.user_id)}
    )
    if len(accounts) < 2 or not others:
        return ""
    return f"; linked with your account on {' and '.join(others)}"


def _link(tx: Tx, row: Cause, argument: str, *, now: float) -> None:
    """``me link``: a code to send from the other account; ``me link CODE``: this account
    becomes the same person as the one that showed the code (whose settings stand)."""
    words = argument.split()
    confirmed = len(words) > 1 and words[-1].lower() == CONFIRM
    given = "".join(words[:-1] if confirmed else words).replace("-", "").upper()
    own = own_row(tx, row.platform, row.user_id) or records.AccountSettings(
        row.platform, row.user_id
    )
    if not given:
        _show_a_code(tx, row, own, now=now)
        return
    issuer = row_by_link_digest(tx, _digest(given), now)
    if issuer is None:
        raise Refusal(
            "that link code is unknown or has expired: send `me link` from your other "
            "account for a new one, then `me link ABCD-EFGH` (its code) from this one"
        )
    mine = account_key(row.platform, row.user_id)
    if (issuer.platform, issuer.user_id) == (row.platform, row.user_id):
        raise Refusal(
            "send this code from your account on the other platform, not from the one it "
            "was shown to, such as `me link ABCD-EFGH` there"
        )
    warned = pending_link(tx, row.platform, row.user_id, _digest(given))
    if not confirmed or warned is None:
        # Someone else's code, passed on as "your" link code, would make this account
        # theirs (their settings; this account's games and hosting theirs too): say so
        # first, always (a `yes` sent before the warning is no answer to it), and link
        # only when asked again knowing it.
        _warn_before_linking(tx, row, issuer, given, now=now)
        return
    drop_offer(tx, warned)
    person = issuer.person or account_key(issuer.platform, issuer.user_id)
    save_settings(tx, replace(issuer, link_digest=None, link_expires=None))
    if person != mine:
        # Accounts linked to this one come along: one person, one row of settings.
        for other in linked_accounts(tx, mine):
            save_settings(tx, replace(other, person=person))
        save_settings(tx, replace(own, person=person, updated_at=now))
    standing = settings_of(tx, row.platform, row.user_id)
    current = PersonalTime() if standing is None else as_personal_time(standing)
    away_until = None if standing is None else standing.away_until
    linked = _linked_text(tx, row, standing)
    posts.reply(tx, 0, row, describe(current, away_until, now, linked), public=False)


def _warn_before_linking(
    tx: Tx, row: Cause, issuer: records.AccountSettings, given: str, *, now: float
) -> None:
    """What linking to the account that was shown ``given`` means, said before it is done
    (the warning is remembered: the same code with ``yes`` then links)."""
    add_offer(
        tx,
        NewOffer(
            game_id=0, kind=LINK_OFFER, platform=row.platform, user_id=row.user_id,
            player_key=_digest(given), created_at=now,
        ),
    )  # fmt: skip
    shown = f"{given[:4]}-{given[4:]}"
    sender = latest_sender(tx, issuer.platform, user_id=issuer.user_id)
    whose = sender.user_name if sender is not None else "an account"
    posts.reply(
        tx, 0, row,
        f"That code was shown to {whose} on {issuer.platform}. Linking makes this "
        "account one player with it: that account sees and plays your games, hosts "
        "those you host, and its settings become yours. Only if it is your own "
        f"account, send `me link {shown} {CONFIRM}` within 10 minutes of when it was "
        "shown; if someone gave you this code, do nothing.",
        public=False,
    )  # fmt: skip


def _show_a_code(tx: Tx, row: Cause, own: records.AccountSettings, *, now: float) -> None:
    """``me link``: a fresh code (only its digest is kept), shown to this account alone."""
    code = "".join(secrets.choice(_CODE_LETTERS) for _ in range(_CODE_LENGTH))
    save_settings(
        tx,
        replace(own, link_digest=_digest(code), link_expires=now + LINK_SECONDS, updated_at=now),
    )
    shown = f"{code[:4]}-{code[4:]}"
    posts.reply(
        tx,
        0,
        row,
        f"Your link code is {shown}. Within 10 minutes, send `me link {shown}` by DM from "
        "your account on the other platform (then, as it asks, `me link "
        f"{shown} {CONFIRM}`): both are then one player, with this account's settings. "
        "Give the code to nobody.",
        public=False,
    )


def _unlink(tx: Tx, row: Cause, *, now: float) -> None:
    """``me unlink``: this account is its own again, with the settings it had of its own."""
    own = own_row(tx, row.platform, row.user_id)
    if own is None or own.person is None:
        if own is not None and linked_accounts(tx, account_key(row.platform, row.user_id)):
            raise Refusal(
                "this account's settings stand for your linked accounts: send `me unlink` "
                "from the account you want to part"
            )
        raise Refusal("this account is linked to no other; `me link` links one")
    own = replace(own, person=None, updated_at=now)
    save_settings(tx, own)
    current = as_personal_time(own)
    posts.reply(tx, 0, row, "Unlinked. " + describe(current, own.away_until, now), public=False)


TOP = 10


def _rating(tx: Tx, row: Cause) -> None:
    """``me rating``: the sender's rating and record in each kind of game they played."""
    rows = ratings_of(tx, person_of(tx, row.platform, row.user_id))
    if not rows:
        text = "You have no rating yet: it comes when a game of two or more players ends."
    else:
        lines = ["Your ratings (OpenSkill; the figure is mu - 3 sigma):"]
        lines += [
            f"- {r.kind}: {ordinal(r):.1f} (mu {r.mu:.1f}, sigma {r.sigma:.1f}); "
            f"{_played(r.played, r.robot_games)}, {r.won} won{_awards(r.kind, r.awards)}"
            for r in rows
        ]
        text = "\n".join(lines)
    posts.reply(tx, 0, row, text, public=False)


def _played(played: int, robot_games: int) -> str:
    """``12 played (4 against robots)``: the games with a robot at the table apart."""
    apart = f" ({robot_games} against robots)" if robot_games else ""
    return f"{played} played{apart}"


def _awards(kind: str, count: int) -> str:
    """``, 2 marks of victory`` where the kind of game gives an award ('' where not)."""
    award = next((g.award for g in games() if g.name == kind), None)
    if award is None:
        return ""
    return f", {count} {award[0] if count == 1 else award[1]}"


def _top(tx: Tx, row: Cause, argument: str) -> None:
    """``me top KIND``: the kind's leaderboard."""
    kinds = [g.name for g in games()]
    kind = argument.strip().lower().removeprefix("#")
    if kind not in kinds:
        raise Refusal(
            f"say which game, such as `me top {kinds[0] if kinds else 'KIND'}`: one of {', '.join(kinds)}"
        )
    rows = top_ratings(tx, kind, TOP)
    if not rows:
        text = f"No {kind} game has been rated yet."
    else:
        lines = [f"The best at {kind} (OpenSkill, mu - 3 sigma):"]
        lines += [
            f"{place}. {r.name or 'someone'}: {ordinal(r):.1f} "
            f"({_played(r.played, r.robot_games)}, {r.won} won)"
            for place, r in enumerate(rows, start=1)
        ]
        text = "\n".join(lines)
    posts.reply(tx, 0, row, text, public=False)
