"""Sugar Dog's pictures (renderers/sugardog): what the maps mark, golden images, the
replay through the protocol, and that no picture shows what its viewer may not know.

The views come from games played with the rules themselves (``played`` below), so the
pictures are checked against what the game really shows each viewer. The golden PNGs
under ``tests/games/sugardog/golden/`` are compared byte for byte; after an intended
change to the drawing (or a Pillow upgrade), look at the new pictures and regenerate
them with ``BST_REGENERATE_GOLDEN=1 pytest tests/games/sugardog``.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.games.base import Channel, Given, PlayerRef
from bot.games.sugardog import SUGARDOG, SugarDogState
from bot.games.sugardog.board import Cell, Direction, parse_cell
from bot.games.sugardog.options import MAXIMUM_PLAYERS
from bot.games.sugardog.state import Captain
from bot.games.sugardog.views import PrivateView, PublicView, RevealedView, last_heard
from renderers.alt_text import MAX_ALT_TEXT
from renderers.catalog import pictures_for
from renderers.sugardog import PICTURES
from renderers.sugardog.chart import MAX_FADE, Glyph, private_chart, public_chart, revealed_chart
from renderers.sugardog.glyphs import slots
from renderers.sugardog.sea import MAX_WIDTH, MIN_CELL
from tests.golden_images import Golden, decode_png

check_golden = Golden(Path(__file__).parent / "golden").check
TITLE = "#sugardog game 3"
NOW = datetime(2026, 1, 1, 0, 1, 30, tzinfo=UTC)
DEADLINE = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)
OPTIONS: dict[str, Any] = {"title": TITLE, "deadline": DEADLINE, "now": NOW}

FIRST_GAME = [
    "mine",
    "torpedo right",
    "silent left",
    "timeout",
    "ping",
    "cruise up up",
    "torpedo left",
]
"""shared/examples/sugardog-first-game.txt (nemo, then ahab) up to turn 7."""


def played(cells: dict[str, str], orders: list[str], first: str | None = None) -> SugarDogState:
    """Captains join in order with their starting cells; then each order is the turn of
    whoever is to move (``timeout``: their time runs out)."""
    rng = random.Random(0)
    state = SUGARDOG.rules.new_game({"move_time": "1h"})
    ids = {name: f"p{n}" for n, name in enumerate(cells, 1)}
    for name in cells:
        if len(state.captains) < MAXIMUM_PLAYERS:
            state = SUGARDOG.rules.join(state, PlayerRef(ids[name], name))
        else:
            # Past today's cap (max_players): a game stored before there was one, which
            # the pictures must still draw.
            state = replace(state, captains=(*state.captains, Captain(ids[name], name)))
    for name, cell in cells.items():
        state = SUGARDOG.rules.accept(
            state, ids[name], SUGARDOG.rules.parse(cell), Channel.PRIVATE, rng
        ).state
    state = SUGARDOG.rules.start(state, rng, None if first is None else ids[first]).state
    for text in orders:
        if text == "timeout":
            (timer,) = SUGARDOG.rules.timers(state)
            state = SUGARDOG.rules.expire(state, timer.key, [], rng).state
            continue
        mover = state.current
        assert mover is not None
        order = SUGARDOG.rules.parse(text)
        accepted = SUGARDOG.rules.accept(state, mover, order, Channel.PRIVATE, rng)
        state = SUGARDOG.rules.resolve(accepted.state, [Given(mover, order, 0.0, 0)], rng).state
    return state


def first_game() -> SugarDogState:
    return played({"ahab": "B2", "nemo": "E5"}, FIRST_GAME, first="nemo")


def public_of(state: SugarDogState) -> PublicView:
    view = SUGARDOG.views.view(state, None)
    assert isinstance(view, PublicView)
    return view


def private_of(state: SugarDogState, player: str) -> PrivateView:
    view = SUGARDOG.views.view(state, player)
    assert isinstance(view, PrivateView)
    return view


def big_game(captains: int, turns: int) -> SugarDogState:
    """Many captains on a big board, quiet turns and some noise, from a fixed seed."""
    rng = random.Random(captains)
    size = 2 * captains + 2
    cells = {f"c{n}": str(Cell(rng.randrange(size), rng.randrange(size))) for n in range(captains)}
    state = played(cells, [])
    orders = []
    for _ in range(turns):
        orders.append(rng.choice(["ping", "silent", "torpedo up", "torpedo left", "mine"]))
    for text in orders:
        if state.phase.value != "battle":
            break
        mover = state.current
        assert mover is not None
        captain = state.captain(mover)
        assert captain is not None
        if text == "mine" and not captain.mines_left:
            text = "silent"
        state = played_on(state, text)
    return state


def played_on(state: SugarDogState, text: str) -> SugarDogState:
    mover = state.current
    assert mover is not None
    order = SUGARDOG.rules.parse(text)
    rng = random.Random(0)
    accepted = SUGARDOG.rules.accept(state, mover, order, Channel.PRIVATE, rng)
    return SUGARDOG.rules.resolve(accepted.state, [Given(mover, order, 0.0, 0)], rng).state


def decode(data: bytes) -> Image.Image:
    return decode_png(data).convert("RGB")


# ------------------------------------------------------------------ what the maps mark


def test_the_public_chart_marks_where_each_thing_was_last_heard_with_its_turn() -> None:
    chart = public_chart(public_of(first_game()))
    marks = {(str(m.cell), m.glyph, m.owner, m.turn) for m in chart.marks}
    assert marks == {
        ("B4", Glyph.SUBMARINE, "p1", 6),  # ahab's cruise, turn 6
        ("D5", Glyph.SUBMARINE, "p2", 5),  # nemo's ping, turn 5
        ("E5", Glyph.MINE, "p2", 5),
        ("B5", Glyph.TORPEDO, "p2", 7),  # nemo's torpedo, turn 7
    }
    # ahab's torpedo 1, last heard in F2 on turn 5, was not heard on his turn 6: it ran off
    assert all(m.owner != "p1" or m.glyph is not Glyph.TORPEDO for m in chart.marks)
    assert chart.ping is None  # the last turn was no ping


def test_older_marks_fade_and_the_last_turns_do_not() -> None:
    chart = public_chart(public_of(first_game()))
    fades = {m.turn: m.fade for m in chart.marks}
    assert fades[7] == 0.0
    assert 0.0 < fades[6] < fades[5] <= MAX_FADE


def test_a_captains_chart_shows_their_own_things_exactly_and_not_as_heard() -> None:
    chart = private_chart(private_of(first_game(), "p2"))  # nemo
    own = {(str(m.cell), m.glyph, m.direction) for m in chart.marks if m.own}
    assert own == {
        ("D5", Glyph.SUBMARINE, None),
        ("E5", Glyph.MINE, None),
        ("B5", Glyph.TORPEDO, Direction.LEFT),
    }
    heard = [m for m in chart.marks if not m.own]
    assert [(str(m.cell), m.owner) for m in heard] == [("B4", "p1")]


def test_a_ping_draws_its_rings_around_the_pinger() -> None:
    state = played({"ahab": "B2", "nemo": "E5"}, FIRST_GAME[:5], first="nemo")
    assert public_chart(public_of(state)).ping == parse_cell("D5")


def test_impacts_and_wrecks_are_marked_where_they_were_announced() -> None:
    state = played_on(first_game(), "cruise up right")  # ahab runs into nemo's torpedo
    chart = public_chart(public_of(state))
    at_b5 = {m.glyph for m in chart.marks if str(m.cell) == "B5"}
    assert at_b5 == {Glyph.IMPACT, Glyph.WRECK}


def test_a_replay_frame_reveals_everything_and_rings_the_last_turns_contacts() -> None:
    state = first_game()
    chart = revealed_chart(SUGARDOG.views.reveal(state))
    units = {(str(m.cell), m.glyph, m.owner) for m in chart.marks if m.glyph is not Glyph.RING}
    assert units == {
        ("B4", Glyph.SUBMARINE, "p1"),
        ("D5", Glyph.SUBMARINE, "p2"),
        ("E5", Glyph.MINE, "p2"),
        ("B5", Glyph.TORPEDO, "p2"),
    }
    rings = sorted(str(m.cell) for m in chart.marks if m.glyph is Glyph.RING)
    assert rings == ["B5", "C5"]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 9, 10])
def test_every_thing_sharing_a_cell_gets_its_own_slot(count: int) -> None:
    boxes = slots(count)
    assert len(boxes) == count
    for i, a in enumerate(boxes):
        assert 0 <= a[0] < a[2] <= 1 and 0 <= a[1] < a[3] <= 1
        for b in boxes[i + 1 :]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            assert overlap[0] <= 1e-9 or overlap[1] <= 1e-9


# ------------------------------------------------------------------ pictures


def test_the_host_finds_sugar_dogs_pictures_by_the_games_kind() -> None:
    assert pictures_for("sugardog") is PICTURES


def test_public_map_matches_golden() -> None:
    picture = PICTURES.public(public_of(first_game()), avatars={}, **OPTIONS)
    check_golden("public_6x6.png", picture.png)
    image = decode(picture.png)
    assert image.width <= MAX_WIDTH and image.width % 2 == 0 and image.height % 2 == 0


def test_a_captains_map_matches_golden() -> None:
    picture = PICTURES.private(private_of(first_game(), "p2"), avatars={}, **OPTIONS)
    check_golden("private_6x6.png", picture.png)
    assert picture.png != PICTURES.public(public_of(first_game()), avatars={}, **OPTIONS).png


def test_a_24_by_24_board_stays_detailed_and_matches_golden() -> None:
    state = big_game(11, 60)  # 2 x 11 + 2
    assert state.size == 24
    picture = PICTURES.public(public_of(state), avatars={}, **OPTIONS)
    check_golden("public_24x24.png", picture.png)
    # 24 columns of at least MIN_CELL pixels fit in the picture
    assert decode(picture.png).width >= 24 * MIN_CELL


def test_a_huge_board_is_drawn_compact_within_the_width() -> None:
    state = big_game(40, 60)
    assert state.size == 82
    image = decode(PICTURES.private(private_of(state, "p1"), avatars={}, **OPTIONS).png)
    assert image.width <= MAX_WIDTH


def test_drawing_twice_gives_the_same_bytes() -> None:
    view = public_of(first_game())
    assert PICTURES.public(view, avatars={}, **OPTIONS) == PICTURES.public(
        view, avatars={}, **OPTIONS
    )


def test_the_alt_text_says_the_turn_the_last_turn_and_what_was_heard() -> None:
    alt = PICTURES.public(public_of(first_game()), avatars={}, **OPTIONS).alt
    assert alt.startswith("#sugardog game 3, Sugar Dog map 6×6, after turn 7.")
    assert "Turn 7, nemo: torpedo. Contacts C5, B5." in alt
    assert "ahab to move." in alt
    assert "nemo's torpedo 1 heard at B5 on turn 7" in alt
    assert "nemo's mine pinged at E5 on turn 5" in alt
    private = PICTURES.private(private_of(first_game(), "p2"), avatars={}, **OPTIONS).alt
    assert "nemo's map. You: D5." in private and "nemo's mine pinged" not in private
    big = PICTURES.public(public_of(big_game(10, 80)), avatars={}, **OPTIONS).alt
    assert len(big) <= MAX_ALT_TEXT


def test_a_view_of_the_wrong_kind_is_refused_naming_the_kind_expected() -> None:
    with pytest.raises(TypeError, match="drawn from a PrivateView, got PublicView"):
        PICTURES.private(public_of(first_game()), avatars={}, **OPTIONS)
    with pytest.raises(TypeError, match="drawn from a PublicView, got PrivateView"):
        PICTURES.public(private_of(first_game(), "p1"), avatars={}, **OPTIONS)


def test_the_replay_through_the_protocol_has_a_frame_per_moment() -> None:
    states = [played({"ahab": "B2", "nemo": "E5"}, FIRST_GAME[:n], first="nemo") for n in range(4)]
    boards = [(SUGARDOG.views.reveal(s), PICTURES.frame_label(n, 0)) for n, s in enumerate(states)]
    assert all(isinstance(board, RevealedView) for board, _ in boards)
    replay = PICTURES.replay(boards, title="#sugardog game 1", gif=False)
    assert replay.frame_count == len(boards) + 2 and replay.gif == b""
    assert replay.mp4[4:8] == b"ftyp"


def test_frames_are_labelled_in_sugar_dogs_words() -> None:
    assert PICTURES.frame_label(0, 0) == "The submarines at the start"
    assert PICTURES.frame_label(3, 0) == "Turn 3"
    assert PICTURES.end_label() == "The end"


# ------------------------------------------------------------------ nothing hidden


QUIET = ["silent up", "mine", "silent", "timeout", "mine", "silent left"]


def test_the_public_map_is_the_same_bytes_whatever_the_hidden_facts() -> None:
    """Two games apart only in starting cells, silent moves and mine cells."""
    first = played({"ahab": "C3", "nemo": "D4"}, QUIET)
    second = played(
        {"ahab": "E2", "nemo": "B5"},
        [o.replace("up", "down").replace("left", "right") for o in QUIET],
    )
    assert SUGARDOG.codec.encode_state(first) != SUGARDOG.codec.encode_state(second)
    one, two = (PICTURES.public(public_of(s), avatars={}, **OPTIONS) for s in (first, second))
    assert one == two


def test_a_captains_map_is_the_same_bytes_whatever_the_others_hidden_facts() -> None:
    """nemo plays the same; only ahab's hidden facts differ: nemo's map cannot tell."""
    first = played({"ahab": "C3", "nemo": "D4"}, QUIET)
    moved = [o if n % 2 else o.replace("up", "right") for n, o in enumerate(QUIET)]
    second = played({"ahab": "B5", "nemo": "D4"}, moved)
    assert first.captain("p1") != second.captain("p1")
    one, two = (
        PICTURES.private(private_of(s, "p2"), avatars={}, **OPTIONS) for s in (first, second)
    )
    assert one == two
    ahab = [
        PICTURES.private(private_of(s, "p1"), avatars={}, **OPTIONS).png for s in (first, second)
    ]
    assert ahab[0] != ahab[1]  # (ahab's own map does show his own moves)


def test_no_public_alt_text_names_a_hidden_cell() -> None:
    state = played({"ahab": "C3", "nemo": "D4"}, QUIET)
    alt = PICTURES.public(public_of(state), avatars={}, **OPTIONS).alt
    assert not re.search(r"\b[A-F][1-6]\b", alt)
    assert last_heard(public_of(state)) == ()


def test_the_map_header_carries_the_whole_sonar_report_of_a_ping() -> None:
    """The header wraps a long last turn (a ping's report, nearest first) over lines
    instead of cutting it: every sighting can be read from the map."""
    from renderers import header
    from renderers.sugardog.sea import last_turn_text

    state = played({"ahab": "B2", "nemo": "E5"}, FIRST_GAME[:5], first="nemo")
    last = last_turn_text(public_of(state))
    assert last is not None and "Sonar report from D5: " in last
    lines = header.wrap_line(last, 750)
    assert len(lines) >= 2 and " ".join(lines) == last


def test_your_own_mine_is_drawn_as_a_mine_not_as_an_impact() -> None:
    """An own mine has dark spikes like every mine; white spikes around a gold core read
    as the impact's burst."""
    from renderers import style
    from renderers.sugardog.chart import Mark
    from renderers.sugardog.glyphs import OWN_EDGE, _draw

    image = Image.new("RGB", (90, 90), style.WATER)
    _draw(image, (0, 0, 90, 90), Mark(parse_cell("A1"), Glyph.MINE, "p1", own=True))
    colours = {colour for _, colour in image.getcolors(90 * 90) or []}
    assert OWN_EDGE not in colours
    assert style.darker(style.OWN_SHIP, 0.45) in colours


def test_8_the_end_post_shows_a_card_naming_the_winner_that_reads_on_a_phone() -> None:
    """Issue 42: the end post's picture was the replay's last frame (640 px, smaller than
    the turn maps) and named no winner. It is now a card the width of two phones: the
    winner and the top of the standings, then every submarine revealed."""
    from bot.games.sugardog.state import Phase, Status
    from renderers import end_card
    from renderers.sugardog.frames import ReplayFrame, standings

    during = SUGARDOG.views.reveal(first_game())
    assert isinstance(during, RevealedView)
    winner, loser = during.public.captains
    ended = replace(
        during,
        public=replace(
            during.public,
            phase=Phase.FINISHED,
            winners=(winner.id,),
            captains=(winner, replace(loser, status=Status.ELIMINATED)),
        ),
    )
    boards = [(during, "Turn 7"), (ended, "The end")]
    data = PICTURES.replay(boards, title="#sugardog game 1", gif=False).final
    final = decode_png(data)
    assert final.width == end_card.WIDTH and final.height > final.width
    check_golden("end_card.png", data)
    frames = [ReplayFrame(board, label) for board, label in boards]
    assert [(p.place, p.name, p.note) for p in standings(frames)] == [
        (1, winner.name, "afloat at the end"),
        (2, loser.name, "out in turn 7"),
    ]


def test_a_torpedo_heard_is_drawn_as_a_torpedo_not_a_submarines_hull() -> None:
    """#42: a contact's torpedo (its heading unknown) was a plain capsule, a submarine's
    hull in its captain's colour; now it is pointed at both ends, with fins amidships."""
    from renderers.sugardog.glyphs import submarine, torpedo

    water, fill, edge = (0, 0, 0), (250, 80, 200), (120, 30, 90)

    def drawn(draw: Any) -> Image.Image:
        image = Image.new("RGB", (100, 100), water)
        draw(image)
        return image

    box = (0.0, 0.0, 100.0, 100.0)
    heard = drawn(lambda image: torpedo(image, box, fill, edge, None))
    hull = drawn(lambda image: submarine(image, box, fill, edge))
    # Fins amidships, above and below the body (half-width 14 px: the fins reach 12.6).
    assert heard.getpixel((50, 39)) != water and heard.getpixel((50, 61)) != water

    # Pointed ends: at the nose, the body is a few pixels high where a hull is round and full.
    def height_at(image: Image.Image, x: int) -> int:
        return sum(1 for y in range(100) if image.getpixel((x, y)) != water)

    assert height_at(heard, 8) < height_at(heard, 30) / 2
    assert heard.tobytes() != hull.tobytes()
