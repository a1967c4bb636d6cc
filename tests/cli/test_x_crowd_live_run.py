"""A whole 30-captain #bst game on X through ``bst run`` (issue 40, what done looks like):
the real command in its own process against the adapter tests' strict fake X, while the
fake answers a 503 to a post and one to a DM, a 429 (with its x-rate-limit-reset) to a DM,
and a 503 to a poll of the mentions; and the bot is stopped and started again mid-game, a
turn's orders posted while it is down. Every captain has their start board, every order
of every turn counts, and every outbox row went out once.
"""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import live_servers as servers
import pytest
import test_live_run as live

from bot.host.outbox.relay import address_of
from bot.store import Store
from bot.wiring import sqlite_url

x_fake = live.x_fake
CAPTAINS = [(str(1_700_000_000_000_000_000 + n), f"captain{n:02d}") for n in range(1, 31)]
HOST = "2244994945"  # alice, who opens and starts the game
TURNS = 3


class LocalX(servers.LocalServer):
    """The fake X on 127.0.0.1, its 30 captains among its users."""

    def __init__(self) -> None:
        if not x_fake.SPEC_PATH.exists():
            pytest.skip(reason=f"X API spec not found at {x_fake.SPEC_PATH}")
        super().__init__()
        self.x = x_fake.FakeX(
            x_fake.XSpec(x_fake.SPEC_PATH), x_fake.Credentials(*live.X_KEYS.values())
        )
        self.x.add_user(HOST, "alice", "Alice")
        for user_id, name in CAPTAINS:
            self.x.add_user(user_id, name, name.title())

    def start(self) -> None:
        super().start()
        self.port = self.serve(self.x.app())

    def post(self, author: str, text: str, root: str | None = None) -> str:
        """A post mentioning the bot, stamped now (in the game's thread under ``root``)."""
        now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        extra: dict[str, Any] = {"created_at": now}
        if root is not None:
            extra |= {"conversation_id": root,
                      "referenced_tweets": [{"type": "replied_to", "id": root}]}  # fmt: skip
        return str(self.do(lambda: self.x.mention(author, f"@bstbot {text}", **extra)))


@pytest.fixture
def local_x() -> Iterator[LocalX]:
    yield from servers.served(LocalX())


def _config(tmp_path: Path, local_x: LocalX) -> Path:
    return servers.write_config(
        tmp_path,
        f"""[twitter]
enabled = true
api_base = "http://127.0.0.1:{local_x.port}"
bot_user_id = "{local_x.x.bot_id}"
mentions_poll = "1s"
dm_poll = "1s"
# The test's captains answer at once: no pacing, or a game takes minutes.
posts_per_minute = 0
dms_per_minute = 0
""",
    )


def _start(config: Path, tmp_path: Path, run: int) -> subprocess.Popen[str]:
    return servers.start_bst(config, tmp_path, live.X_KEYS, f"bst-run-{run}.log")


def _stop(process: subprocess.Popen[str]) -> None:
    assert servers.stop_bst(process) == 0


def _wait(
    condition: Any, what: str, process: subprocess.Popen[str], tmp_path: Path, timeout: float = 60
) -> None:
    def logs() -> str:
        return "".join(p.read_text() for p in sorted(tmp_path.glob("bst-run-*.log")))

    servers.wait_for(condition, what, process, timeout=timeout, log=logs)


def _shot(turn: int, n: int) -> str:
    return f"#bst {'ABCDEFGHIJKLMNO'[(n + turn) % 15]}{(3 * n + turn) % 15 + 1}"


