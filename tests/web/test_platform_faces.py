"""The web page and the log set-up read the platforms' declarations; they name none.

Where a game is played (``X thread 123``, with the thread's address) comes from the
platform's face in :mod:`bot.platforms`; the libraries held at INFO and the URLs that
carry a token come from the same declarations. A new platform is one line there.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from bot.config import Config
from bot.host.messages import PlatformFace
from bot.platforms import get_platform
from bot.web.site import where_of

ROOT = Path(__file__).resolve().parents[2]
PLATFORM_WORDS = ("discord", "twitter", "x.com", "tweepy", "mastodon", "bluesky", "webhooks")


def _facts(platform: str, channel: str) -> SimpleNamespace:
    return SimpleNamespace(platform=platform, channel=channel)


def test_a_game_is_placed_by_its_platforms_face() -> None:
    pigeon = PlatformFace("Pigeon Post", lambda loft: f"https://pigeon.example/{loft}")
    faces = {"pigeon": pigeon}
    assert where_of(_facts("pigeon", "harbour"), faces) == (  # type: ignore[arg-type]
        "Pigeon Post thread harbour",
        "https://pigeon.example/harbour",
    )
    # No face (the console, a script): named by its name, no link.
    assert where_of(_facts("console", "c"), faces) == ("console channel c", "")  # type: ignore[arg-type]


def test_the_built_in_faces_place_games_as_the_page_always_did() -> None:
    faces = {
        name: face
        for name in ("discord", "twitter")
        if (declared := get_platform(name)) and (face := declared.face)
    }
    assert where_of(_facts("twitter", "123"), faces) == (  # type: ignore[arg-type]
        "X thread 123",
        "https://x.com/i/status/123",
    )
    assert where_of(_facts("twitter", "room"), faces) == ("X channel room", "")  # type: ignore[arg-type]
    assert where_of(_facts("discord", "55"), faces) == ("Discord channel 55", "")  # type: ignore[arg-type]


def test_bst_web_hands_the_page_every_platforms_face() -> None:
    from bot.cli.web import web_server

    server = web_server(Config(), "sqlite:///:memory:")
    try:
        assert server.app_site.faces["twitter"].title == "X"
        assert server.app_site.faces["discord"].title == "Discord"
    finally:
        server.store.dispose()


def _literals(path: Path) -> list[str]:
    """The string literals of a module, its docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_the_web_page_and_the_logs_name_no_platform() -> None:
    named = [
        f"{module}: {literal!r}"
        for module in ("bot/web/site.py", "bot/logs.py")
        for literal in _literals(ROOT / module)
        if any(word in literal.lower() for word in PLATFORM_WORDS)
    ]
    assert named == [], "read the platform's declaration instead:\n" + "\n".join(named)
