"""A player's own page (issue 43): the public report of the turn shown, then what only
they were told, and what they see of their own ships (hits on them included); in setup,
the fleet they placed. Only through their view and the public one."""

from __future__ import annotations

import re
from pathlib import Path

from host_fakes import HostKit
from web_kit import served

BASE = "https://bst.example.org"
LINK = re.compile(re.escape(BASE) + r"/p/([A-Za-z0-9_-]+)")


def _links(kit: HostKit) -> dict[str, str]:
    found: dict[str, str] = {}
    for row in kit.outbox():
        for token in LINK.findall(row.text):
            found.setdefault(row.recipient, token)
    return found


def test_a_players_page_shows_the_public_report_and_hits_on_their_own_ships(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE
    kit.two_player_battle()
    kit.say("alice", "#bst F2")
    kit.say("bob", "#bst C3")
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.say("alice", "move carrier at C1 1 right", dm=True)
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.flush()
    alice = _links(kit)["fake:id-alice"]
    with served(kit.db_path) as site:
        first = site.get(f"/p/{alice}/turn/1").text
        second = site.get(f"/p/{alice}/turn/2").text
    # what everyone was told, on her page too
    assert "Shots: alice hit F2, bob hit C3." in first
    # the hit on her carrier, as she sees it
    assert "carrier C1-C5 (hit at C3)" in first
    # what only she was told: where her ship went
    assert "<h3>Only you</h3>" in second and "Your carrier moved to C2-C6." in second
    kit.store.dispose()


def test_in_setup_a_players_page_shows_the_fleet_they_placed_and_nobody_elses(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE
    kit.say("alice", "#bst new size=10x10 turn=8h")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)
    kit.say("bob", "cruiser: F1-F3, cruiser: J8-J10", dm=True)
    kit.flush()
    links = _links(kit)
    alice, bob = links["fake:id-alice"], links["fake:id-bob"]
    with served(kit.db_path) as site:
        own = site.get(f"/p/{alice}").text.replace(alice, "")
        theirs = site.get(f"/p/{bob}").text.replace(bob, "")
        kit.say("alice", "sub: A9\ncarrier: C1-C5", dm=True)
        kit.flush()
        moved = site.get(f"/p/{alice}").text.replace(alice, "")
    assert "carrier C1-C5" in own and "submarine A2" in own
    assert "cruiser F1-F3" not in own and "J8" not in own
    assert "cruiser F1-F3" in theirs and "carrier C1-C5" not in theirs
    assert "submarine A9" in moved  # a new placement shows at once
    kit.store.dispose()
