"""Which orders U-Boat Shootout takes, and what each answer says (``shared/rules/uboat.md``
§2, §3 and §5).

Every order goes by DM. In setup a player sends a secret starting cell (the latest
stands); in the hunt each crew member may send the round's order and, while their
damaged boat's evade window is open, an evasion: the captain's stands over the crew's,
and the crew hears what now stands. A player whose boat was sunk chooses a crew to join.
A blast that will hit the shooter's own boat is legal, and said with the answer.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.base import (
    Accepted,
    Channel,
    IllegalOrderError,
    Notice,
    PlayerId,
    WrongChannelError,
)
from bot.games.uboat.legality import off_board, problem
from bot.games.uboat.orders import Evade, Fire, JoinCrew, Order, StartAt, describe_order
from bot.games.uboat.state import Boat, Phase, Player, Said, UboatState


def accept(
    state: UboatState,
    player: PlayerId,
    order: Order,
    channel: Channel,
    rng: random.Random,
) -> Accepted[UboatState, Order]:
    if channel is Channel.PUBLIC:
        # Never echo the order: the message itself may already have given a cell away.
        raise WrongChannelError(
            "orders are secret: send them to me by DM (only `#uboat join` is public)"
        )
    found = state.player(player)
    if found is None:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over")
        raise IllegalOrderError("you are not in this game: send `join` to play")
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over: no more orders")
    if found.left:
        raise IllegalOrderError("you have left this game")
    if isinstance(order, StartAt):
        return _starting_cell(state, found, order)
    if state.phase is Phase.SETUP:
        raise IllegalOrderError(
            "the hunt has not started yet: for now send your secret starting cell, "
            f"e.g. `start {state.sea.example_cell()}`"
        )
    if isinstance(order, JoinCrew):
        return _crew_choice(state, found, order)
    boat = state.boat_of(player)
    if boat is None:
        afloat = ", ".join(b.colour.value for b in state.afloat)
        raise IllegalOrderError(
            "your U-boat was sunk, so you give no orders until you join a crew: "
            f"send `crew {state.afloat[0].colour.value}` (any of {afloat})"
        )
    if isinstance(order, Evade) and not (state.window_open and boat.colour in state.evaders):
        raise IllegalOrderError(
            f"no evade window is open for {boat.colour.title}: only a U-boat damaged in the "
            "last round may evade, until its window closes. Send `fire E6`, `move up`, "
            "`ram left` or `hold` instead"
        )
    reason = problem(state, boat, order)
    if reason is not None:
        raise IllegalOrderError(reason)
    assert not isinstance(order, StartAt | JoinCrew)
    said = tuple(
        s
        for s in state.said
        if not (s.player == player and isinstance(s.order, Evade) == isinstance(order, Evade))
    )
    new_state = replace(state, said=(*said, Said(player, order)))
    notices = (
        *_own_blast_warning(state, boat, player, order),
        *_crew_notices(new_state, boat, player, order),
    )
    return Accepted(new_state, order, notices)


def _crew_notices(
    state: UboatState, boat: Boat, player: PlayerId, order: Order
) -> tuple[Notice, ...]:
    """What the crew hears of an order. The sender's acknowledgement is the host's
    (``acknowledge``); the sender hears more only when the captain's order stands over
    theirs. Everyone else aboard hears what now stands."""
    crew = state.crew_of(boat.colour)
    evasion = isinstance(order, Evade)
    same_kind = [
        s
        for s in state.said
        if s.player in {p.id for p in crew} and isinstance(s.order, Evade) == evasion
    ]
    captains = [s for s in same_kind if s.player == boat.captain]
    stands = captains[0] if captains else same_kind[-1]
    names = {p.id: p.name for p in state.players}
    what = "evasion" if evasion else "order"
    head = f"Round {state.turn}, {boat.colour.title}"
    stood = f"captain {names.get(boat.captain, boat.captain)}'s `{describe_order(stands.order)}`"
    notices: list[Notice] = []
    if stands.player != player:
        notices.append(
            Notice(
                f"{head}: {stood} stands over yours: the captain's {what} comes first.",
                to=player,
            )
        )
    sender = names.get(player, player)
    if player == boat.captain:
        sender = f"captain {sender}"
    for member in crew:
        if member.id == player:
            continue
        if stands.player == player:
            text = f"{head}: {sender}'s {what} `{describe_order(order)}` now stands."
        else:
            text = f"{head}: {sender} sent `{describe_order(order)}`; {stood} stands."
        notices.append(Notice(text, to=member.id))
    return tuple(notices)


def _starting_cell(
    state: UboatState, player: Player, order: StartAt
) -> Accepted[UboatState, Order]:
    sea = state.sea
    if state.phase is not Phase.SETUP:
        raise IllegalOrderError("starting cells are sent in setup, and the hunt is on")
    outside = off_board(sea, order.cell)
    if outside:
        raise IllegalOrderError(f"{outside}: e.g. `start {sea.example_cell()}`")
    if order.cell in sea.islands:
        raise IllegalOrderError(
            f"{order.cell} is island {state.island_number[order.cell]}: start on water, "
            f"e.g. `start {sea.example_cell()}`"
        )
    new_state = state.with_player(replace(player, start=order.cell))
    return Accepted(
        new_state,
        None,
        (
            Notice(
                f"Your starting cell is {order.cell}. You may send another until the hunt "
                "begins; the latest stands.",
                to=player.id,
            ),
        ),
        changed=frozenset({player.id}),
    )


def _crew_choice(state: UboatState, player: Player, order: JoinCrew) -> Accepted[UboatState, Order]:
    if player.crew is not None:
        raise IllegalOrderError(
            f"you are on {player.crew.title}'s crew: `crew` is only for a player whose "
            "U-boat was sunk"
        )
    afloat = ", ".join(b.colour.value for b in state.afloat)
    boat = state.boat(order.boat)
    if boat is None:
        raise IllegalOrderError(
            f"there is no {order.boat.title} U-boat in this game: choose one afloat ({afloat})"
        )
    if not boat.afloat:
        raise IllegalOrderError(f"{order.boat.title} was sunk: choose a U-boat afloat ({afloat})")
    choices = tuple((p, c) for p, c in state.crew_choices if p != player.id)
    new_state = replace(state, crew_choices=(*choices, (player.id, order.boat)))
    return Accepted(new_state, order, ())  # the acknowledgement says it all


def _own_blast_warning(
    state: UboatState, boat: Boat, player: PlayerId, order: Order
) -> tuple[Notice, ...]:
    """A blast hits every U-boat in its cross, the shooter's own included (rules §3):
    legal, and sometimes meant, but said before the round ends, with the order's
    acknowledgement, so that nobody hits their own boat by a slip of the cell."""
    if not isinstance(order, Fire):
        return ()
    cross = state.sea.cross(order.cell)
    if boat.cell == cross[0]:
        warning = (
            f"Careful: {order.cell} is your own tile: your blast will hit your own U-boat directly."
        )
    elif boat.cell in cross:
        warning = (
            f"Careful: your U-boat is beside {order.cell}, in the blast's cross: it will "
            "take an indirect hit from your own blast."
        )
    else:
        return ()
    return (Notice(f"{warning} Send another order to change it.", to=player),)
