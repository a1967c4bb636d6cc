"""The host's own options of ``new``: ``reach``, ``seed``, ``robots``, ``fill``, ``away``.

Declared once, as a game declares its own (:mod:`bot.games.option`): lobby's ``new``
reads them with one table and hands the rest to the game, the ``options`` command of a
game in setup keeps the ones stored with the game's, and a platform's menu offers them
after the game's. Each refusal names the game, so the table is made for one game
(:func:`host_options`); what the game has (its robots, a ``pass`` order) is asked of the
game itself, which is pure.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.games.base import ROBOT_LEVELS, Arg, ArgKind, Game, GameError, OptionError
from bot.games.duration import format_duration, parse_duration
from bot.games.numbers import LARGEST, whole_number
from bot.games.option import Option, OptionTable, choice

REACH = "reach"
SEED = "seed"
ROBOTS = "robots"
"""``robots=N`` (or ``robots=N:LEVEL``): the robots ``new`` seats at once."""
FILL = "fill"
"""``fill=robots`` (or ``fill=robots:LEVEL``): ``start`` seats robots up to the game's
usual table."""
AWAY = "away"
"""``away=12h``, ``away=pass`` or ``away=robot``: what a turn does for a player who is
away (see :mod:`bot.host.play.away`)."""

STORED = (AWAY, FILL)
"""The host's options kept with the game's in its row (``reach`` and ``seed`` have
columns of their own; ``robots`` is done once ``new`` has seated them)."""

PASS = "pass"
ROBOT = "robot"  # a robot plays the away player's seat (see bot.host.play.robots)
MOST_AT_ONCE = 50
"""Robots one ``robots=N`` seats at most (a game's own table limit refuses sooner)."""
LONGEST_WAIT = timedelta(days=7)


def levels_of(game: Game[Any, Any]) -> list[str]:
    """The robot levels ``game`` has, weakest first."""
    return [level for level in ROBOT_LEVELS if game.robot_at(level) is not None]


def parse_level(game: Game[Any, Any], word: str, example: str) -> str:
    """A level the game has (``easy`` when ``word`` is empty); refused with an example."""
    levels = levels_of(game)
    if not levels:
        raise OptionError(f"{game.name} has no robots yet: its seats are for people")
    level = word.strip().lower() or levels[0]
    if level not in levels:
        raise OptionError(
            f"expected a robot level, one of {', '.join(levels)}, such as `{example} "
            f"{levels[-1]}`; got {word.strip()[:40]!r}"
        )
    return level


def has_pass(game: Game[Any, Any]) -> bool:
    """Whether ``pass`` is one of the game's orders."""
    try:
        game.rules.parse(PASS)
    except GameError:
        return False
    return True


def _read_seed(text: str) -> str:
    number = whole_number(text)
    if number is None:
        raise OptionError(
            f"seed: expected a whole number from 0 to {LARGEST} such as seed=42, got {text[:40]!r}"
        )
    return str(number)


def host_options(game: Game[Any, Any]) -> OptionTable:
    """The host's options of ``new`` for ``game``, each read and refused naming it."""
    name = game.name

    def read_robots(value: str) -> str:
        """``robots=N`` or ``robots=N:LEVEL``, canonical (``2:easy``)."""
        count_text, _, level_text = value.partition(":")
        example = f"new {name} robots=2"
        count = int(count_text) if count_text.isdigit() else -1
        if not 1 <= count <= MOST_AT_ONCE:
            raise OptionError(
                f"robots: expected how many robots to seat, 1 to {MOST_AT_ONCE}, such as "
                f"`{example}` (or `{example}:strong`); got {value[:40]!r}"
            )
        return f"{count}:{parse_level(game, level_text, f'{example}:')}"

    def read_fill(value: str) -> str:
        """``fill=robots`` or ``fill=robots:LEVEL``, canonical (``robots:easy``)."""
        word, _, level_text = value.partition(":")
        if word.strip().lower() != "robots":
            raise OptionError(
                f"fill: expected `robots` (start seats robots up to the game's usual table), "
                f"such as `new {name} fill=robots` or `fill=robots:strong`; got {value[:40]!r}"
            )
        return f"robots:{parse_level(game, level_text, f'new {name} fill=robots:')}"

    def read_away(value: str) -> str:
        """``away=12h``: the canonical duration; ``away=pass`` where the game has a
        ``pass`` order, ``away=robot`` where it has a robot."""
        if value.strip().lower() == ROBOT:
            if game.robot is None:
                raise OptionError(
                    f"away: {name} has no robot to play an away player's seat: make the "
                    "turn wait for them instead, such as `new away=12h`"
                )
            return ROBOT
        if value.strip().lower() == PASS:
            if not has_pass(game):
                raise OptionError(
                    f"away: {name} has no `pass` order, so an away player cannot pass "
                    "there: make the turn wait for them instead, such as `new away=12h`"
                )
            return PASS
        try:
            length = parse_duration(value)
        except GameError:
            raise OptionError(
                f"away: expected how long a turn waits for a player who is away, such as "
                f"`new away=12h`, `new away=pass` (their order is `pass`) or `new away=robot` "
                f"(a robot plays their seat); got {value!r}"
            ) from None
        if length > LONGEST_WAIT:
            raise OptionError(
                f"away: at most {format_duration(LONGEST_WAIT)}, such as `new away=12h`"
            )
        return format_duration(length)

    def as_given(value: str) -> str:
        return value

    reach = choice(
        REACH,
        False,
        "Who may join by DM: this server's members (default) or anyone",
        {"server": False, "all": True},
        refusal="{name}: expected `server` (the default: its members may join by DM) "
        "or `all` (anyone may), such as `new reach=all`; got {got}",
    )
    away = Option(
        AWAY,
        ArgKind.TEXT,
        "",
        "What a turn does for a player who is away: wait (12h), pass or robot",
        read_away,
        as_given,
    )
    fill = Option(
        FILL,
        ArgKind.TEXT,
        "",
        "robots: start seats robots up to the usual table (or robots:LEVEL)",
        read_fill,
        as_given,
    )
    robots = Option(
        ROBOTS,
        ArgKind.TEXT,
        "",
        "Robots to seat at once: N or N:LEVEL, such as 2 or 1:strong",
        read_robots,
        as_given,
    )
    seed = Option(
        SEED,
        ArgKind.NUMBER,
        "",
        "Seeds the game's luck, to replay it (default: a secret of the host's)",
        _read_seed,
        as_given,
        minimum=0,  # (no maximum offered: a menu takes the number as typed)
    )
    # (In the order ``new`` has always checked them.)
    return OptionTable((reach, away, fill, robots, seed))


def new_args(game: Game[Any, Any]) -> tuple[Arg, ...]:
    """What a platform's ``new`` offers: the game's options, then the host's (a name
    the game has stays the game's: a menu has each name once)."""
    own = {arg.name for arg in game.option_args}
    host = tuple(arg for arg in host_options(game).args if arg.name not in own)
    return (*game.option_args, *host)
