"""Substitutes: the game's host hands a seat to someone else (``replace OLD NEW``), as
DiplomacyGM's ``.substitute`` does for a player who vanished.

The seat is the game's: it keeps its key and its name, which the game's state, its
reports and its record use, so nothing in the game changes and the record replays from
its orders as before. Only who plays it changes: from the turn in progress on, the
newcomer's account is the seat's (their orders count, `board` shows them its board) and
the old account is no longer (its orders and `board` are refused, saying why). The
newcomer is welcomed by DM with the seat's board; the change is said in public; a row
of ``seat_changes`` keeps who played which turns, and the record lists them
(``substitutes``). The newcomer is someone the host has heard from on the game's
platform (a mention, or the name they wrote with), so the platform's id of them is
known: no handle is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.games.base import GamePhase
from bot.host import posts
from bot.host.context import CommandContext
from bot.host.posts import Cause
from bot.host.routing import Refusal
from bot.store import GameRow, PlayerRow, Tx
from bot.store.repository import PlayerSnapshot
from bot.store.seats import hand_seat, handed_away, latest_sender
from bot.store.settings import accounts_of

EXAMPLE = "`replace @bob @carol`"
_MENTION = re.compile(r"<@!?(\d+)>")


def replace(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game_row: GameRow,
    game: Any,
    state: Any,
    rest: str,
    find_player: Callable[[str], PlayerRow],
    *,
    now: float,
) -> None:
    """``replace OLD NEW``: NEW plays OLD's seat from now on."""
    assert game_row.id is not None
    seat, wanted = _split(rest, find_player)
    newcomer = _newcomer(tx, game_row, wanted)
    if (newcomer.platform, newcomer.user_id) == (seat.platform, seat.user_id):
        raise Refusal(f"{seat.name} already plays that seat: name someone else, such as {EXAMPLE}")
    for platform, user_id in accounts_of(tx, newcomer.platform, newcomer.user_id):
        other = tx.player_by_user(game_row.id, platform, user_id)
        if other is not None:
            raise Refusal(
                f"{newcomer.user_name} already plays in this game (as {other.name}): one "
                f"person has one seat; name someone who does not, such as {EXAMPLE}"
            )
    assert seat.id is not None
    old = PlayerSnapshot(
        seat.id, game_row.id, seat.key, seat.platform, seat.user_id, seat.name,
        seat.avatar_url, seat.join_order, seat.account_name,
    )  # fmt: skip
    turn = game_row.turn
    change = hand_seat(
        tx,
        seat,
        platform=newcomer.platform,
        user_id=newcomer.user_id,
        name=newcomer.user_name,
        avatar_url=newcomer.avatar_url,
        turn=turn,
        now=now,
    )
    when = f"from turn {turn} on" if game_row.phase == GamePhase.RUNNING else "from now on"
    posts.reply(
        tx,
        game_row.id,
        row,
        f"{posts.title(game_row)}: the host handed {seat.name}'s seat to "
        f"{newcomer.user_name}, who plays it {when} (still called {seat.name}).",
        public=True,
    )
    posts.notify(
        tx, game_row, old,
        f"{posts.title(game_row)}: the host handed your seat ({seat.name}) to "
        f"{newcomer.user_name}. You no longer play in this game; thank you for playing.",
        kind=f"replaced:{change.id}",
    )  # fmt: skip
    last = None
    if game_row.phase != GamePhase.SETUP:
        stored = tx.last_turn(game_row.id)
        if stored is not None:
            last = (stored.number, stored.step)
    posts.welcome_substitute(
        tx, game, game_row, state, seat,
        f"{posts.title(game_row)}: the host handed you {seat.name}'s seat, which you play "
        f"{when}. Here is its board; `help` says how to play.",
        kind=f"substitute:{change.id}", now=now, last=last,
    )  # fmt: skip
    if seat.platform in commands.room_platforms or old.platform in commands.room_platforms:
        posts.room_member(tx, game_row, row, old.user_id, present=False, now=now)
        posts.room_member(tx, game_row, row, seat.user_id, present=True, now=now)


def _split(rest: str, find_player: Callable[[str], PlayerRow]) -> tuple[PlayerRow, str]:
    """(OLD's seat, NEW as written): OLD is the longest leading words that name a seat
    (names may have spaces), NEW the rest."""
    words = rest.split()
    if len(words) < 2:
        raise Refusal(f"expected whose seat and who takes it, such as {EXAMPLE}")
    for cut in range(len(words) - 1, 0, -1):
        try:
            return find_player(" ".join(words[:cut])), " ".join(words[cut:])
        except Refusal:
            continue
    return find_player(words[0]), " ".join(words[1:])  # (raises: names no seat)


def _newcomer(tx: Tx, game_row: GameRow, wanted: str) -> Any:
    mention = _MENTION.fullmatch(wanted.strip())
    name = wanted.strip().lstrip("@")
    if mention:
        found = latest_sender(tx, game_row.platform, user_id=mention.group(1))
    else:
        found = latest_sender(tx, game_row.platform, name=name)
    if found is None:
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise Refusal(
            f"I have not heard from {shown!r} here: they send me any message first (such "
            f"as `games` by DM), then {EXAMPLE}"
        )
    return found


def refuse_the_replaced(tx: Tx, row: Cause, game_id: int) -> None:
    """For someone who is not in the game: if their seat was handed on, say so."""
    change = handed_away(tx, game_id, row.platform, row.user_id)
    if change is not None:
        raise Refusal(
            f"the host handed your seat in this game to {change.to_name}: you no "
            "longer play in it, so its orders and its `board` are theirs now"
        )
