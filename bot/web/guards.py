"""What keeps held connections from stopping the web page (and the bot beside it).

A visitor costs the process a file descriptor for each connection it holds open, and
a drawing for each picture it asks for. Without bounds, about a thousand held live
streams or half-sent requests use up the descriptors (the server stops accepting,
and a bot in the same process fails its next file open), and one client asking for
hundreds of tiles makes every other visitor wait behind them. So:

- the descriptor limit is raised to the hard limit at start (:func:`raise_file_limit`);
- connections are counted, and beyond :attr:`Limits.connections` a new one is answered
  ``503`` with ``Retry-After`` and closed at once (:class:`GuardedSite`);
- a connection must finish its request's headers within :attr:`Limits.header_seconds`
  (aiohttp's keep-alive timer, which runs from the connection's start: a slowly sent
  request is closed like an idle connection);
- live streams are capped in all and per client address (:class:`StreamSlots`), and
  each ends after :attr:`Limits.stream_seconds` (the page's script reconnects);
- drawings wait in one queue that serves clients in turn, a bounded number each
  (:class:`FairQueue`): a visitor's tile waits for at most one drawing per other client;
- the error log says the same thing at most a few times a minute (:class:`RateLimited`).

The client address is the connection's peer, unless the peer is one of the proxies the
operator named (``[web] trusted_proxies``): then it is the last address in
``X-Forwarded-For`` that is not one of them. A header from anyone else is ignored (it
could name any address).
"""

from __future__ import annotations

import asyncio
import contextvars
import ipaddress
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web

from bot.web.pages import CONTENT_SECURITY_POLICY, ROBOTS

log = logging.getLogger(__name__)

RETRY_AFTER = 10
"""Seconds a refused client is asked to wait (``Retry-After``)."""


