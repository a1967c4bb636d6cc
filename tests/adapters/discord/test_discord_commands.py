"""Slash commands: each ``/bst`` command through the real CommandTree becomes one Inbound,
its text the one a player could have posted in the game's channel (tag first).

Interactions are built from INTERACTION_CREATE payloads in Discord's shape and
run by discord.py's own ``CommandTree``; every HTTP request goes to the fake.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord_fake import (
    APP_ID,
    CHANNEL_ID,
    GUILD_ID,
    HOST_ROLE_ID,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    OTHER_USER_ID,
    USER_ID,
    user_payload,
)

from bot.adapters.discord import DiscordAdapter
from bot.host.messages import Address, InboundKind, Outbound

PUBLIC, DM = InboundKind.PUBLIC, InboundKind.DM
EPHEMERAL = 64


def option(name: str, value: Any, kind: int = 3, *, focused: bool = False) -> dict[str, Any]:
    found: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        found["focused"] = True
    return found


async def run(adapter: DiscordAdapter, payload: dict[str, Any]) -> discord.Interaction[Any]:
    """What the gateway does with INTERACTION_CREATE, awaited instead of scheduled."""
    interaction: discord.Interaction[Any] = discord.Interaction(
        data=payload, state=adapter.client._connection
    )
    await adapter.tree._call(interaction)
    return interaction


def callbacks(fake: Any) -> list[Any]:
    return fake.requests_to("POST", r"/interactions/\d+/[^/]+/callback")


COMMANDS = [
    # (subcommand, options, kind, text, ephemeral deferral); "host WORD": /host WORD
    ("shoot", [option("cell", "H14")], PUBLIC, "#bst H14", False),
    ("join", [], PUBLIC, "#bst join", False),
    ("status", [], PUBLIC, "#bst status", False),
    ("help", [], PUBLIC, "#bst help", True),
    ("rules", [], PUBLIC, "#bst rules", True),
    ("leave", [], PUBLIC, "#bst leave", False),
    ("host start", [], PUBLIC, "host start", False),
    ("host pause", [], PUBLIC, "host pause", False),
    ("host resume", [], PUBLIC, "host resume", False),
    ("host end", [], PUBLIC, "host end", False),
    ("host extend", [option("duration", "1h 30m")], PUBLIC, "host extend 1h30m", False),
    ("new", [], PUBLIC, "#bst new", False),
    (
        "place",
        [option("ships", " sub: A2, carrier: C1-C5 ")],
        DM,
        "#bst sub: A2, carrier: C1-C5",
        True,
    ),
    ("place", [option("ships", "random")], DM, "#bst random", True),
    (
        "move",
        [
            option("ship", "cruiser"),
            option("at", "G7"),
            option("steps", 3, 4),
            option("direction", "up"),
        ],
        DM,
        "#bst move cruiser G7 3 up",
        True,
    ),
    ("rotate", [option("ship", "carrier"), option("at", "E8")], DM, "#bst rotate carrier E8", True),
    ("pass", [], DM, "#bst pass", True),
    ("board", [], DM, "#bst board", True),
]


@pytest.mark.parametrize(
    ("subcommand", "options", "kind", "text", "ephemeral"),
    COMMANDS,
    ids=[f"{c[0]}-{c[3]}" for c in COMMANDS],
)
async def test_each_command_becomes_one_inbound(
    adapter, inbox, fake_discord, payload_factory, subcommand, options, kind, text, ephemeral
):
    interaction_id = fake_discord.snowflake()
    group, _, verb = subcommand.rpartition(" ")
    await run(
        adapter,
        payload_factory(verb, options, interaction_id=interaction_id, group=group or "bst"),
    )

    assert len(inbox.items) == 1
    inbound = inbox.items[0]
    assert inbound.platform == "discord"
    assert inbound.kind is kind
    assert inbound.text == text
    # Private commands still name the game's channel, so the host knows which game.
    assert inbound.channel == str(CHANNEL_ID)
    assert inbound.message_id == str(interaction_id)
    assert inbound.sent_at == discord.utils.snowflake_time(interaction_id)
    assert inbound.sender.user_id == str(USER_ID)
    assert inbound.sender.display_name == "Ahab"
    assert inbound.sender.avatar_url is not None and str(USER_ID) in inbound.sender.avatar_url

    [callback] = callbacks(fake_discord)
    assert (
        callback.path
        == f"/interactions/{interaction_id}/{payload_factory(subcommand, interaction_id=interaction_id)['token']}/callback"
    )
    assert callback.json["type"] == 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    flags = (callback.json.get("data") or {}).get("flags", 0)
    assert bool(flags & EPHEMERAL) is ephemeral


async def test_new_carries_every_option_in_the_rules_words(
    adapter, inbox, fake_discord, payload_factory
):
    options = [
        option("size", "10 x 10"),
        option("turn", "1h 30m"),
        option("shots", "before_moves"),
        option("placement_conflicts", "both_retry"),
        option("loadouts", "carrier+submarine"),
        option("max_turns", 30, 4),
        option("setup_deadline", "24h"),
        option("late_join", "on"),
    ]
    await run(adapter, payload_factory("new", options, interaction_id=fake_discord.snowflake()))
    assert inbox.items[0].text == (
        "#bst new size=10x10 turn=1h30m shots=before_moves placement_conflicts=both_retry "
        "loadouts=carrier+submarine max_turns=30 setup_deadline=24h late_join=on"
    )
    assert inbox.items[0].kind is PUBLIC


async def test_kick_names_the_member_by_mention(adapter, inbox, fake_discord, payload_factory):
    target = user_payload(OTHER_USER_ID, "ishmael")
    resolved = {
        "users": {str(OTHER_USER_ID): target},
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
    payload = payload_factory(
        "kick",
        [option("member", str(OTHER_USER_ID), 6)],
        interaction_id=fake_discord.snowflake(),
        permissions=MEMBER_PERMISSIONS | MANAGE_GUILD,
        resolved=resolved,
        group="host",
    )
    await run(adapter, payload)
    assert inbox.items[0].text == f"host kick <@{OTHER_USER_ID}>"
    assert inbox.items[0].kind is PUBLIC


async def test_replace_hands_a_members_seat_to_a_robot(
    adapter, inbox, fake_discord, payload_factory
):
    target = user_payload(OTHER_USER_ID, "ishmael")
    member = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00", "nick": None,
              "avatar": None, "flags": 0, "pending": False, "premium_since": None,
              "permissions": str(MEMBER_PERMISSIONS)}  # fmt: skip
    payload = payload_factory(
        "replace",
        [option("member", str(OTHER_USER_ID), 6), option("robot", "robot strong")],
        interaction_id=fake_discord.snowflake(),
        permissions=MEMBER_PERMISSIONS | MANAGE_GUILD,
        resolved={"users": {str(OTHER_USER_ID): target}, "members": {str(OTHER_USER_ID): member}},
        group="host",
    )
    await run(adapter, payload)
    assert inbox.items[0].text == f"host replace <@{OTHER_USER_ID}> robot strong"


@pytest.mark.parametrize(
    ("permissions", "roles", "expected"),
    [
        (MEMBER_PERMISSIONS, [], False),
        (MEMBER_PERMISSIONS | MANAGE_GUILD, [], True),
        (MEMBER_PERMISSIONS | (1 << 3), [], True),  # Administrator implies Manage Server
        (MEMBER_PERMISSIONS, [HOST_ROLE_ID], True),  # the configured host role, by id
    ],
    ids=["member", "manage-server", "administrator", "host-role"],
)
async def test_channel_admin_comes_from_discord_permissions_or_host_role(
    make_adapter, inbox, fake_discord, payload_factory, permissions, roles, expected
):
    adapter = make_adapter(host_role=str(HOST_ROLE_ID))
    await adapter.login(inbox)
    try:
        payload = payload_factory(
            "start",
            interaction_id=fake_discord.snowflake(),
            permissions=permissions,
            roles=roles,
            group="host",
        )
        await run(adapter, payload)
    finally:
        await adapter.stop()
    assert inbox.items[0].sender.is_channel_admin is expected


async def test_a_command_in_a_dm_with_the_bot_is_a_dm_without_channel(
    adapter, inbox, fake_discord, payload_factory
):
    await run(
        adapter,
        payload_factory(
            "shoot", [option("cell", "H14")], interaction_id=fake_discord.snowflake(), guild=False
        ),
    )
    inbound = inbox.items[0]
    assert (inbound.kind, inbound.channel, inbound.text) == (DM, "", "#bst H14")
    assert inbound.sender.is_channel_admin is False


async def test_the_deferral_reaches_discord_before_the_host_sees_the_command(
    adapter, inbox, fake_discord, payload_factory
):
    await run(adapter, payload_factory("pass", interaction_id=fake_discord.snowflake()))
    # When on_inbound ran, the callback was already recorded (login made 2 requests).
    seen = inbox.requests_seen[0]
    assert fake_discord.requests[seen - 1].path.endswith("/callback")
    assert fake_discord.requests[seen - 1].json["type"] == 5


async def test_a_private_reply_is_an_ephemeral_follow_up(
    adapter, inbox, fake_discord, payload_factory
):
    interaction_id = fake_discord.snowflake()
    payload = payload_factory(
        "move",
        [
            option("ship", "cruiser"),
            option("at", "G7"),
            option("steps", 3, 4),
            option("direction", "up"),
        ],
        interaction_id=interaction_id,
    )
    await run(adapter, payload)
    address = Address(
        "discord", channel=str(CHANNEL_ID), user_id=str(USER_ID), reply_to=str(interaction_id)
    )
    message_id = await adapter.send(address, Outbound("Turn 4: move cruiser at G7 3 up", key="o-1"))

    # The first answer replaces the ephemeral "thinking…" placeholder (an edit of it: a
    # retry repeats it harmlessly), and so is ephemeral too.
    [follow_up] = fake_discord.requests_to("PATCH", rf"/webhooks/{APP_ID}/[^/]+/messages/@original")
    assert follow_up.path == f"/webhooks/{APP_ID}/{payload['token']}/messages/@original"
    assert follow_up.json["content"] == "Turn 4: move cruiser at G7 3 up"
    answer = fake_discord.posted[CHANNEL_ID][-1]
    assert answer["flags"] & EPHEMERAL and answer["id"] == message_id
    # Never a channel message or a DM when the interaction can answer.
    assert not fake_discord.requests_to("POST", r"/channels/\d+/messages")


async def test_a_private_reply_to_a_public_shot_never_lands_in_public(
    adapter, inbox, fake_discord, payload_factory
):
    interaction_id = fake_discord.snowflake()
    await run(
        adapter, payload_factory("shoot", [option("cell", "H14")], interaction_id=interaction_id)
    )
    private = Address(
        "discord", channel=str(CHANNEL_ID), user_id=str(USER_ID), reply_to=str(interaction_id)
    )
    public = Address("discord", channel=str(CHANNEL_ID), reply_to=str(interaction_id))

    await adapter.send(private, Outbound("Turn 4: shoot H14 (replaces: move cruiser at G7 3 up)"))
    await adapter.send(public, Outbound("Ahab fires at H14."))

    methods = [(r.method, r.path.rsplit("/", 1)[-1]) for r in fake_discord.requests[2:]]
    # The public "thinking…" placeholder goes first, so the secret is a fresh ephemeral message.
    assert methods[1] == ("DELETE", "@original")
    follow_ups = fake_discord.requests_to("POST", rf"/webhooks/{APP_ID}/[^/]+")
    assert [bool(r.json.get("flags", 0) & EPHEMERAL) for r in follow_ups] == [True, False]


async def test_an_expired_or_unknown_interaction_falls_back_to_the_channel(
    adapter, fake_discord, payload_factory
):
    interaction_id = fake_discord.snowflake()
    await run(adapter, payload_factory("join", interaction_id=interaction_id))
    fake_discord.fail_next(
        "PATCH", rf"/webhooks/{APP_ID}/.+", 404, {"message": "Unknown Webhook", "code": 10015}
    )
    address = Address("discord", channel=str(CHANNEL_ID), reply_to=str(interaction_id))
    await adapter.send(address, Outbound("Ahab joins.", key="o-9"))
    [message] = fake_discord.requests_to("POST", rf"/channels/{CHANNEL_ID}/messages")
    assert message.json["content"] == "Ahab joins."


async def test_the_gateway_path_dispatches_through_the_client(
    adapter, inbox, fake_discord, payload_factory
):
    """As the gateway does it: ConnectionState.parse_interaction_create → CommandTree."""
    interaction_id = fake_discord.snowflake()
    adapter.client._connection.parse_interaction_create(
        payload_factory("join", interaction_id=interaction_id)
    )
    for _ in range(200):
        if inbox.items:
            break
        await asyncio.sleep(0.01)
    assert inbox.items[0].text == "#bst join"
    assert inbox.items[0].message_id == str(interaction_id)


async def test_a_host_failure_tells_the_player_privately(
    adapter, inbox, fake_discord, payload_factory
):
    inbox.fail_with = RuntimeError("database is locked")
    await run(adapter, payload_factory("join", interaction_id=fake_discord.snowflake()))
    [follow_up] = fake_discord.requests_to("POST", rf"/webhooks/{APP_ID}/[^/]+")
    assert "try again" in follow_up.json["content"]


@pytest.mark.parametrize(
    ("subcommand", "focused", "typed", "expected"),
    [
        ("shoot", "cell", "h 1", ["h1", "h10", "h11"]),
        ("shoot", "cell", "H 1", ["H1", "H10", "H11"]),
        ("move", "at", "g-7", ["g7"]),
        ("rotate", "at", "", ["A1", "B1", "C1"]),
    ],
)
async def test_autocomplete_suggests_well_formed_cells_in_the_case_typed(
    adapter, fake_discord, payload_factory, subcommand, focused, typed, expected
):
    names = {"move": ["at"], "rotate": ["at"], "shoot": ["cell"]}[subcommand]
    options = [
        option(name, typed if name == focused else "", focused=name == focused) for name in names
    ]
    payload = payload_factory(subcommand, options, interaction_id=fake_discord.snowflake(), kind=4)
    await run(adapter, payload)
    [callback] = callbacks(fake_discord)
    assert callback.json["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    values = [choice["value"] for choice in callback.json["data"]["choices"]]
    assert values[: len(expected)] == expected


async def test_guild_id_is_not_needed_for_a_channel(adapter, inbox, fake_discord, payload_factory):
    """The inbound's channel is the channel, not the server: games live in channels."""
    await run(adapter, payload_factory("status", interaction_id=fake_discord.snowflake()))
    assert inbox.items[0].channel != str(GUILD_ID)


