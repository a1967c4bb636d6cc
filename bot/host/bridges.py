"""One game across platforms: its host plays it from public rooms on several platforms.

``bridge 12``, sent by game 12's host (the account that opened it, or any account linked
to it with ``me link``, or an admin of the bot) in a public room of any platform, makes
that room one of the game's: anyone there may ``join`` it, orders sent there (or by DM
from any platform) count like any other, and the game's public posts — its map, its
reports, what its host says in public — go to every one of its rooms, each a copy of
its own in the outbox (see :func:`bot.host.posts.copies_for_rooms`). Private boards go
to each player on the platform they joined from.

Why not ``link``: that word is the player's own private link to the web page (``link``,
``link revoke``); a room is not a link to anyone, it is a bridge between rooms.
"""

from __future__ import annotations

from bot.games.base import GamePhase
from bot.games.numbers import looks_like_a_number, whole_number
from bot.host import posts
from bot.host.context import CommandContext
from bot.host.posts import Cause
from bot.host.routing import Refusal, player_identity, row_community
from bot.store import GameRow, Tx
from bot.store.models import GameRoomRow
from bot.store.rooms import add_room, room, rooms_of
from bot.store.settings import accounts_of

VERB = "bridge"
EXAMPLE = "`bridge 12` (12: the game's number, as its posts say: `#sonar game 12`)"


def hosts(commands: CommandContext, tx: Tx, row: Cause, game_row: GameRow) -> bool:
    """Whether the sender hosts the game from any of their accounts (or is an admin)."""
    if player_identity(row.platform, row.user_id) in commands.admins:
        return True
    return any(
        player_identity(*account) == game_row.creator
        for account in accounts_of(tx, row.platform, row.user_id)
    )


def bridge(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> GameRow:
    """``bridge GAME`` in a public room: the game is played from this room too."""
    if row.kind != "public" or not row.channel:
        raise Refusal(f"send this in the public room the game should be played from: {EXAMPLE}")
    number = rest.strip().removeprefix("#")
    game_id = whole_number(number) if looks_like_a_number(number) else None
    game_row = None if game_id is None else tx.game(game_id)
    if game_row is None or game_row.id is None or game_row.phase == GamePhase.FINISHED:
        raise Refusal(f"say which running game to play from here: {EXAMPLE}")
    if not hosts(commands, tx, row, game_row):
        raise Refusal(
            f"only game {game_row.id}'s host can bring it here: from the account that "
            "opened it, or one linked to it (`me link`)"
        )
    here = (row.platform, row.channel)
    if here in ((game_row.platform, game_row.channel), (game_row.platform, game_row.lobby)):
        raise Refusal(f"game {game_row.id} is played here already")
    playing = tx.peek_game_in(row.platform, row.channel)
    if playing is not None:
        raise Refusal(f"game {playing.id} is played in this room: one game a room")
    taken = room(tx, row.platform, row.channel)
    if taken is not None:
        raise Refusal(
            f"game {game_row.id} is played here already"
            if taken.game_id == game_row.id
            else f"game {taken.game_id} is played from this room: one game a room"
        )
    now = commands.clock.now()
    add_room(
        tx,
        GameRoomRow(
            platform=row.platform,
            channel=row.channel,
            game_id=game_row.id,
            community=row_community(row),
            bridged_at=now,
        ),
    )
    row.game_id = game_row.id
    platforms = sorted({game_row.platform, *(r.platform for r in rooms_of(tx, game_row.id))})
    posts.reply(
        tx,
        game_row.id,
        row,
        f"{posts.title(game_row)} is now played from {len(rooms_of(tx, game_row.id)) + 1} "
        f"rooms (on {', '.join(platforms)}): its map and reports are posted in each; "
        "`join` in any of them to play; orders count wherever they are sent.",
        public=True,
    )
    return game_row