@dataclass(frozen=True)
class Limits:
    connections: int = 4096
    """Connections open at once, in all (lowered to a quarter of the descriptor limit)."""
    streams: int = 2048
    """Live streams open at once, in all (lowered to half of :attr:`connections`)."""
    streams_per_client: int = 8
    """Live streams of one client address (a few tabs of a few games)."""
    header_seconds: float = 10.0
    """How long a connection may take to send a request's headers, or sit idle."""
    stream_seconds: float = 600.0
    """How long one live stream lasts (the page reconnects)."""
    write_seconds: float = 30.0
    """How long a write to a live stream may wait for a client that reads nothing."""
    draw_slots: int = 1
    """Drawings at once (the drawing process draws one at a time)."""
    draws_per_client: int = 32
    """Drawings one client may have waiting; beyond, 503."""
    draws_waiting: int = 512
    """Drawings waiting in all; beyond, 503."""

    def fitted(self, descriptors: int) -> Limits:
        """These limits, lowered to fit a process allowed ``descriptors`` open files
        (the rest is the bot's, the database's and the drawing process's)."""
        connections = min(self.connections, max(16, descriptors // 4))
        streams = min(self.streams, max(8, connections // 2))
        return replace(self, connections=connections, streams=streams)


class Busy(Exception):
    """Too much is asked at once, by this client or by all: answer 503, Retry-After."""


# --- the descriptor limit ---------------------------------------------------------


def raise_file_limit() -> int:
    """Raise this process's open-file limit (soft) to its hard limit; the limit now."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return int(wanted if soft == resource.RLIM_INFINITY else soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):  # (macOS caps it below an infinite hard limit)
        return int(soft)
    return int(wanted)


# --- client addresses --------------------------------------------------------------

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxies(entries: Iterable[str]) -> tuple[Network, ...]:
    """``[web] trusted_proxies`` entries (addresses or networks) as networks."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def client_address(peer: str | None, forwarded: str | None, trusted: tuple[Network, ...]) -> str:
    """Who is asking: ``peer``, or, when ``peer`` is a trusted proxy, the nearest address
    of ``forwarded`` (``X-Forwarded-For``) that is not a trusted proxy."""
    address = _address(peer or "")
    if address is None:
        return peer or "?"
    if not forwarded or not any(address in network for network in trusted):
        return str(address)
    for hop in reversed(forwarded.split(",")):
        found = _address(hop)
        if found is None:
            return str(address)  # a garbled header: the proxy is who we know
        if not any(found in network for network in trusted):
            return str(found)
    return str(address)


CLIENT: contextvars.ContextVar[str] = contextvars.ContextVar("web_client", default="?")
"""The client address of the request being answered (set by the app's middleware, read
by the drawing queue: the drawing is asked for deep inside the page's code)."""


# --- live streams --------------------------------------------------------------------


class StreamSlots:
    """Live streams open, in all and per client address."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self._open: dict[str, int] = {}
        self.count = 0

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        if self.count >= self.total or self._open.get(client, 0) >= self.per_client:
            raise Busy
        self.count += 1
        self._open[client] = self._open.get(client, 0) + 1
        try:
            yield
        finally:
            self.count -= 1
            left = self._open[client] - 1
            if left:
                self._open[client] = left
            else:
                del self._open[client]


# --- the drawing queue -------------------------------------------------------------


class FairQueue:
    """``slots`` drawings at once; the others wait, each client's in a line of its own,
    and a freed slot goes to the next client in turn (round robin), not to whoever asked
    first: a client with 900 tiles waiting holds a newcomer up by one drawing."""

    def __init__(self, slots: int, *, per_client: int, waiting: int) -> None:
        self._free = slots
        self.per_client = per_client
        self.most_waiting = waiting
        self._lines: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self.waiting = 0

    @asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        if self._free > 0 and not self.waiting:
            self._free -= 1
        else:
            line = self._lines.get(client)
            if self.waiting >= self.most_waiting or (
                line is not None and len(line) >= self.per_client
            ):
                raise Busy
            if line is None:
                line = self._lines[client] = deque()
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            line.append(future)
            self.waiting += 1
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._hand_on()  # it was given the slot as it was cancelled
                else:
                    self._forget(client, future)
                raise
        try:
            yield
        finally:
            self._hand_on()

    def _forget(self, client: str, future: asyncio.Future[None]) -> None:
        line = self._lines.get(client)
        if line is not None and future in line:
            line.remove(future)
            self.waiting -= 1
            if not line:
                del self._lines[client]

    def _hand_on(self) -> None:
        """A slot is free: to the first client in turn, who then goes to the back."""
        while self._lines:
            client, line = next(iter(self._lines.items()))
            future = line.popleft()
            self.waiting -= 1
            if line:
                self._lines.move_to_end(client)
            else:
                del self._lines[client]
            if not future.done():
                future.set_result(None)
                return
        self._free += 1


# --- the connection cap --------------------------------------------------------------

_REFUSED_TEXT = b"Too many visitors at once: try again in a few seconds.\n"
_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    + f"Retry-After: {RETRY_AFTER}\r\nContent-Length: {len(_REFUSED_TEXT)}\r\n".encode()
    # written before aiohttp sees the connection: the headers every answer carries, here
    + f"Content-Security-Policy: {CONTENT_SECURITY_POLICY}\r\n".encode()
    + b"Referrer-Policy: no-referrer\r\nX-Content-Type-Options: nosniff\r\n"
    + f"X-Robots-Tag: {ROBOTS}\r\nCache-Control: no-store\r\n".encode()
    + b"Connection: close\r\n\r\n"
    + _REFUSED_TEXT
)


class GuardedSite(web.TCPSite):
    """aiohttp's TCP site with :attr:`Limits.connections` connections at most: one more
    is answered the 503 above and closed as it is made (counted as aiohttp registers
    each connection, one after the other, so a burst of them cannot slip past)."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, *, connections: int) -> None:
        super().__init__(runner, host, port, backlog=512)
        self.connections = connections
        self.refused = 0
        self.bound_port = port  # the port listened on, once started (port 0: any free one)

    async def start(self) -> None:
        server = self._runner.server
        assert server is not None
        register = server.connection_made

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            if len(server.connections) >= self.connections:
                self.refused += 1
                transport.write(_REFUSAL)
                transport.close()
                return
            register(handler, transport)

        server.connection_made = connection_made  # type: ignore[method-assign]
        await super().start()
        sockets = getattr(self._server, "sockets", None) or ()
        self.bound_port = int(sockets[0].getsockname()[1]) if sockets else self._port


# --- the error log --------------------------------------------------------------------


class RateLimited(logging.Filter):
    """Lets the same message (logger and format) through at most ``burst`` times a
    ``window``; the next one that passes says how many were left out. A flood of
    ``accept()`` failures writes a few lines a minute, not a megabyte a second."""

    def __init__(self, *, burst: int = 5, window: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._seen: dict[tuple[str, Any], list[float]] = {}  # key → [window start, n, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, record.msg)
        now = time.monotonic()
        seen = self._seen.get(key)
        if seen is None or now - seen[0] >= self.window:
            left_out = 0 if seen is None else int(seen[2])
            if len(self._seen) > 1024:
                self._seen.clear()
            self._seen[key] = [now, 1.0, 0.0]
            if left_out:
                record.msg = f"{record.msg} ({left_out} more like it left out)"
            return True
        seen[1] += 1
        if seen[1] <= self.burst:
            return True
        seen[2] += 1
        return False


LOGGERS = ("asyncio", "aiohttp.server", "aiohttp.web", "aiohttp.access", "bot.web.app")
"""The loggers a flood of connections writes to."""


def limit_error_logs() -> None:
    """Put a :class:`RateLimited` filter on :data:`LOGGERS` (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RateLimited) for f in logger.filters):
            logger.addFilter(RateLimited())
