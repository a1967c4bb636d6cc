"""Rules §7: the house island powers, for the owner as the round began."""

from __future__ import annotations

from uboat_helpers import begin, cell_of, give_island, health_of, last_events, of_type, set_boat

from bot.games.uboat import UBOAT


def test_7_sonar_reading_as_the_next_round_begins_privately() -> None:
    driver = begin({"a": "A1", "b": "D2", "c": "E5"}, "islands=1@I9")
    give_island(driver, 1, "red")
    driver.line("b dm: move down")  # to D3: 3 + 2 = 5 away from A1
    driver.line("@close")
    assert of_type(last_events(driver), "sonar") == [
        {"type": "sonar", "boat": "red", "distance": 5}
    ]
    notes = [n for n in driver.resolutions[-1][1].notices if "Sonar" in n.text]
    assert [(n.to, n.crew) for n in notes] == [("p1", True)]
    assert UBOAT.words.public_report(driver.resolutions[-1][1].events, {}) == ["Blue: down."]


def test_7_sonar_counts_from_its_capture() -> None:
    driver = begin({"a": "I4", "b": "D2"}, "islands=1@I5")
    driver.line("a dm: fire I5")
    driver.line("@close")
    events = last_events(driver)
    assert [e["type"] for e in events] == ["fire", "captured", "sonar"]


def test_7_no_sonar_with_powers_off() -> None:
    driver = begin({"a": "A1", "b": "D2"}, "islands=1@I5 island_powers=none")
    give_island(driver, 1, "red")
    driver.line("@close")
    assert of_type(last_events(driver), "sonar") == []


def test_7_long_guns_add_range_before_the_reduction() -> None:
    driver = begin({"a": "A1", "b": "H8"}, "islands=2@I5")
    give_island(driver, 2, "red")
    set_boat(driver, "red", fired_in_a_row=1)
    driver.line("a dm: fire A5")  # 4 away, range 4 - 1 = 3
    driver.line("a dm: fire A4")  # 3 away
    assert len(driver.refusals("a")) == 1 and "+1 with Long guns" in driver.refusals("a")[0]


def test_7_dry_dock_heals_an_owner_who_did_not_fire() -> None:
    driver = begin({"a": "A1", "b": "H8"}, "islands=3@I5")
    give_island(driver, 3, "red")
    set_boat(driver, "red", health=1)
    driver.line("a dm: move right")
    driver.line("@close")
    assert of_type(last_events(driver), "healed") == [
        {"type": "healed", "boat": "red", "health": 2}
    ]
    assert health_of(driver, "red") == 2
    healed = [n for n in driver.resolutions[-1][1].notices if "Dry dock" in n.text]
    assert healed and healed[0].crew
    driver.line("a dm: fire A3")
    driver.line("@close")
    assert of_type(last_events(driver), "healed") == []


def test_7_dry_dock_never_above_three_and_after_step_5() -> None:
    driver = begin({"a": "A1", "b": "C1"}, "islands=3@I5")
    give_island(driver, 3, "blue")
    set_boat(driver, "blue", health=2)
    driver.line("a dm: fire C1")  # Blue to 0: destroyed before the Dry dock
    driver.line("@close")
    events = last_events(driver)
    assert of_type(events, "healed") == []
    assert of_type(events, "destroyed") == [{"type": "destroyed", "boat": "blue", "freed": [3]}]
    driver2 = begin({"a": "A1", "b": "H8"}, "islands=3@I5")
    give_island(driver2, 3, "red")
    driver2.line("@close")
    assert of_type(last_events(driver2), "healed") == []


def test_7_dry_dock_acts_for_the_owner_as_the_round_began() -> None:
    driver = begin({"a": "A1", "b": "I3"}, "islands=3@I5")
    give_island(driver, 3, "red")
    set_boat(driver, "red", health=2)
    driver.line("b dm: fire I5")  # Blue captures it this round; Red still heals now
    driver.line("@close")
    events = last_events(driver)
    assert of_type(events, "captured")[0]["boat"] == "blue"
    assert of_type(events, "healed") == [{"type": "healed", "boat": "red", "health": 3}]


def test_7_fog_hides_the_route_not_the_ram() -> None:
    driver = begin({"a": "A1", "b": "H8"}, "islands=4@I5")
    give_island(driver, 4, "red")
    driver.line("a dm: ram right right")
    driver.line("b dm: move up")
    driver.line("@close")
    events = last_events(driver)
    (ram,) = of_type(events, "rammed")
    assert ram["fog"] is True and ram["route"] == ["right", "right"]
    report = UBOAT.words.public_report(driver.resolutions[-1][1].events, {})
    assert report == ["Blue: up.", "Red rammed, striking D1: no U-boat hit."]


def test_7_fog_moves_are_announced_without_directions() -> None:
    driver = begin({"a": "A1", "b": "H8"}, "islands=4@I5")
    give_island(driver, 4, "red")
    driver.line("a dm: move down")
    driver.line("@close")
    (moved,) = of_type(last_events(driver), "moved")
    assert moved["fog"] is True
    assert UBOAT.words.public_report(driver.resolutions[-1][1].events, {}) == ["Red moved."]
    assert cell_of(driver, "red") == "A2"


def test_7_heavy_torpedoes_direct_hits_do_three() -> None:
    driver = begin({"a": "A1", "b": "C1", "c": "C2"}, "islands=5@I5")
    give_island(driver, 5, "red")
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert of_type(last_events(driver), "fire")[0]["hits"] == [
        {"boat": "blue", "damage": 3},
        {"boat": "green", "damage": 1},
    ]


def test_7_heavy_torpedoes_do_not_apply_to_rams() -> None:
    driver = begin({"a": "A1", "b": "C1"}, "islands=5@I5")
    give_island(driver, 5, "red")
    driver.line("a dm: ram right")
    driver.line("@close")
    assert of_type(last_events(driver), "rammed")[0]["hits"] == [{"boat": "blue", "damage": 2}]


def test_7_captures_count_from_the_next_round() -> None:
    driver = begin({"a": "I3", "b": "I7"}, "islands=5@I5")
    driver.line("a dm: fire I5")  # captures 5; Blue at I7 is not in the cross (I4, I6)
    driver.line("b dm: fire I5")  # both hit directly: no capture
    driver.line("@close")
    assert of_type(last_events(driver), "captured") == []
    driver.line("a dm: fire I5")
    driver.line("@close")
    assert of_type(last_events(driver), "captured")[0]["boat"] == "red"


def test_7_powers_off_means_plain_islands() -> None:
    driver = begin({"a": "A1", "b": "C1"}, "islands=5@I5 island_powers=none")
    give_island(driver, 5, "red")
    driver.line("a dm: fire C1")
    driver.line("@close")
    assert of_type(last_events(driver), "fire")[0]["hits"] == [{"boat": "blue", "damage": 2}]
