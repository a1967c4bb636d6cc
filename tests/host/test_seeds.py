"""Seeded randomness: a draw depends only on the game's seed and what it is for."""

from __future__ import annotations

import random

from bot.host.play.seeds import seeded, seeded_on_first_draw


def test_a_source_seeded_on_first_draw_draws_exactly_what_a_seeded_one_draws() -> None:
    for parts in [("accept", "discord", "m1"), ("accept", "script", "line-7"), ("turn", 3)]:
        eager, lazy = seeded(42, *parts), seeded_on_first_draw(42, *parts)
        assert isinstance(lazy, random.Random)
        assert [lazy.random() for _ in range(5)] == [eager.random() for _ in range(5)]
        assert lazy.sample(range(1000), 20) == eager.sample(range(1000), 20)
        assert lazy.choice("abcdefgh") == eager.choice("abcdefgh")


def test_different_purposes_draw_differently() -> None:
    assert seeded(1, "turn", 1).random() != seeded(1, "turn", 2).random()
    assert seeded(1, "turn", 1).random() != seeded(2, "turn", 1).random()
