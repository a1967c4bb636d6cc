"""Committed luck (issue 31, README "Fair play"): a live game draws from a fresh secret
whose SHA-256 the opening post publishes, mixed at the start with each join's nonce;
every draw is the documented HMAC-SHA-256 procedure; the end post and the record reveal
the secret; a game with ``seed=`` (scripts) draws and records exactly as before."""

from __future__ import annotations

import hashlib
import hmac
import random
from pathlib import Path

from host_fakes import HostKit

from bot.games.base import Channel
from bot.games.catalog import get_game
from bot.host.play.record import game_record
from bot.host.play.seeds import (
    commitment,
    draw_secret,
    game_rng,
    game_rng_on_first_draw,
    luck_rng,
    mixed_luck,
)
from bot.store import loads

SECRET = "5a" * 32
OTHER = "a5" * 32


def public_texts(kit: HostKit) -> list[str]:
    kit.flush()
    return kit.adapter.texts()


def test_a_draw_is_the_documented_hmac_procedure_recomputed_by_hand() -> None:
    # README: random.Random(int.from_bytes(HMAC-SHA-256(key, label), "big")).
    key = bytes.fromhex(SECRET)
    by_hand = hmac.new(key, b"accept/discord/1234", hashlib.sha256).digest()
    expected = random.Random(int.from_bytes(by_hand, "big"))
    drawn = luck_rng(SECRET, "accept", "discord", 1234)
    assert [drawn.random() for _ in range(5)] == [expected.random() for _ in range(5)]
    assert commitment(SECRET) == hashlib.sha256(key).hexdigest()
    mixed = hmac.new(key, b"players\nfake:m2\nfake:m3", hashlib.sha256).hexdigest()
    assert mixed_luck(SECRET, ["fake:m2", "fake:m3"]) == mixed


def test_fresh_secrets_are_32_random_bytes_never_the_same() -> None:
    drawn = {draw_secret() for _ in range(50)}
    assert len(drawn) == 50 and all(len(bytes.fromhex(s)) == 32 for s in drawn)


class _Row:
    def __init__(self, seed: int, secret: str = "", luck: str = "") -> None:
        self.seed, self.secret, self.luck = seed, secret, luck


def test_lazy_and_eager_draws_agree_and_the_key_decides() -> None:
    for row in (_Row(7), _Row(7, SECRET), _Row(7, SECRET, OTHER)):
        eager, lazy = game_rng(row, "turn", 3), game_rng_on_first_draw(row, "turn", 3)
        assert lazy.sample(range(1000), 10) == eager.sample(range(1000), 10)
    draws = {game_rng(row, "start").random() for row in (_Row(7), _Row(7, SECRET), _Row(7, OTHER))}
    assert len(draws) == 3  # seed=, the secret, another secret: three different games
    # Once the game started, the mixed key (not the bare secret) draws.
    mixed = _Row(7, SECRET, OTHER)
    assert game_rng(mixed, "turn", 1).random() == luck_rng(OTHER, "turn", 1).random()


def test_live_game_commits_draws_from_the_secret_and_reveals_it(tmp_path: Path) -> None:
    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.say("alice", "#bst new size=10x10 turn=8h", message_id="open")
    opening = public_texts(kit)[-1]
    assert f"Luck committed: SHA-256 {commitment(SECRET)}." in opening
    assert SECRET not in opening
    kit.say("alice", "join", message_id="join-a")
    kit.say("bob", "join", message_id="join-b")
    game = get_game("bst")
    before = game.codec.decode_state(loads(kit.game().state))
    kit.say("alice", "random", dm=True, message_id="place-a")
    # The random placement is the documented draw: anyone can recompute it.
    rng = luck_rng(SECRET, "accept", "fake", "place-a")
    expected = game.rules.accept(
        before, "p1", game.rules.parse("random"), Channel.PRIVATE, rng
    ).state
    assert loads(kit.game().state) == game.codec.encode_state(expected)
    kit.say("bob", "random", dm=True, message_id="place-b")
    kit.say("alice", "start")
    assert kit.game().luck == mixed_luck(SECRET, ["fake:join-a", "fake:join-b"])
    running = game_record(kit.store, 1)["luck"]
    assert running == {"procedure": "bst-luck/1", "game": 1, "commitment": commitment(SECRET)}
    assert not any(SECRET in text for text in public_texts(kit))
    kit.say("alice", "end")
    # (Revealed in the end post; the standings and the replay follow it.)
    assert any(f"the secret was {SECRET}" in text for text in public_texts(kit))
    revealed = game_record(kit.store, 1)["luck"]
    assert revealed["secret"] == SECRET and revealed["nonces"] == ["fake:join-a", "fake:join-b"]
    assert revealed["key"] == mixed_luck(SECRET, revealed["nonces"])
    assert hashlib.sha256(bytes.fromhex(revealed["secret"])).hexdigest() == revealed["commitment"]
    kit.store.dispose()


def test_another_secret_draws_another_placement(tmp_path: Path) -> None:
    boards = []
    for index, secret in enumerate((SECRET, SECRET, OTHER)):
        (tmp_path / str(index)).mkdir()
        kit = HostKit(tmp_path / str(index), draw_secret=lambda s=secret: s)
        kit.say("alice", "#bst new size=10x10", message_id="open")
        kit.say("alice", "join", message_id="join-a")
        kit.say("alice", "random", dm=True, message_id="place-a")
        boards.append(kit.game().state)
        kit.store.dispose()
    assert boards[0] == boards[1] != boards[2]


def test_a_game_with_seed_draws_and_records_as_before(tmp_path: Path) -> None:
    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.two_player_battle("size=10x10 turn=8h seed=42")
    assert kit.game().secret == "" and kit.game().luck == ""
    assert not any("Luck" in text for text in public_texts(kit))
    assert "luck" not in game_record(kit.store, 1)
    kit.store.dispose()
