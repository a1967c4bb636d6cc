"""Discord as the platform catalog sees it: the ``[discord]`` section, its secrets, its
checks and how to build the adapter. Imports no discord.py (see bot.adapters.declaration)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.adapters.declaration import BuildContext, Platform, api_base_problem
from bot.adapters.discord.section import DiscordConfig as DiscordConfig
from bot.host.messages import PlatformFace

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


_API_BASE_EXAMPLE = "http://127.0.0.1:8080/api/v10"


def _check(section: DiscordConfig) -> str | None:
    problem = api_base_problem(section.api_base, _API_BASE_EXAMPLE)
    if problem:
        return problem
    if section.api_base and not re.search(
        r"/api/v\d+$", urlsplit(section.api_base).path.rstrip("/")
    ):
        return (
            "api_base: expected the REST base with its version, ending in /api/v10 "
            f'(e.g. "{_API_BASE_EXAMPLE}"), got {section.api_base!r}'
        )
    if not section.shard_ids:
        return None
    if section.shard_count == 0:
        return "shard_ids: needs shard_count (e.g. shard_count = 2, shard_ids = [0])"
    wrong = [n for n in section.shard_ids if n >= section.shard_count]
    if wrong:
        return (
            f"shard_ids: shard ids run from 0 to {section.shard_count - 1} "
            f"(shard_count = {section.shard_count}), got {wrong}"
        )
    return None


def _build(section: DiscordConfig, context: BuildContext) -> ChatAdapter:
    from bot.adapters.discord.adapter import DiscordAdapter
    from bot.config_problems import secret

    return DiscordAdapter(
        section,
        token=secret(section.token_env),
        cursors=context.cursors,
        games=context.games,
        admins=context.admins,
    )


async def _check_online(section: DiscordConfig) -> tuple[list[str], list[str]]:
    from bot.adapters.discord.check import check_discord
    from bot.config_problems import secret

    return await check_discord(section, secret(section.token_env))


DISCORD = Platform(
    name="discord",
    section=DiscordConfig,
    build=_build,
    secrets=("token_env",),
    optional_secrets=("application_id_env",),
    list_items={"shard_ids": int},
    check=_check,
    check_online=_check_online,
    face=PlatformFace("Discord"),  # a channel's link needs its server: none
    libraries=("discord",),
    # A follow-up's URL is /webhooks/APP/TOKEN, an answer's /interactions/ID/TOKEN/callback.
    tokens_in_urls=(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.\-]{20,}",),
)
