"""Rule 9: no secret is ever printed. Known fake tokens in the environment; config
loading (``bst check-config``), error paths and DEBUG logging exercised; every captured
output searched for the token values."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from host_kit import MultiKit

from bot.config import Config, ConfigError, load_config, missing_secrets, secret
from bot.host.messages import DeliveryError

REPO = Path(__file__).parent.parent.parent
TOKENS = {
    "DISCORD_TOKEN": "MTAfakeDiscordTokenZ9q.GxYzAb.sEcReT-dIsCoRd-0xC0FFEE",
    "X_API_KEY": "xApiKeyFAKE-7f3a9c1e-SECRET",
    "X_API_SECRET": "xApiSecretFAKE-5b2d8e4f-SECRET",
    "X_ACCESS_TOKEN": "1234567890-xAccessTokenFAKE-SECRET",
    "X_ACCESS_SECRET": "xAccessSecretFAKE-9e8d7c6b-SECRET",
    "X_BEARER_TOKEN": "AAAAxBearerFAKE%2Fsecret%3D",
}
ENABLED = "[discord]\nenabled = true\n\n[twitter]\nenabled = true\n"


def leaks(text: str) -> list[str]:
    """The names of the tokens whose value (or a long piece of it) appears in ``text``."""
    found = []
    for name, value in TOKENS.items():
        pieces = {value} | {value[i : i + 16] for i in range(0, len(value) - 16, 4)}
        if any(piece in text for piece in pieces):
            found.append(name)
    return found


def bst(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in TOKENS} | env
    full["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env=full,
        cwd=REPO,
        timeout=60,
    )


@pytest.fixture
def secrets_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in TOKENS.items():
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(
    ("config", "env", "code"),
    [
        (ENABLED, TOKENS, 0),  # all present
        (ENABLED, {k: v for k, v in TOKENS.items() if k != "X_ACCESS_SECRET"}, 2),
        (ENABLED, {"DISCORD_TOKEN": TOKENS["DISCORD_TOKEN"]}, 2),
        (ENABLED, {}, 2),
        (ENABLED + "[games]\nturn = 'soon'\n", TOKENS, 2),  # a bad value elsewhere
        (ENABLED + "[database]\nurl = 'mysql://x'\n", TOKENS, 2),
        ("[discord\nenabled = true\n", TOKENS, 2),  # not TOML
        (ENABLED + "[discord.extra]\nx = 1\n", TOKENS, 2),
    ],
)
def test_check_config_never_prints_a_token(
    tmp_path: Path, config: str, env: dict[str, str], code: int
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(config)
    result = bst("check-config", str(path), env=env)
    assert result.returncode == code, result.stdout + result.stderr
    assert not leaks(result.stdout + result.stderr), result.stdout + result.stderr


@pytest.mark.parametrize("key", ["token_env"])
def test_a_token_pasted_where_its_variable_name_belongs_is_not_echoed(
    tmp_path: Path, key: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[discord]\nenabled = true\n{key} = {TOKENS['DISCORD_TOKEN']!r}\n")
    result = bst("check-config", str(path), env={})
    assert result.returncode == 2
    assert not leaks(result.stdout + result.stderr), result.stdout + result.stderr


def test_config_errors_and_objects_hold_no_token(
    tmp_path: Path, secrets_env: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []
    path = tmp_path / "c.toml"
    path.write_text(ENABLED)
    config = load_config(path)
    texts += [repr(config), str(config), str(missing_secrets(config))]
    for variable in ("NOT_SET_AT_ALL", "ALSO_MISSING"):
        with pytest.raises(ConfigError) as caught:
            secret(variable)
        texts.append(str(caught.value))
    from bot.adapters.twitter import TwitterCredentials

    credentials = TwitterCredentials.from_environment(config.twitter)
    texts += [repr(credentials), str(credentials), f"{credentials}", repr(Config())]
    try:
        raise RuntimeError(f"wrapping {credentials!r}")
    except RuntimeError as error:
        texts.append(str(error))
    texts.append(caplog.text)
    assert not leaks("\n".join(texts))


def test_host_logs_replies_and_errors_hold_no_token(
    tmp_path: Path, secrets_env: None, caplog: pytest.LogCaptureFixture, capsys
) -> None:
    """A whole game with failing sends, bad input and DEBUG logging: nothing leaks."""
    caplog.set_level(logging.DEBUG)
    kit = MultiKit(tmp_path, ["discord", "twitter"])
    errors: list[str] = []
    try:
        kit.battle("discord", "d")
        kit.battle("twitter", "x")
        failures = iter(
            [
                DeliveryError("429", retry_after=1),
                DeliveryError("503"),
                RuntimeError("adapter bug"),
                DeliveryError("403 (50007)", permanent=True),
            ]
            * 3
        )
        kit.adapters["discord"].fault = lambda a, o: next(failures, None)
        kit.adapters["twitter"].fetch_error = ConnectionError("X down")
        for text in (
            "#bst H5",
            "garbage \x00 \u202e",
            "#bst kick @alice",
            "#bst status",
            "x" * 5000,
        ):
            kit.say("discord", "bob", text, channel="d")
            kit.say("twitter", "bob", text, channel="x", dm=True)
        for _ in range(5):
            kit.clock.advance(3600)
            kit.tick()
            kit.flush()
        rows = kit.outbox()
        with kit.store.transaction() as tx:
            errors = [r.error for r in tx.outbox()]
        asyncio.run(kit.host.catch_up())
    finally:
        kit.close()
    captured = capsys.readouterr()
    everything = "\n".join(
        [caplog.text, captured.out, captured.err, *[r.text for r in rows], *errors]
    )
    assert "X down" in caplog.text, "the logs were captured (the search is not vacuous)"
    assert not leaks(everything)
