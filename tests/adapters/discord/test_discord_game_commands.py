"""Every game's slash commands come from its declarations (verbs, options), not from code.

``bst_group_before.json`` is the ``/bst`` payload the hand-written command class gave
(``tree.get_commands()`` → ``to_dict()``), written down before that class was deleted;
the generated group must give the same commands. Tug (``tests/tug``), registered only
here, gets its own ``/tug`` group without any change to the adapter.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord_fake import (
    APP_ID,
    MEMBER_PERMISSIONS,
    OTHER_USER_ID,
    TOKEN,
    interaction_payload,
    user_payload,
)
from test_discord_commands import callbacks, option, run
from test_discord_messages import gateway_message, settle

from bot.adapters.discord.client import make_client
from bot.adapters.discord.commands import build_command_tree, game_group
from bot.adapters.discord.sync import sync_commands
from bot.config import DiscordConfig
from bot.games.base import Arg, ArgKind, Verb
from bot.games.bst.options import MAX_TURNS
from bot.games.catalog import game_names, games, get_game, register, unregister
from bot.host.messages import InboundKind
from tests.tug import TUG

BEFORE = Path(__file__).with_name("bst_group_before.json")
EPHEMERAL = 64
STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6


async def ignore(*_: Any) -> None:
    return None


def payload(game_list: Any) -> list[dict[str, Any]]:
    client = make_client(DiscordConfig(), application_id=APP_ID)
    tree = build_command_tree(client, game_list, ignore)
    return [command.to_dict(tree) for command in tree.get_commands()]


def shape(group: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """What a player meets: each subcommand's options with their types, whether they are
    required, their choices and bounds, and whether they autocomplete (descriptions aside)."""
    return {
        sub["name"]: [
            {
                "name": o["name"],
                "type": o["type"],
                "required": o.get("required", False),
                "choices": [c["value"] for c in o.get("choices") or []],
                "min_value": o.get("min_value"),
                "max_value": o.get("max_value"),
                "autocomplete": bool(o.get("autocomplete")),
            }
            for o in sub.get("options", [])
        ]
        for sub in group["options"]
    }


@pytest.fixture
def tug_registered() -> Iterator[None]:
    register(TUG)
    yield
    unregister(TUG.name)


def test_the_generated_bst_group_gives_the_hand_written_groups_commands():
    [before] = json.loads(BEFORE.read_text(encoding="utf-8"))
    after = next(g for g in payload([get_game("bst")]) if g["name"] == "bst")
    assert (after["name"], after["type"]) == (before["name"], before["type"])
    old, new = shape(before), shape(after)
    # The host's verbs moved to /host, which Discord can show to server managers only.
    hosts = ["start", "pause", "resume", "extend", "kick", "replace", "end", "unbridge"]
    moved = {verb: old.pop(verb) for verb in hosts if verb not in ("replace", "unbridge")}
    # New: bst's orders stand until the deadline, and one may be taken back; and the
    # host's verbs as a subcommand group every member sees (/bst host start).
    assert new.pop("withdraw") == []
    hosting = next(o for o in after["options"] if o["name"] == "host")
    assert hosting["type"] == 2 and [o["name"] for o in hosting["options"]] == hosts
    new.pop("host")
    assert list(new) == list(old)  # the same subcommands, in the same order
    host = shape(next(g for g in payload([get_game("bst")]) if g["name"] == "host"))
    assert list(host) == hosts
    # bst's turns are simultaneous: /host start also takes who moves first (other games').
    moved["start"] = [dict(name="first", type=USER, required=False, choices=[], min_value=None,
                           max_value=None, autocomplete=False)]  # fmt: skip
    # New (issue 30): the host hands a seat to a substitute, both named as members, or
    # (issue 44) to a robot.
    assert host.pop("replace") == [
        dict(name=name, type=USER, required=required, choices=[], min_value=None,
             max_value=None, autocomplete=False)
        for name, required in (("member", True), ("substitute", False))
    ] + [dict(name="robot", type=STRING, required=False, choices=["robot", "robot strong"],
              min_value=None, max_value=None, autocomplete=False)]  # fmt: skip
    assert host.pop("unbridge") == []  # New (issue 39): a bridged room stops playing the game.
    assert host == moved

    # Where bst now declares a choice, Discord offers the choices instead of a yes/no
    # or an autocompleted box; the text each produces is the same words as before.
    late_join = next(o for o in old["new"] if o["name"] == "late_join")
    assert late_join["type"] == BOOLEAN
    late_join.update(type=STRING, choices=["on", "off"])
    for verb, ships in (("move", ["carrier", "submarine", "cruiser"]), ("rotate", ["carrier", "cruiser"])):  # fmt: skip
        ship = next(o for o in old[verb] if o["name"] == "ship")
        assert ship["autocomplete"] and not ship["choices"]
        ship.update(autocomplete=False, choices=ships)
    # The menu's bound of max_turns is now the one its parser holds to (issue 41).
    max_turns = next(o for o in old["new"] if o["name"] == "max_turns")
    assert max_turns["max_value"] == 10000
    max_turns["max_value"] = MAX_TURNS
    # The host's own options of `new`, from their one table (issues 24, 41): who may join
    # by DM, what a turn does for one away, robots at start and at once, the seed.
    host_options = [new["new"].pop() for _ in range(5)][::-1]
    assert host_options == [
        dict(name="reach", type=STRING, required=False, choices=["server", "all"],
             min_value=None, max_value=None, autocomplete=False),
        *(dict(name=name, type=STRING, required=False, choices=[], min_value=None,
               max_value=None, autocomplete=False) for name in ("away", "fill", "robots")),
        dict(name="seed", type=INTEGER, required=False, choices=[], min_value=0,
             max_value=None, autocomplete=False),
    ]  # fmt: skip
    assert new == old


def test_every_groups_payload_validates_against_discords_description(spec, tug_registered):
    body = payload(games())
    assert [group["name"] for group in body] == [*game_names(), "host", "games", "me"]
    assert spec.request_errors("PUT", "/applications/{application_id}/commands", body) == []


def test_a_game_registered_only_in_a_test_gets_its_own_group(tug_registered):
    groups = {group["name"]: group for group in payload(games())}
    commands = shape(groups["tug"])
    assert list(commands) == [
        "new", "join", "pull", "dare", "give", "hold", "board", "status", "help", "rules",
        "leave", "host",
    ]  # fmt: skip
    assert commands["pull"] == [
        {
            "name": "steps",
            "type": INTEGER,
            "required": True,
            "choices": [],
            "min_value": 1,
            "max_value": 3,
            "autocomplete": False,
        }
    ]
    assert [(o["name"], o["type"], o["required"]) for o in commands["new"]] == [
        ("move_time", STRING, False),
        ("response_time", STRING, False),
        ("target", INTEGER, False),
        ("reach", STRING, False),  # the host's own options of `new` (issues 24, 41)
        ("away", STRING, False),
        ("fill", STRING, False),
        ("robots", STRING, False),
        ("seed", INTEGER, False),
    ]
    # Who moves first (in Tug, which takes turns) is named with /host start.
    assert [(o["name"], o["type"], o["required"]) for o in shape(groups["host"])["start"]] == [
        ("first", USER, False)
    ]
    assert groups["tug"]["description"] == "Tug (#tug)"


def test_host_verbs_are_a_group_discord_shows_to_server_managers_only():
    groups = {group["name"]: group for group in payload(games())}
    host = groups["host"]
    # Manage Server (discord.py sends the bit field as a number; Discord reads either).
    assert str(host["default_member_permissions"]) == str(1 << 5)
    assert host["contexts"] == [0]  # in servers only (DMs have no game's channel)
    for name in games():
        assert "default_member_permissions" not in groups[name.name] or (
            groups[name.name]["default_member_permissions"] is None
        )
    assert groups["games"]["options"] == []


async def test_sync_registers_every_games_group(fake_discord, tug_registered):
    names = await sync_commands(TOKEN, APP_ID, None, games=games(), http=fake_discord.base)
    assert names == [*game_names(), "host", "games", "me"]
    [put] = fake_discord.requests_to("PUT", f"/applications/{APP_ID}/commands")
    assert [group["name"] for group in put.json] == names


TUG_COMMANDS = [
    # (subcommand, options, kind, text, ephemeral deferral)
    ("pull", [option("steps", 2, INTEGER)], InboundKind.PUBLIC, "#tug pull 2", False),
    ("dare", [], InboundKind.PUBLIC, "#tug dare", False),
    ("give", [], InboundKind.DM, "#tug give", True),
    ("new", [option("target", 2, INTEGER), option("move_time", "1h 30m")], InboundKind.PUBLIC,
     "#tug new move_time=1h30m target=2", False),
    ("help", [], InboundKind.PUBLIC, "#tug help", True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("subcommand", "options", "kind", "text", "ephemeral"),
    TUG_COMMANDS,
    ids=[c[0] for c in TUG_COMMANDS],
)
async def test_a_tug_command_becomes_the_text_a_tug_player_would_type(
    tug_registered, make_adapter, inbox, fake_discord, subcommand, options, kind, text, ephemeral
):
    adapter = make_adapter()
    await adapter.login(inbox)
    try:
        interaction_id = fake_discord.snowflake()
        await run(
            adapter,
            interaction_payload(subcommand, options, interaction_id=interaction_id, group="tug"),
        )
    finally:
        await adapter.stop()
    [inbound] = inbox.items
    assert (inbound.kind, inbound.text) == (kind, text)
    [callback] = callbacks(fake_discord)
    assert bool((callback.json.get("data") or {}).get("flags", 0) & EPHEMERAL) is ephemeral


async def test_the_host_names_who_moves_first_by_mention(
    tug_registered, make_adapter, inbox, fake_discord
):
    resolved = {
        "users": {str(OTHER_USER_ID): user_payload(OTHER_USER_ID, "ishmael")},
        "members": {
            str(OTHER_USER_ID): {
                "roles": [],
                "joined_at": "2025-01-01T00:00:00+00:00",
                "nick": None,
                "avatar": None,
                "flags": 0,
                "pending": False,
                "premium_since": None,
                "permissions": str(MEMBER_PERMISSIONS),
            }
        },
    }
    adapter = make_adapter()
    await adapter.login(inbox)
    try:
        await run(
            adapter,
            interaction_payload(
                "start",
                [option("first", str(OTHER_USER_ID), USER)],
                interaction_id=fake_discord.snowflake(),
                resolved=resolved,
                group="host",
            ),
        )
    finally:
        await adapter.stop()
    assert inbox.items[0].text == f"host start <@{OTHER_USER_ID}>"


class PlayerWords:
    """The one sentence part of a game the command declaration reads."""

    def player_word(self, count: int) -> str:
        return "player" if count == 1 else "players"


class Clashing:
    """A game whose verb takes a word every game shares."""

    name, tag, title, simultaneous = "clash", "#clash", "Clash", True
    players_may_leave = True
    verbs = (Verb("join", "join twice", private=False),)
    option_args: tuple[Arg, ...] = ()
    words = PlayerWords()


class Crowded(Clashing):
    """A game with more commands than Discord takes in one group."""

    verbs = tuple(Verb(f"verb{n}", "one of many", private=False) for n in range(19))


class Undecided(Clashing):
    """A verb whose choice offers nothing to choose."""

    verbs = (Verb("pick", "pick one", private=False, args=(Arg("what", ArgKind.CHOICE, "?"),)),)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (Clashing(), "repeat a word every game shares"),
        (Crowded(), "at most 25 per group"),
        (Undecided(), "CHOICE without choices"),
    ],
    ids=["clash", "crowded", "no-choices"],
)
def test_a_declaration_discord_cannot_take_is_refused_by_name(game, message):
    with pytest.raises(ValueError, match=message):
        game_group(game, ignore)  # type: ignore[arg-type]


async def test_a_tagged_channel_message_of_any_registered_game_is_read(
    tug_registered, make_adapter, inbox, fake_discord
):
    adapter = make_adapter()
    await adapter.login(inbox)
    try:
        state = adapter.client._connection
        for content in ("#TUG pull 2", "#tugboat ahoy", "#bst H14", "#bstx H14"):
            state.parse_message_create(gateway_message(fake_discord, content))
        await settle(lambda: len(inbox.items) >= 2)
        await asyncio.sleep(0.05)  # the ignored ones had their chance too
    finally:
        await adapter.stop()
    assert [i.text for i in inbox.items] == ["#TUG pull 2", "#bst H14"]


async def test_sonar_shoot_autocompletes_the_last_of_several_cells() -> None:
    """`/sonar shoot cells:` completes the cell being typed and keeps those before it."""
    from bot.adapters.discord.commands import _cells_autocomplete

    groups = {group["name"]: group for group in payload(games())}
    assert shape(groups["sonar"])["shoot"][0]["autocomplete"]
    offered = [c.value for c in await _cells_autocomplete(None, "f11, a")]  # type: ignore[arg-type]
    assert offered[:3] == ["f11, a1", "f11, a2", "f11, a3"]
    assert [c.value for c in await _cells_autocomplete(None, "b")][:2] == ["b1", "b2"]  # type: ignore[arg-type]


def test_the_me_group_is_everyones_in_servers_and_dms_with_time_zones_autocompleted():
    groups = {group["name"]: group for group in payload(games())}
    me = groups["me"]
    assert sorted(me["contexts"]) == [0, 1, 2]  # servers, the bot's DM, group DMs
    assert me.get("default_member_permissions") is None
    commands = shape(me)
    assert list(commands) == [
        "show", "tz", "quiet", "away", "back", "link", "unlink", "rating", "top",
    ]  # fmt: skip
    assert commands["tz"] == [
        dict(name="zone", type=STRING, required=True, choices=[], min_value=None,
             max_value=None, autocomplete=True)
    ]  # fmt: skip
    assert commands["top"][0]["choices"] == [game.name for game in games()]
    assert [o["required"] for o in commands["link"]] == [False]
