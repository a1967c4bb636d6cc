"""``bst verify`` (issue 31): a finished game's record checks out from itself alone, and
each way of tampering with it — an order, a salt, a receipt, a root, the secret, the
commitment, a join nonce — is caught by a message that names it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from host_fakes import HostKit

from bot.__main__ import main
from bot.cli.verify import Mismatch, verify
from bot.host.record import game_record

SECRET = "5a" * 32


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    kit = HostKit(tmp_path_factory.mktemp("verify"), draw_secret=lambda: SECRET)
    kit.two_player_battle()
    kit.say("alice", "#bst F1", message_id="shot-a")
    kit.say("bob", "#bst C1", message_id="shot-b")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    kit.say("alice", "move carrier at C1 1 right", dm=True, message_id="move-a")
    kit.say("alice", "end")
    found = game_record(kit.store, 1)
    kit.store.dispose()
    return found


def checked(record: dict[str, Any], wanted: str = "") -> list[str]:
    said: list[str] = []
    verify(record, said.append, wanted)
    return said


def test_a_finished_games_record_checks_out(record: dict[str, Any]) -> None:
    said = checked(record)
    assert said[0].startswith("ok: the secret's SHA-256 is the commitment")
    assert any("receipts recomputed" in line for line in said)
    assert any("turn roots recomputed" in line for line in said)
    assert said[-1].startswith("not checked: replaying the game")  # says what it does not do
    assert len(record["luck"]["receipts"]) >= 3


def test_a_players_receipt_is_found_by_its_first_digits(record: dict[str, Any]) -> None:
    mine = record["luck"]["receipts"][0]
    said = checked(record, mine["receipt"][:10])
    assert f"is {mine['player']}'s order of turn {mine['turn']}" in said[-2]
    with pytest.raises(Mismatch, match="not among the receipts"):
        checked(record, "00000000")
    with pytest.raises(Mismatch, match="at least 8"):
        checked(record, mine["receipt"][:4])


def _tamper(record: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    luck = bad["luck"]
    entry = next(e for e in luck["receipts"] if e["turn"] == 1)
    if how == "order":
        entry["order"] = {**entry["order"], "cell": "J10"}
    elif how == "salt":
        entry["salt"] = "00" + entry["salt"][2:]
    elif how == "short salt":
        entry["salt"] = entry["salt"][:62]
    elif how == "receipt":
        entry["receipt"] = "0" * 64
    elif how == "root":
        luck["roots"]["1"] = "f" * 64
    elif how == "secret":
        luck["secret"] = "a5" * 32
    elif how == "commitment":
        luck["commitment"] = "0" * 64
    elif how == "nonce":
        luck["nonces"][0] = "fake:someone-else"
    return bad


@pytest.mark.parametrize(
    ("how", "named"),
    [
        ("order", r"turn 1, p\d: the receipt .* is not that of the order"),
        ("salt", r"turn 1, p\d: the receipt"),
        ("short salt", r"turn 1, p\d: salt: expected 32 bytes"),
        ("receipt", r"turn 1, p\d: the receipt 0{64}"),
        ("root", r"turn 1: the root f{64} is not that of its receipts"),
        ("secret", r"secret: its SHA-256 is .*, not the commitment"),
        ("commitment", r"not the commitment 0{64}"),
        ("nonce", r"key: the secret mixed with the 2 join nonces"),
    ],
)
def test_each_tampering_is_caught_and_named(record: dict[str, Any], how: str, named: str) -> None:
    with pytest.raises(Mismatch, match=named):
        checked(_tamper(record, how))


def test_the_command_exits_1_naming_the_mismatch_and_0_when_it_checks_out(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(_tamper(record, "root")))
    assert main(["verify", str(good)]) == 0
    assert "ok: the secret's SHA-256" in capsys.readouterr().out
    assert main(["verify", str(bad)]) == 1
    assert "MISMATCH: turn 1: the root" in capsys.readouterr().err
    (tmp_path / "junk.json").write_text("not json")
    assert main(["verify", str(tmp_path / "junk.json")]) == 2
    assert "expected a game record" in capsys.readouterr().err


def test_a_record_without_luck_says_what_it_cannot_check() -> None:
    said = checked({"format": "bst-record/1", "game": {"id": 1}, "turns": []})
    assert said == [
        "not checked: this record has no committed luck (a game opened with seed=, or "
        "before bst committed its luck), so there is no seed or receipt to check"
    ]
    with pytest.raises(Mismatch, match="no receipts"):
        checked({"format": "bst-record/1"}, "abcdef12")
