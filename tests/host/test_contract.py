"""The `bst script` command, driven from outside exactly as
shared/contracts/script-and-record.md says (a subprocess, real renderers)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "games" / "bst" / "scripts"
LINE = re.compile(r"^-> (public|dm [A-Za-z0-9_-]+): (.*?)((?: \[(?:image|video): [^\]]+\])*)$")
ATTACHMENT = re.compile(r" \[(image|video): ([^\]]+)\]")


def bst_script(script: Path, out: Path, record: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "script",
            str(script),
            "--record",
            str(record),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.fixture(scope="module")
def finished_runs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The same finished game played twice (maps, boards, replay video)."""
    runs = []
    for n in range(2):
        base = tmp_path_factory.mktemp(f"run{n}")
        done = bst_script(SCRIPTS / "s5_3_max_turns_draw.txt", base / "out", base / "record.json")
        runs.append({"base": base, "done": done})
    return runs


def test_contract_output_lines_and_attachments_exist(finished_runs: list[dict[str, Any]]) -> None:
    run = finished_runs[0]
    done, out = run["done"], run["base"] / "out"
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines
    kinds = set()
    for line in lines:
        assert LINE.match(line), line
        for kind, path in ATTACHMENT.findall(line):
            kinds.add(kind)
            file = Path(path)
            assert file.is_file() and file.stat().st_size > 0, path
            assert file.resolve().is_relative_to(out.resolve()), path
    assert kinds == {"image", "video"}
    assert any(line.startswith("-> dm carol: ") for line in lines)
    # a multi-line message is one output line, its breaks written as \n
    assert any("\\n" in line for line in lines)
    png = [p for p in out.iterdir() if p.suffix == ".png"]
    assert png and png[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_contract_deterministic_transcript_record_and_bytes(
    finished_runs: list[dict[str, Any]],
) -> None:
    first, second = finished_runs
    assert first["done"].returncode == second["done"].returncode == 0

    def normal(run: dict[str, Any]) -> str:
        return run["done"].stdout.replace(str(run["base"] / "out"), "OUT")

    assert normal(first) == normal(second)
    assert (first["base"] / "record.json").read_bytes() == (
        second["base"] / "record.json"
    ).read_bytes()
    names = sorted(p.name for p in (first["base"] / "out").iterdir())
    assert names == sorted(p.name for p in (second["base"] / "out").iterdir())
    for name in names:
        a = (first["base"] / "out" / name).read_bytes()
        b = (second["base"] / "out" / name).read_bytes()
        assert a == b, f"{name} differs between two runs"


def test_contract_record_of_a_finished_game(finished_runs: list[dict[str, Any]]) -> None:
    record = json.loads((finished_runs[0]["base"] / "record.json").read_text(encoding="utf-8"))
    assert record["format"] == "bst-record/1"
    game = record["game"]
    assert {"kind", "rows", "cols", "options", "phase", "turn", "winners", "draw"} <= set(game)
    assert (game["kind"], game["rows"], game["cols"]) == ("bst", 10, 10)
    assert game["options"]["turn"] == "8h"
    # finished: the last turn resolved, not one more
    assert (game["phase"], game["turn"], game["draw"]) == ("finished", 2, True)
    assert [t["number"] for t in record["turns"]] == [1, 2]
    assert record["turns"][-1]["events"][-1]["type"] == "finished"


def test_contract_played_script_with_refusals_exits_zero(tmp_path: Path) -> None:
    done = bst_script(SCRIPTS / "s4_order_refusals.txt", tmp_path / "out", tmp_path / "r.json")
    assert done.returncode == 0, done.stderr
    assert "shots are public" not in done.stdout  # none in this script
    assert "would take it off the 10x10 board" in done.stdout
    assert (tmp_path / "r.json").is_file()


def test_contract_unreadable_script_names_the_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("@game bst size=8x8\nalice dm: join\nthis is not a line\n", encoding="utf-8")
    done = bst_script(script, tmp_path / "out", tmp_path / "r.json")
    assert done.returncode != 0
    assert "line 3" in done.stderr
    assert done.stdout == ""  # nothing ran


def test_contract_record_shape_and_ordering_during_battle(tmp_path: Path) -> None:
    done = bst_script(SCRIPTS / "s5_2_several_shooters.txt", tmp_path / "out", tmp_path / "r.json")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in record["players"]] == ["dave", "carol", "bob", "alice"]  # join order
    for captain in record["players"]:
        assert captain["status"] in ("alive", "eliminated", "left")
        for ship in captain["ships"]:
            assert set(ship) >= {"kind", "cells", "damaged", "destroyed"}
            for key in ("cells", "damaged"):
                order = [
                    (
                        len(c.rstrip("0123456789")),
                        c.rstrip("0123456789"),
                        int(c.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")),
                    )
                    for c in ship[key]
                ]
                assert order == sorted(order), ship
    (turn,) = record["turns"]
    assert [o["player"] for o in turn["orders"]] == ["alice", "bob", "carol", "dave"]
    assert [e["player"] for e in turn["events"]] == ["alice", "bob", "carol", "dave"]
    game = record["game"]
    assert (game["phase"], game["turn"], game["winners"], game["draw"]) == ("battle", 2, [], False)


def test_contract_setup_record_and_close_without_deadline(tmp_path: Path) -> None:
    script = tmp_path / "setup.txt"
    script.write_text(
        "@game bst size=8x8\nalice dm: join\nbob dm: join\n@close\n@close\n", encoding="utf-8"
    )
    done = bst_script(script, tmp_path / "out", tmp_path / "r.json")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 3  # the opening post and two joins: @close said nothing
    record = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    game = record["game"]
    assert (game["phase"], game["turn"], game["winners"], game["draw"]) == ("setup", 0, [], False)
    assert record["turns"] == []
    assert [p["name"] for p in record["players"]] == ["alice", "bob"]


def test_contract_close_while_paused_does_nothing(tmp_path: Path) -> None:
    script = tmp_path / "paused.txt"
    script.write_text(
        "@game bst size=8x8\nalice dm: join\nalice dm: random\nbob dm: join\nbob dm: random\n"
        "@start\n@host pause\n@close\n@close\n",
        encoding="utf-8",
    )
    done = bst_script(script, tmp_path / "out", tmp_path / "r.json")
    assert done.returncode == 0, done.stderr
    assert "paused" in done.stdout.splitlines()[-1]
    record = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert record["turns"] == [] and record["game"]["turn"] == 1
