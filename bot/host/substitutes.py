"""Substitutes: the game's host offers a seat to someone else (``replace OLD NEW``), as
DiplomacyGM's ``.substitute`` does for a player who vanished; the seat changes hands
when the newcomer accepts it by DM (``seat yes GAME``; ``seat no GAME`` declines).

The seat is the game's: it keeps its key and its name, which the game's state, its
reports and its record use, so nothing in the game changes and the record replays from
its orders as before. Only who plays it changes: from the turn in progress on, the
newcomer's account is the seat's (their orders count, `board` shows them its board) and
the old account is no longer (its orders and `board` are refused, saying why). A row of
``seat_changes`` keeps who played which turns, and the record lists them
(``substitutes``).

A substitute must not be a way to read a seat (issue 39), so:

- the newcomer is named by mention (``<@id>``) or by handle (``@carol``, where the
  platform names its people by handle), never by a display name, which anyone may take;
- the newcomer gets nothing of the seat (no board, no secret) until they accept by DM;
  they may decline;
- a host who plays a seat of the game (from any linked account) hands another seat only
  with its player's agreement (the same ``seat yes GAME``), or when that player sent
  the host nothing about the game over its last two deadlines; a host who plays no seat
  hands seats freely;
- a seat never goes to someone who plays, or played, another seat of the game (from any
  of their linked accounts).

A robot may take a seat too (``replace OLD robot`` or ``replace OLD robot LEVEL``, issue
44), for a player who is gone: it accepts at once (the seat's player still agrees where
a host who plays hands it), is shown as a robot (``strong-robot-2`` plays the seat,
which keeps its name) and plays it from then on from that seat's view alone, as a robot
seated at the start does (bot.host.robots).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.games.base import GamePhase
from bot.games.catalog import get_game
from bot.games.numbers import looks_like_a_number, whole_number
from bot.host import posts, robots
from bot.host.context import CommandContext
from bot.host.new_options import parse_level
from bot.host.outbox_wire import PostKind
from bot.host.posts import Cause
from bot.host.routing import Refusal
from bot.store import Tx, records
from bot.store.changes import NewOffer
from bot.store.records import ROBOT_USER
from bot.store.robot_seats import left_the_game
from bot.store.seats import (
    add_offer,
    answer_offer,
    closes,
    drop_offer,
    hand_seat,
    handed_away,
    held_seats,
    latest_sender,
    offers_to,
    sent_since,
)
from bot.store.settings import accounts_of

VERB = "seat"
EXAMPLE = "`replace @bob @carol`"
ROBOT_EXAMPLE = "`replace @bob robot` (or `replace @bob robot strong`)"
YES, NO = "yes", "no"
# A seat's player who sent nothing about the game over this many of its last deadlines
# has left it: a host who plays may then hand the seat on without their agreement.
SILENT_DEADLINES = 2
# A mention as the host sees it: ``<@id>`` (Discord's markup, and any platform's mention
# written as the account's id).
_MENTION = re.compile(r"<@!?([^<>\s]+)>")
_HANDLE = re.compile(r"@[^\s<>@]+(?:@[^\s<>@]+)?")


def replace(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game_row: records.Game,
    game: Any,
    state: Any,
    rest: str,
    find_player: Callable[[str], records.Player],
    *,
    now: float,
) -> None:
    """``replace OLD NEW``: NEW is offered OLD's seat, theirs once they accept."""
    seat, wanted = _split(rest, find_player)
    if wanted.split()[0].lower() == robots.VERB:
        _offer_to_a_robot(commands, tx, row, game_row, game, seat, wanted, now=now)
        return
    newcomer = _newcomer(tx, game_row, wanted)
    _check_newcomer(tx, game_row, seat, newcomer.platform, newcomer.user_id, newcomer.user_name)
    consent = "asked" if _needs_consent(tx, row, game_row, seat) else ""
    offer = add_offer(
        tx,
        NewOffer(
            game_id=game_row.id,
            kind=VERB,
            platform=newcomer.platform,
            user_id=newcomer.user_id,
            name=newcomer.user_name,
            avatar_url=newcomer.avatar_url,
            player_key=seat.key,
            holder=_account(seat),
            holder_consent=consent,
            created_at=now,
        ),
    )
    yes, no = f"`{VERB} {YES} {game_row.id}`", f"`{VERB} {NO} {game_row.id}`"
    answer = f"{yes} to me by DM ({no} declines)"
    agreed = f" and {seat.name} agrees to it (the same {yes})" if consent else ""
    posts.reply(
        tx, game_row.id, row,
        f"{posts.title(game_row)}: the host offers {seat.name}'s seat to {newcomer.user_name}. "
        f"It is theirs once they accept with {answer}{agreed}.",
        public=True,
    )  # fmt: skip
    posts.notify(
        tx, game_row, _as_player(game_row, offer),
        f"{posts.title(game_row)}: its host offers you {seat.name}'s seat. Send {answer}. "
        "You see the seat's board once it is yours.",
        kind=PostKind.of("seat-offer", offer.id),
    )  # fmt: skip
    if consent:
        posts.notify(
            tx, game_row, seat,
            f"{posts.title(game_row)}: the host would hand your seat ({seat.name}) to "
            f"{newcomer.user_name}. Send {yes} to me by DM to agree ({no} keeps it yours).",
            kind=PostKind.of("seat-consent", offer.id),
        )  # fmt: skip


