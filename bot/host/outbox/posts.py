"""What the host says, written to the outbox inside the caller's transaction.

Every outgoing message has a stable key ``(game, turn, kind, recipient)``, so
writing the same message twice (a retried transaction, a second process)
leaves one row. Images are not drawn here: a row names what to attach (the
public picture after a turn, a player's board, the replay) and the relay draws
it from the stored history when it sends. Every sentence about a game comes
from the game's own words (``Game.opening``, ``Game.public_report``, …); the
host adds only its neutral ones (titles, deadlines, who did what to the game).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from bot.games.base import Game, GamePhase, Notice, Resolution
from bot.games.catalog import get_game
from bot.games.duration import humanize
from bot.host.messages import Address, Card, Choice
from bot.host.outbox import wire as kinds
from bot.host.outbox.wire import PostKind, decode_address, encode_address
from bot.host.play import timers
from bot.host.play.timers import TimerEntry
from bot.host.runtime.clock import format_utc
from bot.store import Received, Tx, dumps, loads, records
from bot.store.repository import NewPost
from bot.store.rooms import room_places

# A message being answered (handled as it arrives, or held until its turn opened).
Cause = Received

# The relay sends in id order; within one turn the public picture is written first,
# then the boards, so a rate-limited platform gets what matters most first.


def _address(
    platform: str,
    channel: str,
    *,
    user_id: str | None = None,
    user_name: str | None = None,
    reply_to: str | None = None,
) -> str:
    return encode_address(Address(platform, channel, user_id, user_name, reply_to))


def mention_token(user_id: str) -> str:
    """How the host names a person to notify inside a text it writes: the relay replaces it
    with the platform's own markup (Discord's ``<@id>``, X's ``@handle``) when it sends."""
    return f"<<@{user_id}>>"


MENTION_TOKEN = re.compile(r"<<@([^<>]+)>>")


def where_token(channel: str) -> str:
    """`` in #that-channel`` where the platform can link a channel (Discord's ``<#id>``),
    nothing elsewhere: written after a game's title (``#sonar game 3 in #naval``)."""
    return f"<<#{channel}>>" if channel else ""


WHERE_TOKEN = re.compile(r"<<#([^<>]+)>>")


def extras(
    *,
    choices: Sequence[Choice] = (),
    mentions: Sequence[tuple[str, str]] = (),
    card: Card | None = None,
    room: str = "",
    board: str = "",
    keep: Sequence[str] = (),
) -> str:
    """What a message carries besides its text and pictures (the outbox's ``extras``):
    buttons, the people it pings (user id, name), a card, the name of the room it opens,
    the board as text (sent only where no picture shows it: see ``outbox.outbound_of``),
    the parts of its text a platform that shortens posts must keep (``Outbound.keep``).
    "" when nothing."""
    found: dict[str, Any] = {}
    kept = [part.strip() for part in keep if part.strip()]
    if kept:
        found["keep"] = kept
    if room:
        found["room"] = room
    if board:
        found["board"] = board
    if choices:
        found["choices"] = [[c.label, c.text, c.private] for c in choices]
    if mentions:
        found["mentions"] = [list(m) for m in mentions]
    if card is not None:
        found["card"] = {"title": card.title, "fields": [list(f) for f in card.fields]}
    return dumps(found) if found else ""


def choices_of(game: Game[Any, Any], answers: Sequence[str], *, private: bool) -> list[Choice]:
    """A game's short answers (``pass``, ``retreat to b3``) as buttons behind its tag."""
    return [Choice(answer, f"{game.tag} {answer}", private) for answer in answers]


def _enqueue(
    tx: Tx,
    *,
    game_id: int,
    turn: int,
    kind: PostKind,
    recipient: str,
    address: str,
    text: str,
    render: Mapping[str, Any] | None,
    now: float,
    extra: str = "",
    rooms_of_game: records.Game | None = None,
) -> bool:
    """Write one outbox row; False when a row with its key was written already.
    ``rooms_of_game``: a public post of that game, copied to every room it is played
    from (see :func:`copies_for_rooms`)."""
    post = NewPost(
        game_id,
        turn,
        kind.key(),
        recipient,
        address,
        text,
        dumps(render) if render else "",
        now,
        extra,
    )
    written = tx.post(post)
    if written and rooms_of_game is not None:
        tx.post_all(copies_for_rooms(tx, post, home=rooms_of_game))
    return written


