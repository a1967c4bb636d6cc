"""The games' pictures, by the game's name.

A game's pictures are registered once, by the line that names them in
:func:`_register_built_in` (each package's ``PICTURES``, a
:class:`~renderers.game_pictures.GamePictures`); tests may register pictures of their own
with :func:`register`. The host and the web page find a game's pictures with
:func:`pictures_for` and its tiles with :func:`tiles_for`; a game with none has its text board
posted alone.

The built-in pictures are loaded on the first look-up, not on import, so importing a
renderer loads no game's drawing code (``tests/renderers/test_no_game_loaded.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the protocols only: renderers.pictures and tiles never import the catalog
    from renderers.pictures import Pictures
    from renderers.tiles import Tiles

_REGISTRY: dict[str, Pictures] = {}
_built_in_loaded = False


def register(kind: str, pictures: Pictures) -> None:
    """Draw game ``kind``'s pictures with ``pictures`` (in place of any registered before)."""
    _load_built_in()
    _REGISTRY[kind] = pictures


def unregister(kind: str) -> None:
    """Forget game ``kind``'s pictures (tests that registered their own)."""
    _load_built_in()
    _REGISTRY.pop(kind, None)


def pictures_for(kind: str) -> Pictures | None:
    """The pictures of game ``kind``, or None when it has none."""
    _load_built_in()
    return _REGISTRY.get(kind)


def tiles_for(kind: str) -> Tiles | None:
    """The tiles of game ``kind``, or None when its board is never drawn in tiles."""
    pictures = pictures_for(kind)
    return None if pictures is None else pictures.tiles


def kinds() -> list[str]:
    """The games that have pictures, by name."""
    _load_built_in()
    return sorted(_REGISTRY)


def _load_built_in() -> None:
    global _built_in_loaded
    if not _built_in_loaded:
        # Flagged once registered: a drawing thread that looks first never sees none.
        _register_built_in()
        _built_in_loaded = True


def _register_built_in() -> None:
    from renderers.bst import PICTURES as BST
    from renderers.silentships import PICTURES as SILENT_SHIPS
    from renderers.sonar import PICTURES as SONAR
    from renderers.sugardog import PICTURES as SUGARDOG
    from renderers.uboat import PICTURES as UBOAT

    for kind, pictures in (
        ("bst", BST),
        ("sonar", SONAR),
        ("uboat", UBOAT),
        ("sugardog", SUGARDOG),
        ("silentships", SILENT_SHIPS),
    ):
        _REGISTRY[kind] = pictures
