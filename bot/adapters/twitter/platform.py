"""X as the platform catalog sees it: the ``[twitter]`` section, its secrets, its checks
and how to build the adapter. Imports no tweepy (see bot.adapters.declaration)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.adapters.declaration import BuildContext, Platform, api_base_problem
from bot.adapters.twitter.section import TwitterConfig as TwitterConfig
from bot.host.messages import PlatformFace

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


_API_BASE_EXAMPLE = "http://127.0.0.1:8081"


def _check(section: TwitterConfig) -> str | None:
    problem = api_base_problem(section.api_base, _API_BASE_EXAMPLE)
    if problem:
        return problem
    parts = urlsplit(section.api_base)
    if section.api_base and (parts.path.rstrip("/").endswith("/2") or parts.query):
        return (
            f'api_base: expected the origin without /2 (e.g. "{_API_BASE_EXAMPLE}"), '
            f"got {section.api_base!r}"
        )
    return None


def _build(section: TwitterConfig, context: BuildContext) -> ChatAdapter:
    from bot.adapters.twitter.adapter import TwitterAdapter
    from bot.adapters.twitter.credentials import TwitterCredentials

    return TwitterAdapter(
        section,
        credentials=TwitterCredentials.from_environment(section),
        cursors=context.cursors,
        games=context.games,
    )


async def _check_online(section: TwitterConfig) -> tuple[list[str], list[str]]:
    from bot.adapters.twitter.check import check_x
    from bot.adapters.twitter.credentials import TwitterCredentials

    return await check_x(section, TwitterCredentials.from_environment(section))


def _thread_url(channel: str) -> str:
    """A game's channel on X is its thread, whose address is its first post's."""
    return f"https://x.com/i/status/{channel}" if channel.isdigit() else ""


TWITTER = Platform(
    name="twitter",
    section=TwitterConfig,
    build=_build,
    secrets=("api_key_env", "api_secret_env", "access_token_env", "access_secret_env"),
    optional_secrets=("bearer_token_env",),
    durations=("mentions_poll", "dm_poll"),
    check=_check,
    check_online=_check_online,
    face=PlatformFace("X", _thread_url),
    libraries=("tweepy",),
)
