"""A platform is a folder and one line: registered only in the catalog (bot/platforms.py),
a platform gets its config section read and checked, its secrets read from the
environment and kept out of every line printed, its online check asked, and its
adapter built by `bst run`'s wiring and asked about reminders — no other file names it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import platforms
from bot.adapters.declaration import BuildContext, Platform
from bot.config import ConfigError, load_config, missing_secrets, parse_config
from bot.host.messages import Capabilities

TOKEN = "pigeon-secret-token-7f3a9"


@dataclass(frozen=True)
class PigeonConfig:
    enabled: bool = False
    token_env: str = "PIGEON_TOKEN"
    loft: str = "harbour"
    flight_every: str = "5m"
    perches: tuple[int, ...] = ()
    reminders: bool = True


class PigeonAdapter:
    """As much of a ChatAdapter as the wiring needs: it is only built here."""

    platform = "pigeon"
    capabilities = Capabilities()

    def __init__(self, section: PigeonConfig, token: str, context: BuildContext) -> None:
        self.section = section
        self.token = token
        self.context = context


def _build(section: PigeonConfig, context: BuildContext) -> Any:
    from bot.config import secret

    return PigeonAdapter(section, secret(section.token_env), context)


def _check(section: PigeonConfig) -> str | None:
    if not section.loft.isalpha():
        return f'loft: expected a word such as "harbour", got {section.loft!r}'
    return None


async def _check_online(section: PigeonConfig) -> tuple[list[str], list[str]]:
    return [f"Pigeon: the loft {section.loft} answers"], []


PIGEON = Platform(
    name="pigeon",
    section=PigeonConfig,
    build=_build,
    secrets=("token_env",),
    durations=("flight_every",),
    list_items={"perches": int},
    check=_check,
    check_online=_check_online,
)


@pytest.fixture
def pigeon() -> Iterator[Platform]:
    platforms.register(PIGEON)
    try:
        yield PIGEON
    finally:
        platforms.unregister("pigeon")


def test_its_section_is_parsed_with_defaults_and_checked(pigeon: Platform) -> None:
    config = parse_config({"pigeon": {"enabled": True, "perches": [1, 2]}}, "c.toml")
    assert config.section("pigeon") == PigeonConfig(enabled=True, perches=(1, 2))
    assert config.enabled_platforms == ["pigeon"]
    assert parse_config({}, "c.toml").section("pigeon") == PigeonConfig()
    wrong = {
        "loft": ("sea loft", 'c.toml: [pigeon] loft: expected a word such as "harbour"'),
        "flight_every": ("soon", "c.toml: [pigeon] flight_every: expected a duration"),
        "perches": (["x"], "c.toml: [pigeon] perches: expected a list of ints"),
        "wings": (2, "c.toml: [pigeon] wings: unknown key; expected one of enabled, token_env"),
        "token_env": (TOKEN, "expected the NAME of an environment variable"),
    }
    for key, (value, expected) in wrong.items():
        with pytest.raises(ConfigError) as error:
            parse_config({"pigeon": {key: value}}, "c.toml")
        assert expected in str(error.value)
        assert TOKEN not in str(error.value)


def test_without_registration_the_section_is_unknown() -> None:
    with pytest.raises(ConfigError, match=r"unknown section \[pigeon\]"):
        parse_config({"pigeon": {"enabled": True}}, "c.toml")


def test_check_config_reads_its_secret_and_never_prints_it(
    pigeon: Platform,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bot.__main__ import main

    path = tmp_path / "config.toml"
    path.write_text("[pigeon]\nenabled = true\n", encoding="utf-8")
    monkeypatch.delenv("PIGEON_TOKEN", raising=False)
    assert missing_secrets(load_config(path)) == [
        "[pigeon] token_env = 'PIGEON_TOKEN': environment variable not set"
    ]
    assert main(["check-config", str(path)]) == 2
    assert "PIGEON_TOKEN" in capsys.readouterr().err

    monkeypatch.setenv("PIGEON_TOKEN", TOKEN)
    assert main(["check-config", str(path), "--online"]) == 0
    out, err = capsys.readouterr()
    assert "platforms enabled: pigeon" in out
    assert "ok: Pigeon: the loft harbour answers" in out
    assert TOKEN not in out + err


def test_run_builds_it_scrubs_its_secret_and_the_wiring_reminds_on_it(
    pigeon: Platform,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.cli.run import build_adapters
    from bot.config import secret_values
    from bot.host.runtime.clock import VirtualClock
    from bot.store import Store
    from bot.wiring import build_host, sqlite_url

    monkeypatch.setenv("PIGEON_TOKEN", TOKEN)
    config = parse_config({"pigeon": {"enabled": True, "loft": "quay"}}, "c.toml")
    assert TOKEN in secret_values(config)  # what the logs are told to hide

    store = Store(sqlite_url(tmp_path / "bst.db"))
    try:
        adapters = build_adapters(config, store)
        assert set(adapters) == {"pigeon"}
        adapter = adapters["pigeon"]
        assert isinstance(adapter, PigeonAdapter)
        assert adapter.token == TOKEN
        assert adapter.section.loft == "quay"
        assert {game.name for game in adapter.context.games} >= {"bst", "sonar"}

        host = build_host(store, VirtualClock(), adapters, config)
        assert "pigeon" in host.reminder_platforms

        monkeypatch.delenv("PIGEON_TOKEN")
        with pytest.raises(ConfigError, match="PIGEON_TOKEN is not set"):
            build_adapters(config, store)
    finally:
        store.dispose()


def test_the_secret_filter_hides_its_token(
    pigeon: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.config import secret_values
    from bot.logs import SecretFilter

    monkeypatch.setenv("PIGEON_TOKEN", TOKEN)
    config = parse_config({"pigeon": {"enabled": True}}, "c.toml")
    record = logging.LogRecord("x", logging.INFO, "f", 1, f"sent with {TOKEN}", None, None)
    SecretFilter(secret_values(config)).filter(record)
    assert TOKEN not in record.getMessage()
