"""Nothing hidden on any public page, picture, JSON, header or error before a game ends
(issue 28): for every game, two games that differ only in one player's hidden facts
serve byte-identical public answers over HTTP (status, headers, body), turn by turn — while their records (the
hidden facts) differ."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from test_sonar_scenarios import HIDDEN_FLEETS
from test_sugardog_scenarios import _apart
from test_uboat_scenarios import TWIN
from web_kit import Served, play, served

from bot.host.play.record import game_record
from bot.store import Store
from bot.store.links import issue_link
from bot.web import pictures as pictures_module
from bot.wiring import sqlite_url

BST = """\
@game bst size={size} turn=8h
ahab dm: join
ahab dm: sub: A2\\ncarrier: {carrier}
nemo dm: join
nemo dm: cruiser: F1-F3, cruiser: J8-J10
@start
nemo public: #bst A2
ahab public: #bst F3
@close
nemo public: #bst H5
@close
ahab public: #bst status
"""

SILENTSHIPS = """\
@game silentships first=joined deck1=frigate,salvage,ram,speed,patrol deck2=sub,missile,fire,ammo,flag
ahab public: #silentships join
nemo dm: join
@start
ahab dm: play frigate at D1
ahab public: #silentships end
nemo dm: play {ship} at C4
nemo public: #silentships end
ahab dm: play ram at C1
ahab public: #silentships end
"""

TWINS = {
    # alice's unhit carrier: along row C, or down column 6 (nemo's shots miss both)
    "bst": (BST.format(carrier="C1-C5", size="10x10"), BST.format(carrier="E6-I6", size="10x10")),
    # the same on a board too big for one picture: its tiles too, at every scale
    "bst-tiled": (
        BST.format(carrier="C1-C5", size="120x120"),
        BST.format(carrier="E6-I6", size="120x120"),
    ),
    "sonar": tuple(HIDDEN_FLEETS.format(nemo=fleet) for fleet in ("2 a13 ur", "2 g17 dl")),
    "uboat": tuple(
        TWIN.format(**facts)
        for facts in (
            {"ann": "A1", "cy": "H2", "dee": "E8", "evasion": "ben dm: evade down"},
            {"ann": "D3", "cy": "G6", "dee": "F5", "evasion": "# (no evasion)"},
        )
    ),
    "sugardog": _apart(0),
    # nemo's face-down ship at C4: a submarine, or a missile boat
    "silentships": (SILENTSHIPS.format(ship="sub"), SILENTSHIPS.format(ship="missile")),
}

_LINKED = re.compile(r'(?:href|src)="(/[^"]*)"')
_TILES = re.compile(r'data-tiles="(/[^"]+)" data-rows="(\d+)" data-cols="(\d+)" data-tile="(\d+)" '
                    r'data-cells="([0-9,]+)"')  # fmt: skip
CORNER = 12
"""Cells a side of the board's corner (where the twins' hidden ships lie) whose tiles are
all fetched at every scale; beyond it, scales of at most 64 tiles are fetched whole."""


def tiles(page: str) -> list[str]:
    """The addresses of the tiles a page offers (see ``renderers.tiles``): every tile
    over the board's top left corner at every scale, and every tile of the scales with
    few."""
    found = []
    for src, rows, cols, size, cells in _TILES.findall(page):
        for level, cell in enumerate(int(c) for c in cells.split(",")):
            across = -(-int(cols) * cell // int(size))
            down = -(-int(rows) * cell // int(size))
            if across * down > 64:
                across = down = -(-CORNER * cell // int(size))
            found += [f"{src}/{level}/{x}/{y}.png" for x in range(across) for y in range(down)]
    return found


def crawl(
    site: Served, start: tuple[str, ...] = ()
) -> dict[str, tuple[int, str, list[tuple[str, str]], bytes]]:
    """Every public address reachable from the list of games (and a few that name
    nothing), or from ``start``, each answer as (status, content type, every header but
    the date, body)."""
    seen: dict[str, tuple[int, str, list[tuple[str, str]], bytes]] = {}
    waiting = list(start) or ["/", "/games/1/record.json", "/games/1/replay.mp4",
                              "/games/1/turn/99", "/games/2", "/p/not-a-token"]  # fmt: skip
    while waiting:
        path = waiting.pop()
        if path in seen:
            continue
        answer = site.get(path)
        headers = sorted((k, v) for k, v in answer.headers.items() if k != "Date")
        seen[path] = (answer.status, answer.headers.get("Content-Type", ""), headers, answer.body)
        if answer.headers.get("Content-Type", "").startswith("text/html"):
            linked = [html.unescape(p) for p in _LINKED.findall(answer.text)]
            waiting += [p for p in linked if p not in seen]
            waiting += [p for p in tiles(answer.text) if p not in seen]
    return seen


def _record(database: Path) -> dict[str, object]:
    store = Store(sqlite_url(database))
    try:
        return game_record(store, 1)
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", sorted(TWINS))
def test_two_games_apart_only_in_hidden_facts_serve_the_same_public_bytes(
    kind: str, tmp_path: Path
) -> None:
    answers = []
    records = []
    for index, text in enumerate(TWINS[kind]):
        database = tmp_path / f"game{index}.sqlite"
        # before the end: once a game is over its hidden facts are public (the record)
        play(database, text.replace("@host end\n", ""), tmp_path / f"scripts{index}")
        records.append(_record(database))
        with served(database) as site:
            answers.append(crawl(site))
    first, second = answers
    # the games do differ, in what is hidden...
    assert json.dumps(records[0], sort_keys=True) != json.dumps(records[1], sort_keys=True)
    assert records[0]["game"]["phase"] != "finished"  # type: ignore[index]
    # ...and every public answer is the same, byte for byte
    assert sorted(first) == sorted(second)
    for path in first:
        assert first[path] == second[path], f"{kind}: {path} tells the two games apart"
    pictures = [p for p in first if p.endswith(".png")]
    pages = [p for p in first if p.startswith("/games/1") and first[p][1].startswith("text/html")]
    assert len(pages) >= 3, sorted(first)
    assert pictures, sorted(first)
    assert first["/games/1/record.json"][0] == 404  # the record waits for the end
    drawn = [p for p in first if "/tiles/" in p and first[p][0] == 200]
    if kind == "bst-tiled":
        assert len(drawn) > 100, len(drawn)  # every scale's tiles over the hidden ships
    else:
        assert not drawn


# Whose own replay is compared: a player whose own hidden facts are the same in both
# twins (U-Boat's twins differ in every boat's start, so it has none).
WATCHER = {"bst": "nemo", "bst-tiled": "nemo", "sonar": "ahab", "sugardog": "nemo",
           "silentships": "ahab"}  # fmt: skip


def _own_link(database: Path, name: str) -> str:
    """A private link for player ``name`` of game 1 (the same token in both twins)."""
    store = Store(sqlite_url(database))
    try:
        with store.transaction() as tx:
            [key] = [p.key for p in tx.players(1) if p.name == name]
            return issue_link(tx, 1, key, token=f"watcher-{name}-token-0123456789", now=0.0)
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", sorted(WATCHER))
def test_a_players_own_replay_shows_nobody_elses_hidden_facts(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a game is over a player's link offers their own replay (the game as they saw
    it). Drawn from their own views only: in two games apart only in another player's
    hidden facts, every picture of it is the same, and so is the video."""
    frames: list[list[bytes]] = []
    draw = pictures_module.replay_of_pictures

    def kept(pictures: list[bytes], **options: object) -> object:
        frames.append(list(pictures))
        return draw(pictures, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(pictures_module, "replay_of_pictures", kept)
    videos = []
    for index, text in enumerate(TWINS[kind]):
        database = tmp_path / f"game{index}.sqlite"
        ended = text if "@host end" in text else text + "@host end\n"
        play(database, ended, tmp_path / f"scripts{index}")
        token = _own_link(database, WATCHER[kind])
        with served(database) as site:
            page = site.get(f"/p/{token}")
            assert f'src="/p/{token}/replay.mp4"' in page.text
            video = site.get(f"/p/{token}/replay.mp4")
            assert video.status == 200 and video.headers["Content-Type"] == "video/mp4"
            assert video.body[4:8] == b"ftyp"
            assert site.get(f"/p/{token}/replay.mp4").body == video.body  # kept, not redrawn
            videos.append(video.body)
    assert len(frames) == 2 and len(frames[0]) >= 2  # drawn once in each game
    assert frames[0] == frames[1], f"{kind}: the watcher's replay tells the games apart"
    assert videos[0] == videos[1]


def test_a_players_own_tiles_of_a_big_board_show_nobody_elses_hidden_facts(
    tmp_path: Path,
) -> None:
    """A big board's private page pans and zooms the holder's own board in tiles: in two
    games apart only in ahab's unhit carrier, everything nemo's link reaches — pages,
    pictures, every tile at every scale over the hidden ships — is the same, byte for
    byte; and nemo's tiles do show nemo's own cruisers, which the public tiles do not."""
    answers = []
    for index, text in enumerate(TWINS["bst-tiled"]):
        database = tmp_path / f"game{index}.sqlite"
        play(database, text, tmp_path / f"scripts{index}")
        token = _own_link(database, "nemo")
        with served(database) as site:
            answers.append(crawl(site, (f"/p/{token}", f"/p/{token}/turn/1")))
    first, second = answers
    assert sorted(first) == sorted(second)
    for path in first:
        assert first[path] == second[path], f"{path} tells the two games apart"
    own = [p for p in first if p.startswith("/p/") and "/tiles/" in p and first[p][0] == 200]
    assert len(own) > 100, len(own)  # every scale's tiles over the hidden ships
    # nemo's cruiser F1-F3 (row 5, columns 0 to 2) at 64 pixels a cell: in tile (0, 1);
    # tile (0, 0) holds none of nemo's ships, only public shots: the same as the public
    [newest] = {p.rsplit("/", 3)[0] for p in own if "/tiles/2-" in p}
    public = newest.replace(newest.split("/tiles/")[0], "/games/1")
    with served(tmp_path / "game0.sqlite") as site:
        assert site.get(f"{public}/6/0/1.png").body != first[f"{newest}/6/0/1.png"][3]
        assert site.get(f"{public}/6/0/0.png").body == first[f"{newest}/6/0/0.png"][3]
