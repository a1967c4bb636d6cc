"""The host's own verbs, declared: each one's words, who may use it, where, its arguments
and its handler.

The games declare their verbs as data (``Game.verbs``); so does the host, here. The
dispatch (:mod:`bot.host.commands.inbox`: :func:`find`, :func:`is_heard`, :func:`run_game_verb`,
:func:`run_room_verb`) reads this table, and so do the help (:func:`help_lines`) and every
platform's menu (Discord's ``/host`` group is built from :data:`HOST_VERBS`), so a new verb
of the host is one entry here and its handler: no platform copies the list.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from bot.games.base import Arg, ArgKind, GamePhase
from bot.games.catalog import get_game
from bot.host.commands import admin, bridges, lobby, me, substitutes
from bot.host.commands.context import CommandContext
from bot.host.commands.routing import (
    Refusal,
    addresses_the_host,
    command_word,
    find_game,
    game_here,
    game_to_join,
    game_to_show_board,
)
from bot.host.commands.verb_call import VerbCall
from bot.host.outbox.posts import Cause
from bot.host.play import orders
from bot.store import Tx, records


class Who(enum.Enum):
    """Who may use a verb (the handler checks it again where it is finer)."""

    ANYONE = "anyone"
    PLAYER = "player"  # a player of the game
    HOST = "host"  # the game's host: its creator, an admin of the bot or of its channel


class Where(enum.Enum):
    """Where a verb is sent: the dispatch refuses it elsewhere, saying where to send it
    (``HostVerb.elsewhere``), once it is heard as the host's verb (see :class:`Heard`)."""

    PUBLIC = "public"  # in the game's channel (or a room it was bridged into)
    PRIVATE = "private"  # in a DM with the bot
    EITHER = "either"


class Heard(enum.Enum):
    """When a verb answered before any game is found (``on_room``) is heard as the host's:
    elsewhere its word is not the host's, and the message goes on to its game (an order of
    that name, or people's talk in the game's channel, which the host leaves alone)."""

    ALWAYS = "always"
    PRIVATELY = "privately"  # by DM only: a seat's answer is nobody else's business
    ADDRESSED = "addressed"  # privately, or in public with a game's tag or a mention
    ADDRESSED_OR_OFFERED = "addressed, or where a game's offer waits for the room's answer"
    ADDRESSED_OR_AFTER_HOST = "addressed, or after `host`"
    ADDRESSED_OR_ALONE = "addressed, or with nothing after it"
    WHERE_NO_GAME = "where the message finds no game"


@dataclass(frozen=True)
class Hearing:
    """Where and how a verb's word was sent, as :func:`is_heard` weighs it."""

    tx: Tx
    row: Cause
    rest: str
    after_host: bool  # it followed `host` (`host unbridge`)


# A verb on the game of the place it was sent from, with the game loaded and locked.
GameHandler = Callable[[VerbCall], None]
# A verb answered before any game is found (the place itself names what it acts on):
# returns the number of the game it acted on, if any.
RoomHandler = Callable[[CommandContext, Tx, Cause, str], "int | None"]
# How a verb on a game finds it from the message (and what followed the verb).
GameFinder = Callable[[Tx, Cause, str], records.Game]


