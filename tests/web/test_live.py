"""Live updates over a real socket (an endless event stream hangs in-process
transports): an open game page is told, by server-sent events, when a turn resolves."""

from __future__ import annotations

import http.client
import time
from pathlib import Path

from host_fakes import HostKit
from web_kit import served

# How long the test waits for an event or a fresh page before it fails: a bound for a
# stuck server, not a measure of speed (a loaded machine may take seconds to draw a page).
PATIENCE = 60.0


def _events(response: http.client.HTTPResponse, count: int, deadline: float) -> list[str]:
    """The data of the next ``count`` ``change`` events."""
    found: list[str] = []
    event = ""
    while len(found) < count and time.monotonic() < deadline:
        line = response.readline().decode("utf-8").rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "change":
            found.append(line[6:])
            event = ""
    return found


def test_an_open_page_is_told_when_a_turn_resolves(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.two_player_battle("size=10x10 turn=8h reach=all")
    with served(kit.db_path, live_interval=0.1) as site:
        page = site.get("/games/1")
        version = page.text.split('data-version="', 1)[1].split('"', 1)[0]
        connection = http.client.HTTPConnection("127.0.0.1", site.server.port, timeout=PATIENCE)
        connection.request("GET", "/games/1/live")
        response = connection.getresponse()
        assert response.status == 200
        assert response.headers["Content-Type"] == "text/event-stream"
        assert _events(response, 1, time.monotonic() + PATIENCE) == [version]  # as drawn
        kit.say("alice", "#bst F3")
        kit.clock.advance(8 * 3600)
        kit.tick()  # turn 1 resolves (in the bot: another connection, even another process)
        (changed,) = _events(response, 1, time.monotonic() + PATIENCE)
        connection.close()
        # the page of the new version, once drawn (until then: the one before, at once)
        give_up = time.monotonic() + PATIENCE
        fresh = site.get("/games/1")
        while f'data-version="{changed}"' not in fresh.text and time.monotonic() < give_up:
            assert f'data-version="{version}"' in fresh.text
            time.sleep(0.05)
            fresh = site.get("/games/1")
    assert changed != version
    assert f'data-version="{changed}"' in fresh.text
    assert '<strong aria-current="page">Turn 1</strong>' in fresh.text
    kit.store.dispose()


def test_live_updates_of_an_unknown_game_answer_404(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    kit.two_player_battle("size=10x10 turn=8h reach=all")
    with served(kit.db_path) as site:
        assert site.get("/games/5/live").status == 404
        assert site.get("/p/nothing/live").status == 404
    kit.store.dispose()
