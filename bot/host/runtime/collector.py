"""The cyclic garbage collector, paused while a turn resolves.

A big turn (10,000 players) allocates ~100k small objects next to a state of millions;
the collector's full passes over that state would cost more than the turn itself, and
nothing a resolution makes forms a cycle. Pausing it is process-wide state, so it lives
here, in the host, not in the rules (which stay pure): the turn clock resolves inside
:func:`collector_paused`, and so does the resolve benchmark, to measure what the host does.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pauses:
    """How many resolutions run (the turn clock may run on two threads at once), and
    whether the collector was on before the first of them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.was_enabled = False


_pauses = _Pauses()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off; it is on again afterwards if it was."""
    with _pauses.lock:
        if _pauses.running == 0:
            _pauses.was_enabled = gc.isenabled()
            gc.disable()
        _pauses.running += 1
    try:
        yield
    finally:
        with _pauses.lock:
            _pauses.running -= 1
            if _pauses.running == 0 and _pauses.was_enabled:
                gc.enable()
