"""No circle anywhere: no module of bot/ or renderers/ imports, however indirectly, a
module that imports it back (issue 45). Every import counts, those inside a function and
those for type checking only too: a circle hidden in a function is a circle all the same.
"""

from __future__ import annotations

import sys

import grimp

PACKAGES = ("bot", "renderers")


def _circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in imports[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(imports) + 100))
    try:
        for module in sorted(imports):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_a_circle_is_found() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(imports) == [["a", "b", "c"]]


def test_no_module_of_bot_or_renderers_imports_itself_back() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    imports = {
        module: {
            imported
            for imported in graph.find_modules_directly_imported_by(module)
            if imported.split(".")[0] in PACKAGES
        }
        for module in graph.modules
        if module.split(".")[0] in PACKAGES
    }
    circles = _circles(imports)
    assert circles == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)
