"""Sonar's pictures (``shared/rules/sonar.md`` §5): golden images, the protocol, legibility at
the largest board, alt text, and nothing hidden.

The golden PNGs under ``tests/games/sonar/golden/`` are compared byte for byte; they
depend on the Pillow (and FreeType) build. After an intended change to the drawing, look
at the new pictures and regenerate them with::

    BST_REGENERATE_GOLDEN=1 pytest tests/games/sonar/test_sonar_pictures.py

The views come from the game's own rules (fleets given, shots fired), never built by hand,
so a picture is always of a position the game can reach.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image

from bot.games.base import Channel, Given, PlayerRef
from bot.games.sonar import SONAR, SonarState
from bot.games.sonar.board import parse_cell
from bot.games.sonar.views import PrivateView, PublicView, RevealedView
from renderers.alt_text import MAX_ALT_TEXT
from renderers.catalog import pictures_for
from renderers.sonar import PICTURES, board, hexgrid, picture
from renderers.sonar.frames import board_picture, frame_layout
from renderers.style import HIT
from tests.golden_images import Golden

golden = Golden(Path(__file__).parent / "golden").check
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DEADLINE = datetime(2026, 1, 2, 0, 0, tzinfo=UTC)
OPTIONS = {"title": "#sonar game 3", "deadline": DEADLINE, "now": NOW}


# --- games played by the rules -----------------------------------------------------------


def given_battle(
    fleets: dict[str, str], shots: Sequence[tuple[str, str]] = (), **options: str
) -> SonarState:
    """A battle with fleets given by the captains (in join order), then ``shots`` fired
    (``random`` draws with a fixed seed)."""
    ships = str(len(next(iter(fleets.values())).split(",")))
    state = SONAR.rules.new_game({"placement": "given", "ships": ships, **options})
    ids = {}
    for number, (name, fleet) in enumerate(fleets.items(), start=1):
        ids[name] = f"p{number}"
        state = SONAR.rules.join(state, PlayerRef(ids[name], name))
        state = SONAR.rules.accept(
            state, ids[name], SONAR.rules.parse(fleet), Channel.PRIVATE, random.Random(0)
        ).state
    state = SONAR.rules.start(state, random.Random(0), None).state
    return fire(state, ids, shots)


def fire(state: SonarState, ids: dict[str, str], shots: Sequence[tuple[str, str]]) -> SonarState:
    for turn, (name, text) in enumerate(shots):
        order = SONAR.rules.parse(text)
        accepted = SONAR.rules.accept(state, ids[name], order, Channel.PUBLIC, random.Random(turn))
        assert accepted.resolve_now
        given = [Given(ids[name], order, 0.0, 0)]
        state = SONAR.rules.resolve(accepted.state, given, random.Random(turn)).state
    return state


FIRST_GAME = {"ahab": "2 l5 ur, 3 c20 ur", "nemo": "3 h3 dl, 2 f10 dl"}
FIRST_SHOTS = [("ahab", "e10"), ("nemo", "b11, a1"), ("ahab", "d10, h3")]
"""``shared/examples/sonar-first-game.txt``: a hit, a hit and a miss of 5, then a killer shot
and a miss of 1; ahab's sub carries the hit it took at b11 (now on c11)."""


def first_game(**options: str) -> SonarState:
    return given_battle(FIRST_GAME, FIRST_SHOTS, size="12", **options)


def public_of(state: SonarState) -> PublicView:
    view = SONAR.views.view(state, None)
    assert isinstance(view, PublicView)
    return view


def private_of(state: SonarState, player: str) -> PrivateView:
    view = SONAR.views.view(state, player)
    assert isinstance(view, PrivateView)
    return view


def largest_game() -> SonarState:
    """Four captains with two subs each on the largest board (24 × 48), and five turns of
    charges at random (seed 9: the last turn's include a miss of two digits)."""
    state = SONAR.rules.new_game({"size": "24", "ships": "2"})
    ids = {}
    for number, name in enumerate(("ahab", "nemo", "flint", "drake"), start=1):
        ids[name] = f"p{number}"
        state = SONAR.rules.join(state, PlayerRef(ids[name], name))
    state = SONAR.rules.start(state, random.Random(9), None).state
    return fire(
        state, ids, [(name, "random") for name in ("ahab", "nemo", "flint", "drake", "ahab")]
    )


