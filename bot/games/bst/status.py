"""Where a bst game stands and where each captain stands: values the state and the
views share (kept apart from both, so neither imports the other)."""

from __future__ import annotations

import enum


class Phase(enum.Enum):
    SETUP = "setup"
    BATTLE = "battle"
    FINISHED = "finished"


class CaptainStatus(enum.Enum):
    ALIVE = "alive"
    ELIMINATED = "eliminated"
    LEFT = "left"
