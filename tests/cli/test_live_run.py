"""``bst run --config FILE`` as a host runs it, against a local fake of each platform.

Issue 20, item 13: each platform's API origin is set in the config (``api_base``), so
the project's own end-to-end test is the real command in its own process, with its
secrets in the environment variables the config names, talking over HTTP (and
Discord's gateway over a WebSocket) to the fakes of the adapters' tests: a slash
command on Discord is deferred and answered by follow-up, a mention on X is answered
by a post, ``/health`` says so, and SIGTERM stops it cleanly. Item 1 end to end: a
gateway that refuses the Message Content intent stops ``bst run`` within seconds,
non-zero, saying where to switch it on.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import live_servers as servers
import pytest

ROOT = servers.ROOT
ADAPTER_TESTS = ROOT / "tests" / "adapters"
X_KEYS = {
    "X_API_KEY": "FAKEAPIKEY0123456789abc",
    "X_API_SECRET": "FAKEAPISECRET0123456789abcdef0123456789abcdef",
    "X_ACCESS_TOKEN": "1500000000000000001-FAKEACCESSTOKEN0123456789",
    "X_ACCESS_SECRET": "FAKEACCESSSECRET0123456789abcdef0123456789",
}


discord_fake = servers.load_fake(
    "bst_live_discord_fake", ADAPTER_TESTS / "discord" / "discord_fake.py"
)
x_fake = servers.load_fake("bst_live_x_fake", ADAPTER_TESTS / "twitter" / "fake_x_api.py")


class LocalPlatforms(servers.LocalServer):
    """Both fakes on 127.0.0.1, each on a port of its own."""

    def __init__(self) -> None:
        if not x_fake.SPEC_PATH.exists():
            pytest.skip(reason=f"X API spec not found at {x_fake.SPEC_PATH}")
        super().__init__()
        self.discord = discord_fake.FakeDiscord()
        self.x = x_fake.FakeX(x_fake.XSpec(x_fake.SPEC_PATH), x_fake.Credentials(*X_KEYS.values()))
        self.x.add_user("2244994945", "alice", "Alice")

    def start(self) -> None:
        super().start()
        self.discord_port = self.serve(self.discord.app())
        self.x_port = self.serve(self.x.app())
        self.discord.base = f"http://127.0.0.1:{self.discord_port}/api/v10"
        self.discord.gateway.url = f"ws://127.0.0.1:{self.discord_port}/gateway"


@pytest.fixture
def platforms() -> Iterator[LocalPlatforms]:
    yield from servers.served(LocalPlatforms())


def _config(tmp_path: Path, platforms: LocalPlatforms, *, message_content: bool) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f"""
[database]
url = "sqlite:///{tmp_path / "bst.db"}"

[discord]
enabled = true
token_env = "BST_E2E_DISCORD_TOKEN"
api_base = "{platforms.discord.base}"
message_content = {"true" if message_content else "false"}

[twitter]
enabled = true
api_base = "http://127.0.0.1:{platforms.x_port}"
bot_user_id = "{platforms.x.bot_id}"
mentions_poll = "1s"
dm_poll = "2s"

