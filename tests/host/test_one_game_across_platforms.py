"""One game across platforms (issue 30 item 6): a game's host brings it to public rooms on
other platforms (`bridge GAME`, from an account linked to theirs); players join from
wherever they are; the public map and reports go to every room; private boards to each
player on their own platform; an order counts wherever it is sent. Here through three
fake platforms named after Discord, X and the console (tests/reliability/host_kit.py);
test_cross_platform_adapters.py plays the same through the real adapters."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1] / "reliability"))

from host_kit import MultiKit

from bot.host.commands import bridges
from bot.host.commands.bridges import MOST_ROOMS
from bot.store import loads
from bot.store.rooms import room

ROOMS = {"discord": "d-naval", "x": "x-room", "console": "console"}


@pytest.fixture
def kit(tmp_path: Path) -> Iterator[MultiKit]:
    made = MultiKit(tmp_path, platforms=tuple(ROOMS))
    yield made
    made.store.dispose()


def _dm_texts(kit: MultiKit, platform: str, user: str) -> list[str]:
    return [
        r.text
        for r in kit.outbox()
        if f'"user_id":"id-{user}"' in r.address and f'"platform":"{platform}"' in r.address
    ]


def _link(kit: MultiKit, platform: str, user: str) -> None:
    """alice's account on ``platform`` becomes one person with her Discord account."""
    kit.say("discord", "alice", "me link", channel="", dm=True)
    shown = re.findall(r"[A-Z2-9]{4}-[A-Z2-9]{4}", _dm_texts(kit, "discord", "alice")[-1])[0]
    kit.say(platform, user, f"me link {shown}", channel="", dm=True)
    kit.say(platform, user, f"me link {shown} yes", channel="", dm=True)


def _rooms_of(kit: MultiKit, kind: str) -> set[tuple[str, str]]:
    found = set()
    for row in kit.outbox():
        if row.kind == kind:
            address = loads(row.address)
            found.add((address["platform"], address["channel"]))
    return found


def _game_across_three_platforms(kit: MultiKit) -> None:
    kit.say("discord", "alice", "#bst new size=10x10 turn=8h", channel=ROOMS["discord"])
    _link(kit, "x", "alice_x")
    _link(kit, "console", "alice_c")
    # On X the room is a thread that alice's post starts (it names the bot); the console's
    # people all run their room (as the console adapter says).
    effect = kit.say("x", "alice_x", "#bst bridge 1", channel=ROOMS["x"], message_id=ROOMS["x"])
    assert effect.outcome.value == "handled"
    effect = kit.say("console", "alice_c", "#bst bridge 1", channel=ROOMS["console"], admin=True)
    assert effect.outcome.value == "handled"
    kit.say("discord", "alice", "#bst join", channel=ROOMS["discord"])
    kit.say("x", "bob", "#bst join", channel=ROOMS["x"])
    kit.say("console", "carol", "#bst join", channel=ROOMS["console"])
    # Placements by DM, each from their own platform (a DM there names no channel).
    kit.say("discord", "alice", "sub: A2\ncarrier: C1-C5", channel="", dm=True)
    kit.say("x", "bob", "cruiser: F1-F3, cruiser: J8-J10", channel="", dm=True)
    kit.say("console", "carol", "sub: J1", channel="", dm=True)
    assert kit.say("discord", "alice", "start", channel=ROOMS["discord"]).outcome.value == "handled"


def test_a_game_is_played_from_rooms_on_discord_x_and_the_console(kit: MultiKit) -> None:
    _game_across_three_platforms(kit)
    with kit.store.transaction() as tx:
        game = tx.game(1)
        assert game is not None and game.phase == "battle"
        assert [(p.name, p.platform) for p in tx.players(1)] == [
            ("alice", "discord"), ("bob", "x"), ("carol", "console"),
        ]  # fmt: skip
    # The public map of the start: in all three rooms.
    assert _rooms_of(kit, "map") == {(p, c) for p, c in ROOMS.items()}
    # Each player's board: to them alone, on their own platform.
    boards = {}
    for row in kit.outbox():
        if row.kind == "board":
            address = loads(row.address)
            boards[row.recipient] = (address["platform"], address["user_id"], address["channel"])
    assert boards == {
        "p1": ("discord", "id-alice", ROOMS["discord"]),
        "p2": ("x", "id-bob", ""),
        "p3": ("console", "id-carol", ""),
    }
    # Orders count wherever they are sent: a room on each platform, and a DM.
    assert kit.say("x", "bob", "#bst B2", channel=ROOMS["x"]).outcome.value == "handled"
    assert (
        kit.say("console", "carol", "#bst C1", channel=ROOMS["console"]).outcome.value == "handled"
    )
    assert (
        kit.say("discord", "alice", "move carrier at C1 1 right", channel="", dm=True).outcome.value
        == "handled"
    )
    with kit.store.transaction() as tx:
        assert sorted(tx.standing_orders(1, 1)) == ["p1", "p2", "p3"]
    kit.clock.set(kit.game(1).deadline + 1)
    kit.tick()
    assert kit.game(1).turn == 2
    report = [r for r in kit.outbox() if r.kind == "map" and r.turn == 1]
    assert {(loads(r.address)["platform"], loads(r.address)["channel"]) for r in report} == set(
        ROOMS.items()
    )
    assert len({r.text for r in report}) == 1  # the same report in each
    # And each platform sent it: the relay delivers every copy on its own platform.
    kit.flush()
    for platform in ROOMS:
        assert any("turn 1" in text for text in kit.adapters[platform].texts()), platform


