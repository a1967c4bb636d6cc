"""The host's own verbs, declared: each one's words, who may use it, where, its arguments
and its handler.

The games declare their verbs as data (``Game.verbs``); so does the host, here. The
dispatch (:func:`run_game_verb`, :func:`run_room_verb`) reads this table, and so does
every platform's menu (Discord's ``/host`` group is built from :data:`HOST_VERBS`), so a
new verb of the host is one entry here and its handler: no platform copies the list.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from bot.games.base import Arg, ArgKind, GamePhase
from bot.games.catalog import get_game
from bot.host import admin, bridges, lobby, me
from bot.host.context import CommandContext
from bot.host.posts import Cause
from bot.host.routing import Refusal, command_word
from bot.host.verb_call import VerbCall
from bot.store import Tx, records


class Who(enum.Enum):
    """Who may use a verb (the handler checks it again where it is finer)."""

    ANYONE = "anyone"
    PLAYER = "player"  # a player of the game
    HOST = "host"  # the game's host: its creator, an admin of the bot or of its channel


class Where(enum.Enum):
    """Where a verb is sent (what a platform's menu offers where: Discord's ``/host`` is
    in servers only); the dispatch finds the game from the place either way."""

    PUBLIC = "public"  # in the game's channel (or a room it was bridged into)
    PRIVATE = "private"  # in a DM with the bot
    EITHER = "either"


# A verb on the game of the place it was sent from, with the game loaded and locked.
GameHandler = Callable[[VerbCall], None]
# A verb answered before any game is found (the place itself names what it acts on):
# returns the number of the game it acted on, if any.
RoomHandler = Callable[[CommandContext, Tx, Cause, str], "int | None"]


@dataclass(frozen=True)
class HostVerb:
    """One verb of the host. ``on_game`` or ``on_room`` is its handler (exactly one);
    ``menu``: shown in the platforms' menus (``add robot`` is typed, not picked)."""

    name: str
    who: Who
    where: Where
    description: str
    args: tuple[Arg, ...] = ()
    on_game: GameHandler | None = None
    on_room: RoomHandler | None = None
    # Refused once the game has finished ("this game has finished"); the verbs of setup
    # refuse by their own words.
    not_when_finished: bool = False
    menu: bool = True

    def __post_init__(self) -> None:
        if (self.on_game is None) == (self.on_room is None):
            raise ValueError(f"verb {self.name!r}: give exactly one of on_game and on_room")