def copies_for_rooms(tx: Tx, post: NewPost, *, home: records.Game | None) -> list[NewPost]:
    """Copies of a game's public ``post`` for each other room the game is played from
    (its own channel and the rooms bridged to it, ``bridge``), each a row of its own
    (so each platform sends, retries and records it on its own). Nothing for a game
    played in one room (one indexed read). A copy answers no message there, links no
    channel of another platform and pings nobody: those belong to the original's room."""
    rooms = room_places(tx, post.game_id)
    if not rooms:
        return []
    game = home if home is not None else tx.game(post.game_id)
    if game is None:
        return []
    address = decode_address(post.address)
    here = (address.platform, address.channel)
    targets = [(game.platform, game.channel), *rooms]
    carried = {k: v for k, v in (loads(post.extras) if post.extras else {}).items()
               if k not in ("mentions", "room")}  # fmt: skip
    text = WHERE_TOKEN.sub("", post.text)
    return [
        dataclasses.replace(
            post,
            recipient=f"public:{platform}:{channel}",
            address=encode_address(
                dataclasses.replace(address, platform=platform, channel=channel, reply_to=None)
            ),
            text=text,
            extras=dumps(carried) if carried else "",
        )
        for platform, channel in targets
        if (platform, channel) != here
    ]


def reply(
    tx: Tx,
    game_id: int,
    row: Cause,
    text: str,
    *,
    public: bool,
    kind_suffix: str = "",
    render: Mapping[str, Any] | None = None,
    extra: str = "",
    every_room: bool = True,
) -> None:
    """Answer an inbound message: in its channel when public, else privately. ``extra``:
    see :func:`extras`. ``every_room``: a public answer about a game is news for each room
    it is played from (see bridges), unless it answers the asker alone (help, status)."""
    platform = row.platform
    channel = row.channel
    if public and channel:
        address = Address(platform, channel, reply_to=row.message_id)
        recipient = "public"
    else:
        address = Address(platform, channel, row.user_id, row.user_name, row.message_id)
        recipient = f"{platform}:{row.user_id}"
    post = NewPost(
        game_id=game_id,
        turn=0,
        # (Every order's reply: its key written out, not made as a PostKind and joined.)
        kind=kinds.reply(row.id, kind_suffix).key() if kind_suffix else f"{kinds.REPLY}:{row.id}",
        recipient=recipient,
        address=encode_address(address),
        text=text,
        render=dumps(render) if render else "",
        created_at=row.received_at,
        extras=extra,
    )
    tx.post_later(post)  # (nothing asks whether it was written: one insert for the batch)
    if recipient == "public" and game_id and every_room:
        # Said in public about a game: in every room it is played from (see bridges).
        tx.post_all(copies_for_rooms(tx, post, home=None))


def withdraw(tx: Tx, game_id: int, row: Cause) -> None:
    """Remove a public message that gave away a secret (a move posted in the channel),
    where the platform allows it: an outbox row with nothing to say, whose address is
    the message itself."""
    tx.post(
        NewPost(
            game_id=game_id,
            turn=0,
            kind=PostKind.of(kinds.WITHDRAW, row.id).key(),
            recipient="public",
            address=_address(row.platform, row.channel, reply_to=row.message_id),
            text="",
            render="",
            created_at=row.received_at,
        )
    )


def _private(game_row: records.Game, player: records.Player) -> str:
    return _address(
        player.platform,
        # (A player who joined from another platform's room: their DM there names no
        # channel of this one.)
        game_row.channel if player.platform == game_row.platform else "",
        user_id=player.user_id,
        user_name=player.account_name or player.name,  # (a substitute's own name)
    )


def _crew_private(
    game_row: records.Game, player: records.Player, crew: Sequence[records.Player]
) -> str:
    """A member's copy of a crew's news: their DM, naming the crew so that a platform with
    group rooms posts it once in the crew's room (see Address.group)."""
    return encode_address(
        dataclasses.replace(
            decode_address(_private(game_row, player)),
            group=f"crew:{crew[0].key}",
            members=tuple((p.user_id, p.name) for p in crew),
            group_name=f"{title(game_row)}: {crew[0].name}'s crew",
        )
    )