def _offer_to_a_robot(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game_row: records.Game,
    game: Any,
    seat: records.Player,
    wanted: str,
    *,
    now: float,
) -> None:
    """``replace OLD robot [LEVEL]``: a robot takes OLD's seat at once (it says yes as
    soon as asked), or once OLD agrees where the host plays a seat of the game."""
    if game_row.phase == GamePhase.FINISHED:
        raise Refusal("this game has finished")
    level = parse_level(game, wanted.strip()[len(robots.VERB) :], f"replace {seat.name} robot")
    if left_the_game(tx, game_row.id, seat.key):
        raise Refusal(
            f"{seat.name} left the game (or was removed): their seat is out of play, with "
            f"nothing for a robot to take; a robot takes the seat of a player who is gone "
            f"but still in the game, such as {ROBOT_EXAMPLE}"
        )
    if seat.robot:
        raise Refusal(
            f"{seat.name}'s seat is played by a robot already (level {seat.robot}): "
            f"hand it to a person, such as {EXAMPLE}"
        )
    consent = "asked" if _needs_consent(tx, row, game_row, seat) else ""
    offer = NewOffer(
        game_id=game_row.id,
        kind=VERB,
        platform=game_row.platform,
        # The seat's number makes the robot's account: one no other seat has.
        user_id=f"{ROBOT_USER}{game_row.id}:{seat.join_order}",
        name=f"{level}-robot-{seat.join_order}",
        player_key=seat.key,
        holder=_account(seat),
        holder_consent=consent,
        accepted=True,
        created_at=now,
    )
    _check_newcomer(tx, game_row, seat, offer.platform, offer.user_id, offer.name)
    if not consent:
        _hand_over(commands, tx, row, game_row, seat, offer)
        return
    added = add_offer(tx, offer)
    yes, no = f"`{VERB} {YES} {game_row.id}`", f"`{VERB} {NO} {game_row.id}`"
    posts.reply(
        tx, game_row.id, row,
        f"{posts.title(game_row)}: the host would hand {seat.name}'s seat to a robot "
        f"({added.name}). It plays it once {seat.name} agrees (the same {yes}).",
        public=True,
    )  # fmt: skip
    posts.notify(
        tx, game_row, seat,
        f"{posts.title(game_row)}: the host would hand your seat ({seat.name}) to a robot "
        f"({added.name}). Send {yes} to me by DM to agree ({no} keeps it yours).",
        kind=PostKind.of("seat-consent", added.id),
    )  # fmt: skip


def robot_level(offer: records.Offer | NewOffer) -> str:
    """The level of the robot an offer hands a seat to ("" for a person): a robot's
    account begins ``robot:`` and its name is ``LEVEL-robot-N``."""
    if not offer.user_id.startswith(ROBOT_USER):
        return ""
    return offer.name.partition("-robot-")[0]


