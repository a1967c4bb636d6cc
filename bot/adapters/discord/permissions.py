"""What the bot needs in a channel to run a game there, checked before one opens.

Discord sends the bot's own permissions in the channel with every interaction
(``app_permissions``), so ``/KIND new`` can say exactly what is missing instead of
opening a game whose maps, threads or replies would then fail one by one.
"""

from __future__ import annotations

import discord

# (permission, how Discord's settings name it, why the bot needs it)
NEEDED: tuple[tuple[str, str, str], ...] = (
    ("view_channel", "View Channel", "to see the channel"),
    ("send_messages", "Send Messages", "to post the game's reports"),
    ("send_messages_in_threads", "Send Messages in Threads", "to post in the game's thread"),
    ("create_public_threads", "Create Public Threads", "to give the game a thread"),
    ("attach_files", "Attach Files", "to post maps and the replay"),
    ("embed_links", "Embed Links", "to show the status card"),
    ("read_message_history", "Read Message History", "to read orders sent while away"),
    ("manage_messages", "Manage Messages", "to take down a secret order posted in public"),
)
# Inside a thread the game stays there: no thread of its own is made.
NOT_IN_THREADS = frozenset({"create_public_threads", "send_messages"})


def missing_permissions(have: discord.Permissions, *, in_thread: bool) -> list[tuple[str, str]]:
    """(name in Discord's settings, why) of each permission needed and missing."""
    return [
        (label, why)
        for name, label, why in NEEDED
        if not (in_thread and name in NOT_IN_THREADS) and not getattr(have, name)
    ]


def permissions_refusal(missing: list[tuple[str, str]]) -> str:
    """The refusal, naming each permission as Discord's settings do, and what to do."""
    lines = ["I can't open a game here: I am missing these permissions in this channel:"]
    lines += [f"- **{label}** ({why})" for label, why in missing]
    lines.append(
        "A server admin can grant them to my role, or in the channel's settings "
        "(Edit Channel → Permissions); then try again."
    )
    return "\n".join(lines)
