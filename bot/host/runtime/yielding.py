"""Pure-Python work on a worker thread that leaves the event loop its turns.

CPython hands the interpreter lock from a busy thread to a waiting one only every
"switch interval" (5 ms by default). A thread resolving a big turn or drawing a big
board holds the lock that long each time, and the event loop, which needs it at every
turn of the loop, waits up to 5 ms at each step: an acknowledgement or a cached web
page that needs a dozen steps waits tens of milliseconds. While such work runs, the
interval is cut to half a millisecond, and restored when the last of it ends.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

SWITCH_INTERVAL = 0.0005
"""The interpreter lock passes to a waiting thread this often while busy work runs: the
event loop, which waits for it at every turn of the loop, gets it back within half a
millisecond."""

_lock = threading.Lock()
_busy = 0
_saved = sys.getswitchinterval()


def yielding(work: Callable[[], T]) -> T:
    """Run ``work`` with the short switch interval, restored when the last such work ends
    (several threads may run such work at once)."""
    global _busy, _saved
    with _lock:
        if _busy == 0:
            _saved = sys.getswitchinterval()
            sys.setswitchinterval(min(SWITCH_INTERVAL, _saved))
        _busy += 1
    try:
        return work()
    finally:
        with _lock:
            _busy -= 1
            if _busy == 0:
                sys.setswitchinterval(_saved)


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a worker thread, :func:`yielding` (for drawing and decoding big
    states, where the event loop must keep answering meanwhile)."""
    return await asyncio.to_thread(yielding, functools.partial(work, *args))
