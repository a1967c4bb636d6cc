"""Rules §4: what is public, and the views, boards and words built on it."""

from __future__ import annotations

import re

from uboat_helpers import Driver, begin, give_island, set_boat

from bot.games.uboat import UBOAT
from bot.games.uboat.cells import parse_cell
from bot.games.uboat.views import PrivateView, PublicView, RevealedView

CELL = re.compile(r"\b[A-Z][1-9][0-9]?\b")


def _public_cells(driver: Driver) -> set[str]:
    """The cells a public post may name: blast tiles, rams' struck tiles, islands."""
    assert driver.state is not None
    allowed = {str(island.cell) for island in driver.state.options.islands}
    for _, resolution in driver.resolutions:
        for event in resolution.events:
            if event.type == "fire":
                allowed.add(event.data["cell"])
            if event.type == "rammed":
                allowed.add(event.data["struck"])
    return allowed


def _busy_game() -> Driver:
    driver = begin({"a": "B5", "b": "F8", "c": "H5", "d": "F4"})
    for line in (
        "a dm: fire D5",
        "b dm: move up up left",
        "c dm: ram left",
        "d dm: move down",
        "@close",
        "d dm: evade up up",
        "@close",
        "a dm: move right right",
        "b dm: move down down",
        "c dm: fire E6",
        "d dm: move left",
        "@close",
    ):
        driver.line(line)
    return driver


def test_4_public_reports_name_no_hidden_cell() -> None:
    driver = _busy_game()
    allowed = _public_cells(driver)
    names = {v: k for k, v in driver.ids.items()}
    for _, resolution in driver.resolutions:
        for line in UBOAT.words.public_report(resolution.events, names):
            assert set(CELL.findall(line)) <= allowed, line


def test_4_public_board_names_no_hidden_cell() -> None:
    driver = _busy_game()
    assert driver.state is not None
    summary = UBOAT.words.summary(driver.state, None)
    boat_cells = {str(b.cell) for b in driver.state.boats}
    blast_tiles = _public_cells(driver)
    for cell in boat_cells - blast_tiles:
        assert cell not in summary
    assert "@" not in summary


def test_4_routes_are_public_as_directions() -> None:
    driver = begin({"a": "A1", "b": "H8"}, "islands=none")
    driver.line("a dm: move up, up, left")
    driver.line("@close")
    report = UBOAT.words.public_report(driver.resolutions[-1][1].events, {})
    assert report == ["Red: up, up, left."]


def test_4_hits_name_colour_and_damage_not_position() -> None:
    driver = begin({"a": "A3", "b": "C3", "c": "C4"}, "islands=none")
    driver.line("a dm: fire C3")
    driver.line("@close")
    report = UBOAT.words.public_report(driver.resolutions[-1][1].events, {})
    assert report == ["Red fired at C3: hit Blue (2 damage), Green (1 damage)."]
    assert "C4" not in " ".join(report)


def test_4_crew_joins_and_sinkings_are_public() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"})
    give_island(driver, 2, "blue")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    names = {v: k for k, v in driver.ids.items()}
    report = UBOAT.words.public_report(driver.resolutions[-1][1].events, names)
    assert "Blue was sunk. Island 2 is free." in report
    driver.line("b dm: crew green")
    driver.line("@close")
    report = UBOAT.words.public_report(driver.resolutions[-1][1].events, names)
    assert "b joined Green's crew." in report


def test_4_private_facts_are_not_in_public_reports() -> None:
    driver = begin({"a": "A1", "b": "C1"}, "islands=3@I5,1@I9")
    give_island(driver, 3, "red")
    give_island(driver, 1, "red")
    set_boat(driver, "red", health=2)
    driver.line("b dm: fire A2")  # Red beside it: damaged; moves of Red cancelled
    driver.line("a dm: move down")
    driver.line("@close")
    events = driver.resolutions[-1][1].events
    assert {e.type for e in events} >= {"cancelled", "sonar"}
    report = " ".join(UBOAT.words.public_report(events, {}))
    assert "cancel" not in report and "Sonar" not in report and "health" not in report


def test_4_the_public_view_has_no_cells_or_health_of_boats() -> None:
    driver = _busy_game()
    assert driver.state is not None
    view = UBOAT.views.view(driver.state, None)
    assert isinstance(view, PublicView)
    assert not any(hasattr(boat, "cell") or hasattr(boat, "health") for boat in view.boats)
    assert [b.colour.value for b in view.boats] == ["red", "blue", "green", "yellow"]
    assert [blast.cell for blast in view.blasts] == [parse_cell("E6")]


def test_4_each_crew_sees_its_own_position_and_health() -> None:
    driver = _busy_game()
    assert driver.state is not None
    view = UBOAT.views.view(driver.state, "p2")
    assert isinstance(view, PrivateView)
    assert view.boat is not None
    assert (str(view.boat.cell), view.boat.health, view.boat.range) == ("E6", 1, 3)
    summary = UBOAT.words.summary(driver.state, "p2")
    assert "at E6, health 1" in summary
    assert "D5" not in summary.split("Round 2:")[0]  # Red's cell is not Blue's to see


def test_4_the_reveal_shows_everything() -> None:
    driver = _busy_game()
    assert driver.state is not None
    reveal = UBOAT.views.reveal(driver.state)
    assert isinstance(reveal, RevealedView)
    assert [(b.colour.value, str(b.cell), b.health) for b in reveal.boats] == [
        ("red", "D5", 3),
        ("blue", "E6", 1),
        ("green", "G5", 3),
        ("yellow", "E3", 1),
    ]


def test_4_an_adrift_player_sees_their_choices() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "H8"}, "islands=none")
    set_boat(driver, "blue", health=1)
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert driver.state is not None
    view = UBOAT.views.view(driver.state, "p2")
    assert isinstance(view, PrivateView)
    assert view.adrift and [c.value for c in view.crew_choices] == ["red", "green"]
    assert "crew COLOUR" in UBOAT.words.summary(driver.state, "p2")


def test_4_the_crews_board_shows_what_stands() -> None:
    driver = begin({"a": "A1", "b": "H8"}, "islands=none")
    driver.line("a dm: fire A3")
    assert driver.state is not None
    view = UBOAT.views.view(driver.state, "p1")
    assert isinstance(view, PrivateView) and view.boat is not None
    assert view.boat.standing == "fire A3"
    public = UBOAT.views.view(driver.state, None)
    assert "A3" not in UBOAT.words.summary(driver.state, None)
    assert isinstance(public, PublicView)


def test_4_words_are_written() -> None:
    driver = _busy_game()
    assert driver.state is not None
    state = driver.state
    names = {v: k for k, v in driver.ids.items()}
    assert "join" in UBOAT.words.opening(state)
    assert "Red" in UBOAT.words.welcome(state, "p1", 3)
    assert "Red (a)" in UBOAT.words.beginning(state, names)
    assert "fire" in UBOAT.words.hint(state)
    assert UBOAT.words.report_title(3) == "round 3"
    assert UBOAT.words.quiet_report()
    assert UBOAT.words.board_heading("#uboat game 3", 2) == "#uboat game 3, round 2:"
    assert UBOAT.words.result(state, names) == ""
    assert "2 h" in UBOAT.words.reminder(state, "2 h")
    assert UBOAT.words.replay_caption()
    assert UBOAT.rules.parse(UBOAT.words.example())
    assert UBOAT.words.player_word(1) == "captain" and UBOAT.words.player_word(2) == "captains"
    assert "evade" in UBOAT.words.help_text() and "Dry dock" in UBOAT.words.rules_text()