@dataclass(frozen=True)
class HostVerb:
    """One verb of the host. ``on_game`` or ``on_room`` is its handler (exactly one, but
    for a verb that answers where no game is too: ``help``, heard
    :attr:`Heard.WHERE_NO_GAME`); ``menu``: shown in the platforms' menus (``add robot``
    is typed, not picked)."""

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
    # When an ``on_room`` verb is the host's (elsewhere the message goes on to its game).
    heard: Heard = Heard.ALWAYS
    # How an ``on_game`` verb finds its game: the one of the place, by default.
    finds: GameFinder = game_here
    # Also heard after `host` (`host new`), as the host's verbs on a game are.
    after_host: bool = False
    # Sent after a turn's deadline, it waits for the next turn, as an order does.
    held_past_deadline: bool = False
    # Taken as an order is (``withdraw``): held past a deadline, refused when it reached
    # the host after its turn resolved, and talk when a bystander says it.
    like_an_order: bool = False
    # The refusal where it is sent in the wrong place ({tag}: the game's); "": the usual.
    elsewhere: str = ""

    def __post_init__(self) -> None:
        both = self.on_game is not None and self.on_room is not None
        if (self.on_game is None and self.on_room is None) or (
            both and self.heard is not Heard.WHERE_NO_GAME
        ):
            raise ValueError(f"verb {self.name!r}: give exactly one of on_game and on_room")

    @property
    def hosts_a_game(self) -> bool:
        """The host's verb on a game (it needs no tag in the game's channel, and may
        follow `host` where the game has an order of its name)."""
        return self.on_game is not None and self.who is Who.HOST

    @property
    def asks_the_game(self) -> bool:
        """A verb on a game that is no order: never talk, answered whenever it comes."""
        return self.on_game is not None and not self.like_an_order

    @property
    def answered_any_time(self) -> bool:
        """Answered even after a turn's deadline has passed (it is no order)."""
        return self.asks_the_game and not self.held_past_deadline

    def usage(self) -> str:
        """``name ARG [OPTIONAL]``, as the help shows it."""
        shown = [arg.name.upper() if arg.required else f"[{arg.name.upper()}]" for arg in self.args]
        return " ".join([self.name, *shown])


