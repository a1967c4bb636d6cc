"""The fake Discord itself: threads, components, embeds, mentions, interactions, edits and
command registration answer as Discord does, errors included (issue #19).

Every request goes over real HTTP to the fake's aiohttp server (``fake_discord``), raw
or through discord.py, and both sides are checked against Discord's OpenAPI description:
each request body the test sends and each answer the fake gives. Discord's Invalid Form
Body details carry string codes (``BASE_TYPE_MAX_LENGTH``) where the OpenAPI file types
integers, so refusals are checked at their top level (``code``, ``message``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord
import pytest
from discord_fake import (
    APP_ID,
    ATTACH_FILES,
    BOT_ID,
    CHANNEL_ID,
    CREATE_PUBLIC_THREADS,
    DM_CHANNEL_ID,
    EMBED_LINKS,
    GAME_BOT_PERMISSIONS,
    GUILD_ID,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    MENTION_EVERYONE,
    OTHER_USER_ID,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    TOKEN,
    USE_APPLICATION_COMMANDS,
    USER_ID,
    VIEW_CHANNEL,
    DiscordSpec,
    FakeDiscord,
    user_payload,
)

# Spec paths for the concrete paths the fake serves (most specific first).
OPERATIONS = [
    (r"/channels/\d+/messages/\d+/threads", "/channels/{channel_id}/messages/{message_id}/threads"),
    (r"/channels/\d+/threads", "/channels/{channel_id}/threads"),
    (r"/channels/\d+/messages/\d+", "/channels/{channel_id}/messages/{message_id}"),
    (r"/channels/\d+/messages", "/channels/{channel_id}/messages"),
    (r"/channels/\d+", "/channels/{channel_id}"),
    (
        r"/interactions/\d+/[^/]+/callback",
        "/interactions/{interaction_id}/{interaction_token}/callback",
    ),
    (
        r"/webhooks/\d+/[^/]+/messages/@original",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ),
    (r"/webhooks/\d+/[^/]+", "/webhooks/{webhook_id}/{webhook_token}"),
    (r"/applications/\d+/guilds/\d+/commands", "/applications/{application_id}/guilds/{guild_id}/commands"),
    (r"/applications/\d+/commands", "/applications/{application_id}/commands"),
]  # fmt: skip


def spec_path(path: str) -> str:
    for pattern, documented in OPERATIONS:
        if re.fullmatch(pattern, path):
            return documented
    raise AssertionError(f"no operation for {path}")


class Discord:
    """Raw HTTP to the fake, as a bot would send it, checked against the description."""

    def __init__(self, fake: FakeDiscord, spec: DiscordSpec, session: aiohttp.ClientSession):
        self.fake = fake
        self.spec = spec
        self.session = session

    async def __call__(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        query: dict[str, str] | None = None,
        files: Sequence[tuple[str, bytes]] = (),
        valid: bool = True,
    ) -> tuple[int, Any]:
        """Send; ``valid`` says whether the body matches Discord's description (a body
        the description forbids is sent to see that the fake refuses it too)."""
        if body is not None:
            errors = self.spec.request_errors(method, spec_path(path), body)
            assert (errors == []) is valid, errors
        options: dict[str, Any] = {"params": query or {}}
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body))
            for n, (filename, data) in enumerate(files):
                form.add_field(f"files[{n}]", data, filename=filename)
            options["data"] = form
        elif body is not None:
            options["json"] = body
        async with self.session.request(
            method, self.fake.base + path, headers={"Authorization": f"Bot {TOKEN}"}, **options
        ) as response:
            answer = await response.json() if response.status != 204 else None
            return response.status, answer

    def answers_match(self) -> None:
        """Every answer the fake gave so far validates: successes whole, refusals at
        their top level."""
        for operation, status, body in self.fake.responses:
            if body is None:
                continue
            method, path = operation.split(" ", 1)
            if path.startswith("/users") or path.startswith("/gateway"):
                continue
            assert self.spec.response_errors(method, path, status, body) == [], operation
        for request, _status, body in self.fake.refusals:
            method, path = request.split(" ", 1)
            documented = self.spec.document["paths"][spec_path(path)][method.lower()]
            assert documented["responses"]["4XX"]["$ref"].endswith("/ClientErrorResponse")
            top = {"code": body["code"], "message": body["message"]}
            assert self.spec.errors(top, "components", "schemas", "ErrorResponse") == [], request


@pytest.fixture
async def api(fake_discord: FakeDiscord, spec: DiscordSpec) -> Any:
    async with aiohttp.ClientSession() as session:
        made = Discord(fake_discord, spec, session)
        yield made
        made.answers_match()


def refused(answer: Any, code: int, message: str) -> bool:
    return bool(answer["code"] == code and answer["message"] == message)


def form_error(answer: Any, *path: Any) -> str:
    """The code Discord gives a field of an Invalid Form Body."""
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    node = answer["errors"]
    for key in path:
        node = node[str(key)]
    [error] = node["_errors"]
    return str(error["code"])


THREADS = f"/channels/{CHANNEL_ID}/threads"
MESSAGES = f"/channels/{CHANNEL_ID}/messages"
START = {"name": "battle-7", "type": 11, "auto_archive_duration": 1440}


def button(custom_id: str, label: str = "Join") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def callback_path(payload: dict[str, Any]) -> str:
    return f"/interactions/{payload['id']}/{payload['token']}/callback"


def webhook_path(payload: dict[str, Any]) -> str:
    return f"/webhooks/{APP_ID}/{payload['token']}"


# ---- 1. the channel model -------------------------------------------------------------


def test_1_the_bot_has_what_a_game_needs_by_name() -> None:
    assert GAME_BOT_PERMISSIONS == (
        VIEW_CHANNEL | SEND_MESSAGES | MANAGE_MESSAGES | EMBED_LINKS | ATTACH_FILES
        | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )  # fmt: skip
    assert (VIEW_CHANNEL, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS) == (1 << 10, 1 << 11, 1 << 38)
    assert GAME_BOT_PERMISSIONS & MANAGE_THREADS == 0


async def test_1_get_channel_answers_the_game_channel_and_404s_an_unknown_one(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    status, channel = await api("GET", f"/channels/{CHANNEL_ID}")
    assert status == 200
    assert (channel["type"], channel["guild_id"]) == (0, str(GUILD_ID))
    assert fake_discord.bot_permissions[CHANNEL_ID] == GAME_BOT_PERMISSIONS

    status, answer = await api("GET", "/channels/1100000000000000999")
    assert status == 404 and refused(answer, 10003, "Unknown Channel")


async def test_1_add_thread_and_archive_shape_the_thread(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    other = fake_discord.add_channel(name="lobby")
    thread = fake_discord.add_thread(int(other["id"]), name="old-game", owner_id=USER_ID)
    fake_discord.archive(int(thread["id"]), locked=True)

    status, got = await api("GET", f"/channels/{thread['id']}")
    assert status == 200
    assert (got["type"], got["parent_id"], got["owner_id"]) == (11, other["id"], str(USER_ID))
    assert got["thread_metadata"]["archived"] is True
    assert got["thread_metadata"]["locked"] is True
    assert "member" not in got  # the bot never joined a thread a player started


# ---- 2. threads ------------------------------------------------------------------------


async def test_2_a_thread_without_a_message_is_announced_in_its_parent(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    status, thread = await api("POST", THREADS, START)

    assert status == 201
    assert thread["type"] == 11
    assert (thread["parent_id"], thread["guild_id"]) == (str(CHANNEL_ID), str(GUILD_ID))
    assert thread["owner_id"] == str(BOT_ID)
    assert thread["thread_metadata"]["archived"] is False
    assert thread["thread_metadata"]["auto_archive_duration"] == 1440
    assert (thread["member_count"], thread["message_count"]) == (1, 0)
    [notice] = fake_discord.posted[CHANNEL_ID]
    assert (notice["type"], notice["content"]) == (18, "battle-7")
    assert api.spec.errors(notice, "components", "schemas", "MessageResponse") == []
    assert notice["message_reference"]["channel_id"] == thread["id"]
    assert fake_discord.channels[int(thread["id"])]["name"] == "battle-7"

    status, fetched = await api("GET", f"/channels/{thread['id']}")
    assert status == 200 and fetched["id"] == thread["id"]


async def test_2_a_thread_without_type_is_private_and_needs_its_own_permission(
    api: Discord,
) -> None:
    status, answer = await api("POST", THREADS, {"name": "secret"})
    assert status == 403 and refused(answer, 50013, "Missing Permissions")


async def test_2_a_thread_from_a_message_takes_the_message_id_once(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    _, message = await api("POST", MESSAGES, {"content": "Battle 7 starts."})
    path = f"{MESSAGES}/{message['id']}/threads"

    status, thread = await api("POST", path, {"name": "battle-7", "auto_archive_duration": 60})
    assert status == 201
    assert thread["id"] == message["id"]
    assert thread["parent_id"] == str(CHANNEL_ID) and thread["type"] == 11
    assert fake_discord.posted[CHANNEL_ID][0]["flags"] & (1 << 5)  # HAS_THREAD
    assert all(m["type"] != 18 for m in fake_discord.posted[CHANNEL_ID])

    status, again = await api("POST", path, {"name": "battle-7b"})
    assert status == 400
    assert refused(again, 160004, "A thread has already been created for this message")
    status, answer = await api("POST", f"{MESSAGES}/1100000000000000999/threads", {"name": "x"})
    assert status == 404 and refused(answer, 10008, "Unknown Message")


@pytest.mark.parametrize(
    ("where", "status", "code", "message"),
    [
        ("no-permission", 403, 50013, "Missing Permissions"),
        ("in-a-thread", 400, 50024, "Cannot execute action on this channel type"),
        ("in-a-dm", 400, 50024, "Cannot execute action on this channel type"),
        ("unknown", 404, 10003, "Unknown Channel"),
    ],
)
async def test_2_discord_refuses_a_thread_where_it_cannot_grow(
    api: Discord, fake_discord: FakeDiscord, where: str, status: int, code: int, message: str
) -> None:
    parent = {
        "no-permission": CHANNEL_ID,
        "in-a-thread": int(fake_discord.add_thread()["id"]),
        "in-a-dm": DM_CHANNEL_ID,
        "unknown": 1100000000000000999,
    }[where]
    fake_discord.bot_permissions[CHANNEL_ID] &= ~CREATE_PUBLIC_THREADS
    before = len(fake_discord.channels)

    got, answer = await api("POST", f"/channels/{parent}/threads", START)

    assert got == status and refused(answer, code, message)
    assert len(fake_discord.channels) == before
    assert fake_discord.posted.get(CHANNEL_ID) is None


async def test_2_a_message_wakes_an_archived_thread(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    thread_id = int(fake_discord.add_thread()["id"])
    fake_discord.archive(thread_id)

    status, message = await api("POST", f"/channels/{thread_id}/messages", {"content": "Turn 3."})

    assert status == 200 and message["channel_id"] == str(thread_id)
    metadata = fake_discord.channels[thread_id]["thread_metadata"]
    assert metadata["archived"] is False
    assert fake_discord.channels[thread_id]["message_count"] == 1


@pytest.mark.parametrize(
    ("archived", "code", "message"),
    [(True, 50083, "Thread is archived"), (False, 160005, "Thread is locked")],
    ids=["locked-archived", "locked-active"],
)
async def test_2_a_locked_thread_refuses_the_bot_unless_it_manages_threads(
    api: Discord, fake_discord: FakeDiscord, archived: bool, code: int, message: str
) -> None:
    thread_id = int(fake_discord.add_thread(archived=archived, locked=True)["id"])
    path = f"/channels/{thread_id}/messages"

    status, answer = await api("POST", path, {"content": "Turn 3."})
    assert status == 400 and refused(answer, code, message)
    assert fake_discord.posted.get(thread_id) is None

    fake_discord.bot_permissions[CHANNEL_ID] |= MANAGE_THREADS  # a moderator bot may
    status, _ = await api("POST", path, {"content": "Turn 3."})
    assert status == 200
    assert fake_discord.channels[thread_id]["thread_metadata"]["archived"] is False


@pytest.mark.parametrize(
    ("thread", "removed", "status"),
    [
        (True, SEND_MESSAGES, 200),  # a thread asks the parent's SEND_MESSAGES_IN_THREADS
        (True, SEND_MESSAGES_IN_THREADS, 403),
        (False, SEND_MESSAGES_IN_THREADS, 200),
        (False, SEND_MESSAGES, 403),
    ],
)
async def test_2_sending_needs_the_right_permission_in_the_parent(
    api: Discord, fake_discord: FakeDiscord, thread: bool, removed: int, status: int
) -> None:
    channel_id = int(fake_discord.add_thread()["id"]) if thread else CHANNEL_ID
    fake_discord.bot_permissions[CHANNEL_ID] &= ~removed

    got, answer = await api("POST", f"/channels/{channel_id}/messages", {"content": "Turn 3."})

    assert got == status
    if status == 403:
        assert refused(answer, 50013, "Missing Permissions")


async def test_2_a_channel_the_bot_cannot_see_is_missing_access(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    fake_discord.bot_permissions[CHANNEL_ID] &= ~VIEW_CHANNEL
    status, answer = await api("POST", MESSAGES, {"content": "Turn 3."})
    assert status == 403 and refused(answer, 50001, "Missing Access")


async def test_2_files_need_attach_files_and_embeds_vanish_without_embed_links(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    body = {"content": "Turn 3.", "embeds": [{"title": "Board"}]}
    fake_discord.bot_permissions[CHANNEL_ID] &= ~EMBED_LINKS
    status, message = await api("POST", MESSAGES, body)
    assert status == 200
    assert message["content"] == "Turn 3." and message["embeds"] == []

    fake_discord.bot_permissions[CHANNEL_ID] &= ~ATTACH_FILES
    status, answer = await api("POST", MESSAGES, body, files=[("map.png", b"\x89PNG")])
    assert status == 403 and refused(answer, 50013, "Missing Permissions")


# ---- 3. messages: components ---------------------------------------------------------


async def test_3_components_come_back_as_discord_stores_them(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    select = {
        "type": 3,
        "custom_id": "sonar:7:move",
        "options": [{"label": "North", "value": "n"}, {"label": "South", "value": "s"}],
    }
    body = {
        "content": "Battle 7",
        "components": [row(button("bst:7:join"), button("bst:7:leave", "Leave")), row(select)],
    }

    status, message = await api("POST", MESSAGES, body)

    assert status == 200
    buttons, selects = message["components"]
    assert [c["custom_id"] for c in buttons["components"]] == ["bst:7:join", "bst:7:leave"]
    assert [buttons["id"], *(c["id"] for c in buttons["components"])] == [1, 2, 3]
    [menu] = selects["components"]
    assert (menu["min_values"], menu["max_values"]) == (1, 1)
    assert fake_discord.posted[CHANNEL_ID] == [message]


@pytest.mark.parametrize(
    ("components", "path", "code", "in_spec"),
    [
        ([row(button("b" * 101))], (0, "components", 0, "custom_id"), "BASE_TYPE_MAX_LENGTH", False),
        ([row(button("b", "L" * 81))], (0, "components", 0, "label"), "BASE_TYPE_MAX_LENGTH", False),
        ([row(*(button(f"b{i}") for i in range(6)))], (0, "components"), "BASE_TYPE_BAD_LENGTH", False),
        ([row(button(f"b{i}")) for i in range(6)], (), "BASE_TYPE_MAX_LENGTH", True),
        ([row(button("same"), button("same"))], (0, "components", 1, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", True),
        ([row(button("a")), row(button("a"))], (1, "components", 0, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", True),
        (
            [row(button("a"), {"type": 3, "custom_id": "s", "options": [{"label": "x", "value": "x"}]})],
            (0, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            True,
        ),
    ],
    ids=["custom-id-101", "label-81", "six-buttons", "six-rows", "duplicate", "duplicate-across-rows", "select-with-button"],
)  # fmt: skip
async def test_3_components_over_discords_limits_are_an_invalid_form_body(
    api: Discord,
    fake_discord: FakeDiscord,
    components: list[Any],
    path: tuple[Any, ...],
    code: str,
    in_spec: bool,
) -> None:
    body = {"content": "Battle 7", "components": components}
    # Six rows pass the description (up to 40 top-level components, for the v2 layout).
    status, answer = await api("POST", MESSAGES, body, valid=in_spec)
    assert status == 400
    assert form_error(answer, "components", *path) == code
    assert fake_discord.posted.get(CHANNEL_ID) is None


# ---- 3. messages: embeds -------------------------------------------------------------


async def test_3_embeds_come_back_rich_and_point_at_their_upload(api: Discord) -> None:
    embed = {
        "title": "  Battle 7  ",
        "description": "Turn 3 closes <t:1767225600:R>.",
        "color": 0x1F6FEB,
        "fields": [{"name": "Ahab", "value": "3 ships"}, {"name": "Ishmael", "value": "2"}],
        "footer": {"text": "bst"},
        "image": {"url": "attachment://map.png"},
    }
    status, message = await api(
        "POST", MESSAGES, {"embeds": [embed]}, files=[("map.png", b"\x89PNG")]
    )

    assert status == 200
    [rich] = message["embeds"]
    assert (rich["type"], rich["title"]) == ("rich", "Battle 7")
    assert [f["inline"] for f in rich["fields"]] == [False, False]
    [upload] = message["attachments"]
    assert rich["image"]["url"] == upload["url"]


@pytest.mark.parametrize(
    ("embeds", "path", "code", "in_spec"),
    [
        ([{"title": "t" * 257}], (0, "title"), "BASE_TYPE_MAX_LENGTH", False),
        ([{"description": "d" * 4097}], (0, "description"), "BASE_TYPE_MAX_LENGTH", False),
        ([{"fields": [{"name": "n", "value": "v"}] * 26}], (0, "fields"), "BASE_TYPE_MAX_LENGTH", False),
        ([{"fields": [{"name": "n" * 257, "value": "v"}]}], (0, "fields", 0, "name"), "BASE_TYPE_MAX_LENGTH", False),
        ([{"fields": [{"name": "n", "value": "v" * 1025}]}], (0, "fields", 0, "value"), "BASE_TYPE_MAX_LENGTH", False),
        ([{"description": "d" * 3001}, {"description": "d" * 3000}], (), "MAX_EMBED_SIZE_EXCEEDED", True),
    ],
    ids=["title-257", "description-4097", "26-fields", "field-name-257", "field-value-1025", "6001-in-all"],
)  # fmt: skip
async def test_3_embeds_over_discords_limits_are_an_invalid_form_body(
    api: Discord,
    fake_discord: FakeDiscord,
    embeds: list[Any],
    path: tuple[Any, ...],
    code: str,
    in_spec: bool,
) -> None:
    status, answer = await api("POST", MESSAGES, {"embeds": embeds}, valid=in_spec)
    assert status == 400
    assert form_error(answer, "embeds", *path) == code
    assert fake_discord.posted.get(CHANNEL_ID) is None


async def test_3_an_embed_of_exactly_6000_characters_passes(api: Discord) -> None:
    embeds = [{"description": "d" * 3000}, {"description": "d" * 3000}]
    status, _ = await api("POST", MESSAGES, {"embeds": embeds})
    assert status == 200


# ---- 3. messages: mentions -----------------------------------------------------------

BOTH = f"<@{USER_ID}> and <@!{OTHER_USER_ID}>, your turn."


@pytest.mark.parametrize(
    ("content", "allowed", "pinged", "everyone"),
    [
        (BOTH, None, [USER_ID, OTHER_USER_ID], False),
        (BOTH, {"parse": []}, [], False),
        (BOTH, {"parse": ["users"]}, [USER_ID, OTHER_USER_ID], False),
        (BOTH, {"users": [str(OTHER_USER_ID)]}, [OTHER_USER_ID], False),
        (BOTH, {"parse": ["users"], "users": []}, [USER_ID, OTHER_USER_ID], False),
        (f"<@{USER_ID}> fired.", {"users": [str(OTHER_USER_ID)]}, [], False),  # no phantom
        ("@everyone wake up", None, [], True),
        ("@here wake up", {"parse": ["everyone"]}, [], True),
        (f"@everyone <@{USER_ID}>", {"parse": ["users"]}, [USER_ID], False),
    ],
    ids=[
        "default-all", "parse-none", "parse-users", "listed-only", "empty-list-is-fine",
        "listed-but-absent", "everyone-by-default", "here", "everyone-not-parsed",
    ],
)  # fmt: skip
async def test_3_mentions_ping_by_discords_rules(
    api: Discord,
    fake_discord: FakeDiscord,
    content: str,
    allowed: Any,
    pinged: list[int],
    everyone: bool,
) -> None:
    fake_discord.bot_permissions[CHANNEL_ID] |= MENTION_EVERYONE
    body: dict[str, Any] = {"content": content}
    if allowed is not None:
        body["allowed_mentions"] = allowed

    status, message = await api("POST", MESSAGES, body)

    assert status == 200
    assert [int(u["id"]) for u in message["mentions"]] == pinged
    assert message["mention_everyone"] is everyone
    assert fake_discord.pinged(CHANNEL_ID) == [pinged]


async def test_3_everyone_needs_the_mention_everyone_permission(api: Discord) -> None:
    status, message = await api("POST", MESSAGES, {"content": "@everyone wake up"})
    assert status == 200 and message["mention_everyone"] is False


async def test_3_parse_users_with_a_list_of_users_is_refused(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    body = {"content": BOTH, "allowed_mentions": {"parse": ["users"], "users": [str(USER_ID)]}}
    status, answer = await api("POST", MESSAGES, body)
    assert status == 400
    assert form_error(answer, "allowed_mentions") == "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"
    assert fake_discord.pinged(CHANNEL_ID) == []


# ---- 3 and 4. interactions: callbacks, follow-ups, components -----------------------


async def test_3_a_follow_up_lands_in_the_interactions_thread_and_pings_users_only(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    thread_id = int(fake_discord.add_thread()["id"])
    fake_discord.bot_permissions[CHANNEL_ID] |= MENTION_EVERYONE
    payload = fake_discord.interaction_payload(
        "status", interaction_id=fake_discord.snowflake(), channel_id=thread_id
    )
    status, _ = await api("POST", callback_path(payload), {"type": 5})
    assert status == 204

    body = {
        "content": f"@everyone <@{USER_ID}>",
        "embeds": [{"title": "Status", "description": "Turn 3"}],
        "components": [row(button("bst:7:board", "Board"))],
        "flags": 0,
    }
    status, message = await api("POST", webhook_path(payload), body, query={"wait": "true"})

    assert status == 200
    assert message["channel_id"] == str(thread_id)
    assert message["webhook_id"] == str(APP_ID)
    assert message["embeds"][0]["title"] == "Status"
    assert message["components"][0]["components"][0]["custom_id"] == "bst:7:board"
    # A webhook parses users only by default: no @everyone, whatever the permissions.
    assert message["mention_everyone"] is False
    assert fake_discord.pinged(thread_id) == [[USER_ID]]


async def test_4_follow_ups_wait_for_the_acknowledgement_and_callbacks_come_once(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    payload = fake_discord.interaction_payload("join", interaction_id=fake_discord.snowflake())

    status, answer = await api("POST", webhook_path(payload), {"content": "early"})
    assert status == 404 and refused(answer, 10015, "Unknown Webhook")

    assert (await api("POST", callback_path(payload), {"type": 5}))[0] == 204
    status, answer = await api("POST", callback_path(payload), {"type": 5})
    assert status == 400
    assert refused(answer, 40060, "Interaction has already been acknowledged.")


async def test_4_a_channel_message_callback_answers_with_the_message(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    payload = fake_discord.interaction_payload("join", interaction_id=fake_discord.snowflake())
    body = {"type": 4, "data": {"content": f"<@{USER_ID}> joined.", "flags": 64}}

    status, answer = await api("POST", callback_path(payload), body, query={"with_response": "1"})

    assert status == 200
    assert answer["interaction"]["response_message_ephemeral"] is True
    message = answer["resource"]["message"]
    assert fake_discord.posted[CHANNEL_ID] == [message]
    assert fake_discord.pinged(CHANNEL_ID) == [[USER_ID]]


async def test_4_interaction_payload_sits_in_a_thread_with_the_bots_permissions(
    fake_discord: FakeDiscord,
) -> None:
    thread = fake_discord.add_thread(name="battle-7")
    fake_discord.bot_permissions[CHANNEL_ID] &= ~ATTACH_FILES

    payload = fake_discord.interaction_payload(
        "shoot", interaction_id=fake_discord.snowflake(), channel_id=int(thread["id"])
    )

    assert payload["channel_id"] == thread["id"]
    assert payload["channel"]["type"] == 11
    assert payload["channel"]["parent_id"] == str(CHANNEL_ID)
    assert payload["channel"]["name"] == "battle-7"
    assert int(payload["app_permissions"]) == GAME_BOT_PERMISSIONS & ~ATTACH_FILES
    dm = fake_discord.interaction_payload("board", interaction_id=1, guild=False)
    assert (dm["channel_id"], dm["channel"]["type"]) == (str(DM_CHANNEL_ID), 1)


async def _posted_with_buttons(api: Discord) -> dict[str, Any]:
    body = {"content": "Battle 7: who joins?", "components": [row(button("bst:7:join"))]}
    status, message = await api("POST", MESSAGES, body)
    assert status == 200
    return message  # type: ignore[no-any-return]


async def test_4_a_click_is_a_message_component_interaction_on_that_message(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    message = await _posted_with_buttons(api)

    click = fake_discord.component_payload(
        "bst:7:join", message=message, interaction_id=fake_discord.snowflake()
    )
    choice = fake_discord.component_payload(
        "sonar:7:move",
        message=message,
        interaction_id=fake_discord.snowflake(),
        component_type=3,
        values=["n"],
        guild=False,
        channel_id=DM_CHANNEL_ID,
    )

    assert click["type"] == 3
    assert click["data"] == {"custom_id": "bst:7:join", "component_type": 2}
    assert click["message"]["id"] == message["id"]
    assert click["channel_id"] == str(CHANNEL_ID) and click["member"]["user"]["id"]
    assert choice["data"]["values"] == ["n"] and choice["user"]["id"] == str(USER_ID)
    assert "member" not in choice and choice["channel"]["type"] == 1


async def test_4_update_message_edits_the_clicked_message(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    message = await _posted_with_buttons(api)
    click = fake_discord.component_payload(
        "bst:7:join", message=message, interaction_id=fake_discord.snowflake()
    )
    body = {"type": 7, "data": {"content": "Battle 7: full.", "components": []}}

    status, answer = await api("POST", callback_path(click), body, query={"with_response": "1"})

    assert status == 200
    assert answer["resource"]["type"] == 7
    [stored] = fake_discord.posted[CHANNEL_ID]
    assert stored["id"] == message["id"]
    assert (stored["content"], stored["components"]) == ("Battle 7: full.", [])
    assert stored["edited_timestamp"] is not None
    assert fake_discord.edits == [(CHANNEL_ID, int(message["id"]), body["data"])]


async def test_4_a_deferred_update_then_edit_original_edits_the_clicked_message(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    message = await _posted_with_buttons(api)
    click = fake_discord.component_payload(
        "bst:7:join", message=message, interaction_id=fake_discord.snowflake()
    )
    assert (await api("POST", callback_path(click), {"type": 6}))[0] == 204
    assert fake_discord.edits == []

    status, edited = await api(
        "PATCH", f"{webhook_path(click)}/messages/@original", {"components": []}
    )

    assert status == 200
    assert edited["id"] == message["id"] and edited["components"] == []
    assert edited["content"] == "Battle 7: who joins?"


async def test_4_the_first_edit_of_a_deferred_answer_is_the_answer(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    payload = fake_discord.interaction_payload("status", interaction_id=fake_discord.snowflake())
    await api("POST", callback_path(payload), {"type": 5})
    original = f"{webhook_path(payload)}/messages/@original"

    status, first = await api("PATCH", original, {"content": "Turn 3"})
    status_again, second = await api("PATCH", original, {"content": "Turn 3 (closed)"})

    assert (status, status_again) == (200, 200)
    assert first["id"] == second["id"]
    assert [m["content"] for m in fake_discord.posted[CHANNEL_ID]] == ["Turn 3 (closed)"]


async def test_4_updating_a_message_is_for_components_only(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    payload = fake_discord.interaction_payload("join", interaction_id=fake_discord.snowflake())
    status, answer = await api("POST", callback_path(payload), {"type": 7, "data": {}})
    assert status == 400 and answer["code"] == 50035
    assert fake_discord.callbacks == {}


# ---- 4. edits --------------------------------------------------------------------------


async def test_4_the_bot_edits_its_message_to_remove_its_buttons(
    api: Discord, fake_discord: FakeDiscord
) -> None:
    message = await _posted_with_buttons(api)

    status, edited = await api("PATCH", f"{MESSAGES}/{message['id']}", {"components": []})

    assert status == 200
    assert edited["components"] == [] and edited["content"] == message["content"]
    assert edited["edited_timestamp"] is not None
    assert fake_discord.edits == [(CHANNEL_ID, int(message["id"]), {"components": []})]


async def test_4_edits_discord_refuses(api: Discord, fake_discord: FakeDiscord) -> None:
    theirs = fake_discord.add_history(CHANNEL_ID, "hello", author=user_payload(USER_ID))
    status, answer = await api("PATCH", f"{MESSAGES}/{theirs['id']}", {"content": "bye"})
    assert status == 403
    assert refused(answer, 50005, "Cannot edit a message authored by another user")

    status, answer = await api("PATCH", f"{MESSAGES}/1100000000000000999", {"content": "x"})
    assert status == 404 and refused(answer, 10008, "Unknown Message")

    thread_id = int(fake_discord.add_thread()["id"])
    _, message = await api("POST", f"/channels/{thread_id}/messages", {"content": "Turn 3."})
    fake_discord.archive(thread_id)
    status, answer = await api(
        "PATCH", f"/channels/{thread_id}/messages/{message['id']}", {"content": "x"}
    )
    assert status == 400 and refused(answer, 50083, "Thread is archived")


# ---- 5. command registration ---------------------------------------------------------


def command(**extra: Any) -> dict[str, Any]:
    subcommand = {"type": 1, "name": "pause", "description": "Pause the game"}
    return {
        "name": "bst",
        "description": "BattleshipTwitter",
        "type": 1,
        "options": [{**subcommand, **extra.pop("sub", {})}],
        **extra,
    }


async def test_5_default_member_permissions_and_contexts_are_echoed(api: Discord) -> None:
    body = [
        command(default_member_permissions=1 << 5, contexts=[0]),
        {**command(default_member_permissions=None), "name": "sonar"},
    ]
    status, answer = await api("PUT", f"/applications/{APP_ID}/commands", body)

    assert status == 200
    assert [c["default_member_permissions"] for c in answer] == ["32", None]
    assert answer[0]["contexts"] == [0]


async def test_5_a_subcommand_cannot_carry_default_member_permissions(api: Discord) -> None:
    body = [command(sub={"default_member_permissions": 1 << 5})]
    status, answer = await api("PUT", f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands", body)
    assert status == 400
    assert form_error(answer, 0, "options", 0, "default_member_permissions")


# ---- discord.py reads the fake's answers --------------------------------------------


async def test_discord_py_starts_a_thread_posts_buttons_and_clears_them(
    fake_discord: FakeDiscord, api: Discord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.base)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(TOKEN)
    try:
        channel = await client.fetch_channel(CHANNEL_ID)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(
            name="battle-7", type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        assert thread.parent_id == CHANNEL_ID and thread.owner_id == BOT_ID

        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Join", custom_id="bst:7:join"))
        message = await thread.send(
            f"<@{USER_ID}> <@{OTHER_USER_ID}>: join?",
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(OTHER_USER_ID)]),
        )
        [action_row] = message.components
        assert isinstance(action_row, discord.ActionRow)
        assert [b.custom_id for b in action_row.children] == ["bst:7:join"]
        assert [u.id for u in message.mentions] == [OTHER_USER_ID]

        click: Any = fake_discord.component_payload(
            "bst:7:join",
            message=fake_discord.posted[int(thread.id)][0],
            interaction_id=fake_discord.snowflake(),
        )
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=click, state=client._connection
        )
        clicked: Any = interaction.data
        assert clicked["custom_id"] == "bst:7:join" and interaction.message is not None
        assert interaction.channel is not None and interaction.channel.id == thread.id
        await interaction.response.edit_message(content="Battle 7: full.", view=None)
        assert fake_discord.posted[int(thread.id)][0]["components"] == []

        fake_discord.bot_permissions[CHANNEL_ID] &= ~CREATE_PUBLIC_THREADS
        with pytest.raises(discord.Forbidden) as caught:
            await channel.create_thread(name="battle-8", type=discord.ChannelType.public_thread)
        assert caught.value.code == 50013
    finally:
        await client.close()
