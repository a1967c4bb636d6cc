"""The record of a U-Boat Shootout game, ``uboat-record/1`` (``shared/contracts/uboat.md``).

Built from the state now and the stored history. ``game`` has the board, the
islands with their owners now, every option in canonical text, the phase, the
round in progress (the last one resolved once finished), the winners by name and
the draw flag. ``players`` in join order with their colour, crew, status and their
own boat now; ``start.boats`` in colour order (empty in setup). ``turns`` has one
entry per resolved round: the evade window's steps and the round's own steps are
merged (a window closed in the round in progress shows only in ``players``);
orders per boat in colour order (its evasion first), then crew choices by name;
events in resolution order. Player ids become names here. Rules in
``shared/rules/uboat.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import PlayerId, RecordContext, Step
from bot.games.uboat.state import Phase, UboatState
from bot.games.uboat.values import FULL_HEALTH, Colour

RECORD_FORMAT = "uboat-record/1"


def build_record(
    state: UboatState, history: Sequence[Step], context: RecordContext
) -> dict[str, Any]:
    names = {p.id: p.name for p in state.players} | dict(context.names)
    ending = state.ending
    winners = _names(names, ending.winners) if ending else []
    return {
        "format": RECORD_FORMAT,
        "game": {
            "kind": "uboat",
            "size": state.options.size,
            "islands": [
                {
                    "number": island.number,
                    "cell": str(island.cell),
                    "owner": owner.value if owner else None,
                }
                for island, owner in zip(state.options.islands, state.owners, strict=True)
            ],
            # ``seed`` is listed only when the game was given one (contract, "Options").
            "options": state.options.text()
            | ({"seed": context.seed} if context.seed is not None else {}),
            "phase": state.phase.value,
            "turn": state.turn,
            "winners": sorted(winners),
            "draw": ending.draw if ending else False,
        },
        "players": [_player(state, p.id) for p in state.players],
        "start": {
            "boats": [
                {
                    "colour": boat.colour.value,
                    "captain": names.get(boat.captain, boat.captain),
                    "cell": str(boat.start),
                    "random": boat.placed_at_random,
                }
                for boat in state.boats
            ]
        },
        "turns": _turns(state, history, names),
    }


def _player(state: UboatState, player_id: PlayerId) -> dict[str, Any]:
    player = state.player(player_id)
    assert player is not None
    boat = state.boat(player.colour) if player.colour else None
    if boat is None:  # setup (or a player who left before the start)
        return {
            "name": player.name,
            "status": player.status.value,
            "colour": player.colour.value if player.colour else None,
            "crew": player.crew.value if player.crew else None,
            "health": FULL_HEALTH if not player.left else 0,
            "cell": str(player.start) if player.start else None,
            "afloat": not player.left,
            "islands": [],
        }
    return {
        "name": player.name,
        "status": player.status.value,
        "colour": boat.colour.value,
        "crew": player.crew.value if player.crew else None,
        "health": boat.health,
        "cell": str(boat.cell),
        "afloat": boat.afloat,
        "islands": [island.number for island in state.islands_of(boat.colour)],
    }


def _names(names: Mapping[PlayerId, str], players: Sequence[PlayerId]) -> list[str]:
    return [names.get(player, player) for player in players]


def _resolved_rounds(state: UboatState) -> int:
    if state.phase is Phase.SETUP:
        return 0
    if state.phase is Phase.FINISHED:
        return state.turn
    return state.turn - 1


def _turns(
    state: UboatState, history: Sequence[Step], names: Mapping[PlayerId, str]
) -> list[dict[str, Any]]:
    last = _resolved_rounds(state)
    turns: list[dict[str, Any]] = []
    for number in range(1, last + 1):
        steps = [step for step in history if step.turn == number]
        orders = [_named_order(order, names) for step in steps for order in step.orders]
        events = [_named_event(event, names) for step in steps for event in step.events]
        turns.append(
            {
                "number": number,
                "orders": sorted(orders, key=_order_key),
                "events": events,
            }
        )
    return turns


def _order_key(order: Mapping[str, Any]) -> tuple[int, int, int, str]:
    """Boats in colour order, each evasion before its round order; then crew choices by name."""
    boat = order.get("boat")
    if boat is not None:
        return (0, Colour(boat).index, 0 if order.get("action") == "evade" else 1, "")
    return (1, 0, 0, str(order.get("player", "")))


def _named_order(order: Mapping[str, Any], names: Mapping[PlayerId, str]) -> dict[str, Any]:
    named = dict(order)
    if "player" in named:
        named["player"] = names.get(named["player"], named["player"])
    return named


def _named_event(event: Mapping[str, Any], names: Mapping[PlayerId, str]) -> dict[str, Any]:
    named = dict(event)
    if "player" in named:
        named["player"] = names.get(named["player"], named["player"])
    if "winners" in named:
        named["winners"] = sorted(names.get(p, p) for p in named["winners"])
    if "marks" in named:
        named["marks"] = sorted(names.get(p, p) for p in named["marks"])
    if named.get("first_duelist") is not None:
        named["first_duelist"] = names.get(named["first_duelist"], named["first_duelist"])
    return named
