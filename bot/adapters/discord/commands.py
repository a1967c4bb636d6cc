"""One slash-command group per game (``/sonar …``, ``/uboat …``), built from its declarations.

A game declares its verbs and the options of ``new`` as data (:class:`~bot.games.base.Verb`,
:class:`~bot.games.base.Arg`); every group holds, in this order:

* ``new`` with one option per ``option_arg`` and ``join``;
* the game's own verbs, each argument an option of the right Discord type
  (CELL autocompleted, CHOICE as choices, NUMBER as an integer with its bounds,
  PLAYER as a member, the rest as text);
* the words every game shares: ``board``, ``status``, ``help``, ``rules``, ``leave``.

The host's verbs are a group of their own, ``/host`` (``start``, naming who moves
first in games that take turns; ``pause``, ``resume``, ``extend``, ``kick``, ``end``;
``unbridge`` in a room a game was bridged into),
for the game of the channel or thread it is used in: Discord lets a server limit who
sees a command only for a whole top-level command (``default_member_permissions``),
so ``/host`` is for members who may Manage Server until the server's admins give it
to another role (Server Settings → Integrations). The same verbs are in each game's
group (``/bst host start``), which every member sees: a game's creator runs it from
there, and the host checks who may. ``/games`` lists a player's games, and ``/me`` is a
person's own settings (``/me tz`` autocompletes time zones), in servers and DMs alike.

Each command only builds the text a player could have typed (:mod:`.text`) and
hands it to the adapter with its privacy; the host parses and checks it like any
other message. discord.py reads a command's options from its callback's signature,
so each callback gets a generated ``__signature__`` with one keyword per argument.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Optional

import discord
from discord import app_commands

from bot.adapters.discord.text import (
    Privacy,
    Value,
    cell_suggestions,
    mention,
    new_text,
    verb_text,
    zone_suggestions,
)
from bot.games.base import Arg, ArgKind, Game, Verb
from bot.host.commands import verbs
from bot.host.commands.new_options import new_args

# (interaction, privacy, typed text) → awaitable: what every command calls.
CommandHandler = Callable[[discord.Interaction[Any], Privacy, str], Awaitable[None]]

# An autocompletion: (interaction, what is typed so far) → the choices to offer.
Completion = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]

MAX_SUBCOMMANDS = 25  # Discord's limit per group
MAX_CHOICES = 25  # and per option


@dataclass(frozen=True)
class Subcommand:
    """One command of a game's group: its verb (name, description, arguments), who sees
    it, and how its values become typed text."""

    verb: Verb
    privacy: Privacy
    text: Callable[[Mapping[str, Value]], str]


def _typed(tag: str, verb: Verb, privacy: Privacy = Privacy.PUBLIC) -> Subcommand:
    """A command whose text is its verb's, behind the game's tag."""
    return Subcommand(verb, privacy, lambda values: verb_text(tag, verb, values))


def subcommands(game: Game[Any, Any]) -> list[Subcommand]:
    """Every command of ``game``'s group, in the order Discord lists them."""
    tag = game.tag
    options = new_args(game)
    new = Verb("new", "Host a new game in this channel", private=False, args=options)
    found = [
        Subcommand(new, Privacy.PUBLIC, lambda values: new_text(tag, options, values)),
        _typed(tag, Verb("join", "Join the game in this channel", private=False)),
    ]
    for verb in game.verbs:
        found.append(_typed(tag, verb, Privacy.PRIVATE if verb.private else Privacy.PUBLIC))
    found += [
        _typed(
            tag,
            Verb("board", "See your private board again (private)", private=True),
            Privacy.PRIVATE,
        ),
        _typed(
            tag,
            Verb(
                "status",
                f"Phase, turn, deadline and the {game.words.player_word(2)} still playing",
                private=False,
            ),
        ),
        _typed(tag, Verb("help", f"How to play {game.title}", private=False), Privacy.QUIET),
        _typed(tag, Verb("rules", "The rules in short", private=False), Privacy.QUIET),
    ]
    if game.players_may_leave:
        found.append(_typed(tag, Verb("leave", "Leave the game", private=False)))
    if game.simultaneous:
        # Orders stand until the deadline: one may be taken back.
        found.append(
            _typed(
                tag,
                Verb("withdraw", "Take back your order of this turn (private)", private=True),
                Privacy.PRIVATE,
            )
        )
    return found


