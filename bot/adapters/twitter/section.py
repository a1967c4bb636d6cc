"""The ``[twitter]`` section of the config file: what a host may set for X, each field's
default being the section's. Its own module, below both the declaration (``platform.py``) and
the adapter, so that each imports it and neither imports the other at load time."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TwitterConfig:
    enabled: bool = False
    api_key_env: str = "X_API_KEY"
    api_secret_env: str = "X_API_SECRET"
    access_token_env: str = "X_ACCESS_TOKEN"
    access_secret_env: str = "X_ACCESS_SECRET"
    bearer_token_env: str = "X_BEARER_TOKEN"
    bot_user_id: str = ""  # the bot account's numeric id (looked up at start if empty)
    mentions_poll: str = "1m"
    dm_poll: str = "1m"
    search_hashtag: bool = False  # also poll recent search for the games' tags (costs reads)
    # The API origin without /2 (a recording proxy, a local fake), e.g.
    # "http://127.0.0.1:8081"; requests go to {api_base}/2/… signed over that URL.
    # "" = X's own (https://api.x.com).
    api_base: str = ""
    reminders: bool = False  # DMs cost money on X: off by default
    # The first start (no cursor yet) answers only what is sent after it; true reads
    # back one page of mentions and DMs (up to 100 each, 30 days) and acts on them.
    backfill: bool = False
    # The steady pace of the bot's posts and DMs a minute (0 = as fast as X allows): a
    # deadline's maps and boards are spread over minutes, none dropped. X allows an
    # account 200 posts and 200 DMs per 15 minutes (13 a minute), and 300 posts per 3
    # hours and 1,000 DMs a day: the longer windows are kept by X's rate headers (a send
    # waits for their reset).
    posts_per_minute: int = 6
    dms_per_minute: int = 12