# --- /me: a person's own settings (issue 30) ---------------------------------------------


@pytest.mark.parametrize(
    ("subcommand", "options", "text"),
    [
        ("show", [], "me"),
        ("tz", [option("zone", "Europe/Paris")], "me tz Europe/Paris"),
        ("quiet", [option("hours", "23:00-08:00")], "me quiet 23:00-08:00"),
        ("away", [option("for", "3 d")], "me away 3d"),
        ("back", [], "me back"),
        ("link", [], "me link"),
        ("link", [option("code", "ABCD-EFGH")], "me link ABCD-EFGH"),
        ("unlink", [], "me unlink"),
        ("rating", [], "me rating"),
        ("top", [option("kind", "sonar")], "me top sonar"),
    ],
)
@pytest.mark.parametrize("guild", [True, False], ids=["server", "dm"])
async def test_each_me_command_is_a_private_me_message_in_a_server_or_a_dm(
    adapter, inbox, fake_discord, payload_factory, subcommand, options, text, guild
):
    interaction_id = fake_discord.snowflake()
    payload = payload_factory(
        subcommand, options, interaction_id=interaction_id, group="me", guild=guild
    )
    await run(adapter, payload)
    [inbound] = inbox.items
    assert (inbound.kind, inbound.text) == (DM, text)
    [callback] = callbacks(fake_discord)
    assert callback.json["type"] == 5 and callback.json["data"]["flags"] & EPHEMERAL


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("", ["UTC", "Europe/London", "Europe/Paris"]),
        ("europe/pa", ["Europe/Paris"]),
        ("paris", ["Europe/Paris"]),
        ("new york", ["America/New_York"]),
        ("TOKYO", ["Asia/Tokyo"]),
    ],
)
async def test_me_tz_autocompletes_region_time_zones(
    adapter, fake_discord, payload_factory, typed, first
):
    payload = payload_factory(
        "tz",
        [option("zone", typed, focused=True)],
        interaction_id=fake_discord.snowflake(),
        kind=4,
        group="me",
    )
    await run(adapter, payload)
    [callback] = callbacks(fake_discord)
    assert callback.json["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    values = [choice["value"] for choice in callback.json["data"]["choices"]]
    assert values[: len(first)] == first
    assert 0 < len(values) <= 25
    assert not any(value in ("EST", "CET", "MST") for value in values)  # no abbreviations
