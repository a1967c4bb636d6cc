"""The crowd of a bst state (``bot/games/bst/crowd.py``) reads like the tuple it replaces:
after any run of replacements and additions it holds what a tuple would, compares,
hashes, slices and pickles alike, and every change shares the unchanged chunks."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.bst.crowd import CHUNK, Crowd

CHANGES = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(0, 10**6)),
        st.tuples(st.just("replace"), st.integers(0, 10**6)),
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(start=st.integers(0, 3 * CHUNK + 2), changes=CHANGES)
def test_any_run_of_changes_reads_as_the_tuple_would(
    start: int, changes: list[tuple[str, int]]
) -> None:
    model = list(range(start))
    crowd = Crowd(model)
    for what, value in changes:
        before = crowd
        if what == "append":
            model.append(value)
            crowd = crowd.appended(value)
        elif model:
            position = value % len(model)
            model[position] = -value
            crowd = crowd.replaced(position, -value)
        else:
            continue
        # Nothing old changes, and at most one chunk (plus a new last one) is new.
        assert len(before) == len(crowd) - (what == "append")
        chunks = -(-len(crowd) // CHUNK)
        assert crowd.shared_chunks(before) >= chunks - 2
    expected = tuple(model)
    assert tuple(crowd) == expected and list(crowd) == model
    assert crowd == expected and crowd == Crowd(expected)
    assert hash(crowd) == hash(expected)
    assert len(crowd) == len(expected)
    for position in {0, len(model) // 2, len(model) - 1} if model else set():
        assert crowd[position] == expected[position]
        assert crowd[position - len(model)] == expected[position - len(model)]
    assert crowd[1:-1:2] == expected[1:-1:2]
    assert pickle.loads(pickle.dumps(crowd)) == crowd


def test_it_refuses_what_a_tuple_refuses() -> None:
    crowd = Crowd(range(CHUNK + 1))
    with pytest.raises(IndexError):
        crowd[CHUNK + 1]
    with pytest.raises(IndexError):
        crowd[-(CHUNK + 2)]
    with pytest.raises(IndexError):
        crowd.replaced(CHUNK + 1, 0)
    assert crowd != [*range(CHUNK + 1)]  # a list is not a tuple either
    assert crowd != Crowd(range(CHUNK))
    assert repr(Crowd([1, 2])) == "Crowd((1, 2))"
