"""Which game a message is about, and whether it is a host word or an order.

A public message names its game by the channel it is posted in; its tag
(``#sonar``, ``#uboat``, any registered game's) and the @mentions in front of it
address the host and are stripped, so ``#sonar f11``, ``@bot #SONAR f11`` and
``f11`` posted in a Sonar game's channel are the same order. A DM names its game
by the one game its sender plays on that platform (or the channel the platform
gives it). The words the host answers itself come first; everything else goes to
the game's parser.
"""

from __future__ import annotations

import re
import unicodedata

from bot.games.base import GamePhase
from bot.games.catalog import example_game, game_of_tag, tag_pattern
from bot.games.numbers import looks_like_a_number, whole_number
from bot.host.outbox.posts import Cause
from bot.store import Tx, records
from bot.store.rooms import room

# Changes to the game that only its host may make.
HOST_WORDS = frozenset(
    {
        "new",
        "start",
        "options",
        "pause",
        "resume",
        "extend",
        "kick",
        "replace",
        "end",
        "add",
        "remove",
    }
)
# What any player may ask of a game, whatever the game.
PLAYER_WORDS = frozenset({"join", "leave", "board", "status", "help", "rules", "link"})

# Only the mentions in front of a command address the bot (an X reply starts
# with them); a mention after the command word is an argument (`kick @carol`).
_LEADING_MENTIONS = re.compile(r"^(\s*@[A-Za-z0-9_]+)+")
_TAG_WORD = re.compile(r"(?:^|\s)(#[A-Za-z0-9_]+)\b")


class Refusal(Exception):
    """A command refused for a reason the sender is told; nothing changes."""


class NoGameHere(Refusal):
    """A public message where no game is running: what a platform whose every answer is
    paid (X) leaves unanswered, as it does any public message that is no command."""


def readable(text: str) -> str:
    """Fullwidth and other compatibility forms read as plain ones (NFKC: ``＃ｓｏｎａｒ　Ｅ５``
    is ``#sonar E5``), as a phone keyboard in another language may type them; a name
    copied from a post (``kick @\u200dalice``: the adapters defuse the ``@`` of names,
    see bot/adapters/mentions.py) reads as typed."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", text).replace("@\u200d", "@")


def clean_text(text: str) -> str:
    """Drop any game's tag and the leading @mentions: any command may carry them or not."""
    text = readable(text)
    if "#" not in text and "@" not in text:
        return text.strip()
    text = tag_pattern().sub(" ", text).strip()
    text = _LEADING_MENTIONS.sub(" ", text)
    return text.strip()


def addresses_the_host(text: str) -> bool:
    """Whether a public message is for the host: it carries a registered game's tag, or
    starts with a mention (of the bot: a platform delivers those it was named in)."""
    text = readable(text)
    stripped = text.lstrip()
    if stripped.startswith("@") or stripped.startswith("<@"):
        return True
    return "#" in text and tag_pattern().search(text) is not None


def tagged_kind(text: str) -> str | None:
    """The registered game whose tag the text carries (``#sonar new`` → ``sonar``)."""
    text = readable(text)
    if "#" not in text:
        return None
    for match in _TAG_WORD.finditer(text):
        game = game_of_tag(match.group(1))
        if game is not None:
            return game.name
    return None


def command_word(text: str) -> tuple[str, str]:
    """(first word lower-cased, the rest) of a cleaned text."""
    parts = text.split(None, 1)
    if not parts:
        return "", ""
    return parts[0].lower(), (parts[1] if len(parts) > 1 else "")


def player_identity(platform: str, user_id: str) -> str:
    return f"{platform}:{user_id}"


def find_game(tx: Tx, row: Cause, *, required: bool) -> records.Game | None:
    """The game a message is about (see Tx.game_in)."""
    if row.channel:
        game = (
            tx.game_in(row.platform, row.channel)
            or bridged_to(tx, row)
            or _moved_from(tx, row, required)
        )
        if game is not None or row.kind == "public":
            if game is None and required:
                ended = tx.latest_game_in(row.platform, row.channel)
                if ended is not None:
                    raise NoGameHere(
                        f"game {ended.id} is over: a host starts a new one with `new {ended.kind}`"
                    )
                raise NoGameHere(no_game_here())
            return game
    games = tx.games_of(row.platform, row.user_id)
    if len(games) == 1:
        return games[0]
    if not required:
        return None
    if not games:
        raise Refusal("you are not in a game: send `join` in a game's channel")
    raise Refusal("you are in several games; send this from the game's channel so I know which")


def game_here(tx: Tx, row: Cause, rest: str) -> records.Game:
    """The game a message is about, by its place (refused if it is about none)."""
    found = find_game(tx, row, required=True)
    assert found is not None
    return found


