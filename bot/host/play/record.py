"""A game's record (``KIND-record/1``, shared/contracts), for ``bst script --record``
and ``bst export``: the game writes it (``game.codec.record``) from its state now and its
stored history; the host gives it the names, the phase and the pending deadlines."""

from __future__ import annotations

from typing import Any

from bot.games.base import GamePhase, RecordContext, Step
from bot.games.catalog import get_game
from bot.host.play import journal, receipts
from bot.host.play.lifecycle import timer_entries
from bot.host.play.seeds import LUCK_PROCEDURE, commitment
from bot.store import Store, loads, records
from bot.store.seats import seat_changes


class RecordError(Exception):
    pass


_iso = journal.moment_text


def _cause(stored: str) -> tuple[str, str]:
    """(cause, timer) of a stored step: ``timer:turn:3`` → (``timer``, ``turn:3``)."""
    cause, _, timer = stored.partition(":")
    return cause, timer


def game_record(store: Store, game_id: int) -> dict[str, Any]:
    with store.transaction() as tx:
        game_row = tx.game(game_id)
        if game_row is None:
            raise RecordError(f"no game {game_id}")
        players = tx.players(game_id)
        turns = tx.turns(game_id)
        entries = timer_entries(game_row)
        standing = {
            n: list(tx.standing_orders(game_id, n).values()) for n in {t.number for t in turns}
        }
        handed = seat_changes(tx, game_id)
        calls = tx.journal(game_id)
    game = get_game(game_row.kind)
    state = game.codec.decode_state(loads(game_row.state))
    history = [
        Step(
            turn=turn.number,
            orders=tuple(loads(turn.orders)),
            events=tuple(loads(turn.events)),
            cause=_cause(turn.cause)[0],
            timer=_cause(turn.cause)[1],
            at=_iso(turn.resolved_at),
        )
        for turn in turns
    ]
    context = RecordContext(
        number=game_id,
        names={p.key: p.name for p in players},
        phase=game_row.phase,
        deadlines={e.key: _iso(e.deadline) for e in entries if e.deadline is not None},
        seed=loads(game_row.options).get("seed"),
    )
    record = game.codec.record(state, history, context)
    if handed:
        seat_names = {p.key: p.name for p in players}
        # Who played which turns (a field of its own: `players` and every order keep
        # naming the seat, so the record replays from its orders as before).
        record["substitutes"] = [
            {"seat": seat_names.get(c.player_key, c.player_key), "from_turn": c.turn,
             "player": c.to_name, "after": c.from_name}
            for c in handed
        ]  # fmt: skip
    if game_row.secret:
        record["luck"] = luck_section(game_row, players, standing)
    # A game that was running when the journal began (migration 0009) has only its end:
    # no replay rather than one that cannot be played.
    if calls and loads(calls[0]).get("do") == "new":
        record["replay"] = replay_section(game_row, calls, context)
    return record


def replay_section(
    game_row: records.Game, entries: list[str], context: RecordContext
) -> dict[str, Any]:
    """What makes the game again (README, "Fair play"): the journal of every call the
    host made to the rules (``bot.host.play.journal``); for a game without committed luck, the
    seed its draws came from (a game of luck draws from its ``luck`` section, which
    reveals the secret only at the end); the deadlines pending, which are the host's
    clock, not the rules'. A game from before the journal has none."""
    section: dict[str, Any] = {"format": journal.JOURNAL_FORMAT}
    if not game_row.secret:
        section["seed"] = game_row.seed
    section["deadlines"] = dict(context.deadlines)
    section["journal"] = [loads(entry) for entry in entries]
    return section


def luck_section(
    game_row: records.Game, players: list[records.Player], standing: dict[int, list[records.Order]]
) -> dict[str, Any]:
    """The committed luck of a game (README, "Fair play"): the commitment always; the
    secret, the join nonces, the mixed key, and each order that stood with its salt and
    receipt and each turn's root over them, only once the game is over."""
    section: dict[str, Any] = {
        "procedure": LUCK_PROCEDURE,
        "game": game_row.id,  # (a receipt commits to the game's number)
        "commitment": commitment(game_row.secret),
    }
    if game_row.phase == GamePhase.FINISHED:
        joined = sorted(players, key=lambda p: p.join_order)
        section["secret"] = game_row.secret
        section["nonces"] = [p.nonce for p in joined if p.nonce]
        section["key"] = game_row.luck
        section["receipts"] = [
            {
                "turn": row.turn,
                "player": row.player_key,
                "order": loads(row.order),
                "salt": receipts.salt_of(game_row.secret, row.inbound_id).hex(),
                "receipt": receipts.order_receipt(game_row.secret, game_row.id, row),
            }
            for turn in sorted(standing)
            for row in standing[turn]
        ]
        section["roots"] = {
            str(turn): receipts.merkle_root(
                receipts.order_receipt(game_row.secret, game_row.id, row) for row in rows
            )
            for turn, rows in sorted(standing.items())
            if rows
        }
    return section