def test_one_person_has_one_seat_whichever_room_they_join_from(kit: MultiKit) -> None:
    _game_across_three_platforms(kit)
    effect = kit.say("x", "alice_x", "#bst join", channel=ROOMS["x"])
    assert effect.outcome.value == "refused"
    assert "you already play in game 1 as alice" in _dm_texts(kit, "x", "alice_x")[-1]


def test_only_the_games_host_brings_it_to_a_room_and_one_game_a_room(kit: MultiKit) -> None:
    kit.say("discord", "alice", "#bst new size=10x10", channel=ROOMS["discord"])
    kit.say("discord", "dave", "#bst new size=10x10", channel="d-other")
    cases = [
        (("x", "mallory", "#bst bridge 1"), "only game 1's host"),  # not linked to alice
        (("x", "mallory", "#bst bridge"), "`bridge 12`"),
        (("x", "mallory", "#bst bridge 99"), "`bridge 12`"),
        (("discord", "alice", "#bst bridge 1"), "played here already"),
    ]
    for (platform, user, text), expected in cases:
        channel = ROOMS["discord"] if platform == "discord" else ROOMS["x"]
        assert kit.say(platform, user, text, channel=channel).outcome.value == "refused", text
        assert expected in _dm_texts(kit, platform, user)[-1], text
    _link(kit, "x", "alice_x")
    kit.say("x", "alice_x", "#bst bridge 1", channel=ROOMS["x"], message_id=ROOMS["x"])
    kit.say("x", "dave_x", "#bst new size=10x10", channel=ROOMS["x"])
    assert "game 1 is already running in this channel" in _dm_texts(kit, "x", "dave_x")[-1]
    # A room admin on the bridged platform has no say over the game.
    effect = kit.say("x", "mod", "#bst end", channel=ROOMS["x"], admin=True)
    assert effect.outcome.value == "refused"
    assert kit.game(1).phase == "setup"


def test_the_hosts_linked_account_runs_the_game_from_a_bridged_room(kit: MultiKit) -> None:
    _game_across_three_platforms(kit)
    assert kit.say("x", "alice_x", "#bst pause", channel=ROOMS["x"]).outcome.value == "handled"
    assert kit.game(1).paused_remaining is not None
    paused = [r for r in kit.outbox() if "paused with" in r.text]
    assert {loads(r.address)["platform"] for r in paused} == set(ROOMS)


def test_a_catch_up_reads_every_room_and_each_players_own_platform(kit: MultiKit) -> None:
    """After downtime, orders sent in a bridged room or by DM on another platform count
    too: the live scope each platform is asked to read holds them."""
    _game_across_three_platforms(kit)
    scopes = kit.host._live_scopes(["discord", "x", "console"])
    assert scopes["discord"].channels == {ROOMS["discord"]}
    assert scopes["discord"].users == {"id-alice"}
    assert scopes["x"].channels == {ROOMS["x"]} and scopes["x"].users == {"id-bob"}
    assert scopes["console"].channels == {"console"} and scopes["console"].users == {"id-carol"}


def test_an_answer_to_one_asker_stays_in_their_room(kit: MultiKit) -> None:
    _game_across_three_platforms(kit)
    before = len(kit.outbox())
    kit.say("x", "bob", "#bst status", channel=ROOMS["x"])
    kit.say("console", "carol", "#bst help", channel=ROOMS["console"])
    answers = kit.outbox()[before:]
    assert len(answers) == 2
    assert {(loads(r.address)["platform"], loads(r.address)["channel"]) for r in answers} == {
        ("x", ROOMS["x"]),
        ("console", ROOMS["console"]),
    }


def test_the_admins_of_a_room_bridged_on_the_games_own_platform_have_no_say(
    kit: MultiKit,
) -> None:
    """Issue 39 item 4: `is_host` compared only the platform, so the admins of another
    Discord room the game was bridged into could end, kick, pause and replace."""
    kit.say("discord", "alice", "#bst new size=10x10", channel=ROOMS["discord"])
    kit.say("discord", "alice", "#bst bridge 1", channel="d-elsewhere", admin=True)
    for verb in ("pause", "kick alice", "end"):
        effect = kit.say("discord", "mod", f"#bst {verb}", channel="d-elsewhere", admin=True)
        assert effect.outcome.value == "refused", verb
        assert "only the game's host" in _dm_texts(kit, "discord", "mod")[-1]
    assert kit.game(1).phase == "setup"
    # In the game's own room, its admins still are its hosts.
    effect = kit.say("discord", "mod", "#bst end", channel=ROOMS["discord"], admin=True)
    assert effect.outcome.value == "handled"


