"""Sonar states and orders as JSON-ready dicts, for the host's store (and back).

A state is written with the options in their canonical text, every captain with each
sub as its course from turn 0 (``3 c20 ur``), its hits (segment and turn) and the turn
it sank, and the public logs of the last two turns; decoding gives an equal state.
Orders are written in the words of the record (``shoot`` with cells, ``random``,
``fleet`` with subs). The rules the states follow are ``shared/rules/sonar.md``.

This module is the game's ``codec`` part (:class:`bot.games.base.Codec`); its ``record``
is :func:`bot.games.sonar.record.build_record`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import OrderSyntaxError
from bot.games.sonar.board import parse_cell, parse_facing
from bot.games.sonar.encounters import Course
from bot.games.sonar.fleet import Hit, Submarine
from bot.games.sonar.options import parse_options
from bot.games.sonar.orders import AtRandom, Fleet, Order, Shots
from bot.games.sonar.record import build_record
from bot.games.sonar.state import (
    Action,
    Captain,
    Landing,
    Phase,
    ShotResult,
    SonarState,
    Status,
    TurnLog,
)

STATE_FORMAT = "sonar-state/1"


def encode_state(state: SonarState) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "options": state.options.text(),
        "phase": state.phase.value,
        "captains": [_captain(c) for c in state.captains],
        "ships": state.ships,
        "moves": state.moves,
        "to_move": state.to_move,
        "first": state.first,
        "recent": [_log(log) for log in state.recent],
        "winners": list(state.winners),
        "draw": state.draw,
    }


def decode_state(data: Mapping[str, Any]) -> SonarState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"not a {STATE_FORMAT} state: {data.get('format')!r}")
    return SonarState(
        options=parse_options(data["options"]),
        phase=Phase(data["phase"]),
        captains=tuple(_decode_captain(c) for c in data["captains"]),
        ships=data["ships"],
        moves=int(data["moves"]),
        to_move=data["to_move"],
        first=data["first"],
        recent=tuple(_decode_log(log) for log in data["recent"]),
        winners=tuple(data["winners"]),
        draw=bool(data["draw"]),
    )


def _course(course: Course) -> str:
    return f"{course.length} {course.bow} {course.facing.value}"


def _decode_course(text: str) -> Course:
    length, bow, facing = text.split()
    return Course(parse_cell(bow), parse_facing(facing), int(length))


def _captain(captain: Captain) -> dict[str, Any]:
    return {
        "id": captain.id,
        "name": captain.name,
        "status": captain.status.value,
        "fleet": [
            {
                "id": sub.id,
                "course": _course(sub.course),
                "hits": [[hit.segment, hit.turn] for hit in sub.hits],
                "sunk_turn": sub.sunk_turn,
            }
            for sub in captain.fleet
        ],
        "placed_at_random": captain.placed_at_random,
        # Only when non-zero: a state stored before the count existed decodes as 0.
        **({"overlap_refusals": captain.overlap_refusals} if captain.overlap_refusals else {}),
        # Only in setup (0 once the battle is on), so battle states are unchanged.
        **({"placed_seq": captain.placed_seq} if captain.placed_seq else {}),
        "leaving": captain.leaving,
        "left_turn": captain.left_turn,
    }


def _decode_captain(data: Mapping[str, Any]) -> Captain:
    return Captain(
        id=data["id"],
        name=data["name"],
        status=Status(data["status"]),
        fleet=tuple(
            Submarine(
                id=int(sub["id"]),
                course=_decode_course(sub["course"]),
                hits=tuple(Hit(int(segment), int(turn)) for segment, turn in sub["hits"]),
                sunk_turn=sub["sunk_turn"],
            )
            for sub in data["fleet"]
        ),
        placed_at_random=bool(data["placed_at_random"]),
        overlap_refusals=int(data.get("overlap_refusals", 0)),
        placed_seq=int(data.get("placed_seq", 0)),
        leaving=bool(data["leaving"]),
        left_turn=data["left_turn"],
    )


def _log(log: TurnLog) -> dict[str, Any]:
    return {
        "number": log.number,
        "player": log.player,
        "action": log.action.value,
        "landings": [
            {
                "cell": str(landing.cell),
                "result": landing.result.value,
                "distance": landing.distance,
                "owner": landing.owner,
                "sub": landing.sub,
            }
            for landing in log.landings
        ],
        "random": log.at_random,
        "timeout": log.timeout,
    }


def _decode_log(data: Mapping[str, Any]) -> TurnLog:
    return TurnLog(
        number=int(data["number"]),
        player=data["player"],
        action=Action(data["action"]),
        landings=tuple(
            Landing(
                parse_cell(landing["cell"]),
                ShotResult(landing["result"]),
                landing["distance"],
                landing["owner"],
                landing["sub"],
            )
            for landing in data["landings"]
        ),
        at_random=bool(data["random"]),
        timeout=bool(data["timeout"]),
    )


def encode_order(order: Order) -> dict[str, Any]:
    if isinstance(order, Shots):
        return {"action": "shoot", "cells": [str(cell) for cell in order.cells]}
    if isinstance(order, AtRandom):
        return {"action": "random"}
    return {"action": "fleet", "subs": [_course(sub) for sub in order.subs]}


def decode_order(data: Mapping[str, Any]) -> Order:
    action = data.get("action")
    try:
        if action == "shoot":
            return Shots(tuple(parse_cell(cell) for cell in data["cells"]))
        if action == "random":
            return AtRandom()
        if action == "fleet":
            return Fleet(tuple(_decode_course(sub) for sub in data["subs"]))
    except (KeyError, ValueError, TypeError) as error:
        raise OrderSyntaxError(f"not a sonar order record: {dict(data)!r}") from error
    raise OrderSyntaxError(f"not a sonar order record: {dict(data)!r}")


record = build_record
"""The game's whole record (``sonar-record/1``): the ``codec`` part's ``record``."""
