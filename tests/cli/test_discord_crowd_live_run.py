"""A whole 30-captain #bst game on Discord through ``bst run`` (issue 40, what done looks
like): the real command in its own process against the adapter tests' strict fake
Discord (REST and gateway), while the fake answers a 503 to a post in the game's thread,
a 429 (Discord's rate-limit headers and ``retry_after``) to a DM, drops the gateway
mid-turn (orders pushed while the bot is away come back on its RESUME), and the bot is
stopped and started again mid-game. Every captain has their start board, every order of
every turn counts, and every outbox row went out once.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import live_servers as servers
import pytest
import test_live_run as live
import test_x_crowd_live_run as crowd

from bot.store import Store
from bot.wiring import sqlite_url

discord_fake = live.discord_fake
HOST = discord_fake.USER_ID  # who opens and starts the game
CAPTAINS = [1_100_000_000_000_001_000 + n for n in range(1, 31)]
TURNS = 3


class LocalDiscord(servers.LocalServer):
    """The fake Discord on 127.0.0.1, REST and gateway on one port."""

    def __init__(self) -> None:
        super().__init__()
        self.discord = discord_fake.FakeDiscord()

    def start(self) -> None:
        super().start()
        port = self.serve(self.discord.app())
        self.discord.base = f"http://127.0.0.1:{port}/api/v10"
        self.discord.gateway.url = f"ws://127.0.0.1:{port}/gateway"

    def slash(self, user_id: int, name: str, channel_id: int | None = None, **options: str) -> Any:
        """``/bst name option:value…`` (``/host`` for start) as the gateway brings it."""
        fake = self.discord
        group = "host" if name == "start" else "bst"
        values = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
        return fake.interaction_payload(name, values, interaction_id=fake.snowflake(),
                                        user_id=user_id, group=group,
                                        channel_id=channel_id)  # fmt: skip

    def push(self, payload: Any) -> None:
        self.call(self.discord.gateway.push("INTERACTION_CREATE", payload))


@pytest.fixture
def local_discord() -> Iterator[LocalDiscord]:
    yield from servers.served(LocalDiscord())


def _config(tmp_path: Path, local: LocalDiscord) -> Path:
    return servers.write_config(
        tmp_path,
        f"""[discord]