def answer(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> int:
    """``seat yes GAME`` / ``seat no GAME`` by DM: a newcomer accepts or declines a seat
    offered them; a seat's player agrees to its hand-over, or refuses it. Returns the
    game's number."""
    example = f"`{VERB} {YES} 12` or `{VERB} {NO} 12` (12: the game's number)"
    if row.kind == "public":
        raise Refusal(f"answer a seat's offer privately, by DM: {example}")
    words = rest.lower().split()
    if not words or words[0] not in (YES, NO) or len(words) > 2:
        raise Refusal(f"expected yes or no, and the game's number: {example}")
    offers = offers_to(tx, VERB, row.platform, row.user_id)
    if len(words) == 2:
        number = words[1].removeprefix("#")
        wanted = whole_number(number) if looks_like_a_number(number) else None
        offers = [offer for offer in offers if offer.game_id == wanted]
    if not offers:
        raise Refusal("no seat is offered to you (nor asked of you) in that game")
    if len({offer.game_id for offer in offers}) > 1:
        listed = ", ".join(str(o.game_id) for o in offers)
        raise Refusal(f"seats are offered to you in games {listed}: say which, as {example}")
    offer = offers[0]
    game_row = tx.game(offer.game_id, lock=True)
    assert game_row is not None
    row.game_id = game_row.id
    newcomer = (offer.platform, offer.user_id) == (row.platform, row.user_id)
    if game_row.phase == GamePhase.FINISHED:
        drop_offer(tx, offer)
        raise Refusal(f"game {game_row.id} has finished: its seats are no longer offered")
    seat = next((p for p in tx.players(game_row.id) if p.key == offer.player_key), None)
    if seat is None or _account(seat) != offer.holder:
        drop_offer(tx, offer)
        raise Refusal(f"that seat of game {game_row.id} has changed hands since: the offer is off")
    if words[0] == NO:
        drop_offer(tx, offer)
        who = offer.name if newcomer else seat.name
        what = "declined" if newcomer else "kept"
        posts.announce(
            tx, game_row, kind=PostKind.of("seat-no", offer.id), now=commands.clock.now(),
            text=f"{posts.title(game_row)}: {who} {what} {seat.name}'s seat; nothing changes.",
        )  # fmt: skip
        posts.reply(tx, game_row.id, row, "Done: the seat stays as it was.", public=False)
        return game_row.id
    offer = answer_offer(
        tx,
        offer,
        accepted=offer.accepted or newcomer,
        holder_consent=offer.holder_consent if newcomer else "given",
    )
    if not offer.accepted or offer.holder_consent == "asked":
        waits = offer.name if not offer.accepted else seat.name
        posts.reply(
            tx, game_row.id, row,
            f"Noted. {seat.name}'s seat changes hands once {waits} says yes too.",
            public=False,
        )  # fmt: skip
        return game_row.id
    _check_newcomer(tx, game_row, seat, offer.platform, offer.user_id, offer.name)
    drop_offer(tx, offer)
    _hand_over(commands, tx, row, game_row, seat, offer)
    return game_row.id


def _hand_over(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game_row: records.Game,
    seat: records.Player,
    offer: records.Offer | NewOffer,
) -> None:
    """Both said yes: from the turn in progress on, the seat is the newcomer's."""
    now = commands.clock.now()
    game = get_game(game_row.kind)
    state = commands.states.of(game, game_row)
    old = seat  # (the record stays as it was read: the seat's player until now)
    turn = game_row.turn
    level = robot_level(offer)
    change, seat = hand_seat(
        tx,
        seat,
        platform=offer.platform,
        user_id=offer.user_id,
        name=offer.name,
        avatar_url=offer.avatar_url,
        robot=level,
        turn=turn,
        now=now,
    )
    when = f"from turn {turn} on" if game_row.phase == GamePhase.RUNNING else "from now on"
    who = f"{offer.name}'s (a robot, level {level})," if level else f"{offer.name}'s,"
    posts.announce(
        tx, game_row, kind=PostKind.of("seat-handed", change.id), now=now,
        text=f"{posts.title(game_row)}: {seat.name}'s seat is {who} who plays it "
        f"{when} (still called {seat.name}).",
    )  # fmt: skip
    posts.notify(
        tx, game_row, old,
        f"{posts.title(game_row)}: your seat ({seat.name}) is {offer.name}'s now. You no "
        "longer play in this game; thank you for playing.",
        kind=PostKind.of("replaced", change.id),
    )  # fmt: skip
    if level:
        # A robot is sent nothing (nor let into a room): it reads the seat's view.
        if old.platform in commands.room_platforms:
            posts.room_member(tx, game_row, row, old.user_id, present=False, now=now)
        return
    last = None
    if game_row.phase != GamePhase.SETUP:
        stored = tx.last_turn(game_row.id)
        if stored is not None:
            last = (stored.number, stored.step)
    posts.welcome_substitute(
        tx, game, game_row, state, seat,
        f"{posts.title(game_row)}: {seat.name}'s seat is yours, to play {when}. Here is its "
        "board; `help` says how to play.",
        kind=PostKind.of("substitute", change.id), now=now, last=last,
    )  # fmt: skip
    if seat.platform in commands.room_platforms or old.platform in commands.room_platforms:
        posts.room_member(tx, game_row, row, old.user_id, present=False, now=now)
        posts.room_member(tx, game_row, row, seat.user_id, present=True, now=now)


def _check_newcomer(
    tx: Tx, game_row: records.Game, seat: records.Player, platform: str, user_id: str, name: str
) -> None:
    """A seat goes to no one who plays it already, nor plays or played another seat of
    the game (from any of their accounts)."""
    if (platform, user_id) == (seat.platform, seat.user_id):
        raise Refusal(f"{seat.name} already plays that seat: name someone else, such as {EXAMPLE}")
    accounts = accounts_of(tx, platform, user_id)
    for account in accounts:
        other = tx.player(game_row.id, *account)
        if other is not None:
            raise Refusal(
                f"{name} already plays in this game (as {other.name}): one person has one "
                f"seat; name someone who does not, such as {EXAMPLE}"
            )
    if held_seats(tx, game_row.id, accounts) - {seat.key}:
        raise Refusal(
            f"{name} played another seat of this game: a seat goes to no one who played "
            f"another; name someone else, such as {EXAMPLE}"
        )


def _needs_consent(tx: Tx, row: Cause, game_row: records.Game, seat: records.Player) -> bool:
    """Whether the seat's player must agree: the host plays a seat of the game (from any
    of their accounts), and the seat's player sent something about the game over its
    last two deadlines (or fewer have passed)."""
    host_accounts = accounts_of(tx, row.platform, row.user_id)
    if not any(tx.player(game_row.id, *account) for account in host_accounts):
        return False
    passed = closes(tx, game_row.id, SILENT_DEADLINES + 1)
    if len(passed) < SILENT_DEADLINES:
        return True
    # Since the turn before the last two closed (or since the game began).
    since = passed[SILENT_DEADLINES] if len(passed) > SILENT_DEADLINES else 0.0
    return sent_since(tx, game_row.id, accounts_of(tx, seat.platform, seat.user_id), since)


def _account(player: records.Player) -> str:
    return f"{player.platform}:{player.user_id}"


def _as_player(game_row: records.Game, offer: records.Offer) -> records.Player:
    """The newcomer as an address for a DM (they hold no seat yet)."""
    return records.Player(
        0, game_row.id, f"{offer.platform}:{offer.user_id}", offer.platform, offer.user_id,
        offer.name, offer.avatar_url, 0, "", "", "",
    )  # fmt: skip


def _split(rest: str, find_player: Callable[[str], records.Player]) -> tuple[records.Player, str]:
    """(OLD's seat, NEW as written): OLD is the longest leading words that name a seat
    (names may have spaces), NEW the last word."""
    words = rest.split()
    if len(words) < 2:
        raise Refusal(f"expected whose seat and who takes it, such as {EXAMPLE}")
    try:
        return find_player(" ".join(words[:-1])), words[-1]
    except Refusal:
        return find_player(words[0]), " ".join(words[1:])  # (raises: names no seat)


def _newcomer(tx: Tx, game_row: records.Game, wanted: str) -> Any:
    written = wanted.strip()
    mention = _MENTION.fullmatch(written)
    handle = _HANDLE.fullmatch(written)
    if mention is None and handle is None:
        shown = written if len(written) <= 40 else written[:40] + "…"
        raise Refusal(
            f"name who takes the seat by mention or handle, not by name ({shown!r} could be "
            f"anyone's name), such as {EXAMPLE}"
        )
    if mention:
        found = latest_sender(tx, game_row.platform, user_id=mention.group(1))
    else:
        found = latest_sender(tx, game_row.platform, handle=written)
    if found is None:
        shown = written if len(written) <= 40 else written[:40] + "…"
        raise Refusal(
            f"I have not heard from {shown} here: they send me any message first (such "
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
