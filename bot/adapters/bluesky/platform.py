"""Bluesky as the platform catalog sees it: the ``[bluesky]`` section, its secret, its
checks and how to build the adapter. Imports no atproto (see bot.adapters.declaration)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.adapters.declaration import BuildContext, Platform, api_base_problem

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


@dataclass(frozen=True)
class BlueskyConfig:
    enabled: bool = False
    # The bot account's handle ("bst.bsky.social") or DID.
    handle: str = ""
    # The environment variable holding an app password made *with* access to direct
    # messages (Settings → Privacy and security → App passwords).
    app_password_env: str = "BLUESKY_APP_PASSWORD"
    # The account's PDS, e.g. "https://bsky.social" or a local fake
    # "http://127.0.0.1:2583"; requests go to {api_base}/xrpc/… "" = https://bsky.social.
    api_base: str = ""
    # Where the login session is kept between runs (logins are rate limited: 30 in 5
    # minutes, 300 a day): "" = in the database, beside the adapter's cursors; else a file
    # path (made readable by its owner only).
    session_file: str = ""
    notifications_poll: str = "30s"
    dm_poll: str = "10s"
    # Also search recent posts for the games' tags: Bluesky's notifications silently
    # drop some mentions of little-followed accounts, and a post with the tag that does
    # not mention the bot is an order all the same.
    search_hashtag: bool = True
    # Put the "bot" self-label on the account's profile at start (Bluesky's rule for
    # automated accounts); false: `bst check-config --online` says when it is missing.
    label_bot: bool = True
    reminders: bool = True
    # The very first start answers only what is sent after it; true acts on the last
    # page of notifications and chat messages too.
    backfill: bool = False
    # Posts and DMs a minute at most, spread evenly (0 = no pacing): a bot that posts in
    # bursts is labelled as spam. 30 DMs a minute is one every 2 s.
    posts_per_minute: int = 5
    dms_per_minute: int = 30
    # Distinct accounts notified by mention in an hour; beyond it names are written
    # without the mention (Bluesky's automod flags ~40).
    mentions_per_hour: int = 40
    # The PDS's write budget (a post costs 3 points).
    points_per_hour: int = 5000
    points_per_day: int = 35_000


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
    from bot.config import secret

    return BlueskyAdapter(
        section,
        password=secret(section.app_password_env),
        cursors=context.cursors,
        games=context.games,
    )


async def _check_online(section: BlueskyConfig) -> tuple[list[str], list[str]]:
    from bot.adapters.bluesky.check import check_bluesky
    from bot.config import secret

    return await check_bluesky(section, secret(section.app_password_env))


BLUESKY = Platform(
    name="bluesky",
    section=BlueskyConfig,
    build=_build,
    secrets=("app_password_env",),
    durations=("notifications_poll", "dm_poll"),
    check=_check,
    check_online=_check_online,
)
