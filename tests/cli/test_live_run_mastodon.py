"""``bst run --config FILE`` on Mastodon: the real command in its own process, its token
in the environment variable the config names, talking over HTTP to the strict fake
instance of the adapter's tests (which the real Mastodon.py client calls): a whole Sonar
game and a whole bst game, read from the notification stream, each in the thread under
its opening post, with boards by direct post that reach their one captain."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import live_servers as servers
import pytest

from tests.cli.test_live_run import _health

ROOT = servers.ROOT


fake_mastodon = servers.load_fake(
    "bst_live_mastodon_fake", ROOT / "tests" / "adapters" / "mastodon" / "fake_mastodon.py"
)


class Instance(servers.LocalServer):
    """The fake instance on 127.0.0.1, its address known before it serves."""

    def __init__(self) -> None:
        super().__init__()
        self.fake = fake_mastodon.FakeMastodon(media_per_window=200)

    def start(self) -> None:
        super().start()
        self.port = servers.free_port()
        self.fake.base_url = f"http://127.0.0.1:{self.port}"
        self.serve(self.fake.app(), self.port)

    def say(self, account: Any, text: str, *, direct: bool = False, reply_to: str = "") -> str:
        """A person posts (in the fake's own loop: the stream is written there)."""

        async def post() -> str:
            visibility = "direct" if direct else "public"
            return str(self.fake.mention(account, text, visibility=visibility,
                                         in_reply_to_id=reply_to or None))  # fmt: skip

        return str(self.call(post()))

    def stop(self) -> None:
        self.call(self.fake.drop_streams())
        super().stop()


@pytest.fixture
def instance() -> Iterator[Instance]:
    yield from servers.served(Instance())


def _wait(condition: Callable[[], Any], what: str, process: subprocess.Popen[str],
          timeout: float = 60.0) -> Any:  # fmt: skip
    return servers.wait_for(condition, what, process, timeout=timeout, pause=0.05)


def test_bst_run_plays_a_whole_sonar_and_bst_game_on_mastodon(
    tmp_path: Path, instance: Instance
) -> None:
    fake = instance.fake
    health_port = servers.free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        f"""
[database]
url = "sqlite:///{tmp_path / "bst.db"}"

[limits]
min_duration = "1s"  # a 4-second turn clock, so that a whole game takes seconds

[mastodon]
enabled = true
instance = "{fake.base_url}"
access_token_env = "BST_E2E_MASTODON_TOKEN"
poll = "1s"
posts_per_minute = 0
dms_per_minute = 0
# Two whole games in a minute draw ~60 pictures: an instance with a larger media budget.
media_per_30_minutes = 200

[health]
port = {health_port}
""",
        encoding="utf-8",
    )
    secrets = {"BST_E2E_MASTODON_TOKEN": fake_mastodon.TOKEN}
    process = servers.start_bst(config, tmp_path, secrets, "bst.log")
    ahab = fake.add_account("ahab", "Ahab")
    nemo = fake.add_account("nemo", "Nemo", domain="deep.example")
    alice = fake.add_account("alice", "Alice")
    bob = fake.add_account("bob", "Bob")

    def bot_post(words: str, after: int = 0, visibility: str = "") -> Any:
        return next((s for s in list(fake.statuses.values())[after:]
                     if s.account is fake.bot and words in s.text
                     and visibility in ("", s.visibility)), None)  # fmt: skip

    def step(account: Any, text: str, answer: str, **kwargs: Any) -> Any:
        mark = len(fake.statuses)
        instance.say(account, text, **kwargs)
        return _wait(lambda: bot_post(answer, mark), repr(answer), process)

    try:
        _wait(lambda: fake.streams, "stream connection", process)
        _wait(lambda: _health(health_port)[1].get("platforms") == {"mastodon": "connected"},
              "mastodon up", process)  # fmt: skip
        assert fake.bot.bot and fake.policy["for_private_mentions"] == "accept"

        # Sonar, alternating: every move is answered at once.
        mark = len(fake.statuses)
        sonar = instance.say(ahab, "#sonar new size=12 ships=2 placement=given")
        _wait(lambda: bot_post("is open", mark), "sonar open", process)
        step(ahab, "#sonar join", "ahab joined", reply_to=sonar)
        step(ahab, "2 l5 ur\n3 c20 ur", "Fleet", direct=True)
        step(nemo, "#sonar join", "joined", direct=True)
        step(nemo, "3 h3 dl, 2 f10 dl", "Fleet", direct=True)
        step(ahab, "#sonar start", "the hunt begins", reply_to=sonar)
        for who, shot in ((ahab, "e10"), (nemo, "b11, a1"), (ahab, "d10, h3"), (nemo, "a24"),
                          (ahab, "c3, d3"), (nemo, "a23")):  # fmt: skip
            step(who, f"#sonar {shot}", "fired at", reply_to=sonar)
        step(ahab, "#sonar c3", "ahab wins", reply_to=sonar)
        _wait(lambda: bot_post("is over. Final standings"), "sonar standings", process)

        # bst, on a 4-second turn clock: one shot a turn until bob's fleet is gone.
        mark = len(fake.statuses)
        bst = instance.say(alice, "#bst new size=8 turn=4s")
        _wait(lambda: bot_post("is open", mark), "bst open", process)
        step(alice, "#bst join", "joined", reply_to=bst)
        step(alice, "sub: A2\ncarrier: C1-C5", "Fleet placed", direct=True)
        step(bob, "#bst 2 join", "joined", direct=True)
        step(bob, "cruiser: F1-F3, cruiser: H6-H8", "Fleet placed", direct=True)
        step(alice, "#bst start", "the battle begins", reply_to=bst)
        for turn, cell in enumerate(("F1", "F2", "F3", "H6", "H7", "H8"), start=1):
            instance.say(alice, f"#bst {cell}", reply_to=bst)
            # The turn's public report (a board DM's heading names the turn it shows).
            _wait(lambda t=turn: bot_post(f"game 2, turn {t}:", visibility="public"),
                  f"turn {turn}", process, 30)  # fmt: skip
        # A name reads as one and is no mention (its @ is defused: #40, 11).
        _wait(lambda: bot_post("@\u200dalice wins"), "bst winner", process)

        # Each game's posts are in its own thread; every board reached its one captain.
        def thread_of(status: Any) -> str:
            while status.in_reply_to_id:
                status = fake.statuses[status.in_reply_to_id]
            return str(status.id)

        sonar_posts = [s for s in fake.posts_by_bot("public") if "#sonar game" in s.text]
        bst_posts = [s for s in fake.posts_by_bot("public") if "#bst game" in s.text]
        assert {thread_of(s) for s in sonar_posts} == {sonar}
        assert {thread_of(s) for s in bst_posts} == {bst}
        for status in fake.posts_by_bot("direct"):
            assert len(status.audience) == 1, status.text
        assert fake.direct_to(nemo) and any(s.media for s in fake.direct_to(bob))
        assert fake.violations == []
        assert not [s for s in fake.posts_by_bot() if fake.counted_length(s.text, []) > 500]
    except AssertionError as failure:
        said = [f"{s.account.username} {s.visibility}: {s.text[:120]!r}"
                for s in list(fake.statuses.values())[-8:]]  # fmt: skip
        logged = (tmp_path / "bst.log").read_text(encoding="utf-8")[-3000:]
        raise AssertionError(f"{failure}; the last statuses: {said}; log: {logged}") from None
    finally:
        code = servers.stop_bst(process)
    stderr = (tmp_path / "bst.log").read_text(encoding="utf-8")
    assert code == 0, stderr
    assert fake_mastodon.TOKEN not in stderr


