"""Held connections do not stop the web page (issue 39, item 3): live streams are capped
in all and per client (503 with Retry-After), a client is known by X-Forwarded-For
only behind a configured proxy, slowly sent headers and connections over the cap are
closed, drawings wait in a queue fair between clients, and the error log is bounded.
Each test asserts what is answered, never how fast."""

from __future__ import annotations

import asyncio
import http.client
import logging
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from host_fakes import HostKit
from web_kit import Served, served

from bot.web.guards import Busy, FairQueue, Limits, RateLimited, client_address, proxies
from bot.web.pages import CONTENT_SECURITY_POLICY, ROBOTS


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    kit = HostKit(tmp_path_factory.mktemp("held"))
    kit.two_player_battle("size=10x10 turn=8h reach=all")
    kit.store.dispose()
    yield kit.db_path


@contextmanager
def stream(
    site: Served, headers: dict[str, str] | None = None
) -> Iterator[http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", site.server.port, timeout=20)
    try:
        connection.request("GET", "/games/1/live", headers=headers or {})
        yield connection.getresponse()
    finally:
        connection.close()


def test_a_client_holding_many_live_streams_is_refused_with_retry_after(database: Path) -> None:
    limits = Limits(streams_per_client=3)
    with served(database, limits=limits) as site, ExitStack() as held:
        answers = [held.enter_context(stream(site)) for _ in range(3)]
        assert [a.status for a in answers] == [200, 200, 200]
        with stream(site) as refused:
            assert refused.status == 503
            assert int(refused.headers["Retry-After"]) > 0
        # the page itself still answers, and so does the one stream's game page
        assert site.get("/").status == 200
        assert site.get("/games/1").status == 200
        answers[0].close()
    # once the streams are gone, a stream opens again
    with served(database, limits=limits) as site, stream(site) as again:
        assert again.status == 200


def test_live_streams_are_capped_in_all(database: Path) -> None:
    # Forwarded clients, each its own: the total cap refuses the third.
    limits = Limits(streams=2, streams_per_client=8)
    with (
        served(database, limits=limits, trusted_proxies=("127.0.0.1",)) as site,
        ExitStack() as held,
    ):
        first = held.enter_context(stream(site, {"X-Forwarded-For": "198.51.100.1"}))
        second = held.enter_context(stream(site, {"X-Forwarded-For": "198.51.100.2"}))
        assert (first.status, second.status) == (200, 200)
        with stream(site, {"X-Forwarded-For": "198.51.100.3"}) as third:
            assert third.status == 503
            assert "Retry-After" in third.headers
        assert site.get("/games/1").status == 200


def test_forwarded_addresses_count_only_from_a_trusted_proxy(database: Path) -> None:
    limits = Limits(streams_per_client=1)
    spoofed = [{"X-Forwarded-For": f"203.0.113.{n}"} for n in (1, 2)]
    # No proxy configured: the header is anyone's to write, so both are the one peer.
    with served(database, limits=limits) as site, ExitStack() as held:
        assert held.enter_context(stream(site, spoofed[0])).status == 200
        assert held.enter_context(stream(site, spoofed[1])).status == 503
    # Behind the configured proxy, each forwarded client has streams of its own.
    with (
        served(database, limits=limits, trusted_proxies=("127.0.0.1",)) as site,
        ExitStack() as held,
    ):
        assert held.enter_context(stream(site, spoofed[0])).status == 200
        assert held.enter_context(stream(site, spoofed[1])).status == 200
        assert held.enter_context(stream(site, spoofed[0])).status == 503


def test_client_address_takes_the_nearest_untrusted_hop() -> None:
    trusted = proxies(["127.0.0.1", "10.0.0.0/8"])
    assert client_address("127.0.0.1", "192.0.2.7", trusted) == "192.0.2.7"
    # a client's own made-up hops come first; the proxies' additions last
    assert client_address("127.0.0.1", "6.6.6.6, 192.0.2.7, 10.1.2.3", trusted) == "192.0.2.7"
    assert client_address("192.0.2.9", "6.6.6.6", trusted) == "192.0.2.9"  # not a proxy
    assert client_address("127.0.0.1", "not an address", trusted) == "127.0.0.1"
    assert client_address("127.0.0.1", None, trusted) == "127.0.0.1"


def _slow_client(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=20)
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and the rest never comes
    return client


def test_slowly_sent_headers_are_closed_and_the_page_answers(database: Path) -> None:
    with served(database, limits=Limits(header_seconds=0.5)) as site:
        clients = [_slow_client(site.server.port) for _ in range(20)]
        assert site.get("/").status == 200
        for client in clients:
            assert client.recv(1024) == b""  # closed by the server (the socket's timeout: 20 s)
            client.close()


def test_connections_over_the_cap_are_answered_503(database: Path) -> None:
    limits = Limits(connections=16, header_seconds=60)
    with served(database, limits=limits) as site:
        cap = site.server.limits.connections
        clients = [_slow_client(site.server.port) for _ in range(cap)]
        over = socket.create_connection(("127.0.0.1", site.server.port), timeout=20)
        answer = b""
        while chunk := over.recv(4096):
            answer += chunk
        over.close()
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert b"\r\nRetry-After: " in answer
        # refused before aiohttp sees it, it carries the security headers all the same
        head = answer.split(b"\r\n\r\n")[0].decode()
        assert f"\r\nContent-Security-Policy: {CONTENT_SECURITY_POLICY}\r\n" in head
        assert "\r\nX-Content-Type-Options: nosniff\r\n" in head
        assert "\r\nReferrer-Policy: no-referrer\r\n" in head
        assert f"\r\nX-Robots-Tag: {ROBOTS}\r\n" in head
        for client in clients:
            client.close()
        # the held ones gone, the page answers again
        answered = site.get("/")
        for _ in range(100):
            if answered.status == 200:
                break
            answered = site.get("/")
        assert answered.status == 200


async def test_the_drawing_queue_serves_clients_in_turn() -> None:
    queue = FairQueue(1, per_client=1000, waiting=1000)
    served_order: list[str] = []
    release = asyncio.Event()

    async def draw(client: str) -> None:
        async with queue.turn(client):
            served_order.append(client)
            await release.wait()

    first = asyncio.create_task(draw("flood"))
    await asyncio.sleep(0)
    floods = [asyncio.create_task(draw("flood")) for _ in range(50)]
    await asyncio.sleep(0)
    visitor = asyncio.create_task(draw("visitor"))
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first, *floods, visitor)
    # the visitor's one drawing came after at most one more of the flood's
    assert served_order.index("visitor") <= 2


