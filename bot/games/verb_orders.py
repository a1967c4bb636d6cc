"""Orders that are the game's verbs as declared: parsed from the declaration itself.

A game whose every order is one of its :class:`~bot.games.base.Verb`\\ s, with its
arguments' values as typed, reads them with :func:`parse_verb`: the verbs' words, the
arguments' kinds and ranges say what fits, so the parser cannot drift from the menus
a platform builds from the same verbs, and a refusal lists them all
(``expected `pull 1` to `pull 3`, `dare`, `give` or `hold```).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import Arg, ArgKind, OrderSyntaxError, Verb
from bot.games.numbers import whole_number


@dataclass(frozen=True)
class VerbOrder:
    """One of the game's verbs (by name), with its arguments' values as typed."""

    verb: str
    values: tuple[str, ...] = ()


def _fits(arg: Arg, word: str) -> bool:
    """Whether ``word`` is a value of ``arg``: a number as written plainly (``3``, never
    ``03``) within its range, one of its choices, or any word."""
    if arg.kind is ArgKind.CHOICE:
        return word in arg.choices
    if arg.kind is not ArgKind.NUMBER:
        return True
    number = whole_number(word)
    if number is None or str(number) != word:
        return False
    low = number if arg.minimum is None else arg.minimum
    high = number if arg.maximum is None else arg.maximum
    return low <= number <= high


def _shown(verb: Verb) -> str:
    """How a refusal shows a verb: ``pull 1`` to ``pull 3`` for a number in a range."""
    head = verb.name if verb.words is None else verb.words
    if len(verb.args) == 1 and verb.args[0].kind is ArgKind.NUMBER:
        low, high = verb.args[0].minimum, verb.args[0].maximum
        if low is not None and high is not None:
            return f"`{head} {low}` to `{head} {high}`"
    return "`" + " ".join([head, *(f"<{arg.name}>" for arg in verb.args)]).strip() + "`"


def expected(verbs: Sequence[Verb]) -> str:
    """Every verb as a refusal lists them: ``a, b or c``."""
    shown = [_shown(verb) for verb in verbs]
    return ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0]


def parse_verb(verbs: Sequence[Verb], text: str) -> VerbOrder:
    """``text`` as one of ``verbs`` (raising OrderSyntaxError that lists them)."""
    words = text.lower().split()
    for verb in verbs:
        head = (verb.name if verb.words is None else verb.words).split()
        values = words[len(head) :]
        fits = words[: len(head)] == head and len(values) == len(verb.args)
        if fits and all(_fits(arg, value) for arg, value in zip(verb.args, values, strict=True)):
            return VerbOrder(verb.name, tuple(values))
    raise OrderSyntaxError(f"expected {expected(verbs)}")
