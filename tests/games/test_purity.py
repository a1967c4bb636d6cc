"""The rules are pure (design: no I/O, no clock, no global randomness, no process-wide
state). The import contracts keep platforms, the database and the host out; this reads
the rules' source for what an import contract cannot see."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "bot" / "games"
SOURCES = sorted(GAMES.rglob("*.py"))

FORBIDDEN_MODULES = {"gc", "time", "os", "sys", "threading", "socket", "subprocess", "io"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}
CLOCK_READS = {"now", "utcnow", "today", "fromtimestamp", "time", "monotonic"}


def _problems(path: Path, root: Path = GAMES.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]]
        else:
            names = []
        found += [f"imports {name}" for name in names if name in FORBIDDEN_MODULES]
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                found.append(f"calls {func.id}()")
            if isinstance(func, ast.Attribute):
                if func.attr in CLOCK_READS:
                    found.append(f"reads a clock: .{func.attr}()")
                owner = func.value
                if isinstance(owner, ast.Name) and owner.id == "random" and func.attr != "Random":
                    found.append(f"uses the global random source: random.{func.attr}()")
    return [f"{path.relative_to(root)}:{problem}" for problem in found]


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_rules_module_is_pure(path: Path) -> None:
    assert _problems(path) == []


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    impure = tmp_path / "impure.py"
    impure.write_text(
        "import gc\nimport random\nfrom datetime import datetime\n"
        "x = datetime.now()\ny = random.choice([1])\nz = random.Random(1)\nprint(x)\n"
    )
    assert [p.split(":", 1)[1] for p in _problems(impure, tmp_path)] == [
        "imports gc",
        "reads a clock: .now()",
        "uses the global random source: random.choice()",
        "calls print()",
    ]