def game_to_join(tx: Tx, row: Cause, rest: str) -> records.Game:
    """The game `join` is about: by DM where a DM belongs to no channel, the one
    :func:`game_to_join_by_dm` names; elsewhere the game of the place."""
    if row.kind != "public" and not row.channel:
        return game_to_join_by_dm(tx, row, rest)
    return game_here(tx, row, rest)


def game_to_show_board(tx: Tx, row: Cause, rest: str) -> records.Game:
    """The game whose board `board` shows: the game of the place; by DM from someone in
    no game now, the last one they played (its final board); in a channel whose game is
    over, that game, to a player of it (by DM, as every board)."""
    found = find_game(tx, row, required=False)
    if found is None and row.kind != "public":
        if not tx.games_of(row.platform, row.user_id):
            found = tx.last_game_of(row.platform, row.user_id)
    elif found is None and row.channel:
        ended = tx.latest_game_in(row.platform, row.channel)
        if (
            ended is not None
            and ended.phase == GamePhase.FINISHED
            and tx.player(ended.id, row.platform, row.user_id)
        ):
            found = ended
    return found or game_here(tx, row, rest)


def bridged_to(tx: Tx, row: Cause) -> records.Game | None:
    """The game a room on another platform was bridged to (``bridge GAME``), while it runs."""
    bridged = room(tx, row.platform, row.channel)
    if bridged is None:
        return None
    game = tx.game(bridged.game_id)
    return game if game is not None and game.phase != GamePhase.FINISHED else None


def _moved_from(tx: Tx, row: Cause, required: bool) -> records.Game | None:
    """The game a message in a channel is about when the channel's games moved into rooms of
    their own there (threads): the one there is; with several, the sender must say it in
    the game's room (None when not ``required``)."""
    moved = tx.games_opened_in(row.platform, row.channel)
    if len(moved) <= 1 or not required:
        return moved[0] if len(moved) == 1 else None
    games = ", ".join(f"{g.id}<<#{g.channel}>>" for g in moved)
    raise Refusal(
        f"games {games} play here, each in its own thread: send this in the game's thread"
    )


def row_community(row: Cause) -> str:
    """The community a message was posted in ("" for a DM, or where there is none)."""
    return getattr(row, "community", "") or ""


def reachable(game_row: records.Game, row: Cause) -> bool:
    """Whether the sender of a DM may join ``game_row`` from there: a game opened where
    the platform has no communities, or opened to all by its host, is; one opened in a
    community (a Discord server) is for that community's members, as far as the
    adapter knows them (not knowing is not being one)."""
    if not game_row.community or game_row.open_to_all:
        return True
    return game_row.community in (getattr(row, "communities", None) or ())


def game_to_join_by_dm(tx: Tx, row: Cause, rest: str) -> records.Game:
    """`join` by DM where a DM belongs to no channel (Discord): the game named by its
    number (`join 12`), else the one game open for joining there — among the games the
    sender can reach (see :func:`reachable`): nobody fills another server's tables."""
    number = rest.strip().removeprefix("#")
    if looks_like_a_number(number):
        game_id = whole_number(number)
        named = None if game_id is None else tx.game(game_id)
        if (
            named is None
            or named.platform != row.platform
            or named.phase == GamePhase.FINISHED
            or not reachable(named, row)
        ):
            # (The same words whether it does not exist or is another server's.)
            shown = number if len(number) <= 20 else number[:20] + "…"
            raise Refusal(
                f"there is no game {shown} you can join from here: send `join` with the "
                "number of an open game, such as `join 12`, or `join` alone to see them; "
                "join a server's game in its channel there"
            )
        return named
    if tx.games_of(row.platform, row.user_id):
        found = find_game(tx, row, required=True)  # already in one ("already in")
        assert found is not None
        return found
    open_games = [g for g in tx.games_in_setup(row.platform) if reachable(g, row)]
    if len(open_games) == 1:
        return open_games[0]
    if not open_games:
        raise Refusal(
            "no game is open for joining right now: a host starts one with `new` in a "
            "channel, and you send `join` there"
        )
    numbers = ", ".join(str(g.id) for g in open_games[:5])
    raise Refusal(
        f"several games are open for joining ({numbers}{'…' if len(open_games) > 5 else ''}): "
        f"send `join` in the game's channel, or here `join {open_games[0].id}` with its number"
    )


def no_game_here() -> str:
    """The answer in a channel without a game; its example names a game this host plays."""
    example = example_game()
    for_example = f" (for example `{example.tag} new`)" if example else ""
    return (
        "there is no game in this channel: a host starts one with "
        f"`new KIND`{for_example}; `help` lists the games"
    )
