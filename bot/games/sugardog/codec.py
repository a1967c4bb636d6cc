"""Sugar Dog's states and orders as JSON-ready dicts, for the host's store
(the values of shared/rules/sugardog.md, written as shared/contracts/sugardog.md writes them).

Cells, directions and orders are written as players and records write them
(``C4``, ``up``, ``{"action": "cruise", "directions": ["up", "left"]}``), so a
stored game reads like its record; events are kept exactly as the record's
entries with player ids. ``decode_*`` is the exact inverse of ``encode_*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import Event
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell, parse_cell
from bot.games.sugardog.options import MAXIMUM_PLAYERS, SugarDogOptions
from bot.games.sugardog.orders import (
    Leave,
    Order,
    Played,
    ShowLog,
    StartingCell,
    order_record,
    played_of_record,
)
from bot.games.sugardog.record import build_record
from bot.games.sugardog.state import (
    Captain,
    Phase,
    Status,
    SugarDogState,
    Torpedo,
    TurnEntry,
)

STATE_FORMAT = "sugardog-state/1"

record = build_record
"""The Codec part (``bot/games/base.py``) is this module; the record is ``record.py``'s."""


def _cell(cell: Cell | None) -> str | None:
    return None if cell is None else str(cell)


def _read_cell(text: Any) -> Cell | None:
    return None if text is None else parse_cell(str(text))


def encode_order(order: Order | Leave) -> dict[str, Any]:
    """An order without its player (``{"action": "silent", "direction": "up"}``)."""
    if isinstance(order, StartingCell):
        return {"action": "cell", "cell": str(order.cell)}
    if isinstance(order, ShowLog):
        return {"action": "log"}
    entry = order_record(order, "")
    del entry["player"]
    entry.pop("timeout", None)
    return entry


def decode_order(data: Mapping[str, Any]) -> Order:
    """Inverse of :func:`encode_order` for an order a player gave (``leave`` is the host's
    word, never a stored Sugar Dog order)."""
    action = data.get("action")
    if action == "cell":
        return StartingCell(parse_cell(str(data["cell"])))
    if action == "log":
        return ShowLog()
    played, _ = played_of_record(data)
    if isinstance(played, Leave):
        raise ValueError("`leave` is the host's word, not a stored Sugar Dog order")
    return played


def _encode_played(order: Played | None) -> dict[str, Any] | None:
    return None if order is None else encode_order(order)


def _decode_played(data: Mapping[str, Any] | None) -> Played | None:
    if data is None:
        return None
    played, _ = played_of_record(data)
    return played


def _encode_captain(captain: Captain) -> dict[str, Any]:
    return {
        "id": captain.id,
        "name": captain.name,
        "status": captain.status.value,
        "start_cell": _cell(captain.start_cell),
        "random_start": captain.random_start,
        "cell": _cell(captain.cell),
        "silent": captain.silent,
        "mines_left": captain.mines_left,
        "mines": [str(cell) for cell in captain.mines],
        "torpedoes": [
            {"torpedo": t.number, "cell": str(t.cell), "direction": t.direction.value}
            for t in captain.torpedoes
        ],
        "launched": captain.launched,
    }


def _decode_captain(data: Mapping[str, Any]) -> Captain:
    return Captain(
        id=str(data["id"]),
        name=str(data["name"]),
        status=Status(data["status"]),
        start_cell=_read_cell(data["start_cell"]),
        random_start=bool(data["random_start"]),
        cell=_read_cell(data["cell"]),
        silent=bool(data["silent"]),
        mines_left=int(data["mines_left"]),
        mines=tuple(parse_cell(text) for text in data["mines"]),
        torpedoes=tuple(
            Torpedo(int(t["torpedo"]), parse_cell(t["cell"]), Direction(t["direction"]))
            for t in data["torpedoes"]
        ),
        launched=int(data["launched"]),
    )


def _encode_entry(entry: TurnEntry) -> dict[str, Any]:
    return {
        "number": entry.number,
        "mover": entry.mover,
        "player": entry.player,
        "order": _encode_played(entry.order),
        "timeout": entry.timeout,
        "events": [event.record() for event in entry.events],
        "cell_after": _cell(entry.cell_after),
        "mines_left_after": entry.mines_left_after,
    }


def _decode_event(data: Mapping[str, Any]) -> Event:
    rest = {key: value for key, value in data.items() if key != "type"}
    return Event(str(data["type"]), rest)


def _decode_entry(data: Mapping[str, Any]) -> TurnEntry:
    return TurnEntry(
        number=int(data["number"]),
        mover=str(data["mover"]),
        player=str(data["player"]),
        order=_decode_played(data["order"]),
        timeout=bool(data["timeout"]),
        events=tuple(_decode_event(event) for event in data["events"]),
        cell_after=_read_cell(data["cell_after"]),
        mines_left_after=int(data["mines_left_after"]),
    )


def encode_state(state: SugarDogState) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "options": {
            "move_time": state.options.move_time,
            "seed": state.options.seed,
            "max_players": state.options.max_players,
        },
        "phase": state.phase.value,
        "captains": [_encode_captain(c) for c in state.captains],
        "order": list(state.order),
        "size": state.size,
        "turn": state.turn,
        "current": state.current,
        "winners": list(state.winners),
        "draw": state.draw,
        "history": [_encode_entry(entry) for entry in state.history],
    }


def decode_state(data: Mapping[str, Any]) -> SugarDogState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"not a Sugar Dog state: format {data.get('format')!r}")
    options = data["options"]
    seed = options.get("seed")
    return SugarDogState(
        options=SugarDogOptions(
            move_time=int(options["move_time"]),
            seed=None if seed is None else str(seed),
            # (States stored before it was kept have the default.)
            max_players=int(options.get("max_players", MAXIMUM_PLAYERS)),
        ),
        phase=Phase(data["phase"]),
        captains=tuple(_decode_captain(c) for c in data["captains"]),
        order=tuple(str(p) for p in data["order"]),
        size=int(data["size"]),
        turn=int(data["turn"]),
        current=None if data["current"] is None else str(data["current"]),
        winners=tuple(str(p) for p in data["winners"]),
        draw=bool(data["draw"]),
        history=tuple(_decode_entry(entry) for entry in data["history"]),
    )