def image_of(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


# --- the protocol ----------------------------------------------------------------------


def test_the_host_finds_sonars_pictures_by_the_games_kind() -> None:
    assert pictures_for("sonar") is PICTURES


def test_frames_are_labelled_in_sonars_words() -> None:
    assert PICTURES.frame_label(0, 0) == "The fleets at the start"
    assert [PICTURES.frame_label(3, 0), PICTURES.frame_label(3, 1)] == ["Turn 3", "Turn 3"]
    assert PICTURES.end_label() == "The end"


def test_a_view_of_the_wrong_kind_is_refused_naming_the_kind_expected() -> None:
    state = first_game()
    with pytest.raises(TypeError, match="drawn from a PublicView, got PrivateView"):
        PICTURES.public(private_of(state, "p1"), avatars={}, **OPTIONS)
    with pytest.raises(TypeError, match="drawn from a RevealedView, got PublicView"):
        PICTURES.replay([(public_of(state), "Turn 1")], title="t", gif=False)


def test_someone_who_is_no_captain_is_shown_the_public_board() -> None:
    state = first_game()
    stranger = SONAR.views.view(state, "nobody")
    assert PICTURES.private(stranger, avatars={}, **OPTIONS) == PICTURES.public(
        public_of(state), avatars={}, **OPTIONS
    )


# --- golden images -----------------------------------------------------------------------


def test_5_public_board_after_a_killer_shot() -> None:
    shown = PICTURES.public(public_of(first_game()), avatars={}, **OPTIONS)
    golden("public_12x24.png", shown.png)
    assert shown.alt.startswith("#sonar game 3: the public board of the 12 by 24 hex ocean.")
    assert "d10 sank a sub, h3 missed, 1 from the nearest sub" in shown.alt
    assert "Sunk: nemo's sub 1 at c10 d10." in shown.alt
    assert "Hits on subs afloat: c11." in shown.alt


def test_5_own_board_with_the_turn_before_below_it() -> None:
    shown = PICTURES.private(private_of(first_game(), "p2"), avatars={}, **OPTIONS)
    golden("private_12x24.png", shown.png)
    assert "nemo's own board" in shown.alt
    assert "sub 2 (3 long, sailing down-left) at e3 f3 g3" in shown.alt
    # two boards, one above the other: taller than the public picture by a whole board (in
    # its two bands of 12 hexagons a row)
    public_height = image_of(PICTURES.public(public_of(first_game()), avatars={}, **OPTIONS).png)
    cell = picture.board_cell(12, 24)
    grown = image_of(shown.png).height - public_height.height
    assert grown >= 2 * board.size_of(12, 12, cell)[1]


def test_5_own_fleet_in_setup() -> None:
    state = SONAR.rules.new_game({"placement": "given", "ships": "3", "size": "8"})
    state = SONAR.rules.join(state, PlayerRef("p1", "ahab"))
    fleet = SONAR.rules.parse("2 a1 ur, 3 a2 dl, 3 e12 dr")
    state = SONAR.rules.accept(state, "p1", fleet, Channel.PRIVATE, random.Random(0)).state
    shown = PICTURES.private(private_of(state, "p1"), avatars={}, **OPTIONS)
    golden("private_setup_8x16.png", shown.png)
    assert "Setup" in shown.alt and "sub 3 (3 long, sailing down-right) at e12 f11 g10" in shown.alt


def test_5_replay_frame_reveals_every_sub() -> None:
    reveal = SONAR.views.reveal(first_game())
    assert isinstance(reveal, RevealedView)
    layout, size = frame_layout(12, 24)
    image = board_picture(reveal, "Turn 3", title="#sonar game 3", layout=layout, size=size)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    golden("replay_frame_12x24.png", out.getvalue())


def test_5_the_largest_board_is_legible_on_a_phone() -> None:
    state = largest_game()
    view = public_of(state)
    assert any((s.distance or 0) >= 10 for s in view.board.shots)  # two-digit distances drawn
    shown = PICTURES.public(view, avatars={}, **OPTIONS)
    golden("public_24x48.png", shown.png)
    own = PICTURES.private(private_of(state, "p1"), avatars={}, **OPTIONS)
    # three bands of 16 hexagons a row, one under the other, as wide as a phone can read
    assert image_of(shown.png).width == image_of(own.png).width == picture.BANDED_WIDTH
    assert board.band_places(48) == ((0, 16), (16, 32), (32, 48))


@pytest.mark.parametrize("size", [4, 6, 8, 12, 16, 20, 24])
def test_27_10_every_board_reads_at_phone_width(size: int) -> None:
    """Shown 390 pixels wide (a phone), every board's hexagons are at least 18 px across,
    its labels 9 px high and a two-digit distance 8.5 px: a player names a cell from the
    picture. (Before, a 16 × 32 board was drawn 1,580 wide: labels of 5 px at 390.)"""
    cell = picture.board_cell(size, 2 * size)
    rows_of = board.band_places(2 * size)
    width = max(
        picture.MIN_WIDTH,
        board.size_of(size, max(b - a for a, b in rows_of), cell)[0] + 2 * picture.PAD,
    )
    scale = 390 / (width + width % 2)
    assert cell * scale >= 18
    assert board.label_size(cell) * scale >= 9
    assert board._digits_size(2, cell) * scale >= 8.5


def test_27_10_a_banded_board_shows_every_cell_once_with_its_labels() -> None:
    bands, _ = board.plan_bands(16, 32, 37.0, left=20, top=0, gap=10)
    assert [(b.first, b.stop) for b in bands] == [(0, 16), (16, 32)]
    shown = [
        (row, b.first + place)
        for b in bands
        for row in range(16)
        for place in range(b.stop - b.first)
    ]
    assert len(set(shown)) == 16 * 32
    # a band's rows are labelled with the cells at its own ends: p16 continues as p17
    assert str(hexgrid.place_cell(16, 32, 15, 15)) == "p16"
    assert str(hexgrid.place_cell(16, 32, 15, 16)) == "p17"
    # a cell is found in the band that shows it
    second = bands[1].layout
    assert board.centre_in(bands, parse_cell("p17")) == hexgrid.centre(second, parse_cell("p17"))


# --- what the pictures show, and never show ---------------------------------------------


def _colour_at(png: bytes, view: PublicView, cell: str) -> tuple[int, int, int]:
    """The colour at a cell's centre on the public picture of ``view``."""
    lines = picture.header_lines(view, deadline=DEADLINE, now=NOW)
    layout = picture.plan(view, len(lines), [""], picture.PUBLIC_LEGEND)
    ((bands, _),) = layout.boards
    x, y = board.centre_in(bands, parse_cell(cell))
    pixel = image_of(png).getpixel((round(x), round(y)))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def test_1_hide_hits_draws_a_hit_only_in_its_own_turn() -> None:
    # after turn 3, ahab's sub carries the hit it took at b11 in turn 2 (now on c11)
    shown = public_of(first_game())
    hidden = public_of(first_game(hide_hits="on"))
    assert shown.board.hits == (parse_cell("c11"),) and hidden.board.hits == ()
    assert _colour_at(PICTURES.public(shown, avatars={}, **OPTIONS).png, shown, "c11") == HIT
    assert _colour_at(PICTURES.public(hidden, avatars={}, **OPTIONS).png, hidden, "c11") != HIT


HIDDEN_A = {"ahab": "2 a1 ur", "nemo": "2 a13 ur", "flint": "2 a9 ur"}
HIDDEN_B = {"ahab": "2 a1 ur", "nemo": "2 g17 dl", "flint": "2 a9 ur"}
HIDDEN_SHOTS = [("ahab", "b2"), ("nemo", "c2"), ("flint", "d1"), ("ahab", "e2")]
"""Every charge next to ahab's sub (a miss of 1, or a hit on it), far from nemo's: nothing
public tells the two games apart."""


def test_5_pictures_hide_what_nothing_public_tells_apart() -> None:
    one = given_battle(HIDDEN_A, HIDDEN_SHOTS, size="12")
    two = given_battle(HIDDEN_B, HIDDEN_SHOTS, size="12")
    assert SONAR.views.reveal(one) != SONAR.views.reveal(two)
    assert PICTURES.public(public_of(one), avatars={}, **OPTIONS) == PICTURES.public(
        public_of(two), avatars={}, **OPTIONS
    )
    for player in ("p1", "p3"):
        assert PICTURES.private(private_of(one, player), avatars={}, **OPTIONS) == PICTURES.private(
            private_of(two, player), avatars={}, **OPTIONS
        )
    assert PICTURES.private(private_of(one, "p2"), avatars={}, **OPTIONS) != PICTURES.private(
        private_of(two, "p2"), avatars={}, **OPTIONS
    )


def test_the_same_view_gives_the_same_bytes_with_cold_caches() -> None:
    view = private_of(first_game(), "p1")
    warm = PICTURES.private(view, avatars={}, **OPTIONS)
    picture._backdrop.cache_clear()
    board._digits_size.cache_clear()
    assert PICTURES.private(view, avatars={}, **OPTIONS) == warm


def test_alt_text_stays_within_xs_limit_on_the_largest_board() -> None:
    state = largest_game()
    for shown in (
        PICTURES.public(public_of(state), avatars={}, **OPTIONS),
        PICTURES.private(private_of(state, "p2"), avatars={}, **OPTIONS),
    ):
        assert len(shown.alt) <= MAX_ALT_TEXT
        assert "24 by 48 hex ocean" in shown.alt


def test_replay_through_the_protocol() -> None:
    state = first_game()
    boards = [(SONAR.views.reveal(state), PICTURES.frame_label(3, 0))]
    replay = PICTURES.replay(boards * 3, title="#sonar game 3", gif=True)
    assert replay.frame_count == 5
    assert replay.mp4[4:8] == b"ftyp" and replay.gif.startswith(b"GIF89a")
    assert 0.5 <= replay.duration_s <= 140
    assert PICTURES.replay(boards, title="#sonar game 3", gif=False).gif == b""


def test_5_own_subs_carry_their_numbers_as_the_text_does() -> None:
    """ "Your sub 2 was hit": the private board writes each sub's number on its hull."""
    from bot.games.sonar.board import Cell, Facing
    from renderers.sonar.board import Hull, draw_hull
    from renderers.sonar.hexgrid import HexLayout

    layout = HexLayout(rows=4, cols=8, cell=40.0, x0=10.0, y0=10.0, label_size=12)
    cells = (Cell(1, 4), Cell(1, 3), Cell(1, 2))
    plain = Image.new("RGB", (400, 200), (0, 0, 0))
    numbered = plain.copy()
    draw_hull(plain, layout, Hull(cells, Facing.RIGHT, (230, 200, 120), (110, 80, 30)))
    draw_hull(numbered, layout, Hull(cells, Facing.RIGHT, (230, 200, 120), (110, 80, 30), number=2))
    assert plain.tobytes() != numbered.tobytes()
    private = private_of(first_game(), "p1")
    assert private.subs
    numbers = [hull.number for hull in picture.own_hulls(private.subs)]
    assert numbers == [sub.id for sub in private.subs]


def test_8_the_end_post_shows_a_card_naming_the_winner_that_reads_on_a_phone() -> None:
    """Issue 42: the end post's picture was the replay's last frame, landscape (1,276 px,
    the ocean in one band) and nameless. It is now a portrait card the width of two phones:
    the winner and the top of the standings, then every sub revealed on the ocean cut in
    the public map's bands, whose labels read at 390 px."""
    import dataclasses

    from bot.games.sonar.state import Phase, Status
    from renderers import end_card
    from renderers.sonar.frames import card_board, standings

    during = SONAR.views.reveal(first_game())
    assert isinstance(during, RevealedView)
    winner, loser = during.public.captains[0], during.public.captains[1]
    ended = dataclasses.replace(
        during,
        public=dataclasses.replace(
            during.public,
            phase=Phase.FINISHED,
            winners=(winner.id,),
            captains=tuple(
                dataclasses.replace(c, status=Status.ELIMINATED) if c.id == loser.id else c
                for c in during.public.captains
            ),
        ),
    )
    boards = [(during, "Turn 4"), (ended, "The end")]
    data = PICTURES.replay(boards, title="#sonar game 3", gif=False).final
    final = Image.open(io.BytesIO(data))
    assert final.width == end_card.WIDTH and final.height > final.width
    golden("end_card.png", data)
    assert [(p.place, p.name) for p in standings(boards)][:1] == [(1, winner.name)]
    # the ocean is in the public map's bands: as many as its picture has
    assert card_board(ended).height > 2 * board.size_of(12, 16, picture.board_cell(12, 24))[1]
