"""One player across platforms (issue 30 item 1): accounts linked by a code shown on one
platform and sent from the other, never by a name; settings follow; unlinked accounts
work as before."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from host_fakes import HostKit

from bot.host.commands.inbox import Effect
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.runtime.clock import to_datetime


def _on_other(kit: HostKit, user: str, text: str, number: list[int] = [0]) -> Effect:  # noqa: B006
    number[0] += 1
    return asyncio.run(
        kit.host.on_inbound(
            Inbound(
                platform="other",
                channel="",
                sender=Sender("other", f"o-{user}", user),
                kind=InboundKind.DM,
                text=text,
                message_id=f"o{number[0]}",
                sent_at=to_datetime(kit.clock.now()),
            )
        )
    )


def _private(kit: HostKit, recipient: str) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == recipient]


def _code(kit: HostKit) -> str:
    (text,) = [t for t in _private(kit, "fake:id-bob") if "link code" in t]
    found = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}", text)
    assert found is not None
    return found.group(0)


def test_a_code_shown_on_one_platform_and_sent_from_the_other_links_them(kit: HostKit) -> None:
    kit.say("bob", "me tz Europe/Paris", dm=True)
    kit.say("bob", "me link", dm=True)
    code = _code(kit)
    _on_other(kit, "bobby", f"me link {code.lower()}")
    _on_other(kit, "bobby", f"me link {code.lower()} yes")
    answer = _private(kit, "other:o-bobby")[-1]
    assert "time zone Europe/Paris" in answer and "linked with your account on fake" in answer
    # Settings follow: set on the other platform, they stand for the game account too.
    _on_other(kit, "bobby", "me quiet 22:00-07:00")
    kit.say("bob", "me", dm=True)
    mine = _private(kit, "fake:id-bob")[-1]
    assert "quiet hours 22:00-07:00" in mine and "linked with your account on other" in mine


def test_a_code_works_once_and_not_from_the_account_that_showed_it(kit: HostKit) -> None:
    kit.say("bob", "me link", dm=True)
    code = _code(kit)
    assert kit.say("bob", f"me link {code}", dm=True).outcome.value == "refused"
    assert "other platform" in _private(kit, "fake:id-bob")[-1]
    assert _on_other(kit, "bobby", f"me link {code}").outcome.value == "handled"
    assert _on_other(kit, "bobby", f"me link {code} yes").outcome.value == "handled"
    assert _on_other(kit, "mallory", f"me link {code}").outcome.value == "refused"
    assert "unknown or has expired" in _private(kit, "other:o-mallory")[-1]


def test_a_code_expires_after_ten_minutes(kit: HostKit) -> None:
    kit.say("bob", "me link", dm=True)
    code = _code(kit)
    kit.clock.advance(601)
    assert _on_other(kit, "bobby", f"me link {code}").outcome.value == "refused"


def test_no_link_by_a_matching_name_and_unlinked_accounts_keep_their_own(kit: HostKit) -> None:
    kit.say("bob", "me tz Asia/Tokyo", dm=True)
    _on_other(kit, "bob", "me")  # the same name on another platform is another person
    assert "time zone UTC" in _private(kit, "other:o-bob")[-1]


def test_unlink_gives_the_account_its_own_settings_back(kit: HostKit) -> None:
    kit.say("bob", "me tz Europe/Paris", dm=True)
    kit.say("bob", "me link", dm=True)
    _on_other(kit, "bobby", f"me link {_code(kit)}")
    _on_other(kit, "bobby", f"me link {_code(kit)} yes")
    assert kit.say("bob", "me unlink", dm=True).outcome.value == "refused"
    _on_other(kit, "bobby", "me unlink")
    assert "time zone UTC" in _private(kit, "other:o-bobby")[-1]


def test_quiet_hours_set_on_a_linked_account_hold_back_the_game_accounts_reminder(
    kit: HostKit,
) -> None:
    kit.host.reminder_seconds = 3600
    kit.host.reminder_platforms = frozenset({"fake"})
    kit.say("bob", "me link", dm=True)
    _on_other(kit, "bobby", f"me link {_code(kit)}")
    _on_other(kit, "bobby", f"me link {_code(kit)} yes")
    _on_other(kit, "bobby", "me quiet 00:00-09:00")  # UTC: the whole of turn 1
    kit.two_player_battle()
    kit.clock.set(kit.game().deadline - 1800)
    kit.tick()
    assert [r.recipient for r in kit.outbox() if r.kind == "reminder"] == ["p1"]


def test_away_set_on_the_account_whose_settings_stand_holds_the_linked_game_account(
    kit: HostKit,
) -> None:
    _on_other(kit, "bobby", "me link")  # shown on the other platform, sent from the game's
    (shown,) = [t for t in _private(kit, "other:o-bobby") if "link code" in t]
    found = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}", shown)
    assert found is not None
    kit.say("bob", f"me link {found.group(0)}", dm=True)
    kit.say("bob", f"me link {found.group(0)} yes", dm=True)
    _on_other(kit, "bobby", "me away 3d")
    _on_other(kit, "bobby", "me quiet 00:00-09:00")
    kit.host.reminder_seconds = 3600
    kit.host.reminder_platforms = frozenset({"fake"})
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    first = kit.game().deadline
    kit.clock.set(first - 1800)
    kit.tick()
    assert [r.recipient for r in kit.outbox() if r.kind == "reminder"] == ["p1"]
    kit.clock.set(first)
    kit.tick()
    assert kit.game().deadline == first + 12 * 3600  # bob, away on the other account


def _link_bob_to(kit: HostKit, send: Callable[[str], object]) -> None:
    """bob shows a code on the game's platform; ``send`` sends it from his other account."""
    kit.say("bob", "me link", dm=True)
    send(f"me link {_code(kit)}")
    send(f"me link {_code(kit)} yes")


