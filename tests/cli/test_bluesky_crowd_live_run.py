"""A whole 30-captain #bst game on Bluesky through ``bst run`` (issue 40, what done looks
like): the real command in its own process against the adapter tests' strict fake PDS and
chat service, while the fake answers a 503 to a chat message, a 429 to a board's second
chat message (its first delivered), a 503 to a poll of the notifications and one of the
tag search (Bluesky has no stream: a poll that fails is its dropped stream), and loses its
answer to a post it made; and the bot is stopped and started again mid-game, a turn's
orders posted while it is down. Every captain has their start board, every chat message
and post the bot made is one outbox row's (none twice, none lost), and every captain's
order of every turn counts and is acknowledged to them once.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import test_bluesky_live_run as live

from bot.host.outbox.relay import address_of
from bot.store import Store
from bot.wiring import sqlite_url

CAPTAINS = [(f"did:plc:captain{n:02d}".ljust(32, "0"), f"captain{n:02d}.bsky.social")
            for n in range(1, 31)]  # fmt: skip
TURNS = 3
fake_module = live.fake_module


def _shot(turn: int, n: int) -> str:
    """Captain ``n``'s shot of ``turn``: somewhere on the 15×15 board."""
    return f"#bst {'ABCDEFGHIJKLMNO'[(n + turn) % 15]}{(3 * n + turn) % 15 + 1}"


def _rows(tmp_path: Path) -> tuple[dict[str, str], list[Any], dict[int, set[str]]]:
    """The captains' keys by DID, the outbox, and who gave an order in each turn."""
    store = Store(sqlite_url(tmp_path / "bst.db"))
    try:
        with store.transaction() as tx:
            keys = {p.user_id: p.key for p in tx.players(1)}
            outbox = tx.outbox()
            orders = {turn: {o.player_key for o in tx.orders_of_turn(1, turn)}
                      for turn in range(1, TURNS + 1)}  # fmt: skip
    finally:
        store.dispose()
    return keys, outbox, orders


