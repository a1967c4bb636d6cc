"""The record of a game of Silent Ships, ``silentships-record/1``
(``shared/contracts/silentships.md``), built from the state now and the stored steps.

The record shows names where the rules keep player ids. ``turns`` are player
turns: a ``reshuffled`` or ``drew`` event opens the next one (a turn begins with
its draw), so a step that ends a turn and begins the next one is split there;
its orders belong to the turn it was stored under. ``began`` is the moment of
the step that opened the turn, read from the step's ``at`` when the host gives
it (see the package's notes), else ``null``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.games.base import PlayerId, RecordContext, Step
from bot.games.silentships.cells import COLS, ISLANDS, ROWS
from bot.games.silentships.state import INVADED, Phase, SilentShipsState, TurnStep

RECORD_FORMAT = "silentships-record/1"

_PLAYER_KEYS = ("player", "attacker", "defender", "by")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def build_record(
    state: SilentShipsState, history: Sequence[Step], context: RecordContext
) -> dict[str, Any]:
    names: dict[PlayerId, str] = {admiral.id: admiral.name for admiral in state.admirals}
    names.update(context.names)

    def name(player: PlayerId | None) -> str | None:
        return None if player is None else names.get(player, player)

    battle = state.phase is Phase.BATTLE
    game = {
        "kind": "silentships",
        "cols": COLS,
        "rows": ROWS,
        "islands": [str(cell) for cell in ISLANDS],
        # ``seed`` is listed only when the game was given one (contracts/games.md).
        "options": state.options.text()
        | ({"seed": context.seed} if context.seed is not None else {}),
        "phase": state.phase.value,
        "turn": state.turn,
        "player": name(state.to_move),
        "step": state.step.value if battle and state.step is not None else None,
        "offer": name(state.offer),
        "deadline": _deadline(state, context.deadlines) if battle else None,
        "winners": [name(player) for player in state.winners],
        "draw": False,
    }
    players = [
        {
            "name": admiral.name,
            "status": admiral.status.value,
            "country": None if state.first is None else str(state.country(admiral.id)),
            "hand": [ship.value for ship in admiral.hand],
            "deck": [ship.value for ship in admiral.deck],
            "discards": [ship.value for ship in admiral.discards],
            "units": [
                {"cell": str(unit.cell), "ship": unit.ship.value, "face_up": unit.face_up}
                for unit in state.units_of(admiral.id)
            ],
            "sank": [ship.value for ship in admiral.sank],
        }
        for admiral in state.admirals
    ]
    start: dict[str, Any] = {}
    if state.first is not None:
        start = {
            "first": name(state.first),
            "decks": {name(player): [ship.value for ship in deck] for player, deck in state.dealt},
        }
    return {
        "format": RECORD_FORMAT,
        "game": game,
        "players": players,
        "start": start,
        "turns": turns_of(history, names),
    }


def _deadline(state: SilentShipsState, deadlines: Mapping[str, str]) -> str | None:
    """The pending deadline: the defender's answer in step ``response``, else the move time."""
    if state.step is TurnStep.RESPONSE and state.attack is not None:
        key = f"response:{state.attack.number}"
    else:
        key = f"move:{state.turn}"
    if key in deadlines:
        return deadlines[key]
    return min(deadlines.values(), default=None)


def turns_of(history: Sequence[Step], names: Mapping[PlayerId, str]) -> list[dict[str, Any]]:
    """Every turn begun, in order, with its orders and events (names, not ids)."""
    turns: list[dict[str, Any]] = []
    for step in history:
        at = moment(step)
        home = next((t for t in reversed(turns) if t["number"] == step.turn), None)
        if home is None and turns:
            home = turns[-1]
        if home is not None:
            home["orders"].extend(named(order, names) for order in step.orders)
        previous = ""
        for event in step.events:
            kind = event.get("type")
            if kind == INVADED:  # told in words at the turn's start; not in the contract
                continue
            opens = kind == "reshuffled" or (kind == "drew" and previous != "reshuffled")
            if opens:
                number = turns[-1]["number"] + 1 if turns else 1
                player = event.get("player", "")
                turns.append(
                    {
                        "number": number,
                        "player": names.get(player, player),
                        "began": at,
                        "orders": [],
                        "events": [],
                    }
                )
            if turns:
                turns[-1]["events"].append(named(event, names))
            previous = str(kind)
    return turns


def moment(step: Step) -> str | None:
    """When the step happened, if the host stored it (``at``: ISO text or epoch seconds)."""
    at = getattr(step, "at", None)
    if isinstance(at, int | float):
        return (_EPOCH + timedelta(seconds=at)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return at if isinstance(at, str) else None


def named(entry: Mapping[str, Any], names: Mapping[PlayerId, str]) -> dict[str, Any]:
    """An event or order entry with player ids replaced by names."""
    result: dict[str, Any] = {}
    for key, value in entry.items():
        if key in _PLAYER_KEYS and isinstance(value, str):
            result[key] = names.get(value, value)
        elif key == "winners" and isinstance(value, list):
            result[key] = [names.get(player, player) for player in value]
        elif key == "sank" and isinstance(value, Mapping):
            result[key] = {names.get(player, player): count for player, count in value.items()}
        else:
            result[key] = value
    return result