@pytest.mark.slow  # 30 captains' boards drawn as pictures each turn: about two minutes
def test_a_30_captain_bst_game_on_x_loses_nothing_across_errors_and_a_restart(
    tmp_path: Path, local_x: LocalX
) -> None:
    fake = local_x.x
    config = _config(tmp_path, local_x)
    store = Store(sqlite_url(tmp_path / "bst.db"))

    def game(what: str) -> Any:
        try:
            with store.transaction() as tx:
                row = tx.game(1)
                if what == "players":
                    return len(tx.players(1))
                return None if row is None else (row.phase, row.turn)
        except Exception:
            return None  # the bot has not made its tables yet

    def shoot(number: int, root: str) -> None:
        for n, (user_id, _) in enumerate(CAPTAINS):
            local_x.post(user_id, _shot(number, n), root)

    def polled() -> bool:  # the bot reads mentions: what is posted from now on is new
        return bool(local_x.do(lambda: fake.calls("GET", "/2/users/{id}/mentions")))

    process = _start(config, tmp_path, 1)
    try:
        _wait(polled, "the first poll", process, tmp_path)
        root = local_x.post(HOST, "#bst new size=15 turn=15s max_turns=3")
        _wait(lambda: local_x.do(lambda: len(fake.posts)) > 0, "the opening", process, tmp_path)
        for user_id, _ in CAPTAINS:
            local_x.post(user_id, "#bst join", root)
        _wait(lambda: game("players") == 30, "30 captains", process, tmp_path)
        busy = x_fake.Failure(503, x_fake.x_error(503, "Service Unavailable", "", 130))
        limited = x_fake.Failure(429, x_fake.x_error(429, "Too Many Requests", "", 88),
                                 {"x-rate-limit-remaining": "0",
                                  "x-rate-limit-reset": str(int(time.time()) + 2)})  # fmt: skip
        dm = "POST /2/dm_conversations/with/{participant_id}/messages"
        local_x.do(lambda: fake.fail(dm, busy))
        local_x.do(lambda: fake.fail(dm, limited))
        local_x.do(lambda: fake.fail("POST /2/tweets", busy))
        local_x.post(HOST, "#bst start", root)
        _wait(lambda: game("turn") == ("battle", 1), "the battle", process, tmp_path)
        local_x.do(lambda: fake.fail("GET /2/users/{id}/mentions", busy))
        shoot(1, root)
        _wait(lambda: game("turn") == ("battle", 2), "turn 2", process, tmp_path)
        _stop(process)
        shoot(2, root)
        process = _start(config, tmp_path, 2)
        _wait(lambda: game("turn") == ("battle", 3), "turn 3", process, tmp_path)
        shoot(3, root)
        _wait(lambda: (game("turn") or ("",))[0] == "finished", "the end", process, tmp_path)

        def all_sent() -> bool:
            with store.transaction() as tx:
                return all(r.status != "pending" for r in tx.outbox())

        _wait(all_sent, "every message sent", process, tmp_path, timeout=120)
        with store.transaction() as tx:
            keys = {p.user_id: p.key for p in tx.players(1)}
            outbox = tx.outbox()
            orders = {n: {o.player_key for o in tx.orders_of_turn(1, n)} for n in (1, 2, 3)}
        assert set(keys) == {user_id for user_id, _ in CAPTAINS}
        for number in range(1, TURNS + 1):
            assert orders[number] == set(keys.values()), f"orders lost in turn {number}"
        assert [(r.kind, r.recipient, r.status) for r in outbox if r.status != "sent"] == []
        boards = {r.recipient for r in outbox if r.kind.startswith("board") and r.turn == 0}
        assert boards == set(keys.values())
        dms = Counter(i for r in outbox if address_of(r).is_dm
                      for i in (r.platform_message_id or "").split(","))  # fmt: skip
        sent = [e["id"] for e in local_x.do(lambda: list(fake.sent_dm_events))]
        assert sorted(sent) == sorted(dms), "a DM sent twice, or one lost"
        records = local_x.do(lambda: list(fake.posts))
        made = [r.platform_message_id for r in outbox if not address_of(r).is_dm]
        # A list too long for one post (the end's standings) goes on in numbered replies,
        # each under the one before: those are its row's parts, not posts of their own.
        parent = {
            p["id"]: next(
                (t["id"] for t in p.get("referenced_tweets", []) if t["type"] == "replied_to"),
                None,
            )
            for p in records
        }
        parts = [i for i in parent if i not in made]
        for post in parts:
            first = post
            while first in parts:
                first = parent[first]
            assert first in made, f"a post {post} that is no row's, nor a part of one"
        texts = Counter((parent[p["id"]], p["text"]) for p in records)
        assert max(texts.values()) == 1, "a post made twice"
        posts = [i for i in parent if i not in parts]
        assert sorted(posts) == sorted(made), "a post made twice, or one lost"
        assert local_x.do(lambda: (fake.violations, fake.failures)) == (
            [],
            {dm: [], "POST /2/tweets": [], "GET /2/users/{id}/mentions": []},
        )
    finally:
        if process.poll() is None:
            _stop(process)
        store.dispose()
