"""Small helpers for the bst rules tests: games built from the text players type."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.games.base import Channel, Given, PlayerRef, Resolution
from bot.games.bst import BST, BstState, Order, Shoot
from bot.games.bst.cells import cells_text


def pid(name: str) -> str:
    """Player ids deliberately differ from names: the rules must never confuse them."""
    return f"id-{name}"


def new(size: str = "10x10", **options: str) -> BstState:
    return BST.rules.new_game({"size": size, **options})


def join(state: BstState, *names: str) -> BstState:
    for name in names:
        state = BST.rules.join(state, PlayerRef(pid(name), name))
    return state


def place(state: BstState, name: str, text: str, seed: int = 0) -> BstState:
    order = BST.rules.parse(text)
    return BST.rules.accept(state, pid(name), order, Channel.PRIVATE, random.Random(seed)).state


def setup(
    fleets: Mapping[str, str], size: str = "10x10", seed: int = 0, **options: str
) -> BstState:
    """Join and place everyone in the given order, then start the battle."""
    state = new(size, **options)
    for name, text in fleets.items():
        state = join(state, name)
        if text:
            state = place(state, name, text)
    return BST.rules.start(state, random.Random(seed)).state


def as_given(orders: Mapping[str, Order], start: int = 1) -> list[Given[Order]]:
    """Orders as the host hands them to ``resolve``: in the mapping's order, numbered
    from ``start`` as they arrived, one second apart."""
    return [
        Given(player, order, sent_at=1_000.0 + number, sequence=number)
        for number, (player, order) in enumerate(orders.items(), start=start)
    ]


def orders_of(state: BstState, texts: Mapping[str, str]) -> dict[str, Order]:
    """Parse and accept each order on the channel it belongs to."""
    orders = {}
    for name, text in texts.items():
        order = BST.rules.parse(text)
        channel = Channel.PUBLIC if isinstance(order, Shoot) else Channel.PRIVATE
        accepted = BST.rules.accept(state, pid(name), order, channel, random.Random(0))
        assert accepted.standing is not None
        orders[pid(name)] = accepted.standing
    return orders


def turn(state: BstState, texts: Mapping[str, str], seed: int = 0) -> Resolution[BstState]:
    return BST.rules.resolve(state, as_given(orders_of(state, texts)), random.Random(seed))


def records(resolution: Resolution[BstState]) -> list[dict[str, Any]]:
    return [event.record() for event in resolution.events]


def fleet(state: BstState, name: str) -> list[tuple[str, list[str], list[str]]]:
    """(kind, cells, damaged cells) of each ship of a captain."""
    captain = state.captain(pid(name))
    assert captain is not None
    return [
        (ship.kind.value, cells_text(ship.cells), cells_text(ship.damaged_cells))
        for ship in captain.ships
    ]


def ev(kind: str, name: str, ship: str, cells: str) -> dict[str, Any]:
    return {"type": kind, "player": pid(name), "ship": ship, "cells": cells.split()}
