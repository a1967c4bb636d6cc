"""Short pauses of the cyclic garbage collector in a long-running process.

CPython's full collection walks every container object the process holds. After
start-up a bot process holds several hundred thousand of them that live as long as
it does (modules, classes, functions of discord.py, SQLAlchemy, Pillow, the games);
walking them all took 80–200 ms each time a full collection ran, with the event loop
stopped meanwhile: a burst of slash commands that met one waited that long for its
acknowledgements (``ack_p99_web_ms``). Once the process has started, those objects
are moved out of the collector's sight (:func:`gc.freeze`), so a full collection
walks only what was made since.
"""

from __future__ import annotations

import gc


def settle() -> int:
    """Collect what start-up left, then freeze the rest (the process's long-lived
    objects) out of every later collection. Call once, when the process has started,
    before it serves. Returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