def crew_players(
    game: Game[Any, Any], state: Any, key: str, players: Mapping[str, records.Player]
) -> list[records.Player]:
    """The players who share ``key``'s seat (``key`` alone, outside a crew)."""
    return [players[k] for k in game.rules.crew(state, key) if k in players]


def crew_address(
    game: Game[Any, Any],
    state: Any,
    game_row: records.Game,
    player: records.Player,
    players: Mapping[str, records.Player],
) -> str:
    """A player's private address, naming their crew when they share a seat: a crew sees
    the same board, so where the platform has group rooms it is posted there once."""
    crew = crew_players(game, state, player.key, players)
    return _crew_private(game_row, player, crew) if len(crew) > 1 else _private(game_row, player)


def notify(
    tx: Tx,
    game_row: records.Game,
    player: records.Player,
    text: str,
    *,
    kind: PostKind,
    extra: str = "",
    crew: Sequence[records.Player] = (),
) -> None:
    """A private message to a player that answers nothing they sent; ``crew``: news for
    the whole crew (see :func:`_crew_private`), when it has more than one member."""
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=kind,
        recipient=player.key,
        address=_crew_private(game_row, player, crew)
        if len(crew) > 1
        else _private(game_row, player),
        text=text,
        render=None,
        now=game_row.created_at,
        extra=extra,
    )


def announce(
    tx: Tx,
    game_row: records.Game,
    *,
    kind: PostKind,
    text: str,
    now: float,
    extra: str = "",
    render: Mapping[str, Any] | None = None,
    every_room: bool = True,
) -> bool:
    """A public message in the game's channel that answers no one; with ``render``, the
    picture the relay draws when it sends it (see :func:`render_spec`). False when the
    game's turn had one of that ``kind`` already (it is not written again).
    ``every_room``: copied to each room the game is played from (see bridges); not a
    message for the channel's own people alone (a ping)."""
    return _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=kind,
        recipient="public",
        address=_address(game_row.platform, game_row.channel),
        text=text,
        render=render,
        now=now,
        extra=extra,
        rooms_of_game=game_row if every_room else None,
    )


def open_room(
    tx: Tx, game_row: records.Game, text: str, *, now: float, choices: Sequence[Choice] = ()
) -> None:
    """Ask for a room of the game's own in its channel (a Discord thread), with ``text`` as
    its first message; written for platforms whose adapter opens rooms (a relay skips it
    elsewhere), so ``text`` repeats what the channel was told already."""
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=0,
        kind=PostKind(kinds.ROOM),
        recipient="public",
        address=_address(game_row.platform, game_row.channel),
        text=text,
        render=None,
        now=now,
        extra=extras(choices=choices, room=title(game_row)),
    )


def room_member(
    tx: Tx, game_row: records.Game, cause: Cause, user_id: str, *, present: bool, now: float
) -> None:
    """Add ``user_id`` to the game's room (``present``) or take them out of it: written on
    join, leave and kick where the platform gives games rooms; a relay whose adapter
    keeps no room members skips it. ``text`` says which (``add`` or ``remove``)."""
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=PostKind.of(kinds.ROOM_MEMBER, str(cause.id)),
        recipient=user_id,
        address=_address(game_row.platform, game_row.channel, user_id=user_id),
        text="add" if present else "remove",
        render=None,
        now=now,
    )


def close_room(tx: Tx, game_row: records.Game, *, now: float) -> None:
    """Close the room a finished game played in (a Discord thread is archived: it leaves
    the sidebar and stops counting towards the platform's limit of active rooms), after
    everything the game said there; nothing when the game never moved into a room."""
    if not game_row.lobby or game_row.id is None:
        return
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=PostKind(kinds.CLOSE_ROOM),
        recipient="public",
        address=_address(game_row.platform, game_row.channel),
        text="",
        render=None,
        now=now,
    )


def tell_lobby(tx: Tx, game_row: records.Game, *, kind: PostKind, text: str, now: float) -> None:
    """One line in the channel a game moved out of (that it ended); nothing when the game
    never moved."""
    if not game_row.lobby or game_row.id is None:
        return
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=kinds.in_lobby(kind),
        recipient="public",
        address=_address(game_row.platform, game_row.lobby),
        text=text,
        render=None,
        now=now,
    )


