"""No dead function in bot/ or renderers/: every function defined there is named
somewhere in bot/, renderers/, benchmarks/ or the example game Tug besides its own
definition.

A name is "used" when it appears as a name, an attribute, an imported name or a word of
a string (``getattr(self, work)`` dispatches by a string). Hooks a framework calls by its
own name, and the few functions only tests reach on purpose, are listed below with why.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Called by a library under a name it chooses: HTMLParser, Mastodon.py's stream
# listener, Alembic's migrations, SQLAlchemy's event listeners.
FRAMEWORK_HOOKS = frozenset(
    {
        "handle_starttag",
        "handle_data",
        "on_notification",
        "on_abort",
        "on_unknown_event",
        "upgrade",
        "downgrade",
    }
)
# Reached by tests on purpose: a registry's undo for the platform, game or pictures a
# test registers, a live object's measure a test reads, the web server's site.
FOR_TESTS = frozenset({"unregister", "held_bytes", "shared_chunks", "app_site"})
# Left for the store's rewrite into records (issue 45), which owns these modules.
LEFT_TO_THE_STORE = frozenset({"forget_all", "add_inbound"})
# Tested helpers of the rules and pictures whose live path computes the same otherwise
# (hexgrid.first_column); kept while their tests state the rule.
STATED_BY_TESTS = frozenset({"window_start", "end_labels", "centre_in"})


def _modules(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]


def _used_names(paths: list[Path]) -> Counter[str]:
    used: Counter[str] = Counter()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name):
                used[node.id] += 1
            elif isinstance(node, ast.Attribute):
                used[node.attr] += 1
            elif isinstance(node, ast.ImportFrom):
                used.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                used.update(re.findall(r"[A-Za-z_]\w*", node.value))
    return used


def _registered(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function a decorator hands to a library (``@event.listens_for(...)``)."""
    return any(isinstance(decorator, ast.Call) for decorator in node.decorator_list)


def test_every_function_in_bot_and_renderers_is_called_from_them() -> None:
    # Tug (tests/tug) is a whole game kept beside the tests to show what a new game
    # takes: what it calls of the games' neutral defaults is what any game may call.
    used = _used_names(_modules("bot", "renderers", "benchmarks", "tests/tug"))
    allowed = FRAMEWORK_HOOKS | FOR_TESTS | LEFT_TO_THE_STORE | STATED_BY_TESTS
    dead = []
    for path in _modules("bot", "renderers"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            name = node.name
            if (name.startswith("__") and name.endswith("__")) or name in allowed:
                continue
            if used[name] == 0 and not _registered(node):
                dead.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert dead == [], "nothing calls these; remove them:\n" + "\n".join(dead)
