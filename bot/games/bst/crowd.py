"""The captains of a bst state: an immutable sequence whose changed copies share parts.

A crowd's setup changes one captain at a time (a join, a placement), 100,000 times
over, and every change is a new state (states are values: the host may still hold
the old one). Copying a 100,000-long tuple for each change makes setup quadratic,
so the captains are kept in chunks of :data:`CHUNK`: a copy with one captain
replaced or one more at the end copies the short list of chunks and the one chunk
that changed, and shares every other chunk with the sequence it came from.

To everything that reads it, it is a read-only sequence like a tuple: iteration,
``len``, indexing and slicing (a slice is a tuple), and equality with any crowd or
tuple of the same items in the same order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")

CHUNK = 512
"""Items a chunk holds: a change copies one chunk and the list of chunks (100,000
captains are 196 chunks), about a thousand references instead of 100,000."""


class Crowd(Sequence[T], Generic[T]):
    """An immutable sequence kept in chunks (see the module docstring). Every chunk but
    the last is full, so two crowds of the same items have the same chunks."""

    __slots__ = ("_chunks", "_length")

    def __init__(self, items: Iterable[T] = ()) -> None:
        flat = tuple(items)
        self._chunks: tuple[tuple[T, ...], ...] = tuple(
            flat[start : start + CHUNK] for start in range(0, len(flat), CHUNK)
        )
        self._length = len(flat)

    @classmethod
    def _of_chunks(cls, chunks: tuple[tuple[T, ...], ...], length: int) -> Crowd[T]:
        made: Crowd[T] = cls.__new__(cls)
        made._chunks = chunks
        made._length = length
        return made

    def replaced(self, position: int, item: T) -> Crowd[T]:
        """This crowd with the item at ``position`` replaced by ``item``."""
        if not 0 <= position < self._length:
            raise IndexError(position)
        which, at = divmod(position, CHUNK)
        chunk = self._chunks[which]
        chunks = list(self._chunks)
        chunks[which] = (*chunk[:at], item, *chunk[at + 1 :])
        return self._of_chunks(tuple(chunks), self._length)

    def appended(self, item: T) -> Crowd[T]:
        """This crowd with ``item`` added at the end."""
        chunks = self._chunks
        if chunks and len(chunks[-1]) < CHUNK:
            chunks = (*chunks[:-1], (*chunks[-1], item))
        else:
            chunks = (*chunks, (item,))
        return self._of_chunks(chunks, self._length + 1)

    def shared_chunks(self, other: Crowd[T]) -> int:
        """How many chunks this crowd holds in common (the same objects) with ``other``."""
        return sum(1 for a, b in zip(self._chunks, other._chunks, strict=False) if a is b)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[T]:
        return itertools.chain.from_iterable(self._chunks)

    @overload
    def __getitem__(self, position: int) -> T: ...

    @overload
    def __getitem__(self, position: slice) -> tuple[T, ...]: ...

    def __getitem__(self, position: int | slice) -> T | tuple[T, ...]:
        if isinstance(position, slice):
            return tuple(self)[position]
        if position < 0:
            position += self._length
        if not 0 <= position < self._length:
            raise IndexError("crowd index out of range")
        return self._chunks[position // CHUNK][position % CHUNK]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Crowd):
            # Chunks are filled alike, so equal crowds have equal chunks (and shared
            # chunks compare by identity first).
            return self._length == other._length and self._chunks == other._chunks
        if isinstance(other, tuple):
            return self._length == len(other) and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Crowd({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Crowd, (tuple(self),))
