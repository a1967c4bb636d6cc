"""The outbox's kinds and addresses are typed values with one wire format
(bot.host.outbox.wire), and that format is the one every database already holds: the
same strings, byte for byte, so no migration and no record changes."""

from __future__ import annotations

import json

import pytest

from bot.host.messages import Address
from bot.host.outbox import wire as kinds
from bot.host.outbox.wire import Act, PostKind, decode_address, encode_address

# Kinds as the host has always stored them (f-strings before the typed kinds).
STORED = [
    "reply:12",
    "reply:12:n0",
    "map",
    "map:2",
    "board",
    "board:2",
    "notice:3:1",
    "notice:3:2:1",
    "turn-notice:3",
    "turn-notice:3:2",
    "withdraw:40",
    "room",
    "room-member:41",
    "close-room",
    "lobby:end",
    "nudge:did:plc:abc123",  # a Bluesky user id holds ":" itself
    "reminder",
    "reminder:2",
    "setup-extended:1767225600:1",
    "seat-offer:7",
    "standings",
    "replay",
]


@pytest.mark.parametrize("stored", STORED)
def test_every_stored_kind_reads_back_as_the_same_string(stored: str) -> None:
    assert PostKind.parse(stored).key() == stored


def test_the_kinds_the_host_writes_are_the_strings_it_always_wrote() -> None:
    assert kinds.reply(12).key() == "reply:12"
    assert kinds.reply(12, "n0").key() == "reply:12:n0"
    assert kinds.of_step(kinds.MAP, 0).key() == "map"
    assert kinds.of_step(kinds.BOARD, 2).key() == "board:2"
    assert kinds.public_notice(3, 0, 1).key() == "notice:3:1"
    assert kinds.public_notice(3, 2, 1).key() == "notice:3:2:1"
    assert kinds.turn_notice(3, 0).key() == "turn-notice:3"
    assert kinds.turn_notice(3, 2).key() == "turn-notice:3:2"
    assert kinds.in_lobby(PostKind(kinds.END)).key() == "lobby:end"
    assert kinds.reminder(0).key() == "reminder"
    assert kinds.reminder(1).key() == "reminder:2"
    assert PostKind.of("seat-offer", 7).key() == "seat-offer:7"


def test_what_the_relay_does_with_a_row_is_its_kinds_act() -> None:
    acts = {stored: PostKind.parse(stored).act for stored in STORED}
    assert acts.pop("withdraw:40") is Act.WITHDRAW
    assert acts.pop("room") is Act.OPEN_ROOM
    assert acts.pop("room-member:41") is Act.ROOM_MEMBER
    assert acts.pop("close-room") is Act.CLOSE_ROOM
    assert set(acts.values()) == {Act.SEND}


def test_the_posts_that_link_the_page_and_those_that_stay_in_the_lobby() -> None:
    linked = {s for s in STORED if PostKind.parse(s).links_page("public")}
    assert linked == {"map", "map:2", "standings", "replay", "lobby:end"}
    assert not PostKind.parse("map").links_page("ann")  # a DM links nothing
    assert {s for s in STORED if PostKind.parse(s).reports_turn} == {"map", "map:2"}
    assert {s for s in STORED if PostKind.parse(s).for_lobby} == {"room", "lobby:end"}


def _as_dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_an_address_is_stored_as_it_always_was_and_reads_back() -> None:
    reply = Address("discord", "c1", reply_to="m1")
    assert encode_address(reply) == _as_dumps(
        {"platform": "discord", "channel": "c1", "user_id": None, "user_name": None,
         "reply_to": "m1"}
    )  # fmt: skip
    dm = Address("twitter", "", "u1", 'Zoë "Z"', None)
    assert encode_address(dm) == _as_dumps(
        {"platform": "twitter", "channel": "", "user_id": "u1", "user_name": 'Zoë "Z"',
         "reply_to": None}
    )  # fmt: skip
    crew = Address("discord", "c1", "u1", "ann", None, group="crew:p1",
                   members=(("u1", "ann"), ("u2", "ben")), group_name="#uboat game 1: crew")  # fmt: skip
    assert encode_address(crew) == _as_dumps(
        {"platform": "discord", "channel": "c1", "user_id": "u1", "user_name": "ann",
         "reply_to": None, "group": "crew:p1", "members": [["u1", "ann"], ["u2", "ben"]],
         "group_name": "#uboat game 1: crew"}
    )  # fmt: skip
    for address in (reply, dm, crew):
        assert decode_address(encode_address(address)) == address
