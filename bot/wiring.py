"""Putting a host together: the store, the clock, the adapters and the renderers.

This is the one place (with the ``bst`` command) that knows every part; the
host itself never imports an adapter.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot import platforms
from bot.config import Config
from bot.games import catalog
from bot.games.base import Game
from bot.games.duration import parse_duration
from bot.host.messages import ChatAdapter
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.play.thinking import thinker_for
from bot.host.runtime.clock import Clock
from bot.host.runtime.limits import NO_LIMITS, Limits
from bot.host.runtime.service import Host
from bot.store import Store


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path)}"


def registered_games() -> Sequence[Game[Any, Any]]:
    """The games the host offers, handed to the adapters: Discord builds a command group
    for each, X reads each one's tag. Adapters never import the catalog themselves."""
    return catalog.games()


def limits_of(config: Config) -> Limits:
    """The ``[limits]`` section as the host's :class:`~bot.host.runtime.limits.Limits`."""
    section = config.limits
    return Limits(
        min_duration_s=(
            parse_duration(section.min_duration).total_seconds() if section.min_duration else 0.0
        ),
        commands_per_minute=section.commands_per_minute,
        open_games_per_host=section.open_games_per_host,
        open_games_per_channel=section.open_games_per_channel,
        private_answers=section.private_answers,
    )


def build_host(
    store: Store,
    clock: Clock,
    adapters: Mapping[str, ChatAdapter],
    config: Config,
    *,
    avatar_fetch: Callable[[str], Awaitable[bytes]] | None = None,
    limits: Limits = NO_LIMITS,
    draw_secret: Callable[[], str] | None = None,
    robot_processes: int = 0,
) -> Host:
    """``limits``: what one person may ask (:func:`limits_of` the config for ``bst run``,
    on a real clock; none for the virtual clocks of scripts, the demo and ``play``).
    ``draw_secret``: committed luck for games opened without ``seed=`` (``bst run``;
    scripts keep drawing from their seed, so their records stay the same).
    ``robot_processes``: worker processes the robots think in (``bst run``: the config's
    ``[robots] processes``; 0, for scripts, the demo and ``play``: the clock's thread)."""
    cache_dir = config.render.avatar_cache_dir or None
    avatars = AvatarCache(
        cache_dir=cache_dir,
        fetch=avatar_fetch,
        max_bytes=config.render.max_avatar_bytes,
        memory_bytes=config.render.avatar_memory_bytes,
        disk_bytes=config.render.avatar_disk_bytes,
    )
    attachments = AttachmentRenderer(store, avatars, replay_gif=config.render.replay_gif)
    return Host(
        store,
        clock,
        adapters,
        attachments,
        admins=frozenset(config.games.admins),
        default_turn=config.games.turn,
        default_game=config.games.default,
        limits=limits,
        reminder_seconds=(
            parse_duration(config.games.reminder_before).total_seconds()
            if config.games.reminder_before
            else 0.0
        ),
        reminder_platforms=frozenset(
            declared.name
            for declared in platforms.platforms()
            if getattr(config.section(declared.name), "reminders", False)
        )
        | {"console"},
        health_port=config.health.port or None,
        health_address=config.health.address,
        web_base_url=config.web.base_url,
        draw_secret=draw_secret,
        thinker=thinker_for(robot_processes),
    )


async def no_network(url: str) -> bytes:
    """Avatar fetching for offline runs (scripts, the demo): always the generated avatar."""
    raise OSError("offline: avatars are generated")