def host_subcommands(tag: str = "") -> list[Subcommand]:
    """The host's verbs, typed ``host WORD`` (the host's word even where a game has an
    order of that name), for the game of the channel they are used in; behind ``tag``
    in a game's own group. Read from the host's table (bot.host.commands.verbs)."""
    return [
        _typed(
            tag,
            Verb(
                declared.name,
                declared.description,
                private=False,
                args=declared.args,
                words=f"host {declared.name}",
            ),
        )
        for declared in verbs.in_menus()
    ]


def me_subcommands(kinds: Sequence[str]) -> list[Subcommand]:
    """A person's own settings (the host's ``me …``, read from its table in bot.host.commands.verbs),
    the same in every game; each is private (a DM inbound, answered to them alone).
    ``kinds``: the games a CHOICE of game offers."""
    found = []
    for declared in verbs.PERSONAL_VERBS:
        if not declared.menu:
            continue
        args = tuple(
            replace(arg, choices=tuple(kinds))
            if arg.kind is ArgKind.CHOICE and not arg.choices
            else arg
            for arg in declared.args
        )
        words = f"me {declared.name}".strip()
        verb = Verb(declared.menu_name, declared.description, private=True, args=args, words=words)
        found.append(_typed("", verb, Privacy.PRIVATE))
    return found


async def _zone_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=zone, value=zone) for zone in zone_suggestions(current)]


def me_group(handler: CommandHandler, kinds: Sequence[str]) -> app_commands.Group:
    """``/me …``: a person's own settings, in servers and in a DM with the bot."""
    group = app_commands.Group(
        name="me",
        description="Your own settings, for every game (answered to you alone)",
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )
    for sub in me_subcommands(kinds):
        completions: dict[str, Completion] = (
            {"zone": _zone_autocomplete} if sub.verb.name == "tz" else {}
        )
        group.add_command(_command(sub, handler, completions))
    return group


def host_group(handler: CommandHandler) -> app_commands.Group:
    """``/host …``: shown to members who may Manage Server (until the server says otherwise);
    the host still checks who hosts each game."""
    group = app_commands.Group(
        name="host",
        description="Run the game of this channel or thread (its host only)",
        default_permissions=discord.Permissions(manage_guild=True),
        # In servers only: a DM has no game's channel to run.
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )
    for sub in host_subcommands():
        group.add_command(_command(sub, handler))
    return group


def games_command(handler: CommandHandler) -> app_commands.Command[Any, ..., None]:
    """``/games``: the games you are in, each one's deadline and whether your order is in."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await handler(interaction, Privacy.PRIVATE, "games")

    return app_commands.Command(
        name="games",
        description="Your games: each one's deadline and whether your order is in",
        callback=callback,
    )


def _option_type(arg: Arg) -> Any:
    """The annotation discord.py turns into the option's type, choices and bounds."""
    if arg.kind is ArgKind.CHOICE:
        if not arg.choices:
            raise ValueError(f"argument {arg.name!r} is a CHOICE without choices")
        if len(arg.choices) > MAX_CHOICES:
            raise ValueError(
                f"argument {arg.name!r} has {len(arg.choices)} choices; Discord takes "
                f"at most {MAX_CHOICES}"
            )
        return Literal[arg.choices]  # Literal[("a", "b")] is Literal["a", "b"]
    if arg.kind is ArgKind.NUMBER:
        if arg.minimum is None and arg.maximum is None:
            return int
        return app_commands.Range[int, arg.minimum, arg.maximum]
    if arg.kind is ArgKind.PLAYER:
        return discord.Member | discord.User
    return str  # TEXT, CELL, CELLS, DURATION: typed as players type them


def _plain(value: Any) -> Value:
    """A delivered value as text material: a member becomes their mention."""
    if isinstance(value, discord.abc.User):
        return mention(value.id)
    if value is None or isinstance(value, int | str):
        return value
    return str(value)


