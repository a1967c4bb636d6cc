"""Each option of ``new`` declared once: its name, kind, default, range and doc.

An :class:`Option` yields everything that used to be written apart (and could drift
apart): the :class:`~bot.games.base.Arg` a platform builds its menu from, the parser
with its refusal, and the canonical text records and ``status`` show. An
:class:`OptionTable` is a game's options in order: its known keys, its ``Arg``\\ s, the
values of a ``new`` (defaults filled in, an unknown key refused naming the known ones)
and their texts. What depends on two options at once (a board that must hold the
islands, a window shorter than the round) stays a small function of the game, run
after the table's parse.

The helpers (:func:`number`, :func:`switch`, :func:`choice`, :func:`duration`) build
the common kinds from their range; a refusal text may be given where a game's words
differ (``{name}``, ``{got}`` and, as the kind has them, ``{low}``, ``{high}``,
``{number}``, ``{expected}`` or ``{length}`` are filled in).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Generic, TypeVar

from bot.games.base import Arg, ArgKind, OptionError
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import whole_number

T = TypeVar("T")
U = TypeVar("U")
E = TypeVar("E", bound=enum.Enum)

ON_WORDS = ("on", "true", "yes", "1")
OFF_WORDS = ("off", "false", "no", "0")
SHOWN = 40
"""Characters of a refused value quoted back (a post may be long)."""


@dataclass(frozen=True)
class Option(Generic[T]):
    """One option: ``read`` turns its text into its value (raising OptionError with the
    whole refusal), ``show`` its value into the canonical text. ``minimum``, ``maximum``
    and ``choices`` are what a platform's menu offers; the parser accepts them all (a
    test walks every game's options to hold them to it). ``field`` is the attribute of
    the game's options that keeps the value, when it is not named as the option is."""

    name: str
    kind: ArgKind
    default: T
    doc: str
    read: Callable[[str], T]
    show: Callable[[T], str]
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    field: str = ""

    @property
    def attribute(self) -> str:
        return self.field or self.name

    @property
    def arg(self) -> Arg:
        """The option as a platform offers it (never required: each has its default)."""
        return Arg(
            self.name,
            self.kind,
            self.doc,
            required=False,
            choices=self.choices,
            minimum=self.minimum,
            maximum=self.maximum,
        )

    def parse(self, text: str) -> T:
        return self.read(str(text))

    def text(self, value: T) -> str:
        return self.show(value)

    def kept_as(self, to: Callable[[T], U], back: Callable[[U], T], field: str = "") -> Option[U]:
        """The same option, its value kept in another form (a duration as seconds)."""
        read, show = self.read, self.show
        return Option(
            self.name,
            self.kind,
            to(self.default),
            self.doc,
            lambda text: to(read(text)),
            lambda value: show(back(value)),
            self.choices,
            self.minimum,
            self.maximum,
            field,
        )

    def or_word(self, word: str, *spellings: str) -> Option[T | None]:
        """The same option, or ``word`` (or one of ``spellings``) for no value at all
        (None, the default)."""
        read, show = self.read, self.show
        nothing = {word, *spellings}

        def read_or_nothing(text: str) -> T | None:
            return None if text.strip().lower() in nothing else read(text)

        def show_or_word(value: T | None) -> str:
            return word if value is None else show(value)

        return Option(
            self.name,
            self.kind,
            None,
            self.doc,
            read_or_nothing,
            show_or_word,
            self.choices,
            self.minimum,
            self.maximum,
            self.field,
        )


