"""A join costs the same in a game of any size (issue 24 item 9): it reads no other
player's row (it used to load every player of the game to count them and check the name,
so joining slowed as the game grew). Counted in rows loaded, not timed: the figures are
the benchmarks' (design rule 12)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from host_fakes import HostKit
from sqlalchemy import event

from bot.host.messages import Sender
from bot.store import Tx
from bot.store.models import PlayerRow


@contextmanager
def player_rows_loaded() -> Iterator[list[object]]:
    loaded: list[object] = []

    def on_load(target: object, context: object) -> None:
        loaded.append(target)

    event.listen(PlayerRow, "load", on_load)
    try:
        yield loaded
    finally:
        event.remove(PlayerRow, "load", on_load)


def test_a_join_reads_no_other_players_row_however_big_the_game(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    commands = kit.host.commands
    commands.handle(kit.inbound("host", "#bst new size=60x60 turn=8h"))
    for n in range(300):
        commands.handle(kit.inbound(f"captain{n}", "join"))
    with player_rows_loaded() as loaded:
        commands.handle(kit.inbound("latecomer", "join"))
        commands.handle(kit.inbound("captain7", "join", channel="chan"))  # already in
    assert len(loaded) <= 2  # at most the sender's own row, per message
    with kit.store.transaction() as tx:
        players = tx.players(1)
    assert len(players) == 301
    assert (players[-1].key, players[-1].join_order, players[-1].name) == ("p301", 301, "latecomer")


def test_a_taken_name_still_gets_a_number(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    commands = kit.host.commands
    commands.handle(kit.inbound("host", "#bst new size=20x20 turn=8h"))
    for n, name in enumerate(("a_b", "a_b", "a%b", "a_b", "A_B")):
        inbound = kit.inbound(name, "join")
        commands.handle(replace(inbound, sender=Sender("fake", f"user{n}", name)))
    with kit.store.transaction() as tx:
        names = [p.name for p in tx.players(1)]
    assert names == ["a_b", "a_b-2", "a%b", "a_b-3", "A_B"]


def test_a_placement_answered_to_its_sender_reads_no_other_players_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A placement's notice goes to its sender alone, so its answer reads no other player
    (it read every player of the game: a fifth of a placement's time in a crowd)."""
    kit = HostKit(tmp_path)
    commands = kit.host.commands
    commands.handle(kit.inbound("host", "#bst new size=60x60 turn=8h"))
    for n in range(50):
        commands.handle(kit.inbound(f"captain{n}", "join"))

    def every_player(*_args: object) -> None:
        raise AssertionError("the placement's answer read every player of the game")

    monkeypatch.setattr(Tx, "players", every_player)
    commands.handle(kit.inbound("captain7", "random", dm=True))
    with kit.store.transaction() as tx:
        answers = [row for row in tx.outbox() if "Placed at random" in row.text]
    assert [row.recipient for row in answers] == ["fake:id-captain7"]
