"""Configuration: a TOML file read into frozen dataclasses, checked at start-up.

Tokens never live in the file: the file names the environment variables that
hold them, and only :func:`secret` reads those. Every error names the file, the
key and what was expected, and never prints a secret's value.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.catalog import game_names
from bot.games.duration import parse_duration


class ConfigError(Exception):
    """A configuration problem, worded for the person who wrote the file."""


@dataclass(frozen=True)
class DatabaseConfig:
    url: str = "sqlite:///bst.db"
    # The name of an environment variable holding the URL instead (a PostgreSQL URL
    # carries its password: DATABASE_URL, as hosts such as Heroku set it). Wins over url.
    url_env: str = ""


@dataclass(frozen=True)
class GamesConfig:
    turn: str = "8h"  # default turn length for new games that have turns of a set length
    default: str = "bst"  # the game `new` opens when it names none (`new sonar` names one)
    admins: tuple[str, ...] = ()  # "platform:user_id" entries that may host any game
    reminder_before: str = ""  # e.g. "1h"; empty = no reminders


@dataclass(frozen=True)
class LimitsConfig:
    """What one person may ask of the hosted bot (see bot/host/limits.py)."""

    min_duration: str = "1m"  # the shortest turn, move time, window or setup deadline
    commands_per_minute: int = 20  # per person; past it one "slow down", then quiet
    open_games_per_host: int = 3  # per person per server (per platform where none)
    open_games_per_channel: int = 5  # games in setup or battle in one channel
    private_answers: bool = True  # help, rules, status asked in public: answered privately


@dataclass(frozen=True)
class RenderConfig:
    avatar_cache_dir: str = ""  # empty = memory only
    max_avatar_bytes: int = 1_000_000
    # Decoded avatars kept in memory, least recently used dropped first (about 0.6 MB each).
    avatar_memory_bytes: int = 64_000_000
    replay_gif: bool = True


@dataclass(frozen=True)
class LoggingConfig:
    level: str = "INFO"
    json: bool = False


@dataclass(frozen=True)
class DiscordConfig:
    enabled: bool = False
    token_env: str = "DISCORD_TOKEN"
    application_id_env: str = "DISCORD_APPLICATION_ID"
    message_content: bool = False  # privileged intent: typed "#bst H14" in channels
    host_role: str = ""  # members with this role may host any game in their server
    shard_count: int = 0  # 0 = let Discord decide (one process)
    shard_ids: tuple[int, ...] = ()
    reminders: bool = True
    # The REST base with its version (a shared rate-limit proxy, a local fake), e.g.
    # "http://127.0.0.1:8080/api/v10"; the gateway is then GET {api_base}/gateway/bot.
    # "" = Discord's own.
    api_base: str = ""
    # New DM channels opened per minute at most (a DM channel once opened is reused):
    # opening hundreds at once is what Discord's anti-spam refuses (40003).
    dm_opens_per_minute: int = 60


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
    search_hashtag: bool = False  # also poll recent search for #bst (costs reads)
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


@dataclass(frozen=True)
class HealthConfig:
    # Serve GET /health on this local port while `bst run` runs (0 = no health signal):
    # 200 while connected and sending, 503 when a platform is disconnected for over a
    # minute or the relay is stuck.
    port: int = 0
    address: str = "127.0.0.1"


@dataclass(frozen=True)
class WebConfig:
    # Serve the game's web page from `bst run` (it runs on its own with `bst web`).
    enabled: bool = False
    # The public address of the page, as players reach it (behind a TLS proxy), used in
    # the links the bot sends; "" = no links are sent.
    base_url: str = ""
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class ConsoleConfig:
    images_dir: str = "bst-console"


@dataclass(frozen=True)
class Config:
    database: DatabaseConfig = field(default_factory=DatabaseConfig)
    games: GamesConfig = field(default_factory=GamesConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    render: RenderConfig = field(default_factory=RenderConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    twitter: TwitterConfig = field(default_factory=TwitterConfig)
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    health: HealthConfig = field(default_factory=HealthConfig)
    web: WebConfig = field(default_factory=WebConfig)
    source: str = "(defaults)"

    @property
    def enabled_platforms(self) -> list[str]:
        return [name for name in ("discord", "twitter") if getattr(self, name).enabled]

    def database_url(self, environ: Mapping[str, str] | None = None) -> str:
        """The database URL: from the variable ``[database] url_env`` names, else ``url``."""
        name = self.database.url_env
        if not name:
            return canonical_url(self.database.url)
        env = os.environ if environ is None else environ
        url = env.get(name, "")
        if not url.strip():
            raise ConfigError(
                f"{self.source}: [database] url_env = {name!r}: environment variable not set"
            )
        _check_url(url, f"{self.source}: [database] url_env ({name})")
        return canonical_url(url)


UNREADABLE_URL = "(a URL that cannot be read, not shown)"


def redacted_url(url: str) -> str:
    """A database URL fit to print: SQLAlchemy's own reading of it with the password
    hidden (``***``), or, when it cannot be read as a URL at all, nothing of it (a
    pattern of our own would miss a password the database library finds: an upper-case
    scheme, a leading space, a typo in the scheme)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url.strip()).render_as_string(hide_password=True)
    except (ArgumentError, ValueError, TypeError):
        return UNREADABLE_URL


