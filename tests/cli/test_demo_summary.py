"""The demo's closing summary names every winner: a U-Boat crew wins together, and the
first of them by name is not the winner alone (issue 42 item 15)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from bot.cli.demo import Demo


def test_the_demo_summary_names_a_whole_winning_crew(tmp_path: Path) -> None:
    console = Console(record=True, width=200)
    fake = SimpleNamespace(
        adapter=SimpleNamespace(files=[]), console=console, out=tmp_path, follow="ann"
    )
    record: dict[str, object] = {"game": {"winners": ["ann", "cy"], "draw": False, "turn": 3}}
    Demo.summary(fake, record, tmp_path / "record.json")  # type: ignore[arg-type]
    assert "Result: ann and cy win after 3 turns." in console.export_text()


def test_the_demo_summary_counts_in_the_games_word(tmp_path: Path) -> None:
    """U-Boat plays rounds: its demo ends "after 12 rounds", not "after 12 turns"."""
    console = Console(record=True, width=200)
    fake = SimpleNamespace(
        adapter=SimpleNamespace(files=[]), console=console, out=tmp_path, follow="ann"
    )
    record: dict[str, object] = {
        "game": {"kind": "uboat", "winners": ["ann"], "draw": False, "turn": 12}
    }
    Demo.summary(fake, record, tmp_path / "record.json")  # type: ignore[arg-type]
    assert "Result: ann wins after 12 rounds." in console.export_text()