def _unbridge(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    return bridges.unbridge(commands, tx, row).id


HOST_VERBS: tuple[HostVerb, ...] = (
    HostVerb(
        "start",
        Who.HOST,
        Where.PUBLIC,
        "Close setup and start the game",
        (
            Arg(
                "first", ArgKind.PLAYER, "Who moves first, in a game played in turn", required=False
            ),
        ),
        on_game=admin.start,
    ),
    HostVerb(
        "pause",
        Who.HOST,
        Where.PUBLIC,
        "Freeze the clock",
        on_game=admin.pause,
        not_when_finished=True,
    ),
    HostVerb(
        "resume",
        Who.HOST,
        Where.PUBLIC,
        "Let the clock run again",
        on_game=admin.resume,
        not_when_finished=True,
    ),
    HostVerb(
        "extend",
        Who.HOST,
        Where.PUBLIC,
        "Lengthen the current turn",
        (Arg("duration", ArgKind.DURATION, "e.g. 2h, 30m, 1h30m"),),
        on_game=admin.extend,
        not_when_finished=True,
    ),
    HostVerb(
        "kick",
        Who.HOST,
        Where.PUBLIC,
        "Remove a player from the game",
        (Arg("member", ArgKind.PLAYER, "Who to remove"),),
        on_game=admin.kick,
        not_when_finished=True,
    ),
    HostVerb(
        "replace",
        Who.HOST,
        Where.PUBLIC,
        "Hand a player's seat to someone else, who gets its board, or to a robot",
        (
            Arg("member", ArgKind.PLAYER, "Whose seat"),
            Arg("substitute", ArgKind.PLAYER, "Who takes it", required=False),
            # A robot takes the seat instead (issue 44): `replace @bob robot strong`.
            Arg(
                "robot",
                ArgKind.CHOICE,
                "Or a robot takes it, for a player who is gone",
                required=False,
                choices=("robot", "robot strong"),
            ),
        ),
        on_game=admin.replace,
        not_when_finished=True,
    ),
    HostVerb(
        "end",
        Who.HOST,
        Where.PUBLIC,
        "End the game now",
        on_game=admin.end,
        not_when_finished=True,
    ),
    HostVerb(
        bridges.UNDO,
        Who.HOST,
        Where.PUBLIC,
        "Stop playing here the game bridged into this room",
        on_room=_unbridge,
    ),
    HostVerb(
        "options",
        Who.HOST,
        Where.PUBLIC,
        "Change the game's options in setup",
        (Arg("options", ArgKind.TEXT, "key=value …"),),
        on_game=admin.change_options,
        menu=False,
    ),
    HostVerb(
        "add",
        Who.HOST,
        Where.PUBLIC,
        "Seat a robot in setup",
        (Arg("robot", ArgKind.TEXT, "robot [LEVEL]"),),
        on_game=admin.robot_seat,
        menu=False,
    ),
    HostVerb(
        "remove",
        Who.HOST,
        Where.PUBLIC,
        "Take a robot's seat back in setup",
        (Arg("robot", ArgKind.TEXT, "robot NAME"),),
        on_game=admin.robot_seat,
        menu=False,
    ),
)

# What any player may ask of a game, whatever the game (and ``join``, anyone).
PLAYER_VERBS: tuple[HostVerb, ...] = (
    HostVerb("join", Who.ANYONE, Where.EITHER, "Join the game", on_game=lobby.join_verb),
    HostVerb("leave", Who.PLAYER, Where.EITHER, "Leave the game", on_game=lobby.leave_verb),
    HostVerb(
        "board",
        Who.PLAYER,
        Where.EITHER,
        "See your private board again",
        on_game=lobby.board_verb,
    ),
    HostVerb(
        "status",
        Who.ANYONE,
        Where.EITHER,
        "Phase, turn, deadline and who still plays",
        on_game=lobby.status_verb,
    ),
    HostVerb("help", Who.ANYONE, Where.EITHER, "How to play", on_game=lobby.help_verb),
    HostVerb("rules", Who.ANYONE, Where.EITHER, "The rules in short", on_game=lobby.rules_verb),
    HostVerb(
        "link",
        Who.PLAYER,
        Where.EITHER,
        "Your own page of the game, or a linking code",
        on_game=lobby.link_verb,
    ),
)

_BY_NAME = {verb.name: verb for verb in (*HOST_VERBS, *PLAYER_VERBS)}


def in_menus() -> tuple[HostVerb, ...]:
    """The host's verbs a platform's menu offers, in the order they are listed (the
    players' are in each game's own menu, with the game's verbs)."""
    return tuple(verb for verb in HOST_VERBS if verb.menu)


def run_game_verb(
    commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game, word: str, rest: str
) -> None:
    """Carry out the verb ``word`` on the game (loaded and locked), once who asks may."""
    verb = _BY_NAME[word]
    assert verb.on_game is not None
    if verb.who is Who.HOST:
        admin.refuse_a_non_host(commands, tx, row, game_row, word)
    game = get_game(game_row.kind)
    state = commands.states.of(game, game_row)
    now = commands.clock.now()
    if verb.not_when_finished and game_row.phase == GamePhase.FINISHED:
        raise Refusal("this game has finished")
    verb.on_game(VerbCall(commands, tx, row, game, game_row, state, now, word, rest))


def run_room_verb(commands: CommandContext, tx: Tx, row: Cause, word: str, rest: str) -> int | None:
    """Carry out a verb answered before any game is found; the number of its game."""
    verb = _BY_NAME[word]
    assert verb.on_room is not None
    return verb.on_room(commands, tx, row, rest)


# ``me …``: a person's own settings, whatever game they play (answered privately).
PersonalHandler = Callable[..., None]  # (tx, row, argument, *, now)


@dataclass(frozen=True)
class PersonalVerb:
    """One of ``me``'s words (``""``: ``me`` alone, shown as ``show`` in menus);
    ``bare``: it takes no argument (with one, it is no setting)."""

    name: str
    menu_name: str
    description: str
    handler: PersonalHandler
    args: tuple[Arg, ...] = ()
    aliases: tuple[str, ...] = ()
    bare: bool = False
    menu: bool = True  # offered in the platforms' menus (``me web`` is typed)


PERSONAL_VERBS: tuple[PersonalVerb, ...] = (
    PersonalVerb(
        "", "show", "Your settings: time zone, quiet hours, away, linked accounts", me.show
    ),
    PersonalVerb(
        "tz",
        "tz",
        "The time zone your private messages are written in",
        me.zone,
        (Arg("zone", ArgKind.TEXT, "Your region's name, e.g. Europe/Paris (start typing)"),),
        aliases=("zone", "timezone"),
    ),
    PersonalVerb(
        "quiet",
        "quiet",
        "Hours in which no reminder reaches you (in your time zone)",
        me.quiet,
        (Arg("hours", ArgKind.TEXT, "e.g. 23:00-08:00, or off"),),
    ),
    PersonalVerb(
        "away",
        "away",
        "You are away from all your games for a while",
        me.away,
        (Arg("for", ArgKind.DURATION, "e.g. 3d or 12h (at most 30d)"),),
    ),
    PersonalVerb("back", "back", "You are back from being away", me.back, bare=True),
    PersonalVerb(
        "link",
        "link",
        "One player on several platforms: a code to send from the other, or that code",
        me.link,
        (Arg("code", ArgKind.TEXT, "The code your other account was shown", required=False),),
    ),
    PersonalVerb(
        "web", "web", "Whether the web page shows your ratings and games", me.web, menu=False
    ),
    PersonalVerb("unlink", "unlink", "This account is its own again", me.unlink, bare=True),
    PersonalVerb("rating", "rating", "Your ratings and record in each game", me.rating, bare=True),
    PersonalVerb(
        "top",
        "top",
        "A game's best ten",
        me.top,
        # (Its choices are the games a platform offers: filled in by its menu.)
        (Arg("kind", ArgKind.CHOICE, "Which game"),),
    ),
)


def run_personal_verb(tx: Tx, row: Cause, rest: str, *, now: float) -> None:
    """Carry out ``me …`` (``rest``: what followed ``me``)."""
    word, argument = command_word(rest)
    for verb in PERSONAL_VERBS:
        if word == verb.name or word in verb.aliases:
            if verb.bare and argument.strip():
                break
            verb.handler(tx, row, argument, now=now)
            return
    raise me.not_a_setting(rest)
