"""Mastodon as the platform catalog sees it: the ``[mastodon]`` section, its secret, its
checks and how to build the adapter. Imports no Mastodon.py (see bot.adapters.declaration)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.adapters.declaration import BuildContext, Platform, api_base_problem
from bot.adapters.mastodon.section import MastodonConfig as MastodonConfig
from bot.host.messages import PlatformFace

if TYPE_CHECKING:
    from bot.host.messages import ChatAdapter


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
    from bot.config_problems import secret

    return MastodonAdapter(
        section,
        access_token=secret(section.access_token_env),
        cursors=context.cursors,
        games=context.games,
    )


async def _check_online(section: MastodonConfig) -> tuple[list[str], list[str]]:
    from bot.adapters.mastodon.check import check_mastodon
    from bot.config_problems import secret

    return await check_mastodon(section, secret(section.access_token_env))


MASTODON = Platform(
    name="mastodon",
    section=MastodonConfig,
    build=_build,
    secrets=("access_token_env",),
    durations=("poll",),
    check=_check,
    check_online=_check_online,
    face=PlatformFace("mastodon"),
)
