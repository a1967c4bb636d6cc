"""Which games the public web shows (issue 39, item 7): only games opened ``reach=all``
(or the operator's own console and scripts); any other game's pages exist only behind
its players' private links, and its public addresses answer the one 404. Every page is
noindex. The list of games comes a page at a time."""

from __future__ import annotations

import re
from pathlib import Path

from host_fakes import HostKit
from web_kit import served

from bot.store import GameRow, Store
from bot.web.site import NOT_FOUND, PAGE_SIZE
from bot.wiring import sqlite_url

BASE = "https://bst.example.org"
LINK = re.compile(re.escape(BASE) + r"/p/([A-Za-z0-9_-]+)")


def _battle(tmp_path: Path, options: str) -> HostKit:
    kit = HostKit(tmp_path)
    kit.host.commands.web_base_url = BASE
    kit.two_player_battle(options)
    kit.say("alice", "#bst F3")
    kit.say("bob", "#bst A2")
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.flush()
    return kit


def _token(kit: HostKit, recipient: str) -> str:
    for row in kit.outbox():
        if row.recipient == recipient:
            found = LINK.findall(row.text)
            if found:
                return str(found[0])
    raise AssertionError(f"no link sent to {recipient}")


PUBLIC = [
    "/games/1",
    "/games/1/turn/1",
    "/games/1/map/1-0.png",
    "/games/1/tiles/1-0/0/0/0.png",
    "/games/1/live",
    "/games/1/replay.mp4",
    "/games/1/record.json",
]


def test_a_game_of_a_server_is_not_listed_and_its_public_pages_do_not_exist(
    tmp_path: Path,
) -> None:
    kit = _battle(tmp_path, "size=10x10 turn=8h")
    game = kit.game()
    token = _token(kit, "fake:id-alice")
    kit.say("alice", "#bst end", admin=True)
    kit.flush()
    with served(kit.db_path) as site:
        index = site.get("/")
        answers = {path: site.get(path) for path in PUBLIC}
        own = site.get(f"/p/{token}")
        record = site.get(f"/p/{token}/record.json")
    assert index.status == 200
    assert 'href="/games/' not in index.text and "No game yet." in index.text
    assert f"channel {game.channel}" not in index.text and "alice" not in index.text
    for path, answer in answers.items():
        assert (answer.status, answer.body) == (404, NOT_FOUND), path
    # its players see it through their own link, the record there too once it is over
    assert own.status == 200 and "alice" in own.text
    assert f"/p/{token}/record.json" in own.text and "/games/1/" not in own.text
    assert record.status == 200 and record.headers["Content-Type"].startswith("application/json")
    assert record.headers["Cache-Control"] == "private, no-store"
    kit.store.dispose()


def test_a_game_opened_to_all_is_listed_and_every_page_is_noindex(tmp_path: Path) -> None:
    kit = _battle(tmp_path, "size=10x10 turn=8h reach=all")
    with served(kit.db_path) as site:
        index = site.get("/")
        page = site.get("/games/1")
        picture = site.get("/games/1/map/1-0.png")
    assert 'href="/games/1"' in index.text
    assert page.status == 200 and picture.status == 200
    for answer in (index, page, picture):
        assert answer.headers["X-Robots-Tag"] == "noindex, nofollow"
    for answer in (index, page):
        assert '<meta name="robots" content="noindex, nofollow">' in answer.text
    kit.store.dispose()


