"""``bst discord sync``: register the slash commands with Discord, on demand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.adapters.discord.client import log_in, make_client, use_api_base
from bot.adapters.discord.commands import build_command_tree
from bot.adapters.discord.section import DiscordConfig
from bot.adapters.discord.sending import delivery_error
from bot.adapters.discord.text import Privacy
from bot.games.base import Game


async def sync_commands(
    token: str,
    application_id: int,
    guild_id: int | None,
    *,
    games: Sequence[Game[Any, Any]],
    http: str | None = None,
) -> list[str]:
    """Register every game's group (``/sonar``, ``/uboat``…) with Discord
    (``bst discord sync [--guild ID]``).

    On demand, never at every start: Discord rate-limits command updates, and
    global commands take up to an hour to appear. ``--guild`` copies them to
    one server, where they appear at once (for testing). Returns the names
    Discord confirmed.
    """
    use_api_base(http)
    client = make_client(DiscordConfig(), application_id=application_id)

    async def ignore(interaction: discord.Interaction[Any], privacy: Privacy, text: str) -> None:
        return None

    tree = build_command_tree(client, games, ignore)
    try:
        try:
            await log_in(client, token)
            guild = discord.Object(id=guild_id) if guild_id else None
            if guild is not None:
                tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
            # (A network failure reads "network error talking to Discord: …".)
            raise delivery_error(error) from error
        return [command.name for command in synced]
    finally:
        await client.close()


SYNC_ADVICE = (
    "run `bst discord sync` (global commands: may take up to an hour to appear) or "
    "`bst discord sync --guild ID` (one server, at once)"
)


def _shape(command: Mapping[str, Any]) -> Any:
    """What decides whether Discord's copy of a command still calls this version: its
    name, type, and options (names, types, whether required, choices), nested."""
    return (
        command.get("name"),
        int(command.get("type") or 1),
        tuple(
            (
                option.get("name"),
                int(option.get("type") or 0),
                bool(option.get("required", False)),
                tuple(str(choice.get("value")) for choice in option.get("choices") or ()),
                _shape_options(option),
            )
            for option in command.get("options") or ()
        ),
    )


def _shape_options(option: Mapping[str, Any]) -> Any:
    return _shape({"name": "", "type": 1, "options": option.get("options") or ()})[2]


def command_differences(
    declared: Sequence[Mapping[str, Any]], registered: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Each way Discord's registered commands differ from the declared ones, in words
    (``/bst changed``, ``/tug missing``, ``/old no longer exists``); empty when in sync."""
    theirs = {str(c.get("name")): c for c in registered}
    ours = {str(c.get("name")): c for c in declared}
    found = [f"/{name} missing" for name in ours if name not in theirs]
    found += [
        f"/{name} changed"
        for name, command in ours.items()
        if name in theirs and _shape(command) != _shape(theirs[name])
    ]
    found += [f"/{name} no longer exists" for name in theirs if name not in ours]
    return found


async def check_registered(
    client: discord.Client, tree: app_commands.CommandTree[Any]
) -> list[str]:
    """Compare the global commands Discord holds with the tree's; return the differences
    (see :func:`command_differences`)."""
    application_id = client.application_id
    if application_id is None:
        return []
    registered = await client.http.get_global_commands(application_id)
    declared = [command.to_dict(tree) for command in tree.get_commands()]
    return command_differences(declared, list(registered))
