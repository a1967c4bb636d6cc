"""``bst verify`` on hostile records (issue 39 item 11): a file that is not a record bst can
read — too large, nested deep, parts of the wrong kind — exits 2 saying what is wrong
(exit 1 is a record that reads and does not check out), in bounded time and memory; and
an entry's ``at`` edited against the host's own rules of time does not pass."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from host_fakes import COMMITTED_SECRET, short_finished_game_record

from bot.__main__ import main
from bot.cli import verify as verifying
from bot.cli.verify import BadRecord, Mismatch, read_record, verify

SECRET = COMMITTED_SECRET


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return short_finished_game_record(tmp_path_factory.mktemp("hostile"))


def run(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    code = main(["verify", str(path)])
    return code, capsys.readouterr().err


def test_deep_nesting_exits_2_before_it_is_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: RecursionError in the parser, "unexpected error", exit 1 (a mismatch's code).
    code, said = run(tmp_path, "[" * 200_000 + "]" * 200_000, capsys)
    assert code == 2
    assert "nested more than 32 deep" in said and "unexpected" not in said
    # Inside a record's own part too, and brackets inside strings do not count.
    code, said = run(
        tmp_path, json.dumps({"game": {"kind": "[[[[" * 50}, "x": [[[[[[1]]]]]]}), capsys
    )
    assert code == 0 and "nested" not in said, said


@pytest.mark.parametrize(
    ("where", "value", "named"),
    [
        (("turns",), {"a": 1}, "turns: expected a list, got an object"),
        (("turns", 0), "x", "turns[0]: expected an object, got a text"),
        (("players",), 7, "players: expected a list, got a number"),
        (("luck",), [], "luck: expected an object, got a list"),
        (("luck", "receipts", 0, "turn"), "1", "luck.receipts[0].turn: expected a whole number"),
        (("luck", "receipts", 0, "turn"), True, "luck.receipts[0].turn: expected a whole number"),
        (("luck", "roots"), [], "luck.roots: expected an object"),
        (("luck", "nonces"), {"a": 1}, "luck.nonces: expected a list"),
        (("replay",), "x", "replay: expected an object, got a text"),
        (("replay", "journal"), {"do": "new"}, "replay.journal: expected a list"),
        (("replay", "journal", 3), [1, 2], "replay.journal[3]: expected an object, got a list"),
        (("replay", "journal", 3, "player"), 5, "replay.journal[3].player: expected a text"),
        (("replay", "journal", 3, "draw"), "accept", "replay.journal[3].draw: expected a list"),
        (("replay", "journal", 3, "at"), "noon", "replay.journal[3].at: expected a whole number"),
        (("replay", "journal", 0, "options"), [], "replay.journal[0].options: expected an object"),
        (("game", "kind"), ["bst"], "game.kind: expected a text, got a list"),
        (("replay", "deadlines"), [], "replay.deadlines: expected an object"),
    ],
)
def test_a_part_of_the_wrong_kind_exits_2_naming_it(
    record: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: tuple[Any, ...],
    value: Any,
    named: str,
) -> None:
    bad = copy.deepcopy(record)
    part = bad
    for key in where[:-1]:
        part = part[key]
    part[where[-1]] = value
    code, said = run(tmp_path, json.dumps(bad), capsys)
    assert code == 2, said
    assert named in said
    assert "unexpected" not in said and "MISMATCH" not in said


def test_a_journal_entry_without_a_call_or_an_infinite_moment_exits_2(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = copy.deepcopy(record)
    del bad["replay"]["journal"][2]["do"]
    code, said = run(tmp_path, json.dumps(bad), capsys)
    assert code == 2 and "replay.journal[2]: expected a call" in said
    bad = copy.deepcopy(record)
    bad["replay"]["journal"][3]["at"] = 1e400  # json.dumps writes Infinity
    code, said = run(tmp_path, json.dumps(bad), capsys)
    assert code == 2 and "Infinity is not a JSON number" in said


def test_a_record_too_large_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verifying, "MAX_RECORD_BYTES", 1000)
    code, said = run(tmp_path, json.dumps({"turns": ["x" * 2000]}), capsys)
    assert code == 2 and "2,015 bytes; a record bst verifies is at most 1,000 bytes" in said


def test_read_record_names_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(BadRecord, match="expected a game record"):
        read_record(path)
    path.write_text("[1, 2]")
    with pytest.raises(BadRecord, match="a JSON object\\), got a list"):
        read_record(path)
    with pytest.raises(BadRecord, match="cannot be read"):
        read_record(tmp_path / "missing.json")


def _accepts(record: dict[str, Any], text: str) -> dict[str, Any]:
    return next(e for e in record["replay"]["journal"] if e.get("text") == text)


def test_an_order_dated_after_its_turn_closed_does_not_pass(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    closed = next(e for e in bad["replay"]["journal"] if e["do"] == "expire")
    _accepts(bad, "F1")["at"] = closed["at"] + 60
    with pytest.raises(Mismatch, match=r"journal entry 9 \(expire\): the turn closed at"):
        verify(bad, lambda _: None)


def test_an_order_dated_before_its_turn_opened_does_not_pass(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    _accepts(bad, "move carrier at C1 1 right")["at"] -= 3600
    with pytest.raises(Mismatch, match=r"\(accept\): at .*, before its turn opened at"):
        verify(bad, lambda _: None)
    bad = copy.deepcopy(record)
    _accepts(bad, "C1")["at"] -= 1
    with pytest.raises(Mismatch, match="before its turn opened"):
        verify(bad, lambda _: None)


def test_a_timer_dated_before_its_turn_opened_does_not_pass(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = copy.deepcopy(record)
    start = next(e for e in bad["replay"]["journal"] if e["do"] == "start")
    next(e for e in bad["replay"]["journal"] if e["do"] == "expire")["at"] = start["at"] - 1
    code, said = run(tmp_path, json.dumps(bad), capsys)
    assert code == 1 and "MISMATCH: journal entry" in said


def test_the_record_as_written_still_checks_out(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = run(tmp_path, json.dumps(record), capsys)
    assert code == 0, said