def test_the_list_of_games_comes_a_page_at_a_time(tmp_path: Path) -> None:
    database = tmp_path / "many.db"
    store = Store(sqlite_url(database))
    count = 2 * PAGE_SIZE + 7
    with store.transaction() as tx:
        for number in range(count):
            tx.save(
                GameRow(
                    kind="bst",
                    platform="fake",
                    channel=f"room-{number}",
                    creator="fake:alice",
                    options="{}",
                    seed=1,
                    phase="setup",
                    turn=0,
                    open_to_all=number % 2 == 0,
                    state="{}",
                    created_at=1_767_225_600.0 + number,
                )
            )
    store.dispose()
    listed = (count + 1) // 2  # the games opened to all
    with served(database) as site:
        first, second = site.get("/"), site.get("/?page=2")
        beyond, nonsense = site.get("/?page=3"), site.get("/?page=x")
    rows = [re.findall(r'<a class="name" href="/games/(\d+)">', a.text) for a in (first, second)]
    assert len(rows[0]) == PAGE_SIZE and len(rows[1]) == listed - PAGE_SIZE
    numbers = [int(n) for n in rows[0] + rows[1]]
    assert numbers == sorted(numbers, reverse=True)  # newest first
    assert all(n % 2 == 1 for n in numbers)  # ids from 1: the even rows' opened to all
    assert 'href="/?page=2"' in first.text and 'href="/" rel="prev"' in second.text
    assert (beyond.status, nonsense.status) == (404, 404)


def _many(database: Path, games: list[tuple[str, str]]) -> None:
    """Games of (kind, phase), opened to all, numbered from 1 in this order."""
    store = Store(sqlite_url(database))
    with store.transaction() as tx:
        for number, (kind, phase) in enumerate(games):
            tx.save(
                GameRow(
                    kind=kind,
                    platform="fake",
                    channel=f"room-{number}",
                    creator="fake:alice",
                    options="{}",
                    seed=1,
                    phase=phase,
                    turn=0 if phase == "setup" else 4,
                    open_to_all=True,
                    state="{}",
                    created_at=1_767_225_600.0 + number,
                )
            )
    store.dispose()


def _listed_games(text: str) -> list[int]:
    return [int(n) for n in re.findall(r'<a class="name" href="/games/(\d+)">', text)]


def test_the_list_puts_live_games_first_and_filters_by_kind_and_state(tmp_path: Path) -> None:
    """Issue 43, item 5: "Live now" first (newest first), then the finished; a kind and
    live or finished chosen by plain links (no script), kept by the pages' links; a
    filter that names nothing is the one 404."""
    database = tmp_path / "kinds.db"
    games = [("bst", "finished"), ("sonar", "battle"), ("bst", "battle"), ("sonar", "finished")]
    games += [("bst", "setup")] + [("uboat", "finished")] * (PAGE_SIZE + 1)
    _many(database, games)
    with served(database) as site:
        every = site.get("/")
        bst = site.get("/?kind=bst")
        live = site.get("/?state=live")
        finished_sonar = site.get("/?kind=sonar&state=finished")
        uboat, uboat_2 = (
            site.get("/?kind=uboat&state=finished"),
            site.get("/?kind=uboat&state=finished&page=2"),
        )
        wrong = [site.get(p) for p in ("/?kind=chess", "/?state=over", "/?kind=sonar&page=2")]
    assert _listed_games(every.text)[:3] == [5, 3, 2]  # the live ones, newest first
    assert every.text.index("<h2>Live now</h2>") < every.text.index("<h2>Finished</h2>")
    assert _listed_games(every.text)[3:6] == [56, 55, 54]
    assert _listed_games(bst.text) == [5, 3, 1]
    assert _listed_games(live.text) == [5, 3, 2] and "<h2>Finished</h2>" not in live.text
    assert _listed_games(finished_sonar.text) == [4]
    assert "<h2>Live now</h2>" not in finished_sonar.text
    assert len(_listed_games(uboat.text)) == PAGE_SIZE
    assert _listed_games(uboat_2.text) == [6]
    assert 'href="/?kind=uboat&amp;state=finished&amp;page=2" rel="next"' in uboat.text
    assert 'href="/?kind=uboat&amp;state=finished" rel="prev"' in uboat_2.text
    # the filters are links, the one chosen marked
    assert '<a href="/?kind=sonar">sonar</a>' in bst.text
    assert '<a href="/?state=live" aria-current="page">Live</a>' in live.text
    assert '<a href="/?kind=bst" aria-current="page">bst</a>' in bst.text
    for answer in wrong:
        assert (answer.status, answer.body) == (404, NOT_FOUND)
