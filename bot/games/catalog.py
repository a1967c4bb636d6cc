"""The registered games, by name and by tag.

A game is registered once, by the line that names it below; tests may register a
game of their own with :func:`register`. The host finds a game for ``new KIND``
and ``@game KIND`` by name, and a public message's game by its tag (``#sonar``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.games.base import Game, OptionError

_REGISTRY: dict[str, Game[Any, Any]] = {}
_TAGS: list[re.Pattern[str]] = []  # the pattern of the registered tags, made once


def register(game: Game[Any, Any]) -> None:
    """Make a game available to the host under its name and tag."""
    _REGISTRY[game.name] = game
    _TAGS.clear()


def unregister(name: str) -> None:
    """Forget a game (tests that registered one of their own)."""
    _REGISTRY.pop(name, None)
    _TAGS.clear()


def get_game(name: str) -> Game[Any, Any]:
    """The game registered as ``name`` (raises OptionError listing the known ones)."""
    try:
        return _REGISTRY[name.lower()]
    except KeyError:
        raise OptionError(
            f"unknown game {name!r}: expected one of {', '.join(game_names())}"
        ) from None


def game_names() -> Sequence[str]:
    return sorted(_REGISTRY)


def games() -> Sequence[Game[Any, Any]]:
    return [_REGISTRY[name] for name in game_names()]


def example_game() -> Game[Any, Any] | None:
    """The game to name in the examples of a message that must name no game of its own: the
    first registered by name, so the example is always a game this host plays."""
    names = game_names()
    return _REGISTRY[names[0]] if names else None


def tag_pattern() -> re.Pattern[str]:
    """Any registered game's tag as a word of its own, in any case (``#BST``)."""
    if not _TAGS:
        tags = sorted((re.escape(g.tag) for g in _REGISTRY.values()), key=len, reverse=True)
        _TAGS.append(re.compile(r"(^|\s)(" + "|".join(tags) + r")\b", re.IGNORECASE))
    return _TAGS[0]


def game_of_tag(tag: str) -> Game[Any, Any] | None:
    for game in _REGISTRY.values():
        if game.tag.lower() == tag.lower():
            return game
    return None


def _register_built_in() -> None:
    from bot.games.bst import BST
    from bot.games.silentships import SILENT_SHIPS
    from bot.games.sonar import SONAR
    from bot.games.sugardog import SUGARDOG
    from bot.games.uboat import UBOAT

    for game in (BST, SONAR, UBOAT, SUGARDOG, SILENT_SHIPS):
        register(game)


_register_built_in()
