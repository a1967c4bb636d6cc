"""The user's notification stream (``GET /api/v1/streaming/user/notification``).

Mastodon.py reads the server-sent events with requests, blocking, so the stream runs in
a daemon thread of its own (never the event loop, and never the default executor,
which ``asyncio.run`` would wait for at shutdown) and hands each notification to the
loop with ``call_soon_threadsafe``. The adapter's loop (see
:class:`~bot.adapters.mastodon.adapter.MastodonAdapter`) waits for the connection, polls
since the cursor, then takes the stream's notifications until it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from typing import Any

from mastodon import StreamListener

from bot.adapters.mastodon.client import MastodonClient

log = logging.getLogger(__name__)

# Mastodon sends a heartbeat comment every few seconds: this long without one (or an
# event) means the connection is dead though no one closed it.
READ_TIMEOUT_SECONDS = 60.0


class _Listener(StreamListener):
    def __init__(self, stream: NotificationStream) -> None:
        super().__init__()
        self._stream = stream

    def handle_stream(self, response: Any) -> None:
        self._stream._opened(response)
        super().handle_stream(response)  # type: ignore[no-untyped-call]

    def on_notification(self, notification: Any) -> None:
        self._stream._put(("notification", notification))

    def on_abort(self, err: Any) -> None:
        log.debug("Mastodon stream aborted: %s", type(err).__name__)

    def on_unknown_event(self, name: str, unknown_event: Any = None) -> None:
        # A newer server's event (notifications_merged, …): not a mention.
        log.debug("Mastodon stream event %s ignored", name)


class NotificationStream:
    """One connection of the user's notification stream, from a thread of its own.

    ``events`` yields ``("open", None)`` once connected, ``("notification", n)`` for
    each notification, and ``("closed", reason)`` when the connection ends."""

    def __init__(self, client: MastodonClient) -> None:
        self._client = client
        self._loop = asyncio.get_running_loop()
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._response: Any = None
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="mastodon-stream", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _put(self, event: tuple[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: the process ends
            self._loop.call_soon_threadsafe(self.events.put_nowait, event)

    def _opened(self, response: Any) -> None:
        self._response = response
        if self._closed:
            _hang_up(response)
        self._put(("open", None))

    def _run(self) -> None:
        reason = "ended"
        try:
            self._client.api.stream_user_notifications(
                _Listener(self), timeout=READ_TIMEOUT_SECONDS
            )
        except Exception as error:
            reason = f"{type(error).__name__}: {error}"
        self._put(("closed", reason))

    def close(self) -> None:
        """End the connection (the thread then ends; nobody waits for it)."""
        self._closed = True
        if self._response is not None:
            _hang_up(self._response)


def _hang_up(response: Any) -> None:
    """End a streaming response another thread is reading, without waiting for it:
    ``Response.close`` would block until that thread's read times out, so the socket is
    shut down first (the read then ends at once) and the close happens in a thread."""
    connection = getattr(getattr(response, "raw", None), "connection", None)
    sock = getattr(connection, "sock", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
    threading.Thread(target=_quietly_close, args=(response,), daemon=True).start()


def _quietly_close(response: Any) -> None:
    with contextlib.suppress(Exception):
        response.close()
