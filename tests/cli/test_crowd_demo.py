"""``bst demo --players N --size S --turns T``: a crowd's game through the real host, timed
phase by phase (issue 33), at a small scale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from bot.cli import crowd_demo

PHASES = [
    "seating",
    "placement",
    "start",
    "start: draw and send",
    "turn 1: orders",
    "turn 1: resolve (the rules alone)",
    "turn 1: resolve, store and outbox",
    "turn 1: draw and send",
    "turn 2: orders",
    "turn 2: resolve (the rules alone)",
    "turn 2: resolve, store and outbox",
    "turn 2: draw and send",
]


def demo(*options: str) -> int:
    args = build_parser().parse_args(["demo", *options])
    result: int = args.func(args)
    return result


def test_a_crowd_plays_its_turns_through_the_host_and_each_phase_is_timed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "crowd"
    assert demo("--players", "200", "--size", "50", "--turns", "2", "--out", str(out)) == 0
    printed = capsys.readouterr().out
    lines = printed.splitlines()
    assert lines[0].startswith("bst demo: 200 captains on 50, 2 turn(s)")
    timed = [line for line in lines[1:-1] if re.search(r"\d+\.\d\d s \(CPU \d+\.\d\d s\)", line)]
    # One line per phase, in order, each with its time and the peak memory so far.
    assert [line[:34].strip() for line in timed] == PHASES
    assert all(re.search(r"peak [\d,]+ MB(; [\d,]+ messages)?$", line) for line in timed)
    assert all(re.search(r"; [1-9][\d,]* messages$", timed[i]) for i in (3, 7, 11))
    assert "200 joins" in timed[0] and "200 placements, first come" in timed[1]
    assert re.search(r"turn 1: orders\s+200 through the host", timed[4])
    assert re.fullmatch(r"all phases [\d.]+ s \(CPU [\d.]+ s\); peak memory [\d,]+ MB", lines[-1])
    # The host posted both turns' results in public and wrote the first captain's DMs.
    public = (out / "public.txt").read_text()
    assert "#bst game 1, turn 1" in public and "#bst game 1, turn 2" in public
    assert "Turn 2" in (out / "dm-ahab.txt").read_text()
    assert any((out / "public").glob("*map.png"))


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--turns", "0"], "--turns must be from 1 to 100 (e.g. --turns 3), got 0"),
        (["--turns", "101"], "--turns must be from 1 to 100"),
        (["--turns", "2", "--players", "1"], "--players must be at least 2"),
        (["--turns", "2", "--size", "3"], "--size '3': size: rows must be from 4"),
        (["--turns", "2", "--size", "1001"], "--size '1001': size: rows must be from 4 to 1000"),
        (
            ["--players", "200", "--size", "30"],
            "--players 200 do not fit on --size 30: at most 90 captains fit there as a crowd; "
            "try --size 45",
        ),
        (
            ["--players", "200000", "--size", "1000"],
            "at most 100,000 captains fit there as a crowd; try fewer --players",
        ),
        (["--turns", "1", "--turn", "8x"], "--turn: expected a duration"),
        (["--turns", "1", "--follow", "nobody"], "--follow 'nobody' is not a captain"),
        (
            ["--game", "sonar", "--turns", "2"],
            "--turns: only bst plays as a crowd (--game bst); the sonar demo plays its game",
        ),
    ],
)
def test_bad_values_are_refused_saying_what_was_expected_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], expected: str
) -> None:
    out = tmp_path / "crowd"
    out.mkdir()
    (out / "public.txt").write_text("an earlier demo's log")
    assert demo("--out", str(out), *options) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert said.startswith("bst demo: ") and expected in said
    assert (out / "public.txt").read_text() == "an earlier demo's log"


@pytest.mark.parametrize(
    ("options", "crowd"),
    [
        ([], False),
        (["--players", "100"], False),
        (["--players", "101"], True),
        (["--turns", "3"], True),
        (["--game", "sonar", "--turns", "3"], True),  # to be refused
        (["--game", "sonar", "--players", "200"], False),
    ],
)
def test_the_crowd_demo_is_asked_for_by_turns_or_a_crowd(options: list[str], crowd: bool) -> None:
    assert crowd_demo.wanted(build_parser().parse_args(["demo", *options])) is crowd


def test_the_defaults_fit_the_crowd(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["demo", "--players", "100000"])
    assert crowd_demo.args_problem(args) is None
    assert (args.turns, args.size) == (3, "1000")
    args = build_parser().parse_args(["demo", "--turns", "2"])
    assert crowd_demo.args_problem(args) is None
    assert (args.players, args.size) == (1000, "100")
