"""A game's state and orders to and from JSON, when they are frozen dataclasses.

What the store keeps is ``dataclasses.asdict`` of the value; what it reads back is
rebuilt from the dataclass's own type hints (nested dataclasses, tuples, enums,
optional values), so a game whose values say their types writes no codec of its own,
only its record (:class:`FrozenCodec`).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any, Generic

from bot.games.base import OrderT, RecordContext, StateT, Step


def decoded(kind: Any, data: Any) -> Any:
    """``data`` (JSON, as :func:`dataclasses.asdict` wrote it) as a value of ``kind``."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        kinds = [arg for arg in args if arg is not type(None)]
        return None if data is None else decoded(kinds[0], data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decoded(args[0], item) for item in data)
        return tuple(decoded(arg, item) for arg, item in zip(args, data, strict=True))
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        hints = typing.get_type_hints(kind)
        known = {f.name for f in dataclasses.fields(kind)} & set(data)
        return kind(**{name: decoded(hints[name], data[name]) for name in known})
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(data)
    return data


Record = Callable[[StateT, Sequence[Step], RecordContext], dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class FrozenCodec(Generic[StateT, OrderT]):
    """The codec of a game whose state and orders are frozen dataclasses: it writes
    only its ``record`` (``KIND-record/1``)."""

    state_type: type[StateT]
    order_type: type[OrderT]
    record: Record[StateT]

    encode_state = encode_order = staticmethod(asdict)

    def decode_state(self, data: Mapping[str, Any]) -> StateT:
        return typing.cast(StateT, decoded(self.state_type, data))

    def decode_order(self, data: Mapping[str, Any]) -> OrderT:
        return typing.cast(OrderT, decoded(self.order_type, data))