def title(game_row: records.Game) -> str:
    """How the host names a game in its posts: ``#sonar game 12``."""
    return f"{get_game(game_row.kind).tag} game {game_row.id}"


def render_spec(
    kind: str, game_row: records.Game, turn: int, now: float, **extra: Any
) -> dict[str, Any]:
    """What the relay draws for a row: ``public_map``/``private_board`` after a stored
    step (``turn``, and ``step`` when a turn has several), or the ``replay``."""
    return {
        "kind": kind,
        "turn": turn,
        "title": title(game_row),
        "deadline": game_row.deadline,
        "now": now,
        **extra,
    }


# --- timers, in words ------------------------------------------------------


def running_timers(game_row: records.Game) -> list[TimerEntry]:
    """The game's timers that run now, earliest first."""
    return timers.running(timers.decode(game_row.timers))


def _deadline(timer: TimerEntry) -> float:
    """A running timer's deadline (see :func:`running_timers`: only running ones)."""
    return timer.deadline if timer.deadline is not None else 0.0


def deadlines_text(game_row: records.Game) -> str:
    """``Turn 3 closes 2026-01-01 08:00 UTC.`` for every timer that runs, earliest first."""
    return " ".join(
        f"{t.label} closes {format_utc(_deadline(t))}." for t in running_timers(game_row)
    )


def in_sentence(label: str) -> str:
    """A timer's label inside a sentence (``Turn 3`` → ``turn 3``)."""
    return label[:1].lower() + label[1:]


def humanize_seconds(seconds: float) -> str:
    return humanize(timedelta(seconds=max(0.0, seconds)))


def status_text(
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    now: float,
    written: Callable[[float], str] = format_utc,
) -> str:
    """The status in words; ``written`` writes its times (a private answer: in the
    asker's own zone)."""
    lines = [f"{title(game_row)}: {game.phase_word(game_row.phase)}"]
    turn = turn_word(game, game_row.turn)
    if game_row.phase == GamePhase.RUNNING:
        lines[0] += f", {turn} {game_row.turn}"
    if game_row.paused_remaining is not None:
        left = humanize_seconds(game_row.paused_remaining)
        lines.append(f"Paused with {left} left on the clock.")
    else:
        declared = timers.decode(game_row.timers)
        for timer in timers.running(declared):
            left = humanize_seconds(_deadline(timer) - now)
            # One clock: the first line already names the turn. Several (or one running
            # while another waits, as a move clock during a defender's answer): say which.
            if len(declared) > 1:
                what = timer.label
            else:
                what = "Setup" if game_row.phase == GamePhase.SETUP else turn.capitalize()
            lines.append(f"{what} closes {written(_deadline(timer))} (in {left}).")
    lines.append(game.words.summary(state, None))
    return "\n".join(lines)


def turn_word(game: Game[Any, Any], turn: int) -> str:
    """The game's word for a turn (``round`` in a game of rounds), from its report title."""
    return game.words.report_title(turn).split()[0]


def status_card(
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    players: Sequence[records.Player],
    in_: set[str],
) -> Card:
    """The status as a card (a Discord embed): phase and turn, each running clock, who
    plays, and in a battle how many of those who must act have given their order
    (``in_``: the players whose order stands)."""
    fields: list[tuple[str, str]] = [("Phase", game.phase_word(game_row.phase))]
    if game_row.phase == GamePhase.RUNNING:
        fields.append((turn_word(game, game_row.turn).capitalize(), str(game_row.turn)))
    if game_row.paused_remaining is not None:
        fields.append(("Clock", f"paused, {humanize_seconds(game_row.paused_remaining)} left"))
    for timer in running_timers(game_row):
        fields.append((timer.label, f"closes {format_utc(_deadline(timer))}"))
    fields.append((game.words.player_word(len(players)).capitalize(), str(len(players))))
    if game_row.phase == GamePhase.RUNNING:
        acting = game.rules.to_act(state)
        named = {p.key: p.name for p in players}
        if game.simultaneous:
            given = len(acting & in_)
            fields.append(("Orders in", f"{given} of {len(acting)}"))
        elif acting:
            fields.append(("To move", ", ".join(sorted(named.get(k, k) for k in acting))))
    return Card(title(game_row), tuple(fields))


