"""The cyclic garbage collector: paused while a turn resolves, and kept off what the
process made to start.

A big turn (10,000 players) allocates ~100k small objects next to a state of millions;
the collector's full passes over that state would cost more than the turn itself, and
nothing a resolution makes forms a cycle. Pausing it is process-wide state, so it lives
here, in the host, not in the rules (which stay pure): the turn clock resolves inside
:func:`collector_paused`, and so does the resolve benchmark, to measure what the host does.

What a process makes to start (modules, the ORM's tables, the catalog, the adapters'
clients: ~130,000 objects) lives as long as the process, yet every full pass of the
collector walks it all again: ~100 ms, in the middle of whatever burst of orders made the
pass due (issue 45: one such pass a few rounds of 1,000 orders). :func:`freeze_the_start`
moves it out of the collector's sight once the host has started (``gc.freeze``, as
servers that fork do for the same objects); what is made later is collected as before.
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


class _Start:
    frozen = False  # (a second host of the process, as in tests, freezes nothing more)


def freeze_the_start() -> None:
    """Collect what is garbage now, then leave everything still alive out of the
    collector's passes from now on (see the module docstring); once a process, when its
    host has started (:meth:`bot.host.runtime.service.Host.run`)."""
    if _Start.frozen:
        return
    _Start.frozen = True
    gc.collect()
    gc.freeze()
