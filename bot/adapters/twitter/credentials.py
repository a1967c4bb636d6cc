"""The X bot account's keys, read from the environment the config names."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.adapters.twitter.section import TwitterConfig
from bot.config_problems import secret


@dataclass(frozen=True)
class TwitterCredentials:
    """The bot account's OAuth 1.0a user-context keys (and an optional bearer
    token). ``repr`` shows no value, so a logged config or traceback cannot
    leak one."""

    api_key: str = field(repr=False)
    api_secret: str = field(repr=False)
    access_token: str = field(repr=False)
    access_secret: str = field(repr=False)
    bearer_token: str = field(default="", repr=False)

    def __repr__(self) -> str:
        return "TwitterCredentials(<hidden>)"

    __str__ = __repr__

    @classmethod
    def from_environment(
        cls, config: TwitterConfig, environ: Mapping[str, str] | None = None
    ) -> TwitterCredentials:
        """Read the keys from the environment variables the config names."""
        env = os.environ if environ is None else environ
        return cls(
            api_key=secret(config.api_key_env, env),
            api_secret=secret(config.api_secret_env, env),
            access_token=secret(config.access_token_env, env),
            access_secret=secret(config.access_secret_env, env),
            bearer_token=env.get(config.bearer_token_env, ""),
        )

    def values(self) -> tuple[str, ...]:
        return tuple(
            v
            for v in (
                self.api_key,
                self.api_secret,
                self.access_token,
                self.access_secret,
                self.bearer_token,
            )
            if v
        )