# --- boards and notices -----------------------------------------------------


def send_board(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    player: records.Player,
    *,
    cause: Cause,
    now: float,
    last: tuple[int, int] | None,
) -> None:
    """A player's board on request: text always, the picture of the last stored step
    (``last``: its turn and step) once the game has one."""
    text = game.words.summary(state, player.key)
    render = _board_picture(game_row, player, now, last)
    board = extras(board=game.words.text_board(state, player.key))
    reply(tx, game_row.id, cause, text, public=False, render=render, extra=board)


def _board_picture(
    game_row: records.Game, player: records.Player, now: float, last: tuple[int, int] | None
) -> dict[str, Any] | None:
    """The picture of a player's board after the last stored step (``last``: its turn and
    step; None: the game has none yet, so no picture)."""
    if last is None:
        return None
    turn, step = last
    extra: dict[str, Any] = {"player": player.key}
    if step:
        extra["step"] = step
    return render_spec("private_board", game_row, turn, now, **extra)


def welcome_substitute(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    player: records.Player,
    text: str,
    *,
    kind: PostKind,
    now: float,
    last: tuple[int, int] | None,
) -> None:
    """A seat's board (as :func:`send_board` gives it), by DM to who now plays it,
    after ``text``: what a substitute sees first."""
    render = _board_picture(game_row, player, now, last)
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=kind,
        recipient=player.key,
        address=_private(game_row, player),
        text=f"{text}\n{game.words.summary(state, player.key)}",
        render=render,
        now=now,
        extra=extras(board=game.words.text_board(state, player.key)),
    )


def recipients(game: Game[Any, Any], state: Any, notice: Notice) -> Sequence[str]:
    """The players a private notice goes to: its addressee, or their whole crew."""
    assert notice.to is not None
    return game.rules.crew(state, notice.to) if notice.crew else (notice.to,)


def names_of(players: Iterable[records.Player]) -> dict[str, str]:
    """Each seat's name as posts show it: a seat handed to a robot keeps its player's
    name, marked (``bob [robot]``), so a robot is shown as one in every post (a robot
    seated as one is named for it already: ``easy-robot-2``)."""
    return {player.key: _marked(player) for player in players}


def _marked(player: records.Player) -> str:
    marked = player.robot and "robot" not in player.name
    return f"{player.name} [robot]" if marked else player.name


