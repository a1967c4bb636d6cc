"""Platform-neutral hosting: it speaks no game's and no platform's words.

Four wings, each a package: ``commands`` (what people ask: the verbs' table, its dispatch
and handlers), ``play`` (a game in play: orders, turns, timers, robots, the end),
``outbox`` (everything said, durably sent) and ``runtime`` (the running host: service,
clock, limits, health). ``messages`` stays at the door, outside the wings: it is the
protocol every platform adapter speaks (what comes in, what goes out, what a platform
can do), read by all four wings and by every adapter.
"""