async def _cell_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=cell, value=cell) for cell in cell_suggestions(current)]


async def _cells_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Several cells (``f11, a9``): the cells typed so far stay, the last one is completed."""
    done, comma, last = current.rpartition(",")
    head = f"{done}{comma} " if comma else ""
    return [
        app_commands.Choice(name=f"{head}{cell}"[:100], value=f"{head}{cell}"[:100])
        for cell in cell_suggestions(last.strip())
    ]


def _parameter(name: str) -> str:
    """A Python name for an option (``from`` is a keyword): Discord still shows ``name``."""
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"{name}_"


def _command(
    sub: Subcommand,
    handler: CommandHandler,
    completions: Mapping[str, Completion] | None = None,
) -> app_commands.Command[Any, ..., None]:
    """``completions``: an autocompletion for an argument, by its name (cells have theirs)."""
    verb = sub.verb
    names = {_parameter(arg.name): arg.name for arg in verb.args}

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        typed = {names.get(name, name): _plain(value) for name, value in values.items()}
        await handler(interaction, sub.privacy, sub.text(typed))

    parameters = [
        inspect.Parameter(
            "interaction",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=discord.Interaction,
        )
    ]
    for arg in verb.args:
        annotation = _option_type(arg)
        parameters.append(
            inspect.Parameter(
                _parameter(arg.name),
                inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation if arg.required else Optional[annotation],  # noqa: UP045
                default=inspect.Parameter.empty if arg.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__qualname__ = callback.__name__ = f"{verb.name}_command"
    if verb.args:
        callback = app_commands.describe(
            **{_parameter(arg.name): arg.description for arg in verb.args}
        )(callback)
    renamed = {param: name for param, name in names.items() if param != name}
    if renamed:
        callback = app_commands.rename(**renamed)(callback)
    completions = completions or {}
    by_kind: dict[ArgKind, Completion] = {
        ArgKind.CELL: _cell_autocomplete,
        ArgKind.CELLS: _cells_autocomplete,
    }
    completed = {
        _parameter(arg.name): completions.get(arg.name) or by_kind[arg.kind]
        for arg in verb.args
        if arg.name in completions or arg.kind in by_kind
    }
    if completed:
        callback = app_commands.autocomplete(**completed)(callback)
    return app_commands.Command(name=verb.name, description=verb.description, callback=callback)


def game_group(game: Game[Any, Any], handler: CommandHandler) -> app_commands.Group:
    """``/NAME …``: the game's commands (see the module's docstring)."""
    found = subcommands(game)
    names = [sub.verb.name for sub in found]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(
            f"{game.name}: verbs {repeated} repeat a word every game shares; name them otherwise"
        )
    if len(found) > MAX_SUBCOMMANDS:
        raise ValueError(
            f"{game.name}: {len(found)} commands; Discord takes at most {MAX_SUBCOMMANDS} per group"
        )
    group = app_commands.Group(name=game.name, description=f"{game.title} ({game.tag})")
    for sub in found:
        group.add_command(_command(sub, handler))
    if "host" not in names and len(found) < MAX_SUBCOMMANDS:
        # ``/NAME host start|pause|…``: the host's verbs where every member sees them, so a
        # game's creator who may not Manage Server can run it (the top-level ``/host`` is
        # hidden from them). The host checks who hosts the game, as for ``/host``.
        hosting = app_commands.Group(
            name="host", description="Run this game (its creator or an admin)", parent=group
        )
        for sub in host_subcommands(game.tag):
            hosting.add_command(_command(sub, handler))
    return group


def build_command_tree(
    client: discord.Client, games: Sequence[Game[Any, Any]], handler: CommandHandler
) -> app_commands.CommandTree[Any]:
    """The real command tree, one group per game: shared by the bot and ``bst discord sync``."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    for game in games:
        tree.add_command(game_group(game, handler))
    if games:
        tree.add_command(host_group(handler))
        tree.add_command(games_command(handler))
        tree.add_command(me_group(handler, [game.name for game in games]))
    return tree
