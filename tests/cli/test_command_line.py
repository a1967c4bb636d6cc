"""The `bst` command as a user runs it: help, version, config checks, play and demo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SUBCOMMANDS = ("run", "demo", "play", "script", "export", "check-config", "migrate", "discord")
ROOT = Path(__file__).resolve().parents[2]


def bst(*args: str, stdin: str | None = None, cwd: Path | None = None, timeout: int = 240):
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(cwd or ROOT)},
    )


def test_help_lists_every_subcommand() -> None:
    result = bst("--help")
    assert result.returncode == 0
    for name in SUBCOMMANDS:
        assert name in result.stdout


def test_version() -> None:
    result = bst("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("bst ")


def test_example_config_is_valid() -> None:
    result = bst("check-config", str(ROOT / "config.example.toml"))
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[discord]\nenabled = "maybe"\n',
            '[discord] enabled: expected true or false, got "maybe"',
        ),
        ('[games]\nturn = "soon"\n', "[games] turn: expected a duration such as 8h"),
        ("[nonsense]\n", "unknown section [nonsense]"),
        ('[database]\nurl = "mysql://x"\n', "[database] url: expected sqlite:///path.db"),
        (
            "[discord]\nenabled = true\n",
            "[discord] token_env = 'DISCORD_TOKEN': environment variable not set",
        ),
        ('[discord]\nshard_ids = ["x", 3.5]\n', "[discord] shard_ids: expected a list of ints"),
        ("[games]\nadmins = [1, 2]\n", "[games] admins: expected a list of strs"),
        ('[games]\nadmins = ["80351110224678912"]\n', 'expected "platform:user_id" entries'),
        ("[render]\nmax_avatar_bytes = 5000000\n", "max_avatar_bytes: at most 1000000"),
        ("[render]\navatar_memory_bytes = 10\n", "avatar_memory_bytes: at least 1000000"),
        ("[discord]\nshard_count = 2\nshard_ids = [5]\n", "shard ids run from 0 to 1"),
        ("[discord]\nshard_ids = [0]\n", "shard_ids: needs shard_count"),
        (
            '[discord]\napi_base = "http://proxy.example.com/api/v10"\n',
            "[discord] api_base: plain http:// only to this machine or a private network",
        ),
        (
            '[discord]\napi_base = "http://127.0.0.1:8080"\n',
            "[discord] api_base: expected the REST base with its version, ending in /api/v10",
        ),
        (
            '[twitter]\napi_base = "http://127.0.0.1:8081/2"\n',
            "[twitter] api_base: expected the origin without /2",
        ),
        (
            '[database]\nurl_env = "BST_TEST_NO_SUCH_VARIABLE"\n',
            "[database] url_env = 'BST_TEST_NO_SUCH_VARIABLE': environment variable not set",
        ),
    ],
)
def test_broken_config_exits_2_naming_the_key(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    result = bst("check-config", str(path))
    assert result.returncode == 2
    assert expected in result.stderr
    assert str(path) in result.stderr


def test_enabled_platform_secret_is_named_never_printed(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[twitter]\nenabled = true\n")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "check-config", str(path)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "X_API_KEY": "sekrit-value-123"},
    )
    assert result.returncode == 2
    assert "X_API_SECRET" in result.stderr
    assert "sekrit-value-123" not in result.stderr + result.stdout


def test_a_config_that_is_no_text_file_exits_2_saying_so(tmp_path: Path) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe")
    for path, expected in ((binary, "not UTF-8 text"), (tmp_path, "a folder, not a config")):
        result = bst("check-config", str(path))
        assert result.returncode == 2 and expected in result.stderr, result.stderr
        assert "unexpected error" not in result.stderr


@pytest.mark.parametrize("from_env", [False, True])
def test_a_database_password_is_never_printed(tmp_path: Path, from_env: bool) -> None:
    url = "postgresql://bst:hunter2secret@db.example/bst"
    path = tmp_path / "config.toml"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if from_env:
        path.write_text('[database]\nurl_env = "DATABASE_URL"\n')
        env["DATABASE_URL"] = url
    else:
        path.write_text(f'[database]\nurl = "{url}"\n')
    result = subprocess.run(
        [sys.executable, "-m", "bot", "check-config", str(path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "postgresql://bst:***@db.example/bst" in result.stdout
    assert "hunter2secret" not in result.stdout + result.stderr
    path.write_text('[database]\nurl = "mysql://bst:hunter2secret@db.example/bst"\n')
    broken = subprocess.run(
        [sys.executable, "-m", "bot", "check-config", str(path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert broken.returncode == 2 and "mysql://bst:***@" in broken.stderr
    assert "hunter2secret" not in broken.stdout + broken.stderr


def test_8_play_a_short_game_by_hand_with_scripted_stdin(tmp_path: Path) -> None:
    lines = [
        "alice> #bst join",
        "alice dm> sub: A2, carrier: C1-C5",
        "bob> join",
        "bob dm> cruiser: F1-F3, cruiser: J8-J10",
        "host> start",
        "alice> #bst F3",
        ":as bob",
        "dm> move cruiser at J8 2 left",
        ":next",
        "alice> #bst F1",
        "bob> #bst A2",
        ":next",
        "alice> #bst F2",
        ":next",
        ":as alice",
        ":board",
        "nonsense line from nobody",
        ":quit",
    ]
    result = bst(
        "play", "--out", str(tmp_path / "images"), stdin="\n".join(lines) + "\n", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "[dm bob] Turn 1: move cruiser at J8 2 left" in out
    assert "Shots: alice hit F3." in out
    # alice sinks bob's first cruiser over three turns; bob's second cruiser sails on
    assert "bob's cruiser went down at F1-F3" in out
    assert "[dm alice]" in out and "Your ships: carrier C1-C5" in out
    assert any(p.suffix == ".png" for p in (tmp_path / "images").iterdir())


def test_8_demo_plays_a_whole_game_and_writes_its_files(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = bst(
        "demo",
        "--players",
        "4",
        "--size",
        "8",
        "--seed",
        "3",
        "--out",
        str(out),
        cwd=tmp_path,
        timeout=400,
    )
    assert result.returncode == 0, result.stderr
    record = json.loads((out / "record.json").read_text())
    assert record["format"] == "bst-record/1"
    assert record["game"]["phase"] == "finished"
    assert record["game"]["winners"]  # a winner, or the captains of a draw
    assert "Result:" in result.stdout
    assert (out / "public.txt").read_text().count("#bst game 1, turn") == record["game"]["turn"]
    assert (out / "dm-ahab.txt").exists()
    mp4 = next((out / "public").glob("*.mp4"))
    assert mp4.read_bytes()[4:8] == b"ftyp"
    gif = next((out / "public").glob("*.gif"))
    assert gif.read_bytes()[:6] == b"GIF89a"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (b"@game bst size=10x10\n@wait 8x\n", "line 2: `@wait` expected a duration"),
        (b"@game bst size=10x10\n@wait 0m\n", "line 2: `@wait` a duration must be longer"),
        (b"@game bst size=10x10\nalice dm: caf\xe9\n", "line 2: not UTF-8 text"),
        (b"# nothing but a comment\n", "opened no game"),
        (b"@game bst bogus=1\n", "opened no game"),
    ],
)
def test_a_script_bst_cannot_play_exits_non_zero_saying_why(
    tmp_path: Path, script: bytes, expected: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(script)
    result = bst("script", str(path), "--record", str(tmp_path / "record.json"), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert expected in result.stderr
    assert "unexpected error" not in result.stderr
    assert not (tmp_path / "record.json").exists()


def test_the_logs_mask_a_database_password(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.config import parse_config, secret_values

    monkeypatch.setenv("DATABASE_URL", "postgresql://bst:from-env-pw@db/bst")
    from_file = parse_config({"database": {"url": "postgresql://bst:in-file-pw@db/bst"}}, "c")
    from_env = parse_config({"database": {"url_env": "DATABASE_URL"}}, "c")
    assert "in-file-pw" in secret_values(from_file)
    assert "from-env-pw" in secret_values(from_env)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--players", "0"], "--players must be at least 2"),
        (["--turn", "8x"], "--turn: expected a duration"),
        (["--size", "3"], "--size '3': size: rows must be from 4"),
        (["--follow", "nobody"], "--follow 'nobody' is not a captain"),
    ],
)
def test_demo_refuses_bad_options_before_touching_its_folder(
    tmp_path: Path, options: list[str], expected: str
) -> None:
    out = tmp_path / "demo"
    out.mkdir()
    (out / "public.txt").write_text("an earlier demo's log")
    result = bst("demo", "--out", str(out), *options, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert expected in " ".join((result.stdout + result.stderr).split())
    assert "unexpected error" not in result.stdout + result.stderr
    assert (out / "public.txt").read_text() == "an earlier demo's log"


def test_discord_alone_shows_its_own_help() -> None:
    result = bst("discord")
    assert result.returncode == 2
    assert "usage: bst discord" in result.stdout and "sync" in result.stdout


def test_13_local_api_bases_and_short_polls_are_accepted(tmp_path: Path) -> None:
    """Issue 20, item 13: a proxy or a local fake of each platform, polled every few
    seconds, is a valid configuration."""
    config = tmp_path / "local.toml"
    config.write_text(
        '[discord]\napi_base = "http://127.0.0.1:8080/api/v10"\n'
        '[twitter]\napi_base = "http://localhost:8081"\nmentions_poll = "2s"\ndm_poll = "3s"\n',
        encoding="utf-8",
    )
    result = bst("check-config", str(config))
    assert result.returncode == 0, result.stderr
    from bot.config import load_config

    loaded = load_config(config)
    assert loaded.discord.api_base == "http://127.0.0.1:8080/api/v10"
    assert loaded.twitter.api_base == "http://localhost:8081"


def test_help_names_the_five_games() -> None:
    result = bst("--help")
    text = " ".join(result.stdout.split())
    for name in ("bst", "sonar", "uboat", "sugardog", "silentships"):
        assert name in text
    assert "Host BattleshipTwitter (#bst)" not in text


def test_play_opens_the_game_asked_for(tmp_path: Path) -> None:
    lines = ["alice> #sonar join", "bob> #sonar join", "host> status", ":quit"]
    result = bst(
        "play", "--game", "sonar", "--out", str(tmp_path / "images"),
        stdin="\n".join(lines) + "\n", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "#sonar game 1 is open" in result.stdout
    assert "#bst" not in result.stdout


def test_play_robots_opens_the_game_with_robots_seated(tmp_path: Path) -> None:
    lines = ["alice> #sonar join", "host> start", ":next", ":quit"]
    result = bst(
        "play", "--game", "sonar", "--robots", "1:strong", "--out", str(tmp_path / "images"),
        stdin="\n".join(lines) + "\n", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Robots seated: strong-robot-1." in result.stdout
    assert "strong-robot-1 fired at" in result.stdout  # its turn, as soon as it opened


def test_play_refuses_an_unknown_game(tmp_path: Path) -> None:
    result = bst("play", "--game", "chess", cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown game 'chess'" in result.stderr
