"""The health signal: is this process connected and sending?

A process manager (systemd, Docker, Kubernetes, a PaaS) restarts a process that has
died, but not one that is alive and useless: disconnected from its platform, or with
a relay that no longer sends. ``[health] port`` serves ``GET /health`` on a local
address: ``200`` with ``{"status": "ok", …}`` while every platform is connected (or
has been down for less than a minute, as a reconnection takes) and the relay is
moving; ``503`` with ``{"status": "unhealthy", "problems": […]}`` otherwise.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from aiohttp import web

from bot.host.messages import PlatformLink

log = logging.getLogger(__name__)

DISCONNECTED_AFTER = 60.0
"""A platform down for longer than this (a reconnection takes seconds) is a problem."""
STUCK_AFTER = 900.0
"""A send running longer than this is stuck: the longest honest one (a video X
processes for minutes) ends well before."""
READER_SILENT_AFTER = 180.0
"""The relay's reader looks at the outbox at least every minute; three missed is stuck."""


@dataclass(frozen=True)
class Health:
    problems: tuple[str, ...] = ()
    platforms: Mapping[str, str] = field(default_factory=dict)

    @property
    def healthy(self) -> bool:
        return not self.problems

    def body(self) -> dict[str, object]:
        return {
            "status": "ok" if self.healthy else "unhealthy",
            "platforms": dict(self.platforms),
            "problems": list(self.problems),
        }


def assess(
    links: Mapping[str, PlatformLink],
    *,
    relay_stuck_for: float,
    relay_silent_for: float,
    disconnected_after: float = DISCONNECTED_AFTER,
    stuck_after: float = STUCK_AFTER,
) -> Health:
    """The health of a process with these platform links and this relay."""
    problems: list[str] = []
    platforms: dict[str, str] = {}
    for name, link in sorted(links.items()):
        if link.refusal is not None:
            platforms[name] = "refused"
            problems.append(f"{name} refused the bot: {link.refusal}")
        elif link.connected:
            platforms[name] = "connected"
        else:
            down = link.down_for()
            platforms[name] = f"down {down:.0f} s"
            if down > disconnected_after:
                problems.append(f"{name} disconnected for {down:.0f} s")
    if relay_stuck_for > stuck_after:
        problems.append(f"the relay has been sending one message for {relay_stuck_for:.0f} s")
    if relay_silent_for > READER_SILENT_AFTER:
        problems.append(f"the relay has not read the outbox for {relay_silent_for:.0f} s")
    return Health(tuple(problems), platforms)


class HealthServer:
    """``GET /health`` on ``address:port`` (port 0: any free port, see :attr:`port`)."""

    def __init__(self, check: Callable[[], Health], address: str, port: int) -> None:
        self._check = check
        self._address = address
        self._wanted_port = port
        self._runner: web.AppRunner | None = None
        self.port = port

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/health", self._health)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self._address, self._wanted_port)
        await site.start()
        self._runner = runner
        sockets = getattr(site._server, "sockets", None) or []  # the port bound, for port 0
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        log.info("health signal on http://%s:%s/health", self._address, self.port)

    async def _health(self, request: web.Request) -> web.Response:
        health = self._check()
        return web.Response(
            status=200 if health.healthy else 503,
            text=json.dumps(health.body()),
            content_type="application/json",
        )

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