def test_a_30_captain_bst_game_on_bluesky_loses_nothing_across_errors_and_a_restart(
    tmp_path: Path,
) -> None:
    bluesky = live.LocalBluesky()
    bluesky.start()
    fake = bluesky.fake
    config = live._config(tmp_path, bluesky)
    game = live.Game(tmp_path)
    process = live._start(config, tmp_path)

    def turn() -> int:
        with game.store.transaction() as tx:
            row = tx.game(1)
            return 0 if row is None or row.phase != "battle" else int(row.turn)

    shots: list[str] = []

    def shoot(number: int, root: str) -> None:
        for n, (did, _) in enumerate(CAPTAINS):
            shots.append(
                bluesky.do(lambda d=did, n=n: fake.post(d, _shot(number, n), reply_to=root))
            )

    try:
        for did, handle in CAPTAINS:
            bluesky.do(lambda d=did, h=handle: fake.add_person(d, h, h.split(".")[0]))
        live._wait(lambda: bluesky.do(lambda: fake.logins) == 1, "login", process)
        root = bluesky.do(lambda: fake.post(
            live.CAROL, f"@{live.BOT} #bst new size=15 turn=12s max_turns={TURNS}"))  # fmt: skip
        live._wait(lambda: live._posts_saying(bluesky, "is open"), "the game's opening", process)
        for did, _ in CAPTAINS:
            bluesky.do(lambda d=did: fake.post(d, "#bst join", reply_to=root))
        live._wait(lambda: game.players() == len(CAPTAINS), "30 captains", process)
        # The start boards meet a 503 (the first chat message: it may have arrived), then
        # a 429 on a board's second chat message (after its first arrived), with the chat
        # service's RateLimit headers; and a post whose answer is lost.
        bluesky.do(lambda: fake.fail_next.update({"chat.bsky.convo.sendMessage":
            fake_module.XrpcError(503, "ServiceUnavailable", "Service Unavailable")}))  # fmt: skip
        bluesky.do(lambda: fake.fail_matching.update({"chat.bsky.convo.sendMessage": (
            lambda body: body["message"]["text"].startswith("A "),  # a board's rows
            fake_module.XrpcError(429, "RateLimitExceeded", "Rate Limit Exceeded",
                                  {"RateLimit-Remaining": "0", "RateLimit-Reset": str(int(time.time()) + 2)}))}))  # fmt: skip
        bluesky.do(lambda: fake.lose_answer_of.add("com.atproto.repo.createRecord"))
        bluesky.do(lambda: fake.post(live.CAROL, "#bst start", reply_to=root))
        live._wait(lambda: turn() == 1, "the battle", process)
        # Turn 1's orders, while a poll of the notifications and one of the tag search
        # fail (the captains' posts reply to the game's root: the search finds them).
        for nsid in ("app.bsky.notification.listNotifications", "app.bsky.feed.searchPosts"):
            bluesky.do(lambda n=nsid: fake.fail_next.update(
                {n: fake_module.XrpcError(503, "ServiceUnavailable", "Service Unavailable")}))  # fmt: skip
        shoot(1, root)
        live._wait(lambda: turn() == 2, "turn 2", process, timeout=60)
        # The bot stops; turn 2's orders are posted while it is down, and its deadline
        # passes then: the restarted bot reads them before it closes the turn.
        live._stop(process)
        shoot(2, root)
        process = live._start(config, tmp_path)
        live._wait(lambda: turn() == 3, "turn 3", process, timeout=60)
        shoot(3, root)
        live._wait(lambda: game.phase() == "finished", "the game's end", process, timeout=60)
        live._wait(lambda: live._posts_saying(bluesky, "Final standings"), "standings", process)
        live._wait(lambda: all(row.status != "pending" for row in _rows(tmp_path)[1]),
                   "every message sent", process)  # fmt: skip
        keys, outbox, orders = _rows(tmp_path)
        # Every captain's order of every turn counted, the ones posted while the bot was
        # down and the ones a failed poll left for the next.
        assert set(keys) == {did for did, _ in CAPTAINS}
        for number in range(1, TURNS + 1):
            assert orders[number] == set(keys.values()), f"orders lost in turn {number}"
        # Every shot acknowledged to its captain, privately, once, with what stands.
        receipts = Counter(address_of(r).reply_to for r in outbox
                           if address_of(r).is_dm and r.text.startswith("Turn "))  # fmt: skip
        assert [uri for uri in shots if receipts[uri] != 1] == [], "a shot not acknowledged once"
        # Every row went, and every message the bot sent is one row's: none twice.
        assert [(r.kind, r.recipient, r.status) for r in outbox if r.status != "sent"] == []
        boards = [r for r in outbox if r.kind.startswith("board")]
        assert {r.recipient for r in boards if r.turn == 0} == set(keys.values())
        assert all(r.turn for r in boards if r.recipient not in keys.values()), "not a captain"
        by_id = {m["message"]["id"]: m for m in bluesky.do(lambda: list(fake.messages))}
        sent = Counter(i for r in outbox if address_of(r).is_dm
                       for i in (r.platform_message_id or "").split(","))  # fmt: skip
        mine = [i for i, m in by_id.items() if m["message"]["sender"]["did"] == fake_module.BOT_DID]
        assert sorted(mine) == sorted(sent), "a chat message sent twice, or one lost"
        assert max(sent.values()) == 1
        records = bluesky.do(fake.bot_posts)
        made = [r.platform_message_id for r in outbox if not address_of(r).is_dm]
        # A list too long for one post (the end's standings) goes on in numbered replies,
        # each under the one before: those are its row's parts, not posts of their own.
        parent = {
            p["uri"]: p["value"].get("reply", {}).get("parent", {}).get("uri") for p in records
        }
        parts = [u for u in parent if u not in made]
        for uri in parts:
            first = uri
            while first in parts:
                first = parent[first]
            assert first in made, f"a post {uri} that is no row's, nor a part of one"
        texts = Counter((parent[u], p["value"]["text"]) for p in records for u in [p["uri"]])
        assert max(texts.values()) == 1, "a post made twice"
        posts = [u for u in parent if u not in parts]
        assert sorted(posts) == sorted(made), "a post made twice, or one lost"
        assert bluesky.do(lambda: fake.violations) == []
        # Every failure was met: the 503s, the 429, the lost answer.
        assert bluesky.do(lambda: (fake.fail_next, fake.fail_matching, fake.lose_answer_of)) == (
            {}, {}, set())  # fmt: skip
        live._check_thread(bluesky, root)
    finally:
        if process.poll() is None:
            live._stop(process)
        game.store.dispose()
        bluesky.stop()