def _unbridge(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    return bridges.unbridge(commands, tx, row).id


def _new(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    return lobby.new(commands, tx, row, rest).id


def _bridge(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    bridged = bridges.bridge(commands, tx, row, rest)
    return None if bridged is None else bridged.id


def _seat(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    return substitutes.answer(commands, tx, row, rest)


def _games(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    lobby.my_games(commands, tx, row)
    return None


def _me(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    # A person's own settings, whatever game they play (always answered privately).
    run_personal_verb(tx, row, rest, now=commands.clock.now())
    return None


def _help(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    private = commands.limits.private_answers
    lobby.outside_help(tx, row, help_lines(), rules=False, private=private)
    return None


def _rules(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int | None:
    private = commands.limits.private_answers
    lobby.outside_help(tx, row, help_lines(), rules=True, private=private)
    return None


def _withdraw(call: VerbCall) -> None:
    orders.withdraw(call.tx, call.row, call.game_row)


HOST_VERBS: tuple[HostVerb, ...] = (
    HostVerb(
        "start",
        Who.HOST,
        Where.EITHER,
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
        Where.EITHER,
        "Freeze the clock",
        on_game=admin.pause,
        not_when_finished=True,
    ),
    HostVerb(
        "resume",
        Who.HOST,
        Where.EITHER,
        "Let the clock run again",
        on_game=admin.resume,
        not_when_finished=True,
    ),
    HostVerb(
        "extend",
        Who.HOST,
        Where.EITHER,
        "Lengthen the current turn",
        (Arg("duration", ArgKind.DURATION, "e.g. 2h, 30m, 1h30m"),),
        on_game=admin.extend,
        not_when_finished=True,
    ),
    HostVerb(
        "kick",
        Who.HOST,
        Where.EITHER,
        "Remove a player from the game",
        (Arg("member", ArgKind.PLAYER, "Who to remove"),),
        on_game=admin.kick,
        not_when_finished=True,
    ),
    HostVerb(
        "replace",
        Who.HOST,
        Where.EITHER,
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
        Where.EITHER,
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
        heard=Heard.ADDRESSED_OR_AFTER_HOST,
        elsewhere=bridges.UNDONE_IN_A_ROOM,
    ),
    HostVerb(
        "options",
        Who.HOST,
        Where.EITHER,
        "Change the game's options in setup",
        (Arg("options", ArgKind.TEXT, "key=value …"),),
        on_game=admin.change_options,
        menu=False,
    ),
    HostVerb(
        "add",
        Who.HOST,
        Where.EITHER,
        "Seat a robot in setup",
        (Arg("robot", ArgKind.TEXT, "robot [LEVEL]"),),
        on_game=admin.add_robot,
        menu=False,
    ),
    HostVerb(
        "remove",
        Who.HOST,
        Where.EITHER,
        "Take a robot's seat back in setup",
        (Arg("robot", ArgKind.TEXT, "robot NAME"),),
        on_game=admin.remove_robot,
        menu=False,
    ),
)

# What any player may ask of a game, whatever the game (and ``join``, anyone).
PLAYER_VERBS: tuple[HostVerb, ...] = (
    HostVerb(
        "join",
        Who.ANYONE,
        Where.EITHER,
        "Join the game",
        on_game=lobby.join_verb,
        finds=game_to_join,
        held_past_deadline=True,
    ),
    HostVerb(
        "leave",
        Who.PLAYER,
        Where.EITHER,
        "Leave the game",
        on_game=lobby.leave_verb,
        held_past_deadline=True,
    ),
    HostVerb(
        "board",
        Who.PLAYER,
        Where.EITHER,
        "See your private board again",
        on_game=lobby.board_verb,
        finds=game_to_show_board,
    ),
    HostVerb(
        "status",
        Who.ANYONE,
        Where.EITHER,
        "Phase, turn, deadline and who still plays",
        on_game=lobby.status_verb,
    ),
    HostVerb(
        "help",
        Who.ANYONE,
        Where.EITHER,
        "How to play",
        on_game=lobby.help_verb,
        on_room=_help,
        heard=Heard.WHERE_NO_GAME,
    ),
    HostVerb(
        "rules",
        Who.ANYONE,
        Where.EITHER,
        "The rules in short",
        on_game=lobby.rules_verb,
        on_room=_rules,
        heard=Heard.WHERE_NO_GAME,
    ),
    HostVerb(
        "link",
        Who.PLAYER,
        Where.EITHER,
        "Your own page of the game, or a linking code",
        on_game=lobby.link_verb,
    ),
    HostVerb(
        "withdraw",
        Who.PLAYER,
        Where.EITHER,
        "Take back your order of this turn",
        on_game=_withdraw,
        like_an_order=True,
    ),
)

# The verbs answered before any game is found: the message names what they act on (a
# game to open, a game to bridge, a seat offered), or they act on none.
PLACE_VERBS: tuple[HostVerb, ...] = (
    HostVerb(
        "new",
        Who.ANYONE,
        Where.PUBLIC,
        "Open a game here, which you then host",
        (
            Arg("kind", ArgKind.TEXT, "Which game", required=False),
            Arg("options", ArgKind.TEXT, "key=value …", required=False),
        ),
        on_room=_new,
        after_host=True,
        elsewhere=lobby.OPENED_IN_PUBLIC,
    ),
    HostVerb(
        "games",
        Who.ANYONE,
        Where.EITHER,
        "Your games, their clocks and whether your order is in",
        on_room=_games,
        heard=Heard.ADDRESSED_OR_ALONE,
    ),
    HostVerb(
        "me",
        Who.ANYONE,
        Where.EITHER,
        "Your own settings, in every game (answered privately)",
        (
            Arg(
                "setting",
                ArgKind.TEXT,
                "tz, quiet, away, back, link, rating, top …",
                required=False,
            ),
        ),
        on_room=_me,
        heard=Heard.ADDRESSED,
    ),
    HostVerb(
        bridges.VERB,
        Who.HOST,
        Where.PUBLIC,
        "Play a game from this room too",
        (Arg("game", ArgKind.TEXT, "The game's number, or yes / no to an offer"),),
        on_room=_bridge,
        heard=Heard.ADDRESSED_OR_OFFERED,
        elsewhere=bridges.SENT_IN_A_ROOM,
    ),
    HostVerb(
        substitutes.VERB,
        Who.ANYONE,
        Where.PRIVATE,
        "Answer a seat a game's host offered you, or asked you to hand on",
        (Arg("answer", ArgKind.TEXT, "yes or no, and the game's number: seat yes 12"),),
        on_room=_seat,
        heard=Heard.PRIVATELY,
    ),
)

HOST_PREFIX = "host"  # `host end`: the host's verb, where the game has an order of that name


def _tables() -> tuple[HostVerb, ...]:
    # Read when asked (not once at import), so that a verb added to a table is dispatched.
    return (*HOST_VERBS, *PLAYER_VERBS, *PLACE_VERBS)


def in_menus() -> tuple[HostVerb, ...]:
    """The host's verbs a platform's menu offers, in the order they are listed (the
    players' are in each game's own menu, with the game's verbs)."""
    return tuple(verb for verb in HOST_VERBS if verb.menu)


# The tables' verbs by name (the first of a name wins, as in the tables' order), with the
# tables they were read from: every message looks its first word up, and scanning the
# tables for it was a tenth of an order's time (issue 45). A table rebound is read again.
_by_name: dict[str, HostVerb] = {}
_indexed: tuple[object, object, object] = (object(), object(), object())


def find(word: str) -> HostVerb | None:
    """The host's verb of that word, if it is one."""
    global _by_name, _indexed
    host, player, place = _indexed
    if host is not HOST_VERBS or player is not PLAYER_VERBS or place is not PLACE_VERBS:
        by_name: dict[str, HostVerb] = {}
        for verb in _tables():
            by_name.setdefault(verb.name, verb)
        _by_name, _indexed = by_name, (HOST_VERBS, PLAYER_VERBS, PLACE_VERBS)
    return _by_name.get(word)


def after_host_prefix(word: str, rest: str) -> tuple[str, str] | None:
    """``host VERB …`` for a verb that may follow `host` (the host's verbs): the verb's
    word and what followed it; None for anything else."""
    if word != HOST_PREFIX:
        return None
    named = find(command_word(rest)[0])
    if named is None or not (named.who is Who.HOST or named.after_host):
        return None
    return command_word(rest)


def is_heard(verb: HostVerb, hearing: Hearing) -> bool:
    """Whether an ``on_room`` verb's word, sent as ``hearing`` says, is the host's verb."""
    row = hearing.row
    private = row.kind != "public"
    if verb.heard is Heard.ALWAYS:
        return True
    if verb.heard is Heard.PRIVATELY:
        return private
    if verb.heard is Heard.WHERE_NO_GAME:
        return find_game(hearing.tx, row, required=False) is None
    if private or addresses_the_host(row.text):
        return True
    if verb.heard is Heard.ADDRESSED_OR_OFFERED:
        return bridges.offered_here(hearing.tx, row)
    if verb.heard is Heard.ADDRESSED_OR_AFTER_HOST:
        return hearing.after_host
    if verb.heard is Heard.ADDRESSED_OR_ALONE:
        return not hearing.rest
    return False


def refuse_elsewhere(verb: HostVerb, row: Cause, tag: str) -> None:
    """Refuse a verb sent where it is not sent (``tag``: the game's, for the example)."""
    public = row.kind == "public"
    if verb.where is Where.EITHER or (verb.where is Where.PUBLIC) == public:
        return
    if verb.elsewhere:
        raise Refusal(verb.elsewhere.format(tag=tag))
    if verb.where is Where.PUBLIC:
        raise Refusal(f"send `{verb.name}` in the game's channel, such as `{tag} {verb.usage()}`")
    raise Refusal(f"send `{verb.name}` to me privately, by DM, such as `{verb.usage()}`")


def run_game_verb(
    commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game, verb: HostVerb, rest: str
) -> None:
    """Carry out ``verb`` on the game (locked, unless it is taken as an order is), once who
    asks may."""
    assert verb.on_game is not None
    word = verb.name
    if verb.who is Who.HOST:
        admin.refuse_a_non_host(commands, tx, row, game_row, word)
    game = get_game(game_row.kind)
    state = commands.states.of(game, game_row)
    now = commands.clock.now()
    if verb.not_when_finished and game_row.phase == GamePhase.FINISHED:
        raise Refusal("this game has finished")
    verb.on_game(VerbCall(commands, tx, row, game, game_row, state, now, word, rest))


def run_room_verb(
    commands: CommandContext, tx: Tx, row: Cause, verb: HostVerb, rest: str
) -> int | None:
    """Carry out a verb answered before any game is found; the number of its game."""
    assert verb.on_room is not None
    return verb.on_room(commands, tx, row, rest)


def help_lines() -> list[str]:
    """The host's verbs as the help lists them, from the tables: a verb added to a table
    is in the help."""

    def listed(table: tuple[HostVerb, ...]) -> str:
        return "; ".join(f"`{verb.usage()}`: {verb.description}" for verb in table)

    return [
        f"Anywhere: {listed(PLACE_VERBS)}.",
        f"In a game: {listed(PLAYER_VERBS)}.",
        f"Its host: {listed(HOST_VERBS)}.",
    ]


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
