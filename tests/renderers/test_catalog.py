"""The pictures catalog (issue 32): each game's pictures are declared once, as a
``GamePictures`` of its drawing functions, and found by the game's name, never by a module
named after the game.

A test may register pictures of its own: here a Tug game's (the game that exists only in the
tests, ``tests/tug``), drawn by two one-line functions.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import subprocess
import sys
import types
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

import pytest
from PIL import Image

from bot.games.catalog import game_names
from renderers import catalog
from renderers.catalog import pictures_for, tiles_for
from renderers.game_pictures import Drawing, GamePictures, GameTiles
from renderers.pictures import Replay
from renderers.tiles import TileRect


@dataclass(frozen=True)
class TugBoard:
    """Tug's public view: how far the rope has moved."""

    rope: int


@dataclass(frozen=True)
class TugHand:
    """One crew's own view."""

    board: TugBoard
    crew: str


def rope_png(
    view: TugBoard,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
) -> bytes:
    return f"{title}: rope at {view.rope}".encode()


def rope_alt(view: TugBoard, *, title: str, deadline: datetime | None, now: datetime | None) -> str:
    return f"{title}: the rope is {view.rope} from the middle"


def hand_png(
    view: TugHand,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
) -> bytes:
    return f"{view.crew} pulls, {len(avatars)} faces".encode()


def hand_alt(view: TugHand, *, title: str, deadline: datetime | None, now: datetime | None) -> str:
    return f"{view.crew}'s end of the rope"


def tug_video(boards: Sequence[tuple[TugBoard, str]], *, title: str, gif: bool) -> Replay:
    labels = ", ".join(label for _, label in boards)
    return Replay(mp4=labels.encode(), gif=b"", frame_count=len(boards), duration_s=1.0)


def tug_tile(view: TugBoard, rect: TileRect) -> bytes:
    return f"{view.rope}@{rect.level}/{rect.x}/{rect.y}".encode()


TUG_PICTURES = GamePictures(
    game="Tug",
    public_picture=Drawing(TugBoard, "rope", rope_png, rope_alt),
    private_picture=Drawing(TugHand, "crew's end", hand_png, hand_alt),
    revealed_view=TugBoard,
    replay_video=tug_video,
    start_label="The rope at rest",
    tiles=GameTiles(game="Tug", view=TugBoard, size=lambda view: (1, 1), tile=tug_tile),
)


class Options(TypedDict):
    title: str
    deadline: datetime | None
    now: datetime | None


OPTIONS: Options = {"title": "#tug game 1", "deadline": None, "now": None}


@pytest.fixture
def tug_pictures() -> Iterator[None]:
    catalog.register("tug", TUG_PICTURES)
    yield
    catalog.unregister("tug")


def test_every_game_has_its_pictures_declared_in_the_catalog() -> None:
    assert catalog.kinds() == sorted(game_names())
    for kind in game_names():
        package = importlib.import_module(f"renderers.{kind}")
        assert pictures_for(kind) is package.PICTURES
        assert isinstance(pictures_for(kind), GamePictures)


def test_only_bst_has_tiles() -> None:
    assert [kind for kind in catalog.kinds() if tiles_for(kind) is not None] == ["bst"]


def test_a_module_named_after_a_game_is_not_its_pictures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only what the catalog declares counts, not a package that happens to be
    ``renderers.<name>`` with a ``PICTURES`` in it (the old naming convention)."""
    module = types.ModuleType("renderers.tug")
    module.__spec__ = importlib.machinery.ModuleSpec("renderers.tug", None)
    module.PICTURES = TUG_PICTURES  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "renderers.tug", module)
    assert pictures_for("tug") is None
    assert tiles_for("tug") is None


@pytest.mark.usefixtures("tug_pictures")
def test_a_test_registers_pictures_of_its_own() -> None:
    assert pictures_for("tug") is TUG_PICTURES
    assert tiles_for("tug") is TUG_PICTURES.tiles
    assert "tug" in catalog.kinds()


def test_unregistered_pictures_are_gone() -> None:
    catalog.register("tug", TUG_PICTURES)
    catalog.unregister("tug")
    assert pictures_for("tug") is None
    assert "bst" in catalog.kinds()


def test_declared_pictures_draw_with_the_games_functions() -> None:
    board = TugBoard(rope=3)
    public = TUG_PICTURES.public(board, avatars={}, **OPTIONS)
    assert (public.png, public.alt) == (
        b"#tug game 1: rope at 3",
        "#tug game 1: the rope is 3 from the middle",
    )
    own = TUG_PICTURES.private(
        TugHand(board, "reds"), avatars={"a": Image.new("RGB", (1, 1))}, **OPTIONS
    )
    assert (own.png, own.alt) == (b"reds pulls, 1 faces", "reds's end of the rope")
    video = TUG_PICTURES.replay([(board, "one"), (TugBoard(4), "two")], title="t", gif=False)
    assert (video.mp4, video.frame_count) == (b"one, two", 2)
    assert TUG_PICTURES.tiles is not None
    assert TUG_PICTURES.tiles.board_size(board) == (1, 1)
    assert TUG_PICTURES.tiles.public_tile(board, TileRect(2, 0, 1)) == b"3@2/0/1"


def test_declared_labels_default_to_turns_and_the_end() -> None:
    assert TUG_PICTURES.frame_label(0, 0) == "The rope at rest"
    assert [TUG_PICTURES.frame_label(3, 0), TUG_PICTURES.frame_label(3, 2)] == ["Turn 3"] * 2
    assert TUG_PICTURES.end_label() == "The end"


def test_a_view_of_the_wrong_kind_is_refused_in_the_games_words() -> None:
    board = TugBoard(rope=0)
    with pytest.raises(TypeError, match="Tug's crew's end is drawn from a TugHand, got TugBoard"):
        TUG_PICTURES.private(board, avatars={}, **OPTIONS)
    with pytest.raises(TypeError, match="Tug's rope is drawn from a TugBoard, got TugHand"):
        TUG_PICTURES.public(TugHand(board, "reds"), avatars={}, **OPTIONS)
    with pytest.raises(TypeError, match="Tug's replay is drawn from a TugBoard, got str"):
        TUG_PICTURES.replay([("rope", "Turn 1")], title="t", gif=False)
    assert TUG_PICTURES.tiles is not None
    with pytest.raises(TypeError, match="Tug's tiled board is drawn from a TugBoard, got str"):
        TUG_PICTURES.tiles.board_size("rope")


def test_an_outsider_sees_the_public_picture_where_the_game_says_so() -> None:
    board = TugBoard(rope=1)
    open_game = dataclasses.replace(TUG_PICTURES, outsiders_see_public=True)
    assert open_game.private(board, avatars={}, **OPTIONS) == open_game.public(
        board, avatars={}, **OPTIONS
    )


def test_importing_the_catalog_loads_no_game_until_it_is_asked() -> None:
    code = (
        "import sys, renderers.catalog, renderers.pictures, renderers.tiles, "
        "renderers.game_pictures\n"
        "games = ('bst', 'sonar', 'uboat', 'sugardog', 'silentships')\n"
        "def loaded():\n"
        "    return sorted(m for m in sys.modules if m.split('.')[1:2] and "
        "m.split('.')[0] in ('renderers', 'bot') and m.split('.')[-1] in games)\n"
        "print(loaded())\n"
        "renderers.catalog.pictures_for('sonar')\n"
        "print(len(loaded()) > 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "True"]
