"""A game's state is stored with its digest (``games.state_digest``), and a message to a
game whose state the host has decoded already does not read that state again: a crowd's
state is tens of megabytes, and reading it for every one of 100,000 orders was most of
the time they took."""

from __future__ import annotations

import json
from typing import Any

import pytest
from host_fakes import HostKit

from bot.games.catalog import get_game
from bot.host.play.states import States
from bot.store import Tx, dumps, records, state_digest


def _stored(kit: HostKit) -> records.Game:
    with kit.store.transaction() as tx:
        row = tx.latest_game_in("fake", "chan")
        assert row is not None
        return row


def _refuse(what: str) -> Any:
    def refused(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError(f"the order read {what}")

    return refused


def test_every_write_of_a_games_state_writes_its_digest(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h")  # a new game: the ORM inserts it
    opened = _stored(kit)
    assert opened.state_digest == state_digest(opened.state)
    kit.say("alice", "join")  # the ORM updates it
    joined = _stored(kit)
    assert joined.state != opened.state and joined.state_digest == state_digest(joined.state)
    kit.say("bob", "join")
    kit.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)  # a placement: Tx.set_game_state
    placed = _stored(kit)
    assert placed.state != joined.state
    assert placed.state_digest == state_digest(placed.state)


def test_an_order_to_a_game_whose_state_is_known_reads_neither_its_state_nor_its_row(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit.two_player_battle()
    kit.say("alice", "#bst F3")  # the host decodes the battle's state once
    monkeypatch.setattr(Tx, "_state_of", _refuse("the game's state"))
    monkeypatch.setattr(Tx, "game", _refuse("the game's whole row"))
    kit.say("bob", "#bst B2")
    kit.say("alice", "#bst F4")  # a new order replaces the standing one
    with kit.store.transaction() as tx:
        game = tx.latest_game_in("fake", "chan")
        assert game is not None and game.id is not None
        standing = tx.standing_orders(game.id, game.turn)
    assert {key: order.text for key, order in standing.items()} == {
        "p1": "#bst F4",
        "p2": "#bst B2",
    }


class _Row:
    """A game row as the cache sees one: its id, its state and the digest stored with it."""

    def __init__(self, state: str, digest: str | None) -> None:
        self.id = 7
        self.state_digest = digest
        self.reads = 0
        self._state = state

    @property
    def state(self) -> str:
        self.reads += 1
        return self._state

    def stored_digest(self) -> str | None:
        return self.state_digest


def test_the_cache_serves_a_state_only_while_its_digest_is_the_one_stored() -> None:
    game = get_game("bst")
    first = dumps(game.codec.encode_state(game.rules.new_game({"size": "10x10"})))
    second = dumps(game.codec.encode_state(game.rules.new_game({"size": "12x12"})))
    states = States()
    decoded = states.of(game, _Row(first, state_digest(first)))
    again = _Row(first, state_digest(first))
    assert states.of(game, again) is decoded and again.reads == 0  # known: not read
    changed = _Row(second, state_digest(second))  # another process wrote the state
    fresh = states.of(game, changed)
    assert changed.reads == 1 and fresh is not decoded
    assert json.loads(dumps(game.codec.encode_state(fresh))) == json.loads(second)
    old = _Row(second, None)  # written before the digest existed: computed from the state
    assert states.of(game, old) is fresh and old.reads == 1


class _Staged(_Row):
    """A record whose state was staged: reading its text writes it, and its token gives
    way to the written state's digest (as Tx.stage_game_state and Game.stored_digest do)."""

    written: str | None = None

    @property
    def state(self) -> str:
        self.reads += 1
        self.written = state_digest(self._state)
        return self._state

    def stored_digest(self) -> str | None:
        return self.written or self.state_digest


def test_a_staged_state_read_afresh_is_kept_under_its_written_digest() -> None:
    game = get_game("bst")
    text = dumps(game.codec.encode_state(game.rules.new_game({"size": "10x10"})))
    states = States()
    decoded = states.of(game, _Staged(text, "staged:1:1"))  # its token unknown: read
    later = _Row(text, state_digest(text))  # the next transaction's snapshot
    assert states.of(game, later) is decoded and later.reads == 0
