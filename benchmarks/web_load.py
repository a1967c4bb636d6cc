"""``web_load_*``: the web page under held connections, on loopback (127.0.0.1) only,
bounded in count and time (issue 39, item 3).

The server runs as ``bst web`` does (pictures drawn in a process of their own, the
descriptor limit raised, the caps of :mod:`bot.web.guards` fitted to it) behind the
README's proxy set-up (``[web] trusted_proxies = ["127.0.0.1"]``: each attacker
connection names a client of its own in ``X-Forwarded-For``, as a crowd behind the
proxy would), in a process of its own. In that process, as the bot beside the web
would with ``[web] enabled``, a task opens a file and writes a row every 0.1 s and
counts what fails. From this process, at once:

- held live streams (``/games/1/live``), each from its own forwarded client, beyond
  the total cap;
- connections sending their headers a byte now and then (slow headers);
- a tile flood: one client asking for 900 tiles at once;

while a visitor, from an address of its own, loads the list, the game's page and a
tile again and again. The figures: the visitor's p99, the share of its requests
answered 200, the bot's failed file opens and writes, and how many held streams the
server kept (the rest were refused 503 with Retry-After).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.fixtures import battle, side_for
from benchmarks.timing import Figure
from bot.games.bst import BST
from bot.store import GameRow, NewPlayer, NewStep, Store, dumps
from bot.wiring import sqlite_url

CAPTAINS = 300  # a board drawn in tiles
VISITOR = "192.0.2.1"


def _store_game(url: str) -> None:
    store = Store(url)
    side = side_for(CAPTAINS * 40)  # big enough to be drawn in tiles
    state = battle(CAPTAINS, side, side)
    now = 1_767_225_600.0
    encoded = dumps(BST.codec.encode_state(state))
    with store.transaction() as tx:
        game = GameRow(kind="bst", platform="bench", channel="bench", creator="bench:0",
                       options="{}", seed=1, phase="battle", turn=1, deadline=now + 28800,
                       state=encoded, created_at=now, open_to_all=True)  # fmt: skip
        tx.save(game)
        for index, captain in enumerate(state.captains):
            tx.add_player(NewPlayer(game_id=game.id, key=captain.id, platform="bench",
                                    user_id=str(index), name=captain.name,
                                    join_order=index + 1))  # fmt: skip
        tx.add_turn(NewStep(game_id=game.id, number=0, cause="start", orders="[]", events="[]",
                            state=encoded, resolved_at=now, deadline=now + 28800))  # fmt: skip
    store.dispose()


def _server(url: str, scratch: str, port: Any, stop: Any, report: Any) -> None:
    asyncio.run(_serve(url, scratch, port, stop, report))


async def _serve(url: str, scratch: str, port: Any, stop: Any, report: Any) -> None:
    from bot.cli.web import open_read_only
    from bot.web.app import WebServer
    from bot.web.guards import proxies

    server = WebServer(
        open_read_only(url),
        "127.0.0.1",
        0,
        draw_in_process=True,
        trusted_proxies=proxies(["127.0.0.1"]),
    )
    await server.start()
    writer = Store(sqlite_url(Path(scratch) / "bot.db"))
    failures: list[str] = []
    beats = 0

    async def bot() -> None:
        # What the bot beside the web does all day: open files, write to its database.
        nonlocal beats
        while True:
            try:
                with open(Path(scratch) / "beat.txt", "a") as beat:
                    beat.write(".")
                with writer.transaction() as tx:
                    tx.save(GameRow(kind="bst", platform="bench", channel=f"b{beats}",
                                    creator="bench:0", options="{}", seed=1, phase="setup",
                                    turn=0, state="{}", created_at=0.0))  # fmt: skip
                beats += 1
            except OSError as error:
                failures.append(f"{type(error).__name__}: {error}")
            await asyncio.sleep(0.1)

    beating = asyncio.create_task(bot())
    port.put((server.port, server.limits.streams, server.limits.connections))
    await asyncio.to_thread(stop.wait, 600)
    beating.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await beating
    refused = server.site.refused if server.site is not None else 0
    await server.stop()
    server.store.dispose()
    writer.dispose()
    report.put({"beats": beats, "failures": failures, "refused": refused})


async def _get(port: int, path: str, client: str) -> tuple[int, float]:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: bench\r\nX-Forwarded-For: {client}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readline(), 30)
        await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()
    status = int(head.split()[1]) if head.startswith(b"HTTP/") else 0
    return status, (time.perf_counter() - started) * 1000


async def _hold_stream(port: int, client: str, statuses: list[int], held: list[Any]) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        statuses.append(0)
        return
    held.append(writer)
    writer.write(
        f"GET /games/1/live HTTP/1.1\r\nHost: bench\r\nX-Forwarded-For: {client}\r\n\r\n".encode()
    )
    try:
        head = await asyncio.wait_for(reader.readline(), 30)
        statuses.append(int(head.split()[1]) if head.startswith(b"HTTP/") else 0)
    except (TimeoutError, OSError, ValueError, IndexError):
        statuses.append(0)


async def _slow_headers(port: int, seconds: float, closed: list[bool], held: list[Any]) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    held.append(writer)
    ends = time.monotonic() + seconds
    try:
        for byte in b"GET / HTTP/1.1\r\nHost: bench\r\nX-Slow: " + b"a" * 10_000:
            if reader.at_eof() or time.monotonic() > ends:
                break  # (at_eof: the server closed it)
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.5)
    except OSError:
        pass
    closed.append(reader.at_eof())


async def _attack(port: int, streams: int, slow: int, tiles: int, seconds: float) -> dict[str, Any]:
    held: list[Any] = []
    stream_statuses: list[int] = []
    slow_closed: list[bool] = []
    visitor: list[tuple[int, float]] = []
    flood: list[int] = []
    ends = 0.0

    async def visit() -> None:
        while time.monotonic() < ends:
            for path in ("/", "/games/1", "/games/1/tiles/0-0/0/0/0.png"):
                try:
                    visitor.append(await _get(port, path, VISITOR))
                except (OSError, TimeoutError):
                    visitor.append((0, 30_000.0))
            await asyncio.sleep(0.2)

    async def tile_flood() -> None:
        async def one(n: int) -> None:
            level, x, y = 2 + n % 3, (n // 3) % 10, n // 30
            try:
                flood.append(
                    (await _get(port, f"/games/1/tiles/0-0/{level}/{x}/{y}.png", "198.51.100.9"))[0]
                )
            except (OSError, TimeoutError):
                flood.append(0)

        await asyncio.gather(*(one(n) for n in range(tiles)))

    for path in ("/", "/games/1", "/games/1/tiles/0-0/0/0/0.png"):
        await _get(port, path, VISITOR)  # drawn once before (as a live page's would be)
    # The streams opened (a hundred at a time, as fast as the server takes them) and
    # held; the slow senders started; then, while both are held, the tile flood and
    # the visitor.
    for start in range(0, streams, 100):
        await asyncio.gather(
            *(
                _hold_stream(
                    port, f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", stream_statuses, held
                )
                for n in range(start, min(streams, start + 100))
            )
        )
    slow_ones = [
        asyncio.create_task(_slow_headers(port, seconds + 5, slow_closed, held))
        for _ in range(slow)
    ]
    ends = time.monotonic() + seconds
    await asyncio.gather(tile_flood(), visit())
    await asyncio.gather(*slow_ones)
    for writer in held:
        writer.close()
    return {
        "visitor": visitor,
        "streams": stream_statuses,
        "slow_closed": sum(slow_closed),
        "slow": slow,
        "flood": flood,
    }


def run(*, quick: bool) -> list[Figure]:
    from bot.web.guards import raise_file_limit

    seconds = 15.0 if quick else 40.0
    limit = raise_file_limit()
    folder = Path(tempfile.mkdtemp(prefix="bst-web-load-"))
    url = sqlite_url(folder / "web.db")
    _store_game(url)
    Store(url).dispose()
    context = multiprocessing.get_context("spawn")
    port_q, report_q, stop = context.Queue(), context.Queue(), context.Event()
    server = context.Process(target=_server, args=(url, str(folder), port_q, stop, report_q))
    server.start()
    try:
        port, stream_cap, connection_cap = port_q.get(timeout=120)
        # Beyond the caps, within this process's own descriptors (bounded in count).
        streams = min(stream_cap + 200, max(64, limit // 2 - 200), 3000)
        slow = min(300, max(16, limit // 8))
        result = asyncio.run(_attack(port, streams, slow, 900, seconds))
    finally:
        stop.set()
        report = report_q.get(timeout=120)
        server.join(60)
    times = [ms for _, ms in result["visitor"]]
    answered = sum(1 for status, _ in result["visitor"] if status == 200)
    kept = sum(1 for s in result["streams"] if s == 200)
    refused = sum(1 for s in result["streams"] if s == 503)
    flood_503 = sum(1 for s in result["flood"] if s == 503)
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0
    attack = (
        f"{len(result['streams'])} held live streams from as many forwarded clients "
        f"({kept} kept, {refused} refused 503; cap {stream_cap}, connections cap "
        f"{connection_cap}), {result['slow']} slow-header connections ({result['slow_closed']} "
        f"closed by the server), 900 tiles asked at once by one client ({flood_503} refused "
        f"503), for {seconds:.0f} s on 127.0.0.1"
    )
    return [
        Figure(
            "web_load_visitor_p99_ms",
            p99,
            500.0,
            unit=" ms",
            detail=(
                f"a visitor loading /, the game's page and a tile, {len(times)} requests "
                f"(median {statistics.median(times) if times else 0:.1f} ms) under {attack}"
            ),
        ),
        Figure(
            "web_load_visitor_answered",
            100.0 * answered / max(1, len(times)),
            100.0,
            at_most=False,
            unit=" %",
            detail=f"{answered} of the visitor's {len(times)} requests answered 200",
        ),
        Figure(
            "web_load_bot_failures",
            float(len(report["failures"])),
            0.0,
            detail=(
                f"the bot beside the web (same process) opened a file and wrote a row "
                f"{report['beats']} times during the attack; failures: "
                f"{report['failures'][:3] or 'none'}"
            ),
        ),
    ]


if __name__ == "__main__":
    print(json.dumps([f.__dict__ for f in run(quick=True)], indent=2))
