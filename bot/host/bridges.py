"""One game across platforms: its host plays it from public rooms on several platforms.

``bridge 12``, sent by game 12's host (the account that opened it, or any account linked
to it with ``me link``, or an admin of the bot) in a public room of any platform, offers
that room the game; once the room accepts, it is one of the game's rooms: anyone there
may ``join`` it, orders sent there (or by DM from any platform) count like any other,
and the game's public posts — its map, its reports, what its host says in public — go to
every one of its rooms, each a copy of its own in the outbox (see
:func:`bot.host.posts.copies_for_rooms`). Private boards go to each player on the
platform they joined from.

A room is not the host's to fill (issue 39): the room accepts the bridge, either because
its host is one of the room's admins, or because the ``bridge`` message starts the room
itself (a thread that begins with the post that names the bot, where a platform's rooms
are threads), or later by ``bridge yes`` sent there by an admin of the room
(``bridge no`` declines). A game has at most :data:`MOST_ROOMS` rooms besides its own
(offers waiting included), and ``unbridge``, sent in a bridged room by the game's host or
one of the room's admins, takes that room out again (or withdraws an offer waiting there). A bridged room's admins have no
say over the game itself (see :func:`bot.host.admin.is_host`).

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
from bot.store import Tx, records
from bot.store.changes import NewOffer
from bot.store.rooms import add_room, remove_room, room, rooms_of
from bot.store.seats import add_offer, drop_offer, game_offers, room_offers
from bot.store.settings import accounts_of

VERB = "bridge"
UNDO = "unbridge"
YES, NO = "yes", "no"
# Rooms a game is played from besides its own (made or offered): each gets every public
# post of the game, so one host cannot spread a game over any number of rooms.
MOST_ROOMS = 3
EXAMPLE = "`bridge 12` (12: the game's number, as its posts say: `game 12`)"
# Where each is sent, as the refusal elsewhere says (the dispatch's, see bot.host.verbs).
SENT_IN_A_ROOM = f"send this in the public room the game should be played from: {EXAMPLE}"
UNDONE_IN_A_ROOM = f"send `{UNDO}` in a room a game was bridged into (with {EXAMPLE})"


def hosts(commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game) -> bool:
    """Whether the sender hosts the game from any of their accounts (or is an admin)."""
    if player_identity(row.platform, row.user_id) in commands.admins:
        return True
    return any(
        player_identity(*account) == game_row.creator
        for account in accounts_of(tx, row.platform, row.user_id)
    )


def bridge(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> records.Game | None:
    """``bridge GAME`` in a public room: the room is offered the game (made at once where
    the room accepts it already); ``bridge yes`` / ``bridge no`` there: a room's admin
    answers the offer. The game, where there is one."""
    if row.kind != "public" or not row.channel:
        raise Refusal(SENT_IN_A_ROOM)
    answer = rest.strip().lower()
    if answer in (YES, NO):
        return _answer(commands, tx, row, answer)
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
    _refuse_a_taken_room(tx, row, game_row)
    now = commands.clock.now()
    offer = add_offer(
        tx,
        NewOffer(
            game_id=game_row.id,
            kind=VERB,
            platform=row.platform,
            channel=row.channel,
            community=row_community(row),
            user_id=row.user_id,
            name=row.user_name,
            created_at=now,
        ),
    )
    if row.is_channel_admin or row.channel == row.message_id:
        # The host runs this room, or the room is a thread this very post starts.
        return _make(commands, tx, row, game_row, offer)
    row.game_id = game_row.id
    posts.reply(
        tx, game_row.id, row,
        f"{posts.title(game_row)} is offered to this room: it is played from here once an "
        f"admin of this room says `{VERB} {YES}` here (`{VERB} {NO}` declines).",
        public=True, every_room=False,
    )  # fmt: skip
    return game_row


def _refuse_a_taken_room(tx: Tx, row: Cause, game_row: records.Game) -> None:
    """A room plays one game, and a game is played from at most MOST_ROOMS rooms."""
    here = (row.platform, row.channel)
    if here in ((game_row.platform, game_row.channel), (game_row.platform, game_row.lobby)):
        raise Refusal(f"game {game_row.id} is played here already")
    playing = tx.game_in(row.platform, row.channel)
    if playing is not None:
        raise Refusal(f"game {playing.id} is played in this room: one game a room")
    taken = room(tx, row.platform, row.channel)
    if taken is not None:
        raise Refusal(
            f"game {game_row.id} is played here already"
            if taken.game_id == game_row.id
            else f"game {taken.game_id} is played from this room: one game a room"
        )
    offered = [o for o in game_offers(tx, game_row.id, VERB) if (o.platform, o.channel) != here]
    if len(rooms_of(tx, game_row.id)) + len(offered) >= MOST_ROOMS:
        raise Refusal(
            f"game {game_row.id} is played from {MOST_ROOMS} rooms besides its own already "
            "(or offered to them): a game has no more; `unbridge` in one of them first"
        )


def offered_here(tx: Tx, row: Cause) -> bool:
    """Whether a game waits for this room's answer (so `bridge yes`, untagged, is for the
    host)."""
    return row.kind == "public" and bool(room_offers(tx, row.platform, row.channel))


def unbridge(commands: CommandContext, tx: Tx, row: Cause) -> records.Game:
    """``unbridge`` in a bridged room, by the game's host or an admin of the room: the
    game is no longer played from it (its players there play on, by DM)."""
    bridged = room(tx, row.platform, row.channel) if row.kind == "public" else None
    if bridged is None and offered_here(tx, row):
        return _withdraw(commands, tx, row)
    if bridged is None:
        raise Refusal(UNDONE_IN_A_ROOM)
    game_row = tx.game(bridged.game_id)
    assert game_row is not None
    if not (row.is_channel_admin or hosts(commands, tx, row, game_row)):
        raise Refusal(f"only game {game_row.id}'s host or an admin of this room can `{UNDO}`")
    remove_room(tx, bridged)
    row.game_id = game_row.id
    posts.reply(
        tx, game_row.id, row,
        f"{posts.title(game_row)} is no longer played from this room; its players here play "
        "on by DM.",
        public=True, every_room=False,
    )  # fmt: skip
    return game_row


def _withdraw(commands: CommandContext, tx: Tx, row: Cause) -> records.Game:
    """``unbridge`` in a room a game is offered to and not yet played from: the offer is
    withdrawn (it no longer counts toward the game's rooms)."""
    (offer,) = room_offers(tx, row.platform, row.channel)[-1:]
    game_row = tx.game(offer.game_id)
    assert game_row is not None
    if not (row.is_channel_admin or hosts(commands, tx, row, game_row)):
        raise Refusal(f"only game {game_row.id}'s host or an admin of this room can `{UNDO}`")
    drop_offer(tx, offer)
    row.game_id = game_row.id
    posts.reply(
        tx, game_row.id, row, f"{posts.title(game_row)} is no longer offered to this room.",
        public=True, every_room=False,
    )  # fmt: skip
    return game_row


def _answer(commands: CommandContext, tx: Tx, row: Cause, answer: str) -> records.Game | None:
    offers = room_offers(tx, row.platform, row.channel)
    if not offers:
        raise Refusal(f"no game is offered to this room; its host offers one with {EXAMPLE}")
    if not row.is_channel_admin:
        raise Refusal(f"only an admin of this room can answer a `{VERB}` offer")
    offer = offers[-1]
    game_row = tx.game(offer.game_id)
    if answer == NO or game_row is None or game_row.phase == GamePhase.FINISHED:
        drop_offer(tx, offer)
        posts.reply(tx, 0, row, "Declined: no game is played from this room.", public=True)
        return None
    return _make(commands, tx, row, game_row, offer)


def _make(
    commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game, offer: records.Offer
) -> records.Game:
    if tx.game_in(offer.platform, offer.channel) or room(tx, offer.platform, offer.channel):
        drop_offer(tx, offer)
        raise Refusal("a game is played in this room already: one game a room")
    drop_offer(tx, offer)
    add_room(
        tx,
        records.Room(
            platform=offer.platform,
            channel=offer.channel,
            game_id=game_row.id,
            community=offer.community,
            bridged_at=commands.clock.now(),
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
