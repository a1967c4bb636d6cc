"""The JSON forms of a Silent Ships state and order, as the host stores them.

A state is written with ships by id, cells canonical and enums by value, so
that ``decode_state(encode_state(state)) == state``; an order is its record
entry without ``player`` (``{"action": "move", "from": "D1", "to": "D2",
"discard": "patrol_ship"}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from bot.games.silentships.cells import Cell, parse_cell
from bot.games.silentships.options import FirstPlayer, SilentShipsOptions
from bot.games.silentships.orders import Order, order_entry, order_from_entry
from bot.games.silentships.record import build_record
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import (
    Admiral,
    Attack,
    Combat,
    Fighter,
    Phase,
    Reason,
    Side,
    SilentShipsState,
    Status,
    Supporter,
    TurnStep,
    Unit,
)

STATE_FORMAT = "silentships-state/1"


record = build_record
"""The Codec part (``bot/games/base.py``) is this module; the record is ``record.py``'s."""


def _ships(ships: tuple[Ship, ...]) -> list[str]:
    return [ship.value for ship in ships]


def _read_ships(data: Any) -> tuple[Ship, ...]:
    return tuple(Ship(value) for value in data)


def _deck(deck: tuple[Ship, ...] | None) -> list[str] | None:
    return None if deck is None else _ships(deck)


def _read_deck(data: Any) -> tuple[Ship, ...] | None:
    return None if data is None else _read_ships(data)


def _cells(cells: tuple[Cell, ...]) -> list[str]:
    return [str(cell) for cell in cells]


def encode_state(state: SilentShipsState) -> dict[str, Any]:
    options = state.options
    attack = state.attack
    return {
        "format": STATE_FORMAT,
        "options": {
            "move_time": options.move_time.total_seconds(),
            "response_time": options.response_time.total_seconds(),
            "max_turns": options.max_turns,
            "first": options.first.value,
            "deck1": _deck(options.deck1),
            "deck2": _deck(options.deck2),
        },
        "admirals": [
            {
                "id": admiral.id,
                "name": admiral.name,
                "status": admiral.status.value,
                "hand": _ships(admiral.hand),
                "deck": _ships(admiral.deck),
                "discards": _ships(admiral.discards),
                "sank": _ships(admiral.sank),
            }
            for admiral in state.admirals
        ],
        "units": [
            {
                "owner": unit.owner,
                "ship": unit.ship.value,
                "cell": str(unit.cell),
                "face_up": unit.face_up,
            }
            for unit in state.units
        ],
        "phase": state.phase.value,
        "turn": state.turn,
        "first": state.first,
        "dealt": [[player, _ships(deck)] for player, deck in state.dealt],
        "step": None if state.step is None else state.step.value,
        "attack": None
        if attack is None
        else {
            "number": attack.number,
            "attacker": attack.attacker,
            "defender": attack.defender,
            "origin": str(attack.origin),
            "target": str(attack.target),
            "supports": [
                {
                    "side": support.side.value,
                    "cell": str(support.cell),
                    "discard": None if support.discard is None else support.discard.value,
                }
                for support in attack.supports
            ],
            "retreat_squares": _cells(attack.retreat_squares),
        },
        "attacks": state.attacks,
        "offer": state.offer,
        "out_of_time": state.out_of_time,
        "winners": list(state.winners),
        "reason": None if state.reason is None else state.reason.value,
        "combat": _combat(state.combat),
        # Kept only while it says something, so the states of turns without a warning
        # read as they always did.
        **({"end_warned": state.end_warned} if state.end_warned else {}),
        **({"held": list(state.held)} if state.held else {}),
    }


def _combat(combat: Combat | None) -> dict[str, Any] | None:
    if combat is None:
        return None
    return {
        "attacker": combat.attacker,
        "defender": combat.defender,
        "origin": str(combat.origin),
        "target": str(combat.target),
        "fighters": [
            {
                "side": f.side.value,
                "owner": f.owner,
                "cell": str(f.cell),
                "ship": f.ship.value,
                "value": f.value,
            }
            for f in combat.fighters
        ],
        "attack": combat.attack,
        "defence": combat.defence,
        "winner": combat.winner.value,
        "sunk": combat.sunk,
    }


def _read_combat(data: Mapping[str, Any] | None) -> Combat | None:
    if data is None:
        return None
    return Combat(
        attacker=data["attacker"],
        defender=data["defender"],
        origin=parse_cell(data["origin"]),
        target=parse_cell(data["target"]),
        fighters=tuple(
            Fighter(Side(f["side"]), f["owner"], parse_cell(f["cell"]), Ship(f["ship"]), f["value"])
            for f in data["fighters"]
        ),
        attack=data["attack"],
        defence=data["defence"],
        winner=Side(data["winner"]),
        sunk=data["sunk"],
    )


def decode_state(data: Mapping[str, Any]) -> SilentShipsState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"not a {STATE_FORMAT} state: {data.get('format')!r}")
    raw = data["options"]
    options = SilentShipsOptions(
        move_time=timedelta(seconds=raw["move_time"]),
        response_time=timedelta(seconds=raw["response_time"]),
        max_turns=raw["max_turns"],
        first=FirstPlayer(raw["first"]),
        deck1=_read_deck(raw["deck1"]),
        deck2=_read_deck(raw["deck2"]),
    )
    attack = data["attack"]
    return SilentShipsState(
        options=options,
        admirals=tuple(
            Admiral(
                id=a["id"],
                name=a["name"],
                status=Status(a["status"]),
                hand=_read_ships(a["hand"]),
                deck=_read_ships(a["deck"]),
                discards=_read_ships(a["discards"]),
                sank=_read_ships(a["sank"]),
            )
            for a in data["admirals"]
        ),
        units=tuple(
            Unit(u["owner"], Ship(u["ship"]), parse_cell(u["cell"]), u["face_up"])
            for u in data["units"]
        ),
        phase=Phase(data["phase"]),
        turn=data["turn"],
        first=data["first"],
        dealt=tuple((player, _read_ships(deck)) for player, deck in data["dealt"]),
        step=None if data["step"] is None else TurnStep(data["step"]),
        attack=None
        if attack is None
        else Attack(
            number=attack["number"],
            attacker=attack["attacker"],
            defender=attack["defender"],
            origin=parse_cell(attack["origin"]),
            target=parse_cell(attack["target"]),
            supports=tuple(
                Supporter(
                    Side(s["side"]),
                    parse_cell(s["cell"]),
                    None if s["discard"] is None else Ship(s["discard"]),
                )
                for s in attack["supports"]
            ),
            retreat_squares=tuple(parse_cell(cell) for cell in attack["retreat_squares"]),
        ),
        attacks=data["attacks"],
        offer=data["offer"],
        out_of_time=data["out_of_time"],
        winners=tuple(data["winners"]),
        reason=None if data["reason"] is None else Reason(data["reason"]),
        # (states stored before combats were kept have no "combat")
        combat=_read_combat(data.get("combat")),
        end_warned=int(data.get("end_warned", 0)),
        held=tuple(data.get("held", ())),
    )


def encode_order(order: Order) -> dict[str, Any]:
    return order_entry(order)


def decode_order(data: Mapping[str, Any]) -> Order:
    return order_from_entry(dict(data))
