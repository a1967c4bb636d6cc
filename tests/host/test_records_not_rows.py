"""The host and the web page read one frozen record per table and never an ORM row
(issue 45): no module of bot/host or bot/web names a table class of bot.store.models,
however it reaches it (``bot.store.models``, or a name ``bot.store`` passes on). The
import contract in pyproject.toml keeps out ``import bot.store.models``; this test keeps
out the names themselves."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from sqlmodel import SQLModel

from bot.store import models

ROOT = Path(__file__).resolve().parents[2]


def _table_classes() -> set[str]:
    return {
        name
        for name, value in inspect.getmembers(models, inspect.isclass)
        if issubclass(value, SQLModel)
        and value is not SQLModel
        and value.__module__ == models.__name__
    }


def _names_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.name.rpartition(".")[2])
    return found


def test_the_table_classes_are_known() -> None:
    assert {"GameRow", "OfferRow", "RatingRow", "PlayerSettingsRow", "WebLinkRow"} <= (
        _table_classes()
    )


def test_no_module_of_the_host_or_the_web_names_an_orm_class() -> None:
    tables = _table_classes()
    named = {
        str(path.relative_to(ROOT)): sorted(_names_in(path) & tables)
        for folder in ("bot/host", "bot/web")
        for path in sorted((ROOT / folder).rglob("*.py"))
    }
    assert {path: names for path, names in named.items() if names} == {}