def test_games_from_a_linked_account_lists_the_persons_games_on_every_platform(
    kit: HostKit,
) -> None:
    kit.two_player_battle()  # bob plays game 1 on "fake"
    _link_bob_to(kit, lambda text: _on_other(kit, "bobby", text))
    _on_other(kit, "bobby", "games")
    lines = _private(kit, "other:o-bobby")[-1].splitlines()
    assert lines[0] == "Your games:"
    assert lines[1].startswith("- #bst game 1: battle (on fake), turn 1, closes ")
    assert lines[1].endswith("; no order from you yet")
    kit.say("bob", "#bst H2")
    _on_other(kit, "bobby", "games")
    assert _private(kit, "other:o-bobby")[-1].endswith("; your order is in")


def test_an_unlinked_account_lists_only_its_own_games(kit: HostKit) -> None:
    kit.two_player_battle()
    _on_other(kit, "bob", "games")  # the same name elsewhere is someone else
    assert _private(kit, "other:o-bob")[-1].startswith("You are in no game now")


def test_one_person_cannot_take_two_seats_from_two_linked_accounts(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10")
    kit.say("bob", "join")
    _link_bob_to(kit, lambda text: kit.say("bob2", text, dm=True))
    effect = kit.say("bob2", "join")
    assert effect.outcome.value == "refused"
    refusal = _private(kit, "fake:id-bob2")[-1]
    assert "you already play in game 1 as bob" in refusal and "one seat" in refusal
    with kit.store.transaction() as tx:
        assert [p.name for p in tx.players(1)] == ["bob"]
    assert kit.say("carol", "join").outcome.value == "handled"  # others still may


def test_a_code_someone_else_showed_links_nothing_before_a_warning_and_a_yes(
    kit: HostKit,
) -> None:
    """Issue 39 item 13: mallory shows a code and gets bob to send it ("your code"): bob
    is told whose code it is and what linking gives them, and nothing is linked unless he
    answers yes after that warning (a `yes` sent at once, as mallory would tell him to,
    is no answer to a warning he was not given)."""
    _on_other(kit, "mallory", "me link")
    (shown,) = [t for t in _private(kit, "other:o-mallory") if "link code" in t]
    found = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}", shown)
    assert found is not None
    code = found.group(0)
    _on_other(kit, "mallory", "me tz Asia/Tokyo")
    for text in (f"me link {code} yes", f"me link {code}"):
        assert kit.say("bob", text, dm=True).outcome.value == "handled"
        warning = _private(kit, "fake:id-bob")[-1]
        assert warning.startswith("That code was shown to mallory on other.")
        assert "hosts those you host" in warning and f"`me link {code} yes`" in warning
        kit.say("bob", "me", dm=True)
        assert "time zone UTC" in _private(kit, "fake:id-bob")[-1]  # not linked
    kit.say("bob", f"me link {code} yes", dm=True)
    kit.say("bob", "me", dm=True)
    assert "time zone Asia/Tokyo" in _private(kit, "fake:id-bob")[-1]  # (he chose to)
