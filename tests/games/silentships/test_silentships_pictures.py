"""Silent Ships' pictures (rules §6): found by the host, drawn from views only, the same
bytes for the same view (golden images), and never showing a face-down ship or a card in
hand to anyone but its owner.

Regenerate the golden images after an intended change of the drawing with
``BST_REGENERATE_GOLDEN=1 pytest tests/games/silentships`` and look at them before
committing.
"""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat
from silentships_views import (
    AFTER_COMBAT,
    AFTER_GO,
    GAME,
    first_game,
    flag_ship_game,
    play,
)

from bot.games.silentships import SilentShipsState
from bot.games.silentships.ships import SHIP_ORDER, Ship
from renderers.catalog import pictures_for
from renderers.replay import MAX_HEIGHT, MAX_WIDTH
from renderers.silentships import PICTURES, cards
from renderers.silentships.frames import frame_picture, revealed_tokens
from renderers.silentships.picture import compose, private_tokens, public_tokens
from tests.golden_images import Golden

golden = Golden(Path(__file__).parent / "golden").check
TITLE = "#silentships game 3"
DEADLINE = datetime(2026, 1, 2, tzinfo=UTC)
NOW = datetime(2026, 1, 1, 0, 5, tzinfo=UTC)
OPTIONS = {"title": TITLE, "deadline": DEADLINE, "now": NOW, "avatars": {}}