def publish(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    *,
    turn: int,
    step: int,
    resolution: Resolution[Any],
    public_text: str | None,
    players: Mapping[str, records.Player],
    now: float,
    pictured: bool = True,
    private_lines: Mapping[str, str] | None = None,
    keep: Sequence[str] = (),
) -> None:
    """The posts of a stored change: the public picture with ``public_text`` (unless
    None; the text alone when not ``pictured``), then a board for every player whose board changed (written together: one
    round trip to the database, not one a player). What the game tells one player
    alone (a ship that struck theirs, a late joiner's placement) goes in their board's
    message, or on its own if they get no board; public notices go out on their own.
    ``private_lines``: what the host adds for one player alone (their receipt's path to
    the turn's root), delivered the same way, after the game's notices. ``keep``: the
    parts of ``public_text`` a platform that shortens posts keeps (``Outbound.keep``)."""
    extra: dict[str, Any] = {"step": step} if step else {}
    state = resolution.state
    told: dict[str, list[str]] = {}
    asked: dict[str, list[str]] = {}  # the short answers the notices ask of each player
    public_notices: list[str] = []
    for notice in resolution.notices:
        if notice.to is None:
            public_notices.append(notice.text)
            continue
        for key in recipients(game, state, notice):
            told.setdefault(key, []).append(notice.text)
            asked.setdefault(key, []).extend(notice.choices)
    for key, line in sorted((private_lines or {}).items()):
        told.setdefault(key, []).append(line)
    rows = []
    if public_text is not None:
        rows.append(
            NewPost(
                game_id=game_row.id,
                turn=turn,
                kind=kinds.of_step(kinds.MAP, step).key(),
                recipient="public",
                address=_address(game_row.platform, game_row.channel),
                text=public_text,
                render=(
                    dumps(render_spec("public_map", game_row, turn, now, **extra))
                    if pictured
                    else ""
                ),
                created_at=now,
                extras=extras(keep=keep),
            )
        )
        # The map, in every room the game is played from (see bridges), right after it.
        rows += copies_for_rooms(tx, rows[0], home=game_row)
    # The heading names the turn the board shows (the picture's own "Turn 4"): the turn
    # open once this change is stored, or the last one when the game is over; 0 at the start.
    heading = game.words.board_heading(title(game_row), game.rules.turn(state) if turn else 0)
    for key in sorted(resolution.changed):
        player = players.get(key)
        if player is None:
            continue
        lines = [heading]
        lines += game.words.private_report(resolution.events, key)
        lines += told.pop(key, [])
        lines.append(game.words.summary(state, key))
        rows.append(
            NewPost(
                game_id=game_row.id,
                turn=turn,
                kind=kinds.of_step(kinds.BOARD, step).key(),
                recipient=key,
                address=crew_address(game, state, game_row, player, players),
                text="\n".join(lines),
                render=dumps(
                    render_spec("private_board", game_row, turn, now, player=key, **extra)
                ),
                created_at=now,
                extras=extras(
                    choices=choices_of(game, asked.pop(key, []), private=True),
                    board=game.words.text_board(state, key),
                ),
            )
        )
    tx.post_all(rows)
    for key, texts in sorted(told.items()):
        player = players.get(key)
        if player is not None:
            quick = choices_of(game, asked.get(key, []), private=True)
            crew = crew_players(game, state, key, players)
            notify(tx, game_row, player, "\n".join(texts), kind=kinds.turn_notice(turn, step),
                   extra=extras(choices=quick), crew=crew)  # fmt: skip
    for index, text in enumerate(public_notices):
        announce(
            tx,
            game_row,
            kind=kinds.public_notice(turn, step, index),
            text=f"{title(game_row)}: {text}",
            now=now,
        )


def deliver_notices(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    notices: Sequence[Notice],
    *,
    cause: Cause,
    sender: str,
    players: Mapping[str, records.Player],
) -> None:
    """What the game says in answer to an order: to the sender as a reply, to the public
    in the channel, to anyone else (or a whole crew) by a private message of their own."""
    for index, notice in enumerate(notices):
        if notice.to is None:
            if cause.kind == "public" and cause.channel:
                reply(tx, game_row.id, cause, notice.text, public=True, kind_suffix=f"n{index}")
            else:
                # An order sent by DM: what the game tells everyone goes to its channel.
                announce(tx, game_row, kind=PostKind.of(kinds.NOTICE, str(cause.id), index), text=notice.text,
                         now=cause.received_at)  # fmt: skip
            continue
        for key in recipients(game, state, notice):
            target = players.get(key)
            if target is None:
                continue
            # The short answers a notice asks for (a defender's), as buttons where they can be.
            extra = extras(choices=choices_of(game, notice.choices, private=True))
            if key == sender:
                reply(tx, game_row.id, cause, notice.text, public=False,
                      kind_suffix=f"n{index}", extra=extra)  # fmt: skip
            else:
                crew = crew_players(game, state, notice.to, players) if notice.crew else ()
                notify(tx, game_row, target, notice.text, kind=PostKind.of(kinds.NOTICE, str(cause.id), index),
                       extra=extra, crew=crew)  # fmt: skip


def post_replay(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, turn: int, now: float
) -> None:
    """The end of the game: the replay of the whole game, drawn when it is sent."""
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=turn,
        kind=PostKind(kinds.REPLAY),
        recipient="public",
        address=_address(game_row.platform, game_row.channel),
        text=f"{title(game_row)}: {game.words.replay_caption()}",
        render=render_spec("replay", game_row, turn, now),
        now=now,
        rooms_of_game=game_row,
    )
    if game_row.lobby:
        # The channel it was opened in hears, in one line, that it ended and how.
        state = game.codec.decode_state(loads(game_row.state))
        result = game.words.result(state, names_of(tx.players(game_row.id)))
        tell_lobby(tx, game_row, kind=PostKind(kinds.END), text=f"{title(game_row)} is over. {result}".strip(),
                   now=now)  # fmt: skip
        close_room(tx, game_row, now=now)
