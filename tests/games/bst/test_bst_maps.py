"""Public map and private board: golden images, limits, determinism, no leaks.

The golden PNGs under ``tests/games/bst/golden/`` are compared byte for byte. They depend on
the Pillow (and FreeType) build; after an intended change to the drawing, or a Pillow
upgrade, look at the new pictures and regenerate them with::

    BST_REGENERATE_GOLDEN=1 pytest tests/games/bst

The public renderer takes a :class:`PublicView`, which has no field for live ships at all:
it cannot draw one. What can leak is a private board, so the leak test below checks that
captain A's private board is the same bytes whatever captain B's ships are.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image
from render_views import (
    DEADLINE,
    NOW,
    big_public,
    cell,
    cells,
    medium_public,
    revealed_game,
    small_private,
    small_public,
)

from bot.games.bst.fleet import ShipKind
from bot.games.bst.views import (
    FleetView,
    OwnShipView,
    PrivateView,
    PublicView,
    RevealedView,
    ShotView,
)
from renderers import style
from renderers.avatars import generated_avatar
from renderers.bst.alt_text import private_alt_text, public_alt_text
from renderers.bst.private_board import render_private_board
from renderers.bst.public_map import MAX_WIDTH, MIN_CELL, render_public_map
from renderers.style import format_relative
from tests.golden_images import Golden, decode_png

check_golden = Golden(Path(__file__).parent / "golden").check
TITLE = "#bst game 3"


def decode(data: bytes) -> Image.Image:
    return decode_png(data).convert("RGB")


SHADE = 2
"""How far (of 255, in each channel) a drawn colour may move in the PNG: pictures are
palette PNGs, and Pillow maps a pixel to the nearest palette entry of its 4×4×4 box of
colours, which for a flat colour can be a blend a shade from it (issue 25)."""


def shows(colour: tuple[int, int, int], seen: set[object]) -> bool:
    """``colour`` is among the pixels ``seen``, within a :data:`SHADE`."""
    return any(
        isinstance(pixel, tuple)
        and all(abs(a - b) <= SHADE for a, b in zip(pixel[:3], colour, strict=True))
        for pixel in seen
    )


def public_png(view: PublicView) -> bytes:
    return render_public_map(view, title=TITLE, deadline=DEADLINE, now=NOW)


def test_public_map_small_matches_golden() -> None:
    check_golden("public_10x10.png", public_png(small_public()))


def test_private_board_matches_golden() -> None:
    data = render_private_board(small_private(), title=TITLE, deadline=DEADLINE, now=NOW)
    check_golden("private_10x10.png", data)


def test_public_map_big_board_uses_markers_and_matches_golden() -> None:
    data = public_png(big_public())
    check_golden("public_250x250.png", data)
    image = decode(data)
    assert image.width <= MAX_WIDTH


def test_png_decodes_within_limits_and_cells_are_readable() -> None:
    image = decode(public_png(small_public()))
    assert image.width <= MAX_WIDTH and image.width % 2 == 0 and image.height % 2 == 0
    medium = decode(public_png(medium_public()))
    # 20 columns of at least MIN_CELL pixels fit in the picture
    assert medium.width >= 20 * MIN_CELL


def test_rendering_twice_gives_the_same_bytes() -> None:
    assert public_png(small_public()) == public_png(small_public())
    assert public_png(medium_public()) == public_png(medium_public())


def test_shot_order_in_the_view_does_not_matter() -> None:
    view = small_public()
    reversed_view = dataclasses.replace(view, shots=tuple(reversed(view.shots)))
    assert public_png(view) == public_png(reversed_view)


def test_missing_avatar_is_generated_and_given_avatar_is_used() -> None:
    view = small_public()
    plain = public_png(view)
    red = Image.new("RGB", (64, 64), (255, 0, 0))
    with_avatar = render_public_map(
        view, title=TITLE, deadline=DEADLINE, now=NOW, avatars={"u-carol": red}
    )
    assert with_avatar != plain
    image = decode(with_avatar)
    # the centre pixel of B8 (Carol's missed shot) is now her red avatar
    generated = generated_avatar("u-carol", "Carol Danvers", 32)
    assert generated.size == (32, 32)
    assert _pixel_at(image, view, "B8") == (255, 0, 0)


def _cell_box(image: Image.Image, view: PublicView, name: str) -> tuple[int, int, int]:
    """(left, top, size) of a cell, found from the grid: the board is centred horizontally
    and ends above the legend; we locate it by its water colour run on the row of A."""
    from renderers.bst import board
    from renderers.bst.public_map import TARGET_BOARD

    target = cell(name)
    size = max(MIN_CELL, min(64, TARGET_BOARD // max(view.rows, view.cols)))
    left, _ = board.margins(view.rows, view.cols, max(12, min(20, int(size * 0.45))))
    x0 = (image.width - (left + size * view.cols)) // 2 + left
    # find the board's top edge: first row (scanning down) where x0+2 is water or checker
    from renderers.style import WATER, WATER_ALT

    y0 = next(y for y in range(image.height) if image.getpixel((x0 + 2, y)) in (WATER, WATER_ALT))
    return x0 + target.col * size, y0 + target.row * size, size


def _pixel_at(image: Image.Image, view: PublicView, name: str) -> tuple[int, int, int]:
    """The centre pixel of a cell."""
    x, y, size = _cell_box(image, view, name)
    pixel = image.getpixel((x + size // 2, y + size // 2))
    assert isinstance(pixel, tuple)
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))


@pytest.mark.parametrize("shooters", [5, 9, 16])
def test_6_every_shooter_of_a_crowded_cell_is_visible(shooters: int) -> None:
    """Rules §6: several shooters on one cell all visible, not a few and a count."""
    colours = [
        ((37 * i) % 256, (91 * i + 60) % 256, (151 * i + 120) % 256) for i in range(shooters)
    ]
    view = dataclasses.replace(
        small_public(),
        shots=tuple(ShotView(f"s{i}", f"s{i}", cell("E5"), False) for i in range(shooters)),
    )
    avatars = {f"s{i}": Image.new("RGB", (64, 64), colour) for i, colour in enumerate(colours)}
    image = decode(
        render_public_map(view, title=TITLE, deadline=DEADLINE, now=NOW, avatars=avatars)
    )
    x, y, size = _cell_box(image, view, "E5")
    box = image.crop((x, y, x + size, y + size))
    seen = {box.getpixel((i, j)) for i in range(size) for j in range(size)}
    assert all(shows(colour, seen) for colour in colours)


def test_private_board_of_a_does_not_depend_on_b_ships() -> None:
    """The private view of A holds only A's ships: B's fleet cannot reach A's picture. We
    build two revealed boards that differ only in B's ships and take A's view of each the
    way the rules do (public facts plus A's own fleet)."""
    a_fleet = FleetView(
        "u-alice",
        "alice",
        (OwnShipView(ShipKind.CARRIER, cells("C1-C5"), frozenset({cell("C3")}), False),),
    )
    boards = [
        RevealedView(
            public=small_public(),
            fleets=(
                a_fleet,
                FleetView(
                    "u-bob", "bob", (OwnShipView(ShipKind.CRUISER, b_ship, frozenset(), False),)
                ),
            ),
        )
        for b_ship in (cells("H7-H9"), cells("A8-C8"))
    ]
    pictures = []
    for revealed in boards:
        own = next(f for f in revealed.fleets if f.owner == "u-alice")
        view = PrivateView("u-alice", "alice", revealed.public, own.ships, (cell("D5"),))
        pictures.append(render_private_board(view, title=TITLE, deadline=DEADLINE, now=NOW))
    assert pictures[0] == pictures[1]
    assert "ships" not in {f.name for f in dataclasses.fields(PublicView)}


def test_public_view_has_no_live_ship_field() -> None:
    names = {f.name for f in dataclasses.fields(PublicView)}
    assert names.isdisjoint({"ships", "fleets", "fleet"})


def test_public_alt_text_names_shots_wrecks_captains_and_deadline() -> None:
    text = public_alt_text(small_public(), title=TITLE, deadline=DEADLINE, now=NOW)
    assert "10 by 10" in text and "After turn 3" in text
    assert "alice hit E5" in text and "bob hit E5" in text and "Carol Danvers missed B8" in text
    assert "dave's cruiser at G2-G4" in text
    assert "Captains alive (3): alice, bob, Carol Danvers" in text
    assert "2026-01-01 08:00 UTC (in 7 h 58 min)" in text


def test_alt_text_is_cut_gracefully_at_1000_characters() -> None:
    text = public_alt_text(big_public(), title=TITLE, deadline=DEADLINE, now=NOW)
    assert len(text) <= 1000
    assert "more" in text and text.endswith("(in 7 h 58 min).")


def test_private_alt_text_adds_fleet_damage_and_collisions() -> None:
    text = private_alt_text(small_private(), title=TITLE, deadline=DEADLINE, now=NOW)
    assert "Your fleet: carrier C1-C5 (hit C3), submarine A2" in text
    assert "collided at D5" in text
    assert len(text) <= 1000


@pytest.mark.parametrize(
    ("minutes", "expected"),
    [(478.5, "in 7 h 58 min"), (5, "in 5 min"), (0.5, "in under a minute"), (-3, "due now")],
)
def test_relative_deadline(minutes: float, expected: str) -> None:
    from datetime import timedelta

    assert format_relative(NOW + timedelta(minutes=minutes), NOW) == expected


def test_6_a_70_column_board_still_draws_each_shooters_avatar() -> None:
    """Rules §6 want avatars on shots and owners on wrecks; markers only where cells get
    too small for them (past ~76 columns in a 1600-pixel map)."""
    view = dataclasses.replace(
        small_public(),
        rows=70,
        cols=70,
        shots=(ShotView("u-carol", "Carol Danvers", cell("AB40"), False),),
    )
    magenta = (255, 0, 255)
    avatar = Image.new("RGB", (64, 64), magenta)
    image = decode(
        render_public_map(
            view, title=TITLE, deadline=DEADLINE, now=NOW, avatars={"u-carol": avatar}
        )
    )
    assert shows(
        magenta,
        {image.getpixel((x, y)) for x in range(image.width) for y in range(0, image.height, 2)},
    )


@pytest.mark.parametrize("shooters", [2, 3, 4, 5])
def test_6_a_crowded_cells_avatars_stay_inside_the_cell(shooters: int) -> None:
    """One layout a count of shooters, every avatar inside its own cell (issue 27: two or
    three avatars spilled into the neighbours)."""
    colours = [(250, 10 * i, 250 - 40 * i) for i in range(shooters)]
    view = dataclasses.replace(
        small_public(),
        shots=tuple(ShotView(f"s{i}", f"s{i}", cell("E5"), False) for i in range(shooters)),
    )
    avatars = {f"s{i}": Image.new("RGB", (64, 64), colour) for i, colour in enumerate(colours)}
    image = decode(
        render_public_map(view, title=TITLE, deadline=DEADLINE, now=NOW, avatars=avatars)
    )
    x, y, size = _cell_box(image, view, "E5")
    inside = {image.getpixel((i, j)) for i in range(x, x + size) for j in range(y, y + size)}
    assert all(shows(colour, inside) for colour in colours)
    around = {
        image.getpixel((i, j))
        for i in range(x - size, x + 2 * size)
        for j in range(y - size, y + 2 * size)
        if not (x <= i < x + size and y <= j < y + size)
    }
    assert not any(shows(colour, around) for colour in (*colours, style.MISS))  # nor their rings


def test_6_damage_under_a_shooters_avatar_stays_visible_on_the_private_board() -> None:
    """alice's carrier is hit at C3 by bob this turn: bob's avatar fills the cell and the
    damage shows over it as a badge in the cell's corner (it was hidden under the avatar)."""
    public = dataclasses.replace(
        small_public(), shots=(ShotView("u-bob", "bob", cell("C3"), True),)
    )
    image = decode(
        render_private_board(
            small_private(public), title=TITLE, deadline=DEADLINE, now=NOW,
            avatars={"u-bob": Image.new("RGB", (64, 64), (0, 200, 0))},
        )
    )  # fmt: skip
    x, y, size = _cell_box(image, public, "C3")
    corner = {
        image.getpixel((i, j))
        for i in range(x + size // 2, x + size)
        for j in range(y + size // 2, y + size)
    }
    assert shows(style.BACKGROUND, corner) and shows(style.HIT, corner)
    assert shows((0, 200, 0), corner | {image.getpixel((x + size // 2, y + size // 2))})


def test_every_survivor_is_named_however_many() -> None:
    names = [f"captain_with_a_long_name_{i}" for i in range(12)]
    lines = style.wrap_names("Captains alive (12): ", names, 20, 700)
    assert len(lines) > 1
    assert all(name in " ".join(lines) for name in names)
    assert "more" not in " ".join(lines)
    assert all(style.text_width(line, 20) <= 700 for line in lines)


@pytest.mark.parametrize("shooters", [2, 4])
def test_9_every_shooter_of_a_damaged_cell_and_its_damage_stay_visible(shooters: int) -> None:
    """alice's carrier is hit at C3 by two (four) captains this turn: the damage badge in the
    cell's corner used to hide the last shooter's avatar; each avatar now shows about as much
    of itself as the first, and the badge shows too."""
    colours = [(0, 200, 0), (200, 0, 200), (0, 120, 255), (255, 140, 0)][:shooters]
    players = [f"u-p{i}" for i in range(shooters)]
    public = dataclasses.replace(
        small_public(),
        shots=tuple(ShotView(p, p[2:], cell("C3"), True) for p in players),
    )
    image = decode(
        render_private_board(
            small_private(public), title=TITLE, deadline=DEADLINE, now=NOW,
            avatars={
                p: Image.new("RGB", (64, 64), c) for p, c in zip(players, colours, strict=True)
            },
        )
    )  # fmt: skip
    x, y, size = _cell_box(image, public, "C3")
    inside = [image.getpixel((i, j)) for i in range(x, x + size) for j in range(y, y + size)]

    def count(colour: tuple[int, int, int]) -> int:
        return sum(1 for pixel in inside if shows(colour, {pixel}))

    seen = [count(colour) for colour in colours]
    assert seen[0] > 0
    assert all(n >= 0.8 * seen[0] for n in seen), seen
    corner = {
        image.getpixel((i, j))
        for i in range(x + size * 3 // 4, x + size)
        for j in range(y + size * 3 // 4, y + size)
    }
    assert shows(style.BACKGROUND, corner) and shows(style.HIT, corner)


def test_8_the_end_post_shows_a_card_naming_the_winner_that_reads_on_a_phone() -> None:
    """Issue 42: the end post's picture was the replay's last frame, landscape and nameless.
    It is now a portrait card the width of two phones: the winner and the top of the
    standings, then the board with every ship revealed, its names in phone-sized letters."""
    from renderers import end_card
    from renderers.bst.frames import (
        CARD_LABELS,
        ReplayFrame,
        card_board,
        card_layout,
        render_replay,
        standings,
    )

    boards = revealed_game(40, size=10, players=4)
    assert boards[-1].public.winners == ("p0",)
    frames = [ReplayFrame(b, f"Turn {i}") for i, b in enumerate(boards)]
    data = render_replay(frames, title=TITLE, gif=False).final
    final = decode(data)
    assert final.width == end_card.WIDTH and final.height > final.width
    check_golden("end_card.png", data)
    assert [(p.place, p.name) for p in standings(frames)][:2] == [
        (1, "captain 0"),
        (2, "captain 3"),
    ]
    # the winner's ships, never found, are on the card's board in their colour
    board = card_board(boards[-1], boards[-2])
    assert shows(style.owner_colour("p0"), {c for _, c in board.getcolors(1 << 24) or ()})
    # its row and column names read at 390 px: at least 9 px there
    layout, _ = card_layout(10, 10)
    assert layout.label_size == CARD_LABELS and CARD_LABELS * 390 / end_card.WIDTH >= 9
