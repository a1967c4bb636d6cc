"""What the host says, written to the outbox inside the caller's transaction.

Every outgoing message has a stable key ``(game, turn, kind, recipient)``, so
writing the same message twice (a retried transaction, a second process)
leaves one row. Images are not drawn here: a row names what to attach (the
public map of turn N, a captain's board after turn N, the replay) and the
relay draws it from the stored turn when it sends.
"""

from __future__ import annotations

import json.encoder
from collections.abc import Mapping
from typing import Any

from bot.games.base import Game, Resolution, get_game
from bot.games.duration import humanize
from bot.host.clock import format_utc
from bot.host.seeds import seeded
from bot.store import GameRow, InboundRow, PlayerRow, Received, TurnRow, Tx, dumps
from bot.store.repository import GameSnapshot, NewPost, PlayerSnapshot

# A JSON string as dumps() writes it (ensure_ascii=False).
_json_str = json.encoder.encode_basestring

# A message being answered: as received (commands) or as stored (held messages).
Cause = InboundRow | Received

# The relay sends in id order; within one turn the public map is written first,
# then the boards, so a rate-limited platform gets what matters most first.


def _address(
    platform: str,
    channel: str,
    *,
    user_id: str | None = None,
    user_name: str | None = None,
    reply_to: str | None = None,
) -> str:
    # dumps() of {"platform", "channel", "user_id", "user_name", "reply_to"}, spelled out
    # (the same bytes; every reply writes one).
    return (
        f'{{"platform":{_json_str(platform)},"channel":{_json_str(channel)},'
        f'"user_id":{_json_opt(user_id)},"user_name":{_json_opt(user_name)},'
        f'"reply_to":{_json_opt(reply_to)}}}'
    )


def _address_head(
    platform: str, channel: str, user_id: str | None = None, user_name: str | None = None
) -> str:
    """What _address writes before the value of ``reply_to`` (and its closing brace)."""
    return (
        f'{{"platform":{_json_str(platform)},"channel":{_json_str(channel)},'
        f'"user_id":{_json_opt(user_id)},"user_name":{_json_opt(user_name)},"reply_to":'
    )


_REPLY_HEADS_SIZE = 4096
_reply_heads: dict[tuple[str, ...], str] = {}


def _json_opt(value: str | None) -> str:
    return "null" if value is None else _json_str(value)


def _enqueue(
    tx: Tx,
    *,
    game_id: int,
    turn: int,
    kind: str,
    recipient: str,
    address: str,
    text: str,
    render: Mapping[str, Any] | None,
    now: float,
) -> None:
    tx.post(
        NewPost(game_id, turn, kind, recipient, address, text, dumps(render) if render else "", now)
    )


def reply(
    tx: Tx,
    game_id: int,
    row: Cause,
    text: str,
    *,
    public: bool,
    kind_suffix: str = "",
    render: Mapping[str, Any] | None = None,
) -> None:
    """Answer an inbound message: in its channel when public, else privately."""
    platform = row.platform
    channel = row.channel
    if public and channel:
        key: tuple[str, ...] = (platform, channel)
        recipient = "public"
    else:
        key = (platform, channel, row.user_id, row.user_name)
        recipient = f"{platform}:{row.user_id}"
    # The address up to its reply_to, the same for every reply to that sender there.
    head = _reply_heads.get(key)
    if head is None:
        if len(_reply_heads) >= _REPLY_HEADS_SIZE:
            _reply_heads.clear()
        head = _reply_heads[key] = _address_head(*key)
    tx.post(
        NewPost(
            game_id=game_id,
            turn=0,
            kind=f"reply:{row.id}:{kind_suffix}" if kind_suffix else f"reply:{row.id}",
            recipient=recipient,
            address=f"{head}{_json_str(row.message_id)}}}",
            text=text,
            render=dumps(render) if render else "",
            created_at=row.received_at,
        )
    )


WITHDRAW = "withdraw"  # the kind of an outbox row that removes a public message


def withdraw(tx: Tx, game_id: int, row: Cause) -> None:
    """Remove a public message that gave away a secret (a move posted in the channel),
    where the platform allows it: an outbox row with nothing to say, whose address is
    the message itself."""
    tx.post(
        NewPost(
            game_id=game_id,
            turn=0,
            kind=f"{WITHDRAW}:{row.id}",
            recipient="public",
            address=_address(row.platform, row.channel, reply_to=row.message_id),
            text="",
            render="",
            created_at=row.received_at,
        )
    )


