"""The [bluesky] section as the config reads it: its defaults, its checks, its secret
read from the environment and never printed, and no atproto loaded to read it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.adapters.bluesky.platform import BlueskyConfig
from bot.config import ConfigError, load_config, missing_secrets, parse_config

ROOT = Path(__file__).resolve().parents[3]


def test_the_section_has_the_bluesky_limits_as_defaults() -> None:
    section = parse_config({}, "c.toml").section("bluesky")
    assert section == BlueskyConfig()
    assert (section.posts_per_minute, section.dms_per_minute) == (5, 30)  # 2 s apart
    assert (section.points_per_hour, section.points_per_day) == (5000, 35_000)
    assert section.mentions_per_hour == 40 and section.label_bot and section.search_hashtag


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"enabled": True}, 'handle: expected the bot account\'s handle such as "bst.bsky.social"'),
        ({"enabled": True, "handle": "bst bot"}, "handle: expected"),
        ({"api_base": "http://pds.example.com"}, "plain http:// only to this machine"),
        ({"api_base": "https://bsky.social/xrpc"}, "without /xrpc"),
        ({"posts_per_minute": -1}, "posts_per_minute: expected a whole number of 0 or more"),
    ],
)
def test_a_wrong_section_is_refused_saying_what_was_expected(values, expected) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config({"bluesky": values}, "c.toml")
    assert expected in str(error.value)


def test_the_app_password_comes_from_the_environment_and_is_named_not_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[bluesky]\nenabled = true\nhandle = "bst.bsky.social"\n', encoding="utf-8")
    monkeypatch.delenv("BLUESKY_APP_PASSWORD", raising=False)
    assert missing_secrets(load_config(path)) == [
        "[bluesky] app_password_env = 'BLUESKY_APP_PASSWORD': environment variable not set"
    ]


def test_reading_the_config_loads_no_atproto() -> None:
    code = (
        "import sys; from bot.config import parse_config; "
        "parse_config({'bluesky': {'enabled': True, 'handle': 'a.bsky.social'}}, 'c'); "
        "print(any(m.startswith('atproto') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert result.stdout.strip() == "False"
