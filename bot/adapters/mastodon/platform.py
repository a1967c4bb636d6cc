"""Mastodon as the platform catalog sees it: the ``[mastodon]`` section, its secret, its
checks and how to build the adapter. Imports no Mastodon.py (see bot.adapters.declaration)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.adapters.declaration import BuildContext, Platform, api_base_problem

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


@dataclass(frozen=True)
class MastodonConfig:
    enabled: bool = False
    # The bot account's instance, e.g. "https://mastodon.social" (a local fake:
    # "http://127.0.0.1:8082").
    instance: str = ""
    # An access token of the bot account with the scopes "read write" (Preferences →
    # Development → New application).
    access_token_env: str = "MASTODON_ACCESS_TOKEN"
    # Mentions arrive by the streaming API; false: by polling alone.
    stream: bool = True
    # How often notifications are polled while the stream is down (or off).
    poll: str = "1m"
    # At start-up, mark the account as a bot and let private mentions from people it does
    # not follow through (Mastodon filters them by default): DMs are moves.
    set_up_account: bool = True
    # "public", or "unlisted" to keep the games' posts off the public timelines.
    post_visibility: str = "public"
    reminders: bool = True  # direct posts cost nothing on Mastodon
    # The first start (no cursor yet) answers only what is sent after it; true reads
    # back one page of mentions (up to 80) and acts on them.
    backfill: bool = False
    # The steady pace of the bot's posts and direct posts a minute (0: as fast as the
    # instance allows): a deadline's maps and boards are spread over minutes, none
    # dropped. Mastodon allows an account 300 requests per 5 minutes and 30 media
    # uploads per 30 minutes (kept by its rate-limit headers and the adapter).
    posts_per_minute: int = 6
    dms_per_minute: int = 20
    # Media uploads the instance allows per 30 minutes (Mastodon's own limit is 30; an
    # instance may set another; 0: unbounded). A picture past it waits for the window,
    # holding back only the messages after it to the same place.
    media_per_30_minutes: int = 30


_EXAMPLE = "https://mastodon.social"
_VISIBILITIES = ("public", "unlisted")


def _check(section: MastodonConfig) -> str | None:
    if section.enabled and not section.instance:
        return f'instance: expected the bot account\'s instance, such as "{_EXAMPLE}"'
    problem = api_base_problem(section.instance, _EXAMPLE)
    if problem:
        return problem.replace("api_base:", "instance:", 1)
    parts = urlsplit(section.instance)
    if section.instance and (parts.path.strip("/") or parts.query):
        return f'instance: expected the origin only (e.g. "{_EXAMPLE}"), got {section.instance!r}'
    if section.post_visibility not in _VISIBILITIES:
        return f'post_visibility: expected "public" or "unlisted", got {section.post_visibility!r}'
    return None


def _build(section: MastodonConfig, context: BuildContext) -> ChatAdapter:
    from bot.adapters.mastodon.adapter import MastodonAdapter
    from bot.config import secret

    return MastodonAdapter(
        section,
        access_token=secret(section.access_token_env),
        cursors=context.cursors,
        games=context.games,
    )


async def _check_online(section: MastodonConfig) -> tuple[list[str], list[str]]:
    from bot.adapters.mastodon.check import check_mastodon
    from bot.config import secret

    return await check_mastodon(section, secret(section.access_token_env))


MASTODON = Platform(
    name="mastodon",
    section=MastodonConfig,
    build=_build,
    secrets=("access_token_env",),
    durations=("poll",),
    check=_check,
    check_online=_check_online,
)
