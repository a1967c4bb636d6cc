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


def test_the_help_texts_name_the_games_of_the_catalog_not_a_list_of_their_own() -> None:
    """A game registered only by the tests (Tug) is offered by ``--game`` and described
    in ``bst --help``; the help texts name no game the catalog does not hold."""
    from bot.games.catalog import register, unregister
    from tests.tug import TUG

    register(TUG)
    try:
        parser = entry.build_parser()
        described = " ".join(parser.format_help().split())
        demo = parser.parse_args(["demo"])
        sub = next(a for a in parser._actions if a.dest == "command")
        demo_help = sub.choices["demo"].format_help()  # type: ignore[attr-defined]
    finally:
        unregister("tug")
    assert "tug (Tug)" in described and "bst (BattleshipTwitter)" in described
    assert "tug" in " ".join(demo_help.split())
    assert demo.turn is None and demo.players is None  # each game's own defaults
    source = Path(entry.__file__).read_text(encoding="utf-8")
    for name in ("sonar", "uboat", "sugardog", "silentships"):
        assert name not in source