def notify(
    tx: Tx,
    game_row: GameRow | GameSnapshot,
    player: PlayerRow | PlayerSnapshot,
    text: str,
    *,
    kind: str,
) -> None:
    """A private message to a captain that answers nothing they sent."""
    assert game_row.id is not None
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=kind,
        recipient=player.key,
        address=_address(
            player.platform, game_row.channel, user_id=player.user_id, user_name=player.name
        ),
        text=text,
        render=None,
        now=game_row.created_at,
    )


def announce(tx: Tx, game_row: GameRow, *, kind: str, text: str, now: float) -> None:
    """A public message in the game's channel that answers no one."""
    assert game_row.id is not None
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=game_row.turn,
        kind=kind,
        recipient="public",
        address=_address(game_row.platform, game_row.channel),
        text=text,
        render=None,
        now=now,
    )


def title(game_row: GameRow | GameSnapshot) -> str:
    """How the host names a game in its posts: ``#bst game 12``."""
    return f"{get_game(game_row.kind).tag} game {game_row.id}"


def _render(kind: str, game_row: GameRow, turn: int, now: float, **extra: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "turn": turn,
        "title": title(game_row),
        "deadline": game_row.deadline,
        "now": now,
        **extra,
    }


def status_text(game: Game[Any, Any], game_row: GameRow, state: Any, now: float) -> str:
    lines = [f"{title(game_row)}: {game_row.phase}"]
    if game_row.phase == "battle":
        lines[0] += f", turn {game_row.turn}"
    if game_row.paused_remaining is not None:
        left = humanize_seconds(game_row.paused_remaining)
        lines.append(f"Paused with {left} left on the clock.")
    elif game_row.deadline is not None:
        closes = "Setup closes" if game_row.phase == "setup" else "Turn closes"
        left = humanize_seconds(game_row.deadline - now)
        lines.append(f"{closes} {format_utc(game_row.deadline)} (in {left}).")
    lines.append(game.summary(state, None))
    return "\n".join(lines)


def humanize_seconds(seconds: float) -> str:
    from datetime import timedelta

    return humanize(timedelta(seconds=max(0.0, seconds)))


def send_board(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    state: Any,
    player: PlayerRow,
    *,
    cause: Cause,
    now: float,
) -> None:
    """The captain's board on request: text always, the image once the battle has a turn."""
    assert game_row.id is not None
    text = game.summary(state, player.key)
    render = None
    if game_row.phase != "setup":
        last = max(0, game_row.turn - 1) if game_row.phase == "battle" else game_row.turn
        render = _render("private_board", game_row, last, now, player=player.key)
    reply(tx, game_row.id, cause, text, public=False, render=render)


def _names(tx: Tx, game_id: int) -> dict[str, PlayerRow]:
    return {p.key: p for p in tx.players(game_id)}


def _plain_names(players: Mapping[str, Any]) -> dict[str, str]:
    return {key: player.name for key, player in players.items()}


def result_text(game: Game[Any, Any], state: Any, names: Mapping[str, PlayerRow]) -> str:
    outcome = game.outcome(state)
    if outcome is None:
        return ""
    winners = [names[k].name if k in names else k for k in outcome.winners]
    if outcome.draw:
        if winners:
            return "The battle ends in a draw between " + ", ".join(winners) + "."
        return "The battle ends in a draw."
    if winners:
        return f"{winners[0]} wins the battle!"
    return "The battle is over."


def _store_turn(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    number: int,
    resolution: Resolution[Any],
    orders: list[dict[str, Any]],
    now: float,
) -> None:
    assert game_row.id is not None
    tx.add_turn(
        TurnRow(
            game_id=game_row.id,
            number=number,
            orders=dumps(orders),
            events=dumps([e.record() for e in resolution.events]),
            state=dumps(game.encode_state(resolution.state)),
            resolved_at=now,
            deadline=game_row.deadline,
        )
    )


def start_battle(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    state: Any,
    *,
    now: float,
    cause: Cause | None,
) -> None:
    """Close setup: random placements, turn 1 begins, everyone gets a board."""
    assert game_row.id is not None
    resolution = game.start(state, seeded(game_row.seed, "start"))
    game_row.phase = "battle"
    game_row.turn = 1
    game_row.turn_opened_at = now
    game_row.deadline = now + game_row.turn_seconds
    game_row.state = dumps(game.encode_state(resolution.state))
    tx.save(game_row)
    _store_turn(tx, game, game_row, 0, resolution, [], now)
    names = _names(tx, game_row.id)
    in_battle = game.to_act(resolution.state)  # not those who left during setup
    captains = [p.name for key, p in names.items() if key in in_battle]
    text = (
        f"{title(game_row)}: the battle begins! {len(captains)} captains: "
        f"{', '.join(captains)}. "
        f"Turn 1 closes {format_utc(game_row.deadline)}. {game.battle_hint}"
    )
    _publish(tx, game, game_row, 0, resolution, text, names, now)
    if cause is not None:
        reply(tx, game_row.id, cause, f"Game {game_row.id} started.", public=False)