def _is_bridged(kit: MultiKit, platform: str, channel: str) -> bool:
    with kit.store.transaction() as tx:
        return room(tx, platform, channel) is not None


def test_a_bridge_waits_for_an_admin_of_the_room_and_may_be_declined(kit: MultiKit) -> None:
    """Issue 39 item 6: a host who does not run the receiving room only offers the game;
    an admin of that room accepts (`bridge yes`) or declines (`bridge no`)."""
    kit.say("discord", "alice", "#bst new size=10x10", channel=ROOMS["discord"])
    kit.say("discord", "alice", "#bst bridge 1", channel="d-theirs")
    assert not _is_bridged(kit, "discord", "d-theirs")
    offered = [r for r in kit.outbox() if '"channel":"d-theirs"' in r.address]
    assert "once an admin of this room says `bridge yes` here" in offered[-1].text
    kit.say("discord", "alice", "#bst status", channel=ROOMS["discord"])
    assert len([r for r in kit.outbox() if '"channel":"d-theirs"' in r.address]) == 1
    effect = kit.say("discord", "visitor", "#bst bridge yes", channel="d-theirs")
    assert effect.outcome.value == "refused" and not _is_bridged(kit, "discord", "d-theirs")
    kit.say("discord", "mod", "#bst bridge no", channel="d-theirs", admin=True)
    assert not _is_bridged(kit, "discord", "d-theirs")
    kit.say("discord", "alice", "#bst bridge 1", channel="d-theirs")
    # As the offer says it, untagged: the room has an offer waiting, so it is for the host.
    assert kit.say("discord", "mod", "bridge yes", channel="d-theirs", admin=True)
    assert _is_bridged(kit, "discord", "d-theirs")


def test_a_bridge_into_someone_elses_thread_is_only_an_offer(kit: MultiKit) -> None:
    """Where a room is a thread (X, Mastodon, Bluesky), a bridge is made at once only into
    a thread the host's own post starts, naming the bot; a reply deep in a stranger's
    thread is an offer nobody there can accept for its owner."""
    kit.say("discord", "alice", "#bst new size=10x10", channel=ROOMS["discord"])
    _link(kit, "x", "alice_x")
    kit.say("x", "alice_x", "#bst bridge 1", channel="x-strangers-thread", message_id="x-reply")
    assert not _is_bridged(kit, "x", "x-strangers-thread")


def test_a_game_has_at_most_three_rooms_besides_its_own(kit: MultiKit) -> None:
    kit.say("discord", "alice", "#bst new size=10x10", channel=ROOMS["discord"])
    for n in range(MOST_ROOMS):
        kit.say("discord", "alice", "#bst bridge 1", channel=f"d-room{n}", admin=n == 0)
    effect = kit.say("discord", "alice", "#bst bridge 1", channel="d-one-more", admin=True)
    assert effect.outcome.value == "refused"
    assert (
        "a game has no more; `unbridge` in one of them first"
        in _dm_texts(kit, "discord", "alice")[-1]
    )
    assert not _is_bridged(kit, "discord", "d-one-more")
    # An offer nobody answers is withdrawn with `unbridge` there, and frees its place.
    kit.say("discord", "alice", "#bst unbridge", channel="d-room1")
    kit.say("discord", "alice", "#bst bridge 1", channel="d-one-more", admin=True)
    assert _is_bridged(kit, "discord", "d-one-more")


def test_unbridge_takes_a_room_out_and_it_may_open_its_own_game_again(kit: MultiKit) -> None:
    kit.say("discord", "alice", "#bst new size=10x10", channel=ROOMS["discord"])
    kit.say("discord", "alice", "#bst bridge 1", channel="d-theirs", admin=True)
    effect = kit.say("discord", "visitor", "#bst unbridge", channel="d-theirs")
    assert effect.outcome.value == "refused" and _is_bridged(kit, "discord", "d-theirs")
    assert kit.say("discord", "mod", "#bst unbridge", channel="d-theirs", admin=True)
    assert not _is_bridged(kit, "discord", "d-theirs")
    said = [r.text for r in kit.outbox() if '"channel":"d-theirs"' in r.address]
    assert "is no longer played from this room" in said[-1]
    kit.say("discord", "dave", "#bst new size=10x10", channel="d-theirs")
    assert kit.game(2) is not None and kit.game(2).channel == "d-theirs"
    # The host may take it out too, from the account that opened the game.
    kit.say("discord", "alice", "#bst bridge 1", channel="d-other", admin=True)
    kit.say("discord", "alice", "#bst unbridge", channel="d-other")
    assert not _is_bridged(kit, "discord", "d-other")
    # As Discord's `/host unbridge` types it.
    kit.say("discord", "alice", "#bst bridge 1", channel="d-third", admin=True)
    assert kit.say("discord", "mod", "host unbridge", channel="d-third", admin=True)
    assert not _is_bridged(kit, "discord", "d-third")


def test_the_host_speaks_no_games_words_about_bridges() -> None:
    source = Path(bridges.__file__).read_text()
    assert "#sonar" not in source and "#bst" not in source
