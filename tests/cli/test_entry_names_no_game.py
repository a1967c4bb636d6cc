"""The ``bst`` command's entry point loads the games through the catalog, never one game's
package by name (issue 32), so a game added to the catalog needs no line here."""

import ast
from pathlib import Path

import bot.__main__ as entry


def test_the_entry_point_imports_no_game_package() -> None:
    tree = ast.parse(Path(entry.__file__).read_text(encoding="utf-8"))
    imported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    games = [
        name for name in imported if name.startswith("bot.games.") and name != "bot.games.catalog"
    ]
    assert "bot.games.catalog" in imported
    assert games == [
        name for name in games if name.split(".")[2] in {"base", "duration", "numbers"}
    ]
