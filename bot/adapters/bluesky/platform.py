"""Bluesky as the platform catalog sees it: the ``[bluesky]`` section, its secret, its
checks and how to build the adapter. Imports no atproto (see bot.adapters.declaration)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.adapters.bluesky.section import BlueskyConfig as BlueskyConfig
from bot.adapters.declaration import BuildContext, Platform, api_base_problem
from bot.host.messages import PlatformFace

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


_API_BASE_EXAMPLE = "http://127.0.0.1:2583"
# A handle is a domain name; a DID is did:plc:… or did:web:…
_HANDLE = re.compile(r"^(?:did:[a-z]+:[A-Za-z0-9._:%-]+|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$")


def _check(section: BlueskyConfig) -> str | None:
    if section.enabled and not _HANDLE.match(section.handle.strip().lstrip("@")):
        return (
            'handle: expected the bot account\'s handle such as "bst.bsky.social" (or its '
            f"DID), got {section.handle!r}"
        )
    problem = api_base_problem(section.api_base, _API_BASE_EXAMPLE)
    if problem:
        return problem
    if section.api_base.rstrip("/").endswith("/xrpc"):
        return (
            f'api_base: expected the PDS origin without /xrpc (e.g. "{_API_BASE_EXAMPLE}"), '
            f"got {section.api_base!r}"
        )
    return None


def _build(section: BlueskyConfig, context: BuildContext) -> ChatAdapter:
    from bot.adapters.bluesky.adapter import BlueskyAdapter
    from bot.config_problems import secret

    return BlueskyAdapter(
        section,
        password=secret(section.app_password_env),
        cursors=context.cursors,
        games=context.games,
    )


async def _check_online(section: BlueskyConfig) -> tuple[list[str], list[str]]:
    from bot.adapters.bluesky.check import check_bluesky
    from bot.config_problems import secret

    return await check_bluesky(section, secret(section.app_password_env))


BLUESKY = Platform(
    name="bluesky",
    section=BlueskyConfig,
    build=_build,
    secrets=("app_password_env",),
    durations=("notifications_poll", "dm_poll"),
    check=_check,
    check_online=_check_online,
    face=PlatformFace("bluesky"),
)