def _publish(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    turn_number: int,
    resolution: Resolution[Any],
    public_text: str,
    names: Mapping[str, PlayerRow],
    now: float,
) -> None:
    """The public map, then a board for every captain whose fleet changed (written
    together: one round trip to the database, not one a captain). What the game tells
    one captain alone (a ship that struck theirs, a late joiner's placement) goes in
    their board's message, or on its own if they get no board."""
    assert game_row.id is not None
    told: dict[str, list[str]] = {}
    for notice in resolution.notices:
        if notice.to is not None:
            told.setdefault(notice.to, []).append(notice.text)
    rows = [
        NewPost(
            game_id=game_row.id,
            turn=turn_number,
            kind="map",
            recipient="public",
            address=_address(game_row.platform, game_row.channel),
            text=public_text,
            render=dumps(_render("public_map", game_row, turn_number, now)),
            created_at=now,
        )
    ]
    for key in sorted(resolution.changed):
        player = names.get(key)
        if player is None:
            continue
        lines = [
            f"{title(game_row)}, after turn {turn_number}:"
            if turn_number
            else f"{title(game_row)}: your fleet as the battle begins."
        ]
        lines += game.private_report(resolution.events, key)
        lines += told.pop(key, [])
        lines.append(game.summary(resolution.state, key))
        rows.append(
            NewPost(
                game_id=game_row.id,
                turn=turn_number,
                kind="board",
                recipient=key,
                address=_address(
                    player.platform, game_row.channel, user_id=player.user_id, user_name=player.name
                ),
                text="\n".join(lines),
                render=dumps(_render("private_board", game_row, turn_number, now, player=key)),
                created_at=now,
            )
        )
    tx.post_all(rows)
    for key, texts in sorted(told.items()):
        player = names.get(key)
        if player is not None:
            notify(tx, game_row, player, "\n".join(texts), kind=f"turn-notice:{turn_number}")
    if game.outcome(resolution.state) is not None:
        _finish(tx, game, game_row, turn_number, resolution.state, names, now)


def _finish(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    turn_number: int,
    state: Any,
    names: Mapping[str, PlayerRow],
    now: float,
) -> None:
    assert game_row.id is not None
    game_row.phase = "finished"
    game_row.deadline = None
    game_row.paused_remaining = None
    game_row.finished_at = now
    tx.save(game_row)
    _enqueue(
        tx,
        game_id=game_row.id,
        turn=turn_number,
        kind="replay",
        recipient="public",
        address=_address(game_row.platform, game_row.channel),
        text=f"{title(game_row)}: the replay of the whole battle.",
        render=_render("replay", game_row, turn_number, now),
        now=now,
    )


def publish_turn(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    turn_number: int,
    resolution: Resolution[Any],
    orders: list[dict[str, Any]],
    now: float,
) -> None:
    """Store a resolved turn and write its posts (the caller advanced the game)."""
    assert game_row.id is not None
    _store_turn(tx, game, game_row, turn_number, resolution, orders, now)
    names = _names(tx, game_row.id)
    lines = [f"{title(game_row)}, turn {turn_number}:"]
    lines += game.public_report(resolution.events, _plain_names(names)) or ["No shots this turn."]
    result = result_text(game, resolution.state, names)
    if result:
        lines.append(result)
    elif game_row.deadline is not None:
        lines.append(f"Turn {game_row.turn} closes {format_utc(game_row.deadline)}.")
    _publish(tx, game, game_row, turn_number, resolution, " ".join(lines), names, now)


def apply_change(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    resolution: Resolution[Any],
    *,
    now: float,
    cause: Cause,
    headline: str,
) -> None:
    """A change between deadlines (leave, kick, end): save it and say what the public may know."""
    assert game_row.id is not None
    game_row.state = dumps(game.encode_state(resolution.state))
    tx.save(game_row)
    names = _names(tx, game_row.id)
    lines = [headline, *game.public_report(resolution.events, _plain_names(names))]
    result = result_text(game, resolution.state, names)
    if result:
        lines.append(result)
    reply(tx, game_row.id, cause, " ".join(lines), public=True)
    if game.outcome(resolution.state) is None:
        return
    if game_row.phase == "battle":
        # The replay ends on the game's final state (stored on the game row).
        _finish(tx, game, game_row, max(0, game_row.turn - 1), resolution.state, names, now)
    else:
        game_row.phase = "finished"
        game_row.deadline = None
        game_row.finished_at = now
        tx.save(game_row)
