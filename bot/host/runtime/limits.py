"""What one person may ask of a live host: the bounds that keep a hostile player from
flooding a server (issue 24).

* **Clocks** (``min_duration_s``): the shortest turn, move time, response window or setup
  deadline a game may be opened with. A timer's posts (a turn's report and map, a
  setup window's notice) come at most once per timer length, so this bounds each game's
  clock-driven posts per hour (at one minute: 60 an hour, not 3,600).
* **Commands** (``commands_per_minute``): every message counts (a reply in a game's
  thread too, whose mention of the bot the platform's adapter took off); past this, one
  "slow down" answer to a message that speaks to the host, and the rest of that
  minute's messages from that person are recorded and not answered.
* **Answers** (``private_answers``): ``help``, ``rules`` and ``status`` asked in
  public are answered privately. Where an answer costs (an X reply is paid), a public
  message that is no command at all (chatter that mentions the bot) gets none; untagged
  words in a game's channel from someone who plays no seat there get none anywhere.
* **Quotas** (``open_games_per_host``, ``open_games_per_channel``): games in setup or
  battle that one person hosts in one community (a Discord server; the whole platform
  where there is none), and that run in one channel (each opens a thread there).

Zero means no bound. The defaults (:data:`NO_LIMITS`) are for the host's virtual clocks
(scripts, the demo, tests); ``bst run`` takes them from the ``[limits]`` section of the
configuration, whose defaults are safe for a public server.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    min_duration_s: float = 0.0
    commands_per_minute: int = 0
    open_games_per_host: int = 0
    open_games_per_channel: int = 0
    # ``help``, ``rules`` and ``status`` asked in public are answered privately (an
    # ephemeral answer or a DM): one person's questions do not fill a channel.
    private_answers: bool = False


NO_LIMITS = Limits()

WINDOW_S = 60.0


class CommandRates:
    """Each person's commands in the last minute, to answer the first one too many once.

    In memory, per process: a restart forgives, and two processes each count their own
    (each still bounds what one person costs it)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._sent: dict[tuple[str, str], deque[float]] = {}
        self._warned: dict[tuple[str, str], float] = {}

    def check(self, platform: str, user_id: str, now: float, *, warn: bool = True) -> str:
        """ "ok", "slow down" (the first message past the bound in its minute: answer it
        once) or "quiet" (past the bound and already told, or, with ``warn`` false, a
        message that gets no answer anyway: talk does not use up the one warning)."""
        if self.per_minute <= 0:
            return "ok"
        who = (platform, user_id)
        sent = self._sent.setdefault(who, deque())
        while sent and sent[0] <= now - WINDOW_S:
            sent.popleft()
        if len(sent) < self.per_minute:
            sent.append(now)
            if len(self._sent) > 10_000:
                self._forget(now)
            return "ok"
        if not warn or self._warned.get(who, float("-inf")) > now - WINDOW_S:
            return "quiet"
        self._warned[who] = now
        return "slow down"

    def wait_s(self, platform: str, user_id: str, now: float) -> float:
        sent = self._sent.get((platform, user_id))
        return max(0.0, sent[0] + WINDOW_S - now) if sent else 0.0

    def _forget(self, now: float) -> None:
        """Drop the people idle for a minute (the memory stays bounded by the active)."""
        for who in [w for w, sent in self._sent.items() if not sent or sent[-1] <= now - WINDOW_S]:
            del self._sent[who]
            self._warned.pop(who, None)