def _check_online(
    tmp_path: Path, instance: Instance, token: str
) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "check.toml"
    config.write_text(
        f'[mastodon]\nenabled = true\ninstance = "{instance.fake.base_url}"\n'
        'access_token_env = "BST_E2E_MASTODON_TOKEN"\nset_up_account = false\n',
        encoding="utf-8",
    )
    env = servers.environment(tmp_path, {"BST_E2E_MASTODON_TOKEN": token})
    return subprocess.run(
        [sys.executable, "-m", "bot", "check-config", str(config), "--online"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_check_config_online_names_the_token_its_scopes_and_the_bot_flag(
    tmp_path: Path, instance: Instance
) -> None:
    instance.fake.scopes = ["read", "write:statuses"]
    result = _check_online(tmp_path, instance, fake_mastodon.TOKEN)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "ok: Mastodon: the token is the account @bstbot" in result.stdout
    assert "write:media" in result.stderr and "write:statuses" not in result.stderr
    assert "not marked as a bot" in result.stderr
    assert fake_mastodon.TOKEN not in result.stdout + result.stderr

    instance.fake.scopes = ["read", "write"]
    instance.fake.bot.bot = True
    result = _check_online(tmp_path, instance, fake_mastodon.TOKEN)
    assert result.returncode == 0, result.stderr
    assert "posts up to 500 characters and 4 pictures" in result.stdout

    result = _check_online(tmp_path, instance, "not-the-token")
    assert result.returncode == 2
    assert "refused the access token (401)" in result.stderr and "read write" in result.stderr
    assert "not-the-token" not in result.stdout + result.stderr
