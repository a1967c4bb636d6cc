"""``benchmarks/uboat.py`` runs on its real scene and gives positive numbers (its figures
come from ``python -m benchmarks --only uboat``, never from tests)."""

from __future__ import annotations

from benchmarks import uboat


def test_the_benchmarks_round_has_six_boats_each_with_an_order_that_does_something() -> None:
    state, given = uboat.round_scene()
    assert len(state.boats) == 6 and len(given) == 6
    assert uboat.resolve_ms(repeats=1, calls=2) > 0


def test_the_map_ratio_is_measured_against_a_grid_of_the_same_size() -> None:
    ratio, map_s, floor_s, (width, height) = uboat.map_ratio(repeats=1, calls=1)
    assert ratio > 0 and map_s > 0 and floor_s > 0
    assert width >= 760 and height > width
