"""``bst run --config FILE`` on Bluesky, end to end: the real command in its own process,
its app password in the environment variable the config names, talking over HTTP to the
adapter tests' strict fake PDS and chat service (tests/adapters/bluesky). A whole #bst
game and a whole Sonar game are played there by posts in the game's thread and chat
messages; every record the bot writes is checked against the official lexicons.
``bst check-config --online`` says when the app password has no access to DMs.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import live_servers as servers
import pytest

from bot.store import Store
from bot.wiring import sqlite_url

ROOT = servers.ROOT
FAKE_DIR = ROOT / "tests" / "adapters" / "bluesky"


def _load(name: str, path: Path) -> ModuleType:
    """The fake, which imports its neighbours in the adapter's tests."""
    if str(FAKE_DIR) not in sys.path:
        sys.path.insert(0, str(FAKE_DIR))
    return servers.load_fake(name, path)


fake_module = _load("bst_live_bluesky_fake", FAKE_DIR / "fake_bluesky.py")
ALICE, BOB, CAROL = fake_module.ALICE, fake_module.BOB, fake_module.CAROL
BOT = fake_module.BOT_HANDLE


class LocalBluesky(servers.LocalServer):
    """The fake PDS and chat service on 127.0.0.1."""

    def __init__(self, *, dm_access: bool = True) -> None:
        super().__init__()
        self.fake = fake_module.FakeBluesky(dm_access=dm_access, live=True)

    def start(self) -> None:
        super().start()
        self.port = self.serve(self.fake.app())


@pytest.fixture
def bluesky() -> Iterator[LocalBluesky]:
    yield from servers.served(LocalBluesky())


def _config(tmp_path: Path, bluesky: LocalBluesky) -> Path:
    return servers.write_config(
        tmp_path,
        f"""[bluesky]
enabled = true
handle = "{BOT}"
api_base = "http://127.0.0.1:{bluesky.port}"
notifications_poll = "1s"
dm_poll = "1s"
# The test's players answer at once: no pacing, or a game takes minutes.
posts_per_minute = 0
dms_per_minute = 0
""",
    )


def _environment(tmp_path: Path, password: str = fake_module.APP_PASSWORD) -> dict[str, str]:
    return servers.environment(tmp_path, {"BLUESKY_APP_PASSWORD": password})


def _start(config: Path, tmp_path: Path) -> subprocess.Popen[str]:
    secrets = {"BLUESKY_APP_PASSWORD": fake_module.APP_PASSWORD}
    return servers.start_bst(config, tmp_path, secrets, "bst-run.log")


def _log(process: subprocess.Popen[str]) -> str:
    return Path(process.args[-1]).with_name("bst-run.log").read_text(encoding="utf-8")


def _wait(condition: Callable[[], Any], what: str, process: subprocess.Popen[str], timeout=60.0):
    servers.wait_for(condition, what, process, timeout=timeout, log=lambda: _log(process))


def _stop(process: subprocess.Popen[str]) -> str:
    code = servers.stop_bst(process)
    stderr = _log(process)
    assert code == 0, stderr[-3000:]
    return stderr


class Game:
    """What the database says of game 1, read while ``bst run`` plays it."""

    def __init__(self, tmp_path: Path) -> None:
        self.store = Store(sqlite_url(tmp_path / "bst.db"))

    def phase(self) -> str:
        try:
            with self.store.transaction() as tx:
                game = tx.game(1)
                return "" if game is None else str(game.phase)
        except Exception:
            return ""  # the bot has not made its tables yet

    def players(self) -> int:
        try:
            with self.store.transaction() as tx:
                return len(tx.players(1))
        except Exception:
            return 0


def _posts_saying(bluesky: LocalBluesky, words: str) -> list[dict[str, Any]]:
    return bluesky.do(lambda: [p for p in bluesky.fake.bot_posts() if words in p["value"]["text"]])


def _told(bluesky: LocalBluesky, who: str, words: str) -> bool:
    return any(words in text for text in bluesky.do(lambda: bluesky.fake.dms_to(who)))


def _check_thread(bluesky: LocalBluesky, root: str) -> None:
    """Every post about the game is a reply in its thread, with a picture's alt text."""
    posts = bluesky.do(bluesky.fake.bot_posts)
    assert posts
    for post in posts:
        record = post["value"]
        assert record["reply"]["root"]["uri"] == root, record["text"]
        for image in (record.get("embed") or {}).get("images") or []:
            assert image["alt"] and image["image"]["size"] <= 1_000_000


