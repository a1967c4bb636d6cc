"""A captain's board in a crowd (issue 33 item 5): on a board of more than
``CROWD_CELLS`` cells the private picture is the captain's neighbourhood, with the real
row and column names; a small board's private picture is the same as ever."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.base import Channel, Given, PlayerRef
from bot.games.bst import BST, BstState, Shoot
from bot.games.bst.cells import parse_cell
from renderers import style
from renderers.bst import PICTURES
from renderers.bst.neighbourhood import CROWD_CELLS, windows
from renderers.bst.private_board import render_private_board
from renderers.bst.public_map import render_public_map


def battle(size: str, fleets: dict[str, str]) -> BstState:
    state = BST.rules.new_game({"size": size})
    for name, text in fleets.items():
        state = BST.rules.join(state, PlayerRef(name, name))
        placed = BST.rules.accept(
            state, name, BST.rules.parse(text), Channel.PRIVATE, random.Random(0)
        )
        state = placed.state
    return BST.rules.start(state, random.Random(0)).state


def shoot(state: BstState, shots: dict[str, str]) -> BstState:
    given = [
        BST.rules.accept(state, who, Shoot(parse_cell(cell)), Channel.PUBLIC, random.Random(0))
        for who, cell in shots.items()
    ]
    orders = [
        Given(who, accepted.standing, sent_at=float(n), sequence=n)
        for n, (who, accepted) in enumerate(zip(shots, given, strict=True), start=1)
        if accepted.standing is not None
    ]
    return BST.rules.resolve(state, orders, random.Random(0)).state


def picture(state: BstState, viewer: str) -> tuple[bytes, str]:
    drawn = PICTURES.private(
        BST.views.view(state, viewer), avatars={}, title="#bst game 1", deadline=None, now=None
    )
    return drawn.png, drawn.alt


def test_on_a_crowd_board_the_private_picture_is_the_neighbourhood_with_real_names() -> None:
    assert CROWD_CELLS < 1000 * 1000
    state = battle(
        "1000x1000",
        {"ann": "carrier AAK500-AAK504, sub ALL1000", "bob": "cruiser A1-A3, cruiser C1-C3"},
    )
    state = shoot(state, {"ann": "AAK502", "bob": "AAL507"})
    png, alt = picture(state, "ann")
    image = Image.open(io.BytesIO(png))
    # Two windows (the ships are far apart), not a 1000x1000 sea.
    assert windows(BST.views.view(state, "ann")) == [(708, 495, 716, 507), (995, 995, 999, 999)]  # type: ignore[arg-type]
    assert image.width < 900 and image.height < 400
    assert "ann's neighbourhood" in alt
    assert "carrier AAK500-AAK504 (hit AAK502)" in alt
    assert "Misses near you: AAL507" in alt
    # Bob's ships (far away) and the whole sea are nowhere in it.
    assert "A1" not in alt.replace("ALL1000", "")


def test_another_captains_hidden_ships_never_change_a_neighbourhood() -> None:
    here = battle(
        "500x500", {"ann": "carrier K10-K14, sub M12", "bob": "cruiser L16-L18, cruiser Z1-Z3"}
    )
    there = battle(
        "500x500", {"ann": "carrier K10-K14, sub M12", "bob": "cruiser N15-N17, cruiser Z5-Z7"}
    )
    # The same public facts: both miss the same water near ann.
    here = shoot(here, {"bob": "J9"})
    there = shoot(there, {"bob": "J9"})
    assert picture(here, "ann") == picture(there, "ann")


def test_a_small_boards_private_picture_is_unchanged() -> None:
    state = battle("20x20", {"ann": "carrier A1-A5, sub C3", "bob": "cruiser J1-J3, cruiser L1-L3"})
    view = BST.views.view(state, "ann")
    expected = render_private_board(view, title="#bst game 1", deadline=None, now=None, avatars={})
    assert picture(state, "ann")[0] == expected


def public_picture(state: BstState) -> tuple[bytes, str]:
    drawn = PICTURES.public(
        BST.views.view(state, None), avatars={}, title="#bst game 1", deadline=None, now=None
    )
    return drawn.png, drawn.alt


def test_on_a_crowd_board_the_public_map_is_a_digest_naming_the_most_hit_places() -> None:
    state = battle(
        "1000x1000",
        {
            "ann": "carrier AAK500-AAK504, sub ALL1000",
            "bob": "cruiser A1-A3, cruiser C1-C3",
            "cy": "cruiser B10-B12, cruiser Z1-Z3",
        },
    )
    state = shoot(state, {"ann": "A2", "bob": "AAK502", "cy": "ALL1000"})
    png, alt = public_picture(state)
    image = Image.open(io.BytesIO(png))
    assert image.width < 900 and image.height < 1000
    assert "a digest map of the 1000 by 1000 board" in alt
    # Blocks of 4x4 cells named by their top-left cell; the most hit first, then by place.
    assert "3 captains afloat. Turn 1: 3 shots, 3 hits. 1 wreck in all." in alt
    assert "Most hit: around A1, 1 hit, around AAK501, 1 hit, around ALI997, 1 hit." in alt


def test_a_digest_never_depends_on_hidden_ships() -> None:
    here = battle(
        "500x500", {"ann": "carrier K10-K14, sub M12", "bob": "cruiser L16-L18, cruiser Z1-Z3"}
    )
    there = battle(
        "500x500", {"ann": "carrier K1-K5, sub M2", "bob": "cruiser N15-N17, cruiser Z5-Z7"}
    )
    here = shoot(here, {"bob": "J9", "ann": "A1"})
    there = shoot(there, {"bob": "J9", "ann": "A1"})
    assert public_picture(here) == public_picture(there)


def test_a_small_boards_public_map_is_unchanged() -> None:
    state = battle("20x20", {"ann": "carrier A1-A5, sub C3", "bob": "cruiser J1-J3, cruiser L1-L3"})
    state = shoot(state, {"ann": "J2", "bob": "T20"})
    expected = render_public_map(
        BST.views.view(state, None), title="#bst game 1", deadline=None, now=None, avatars={}
    )  # type: ignore[arg-type]
    assert public_picture(state)[0] == expected


def test_a_neighbourhood_is_encoded_in_the_colours_it_is_drawn_in_and_their_blends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The neighbourhood's PNG takes a fixed palette (drawn colours and their blends), not
    one chosen per picture: every pixel is its drawn colour or close to it, and the
    colours of hits, misses, the sea and the captain's own ships are kept."""
    drawn: list[Image.Image] = []
    quantize = Image.Image.quantize

    def kept(image: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        drawn.append(image.copy())
        return quantize(image, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", kept)
    state = battle(
        "1000x1000",
        {"ann": "carrier AAK500-AAK504, sub AAN510", "bob": "cruiser A1-A3, cruiser C1-C3"},
    )
    state = shoot(state, {"ann": "AAK502", "bob": "AAL507"})
    png, _ = picture(state, "ann")
    shown = Image.open(io.BytesIO(png)).convert("RGB")
    assert len(drawn) == 1 and drawn[0].size == shown.size
    difference = ImageChops.difference(drawn[0], shown)
    assert max(high for _, high in difference.getextrema()) <= 24
    assert sum(ImageStat.Stat(difference).mean) / 3 < 1
    colours = {colour for _, colour in shown.getcolors(1 << 16) or []}
    for colour in (style.HIT, style.MISS, style.OWN_SHIP, style.WATER, style.BACKGROUND):
        # (Pillow finds the nearest entry among those of the colour's 4x4x4 box: a
        # flat colour may move a shade, as in every palette PNG; see test_bst_maps.SHADE.)
        assert any(max(abs(a - b) for a, b in zip(colour, c, strict=True)) <= 2 for c in colours)
