"""JSON-ready forms of U-Boat Shootout's state and orders (``uboat-state/1``).

The state keeps everything the rules and the record need: the options (as their
canonical texts), every player and boat, the islands' owners, the evade window,
what each crew said this round, the last round's events and how the game ended.
Orders are stored as the record writes them (``{"action": "fire", "cell": "E6"}``),
without the sender. ``decode(encode(x)) == x`` for both. Rules in
``shared/rules/uboat.md``.

This module is the game's ``codec`` part (:class:`bot.games.base.Codec`); its ``record``
is :func:`bot.games.uboat.record.build_record`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import OrderSyntaxError
from bot.games.grid import Direction
from bot.games.uboat.cells import Cell, Route, parse_cell
from bot.games.uboat.options import parse_options
from bot.games.uboat.orders import Evade, Fire, Hold, JoinCrew, Move, Order, Ram, StartAt
from bot.games.uboat.record import build_record
from bot.games.uboat.state import Boat, Ending, Phase, Player, Said, UboatState
from bot.games.uboat.values import Colour

STATE_FORMAT = "uboat-state/1"


def encode_order(order: Order) -> dict[str, Any]:
    if isinstance(order, StartAt):
        return {"action": "start", "cell": str(order.cell)}
    if isinstance(order, Fire):
        return {"action": "fire", "cell": str(order.cell)}
    if isinstance(order, Move | Ram | Evade):
        action = "move" if isinstance(order, Move) else "ram" if isinstance(order, Ram) else "evade"
        return {"action": action, "route": [step.value for step in order.route]}
    if isinstance(order, JoinCrew):
        return {"action": "crew", "crew": order.boat.value}
    return {"action": "hold"}


def decode_order(data: Mapping[str, Any]) -> Order:
    try:
        action = data["action"]
        if action == "start":
            return StartAt(parse_cell(data["cell"]))
        if action == "fire":
            return Fire(parse_cell(data["cell"]))
        if action in ("move", "ram", "evade"):
            route: Route = tuple(Direction(step) for step in data["route"])
            return (
                Move(route) if action == "move" else Ram(route) if action == "ram" else Evade(route)
            )
        if action == "crew":
            return JoinCrew(Colour(data["crew"]))
        if action == "hold":
            return Hold()
    except (KeyError, ValueError, TypeError, OrderSyntaxError) as error:
        raise OrderSyntaxError(f"not a uboat order record: {dict(data)!r}") from error
    raise OrderSyntaxError(f"not a uboat order record: {dict(data)!r}")


def _cell(text: str | None) -> Cell | None:
    return None if text is None else parse_cell(text)


def _colour(text: str | None) -> Colour | None:
    return None if text is None else Colour(text)


def encode_state(state: UboatState) -> dict[str, Any]:
    ending = state.ending
    return {
        "format": STATE_FORMAT,
        "options": state.options.text(),
        "phase": state.phase.value,
        "turn": state.turn,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "colour": p.colour.value if p.colour else None,
                "crew": p.crew.value if p.crew else None,
                "left": p.left,
                "start": str(p.start) if p.start else None,
            }
            for p in state.players
        ],
        "boats": [
            {
                "colour": b.colour.value,
                "captain": b.captain,
                "start": str(b.start),
                "random": b.placed_at_random,
                "cell": str(b.cell),
                "health": b.health,
                "fired_in_a_row": b.fired_in_a_row,
            }
            for b in state.boats
        ],
        "owners": [owner.value if owner else None for owner in state.owners],
        "evaders": sorted(colour.value for colour in state.evaders),
        "window_open": state.window_open,
        "withdrawn": sorted([player, sequence] for player, sequence in state.withdrawn),
        "said": [{"player": s.player, "order": encode_order(s.order)} for s in state.said],
        "crew_choices": [[player, colour.value] for player, colour in state.crew_choices],
        "joins": [[player, colour.value] for player, colour in state.joins],
        "last_round": [dict(event) for event in state.last_round],
        "this_window": [dict(event) for event in state.this_window],
        "ending": None
        if ending is None
        else {
            "winners": list(ending.winners),
            "draw": ending.draw,
            "boats": [colour.value for colour in ending.boats],
            "scores": [[colour.value, total] for colour, total in ending.scores],
            "marks": list(ending.marks),
            "first_duelist": ending.first_duelist,
        },
    }


def decode_state(data: Mapping[str, Any]) -> UboatState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"not a {STATE_FORMAT} state: {data.get('format')!r}")
    ending = data.get("ending")
    said = []
    for entry in data.get("said", ()):
        order = decode_order(entry["order"])
        assert isinstance(order, Fire | Move | Ram | Hold | Evade)
        said.append(Said(entry["player"], order))
    return UboatState(
        options=parse_options(data["options"]),
        phase=Phase(data["phase"]),
        turn=int(data["turn"]),
        players=tuple(
            Player(
                id=p["id"],
                name=p["name"],
                colour=_colour(p["colour"]),
                crew=_colour(p["crew"]),
                left=bool(p["left"]),
                start=_cell(p["start"]),
            )
            for p in data["players"]
        ),
        boats=tuple(
            Boat(
                colour=Colour(b["colour"]),
                captain=b["captain"],
                start=parse_cell(b["start"]),
                placed_at_random=bool(b["random"]),
                cell=parse_cell(b["cell"]),
                health=int(b["health"]),
                fired_in_a_row=int(b["fired_in_a_row"]),
            )
            for b in data["boats"]
        ),
        owners=tuple(_colour(owner) for owner in data["owners"]),
        evaders=frozenset(Colour(colour) for colour in data["evaders"]),
        window_open=bool(data["window_open"]),
        withdrawn=frozenset((str(player), int(sequence)) for player, sequence in data["withdrawn"]),
        said=tuple(said),
        crew_choices=tuple(
            (str(player), Colour(colour)) for player, colour in data["crew_choices"]
        ),
        # States stored before the awards have no joins: their First Duelist is the captain.
        joins=tuple((str(player), Colour(colour)) for player, colour in data.get("joins", ())),
        last_round=tuple(data.get("last_round", ())),
        this_window=tuple(data.get("this_window", ())),
        ending=None
        if ending is None
        else Ending(
            winners=tuple(ending["winners"]),
            draw=bool(ending["draw"]),
            boats=tuple(Colour(colour) for colour in ending["boats"]),
            scores=tuple((Colour(colour), int(total)) for colour, total in ending["scores"]),
            marks=tuple(ending.get("marks", ())),
            first_duelist=ending.get("first_duelist"),
        ),
    )


record = build_record
"""The game's whole record (``uboat-record/1``): the ``codec`` part's ``record``."""
