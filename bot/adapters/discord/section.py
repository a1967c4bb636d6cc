"""The ``[discord]`` section of the config file: what a host may set for Discord, each field's
default being the section's. Its own module, below both the declaration (``platform.py``) and
the adapter, so that each imports it and neither imports the other at load time."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DiscordConfig:
    enabled: bool = False
    token_env: str = "DISCORD_TOKEN"
    application_id_env: str = "DISCORD_APPLICATION_ID"
    message_content: bool = False  # privileged intent: typed "#sonar F7" in channels
    host_role: str = ""  # members with this role may host any game in their server
    shard_count: int = 0  # 0 = let Discord decide (one process)
    shard_ids: tuple[int, ...] = ()
    reminders: bool = True
    # The REST base with its version (a shared rate-limit proxy, a local fake), e.g.
    # "http://127.0.0.1:8080/api/v10"; the gateway is then GET {api_base}/gateway/bot.
    # "" = Discord's own.
    api_base: str = ""
    # New DM channels opened per minute at most (a DM channel once opened is reused):
    # opening hundreds at once is what Discord's anti-spam refuses (40003).
    dm_opens_per_minute: int = 60
    # Requests a second at most, the whole process's (Discord allows an application 50;
    # a little under it absorbs the network's jitter). Several processes share the 50:
    # divide it between them. 0 = no pacing (a shared rate-limit proxy in api_base).
    requests_per_second: int = 45