enabled = true
token_env = "BST_E2E_DISCORD_TOKEN"
api_base = "{local.discord.base}"
message_content = false
# The fake keeps no rate limits of its own but the scripted 429; DM channels open as
# fast as the fake's 20 in 10 s allows.
requests_per_second = 0
dm_opens_per_minute = 100
""",
        limits="commands_per_minute = 1000",
    )


def _start(config: Path, tmp_path: Path, run: int) -> subprocess.Popen[str]:
    secrets = {"BST_E2E_DISCORD_TOKEN": discord_fake.TOKEN,
               "BST_SPECS_DIR": os.environ.get("BST_SPECS_DIR", "/work/shared/specs")}  # fmt: skip
    return servers.start_bst(config, tmp_path, secrets, f"bst-run-{run}.log")


def _shot(turn: int, n: int) -> str:
    return f"{'ABCDEFGHIJKLMNO'[(n + turn) % 15]}{(3 * n + turn) % 15 + 1}"


@pytest.mark.slow  # 30 captains' boards drawn as pictures each turn: over a minute
def test_a_30_captain_bst_game_on_discord_loses_nothing_across_errors_a_drop_and_a_restart(
    tmp_path: Path, local_discord: LocalDiscord
) -> None:
    local, fake = local_discord, local_discord.discord
    config = _config(tmp_path, local)
    store = Store(sqlite_url(tmp_path / "bst.db"))
    wait = crowd._wait

    def game(what: str) -> Any:
        try:
            with store.transaction() as tx:
                row = tx.game(1)
                if what == "players":
                    return len(tx.players(1))
                if what == "channel":
                    return None if row is None else int(row.channel)
                return None if row is None else (row.phase, row.turn)
        except Exception:
            return None  # the bot has not made its tables yet

    def orders(shots: list[tuple[int, str]], thread: int) -> list[Any]:
        return [local.slash(u, "shoot", channel_id=thread, cell=c) for u, c in shots]

    def connected(identifies: int) -> bool:
        return bool(local.do(lambda: len(fake.gateway.identified) >= identifies
                             and fake.gateway.sockets != []))  # fmt: skip

    process = _start(config, tmp_path, 1)
    try:
        wait(lambda: connected(1), "the gateway", process, tmp_path)
        time.sleep(1)  # READY and GUILD_CREATE handled before the first command
        local.push(local.slash(HOST, "new", size="15", turn="15s", max_turns=str(TURNS)))
        wait(lambda: game("players") is not None, "the opening", process, tmp_path)
        for user_id in CAPTAINS:
            local.push(local.slash(user_id, "join"))
        wait(lambda: game("players") == 30, "30 captains", process, tmp_path)
        local.push(local.slash(HOST, "start"))
        wait(lambda: (game("turn") or ("",))[0] == "battle", "the battle", process, tmp_path)
        thread = game("channel")
        # Any channel but the game's thread and the channel it opened in: a captain's DM.
        dms = rf"/channels/(?!(?:{thread}|{discord_fake.CHANNEL_ID})/)\d+/messages"
        retry = {"message": "You are being rate limited.", "retry_after": 1.0, "global": False}
        headers = {"Retry-After": "1", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                   "X-RateLimit-Reset-After": "1.000", "X-RateLimit-Bucket": "fakebucket",
                   "X-RateLimit-Scope": "user", "X-RateLimit-Reset": f"{time.time() + 1:.3f}"}  # fmt: skip
        local.do(lambda: fake.fail_next("POST", dms, 429, retry,
                                        headers))  # fmt: skip
        busy = {"message": "Service Unavailable", "code": 0}
        local.do(lambda: fake.fail_next("POST", rf"/channels/{thread}/messages", 503, busy))
        shots = [(u, _shot(1, n)) for n, u in enumerate(CAPTAINS)]
        for payload in orders(shots, thread):
            local.push(payload)
        wait(lambda: game("turn") == ("battle", 2), "turn 2", process, tmp_path)

        # Turn 2: the gateway drops; half the orders arrive while the bot is away.
        half = orders([(u, _shot(2, n)) for n, u in enumerate(CAPTAINS)], thread)

        async def drop_then_push() -> None:
            await fake.gateway.drop()
            for payload in half[:15]:
                await fake.gateway.push("INTERACTION_CREATE", payload)

        local.call(drop_then_push())
        wait(lambda: local.do(lambda: fake.gateway.sockets != []), "the return", process,
             tmp_path)  # fmt: skip
        wait(lambda: local.do(lambda: len(fake.gateway.resumes) + len(fake.gateway.identified))
             >= 2 and local.do(lambda: fake.gateway.dispatched[-1][1] in ("RESUMED",
                                                                           "GUILD_CREATE")),
             "the resume", process, tmp_path)  # fmt: skip
        for payload in half[15:]:
            local.push(payload)

        def counted(number: int) -> int:
            with store.transaction() as tx:
                return len({o.player_key for o in tx.orders_of_turn(1, number)})

        wait(lambda: counted(2) == 30, "turn 2's orders", process, tmp_path)
        crowd._stop(process)
        identifies = local.do(lambda: len(fake.gateway.identified))
        process = _start(config, tmp_path, 2)
        wait(lambda: connected(identifies + 1), "the gateway again", process, tmp_path)
        wait(lambda: game("turn") == ("battle", 3), "turn 3", process, tmp_path)
        time.sleep(1)  # READY and GUILD_CREATE handled
        for payload in orders([(u, _shot(3, n)) for n, u in enumerate(CAPTAINS)], thread):
            local.push(payload)
        wait(lambda: (game("turn") or ("",))[0] == "finished", "the end", process, tmp_path,
             timeout=90)  # fmt: skip

        def all_sent() -> bool:
            with store.transaction() as tx:
                return all(r.status != "pending" for r in tx.outbox())

        wait(all_sent, "every message sent", process, tmp_path, timeout=120)
        with store.transaction() as tx:
            keys = {p.user_id: p.key for p in tx.players(1)}
            outbox = tx.outbox()
            turns = {n: {o.player_key for o in tx.orders_of_turn(1, n)} for n in (1, 2, 3)}
        assert set(keys) == {str(u) for u in CAPTAINS}
        for number in range(1, TURNS + 1):
            assert turns[number] == set(keys.values()), f"orders lost in turn {number}"
        assert [(r.kind, r.recipient, r.status) for r in outbox if r.status != "sent"] == []
        boards = {r.recipient for r in outbox if r.kind.startswith("board") and r.turn == 0}
        assert boards == set(keys.values())
        # Every message the bot posted (in the channel, the thread, the DMs) is one outbox
        # row's, and no row was posted twice. (The row that opened the game's thread
        # records the thread, which its message opens.)
        made = Counter(i for r in outbox for i in (r.platform_message_id or "").split(",") if i)
        bots = local.do(lambda: [(m["id"], m["channel_id"], m["content"][:60])
                                 for ms in fake.posted.values() for m in ms
                                 if m["author"]["id"] == str(discord_fake.BOT_ID)
                                 and m.get("type", 0) == 0 and not m.get("webhook_id")])  # fmt: skip
        rooms: set[str] = set()
        seen: list[str] = []
        for message_id, channel_id, _ in bots:
            if channel_id in made and channel_id not in rooms:
                rooms.add(channel_id)
                seen.append(channel_id)
            else:
                seen.append(message_id)
        assert Counter(seen) - made == Counter(), "a message the bot posted unrecorded"
        assert [i for i, n in Counter(seen).items() if n > 1] == []
        assert [i for i, n in made.items() if n > 1] == [], "two rows name one message"
        assert local.do(lambda: fake.failures) == []  # the 503 and the 429 were met
        assert local.do(lambda: len(fake.gateway.resumes)) >= 1  # the drop was resumed
    finally:
        if process.poll() is None:
            crowd._stop(process)
        store.dispose()
