"""``fit_names`` finds the most names that fit by bisection: the same line as trying
every count from the most down, in a handful of measurements instead of one a name."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from renderers import style


def _one_by_one(prefix: str, names: list[str], size: int, max_width: int) -> str:
    names = [style.drawable(n) for n in names]
    for shown in range(len(names), -1, -1):
        rest = len(names) - shown
        text = prefix + ", ".join(names[:shown])
        if rest:
            text += (", " if shown else "") + f"+{rest} more"
        if style.text_width(text, size) <= max_width:
            return text
    return style.fit_text(prefix + ", ".join(names), size, max_width)


NAMES = st.lists(st.text("abcdefghijklmnopqrstuvwxyzMW ", min_size=1, max_size=12), max_size=40)


@settings(max_examples=150, deadline=None)
@given(names=NAMES, max_width=st.integers(0, 900))
def test_fit_names_shows_as_many_names_as_trying_each_count(
    names: list[str], max_width: int
) -> None:
    assert style.fit_names("Alive: ", names, 14, max_width) == _one_by_one(
        "Alive: ", names, 14, max_width
    )


def test_a_thousand_names_are_measured_a_few_times_not_a_thousand() -> None:
    style.text_width.cache_clear()
    names = [f"captain{i}" for i in range(1000)]
    line = style.fit_names("Captains alive (1000): ", names, 16, 1200)
    assert line.endswith(" more") and "captain0, captain1" in line
    assert style.text_width.cache_info().misses <= 16