[health]
port = {servers.free_port()}
""",
        encoding="utf-8",
    )
    return path


def _start(config: Path, tmp_path: Path) -> subprocess.Popen[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "BST_E2E_DISCORD_TOKEN": discord_fake.TOKEN,
        **X_KEYS,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "run", "--config", str(config)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait(condition: Callable[[], bool], what: str, process: subprocess.Popen[str], timeout=30.0):
    def stderr() -> str:
        # Read only once it has ended: a running process's pipe would block the read.
        ended = process.poll() is not None and process.stderr is not None
        return process.stderr.read() if ended and process.stderr else ""

    servers.wait_for(condition, what, process, timeout=timeout, log=stderr, pause=0.05)


def _health(port: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    except OSError:
        return 0, {}


def test_13_bst_run_plays_on_local_fakes_of_discord_and_x(
    tmp_path: Path, platforms: LocalPlatforms
) -> None:
    config = _config(tmp_path, platforms, message_content=False)
    health_port = int(config.read_text().rsplit("port = ", 1)[1].split()[0])
    process = _start(config, tmp_path)
    try:
        _wait(lambda: platforms.discord.gateway.sockets != [], "gateway connection", process)
        both = {"discord": "connected", "twitter": "connected"}
        _wait(lambda: _health(health_port)[1].get("platforms") == both, "both up", process)
        assert _health(health_port)[0] == 200

        # Discord: /bst help arrives on the gateway; it is deferred, then answered.
        interaction = discord_fake.interaction_payload(
            "help", interaction_id=platforms.discord.snowflake()
        )
        platforms.call(platforms.discord.gateway.push("INTERACTION_CREATE", interaction))
        # (The answer replaces the "thinking…" placeholder: an edit of @original.)
        follow_ups = r"/webhooks/\d+/[^/]+/messages/@original"
        _wait(lambda: platforms.discord.requests_to("PATCH", follow_ups), "follow-up", process)
        [deferral] = platforms.discord.requests_to("POST", r"/interactions/\d+/[^/]+/callback")
        assert deferral.json["type"] == 5
        [answer] = platforms.discord.requests_to("PATCH", follow_ups)
        assert "BattleshipTwitter" in answer.json["content"]

        # X: a mention sent after the start is read and answered by a post (a command
        # answered in public: `help` asked in public is answered privately).
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        mention = platforms.x.mention("2244994945", "@bstbot #bst new", created_at=now)
        _wait(lambda: platforms.x.posts != [], "post on X", process)
        [post] = platforms.x.posts
        assert post["reply"] == {"in_reply_to_tweet_id": mention}
        assert platforms.x.violations == []
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
    assert code == 0, process.stderr.read() if process.stderr else ""


def test_1_bst_run_stops_at_once_when_discord_refuses_the_intent(
    tmp_path: Path, platforms: LocalPlatforms
) -> None:
    config = _config(tmp_path, platforms, message_content=True)  # not enabled on the app
    started = time.monotonic()
    process = _start(config, tmp_path)
    try:
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    _, stderr = process.communicate()
    assert code == 2, stderr
    assert time.monotonic() - started < 30
    assert platforms.discord.gateway.closed_with == [4014]
    assert "Message Content Intent" in stderr and "Privileged Gateway Intents" in stderr
    assert discord_fake.TOKEN not in stderr


def _check_online(config: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "BST_E2E_DISCORD_TOKEN": discord_fake.TOKEN,
        **X_KEYS,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", "check-config", str(config), "--online"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


ATTACH_FILES = 1 << 15


def test_1_check_config_online_says_what_discord_and_x_will_refuse(
    tmp_path: Path, platforms: LocalPlatforms
) -> None:
    """Before anything runs: the Message Content intent the config asks for is off in the
    application, and the bot may not attach files in its server."""
    config = _config(tmp_path, platforms, message_content=True)
    result = _check_online(config, tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Message Content Intent" in result.stderr
    assert "Harbour" in result.stderr and "Attach Files" in result.stderr
    assert "ok: Discord: the token is the bot" in result.stdout
    assert "ok: X: the keys are the account @bstbot" in result.stdout
    assert discord_fake.TOKEN not in result.stdout + result.stderr


def test_1_check_config_online_passes_when_all_is_switched_on(
    tmp_path: Path, platforms: LocalPlatforms
) -> None:
    platforms.discord.application_flags = 1 << 18  # GATEWAY_MESSAGE_CONTENT
    for guild in platforms.discord.guilds:
        # Everything /KIND new needs (the one list check-config checks too).
        guild["permissions"] = str(int(guild["permissions"]) | discord_fake.GAME_BOT_PERMISSIONS)
    result = _check_online(_config(tmp_path, platforms, message_content=True), tmp_path)
    assert result.returncode == 0, result.stderr
    assert "intents are allowed (with message content)" in result.stdout
    assert (
        "mentions can be read" in result.stdout and "direct messages can be read" in result.stdout
    )
