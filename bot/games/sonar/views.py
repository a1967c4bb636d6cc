"""What each player is shown (``shared/rules/sonar.md`` §5), as plain values.

Views are the only way secrets leave the rules. The public view holds the board after
the last resolved turn and after the one before it: each turn's shots with their marks
(``x`` a hit, ``*X*`` a killer shot, a miss's distance), the hits on damaged subs, which
stay visible and move with their subs (unless ``hide_hits``: then only the hits of that
turn), the sunk subs, and the captains with how many subs each has left (public, since
it is the number of charges they fire). A private view adds exactly the viewer's own
subs, with their lengths, facings and hits, now and a turn before. Nothing shows an
unhit segment of another player's live sub; the revealed view (every fleet) is for
finished games and the host's records only.

This module is the game's ``views`` part (:class:`bot.games.base.Views`): :func:`view`
and :func:`reveal`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import PlayerId
from bot.games.sonar.board import Cell, Facing
from bot.games.sonar.state import Phase, ShotResult, SonarState, Status


@dataclass(frozen=True)
class CaptainView:
    id: PlayerId
    name: str
    status: Status
    subs_left: int


@dataclass(frozen=True)
class ShotView:
    """A charge of the turn shown: where, by whom, and its mark (a miss's distance)."""

    shooter: PlayerId
    shooter_name: str
    cell: Cell
    result: ShotResult
    distance: int | None


@dataclass(frozen=True)
class SunkView:
    """A sunk sub, public with its owner: where it sank, bow first."""

    owner: PlayerId
    owner_name: str
    sub: int
    length: int
    facing: Facing
    cells: tuple[Cell, ...]
    turn: int


@dataclass(frozen=True)
class BoardView:
    """The public board after turn ``after`` (0: as the battle began). ``shots`` are that
    turn's; ``hits`` the visible hit marks on subs still afloat; ``timed_out``, ``skipped``:
    how the turn ended when no one fired; ``at_random``: the host drew the turn's cells
    (public: random charges never fall on the shooter's own subs)."""

    after: int
    player: PlayerId | None
    shots: tuple[ShotView, ...]
    hits: tuple[Cell, ...]
    sunk: tuple[SunkView, ...]
    timed_out: bool = False
    skipped: bool = False
    at_random: bool = False


@dataclass(frozen=True)
class PublicView:
    """Everything public: the board now and a turn before (None before turn 1)."""

    rows: int
    cols: int
    phase: Phase
    turn: int
    to_move: PlayerId | None
    shots_allowed: int
    captains: tuple[CaptainView, ...]
    board: BoardView
    previous: BoardView | None
    hide_hits: bool
    winners: tuple[PlayerId, ...] = ()
    draw: bool = False


@dataclass(frozen=True)
class OwnSubView:
    """One of the viewer's subs: cells bow first (the stern, where the propeller is
    drawn, is the last), its hit cells, and whether it sank."""

    id: int
    length: int
    facing: Facing
    cells: tuple[Cell, ...]
    hits: tuple[Cell, ...]
    sunk: bool

    @property
    def stern(self) -> Cell:
        return self.cells[-1]


@dataclass(frozen=True)
class PrivateView:
    """One player's board: the public facts plus their own fleet now and a turn before."""

    viewer: PlayerId
    viewer_name: str
    public: PublicView
    subs: tuple[OwnSubView, ...]
    previous_subs: tuple[OwnSubView, ...] | None


@dataclass(frozen=True)
class FleetView:
    owner: PlayerId
    owner_name: str
    subs: tuple[OwnSubView, ...]
    start: tuple[OwnSubView, ...]
    """The fleet as the battle began (turn 0)."""


@dataclass(frozen=True)
class RevealedView:
    """Everything: the public view and every fleet, now and at the start."""

    public: PublicView
    fleets: tuple[FleetView, ...]


# --------------------------------------------------------------------- builders


def public_view(state: SonarState) -> PublicView:
    now = state.moves
    previous = board_after(state, now - 1) if state.phase is not Phase.SETUP and now >= 1 else None
    to_move = state.to_move if state.phase is Phase.BATTLE else None
    return PublicView(
        rows=state.board.rows,
        cols=state.board.cols,
        phase=state.phase,
        turn=state.turn,
        to_move=to_move,
        shots_allowed=state.shots_allowed(to_move) if to_move is not None else 0,
        captains=tuple(
            CaptainView(c.id, c.name, c.status, len(c.afloat) if c.playing else 0)
            for c in state.captains
        ),
        board=board_after(state, now),
        previous=previous,
        hide_hits=state.options.hide_hits,
        winners=state.winners,
        draw=state.draw,
    )


def board_after(state: SonarState, turn: int) -> BoardView:
    """The public board after ``turn`` (one of the two last resolved turns, or 0)."""
    log = next((log for log in state.recent if log.number == turn), None)
    shots: tuple[ShotView, ...] = ()
    if log is not None:
        shots = tuple(
            ShotView(
                log.player,
                state.name_of(log.player),
                landing.cell,
                landing.result,
                landing.distance,
            )
            for landing in log.landings
        )
    if state.phase is Phase.SETUP:
        hits: tuple[Cell, ...] = ()
    elif state.options.hide_hits:
        hits = tuple(shot.cell for shot in shots if shot.result is ShotResult.HIT)
    else:
        # Sorted by cell: listed by owner, the order alone would tell whose subs they are.
        hits = tuple(
            sorted(
                cells[segment]
                for _, sub, cells in state.on_board(turn)
                for segment in sub.hit_segments(turn)
            )
        )
    board = state.board
    sunk = tuple(
        SunkView(
            c.id,
            c.name,
            sub.id,
            sub.length,
            sub.facing,
            sub.cells(board, turn),
            sub.sunk_turn,
        )
        for c in state.captains
        for sub in c.fleet
        if sub.sunk_turn is not None and sub.sunk_turn <= turn
    )
    return BoardView(
        after=turn,
        player=log.player if log is not None else None,
        shots=shots,
        hits=hits,
        sunk=sunk,
        timed_out=log is not None and log.timeout,
        skipped=log is not None and not log.landings,
        at_random=log is not None and log.at_random and bool(log.landings),
    )


def own_subs(state: SonarState, player: PlayerId, turn: int) -> tuple[OwnSubView, ...]:
    """``player``'s fleet after ``turn`` (in setup: the fleet they sent, as placed)."""
    captain = state.captain(player)
    if captain is None:
        return ()
    board = state.board
    views = []
    for sub in captain.fleet:
        cells = captain.sub_cells(board, sub, turn)
        hit = sub.hit_segments(turn)
        views.append(
            OwnSubView(
                sub.id,
                sub.length,
                sub.facing,
                cells,
                tuple(cells[i] for i in sorted(hit)),
                sub.sunk_by(turn),
            )
        )
    return tuple(views)


def private_view(state: SonarState, viewer: PlayerId) -> PrivateView | PublicView:
    public = public_view(state)
    captain = state.captain(viewer)
    if captain is None:
        return public
    now = state.moves
    previous = own_subs(state, viewer, now - 1) if public.previous is not None else None
    return PrivateView(
        viewer=viewer,
        viewer_name=captain.name,
        public=public,
        subs=own_subs(state, viewer, now),
        previous_subs=previous,
    )


def revealed_view(state: SonarState) -> RevealedView:
    return RevealedView(
        public=public_view(state),
        fleets=tuple(
            FleetView(c.id, c.name, own_subs(state, c.id, state.moves), own_subs(state, c.id, 0))
            for c in state.captains
        ),
    )


def view(state: SonarState, viewer: PlayerId | None) -> PublicView | PrivateView:
    """What ``viewer`` may see; ``None`` (anyone) sees the public view."""
    if viewer is None:
        return public_view(state)
    return private_view(state, viewer)


reveal = revealed_view
"""Every fleet, for the replay of a finished game (the ``views`` part's ``reveal``)."""