def png_of(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# --- the host's way in -------------------------------------------------------------


def test_the_host_finds_silentships_pictures_by_the_games_kind() -> None:
    assert pictures_for("silentships") is PICTURES


def test_a_view_of_the_wrong_kind_is_refused_naming_the_kind_expected() -> None:
    state = first_game()[AFTER_GO]
    with pytest.raises(TypeError, match="drawn from a PrivateView, got PublicView"):
        PICTURES.private(GAME.views.view(state, None), **OPTIONS)
    with pytest.raises(TypeError, match="drawn from a PublicView, got PrivateView"):
        PICTURES.public(GAME.views.view(state, "p1"), **OPTIONS)
    with pytest.raises(TypeError, match="drawn from a RevealedView, got PublicView"):
        PICTURES.replay([(GAME.views.view(state, None), "Turn 1")], title=TITLE, gif=False)


def test_frames_are_labelled_in_the_games_words() -> None:
    assert PICTURES.frame_label(0, 0) == "The start: three cards each"
    assert [PICTURES.frame_label(3, 0), PICTURES.frame_label(3, 4)] == [
        "Turn 3, move 1",
        "Turn 3, move 5",
    ]
    assert PICTURES.end_label() == "The end"


# --- golden images -------------------------------------------------------------------


def test_public_picture_of_an_attack_waiting_for_the_defender() -> None:
    view = GAME.views.view(first_game()[AFTER_GO], None)
    picture = PICTURES.public(view, **OPTIONS)
    golden("public_attack.png", picture.png)
    assert "nemo answers the attack on D3" in picture.alt
    assert "ahab attacks nemo's unit on D3 from D2" in picture.alt


def test_public_picture_of_a_combat_shows_the_totals() -> None:
    view = GAME.views.view(first_game()[AFTER_COMBAT], None)
    picture = PICTURES.public(view, **OPTIONS)
    golden("public_combat.png", picture.png)
    assert "Last combat on D3: ahab 7 against nemo 3, the attack wins, a ship sunk" in picture.alt


def test_private_picture_shows_the_players_own_ships_and_hand() -> None:
    view = GAME.views.view(first_game()[3], "p1")
    picture = PICTURES.private(view, **OPTIONS)
    golden("private_hand.png", picture.png)
    assert "Your hand: Speed Boat, Salvage Ship." in picture.alt
    assert "C1 Ramming Ship (face-down)" in picture.alt and "D2 Frigate (face-down)" in picture.alt


def test_replay_frame_of_the_end_shows_every_card() -> None:
    view = GAME.views.reveal(flag_ship_game()[-1])
    golden("replay_end.png", png_of(frame_picture(view, title=TITLE, label="The end")))


def test_card_faces_of_every_ship() -> None:
    sheet = Image.new("RGBA", (6 * 160, 2 * 224), (0, 0, 0, 0))
    for i, ship in enumerate(SHIP_ORDER):
        face = cards.card_face(ship, 156, 220)
        assert face.size == (156, 220)
        sheet.paste(face, ((i % 6) * 160, (i // 6) * 224))
    golden("cards.png", png_of(sheet))
    faces = {cards.card_face(ship, 156, 220).tobytes() for ship in SHIP_ORDER}
    assert len(faces) == len(SHIP_ORDER)  # each ship has its own face


def test_the_same_view_gives_the_same_bytes() -> None:
    state = first_game()[AFTER_COMBAT]
    one = PICTURES.public(GAME.views.view(state, None), **OPTIONS)
    again = PICTURES.public(
        GAME.views.view(GAME.codec.decode_state(GAME.codec.encode_state(state)), None), **OPTIONS
    )
    assert one == again


# --- the encoding: a palette PNG that looks like the drawing (issue 18) ---------------


def largest_difference(one: Image.Image, two: Image.Image) -> Image.Image:
    """Per pixel, the largest difference of the three channels (0 to 255)."""
    red, green, blue = ImageChops.difference(one.convert("RGB"), two.convert("RGB")).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


def where(difference: Image.Image) -> Image.Image:
    """A mask of the pixels where ``difference`` is not 0."""
    return difference.point(lambda value: 255 if value else 0)


def portrait(shade: int) -> Image.Image:
    """An avatar like a photo: a shaded face on a sky growing lighter (smooth, few hues)."""
    sky = Image.new("RGB", (128, 128))
    sky.putdata([(60 + y + shade, 120 + y, 220) for y in range(128) for _ in range(128)])
    face = Image.new("RGB", (128, 128))
    face.putdata(
        [
            (230 - (x + y) // 3, 170 - (x + y) // 3, 130 - (x + y) // 4)
            for y in range(128)
            for x in range(128)
        ]
    )
    mask = Image.new("L", (128, 128), 0)
    ImageDraw.Draw(mask).ellipse((30, 24, 98, 110), fill=255)
    sky.paste(face, (0, 0), mask)
    return sky


def test_pictures_are_palette_pngs_within_a_shade_of_the_drawing() -> None:
    view = GAME.views.view(first_game()[AFTER_COMBAT], None)
    drawn = compose(view, public_tokens(view), title=TITLE, deadline=DEADLINE, now=NOW, avatars={})
    picture = PICTURES.public(view, avatars={}, title=TITLE, deadline=DEADLINE, now=NOW)
    png = Image.open(io.BytesIO(picture.png))
    assert png.mode == "P" and png.size == drawn.size
    difference = largest_difference(drawn, png)
    assert ImageStat.Stat(difference).mean[0] < 1.0  # of 255, over the whole picture
    # Flat areas stay flat and keep their colour: water, panels, islands, cards.
    for _, colour in sorted(drawn.getcolors(1 << 16) or [], reverse=True)[:8]:
        assert isinstance(colour, tuple)  # an RGB picture's colours
        plain = Image.new("RGB", drawn.size, colour)
        exactly = ImageChops.invert(where(largest_difference(drawn, plain)))
        assert ImageStat.Stat(difference, exactly).extrema[0][1] <= 2, colour


def test_an_avatar_like_a_photo_keeps_its_look_on_the_palette() -> None:
    view = GAME.views.view(first_game()[AFTER_COMBAT], None)
    photos = {admiral.id: portrait(20 * i) for i, admiral in enumerate(view.admirals)}
    tokens = public_tokens(view)
    drawn = compose(view, tokens, title=TITLE, deadline=DEADLINE, now=NOW, avatars=photos)
    without = compose(view, tokens, title=TITLE, deadline=DEADLINE, now=NOW, avatars={})
    avatars = where(largest_difference(drawn, without))  # the avatars' pixels
    png = PICTURES.public(view, avatars=photos, title=TITLE, deadline=DEADLINE, now=NOW).png
    difference = largest_difference(drawn, Image.open(io.BytesIO(png)))
    # A few shades off on average (of 255): smooth shading, not bands of flat colour.
    assert ImageStat.Stat(difference, avatars).mean[0] < 5.0
    assert ImageStat.Stat(difference, ImageChops.invert(avatars)).mean[0] < 1.0


# --- nothing hidden ---------------------------------------------------------------------

SECRET_LINES = (
    "ahab: play {a1} at C1",
    "ahab: move C1 to C2 discard {a2}",
    "ahab: play {a3} at D1",
    "ahab: move D1 to D2 discard {a4}",
    "ahab: !end",
    "nemo: play {b1} at C4",
    "nemo: move C4 to C3 discard {b2}",
    "nemo: move C3 to C2 discard {b3}",
    "nemo: !go",
    "ahab: retreat discard {a5}",
    "nemo: !retreat to B2",
    "nemo: play {b4} at C4",
    "nemo: !end",
)
"""Plays, moves, an attack and a retreat — and no combat, so no card is ever face-up: the
two games below differ only in their secrets (which ship is where, which cards are held)."""


def secret_game(deck1: list[Ship], deck2: list[Ship]) -> list[SilentShipsState]:
    names = {f"a{i}": s.card.short for i, s in enumerate(deck1, start=1)}
    names |= {f"b{i}": s.card.short for i, s in enumerate(deck2, start=1)}
    options = {
        "first": "joined",
        "deck1": ",".join(s.value for s in deck1),
        "deck2": ",".join(s.value for s in deck2),
    }
    return play(tuple(line.format(**names) for line in SECRET_LINES), options)


def shuffled(seed: int) -> list[Ship]:
    deck = list(SHIP_ORDER)
    random.Random(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("seed", [1, 2])
def test_6_public_pictures_are_the_same_whatever_the_hidden_cards(seed: int) -> None:
    one = secret_game(list(SHIP_ORDER), list(reversed(SHIP_ORDER)))
    two = secret_game(shuffled(seed), shuffled(seed + 50))
    assert len(one) == len(two) == len(SECRET_LINES) + 1
    for before, after in zip(one, two, strict=True):
        assert not any(unit.face_up for unit in before.units)
        public_one = PICTURES.public(GAME.views.view(before, None), **OPTIONS)
        public_two = PICTURES.public(GAME.views.view(after, None), **OPTIONS)
        assert public_one == public_two  # the same PNG bytes and the same alt text
    # A player's own picture does show their cards: there the games differ.
    private_one = PICTURES.private(GAME.views.view(one[-1], "p1"), **OPTIONS)
    private_two = PICTURES.private(GAME.views.view(two[-1], "p1"), **OPTIONS)
    assert private_one.png != private_two.png


def test_6_a_face_down_unit_is_drawn_as_its_owners_card_back() -> None:
    state = first_game()[AFTER_GO]
    public = GAME.views.view(state, None)
    assert {(str(t.cell), t.ship) for t in public_tokens(public)} == {
        ("C3", None),
        ("D2", None),
        ("D3", None),
        ("C4", None),
    }
    # ahab's own picture names ahab's units only, marked as face-down.
    mine = {str(t.cell): (t.ship, t.hidden) for t in private_tokens(GAME.views.view(state, "p1"))}
    assert mine == {
        "C3": (Ship.RAMMING_SHIP, True),
        "D2": (Ship.FRIGATE, True),
        "D3": (None, False),
        "C4": (None, False),
    }
    # The replay, after the game, shows all of them.
    every = {str(t.cell): t.ship for t in revealed_tokens(GAME.views.reveal(state))}
    assert every == {
        "C3": Ship.RAMMING_SHIP,
        "D2": Ship.FRIGATE,
        "D3": Ship.SUBMARINE,
        "C4": Ship.MISSILE_BOAT,
    }


def test_6_public_alt_text_names_only_face_up_ships() -> None:
    states = first_game()
    for state in states:
        text = PICTURES.public(GAME.views.view(state, None), **OPTIONS).alt
        public = {u.ship for u in state.units if u.face_up}
        public |= {ship for admiral in state.admirals for ship in admiral.sank}
        public |= {f.ship for f in state.combat.fighters} if state.combat else set()
        for ship in {u.ship for u in state.units if not u.face_up} - public:
            assert ship.card.name not in text, (ship, text)
        assert len(text) <= 1000


# --- the replay ------------------------------------------------------------------------


def test_replay_has_a_frame_per_board_and_fits_the_platforms() -> None:
    states = flag_ship_game()
    boards = [(GAME.views.reveal(s), PICTURES.frame_label(1, i)) for i, s in enumerate(states)]
    replay = PICTURES.replay(boards, title=TITLE, gif=False)
    assert replay.frame_count == len(boards) + 2 and replay.gif == b""
    assert replay.mp4[4:8] == b"ftyp" and 0.5 <= replay.duration_s <= 140
    first = frame_picture(boards[0][0], title=TITLE, label=boards[0][1])
    assert first.width <= MAX_WIDTH and first.height <= MAX_HEIGHT
    assert first.width % 2 == 0 and first.height % 2 == 0


def test_2_a_salvage_ship_shows_its_attack_now_on_the_board_and_in_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rules §2: the Salvage Ship's attack is 2 plus one for each ship its owner sank, and
    its card says so wherever it is drawn: the board token and the owner's hand."""
    from dataclasses import replace

    from bot.games.silentships.views import UnitView

    private = GAME.views.view(first_game()[3], "p1")  # ahab's hand: Speed Boat, Salvage Ship
    assert Ship.SALVAGE_SHIP in private.hand
    public = private.public
    admirals = tuple(
        replace(a, sank=(Ship.SUBMARINE, Ship.FIRE_SHIP)) if a.id == "p1" else a
        for a in public.admirals
    )
    salvage_afloat = UnitView(public.units[0].cell, "p1", "ahab", True, Ship.SALVAGE_SHIP)
    public = replace(public, admirals=admirals, units=(salvage_afloat, *public.units[1:]))
    private = replace(private, public=public)
    drawn: list[tuple[str, Ship, int | None]] = []
    token_face, card_face = cards.token_face, cards.card_face

    def spy_token(ship: Ship, *args: object) -> cards.Stamp:
        drawn.append(("token", ship, args[-1] if len(args) == 5 else None))
        return token_face(ship, *args)  # type: ignore[arg-type]

    def spy_card(ship: Ship, width: int, height: int, **kw: object) -> Image.Image:
        drawn.append(("hand", ship, kw.get("attack")))  # type: ignore[arg-type]
        return card_face(ship, width, height, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(cards, "token_face", spy_token)
    monkeypatch.setattr(cards, "card_face", spy_card)
    PICTURES.private(private, **OPTIONS)
    assert ("token", Ship.SALVAGE_SHIP, 4) in drawn
    assert ("hand", Ship.SALVAGE_SHIP, 4) in drawn
    assert ("hand", Ship.SPEED_BOAT, Ship.SPEED_BOAT.card.attack) in drawn
    grown = cards.token_face(Ship.SALVAGE_SHIP, 84, 103, (200, 0, 0), False, 4)
    printed = cards.token_face(Ship.SALVAGE_SHIP, 84, 103, (200, 0, 0), False)
    assert grown.rgb.tobytes() != printed.rgb.tobytes()


def test_8_the_end_post_shows_a_card_naming_the_winner_that_reads_on_a_phone() -> None:
    """Issue 42: the end post's picture was the replay's last frame, landscape (1,280 px).
    It is now a portrait card the width of two phones: the winner and why, both admirals,
    and the board with every card face-up."""
    from renderers import end_card
    from renderers.silentships.frames import standings

    states = flag_ship_game()
    boards = [(GAME.views.reveal(s), PICTURES.frame_label(1, i)) for i, s in enumerate(states)]
    last = boards[-1][0].public
    assert last.winners
    data = PICTURES.replay(boards, title=TITLE, gif=False).final
    final = Image.open(io.BytesIO(data))
    assert final.width == end_card.WIDTH and final.height > final.width
    golden("end_card.png", data)
    top = standings(last)[0]
    assert top.place == 1 and top.name == {a.id: a.name for a in last.admirals}[last.winners[0]]
