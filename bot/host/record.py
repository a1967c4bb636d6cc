"""The game record (``bst-record/1``), exactly as shared/contracts/script-and-record.md
defines it: for ``bst script --record`` and ``bst export``."""

from __future__ import annotations

from typing import Any

from bot.games.base import get_game
from bot.store import Store, loads

FORMAT = "bst-record/1"


class RecordError(Exception):
    pass


def _named(value: Any, names: dict[str, str]) -> Any:
    return names.get(value, value) if isinstance(value, str) else value


def _event(record: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    out = dict(record)
    if "player" in out:
        out["player"] = _named(out["player"], names)
    if "winners" in out:
        out["winners"] = [_named(w, names) for w in out["winners"]]
    return out


def game_record(store: Store, game_id: int) -> dict[str, Any]:
    with store.transaction() as tx:
        game_row = tx.game(game_id)
        if game_row is None:
            raise RecordError(f"no game {game_id}")
        players = tx.players(game_id)
        turns = tx.turns(game_id)
    game = get_game(game_row.kind)
    state = game.decode_state(loads(game_row.state))
    names = {p.key: p.name for p in players}
    outcome = game.outcome(state)
    resolved = [t for t in turns if t.number >= 1]
    if game_row.phase == "finished":
        turn_number = max((t.number for t in resolved), default=0)
    else:
        turn_number = game_row.turn
    record_turns = []
    for turn in resolved:
        orders = [
            {
                **{k: v for k, v in order.items() if k != "player"},
                "player": names.get(order["player"], order["player"]),
            }
            for order in loads(turn.orders)
        ]
        orders = [
            {"player": o["player"], **{k: v for k, v in o.items() if k != "player"}} for o in orders
        ]
        orders.sort(key=lambda o: o["player"])
        record_turns.append(
            {
                "number": turn.number,
                "orders": orders,
                "events": [_event(e, names) for e in loads(turn.events)],
            }
        )
    return {
        "format": FORMAT,
        "game": {
            "id": game_row.id,
            "kind": game_row.kind,
            **game.record_board(state),
            "options": game.options(state),
            "phase": game_row.phase,
            "turn": turn_number,
            "winners": [names.get(w, w) for w in outcome.winners] if outcome else [],
            "draw": bool(outcome and outcome.draw),
        },
        "players": game.record_players(state),
        "turns": record_turns,
    }