async def test_the_drawing_queue_refuses_a_client_with_too_much_waiting() -> None:
    queue = FairQueue(1, per_client=3, waiting=1000)
    release = asyncio.Event()

    async def draw(client: str) -> None:
        async with queue.turn(client):
            await release.wait()

    holding = [asyncio.create_task(draw("flood")) for _ in range(4)]  # 1 drawing, 3 waiting
    await asyncio.sleep(0)
    with pytest.raises(Busy):
        await draw("flood")
    other = asyncio.create_task(draw("visitor"))  # another client still gets in line
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*holding, other)


def test_a_tile_flood_is_refused_beyond_its_share_and_a_visitor_still_gets_in_line(
    database: Path,
) -> None:
    # One drawing at a time, one waiting per client. While a drawing is held up, the
    # flooding client's next tile is refused with Retry-After; a visitor's tile waits
    # its turn and is drawn; the page (drawn already) answers meanwhile.
    limits = Limits(draws_per_client=1, draws_waiting=8)
    with served(database, limits=limits, trusted_proxies=("127.0.0.1",)) as site:
        assert site.get("/games/1").status == 200
        pictures = site.server.app_site.pictures
        assert pictures.queue is not None
        gate = threading.Event()
        draw_tile = pictures.draw_tile

        def held_up(*args: object) -> object:
            gate.wait(30)
            return draw_tile(*args)  # type: ignore[arg-type]

        pictures.draw_tile = held_up  # type: ignore[method-assign]
        flood = {"X-Forwarded-For": "198.51.100.66"}
        visitor = {"X-Forwarded-For": "192.0.2.1"}
        tile = "/games/1/tiles/1-1/0/0/{}.png"
        with ThreadPoolExecutor(4) as pool:
            drawing = pool.submit(site.get, tile.format(0), flood)
            waiting = pool.submit(site.get, tile.format(1), flood)
            for _ in range(2000):  # until one draws and one waits (no clock involved)
                if pictures.queue.waiting == 1:
                    break
                threading.Event().wait(0.005)
            assert pictures.queue.waiting == 1
            refused = site.get(tile.format(2), flood)
            assert refused.status == 503
            assert int(refused.headers["Retry-After"]) > 0
            theirs = pool.submit(site.get, tile.format(3), visitor)
            assert site.get("/games/1").status == 200
            gate.set()
            answers = [f.result(60).status for f in (drawing, waiting, theirs)]
        assert 503 not in answers


def test_the_error_log_says_the_same_thing_a_few_times_a_minute(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logger = logging.getLogger("test.flood")
    limited = RateLimited(burst=3, window=3600)
    logger.addFilter(limited)
    try:
        with caplog.at_level(logging.ERROR, logger="test.flood"):
            for _ in range(1000):
                logger.error("socket.accept() out of system resource")
        assert len(caplog.records) == 3
    finally:
        logger.removeFilter(limited)


def test_the_descriptor_limit_is_raised_to_the_hard_limit(database: Path) -> None:
    resource = pytest.importorskip("resource", reason="no descriptor limits on Windows")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard:
        lower = max(256, hard // 2) if hard != resource.RLIM_INFINITY else 4096
        resource.setrlimit(resource.RLIMIT_NOFILE, (lower, hard))
    try:
        with served(database):
            now, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert now == hard or hard == resource.RLIM_INFINITY
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
