"""What a chat platform declares about itself, for the catalog in :mod:`bot.platforms`.

Each adapter package has a ``platform.py`` that builds one :class:`Platform`: its name,
its config section (a frozen dataclass whose field defaults are the section's
defaults), which keys name the environment variables holding its secrets, the checks
``bst check-config`` and ``--online`` make, and how to build its adapter. A
declaration imports no platform SDK: the adapter and the online check import theirs
only when called, so reading a config never loads discord.py or tweepy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.host.messages import PlatformFace

if TYPE_CHECKING:
    from bot.games.base import Game
    from bot.host.messages import ChatAdapter
    from bot.host.runtime.service import HostCursors


@dataclass(frozen=True)
class BuildContext:
    """What `bst run` hands every enabled platform's ``build``."""

    cursors: HostCursors
    games: Sequence[Game[Any, Any]]
    admins: tuple[str, ...] = ()


@dataclass(frozen=True)
class Platform:
    """One platform as the config, ``bst run``, ``bst check-config`` and the wiring see it.

    ``section``: the ``[name]`` section's dataclass; it has ``enabled`` and ``reminders``.
    ``secrets``: keys of the section naming environment variables that must be set when
    the platform is enabled. ``optional_secrets``: keys naming variables read when set.
    The values of both are kept out of every log line; the file holds only their names.
    ``durations``: keys holding a duration ("1m"). ``list_items``: the element type of
    each list key. ``check``: a problem with a whole parsed section, worded as
    ``"key: what was expected"``, or None. ``build``: the adapter, from the section and
    a :class:`BuildContext` (reads its secrets from the environment; raises ConfigError
    when one is unset). ``check_online``: asks the platform whether it will take the
    bot: (what is fine, what must be fixed), a line each.
    """

    name: str
    section: type[Any]
    build: Callable[[Any, BuildContext], ChatAdapter]
    secrets: tuple[str, ...] = ()
    optional_secrets: tuple[str, ...] = ()
    durations: tuple[str, ...] = ()
    list_items: Mapping[str, type] = field(default_factory=dict)
    check: Callable[[Any], str | None] | None = None
    check_online: Callable[[Any], Awaitable[tuple[list[str], list[str]]]] | None = None
    # How the web page names the platform and links a game's channel there.
    face: PlatformFace | None = None
    # Loggers of the platform's library whose DEBUG carries message text, tokens or
    # headers (held at INFO), and paths of its URLs that carry a token after the part
    # matched by the pattern's first group (scrubbed from every log line).
    libraries: tuple[str, ...] = ()
    tokens_in_urls: tuple[str, ...] = ()


_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def is_local(host: str) -> bool:
    """A host whose plain-HTTP traffic stays on this machine or its private network:
    loopback, a private address, or a one-word name (a service beside the bot)."""
    if host in _LOCAL_HOSTS or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return "." not in host
    return address.is_loopback or address.is_private


def api_base_problem(value: str, example: str) -> str | None:
    """``api_base``: empty (the platform's own), an https URL, or a local http URL (a
    proxy or a fake beside the bot: the token would travel in clear)."""
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f'api_base: expected a URL such as "{example}", got {value!r}'
    if parts.scheme == "http" and not is_local(parts.hostname):
        return (
            "api_base: plain http:// only to this machine or a private network (the "
            f'token travels in clear); use https://, or a local URL such as "{example}"'
        )
    return None
