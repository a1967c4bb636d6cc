"""Configuration: a TOML file read into frozen dataclasses, checked at start-up.

Tokens never live in the file: the file names the environment variables that
hold them, and only :func:`secret` reads those. Every error names the file, the
key and what was expected, and never prints a secret's value.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import platforms

# Discord's and X's sections are declared by their adapter packages (section.py);
# named here too for the code that reads config.discord and config.twitter.
from bot.adapters.discord.section import DiscordConfig as DiscordConfig
from bot.adapters.twitter.section import TwitterConfig as TwitterConfig
from bot.config_problems import ConfigError as ConfigError
from bot.config_problems import secret as secret
from bot.games.catalog import game_names
from bot.games.duration import parse_duration


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
    """What one person may ask of the hosted bot (see bot/host/runtime/limits.py)."""

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
    # Downloaded avatars kept in avatar_cache_dir, least recently used deleted first.
    avatar_disk_bytes: int = 256_000_000
    replay_gif: bool = True


@dataclass(frozen=True)
class LoggingConfig:
    level: str = "INFO"
    json: bool = False


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
    # The reverse proxies in front of the page (addresses or networks, such as
    # ["127.0.0.1", "::1"]): from these alone, X-Forwarded-For names the client whose
    # live streams and drawings are counted. Empty: every peer is the client.
    trusted_proxies: tuple[str, ...] = ()


@dataclass(frozen=True)
class RobotsConfig:
    # Worker processes the robots of `bst run` think in, away from the process that
    # answers the platforms; 0 = on the host's clock thread (as scripts and the demo do).
    processes: int = 1


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
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    health: HealthConfig = field(default_factory=HealthConfig)
    web: WebConfig = field(default_factory=WebConfig)
    robots: RobotsConfig = field(default_factory=RobotsConfig)
    # Each registered platform's section as read from the file (bot/platforms.py); a
    # platform whose section the file leaves out has its defaults (see `section`).
    platform_sections: Mapping[str, Any] = field(default_factory=dict)
    source: str = "(defaults)"

    def section(self, platform: str) -> Any:
        """The ``[platform]`` section: as the file gave it, else its defaults."""
        if platform in self.platform_sections:
            return self.platform_sections[platform]
        declared = platforms.get_platform(platform)
        if declared is None:
            raise KeyError(f"no platform {platform!r} is registered")
        return declared.section()

    @property
    def discord(self) -> DiscordConfig:
        section: DiscordConfig = self.section("discord")
        return section

    @property
    def twitter(self) -> TwitterConfig:
        section: TwitterConfig = self.section("twitter")
        return section

    @property
    def enabled_platforms(self) -> list[str]:
        return [p.name for p in platforms.platforms() if self.section(p.name).enabled]

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


def redacted_url(url: str) -> str:
    """A database URL fit to print (see bot.store.urls.redacted_url: the database
    library's reading of it, its secrets hidden)."""
    from bot.store.urls import redacted_url as redacted

    return redacted(url)


def url_password(url: str) -> str:
    """The password in a database URL, as the database library reads it ("" if none):
    see bot.store.urls.url_password."""
    from bot.store.urls import url_password as password

    return password(url)


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
    "console": ConsoleConfig,
    "health": HealthConfig,
    "web": WebConfig,
    "robots": RobotsConfig,
}

_DURATION_KEYS = {
    ("games", "turn"),
    ("games", "reminder_before"),
    ("limits", "min_duration"),
}
_CHOICES = {
    ("logging", "level"): ("DEBUG", "INFO", "WARNING", "ERROR"),
}
# The type of each element of the list keys (a list's default, (), cannot say).
_LIST_ITEMS: dict[tuple[str, str], type] = {
    ("games", "admins"): str,
    ("web", "trusted_proxies"): str,
}
_MAX_ROBOT_PROCESSES = 64  # more would only crowd the machine the host runs on
_MAX_AVATAR_BYTES = 1_000_000  # the renderers refuse bigger avatars whatever this says

_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]{0,63}$")


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


def _section_class(name: str) -> type[Any] | None:
    declared = platforms.get_platform(name)
    return declared.section if declared is not None else _SECTIONS.get(name)


def _is_duration(name: str, key: str) -> bool:
    declared = platforms.get_platform(name)
    if declared is not None:
        return key in declared.durations
    return (name, key) in _DURATION_KEYS


def _list_item(name: str, key: str) -> type | None:
    declared = platforms.get_platform(name)
    if declared is not None:
        return declared.list_items.get(key)
    return _LIST_ITEMS.get((name, key))


