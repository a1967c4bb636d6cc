"""Sonar's setup (``shared/rules/sonar.md`` §1): captains join, fleets come in by DM
under ``placement=given``, and the start places the rest.

Two to four captains join in setup; one who leaves may come back, since leaving then
costs nothing. Under ``placement=given`` each may send a fleet (or ``random`` to
withdraw it) by DM until the battle starts; the answer checks the fleet against the
board alone. At the start the fleets sent are taken first come: one that would ever
meet a sub of a fleet kept before it is refused, and every fleet not kept is placed at
random so that no two subs ever meet. The first captain to join moves first.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.base import (
    OVERLAP_REFUSALS,
    Accepted,
    Channel,
    IllegalOrderError,
    Notice,
    PlayerId,
    PlayerRef,
    Resolution,
    WrongChannelError,
)
from bot.games.sonar.encounters import Course
from bot.games.sonar.fleet import (
    FLEET_EXAMPLE,
    Submarine,
    check_fleet,
    fleet_lengths,
    fleet_lines,
    meets_any,
)
from bot.games.sonar.options import MAX_PLAYERS, MIN_PLAYERS, Placement
from bot.games.sonar.orders import SHOOT_EXAMPLE, AtRandom, Fleet, Order, Shots
from bot.games.sonar.placement import largest_fleet, place_fleets
from bot.games.sonar.state import Captain, Phase, SonarState, Status

_PLACED_BY_HOST = (
    f"after {OVERLAP_REFUSALS} refusals for meeting other captains' subs, your fleet is "
    "placed at random at the start: the host no longer takes your fleets"
)
_PLACED_AT_RANDOM_WHY = f"After {OVERLAP_REFUSALS} refusals for meeting other captains' subs: "
_REFUSED_AT_THE_START = (
    "Your fleet would meet a sub of a fleet sent before it, so it was refused (never where "
    "or when: no probing). "
)


def join(state: SonarState, player: PlayerRef) -> SonarState:
    if state.phase is Phase.FINISHED:
        raise IllegalOrderError("this game is over: wait for the host to open a new one")
    if state.phase is Phase.BATTLE:
        raise IllegalOrderError("the battle has started, so joining is closed in this game")
    existing = state.captain(player.id)
    if existing is not None and existing.status is not Status.LEFT:
        raise IllegalOrderError("you are already in this game")
    if len(state.present) >= MAX_PLAYERS:
        raise IllegalOrderError(
            f"the game is full: Sonar takes {MIN_PLAYERS} to {MAX_PLAYERS} captains"
        )
    if existing is not None:
        # Leaving during setup costs nothing, so coming back is allowed.
        return with_captain(state, replace(existing, status=Status.ALIVE, fleet=()))
    return replace(state, captains=(*state.captains, Captain(player.id, player.name)))


def start(state: SonarState, rng: random.Random, first: PlayerId | None) -> Resolution[SonarState]:
    if state.phase is not Phase.SETUP:
        raise IllegalOrderError("the battle has already started")
    if first is not None:
        raise IllegalOrderError(
            "in Sonar the first captain to join moves first: start without a name"
        )
    present = state.present
    if len(present) < MIN_PLAYERS:
        raise IllegalOrderError(
            f"starting needs at least {MIN_PLAYERS} captains; {len(present)} "
            f"{'has' if len(present) == 1 else 'have'} joined"
        )
    ships = state.options.ships_for(len(present))
    board = state.board
    given = state.options.placement is Placement.GIVEN
    kept, refused = _first_come(state) if given else ((), frozenset())
    unplaced = [c for c in present if not (given and c.fleet) or c.id in refused]
    result = place_fleets(board, kept, [fleet_lengths(ships)] * len(unplaced), rng)
    if result.fleets is None:
        raise IllegalOrderError(
            _no_room(state, ships, len(present), bool(kept), result.complete, rng)
        )
    placed = {
        c.id: tuple(Submarine(i + 1, course) for i, course in enumerate(fleet))
        for c, fleet in zip(unplaced, result.fleets, strict=True)
    }
    captains = tuple(
        replace(c, fleet=placed[c.id], placed_at_random=True, placed_seq=0)
        if c.id in placed
        else replace(c, placed_seq=0)
        for c in state.captains
    )
    opener = present[0].id
    new_state = replace(
        state,
        phase=Phase.BATTLE,
        captains=captains,
        ships=ships,
        moves=0,
        to_move=opener,
        first=opener,
    )
    notices = [
        Notice(
            f"{_why_at_random(c, refused)}Your fleet, placed at random: "
            f"{fleet_lines(board, placed[c.id])}.",
            to=c.id,
        )
        for c in unplaced
    ]
    allowed = new_state.shots_allowed(opener)
    notices.append(
        Notice(
            f"Turn 1 is yours: fire up to {allowed} charge{'s' if allowed != 1 else ''} "
            f"(e.g. `{SHOOT_EXAMPLE}`) or `#sonar random`.",
            to=opener,
        )
    )
    return Resolution(new_state, (), frozenset(c.id for c in present), notices=tuple(notices))


def accept_in_setup(
    state: SonarState, captain: Captain, order: Order, channel: Channel
) -> Accepted[SonarState, Order]:
    """A fleet sent by DM (``placement=given``), or ``random`` to withdraw it."""
    given = state.options.placement is Placement.GIVEN
    if isinstance(order, Shots):
        what = (
            f"send your fleet by DM, e.g. {FLEET_EXAMPLE}, or wait for the start"
            if given
            else "wait for the host to start it"
        )
        raise IllegalOrderError(f"the battle has not started yet: for now {what}")
    if channel is not Channel.PRIVATE:
        # Never echo a fleet posted in public: the message itself gave it away already.
        raise WrongChannelError(
            "fleets are secret: send yours to me by DM, not in the game channel"
            if isinstance(order, Fleet)
            else "in setup, `random` (the host places your fleet) goes to me by DM"
        )
    if not given:
        raise IllegalOrderError(
            "under placement=random the host places every fleet when the battle starts: "
            "there is nothing to send"
        )
    if isinstance(order, AtRandom):
        withdrawn = with_captain(state, replace(captain, fleet=(), placed_seq=0))
        return Accepted(
            withdrawn,
            None,
            (
                Notice(
                    "No fleet of yours stands now: the host places it at random when "
                    "the battle starts.",
                    to=captain.id,
                ),
            ),
            changed=frozenset({captain.id}),
        )
    assert isinstance(order, Fleet)
    if captain.placed_by_host:
        raise IllegalOrderError(_PLACED_BY_HOST)
    ships = state.options.ships_for(len(state.present))
    fleet = check_fleet(state.board, order.subs, ships)
    # Numbered among the fleets sent, first come; checked against the others' subs only
    # at the start, so that this answer depends on no one else's fleet (§1: no probing).
    seq = 1 + max(c.placed_seq for c in state.captains)
    placed = with_captain(state, replace(captain, fleet=fleet, placed_seq=seq))
    return Accepted(
        placed,
        None,
        (
            Notice(
                f"Fleet placed: {fleet_lines(state.board, fleet)}. You may send another "
                "until the battle starts; the latest valid one stands. (A fleet that "
                "would meet a sub of one sent before it is refused when the battle "
                "starts, and placed at random then: you are told.)",
                to=captain.id,
            ),
        ),
        changed=frozenset({captain.id}),
    )


def with_captain(state: SonarState, captain: Captain) -> SonarState:
    """``state`` with ``captain`` in the place of the captain of the same id."""
    captains = list(state.captains)
    captains[state.index[captain.id]] = captain
    return replace(state, captains=tuple(captains))


def _why_at_random(captain: Captain, refused: frozenset[PlayerId]) -> str:
    if captain.id in refused:
        return _REFUSED_AT_THE_START
    return _PLACED_AT_RANDOM_WHY if captain.placed_by_host else ""


def _first_come(state: SonarState) -> tuple[tuple[Course, ...], frozenset[PlayerId]]:
    """The given fleets at the start (§1, first come): in the order they were sent, a
    fleet that would ever meet a sub of one kept before it is refused. Returns the kept
    subs and the captains refused. Checking here, not as fleets arrive, keeps every
    answer in setup blind to the others' fleets: answered at once, a fleet placed told
    where their subs were not, so placed answers without limit between three refusals
    pinned a sub (issue 39)."""
    board = state.board
    kept: list[Course] = []
    refused: set[PlayerId] = set()
    sent = sorted(
        (c for c in state.present if c.fleet), key=lambda c: (c.placed_seq, state.index[c.id])
    )
    for captain in sent:
        if meets_any(board, captain.fleet, kept):
            refused.add(captain.id)
        else:
            kept.extend(sub.course for sub in captain.fleet)
    return tuple(kept), frozenset(refused)


def _no_room(
    state: SonarState,
    ships: int,
    players: int,
    around_given: bool,
    complete: bool,
    rng: random.Random,
) -> str:
    """Why a start is refused for want of room, naming the largest ``ships`` that fits."""
    board = state.board
    # Around fleets sent by hand, the same ships may still fit with every fleet at random.
    largest = largest_fleet(board, players, ships if around_given else ships - 1, rng)
    why = "no arrangement exists" if complete else "none was found within the search limit"
    fits = (
        f"at most ships={largest} fits (every fleet placed at random)"
        if largest
        else "not even one sub each fits"
    )
    if around_given:
        return (
            f"the fleets sent leave no room for the other fleets of {ships} subs, placed so "
            f"that no two subs ever meet ({why}): change a fleet, or open a game with fewer "
            f"subs; on this board {fits}"
        )
    return (
        f"{ships} subs each cannot be placed on this board (size={board.rows}, {players} "
        f"captains) so that no two ever meet ({why}): {fits}"
    )
