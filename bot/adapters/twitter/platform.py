"""X as the platform catalog sees it: the ``[twitter]`` section, its secrets, its checks
and how to build the adapter. Imports no tweepy (see bot.adapters.declaration)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.adapters.declaration import BuildContext, Platform, api_base_problem

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


@dataclass(frozen=True)
class TwitterConfig:
    enabled: bool = False
    api_key_env: str = "X_API_KEY"
    api_secret_env: str = "X_API_SECRET"
    access_token_env: str = "X_ACCESS_TOKEN"
    access_secret_env: str = "X_ACCESS_SECRET"
    bearer_token_env: str = "X_BEARER_TOKEN"
    bot_user_id: str = ""  # the bot account's numeric id (looked up at start if empty)
    mentions_poll: str = "1m"
    dm_poll: str = "1m"
    search_hashtag: bool = False  # also poll recent search for the games' tags (costs reads)
    # The API origin without /2 (a recording proxy, a local fake), e.g.
    # "http://127.0.0.1:8081"; requests go to {api_base}/2/… signed over that URL.
    # "" = X's own (https://api.x.com).
    api_base: str = ""
    reminders: bool = False  # DMs cost money on X: off by default
    # The first start (no cursor yet) answers only what is sent after it; true reads
    # back one page of mentions and DMs (up to 100 each, 30 days) and acts on them.
    backfill: bool = False
    # The steady pace of the bot's posts and DMs a minute (0 = as fast as X allows): a
    # deadline's maps and boards are spread over minutes, none dropped. X allows an
    # account 200 posts and 200 DMs per 15 minutes (13 a minute), and 300 posts per 3
    # hours and 1,000 DMs a day: the longer windows are kept by X's rate headers (a send
    # waits for their reset).
    posts_per_minute: int = 6
    dms_per_minute: int = 12


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


TWITTER = Platform(
    name="twitter",
    section=TwitterConfig,
    build=_build,
    secrets=("api_key_env", "api_secret_env", "access_token_env", "access_secret_env"),
    optional_secrets=("bearer_token_env",),
    durations=("mentions_poll", "dm_poll"),
    check=_check,
    check_online=_check_online,
)