def url_password(url: str) -> str:
    """The password in a database URL, as the database library reads it ("" if none), so
    the logs can scrub it."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url.strip()).password or ""
    except (ArgumentError, ValueError, TypeError):
        return ""


def canonical_url(url: str) -> str:
    """The URL as the store takes it: without surrounding blanks, its scheme in lower case
    (schemes are case-insensitive), and ``postgres://`` — what Heroku-style hosts hand
    out — read as ``postgresql://``."""
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text
    scheme = scheme.lower()
    if scheme == "postgres":
        scheme = "postgresql"
    return f"{scheme}://{rest}"


_SECTIONS: dict[str, type[Any]] = {
    "database": DatabaseConfig,
    "games": GamesConfig,
    "limits": LimitsConfig,
    "render": RenderConfig,
    "logging": LoggingConfig,
    "discord": DiscordConfig,
    "twitter": TwitterConfig,
    "console": ConsoleConfig,
    "health": HealthConfig,
    "web": WebConfig,
}

_DURATION_KEYS = {
    ("games", "turn"),
    ("games", "reminder_before"),
    ("limits", "min_duration"),
    ("twitter", "mentions_poll"),
    ("twitter", "dm_poll"),
}
_CHOICES = {
    ("logging", "level"): ("DEBUG", "INFO", "WARNING", "ERROR"),
}
# The type of each element of the list keys (a list's default, (), cannot say).
_LIST_ITEMS: dict[tuple[str, str], type] = {
    ("games", "admins"): str,
    ("discord", "shard_ids"): int,
}
_MAX_AVATAR_BYTES = 1_000_000  # the renderers refuse bigger avatars whatever this says

_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]{0,63}$")

# The secrets each enabled platform needs, by the config key naming their variable.
REQUIRED_SECRETS = {
    "discord": ("token_env",),
    "twitter": ("api_key_env", "api_secret_env", "access_token_env", "access_secret_env"),
}


