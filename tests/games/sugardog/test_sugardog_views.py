"""What the maps read from the public view (bot/games/sugardog/views.py, ``last_heard``
and ``blasts``): only announced facts, and what anyone can tell from them. It spans rules
§3 to §5, so it is named after the views, not a section."""

from __future__ import annotations

from sugardog_helpers import setup_game

from bot.games.sugardog import SUGARDOG
from bot.games.sugardog.state import UnitKind
from bot.games.sugardog.views import PublicView, blasts, last_heard


def public(table: object) -> PublicView:
    view = SUGARDOG.views.view(table.game_state(), None)  # type: ignore[attr-defined]
    assert isinstance(view, PublicView)
    return view


def heard(view: PublicView) -> list[tuple[str, str, int | None, str, int, bool]]:
    return [
        (h.unit.owner_name, h.unit.kind.value, h.unit.torpedo, str(h.cell), h.turn, h.pinged)
        for h in last_heard(view)
    ]


def test_3_a_contact_marks_where_a_unit_was_last_heard() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"})
    table.line("ahab dm: cruise up up")
    table.line("nemo dm: silent")
    table.line("ahab dm: cruise right right")
    assert heard(public(table)) == [("ahab", "submarine", None, "D4", 3, False)]


def test_4_a_ping_marks_every_unit_it_reports_silent_running_hides_nothing_else() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"})
    table.line("ahab dm: mine")
    table.line("nemo dm: ping")
    assert heard(public(table)) == [
        ("ahab", "submarine", None, "B2", 2, True),
        ("ahab", "mine", None, "B2", 2, True),
        ("nemo", "submarine", None, "E5", 2, True),
    ]
    table.line("ahab dm: silent up")  # quiet: the mark stays where he was seen
    assert ("ahab", "submarine", None, "B2", 2, True) in heard(public(table))


def test_5_a_torpedo_not_heard_on_its_owners_turn_has_left_the_board_for_everyone() -> None:
    table = setup_game({"ahab": "B2", "nemo": "E5"})
    table.line("ahab dm: torpedo right")  # C2, D2
    table.line("nemo dm: silent")
    assert ("ahab", "torpedo", 1, "D2", 1, False) in heard(public(table))
    table.line("ahab dm: silent")  # E2, F2
    table.line("nemo dm: silent")
    assert ("ahab", "torpedo", 1, "F2", 3, False) in heard(public(table))
    table.line("ahab dm: silent")  # off the board: lost, told only to ahab, yet anyone can tell
    assert [h for h in last_heard(public(table)) if h.unit.kind is UnitKind.TORPEDO] == []


def test_5_a_destroyed_captains_torpedo_stays_where_it_was_heard() -> None:
    table = setup_game({"ahab": "A1", "nemo": "J10", "kirk": "D4", "uhura": "D6"})
    table.line("ahab dm: silent")
    table.line("nemo dm: silent")
    table.line("kirk dm: torpedo right")  # E4, F4
    table.line("uhura dm: torpedo down")  # D5, D4: kirk goes down
    assert [(str(b.cell), b.turn, b.sank) for b in blasts(public(table))] == [("D4", 4, True)]
    for name in ("ahab", "nemo", "uhura", "ahab"):  # kirk has no more turns
        table.line(f"{name} dm: silent")
    assert ("kirk", "torpedo", 1, "F4", 3, False) in heard(public(table))


def test_4_a_ping_reports_everything_in_the_water_so_it_replaces_what_was_heard() -> None:
    table = setup_game({"ahab": "A1", "nemo": "F6", "kirk": "C6"})
    table.line("ahab dm: torpedo up")  # A2, A3
    table.line("nemo dm: cruise down down")  # F5, F4
    table.line("kirk dm: cruise left left")  # B6, A6
    table.line("ahab dm: silent")  # A4, A5
    table.line("nemo dm: silent")
    table.line("kirk dm: ping")
    # every mark is now the ping's (turn 6), however long ago each was heard before
    assert heard(public(table)) == [
        ("ahab", "submarine", None, "A1", 6, True),
        ("ahab", "torpedo", 1, "A5", 6, True),
        ("kirk", "submarine", None, "A6", 6, True),
        ("nemo", "submarine", None, "F4", 6, True),
    ]
