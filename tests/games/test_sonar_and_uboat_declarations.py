"""Sonar's and U-Boat's ``game.py`` are declarations (issue 41): the ``Game`` value and the
parts it names, no logic. Their rules, views and codec are modules of the game's package,
and their words write each sentence, never a method that only hands its arguments on."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import types
from pathlib import Path

import pytest

from bot.games.catalog import get_game

GAMES = ("sonar", "uboat")


@pytest.mark.parametrize("kind", GAMES)
def test_game_py_holds_the_declaration_and_nothing_else(kind: str) -> None:
    source = Path(f"bot/games/{kind}/game.py").read_text(encoding="utf-8")
    statements = ast.parse(source).body
    kinds = {type(statement).__name__ for statement in statements}
    assert kinds <= {"Expr", "ImportFrom", "AnnAssign"}, kinds  # docstring, imports, the Game
    assert sum(isinstance(statement, ast.AnnAssign) for statement in statements) == 1


@pytest.mark.parametrize("kind", GAMES)
def test_rules_views_and_codec_are_the_packages_modules(kind: str) -> None:
    game = get_game(kind)
    for part in (game.rules, game.views, game.codec):
        assert isinstance(part, types.ModuleType)
        assert part.__name__.startswith(f"bot.games.{kind}.")


def _forwards(function: ast.FunctionDef) -> bool:
    """A body that is one call of another function with the function's own arguments."""
    body = [s for s in function.body if not isinstance(s, ast.Expr)]  # (a docstring)
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    call = body[0].value
    own = {argument.arg for argument in function.args.args} - {"self"}
    return (
        isinstance(call, ast.Call)
        and not call.keywords
        and all(isinstance(value, ast.Name) and value.id in own for value in call.args)
    )


@pytest.mark.parametrize("kind", GAMES)
def test_the_words_have_no_forwarders(kind: str) -> None:
    words = type(get_game(kind).words)
    tree = ast.parse(inspect.getsource(words))
    forwarders = [f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and _forwards(f)]
    assert forwarders == []


def test_the_hex_geometry_is_sonars_own_renderer() -> None:
    # By file, not by import: an editable install may still find a module the tree dropped.
    spec = importlib.util.find_spec("renderers.sonar.hexgrid")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin).parent.name == "sonar"
    assert not Path("renderers/hexgrid.py").exists()
