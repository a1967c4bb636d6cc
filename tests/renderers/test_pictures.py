"""The host's way to the pictures: ``pictures_for(kind)`` and bst's ``PICTURES``.

bst's pictures through the protocol are the golden images of ``test_bst_maps`` (the same bytes
as before the pictures were split by game), with the alt text beside them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from render_views import DEADLINE, NOW, revealed_game, small_private, small_public

from bot.games.bst.views import PublicView, RevealedView
from renderers.bst import PICTURES
from renderers.bst.alt_text import private_alt_text, public_alt_text
from renderers.bst.frames import ReplayFrame, render_replay
from renderers.catalog import pictures_for
from renderers.pictures import expect_view, revealed_boards

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "bst" / "golden"
TITLE = "#bst game 3"
OPTIONS = {"title": TITLE, "deadline": DEADLINE, "now": NOW}


def test_the_host_finds_bst_pictures_by_the_games_kind() -> None:
    assert pictures_for("bst") is PICTURES


@pytest.mark.parametrize("kind", ["chess", "bst.frames", "../bst", ""])
def test_a_kind_without_a_pictures_package_has_no_pictures(kind: str) -> None:
    assert pictures_for(kind) is None


def test_public_picture_is_the_golden_map_with_its_alt_text() -> None:
    picture = PICTURES.public(small_public(), avatars={}, **OPTIONS)
    assert picture.png == (GOLDEN / "public_10x10.png").read_bytes()
    assert picture.alt == public_alt_text(small_public(), **OPTIONS)


def test_private_picture_is_the_golden_board_with_its_alt_text() -> None:
    picture = PICTURES.private(small_private(), avatars={}, **OPTIONS)
    assert picture.png == (GOLDEN / "private_10x10.png").read_bytes()
    assert picture.alt == private_alt_text(small_private(), **OPTIONS)
    assert "alice's private board" in picture.alt


def test_a_view_of_the_wrong_kind_is_refused_naming_the_kind_expected() -> None:
    with pytest.raises(TypeError, match="drawn from a PrivateView, got PublicView"):
        PICTURES.private(small_public(), avatars={}, **OPTIONS)
    with pytest.raises(TypeError, match="drawn from a PublicView, got PrivateView"):
        PICTURES.public(small_private(), avatars={}, **OPTIONS)


def test_replay_through_the_protocol_is_render_replay_of_the_same_frames() -> None:
    boards = revealed_game(2, size=10, players=2)
    labelled = [(board, PICTURES.frame_label(i, 0)) for i, board in enumerate(boards)]
    replay = PICTURES.replay(labelled, title="#bst game 1", gif=False)
    direct = render_replay(
        [ReplayFrame(board, label) for board, label in labelled], title="#bst game 1", gif=False
    )
    assert replay == direct
    assert replay.frame_count == len(boards) + 2 and replay.gif == b""


def test_frames_are_labelled_in_bsts_words() -> None:
    assert PICTURES.frame_label(0, 0) == "The fleets at the start"
    # A bst turn has one frame, whatever step of the turn its resolution was stored as.
    assert [PICTURES.frame_label(3, 0), PICTURES.frame_label(3, 1)] == ["Turn 3", "Turn 3"]
    assert PICTURES.end_label() == "The end"


def test_every_game_refuses_a_view_of_the_wrong_kind_in_its_own_name() -> None:
    with pytest.raises(TypeError, match=r"^Sonar's own board is drawn from a PublicView, got int"):
        expect_view(3, PublicView, game="Sonar", what="own board")
    with pytest.raises(TypeError, match=r"^Silent Ships' replay is drawn from a PublicView"):
        expect_view("a board", PublicView, game="Silent Ships", what="replay")
    view = small_public()
    assert expect_view(view, PublicView, game="bst", what="public map") is view


def test_the_replays_boards_are_checked_and_keep_their_labels_in_order() -> None:
    first, second = revealed_game(1, size=10, players=2)
    boards = [(first, "The fleets at the start"), (second, "Turn 1")]
    assert revealed_boards(boards, RevealedView, game="bst") == boards
    with pytest.raises(
        TypeError, match="bst's replay is drawn from a RevealedView, got PublicView"
    ):
        revealed_boards([*boards, (small_public(), "Turn 2")], RevealedView, game="bst")