@dataclass(frozen=True)
class OptionTable:
    """A game's options, in the order its record and menus list them. ``unknown`` is the
    refusal of a key it does not know (``{key}`` and ``{names}`` filled in); ``ignored``
    keys are someone else's (the host's ``seed``) and pass unread."""

    options: tuple[Option[Any], ...]
    unknown: str = "unknown option {key!r}: the options are {names}"
    ignored: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(option.name for option in self.options)

    @property
    def args(self) -> tuple[Arg, ...]:
        return tuple(option.arg for option in self.options)

    def get(self, name: str) -> Option[Any]:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def defaults(self) -> dict[str, Any]:
        """Every option's default, by the attribute that keeps it."""
        return {option.attribute: option.default for option in self.options}

    def parse(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """The values of ``raw`` (``key=value`` texts) over the defaults, by attribute. An
        unknown key is refused first, naming the known ones; then each value, in the
        order given."""
        wanted: list[tuple[Option[Any], str]] = []
        for raw_key, text in raw.items():
            key = raw_key.strip().lower()
            if key in self.ignored:
                continue
            if key not in self.keys:
                names = ", ".join(self.keys)
                raise OptionError(self.unknown.format(key=raw_key.strip(), names=names))
            wanted.append((self.get(key), str(text)))
        values = self.defaults()
        for option, text in wanted:
            values[option.attribute] = option.parse(text)
        return values

    def text(self, values: object) -> dict[str, str]:
        """Every option's canonical text, read from the attributes of ``values``."""
        return {
            option.name: option.text(getattr(values, option.attribute)) for option in self.options
        }


def _got(text: str) -> str:
    return repr(text.strip()[:SHOWN])


def number(
    name: str,
    default: int,
    low: int,
    high: int,
    doc: str,
    *,
    refusal: str = "{name}: expected a number from {low} to {high}; got {got}",
    even: bool = False,
    field: str = "",
) -> Option[int]:
    """A whole number from ``low`` to ``high`` (even, when ``even``). In ``refusal``,
    ``{number}`` is the number typed when it is one, else ``{got}``."""

    def read(text: str) -> int:
        value = whole_number(text)
        if value is None or not low <= value <= high or (even and value % 2):
            typed = _got(text) if value is None else str(value)
            message = refusal.format(name=name, low=low, high=high, got=_got(text), number=typed)
            raise OptionError(message)
        return value

    return Option(name, ArgKind.NUMBER, default, doc, read, str, (), low, high, field)


def switch(
    name: str,
    default: bool,
    doc: str,
    *,
    refusal: str = "{name}: expected on or off; got {got}",
) -> Option[bool]:
    """``on`` or ``off`` (``yes``/``no``, ``true``/``false``, ``1``/``0`` too)."""

    def read(text: str) -> bool:
        word = text.strip().lower()
        if word in ON_WORDS:
            return True
        if word in OFF_WORDS:
            return False
        raise OptionError(refusal.format(name=name, got=repr(text.strip())))

    def show(value: bool) -> str:
        return "on" if value else "off"

    return Option(name, ArgKind.CHOICE, default, doc, read, show, ("on", "off"))


def choice(
    name: str,
    default: T,
    doc: str,
    words: Mapping[str, T],
    *,
    refusal: str = "{name}: expected {expected}; got {got}",
    field: str = "",
) -> Option[T]:
    """One of ``words`` (canonical words first: a value shows as the first word that
    names it; later words are other spellings a player may type)."""
    canonical: dict[Any, str] = {}
    for word, value in words.items():
        canonical.setdefault(value, word)
    offered = tuple(canonical.values())

    def read(text: str) -> T:
        try:
            return words[text.strip().lower()]
        except KeyError:
            expected = " or ".join(offered)
            message = refusal.format(name=name, expected=expected, got=repr(text.strip()))
            raise OptionError(message) from None

    def show(value: T) -> str:
        return canonical[value]

    return Option(name, ArgKind.CHOICE, default, doc, read, show, offered, field=field)


def enum_words(kind: type[E]) -> dict[str, E]:
    """An enum's members by their values, for :func:`choice`."""
    return {member.value: member for member in kind}


def duration(
    name: str,
    default: timedelta,
    doc: str,
    *,
    least: timedelta | None = None,
    most: timedelta | None = None,
    refusal: str = "",
) -> Option[timedelta]:
    """A length of time (``8h``, ``1h30m``), from ``least`` to ``most`` when given
    (``refusal`` then says so: ``{got}`` is what was typed, ``{length}`` its canonical
    text)."""

    def read(text: str) -> timedelta:
        try:
            length = parse_duration(text)
        except OptionError as error:
            raise OptionError(f"{name}: {error.message}") from None
        if (least is not None and length < least) or (most is not None and length > most):
            shown = format_duration(length)
            raise OptionError(refusal.format(name=name, got=repr(text.strip()), length=shown))
        return length

    return Option(name, ArgKind.DURATION, default, doc, read, format_duration)


def in_seconds(option: Option[timedelta], field: str = "") -> Option[int]:
    """A duration kept as whole seconds (in the attribute ``field``, when given)."""
    return option.kept_as(
        lambda length: int(length.total_seconds()), lambda s: timedelta(seconds=s), field
    )


def as_text(option: Option[timedelta]) -> Option[str]:
    """A duration kept in its canonical text (``1h30m``)."""
    return option.kept_as(format_duration, parse_duration)
