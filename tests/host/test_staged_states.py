"""A batch of placements to one game encodes and writes its state once, not once each
(Tx.stage_game_state): a crowd's state is tens of megabytes, and one placement at a time
could not keep up with a crowd placing its fleets. What a batch stages is what the next
message of the batch reads, what a command that loads the game sees, what commits, and
what a message that fails takes back with it."""

from __future__ import annotations

from typing import Any

import pytest
from host_fakes import HostKit

from bot.games.bst import codec
from bot.games.catalog import get_game
from bot.host.play import orders
from bot.store import PlayerRow, loads

FLEETS = {
    "alice": "sub: A2\ncarrier: C1-C5",
    "bob": "cruiser: F1-F3, cruiser: J8-J10",
    "carol": "sub: H2\ncarrier: E6-E10",
}


def _opened(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h")
    for name in FLEETS:
        kit.say(name, "join")


def _stored_state(kit: HostKit) -> Any:
    with kit.store.transaction() as tx:
        row = tx.latest_game_in("fake", "chan")
        assert row is not None
        return row, get_game("bst").codec.decode_state(loads(row.state))


def _placed(state: Any) -> dict[str, int]:
    return {captain.name: len(captain.ships) for captain in state.captains}


def _encodings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counted: list[int] = []
    encode = codec.encode_state

    def counting(state: Any) -> dict[str, Any]:
        counted.append(1)
        return encode(state)

    monkeypatch.setattr(codec, "encode_state", counting)
    return counted


def test_a_batch_of_placements_writes_the_games_state_once(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    _opened(kit)
    encodings = _encodings(monkeypatch)
    batch = [kit.inbound(name, fleet, dm=True) for name, fleet in FLEETS.items()]
    results = kit.host.commands.handle_many(batch)
    assert [getattr(result, "outcome", result).value for result in results] == ["handled"] * 3
    assert len(encodings) == 1  # three placements, one state written
    row, state = _stored_state(kit)
    assert _placed(state) == {"alice": 2, "bob": 2, "carol": 2}
    assert row.state_digest is not None and not row.state_digest.startswith("staged")


def test_a_command_that_loads_the_game_sees_what_the_batch_staged(kit: HostKit) -> None:
    _opened(kit)
    batch = [kit.inbound(name, fleet, dm=True) for name, fleet in FLEETS.items()]
    batch.append(kit.inbound("alice", "start"))  # the host's `start` loads the game's row
    kit.host.commands.handle_many(batch)
    row, state = _stored_state(kit)
    assert row.phase == "battle"
    assert _placed(state) == {"alice": 2, "bob": 2, "carol": 2}  # nobody left out


def test_a_message_that_fails_after_staging_takes_back_only_its_own_state(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    _opened(kit)
    answer = orders._answer

    def failing(commands: Any, tx: Any, given: Any, *rest: Any) -> None:
        if given.row.user_id == "id-bob":
            raise RuntimeError("a fault after bob's placement was staged")
        answer(commands, tx, given, *rest)

    monkeypatch.setattr(orders, "_answer", failing)
    batch = [kit.inbound(name, fleet, dm=True) for name, fleet in FLEETS.items()]
    outcomes = [getattr(r, "outcome", r).value for r in kit.host.commands.handle_many(batch)]
    assert outcomes == ["handled", "failed", "handled"]
    _, state = _stored_state(kit)
    assert _placed(state) == {"alice": 2, "bob": 0, "carol": 2}


def test_a_read_of_the_game_in_the_same_transaction_sees_its_staged_state(kit: HostKit) -> None:
    _opened(kit)
    written: list[str] = []
    with kit.store.transaction() as tx:
        snapshot = tx.game_in("fake", "chan")
        assert snapshot is not None
        staged = tx.stage_game_state(snapshot, "staged", lambda s: f'"{s}"', written.append)
        token = staged.state_digest
        assert token not in (None, snapshot.state_digest) and not written  # nothing written yet
        loaded = tx.game(snapshot.id)
        assert loaded is not None and loaded.state_digest == token
        assert loaded.state == '"staged"' and len(written) == 1  # the text, asked for: written
        assert loaded.stored_digest() == written[0]
        again = tx.stage_game_state(loaded, "again", lambda s: f'"{s}"', written.append)
        assert again.state == '"again"'  # the text, asked for: written first
    with kit.store.transaction() as tx:
        assert tx.game(snapshot.id).state == '"again"'  # type: ignore[union-attr]
    assert len(written) == 2


def test_what_is_staged_is_written_when_the_transaction_commits(kit: HostKit) -> None:
    _opened(kit)
    with kit.store.transaction() as tx:
        snapshot = tx.game_in("fake", "chan")
        assert snapshot is not None
        tx.stage_game_state(snapshot, "last", lambda s: f'"{s}"', lambda _digest: None)
    with kit.store.transaction() as tx:
        assert tx.game(snapshot.id).state == '"last"'  # type: ignore[union-attr]


def test_a_staged_state_is_written_with_the_orms_unwritten_rows_before_a_read_of_games(
    kit: HostKit,
) -> None:
    """The ORM holding rows not yet written when a statement about games writes the staged
    state first: both are written, neither lost."""
    _opened(kit)
    with kit.store.transaction() as tx:
        snapshot = tx.game_in("fake", "chan")
        assert snapshot is not None
        tx.stage_game_state(snapshot, "both", lambda s: f'"{s}"', lambda _digest: None)
        tx.session.add(PlayerRow(game_id=snapshot.id, key="p9", platform="fake",
                                 user_id="id-dora", name="dora", join_order=9))  # fmt: skip
        assert tx.game(snapshot.id).state == '"both"'  # type: ignore[union-attr]
    with kit.store.transaction() as tx:
        assert tx.game(snapshot.id).state == '"both"'  # type: ignore[union-attr]
        assert [p.name for p in tx.players(snapshot.id)][-1] == "dora"