def test_a_whole_bst_game_on_bluesky_through_bst_run(tmp_path: Path, bluesky: LocalBluesky) -> None:
    process = _start(_config(tmp_path, bluesky), tmp_path)
    game = Game(tmp_path)
    fake = bluesky.fake
    try:
        _wait(lambda: bluesky.do(lambda: fake.logins) == 1, "login", process)
        root = bluesky.do(lambda: fake.post(CAROL, f"@{BOT} #bst new size=8 turn=8s max_turns=2"))
        _wait(lambda: _posts_saying(bluesky, "is open"), "the game's opening", process)
        bluesky.do(lambda: fake.post(ALICE, "#bst join", reply_to=root))
        bluesky.do(lambda: fake.post(BOB, f"@{BOT} #bst join", reply_to=root))
        _wait(lambda: game.players() == 2, "two captains", process)
        bluesky.do(lambda: fake.dm(ALICE, "sub: A2\ncarrier: C1-C5"))
        bluesky.do(lambda: fake.dm(BOB, "cruiser: F1-F3, cruiser: H6-H8"))
        for who in (ALICE, BOB):
            _wait(lambda w=who: _told(bluesky, w, "Fleet placed"), "fleet answers", process)
        bluesky.do(lambda: fake.post(CAROL, "#bst start", reply_to=root))
        _wait(lambda: game.phase() == "battle", "the battle", process)
        bluesky.do(lambda: fake.post(ALICE, "#bst f3", reply_to=root))
        bluesky.do(lambda: fake.dm(BOB, "move cruiser at H6 1 left"))
        _wait(lambda: game.phase() == "finished", "the game's end", process, timeout=90)
        _wait(lambda: _posts_saying(bluesky, "Final standings"), "the standings", process)
        assert _posts_saying(bluesky, "alice.bsky.social hit F3")
        maps = [p for p in bluesky.do(fake.bot_posts) if (p["value"].get("embed") or {})]
        assert maps, "the turn's map is posted as a picture"
        _check_thread(bluesky, root)
        # Private boards are text: a chat message has no picture, the board is written out.
        boards = bluesky.do(lambda: fake.dms_to(ALICE))
        assert any("carrier" in text.lower() or "C1" in text for text in boards)
        assert all(len(text) <= 1000 for text in boards)
        assert bluesky.do(lambda: fake.violations) == []
        assert bluesky.do(lambda: fake.logins) == 1
    finally:
        stderr = _stop(process)
    assert fake_module.APP_PASSWORD not in stderr


def test_a_whole_sonar_game_on_bluesky_through_bst_run(
    tmp_path: Path, bluesky: LocalBluesky
) -> None:
    """shared/examples/sonar-first-game.txt's opening, played on to its end: alice is
    ahab, bob is nemo; public shots are replies in the game's thread, private ones DMs."""
    process = _start(_config(tmp_path, bluesky), tmp_path)
    game = Game(tmp_path)
    fake = bluesky.fake

    def turn(number: int) -> Callable[[], Any]:
        return lambda: _posts_saying(bluesky, f"turn {number}:")

    try:
        _wait(lambda: bluesky.do(lambda: fake.logins) == 1, "login", process)
        root = bluesky.do(
            lambda: fake.post(CAROL, f"@{BOT} #sonar new size=12 ships=2 placement=given")
        )
        _wait(lambda: _posts_saying(bluesky, "is open"), "the game's opening", process)
        bluesky.do(lambda: fake.post(ALICE, "#sonar join", reply_to=root))
        _wait(lambda: game.players() == 1, "ahab aboard", process)
        bluesky.do(lambda: fake.dm(ALICE, "2 l5 ur\n3 c20 ur"))
        bluesky.do(lambda: fake.dm(BOB, "#sonar join"))
        _wait(lambda: game.players() == 2, "nemo aboard", process)
        bluesky.do(lambda: fake.dm(BOB, "3 h3 dl, 2 f10 dl"))
        _wait(lambda: len(bluesky.do(lambda: fake.dms_to(BOB))) >= 2, "nemo's fleet", process)
        bluesky.do(lambda: fake.post(CAROL, "#sonar start", reply_to=root))
        _wait(lambda: game.phase() == "battle", "the battle", process)
        orders = [
            (ALICE, "public", "#sonar e10"),
            (BOB, "public", "#sonar b11, a1"),
            (ALICE, "dm", "d10, h3"),
            (BOB, "public", "#sonar a20"),
            (ALICE, "dm", "e3"),
            (BOB, "public", "#sonar a20"),
            (ALICE, "dm", "a3, b3"),  # nemo's last sub, where it will have sailed: sunk
        ]
        for number, (who, how, text) in enumerate(orders, start=1):
            if how == "public":
                bluesky.do(lambda w=who, t=text: fake.post(w, t, reply_to=root))
            else:
                bluesky.do(lambda w=who, t=text: fake.dm(w, t))
            _wait(turn(number), f"turn {number}", process)
        _wait(lambda: game.phase() == "finished", "the game's end", process)
        _wait(lambda: _posts_saying(bluesky, "Final standings"), "the standings", process)
        # The last turn's post keeps its revealed luck whole (the host's ``keep``), so
        # within 300 graphemes the winner is named by the standings that follow it.
        assert _posts_saying(bluesky, "1st @alice.bsky.social:")
        assert _posts_saying(bluesky, "Luck revealed: the secret was")
        _check_thread(bluesky, root)
        assert bluesky.do(lambda: fake.violations) == []
    finally:
        _stop(process)


def test_check_config_online_says_the_app_password_lacks_dm_access(tmp_path: Path) -> None:
    bluesky = LocalBluesky(dm_access=False)
    bluesky.start()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "bot", "check-config", str(_config(tmp_path, bluesky)),
             "--online"],
            cwd=tmp_path, env=_environment(tmp_path), capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
    finally:
        bluesky.stop()
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"ok: Bluesky: logged in as @{BOT}" in result.stdout
    assert "no access to direct messages" in result.stderr
    assert fake_module.APP_PASSWORD not in result.stdout + result.stderr
