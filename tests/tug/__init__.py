"""Tug: a small game that exists only in the tests, to prove the host hosts any game.

Registered by the tests that use it (``tests/host/test_tug_game.py``), never by the
bot. It alternates turns between two seats, each a crew of players; a seat may
dare the other, whose crew answers within its own time limit while the mover's
clock waits — every host mechanism a real game leans on, in one page of rules.
"""

from tests.tug.game import TUG

__all__ = ["TUG"]