def _describe(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _coerce(where: str, default: object, value: object) -> object:
    """Check one value against its default's type; return it in the field's type."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{where}: expected true or false, got {_describe(value)}")
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        raise ConfigError(f"{where}: expected a whole number of 0 or more, got {_describe(value)}")
    if isinstance(default, str):
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where}: expected a string in quotes, got {_describe(value)}")
    if isinstance(default, tuple):
        if isinstance(value, list):
            return tuple(value)
        raise ConfigError(f'{where}: expected a list such as ["a", "b"], got {_describe(value)}')
    raise ConfigError(f"{where}: unsupported value {_describe(value)}")


def parse_config(data: Mapping[str, Any], source: str) -> Config:
    sections: dict[str, Any] = {}
    for name, table in data.items():
        if name not in _SECTIONS:
            known = ", ".join(f"[{s}]" for s in _SECTIONS)
            raise ConfigError(f"{source}: unknown section [{name}]: expected one of {known}")
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [{name}] must be a table of keys")
        cls = _SECTIONS[name]
        defaults = cls()
        values: dict[str, Any] = {}
        for key, value in table.items():
            where = f"{source}: [{name}] {key}"
            if not hasattr(defaults, key):
                known = ", ".join(f.name for f in cls.__dataclass_fields__.values())
                raise ConfigError(f"{where}: unknown key; expected one of {known}")
            coerced = _coerce(where, getattr(defaults, key), value)
            if (name, key) in _DURATION_KEYS and coerced:
                try:
                    parse_duration(str(coerced))
                except Exception as error:
                    raise ConfigError(f"{where}: {error}") from None
            if (name, key) == ("games", "default") and coerced not in game_names():
                raise ConfigError(
                    f"{where}: expected one of {', '.join(game_names())}, got {coerced!r}"
                )
            if key.endswith("_env") and coerced and not _ENV_NAME.match(str(coerced)):
                # Someone pasted the secret itself where its variable's name belongs:
                # say so without printing it back.
                raise ConfigError(
                    f"{where}: expected the NAME of an environment variable, such as "
                    f"{getattr(defaults, key) or 'DATABASE_URL'!r}, not a value (what was "
                    "given is not shown)"
                )
            item_type = _LIST_ITEMS.get((name, key))
            if item_type is not None:
                assert isinstance(coerced, tuple)
                for item in coerced:
                    if not isinstance(item, item_type) or isinstance(item, bool):
                        example = '["discord:80351110224678912"]' if item_type is str else "[0, 1]"
                        raise ConfigError(
                            f"{where}: expected a list of {item_type.__name__}s such as "
                            f"{example}, got {_describe(item)} in it"
                        )
            if (name, key) == ("games", "admins"):
                assert isinstance(coerced, tuple)
                for item in coerced:
                    if ":" not in item:
                        raise ConfigError(
                            f'{where}: expected "platform:user_id" entries such as '
                            f'"discord:80351110224678912", got {_describe(item)}'
                        )
            if (
                (name, key) == ("render", "max_avatar_bytes")
                and isinstance(coerced, int)
                and coerced > _MAX_AVATAR_BYTES
            ):
                raise ConfigError(
                    f"{where}: at most {_MAX_AVATAR_BYTES} (the renderers refuse bigger "
                    f"avatars), got {coerced}"
                )
            if (
                (name, key) == ("render", "avatar_memory_bytes")
                and isinstance(coerced, int)
                and coerced < _MAX_AVATAR_BYTES
            ):
                raise ConfigError(
                    f"{where}: at least {_MAX_AVATAR_BYTES} (room for one avatar), e.g. "
                    f"64000000, got {coerced}"
                )
            choices = _CHOICES.get((name, key))
            if choices and coerced not in choices:
                raise ConfigError(
                    f"{where}: expected one of {', '.join(choices)}, got {_describe(coerced)}"
                )
            values[key] = coerced
        sections[name] = cls(**values)
    config = Config(**sections, source=source)
    _check_urls(config)
    _check_shards(config)
    _check_api_bases(config)
    return config


_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def _is_local(host: str) -> bool:
    """A host whose plain-HTTP traffic stays on this machine or its private network:
    loopback, a private address, or a one-word name (a service beside the bot)."""
    import ipaddress

    if host in _LOCAL_HOSTS or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return "." not in host
    return address.is_loopback or address.is_private


def _check_api_bases(config: Config) -> None:
    """``api_base`` of each platform: empty (the platform's own), an https URL, or a
    local http URL (a proxy or a fake beside the bot: the token would travel in clear)."""
    from urllib.parse import urlsplit

    examples = {
        "discord": "http://127.0.0.1:8080/api/v10",
        "twitter": "http://127.0.0.1:8081",
    }
    for name, example in examples.items():
        value = getattr(config, name).api_base
        if not value:
            continue
        where = f"{config.source}: [{name}] api_base"
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f'{where}: expected a URL such as "{example}", got {value!r}')
        if parts.scheme == "http" and not _is_local(parts.hostname):
            raise ConfigError(
                f"{where}: plain http:// only to this machine or a private network (the "
                f'token travels in clear); use https://, or a local URL such as "{example}"'
            )
        path = parts.path.rstrip("/")
        if name == "discord" and not re.search(r"/api/v\d+$", path):
            raise ConfigError(
                f"{where}: expected the REST base with its version, ending in /api/v10 "
                f'(e.g. "{example}"), got {value!r}'
            )
        if name == "twitter" and (path.endswith("/2") or parts.query):
            raise ConfigError(
                f'{where}: expected the origin without /2 (e.g. "{example}"), got {value!r}'
            )


def _check_shards(config: Config) -> None:
    discord = config.discord
    if not discord.shard_ids:
        return
    where = f"{config.source}: [discord] shard_ids"
    if discord.shard_count == 0:
        raise ConfigError(f"{where}: needs shard_count (e.g. shard_count = 2, shard_ids = [0])")
    wrong = [n for n in discord.shard_ids if n >= discord.shard_count]
    if wrong:
        raise ConfigError(
            f"{where}: shard ids run from 0 to {discord.shard_count - 1} "
            f"(shard_count = {discord.shard_count}), got {wrong}"
        )


def _check_urls(config: Config) -> None:
    _check_url(config.database.url, f"{config.source}: [database] url")
    base = config.web.base_url
    if base and not re.match(r"^https?://[^\s/?#]+(/[^\s?#]*)?$", base):
        raise ConfigError(
            f"{config.source}: [web] base_url: expected the page's public address, such "
            f'as "https://bst.example.org", got {_describe(base)}'
        )
    if not 0 <= config.web.port <= 65535:
        raise ConfigError(
            f"{config.source}: [web] port: expected 0 to 65535 (e.g. 8080), got {config.web.port}"
        )


def _check_url(url: str, where: str) -> None:
    canonical = canonical_url(url)
    known = canonical.startswith("sqlite:") or canonical.startswith("postgresql")
    if not known or redacted_url(url) == UNREADABLE_URL:
        raise ConfigError(
            f"{where}: expected sqlite:///path.db or postgresql://user@host/db, "
            f"got {_describe(redacted_url(url))}"
        )


def load_config(path: str | Path | None) -> Config:
    """Read and check a config file; None gives the defaults."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file (copy config.example.toml to start)") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: a folder, not a config file (e.g. config.toml)") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text (save the config as UTF-8)") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    return parse_config(data, str(path))


def missing_secrets(config: Config, environ: Mapping[str, str] | None = None) -> list[str]:
    """Names (never values) of the environment variables an enabled platform lacks."""
    env = os.environ if environ is None else environ
    missing = []
    if config.database.url_env and not env.get(config.database.url_env):
        missing.append(
            f"[database] url_env = {config.database.url_env!r}: environment variable not set"
        )
    for platform, keys in REQUIRED_SECRETS.items():
        section = getattr(config, platform)
        if not section.enabled:
            continue
        for key in keys:
            variable = getattr(section, key)
            if not env.get(variable):
                missing.append(f"[{platform}] {key} = {variable!r}: environment variable not set")
    return missing


def secret(variable: str, environ: Mapping[str, str] | None = None) -> str:
    """The value of a secret's environment variable (never logged)."""
    env = os.environ if environ is None else environ
    value = env.get(variable, "")
    if not value:
        raise ConfigError(f"environment variable {variable} is not set")
    return value
