"""What a configuration problem is, and reading a secret the config names.

The two things a platform's declaration needs from the config when it builds its adapter,
kept apart from :mod:`bot.config` (which reads every platform's section through the
platform catalog) so that no adapter imports the catalog of all the others.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


class ConfigError(Exception):
    """A configuration problem, worded for the person who wrote the file."""


def secret(variable: str, environ: Mapping[str, str] | None = None) -> str:
    """The value of a secret's environment variable (never logged)."""
    env = os.environ if environ is None else environ
    value = env.get(variable, "")
    if not value:
        raise ConfigError(f"environment variable {variable} is not set")
    return value