def parse_config(data: Mapping[str, Any], source: str) -> Config:
    sections: dict[str, Any] = {}
    platform_sections: dict[str, Any] = {}
    for name, table in data.items():
        cls = _section_class(name)
        if cls is None:
            names = [*_SECTIONS, *(p.name for p in platforms.platforms())]
            known = ", ".join(f"[{s}]" for s in names)
            raise ConfigError(f"{source}: unknown section [{name}]: expected one of {known}")
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [{name}] must be a table of keys")
        defaults = cls()
        values: dict[str, Any] = {}
        for key, value in table.items():
            where = f"{source}: [{name}] {key}"
            if not hasattr(defaults, key):
                known = ", ".join(f.name for f in cls.__dataclass_fields__.values())
                raise ConfigError(f"{where}: unknown key; expected one of {known}")
            coerced = _coerce(where, getattr(defaults, key), value)
            if _is_duration(name, key) and coerced:
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
            item_type = _list_item(name, key)
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
                (name, key) in (("render", "avatar_memory_bytes"), ("render", "avatar_disk_bytes"))
                and isinstance(coerced, int)
                and coerced < _MAX_AVATAR_BYTES
            ):
                raise ConfigError(
                    f"{where}: at least {_MAX_AVATAR_BYTES} (room for one avatar), e.g. "
                    f"64000000, got {coerced}"
                )
            if (
                (name, key) == ("robots", "processes")
                and isinstance(coerced, int)
                and not 0 <= coerced <= _MAX_ROBOT_PROCESSES
            ):
                raise ConfigError(
                    f"{where}: expected 0 (think on the host's thread) to "
                    f"{_MAX_ROBOT_PROCESSES} worker processes, e.g. 1, got {coerced}"
                )
            choices = _CHOICES.get((name, key))
            if choices and coerced not in choices:
                raise ConfigError(
                    f"{where}: expected one of {', '.join(choices)}, got {_describe(coerced)}"
                )
            values[key] = coerced
        if name in _SECTIONS:
            sections[name] = cls(**values)
        else:
            platform_sections[name] = cls(**values)
    config = Config(**sections, platform_sections=platform_sections, source=source)
    _check_urls(config)
    _check_platforms(config)
    return config


def _check_platforms(config: Config) -> None:
    """Each registered platform's own checks of its section (its declaration's)."""
    for declared in platforms.platforms():
        if declared.check is None:
            continue
        problem = declared.check(config.section(declared.name))
        if problem:
            raise ConfigError(f"{config.source}: [{declared.name}] {problem}")


def _check_urls(config: Config) -> None:
    _check_url(config.database.url, f"{config.source}: [database] url")
    base = config.web.base_url
    if base and not re.match(r"^https?://[^\s/?#]+(/[^\s?#]*)?$", base):
        raise ConfigError(
            f"{config.source}: [web] base_url: expected the page's public address, such "
            f'as "https://bst.example.org", got {_describe(base)}'
        )
    for proxy in config.web.trusted_proxies:
        try:
            ipaddress.ip_network(proxy.strip(), strict=False)
        except ValueError:
            raise ConfigError(
                f"{config.source}: [web] trusted_proxies: expected addresses or networks "
                f'such as ["127.0.0.1", "::1"], got {_describe(proxy)}'
            ) from None
    if not 0 <= config.web.port <= 65535:
        raise ConfigError(
            f"{config.source}: [web] port: expected 0 to 65535 (e.g. 8080), got {config.web.port}"
        )


def _check_url(url: str, where: str) -> None:
    from bot.store.urls import UNREADABLE_URL

    canonical = canonical_url(url)
    known = canonical.startswith("sqlite:") or canonical.startswith("postgresql")
    if not known or redacted_url(url) == UNREADABLE_URL:
        raise ConfigError(
            f"{where}: expected sqlite:///path.db or postgresql://user@host/db, "
            f"got {_describe(redacted_url(url))}"
        )
    if "@" in canonical.partition("://")[2].partition("/")[0].partition("@")[2]:
        # The database library would take the password up to its first "@" and the
        # rest for the host name, and print that host in its errors.
        raise ConfigError(
            f"{where}: the user name or password holds an '@': write it as %40 (as in "
            f"postgresql://bst:p%40ss@host/bst), got {_describe(redacted_url(url))}"
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
    for declared in platforms.platforms():
        section = config.section(declared.name)
        if not section.enabled:
            continue
        for key in declared.secrets:
            variable = getattr(section, key)
            if not env.get(variable):
                missing.append(
                    f"[{declared.name}] {key} = {variable!r}: environment variable not set"
                )
    return missing


def secret_values(config: Config, environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of every secret the config names (each platform's, enabled or not, and
    the database password), for the logs to scrub. Never printed."""
    env = os.environ if environ is None else environ
    values = []
    for declared in platforms.platforms():
        section = config.section(declared.name)
        for key in (*declared.secrets, *declared.optional_secrets):
            name = getattr(section, key)
            if name:
                values.append(env.get(name, ""))
    # A database password, from the URL in the file or the one url_env names.
    urls = [config.database.url]
    if config.database.url_env:
        urls.append(env.get(config.database.url_env, ""))
    values += [url_password(url) for url in urls]
    return [v for v in values if v]
