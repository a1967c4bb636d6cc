"""U-Boat Shootout's pictures: golden images, the protocol, limits, and nothing hidden.

The golden PNGs under ``tests/games/uboat/golden/`` are compared byte for byte; after an
intended change to the drawing (or a Pillow upgrade), look at the new pictures and
regenerate them with ``BST_REGENERATE_GOLDEN=1 pytest tests/games/uboat``. The views come
from real games played by the rules' test driver (``tests/games/uboat/uboat_helpers.py``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image
from uboat_helpers import Driver, play

from bot.games.uboat import UBOAT
from bot.games.uboat.views import PrivateView, PublicView, RevealedView
from renderers.catalog import pictures_for
from renderers.replay import MAX_HEIGHT, MAX_WIDTH
from renderers.uboat import PICTURES
from renderers.uboat.frames import frame_layout, frames_of
from renderers.uboat.maps import MIN_CELL, plan
from tests.golden_images import Golden, decode_png

check_golden = Golden(Path(__file__).parent / "golden").check
SCRIPTS = Path(__file__).resolve().parent / "scripts"
NOW = datetime(2026, 1, 1, 0, 2, tzinfo=UTC)
OPTIONS = {
    "avatars": {},
    "title": "#uboat game 3",
    "deadline": NOW + timedelta(minutes=8),
    "now": NOW,
}


def script_until(name: str, closes: int | None = None) -> Driver:
    """The example ``name`` played up to its ``closes``-th ``@close`` (all of it: None)."""
    lines = (SCRIPTS / name).read_text(encoding="utf-8").splitlines()
    if closes is not None:
        at = [i for i, line in enumerate(lines) if line.startswith("@close")][closes - 1]
        lines = lines[: at + 1]
    return play("\n".join(lines))


def public_view(driver: Driver) -> PublicView:
    view = UBOAT.views.view(driver.state, None)
    assert isinstance(view, PublicView)
    return view


def private_view(driver: Driver, name: str) -> PrivateView:
    view = UBOAT.views.view(driver.state, driver.ids[name])
    assert isinstance(view, PrivateView)
    return view


# --- the protocol ----------------------------------------------------------------------


def test_the_host_finds_uboat_pictures_by_the_games_kind() -> None:
    assert pictures_for("uboat") is PICTURES


def test_a_view_of_the_wrong_kind_is_refused_naming_the_kind_expected() -> None:
    driver = script_until("uboat-first-rounds.txt", 1)
    with pytest.raises(TypeError, match="drawn from a PublicView, got PrivateView"):
        PICTURES.public(private_view(driver, "dave"), **OPTIONS)
    with pytest.raises(TypeError, match="drawn from a RevealedView, got PublicView"):
        PICTURES.replay([(public_view(driver), "Round 1")], title="#uboat game 3", gif=False)


def test_a_player_the_game_no_longer_seats_gets_the_public_picture() -> None:
    driver = script_until("uboat-first-rounds.txt", 1)
    assert PICTURES.private(public_view(driver), **OPTIONS) == PICTURES.public(
        public_view(driver), **OPTIONS
    )


def test_frames_are_labelled_in_the_games_words() -> None:
    assert PICTURES.frame_label(0, 0) == "The start"
    assert [PICTURES.frame_label(3, 0), PICTURES.frame_label(3, 1)] == ["Round 3", "Round 3"]
    assert PICTURES.end_label() == "The end"


# --- golden images ---------------------------------------------------------------------


def test_public_map_after_a_round_matches_golden() -> None:
    driver = script_until("uboat-first-rounds.txt", 1)
    picture = PICTURES.public(public_view(driver), **OPTIONS)
    check_golden("public_round1.png", picture.png)
    assert picture.alt.startswith("#uboat game 3: U-Boat Shootout on a 9x9 sea, Round 2 of 12.")
    assert "Blue: up, up, left" in picture.alt and "striking F5: Yellow -2" in picture.alt


def test_private_board_with_own_boat_health_and_range_matches_golden() -> None:
    driver = script_until("uboat-first-rounds.txt", 1)
    picture = PICTURES.private(private_view(driver, "dave"), **OPTIONS)
    check_golden("private_dave_round1.png", picture.png)
    assert "dave's private board" in picture.alt
    assert "Yellow: at F5, health 1/3, range 3" in picture.alt
    assert "Evade window open: no evasion sent" in picture.alt


def test_private_board_with_island_powers_and_sonar_matches_golden() -> None:
    driver = script_until("uboat-powers.txt", 3)
    picture = PICTURES.private(private_view(driver, "dee"), **OPTIONS)
    check_golden("private_dee_powers.png", picture.png)
    assert "Sonar: nearest enemy 3 away" in picture.alt


def test_setup_board_shows_the_starting_cell_sent_and_matches_golden() -> None:
    driver = play("@game uboat\nann dm: join\nben dm: join\nann dm: start B5\n")
    picture = PICTURES.private(private_view(driver, "ann"), **OPTIONS)
    check_golden("private_setup.png", picture.png)
    assert "your starting cell is B5" in picture.alt
    assert PICTURES.private(private_view(driver, "ben"), **OPTIONS).png != picture.png


def test_finished_public_map_says_who_won_and_matches_golden() -> None:
    driver = script_until("uboat-crews-and-scoring.txt")
    picture = PICTURES.public(public_view(driver), **OPTIONS)
    check_golden("public_finished.png", picture.png)
    assert "Red wins: ann, cy." in picture.alt


# --- limits and determinism ----------------------------------------------------------


@pytest.mark.parametrize("size", [5, 9, 26])
def test_every_board_size_fits_a_phone_with_readable_cells(size: int) -> None:
    islands = "none" if size < 7 else "1@C3,2@G3,3@C7,4@G7,5@E5"
    driver = play(
        f"@game uboat size={size} islands={islands}\na dm: join\nb dm: join\n"
        "a dm: start A1\nb dm: start B2\n@start\na dm: fire B2\n@close\n"
    )
    layout, width, _ = plan(size)
    assert layout.cell >= MIN_CELL
    image = decode_png(PICTURES.public(public_view(driver), **OPTIONS).png)
    assert image.width == width and image.width <= 900
    assert image.width % 2 == 0 and image.height % 2 == 0
    assert image.height <= 2 * image.width  # a tall phone picture, not a strip
    frame_size = frame_layout(size)[1]
    assert frame_size[0] <= MAX_WIDTH and frame_size[1] <= MAX_HEIGHT
    assert frame_size[0] % 2 == 0 and frame_size[1] % 2 == 0


def test_drawing_twice_gives_the_same_bytes() -> None:
    first = script_until("uboat-first-rounds.txt", 1)
    second = script_until("uboat-first-rounds.txt", 1)
    assert PICTURES.public(public_view(first), **OPTIONS) == PICTURES.public(
        public_view(second), **OPTIONS
    )
    assert PICTURES.private(private_view(first, "bob"), **OPTIONS) == PICTURES.private(
        private_view(second, "bob"), **OPTIONS
    )


# --- nothing hidden -------------------------------------------------------------------

TWIN = """\
@game uboat islands=none
ann dm: join
ben dm: join
cy dm: join
ann dm: start {ann}
ben dm: start B3
cy dm: start {cy}
@start
ann dm: fire B3
cy dm: move left
@close
{evasion}
@close
"""
TWINS = (
    {"ann": "A1", "cy": "H2", "evasion": "ben dm: evade down"},
    {"ann": "D3", "cy": "G6", "evasion": "# no evasion"},
)


def test_4_the_public_map_is_the_same_bytes_when_only_hidden_facts_differ() -> None:
    first, second = (play(TWIN.format(**facts)) for facts in TWINS)
    assert first.state != second.state
    assert first.state is not None and second.state is not None
    assert [b.cell for b in first.state.boats] != [b.cell for b in second.state.boats]
    assert PICTURES.public(public_view(first), **OPTIONS) == PICTURES.public(
        public_view(second), **OPTIONS
    )


def test_4_a_crews_board_does_not_change_with_another_boats_hidden_cell() -> None:
    boards = [play(TWIN.format(ann="A1", cy=cy, evasion="# none")) for cy in ("H2", "G6")]
    ann = [PICTURES.private(private_view(board, "ann"), **OPTIONS) for board in boards]
    assert ann[0] == ann[1]
    cy = [PICTURES.private(private_view(board, "cy"), **OPTIONS) for board in boards]
    assert cy[0].png != cy[1].png  # (cy's own board does show where cy is)


def test_4_alt_text_names_no_cell_the_public_does_not_know() -> None:
    driver = script_until("uboat-first-rounds.txt")
    assert driver.state is not None
    hidden = {str(boat.cell) for boat in driver.state.boats} | {
        str(boat.start) for boat in driver.state.boats
    }
    told = {str(b.cell) for b in public_view(driver).blasts}
    named = set(re.findall(r"\b[A-Z][1-9]\b", PICTURES.public(public_view(driver), **OPTIONS).alt))
    assert not named & (hidden - told)


# --- the replay ---------------------------------------------------------------------


def _boards(driver: Driver) -> list[tuple[RevealedView, str]]:
    return [
        (UBOAT.views.reveal(resolution.state), PICTURES.frame_label(step.turn, 0))
        for (_, resolution), step in zip(driver.resolutions, driver.history, strict=True)
    ]


def test_replay_frames_tell_an_evade_window_from_a_rounds_end() -> None:
    boards = _boards(script_until("uboat-first-rounds.txt"))
    frames = frames_of(boards)
    assert [f.label for f in frames] == [
        "The start",
        "Round 1",
        "Round 2: evade window",
        "Round 2",
    ]
    assert [f.fresh for f in frames] == [True, True, False, True]


def test_replay_of_a_whole_game_reveals_every_boat() -> None:
    boards = _boards(script_until("uboat-crews-and-scoring.txt"))
    replay = PICTURES.replay(boards, title="#uboat game 3", gif=False)
    assert replay.frame_count == len(boards) + 2
    assert replay.mp4[4:8] == b"ftyp" and replay.gif == b""
    again = PICTURES.replay(boards, title="#uboat game 3", gif=False)
    assert again == replay


def test_the_legends_blast_tints_are_the_maps() -> None:
    """A blast's sides are tinted in the shooter's colour, red where a boat beside the tile
    was hit: the legend shows both as the sea shows them (on water, at the same strength)."""
    import dataclasses

    from bot.games.uboat.cells import Cell
    from bot.games.uboat.values import Colour
    from renderers import style
    from renderers.uboat import maps, sea

    kinds = {key.kind: key for key in maps.PUBLIC_KEYS}
    assert {"side", "side_hit"} <= set(kinds)
    layout, _, _ = plan(9)
    for kind, hit in (("side", False), ("side_hit", True)):
        key = kinds[kind]
        icon = Image.new("RGB", (80, 80), style.BACKGROUND)
        maps._draw_key_icon(icon, key, 10, 40)
        board = Image.new("RGB", (layout.x0 + layout.width + 10, layout.y0 + layout.height + 10))
        board.paste(style.WATER, (0, 0, board.width, board.height))
        here = Cell(4, 4)
        sea.draw_side_tint(board, layout, here, sea.boat_rgb(key.colour), hit)
        x0, y0, x1, y1 = layout.box(here)
        tile = dataclasses.replace(maps._KEY_TILE, x0=10, y0=round(40 - maps.KEY_ICON / 2))
        ix0, iy0, ix1, iy1 = tile.box(Cell(0, 0))
        on_map = board.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))
        assert icon.getpixel(((ix0 + ix1) // 2, (iy0 + iy1) // 2)) == on_map
    assert kinds["side"].colour is not Colour.RED  # a red boat's tint would read as a hit


def test_8_the_end_post_shows_a_card_naming_the_winning_boat_that_reads_on_a_phone() -> None:
    """Issue 42: the end post's picture was the replay's last frame, landscape (1,248 px)
    and nameless. It is now a portrait card the width of two phones: the winning boat and
    its crew, the boats by rank, and the sea with every boat revealed."""
    from renderers import end_card
    from renderers.uboat.frames import standings

    boards = _boards(script_until("uboat-crews-and-scoring.txt"))
    last = boards[-1][0]
    assert last.public.winning_boats
    data = PICTURES.replay(boards, title="#uboat game 3", gif=False).final
    final = decode_png(data)
    assert final.width == end_card.WIDTH and final.height > final.width
    check_golden("end_card.png", data)
    top = standings(last)[0]
    assert top.place == 1 and top.name.startswith(last.public.winning_boats[0].title)
