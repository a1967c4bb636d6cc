"""Rules §5, what each player sees: the public board (shots and marks, moving hits, sunk
subs), a player's own subs and the board a turn before, and the text board."""

from __future__ import annotations

import dataclasses
import re

from sonar_helpers import given_game

from bot.games.sonar import SONAR
from bot.games.sonar.board import Facing
from bot.games.sonar.state import ShotResult
from bot.games.sonar.views import (
    OwnSubView,
    PrivateView,
    PublicView,
    RevealedView,
)

FLEETS = {"a": "2 a1 ur, 3 c5 ur", "b": "2 h5 ur, 3 j9 ur"}


def public(table: object) -> PublicView:
    view = SONAR.views.view(table.state, None)  # type: ignore[attr-defined]
    assert isinstance(view, PublicView)
    return view


def private(table: object, player: str) -> PrivateView:
    view = SONAR.views.view(table.state, player)  # type: ignore[attr-defined]
    assert isinstance(view, PrivateView)
    return view


def _types_in(value: object) -> set[type]:
    found = {type(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            found |= _types_in(getattr(value, item.name))
    elif isinstance(value, tuple | list):
        for item in value:
            found |= _types_in(item)
    return found


def test_5_the_public_view_holds_no_fleet() -> None:
    table = given_game(FLEETS)
    table.play(["a public: #sonar i5", "b public: #sonar p1, p2"])
    assert OwnSubView not in _types_in(public(table))


def test_5_public_after_each_turn_the_shots_with_their_marks() -> None:
    table = given_game(FLEETS)
    table.line("a public: #sonar i5")
    board = public(table).board
    assert board.after == 1 and board.player == "p1"
    assert [(str(s.cell), s.result, s.distance) for s in board.shots] == [
        ("i5", ShotResult.HIT, None)
    ]
    table.line("b public: #sonar p1, p2")
    shots = public(table).board.shots
    assert [s.result for s in shots] == [ShotResult.MISS, ShotResult.MISS]
    assert all(isinstance(s.distance, int) and s.distance > 0 for s in shots)


def test_5_hits_stay_visible_and_move_with_their_subs() -> None:
    table = given_game(FLEETS)
    table.line("a public: #sonar i5")
    table.line("b public: #sonar p1, p2")
    table.line("a public: #sonar p3, p4")
    assert [str(c) for c in public(table).board.hits] == ["k5"]


def test_5_sunk_subs_are_public_with_their_owner() -> None:
    table = given_game(FLEETS)
    table.play(["a public: #sonar i5", "b public: #sonar p1, p2", "a public: #sonar k5, j5"])
    view = public(table)
    (sunk,) = view.board.sunk
    assert (sunk.owner, sunk.sub, sunk.length, sunk.facing) == ("p2", 1, 2, Facing.UP_RIGHT)
    assert [str(c) for c in sunk.cells] == ["k5", "j5"]
    assert view.board.hits == ()  # a sunk sub is no longer a damaged one
    assert [c.subs_left for c in view.captains] == [2, 1]


def test_5_a_player_sees_their_own_subs_with_lengths_facings_and_hits() -> None:
    table = given_game(FLEETS)
    table.play(["a public: #sonar i5", "b public: #sonar p1, p2"])
    subs = private(table, "p2").subs
    assert [(s.id, s.length, s.facing, [str(c) for c in s.cells]) for s in subs] == [
        (1, 2, Facing.UP_RIGHT, ["j5", "i5"]),
        (2, 3, Facing.UP_RIGHT, ["l9", "k9", "j9"]),
    ]
    assert [str(c) for c in subs[0].hits] == ["j5"]
    assert str(subs[0].stern) == "i5"  # where the propeller is drawn


def test_5_below_the_current_board_the_previous_turns_board() -> None:
    table = given_game(FLEETS)
    assert public(table).previous is None
    table.play(["a public: #sonar i5", "b public: #sonar p1, p2"])
    view = private(table, "p2")
    assert view.public.previous is not None
    assert view.public.previous.after == 1
    assert [str(s.cell) for s in view.public.previous.shots] == ["i5"]
    assert view.previous_subs is not None
    assert [str(c) for c in view.previous_subs[0].cells] == ["i5", "h5"]


def test_5_someone_outside_the_game_sees_the_public_view() -> None:
    table = given_game(FLEETS)
    assert SONAR.views.view(table.state, "p9") == public(table)


def test_5_the_text_board_shows_the_public_marks_and_only_the_viewers_subs() -> None:
    table = given_game(FLEETS)
    table.play(["a public: #sonar i5", "b public: #sonar p1, p2"])
    text = SONAR.words.summary(table.state, None) + "\n" + SONAR.words.text_board(table.state, None)
    assert "turn 3: a to move (2 charges)" in text
    assert "Turn 2 (b): p1 miss" in text
    assert " S" not in text and "Your subs" not in text
    assert len(_grid(text)) == 2 * 16  # the 16 rows in each of two bands
    assert "S" not in "".join(_grid(text))
    mine = SONAR.words.summary(table.state, "p2") + "\n" + SONAR.words.text_board(table.state, "p2")
    assert "Your subs: 1: 2 j5 i5 ur (hit at j5); 2: 3 l9 k9 j9 ur." in mine
    assert "".join(_grid(mine)).count("S") == 4  # b's four unhit segments
    # the turn before is told in words under the one board (issue 42, item 14)
    assert "The turn before (after turn 1): your subs 1: i5 h5; 2: k9 j9 i9; charges i5" in mine
    assert len(_grid(mine)) == 2 * 16


def test_14_the_text_board_is_drawn_once_in_bands_each_under_its_columns() -> None:
    """Issue 42: on a text platform a 16×32 board ran about 4,100 characters a turn (the
    board and the turn before, 100 characters a row) with no column header. Now the board
    is drawn once, cut in two bands of 16 cells, each under its top row's column numbers,
    every row's letter with its first and last columns at its ends."""
    table = given_game(FLEETS)
    table.play(["a public: #sonar i5", "b public: #sonar p1, p2"])
    mine = SONAR.words.text_board(table.state, "p2")
    lines = mine.splitlines()
    headers = [line for line in lines if line.split() and all(w.isdigit() for w in line.split())]
    assert [h.split() for h in headers] == [
        [str(n) for n in range(1, 17)],
        [str(n) for n in range(17, 33)],
    ]
    top = next(line for line in lines if line.startswith("p"))
    assert top.split()[:2] == ["p", "1"] and top.split()[-2:] == ["p", "16"]
    first_cell = re.match(r"p +1\s+", top)
    assert first_cell is not None and headers[0].index("1") == first_cell.end()  # aligned
    assert max(len(line) for line in lines if line in _grid(mine)) <= 64
    assert len(mine) <= 2_400


def _grid(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"[a-x] +\d+ ", line)]


def test_5_reveal_shows_every_fleet_now_and_at_the_start() -> None:
    table = given_game(FLEETS)
    table.line("a public: #sonar i5")
    revealed = SONAR.views.reveal(table.state)
    assert isinstance(revealed, RevealedView)
    assert [f.owner for f in revealed.fleets] == ["p1", "p2"]
    assert [str(c) for c in revealed.fleets[1].start[0].cells] == ["h5", "g5"]
    assert [str(c) for c in revealed.fleets[1].subs[0].cells] == ["i5", "h5"]
