"""What each player is shown (rules §6), as plain values for renderers and replies.

Everyone sees the board, with face-down units showing only their owner, the
face-up units' ships, each admiral's hand, deck and discard counts, the sunk
piles, and the attack in progress. An admiral also sees their own hand, their
own discards (they chose them) and the ships of their own face-down units.
The revealed view — every card, every deck in order — is for finished games
(the replay) and the host's records only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import PlayerId
from bot.games.silentships.cells import COLS, ISLANDS, ROWS, Cell
from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Phase, Reason, Side, SilentShipsState, Status, TurnStep


@dataclass(frozen=True)
class UnitView:
    """A unit as everyone sees it: ``ship`` is None while it is face-down."""

    cell: Cell
    owner: PlayerId
    owner_name: str
    face_up: bool
    ship: Ship | None


@dataclass(frozen=True)
class AdmiralView:
    id: PlayerId
    name: str
    status: Status
    country: Cell | None  # None in setup
    moves_first: bool
    hand_size: int
    deck_size: int
    discard_count: int
    sank: tuple[Ship, ...]  # the opponent's ships this admiral sank, oldest first


@dataclass(frozen=True)
class SupportView:
    side: Side
    cell: Cell
    owner: PlayerId


@dataclass(frozen=True)
class AttackView:
    """The attack in progress: who attacks whom, from where, with which supports."""

    attacker: PlayerId
    defender: PlayerId
    origin: Cell
    target: Cell
    supports: tuple[SupportView, ...]
    retreat_squares: tuple[Cell, ...]


@dataclass(frozen=True)
class FighterView:
    """A unit that fought in the last combat (face-up then, so public)."""

    side: Side
    owner: PlayerId
    cell: Cell
    ship: Ship
    value: int


@dataclass(frozen=True)
class CombatView:
    """The turn's last combat: who fought from where, what each counted, who won."""

    attacker: PlayerId
    defender: PlayerId
    origin: Cell
    target: Cell
    fighters: tuple[FighterView, ...]
    attack: int
    defence: int
    winner: Side
    sunk: bool


@dataclass(frozen=True)
class PublicView:
    cols: int
    rows: int
    islands: tuple[Cell, ...]
    phase: Phase
    turn: int
    max_turns: int
    to_move: PlayerId | None
    step: TurnStep | None
    admirals: tuple[AdmiralView, ...]
    units: tuple[UnitView, ...]
    attack: AttackView | None
    offer: PlayerId | None
    winners: tuple[PlayerId, ...]
    reason: Reason | None
    combat: CombatView | None = None
    draw: bool = False


@dataclass(frozen=True)
class OwnUnitView:
    cell: Cell
    ship: Ship
    face_up: bool


@dataclass(frozen=True)
class PrivateView:
    """One admiral's board: the public facts, their hand, discards and units' ships."""

    viewer: PlayerId
    viewer_name: str
    public: PublicView
    hand: tuple[Ship, ...]
    discards: tuple[Ship, ...]
    units: tuple[OwnUnitView, ...]


@dataclass(frozen=True)
class CardsView:
    """Everything one admiral holds, for the replay."""

    admiral: PlayerId
    name: str
    hand: tuple[Ship, ...]
    deck: tuple[Ship, ...]
    discards: tuple[Ship, ...]
    units: tuple[OwnUnitView, ...]


@dataclass(frozen=True)
class RevealedView:
    public: PublicView
    cards: tuple[CardsView, ...]


def public_view(state: SilentShipsState) -> PublicView:
    names = {admiral.id: admiral.name for admiral in state.admirals}
    attack = state.attack
    return PublicView(
        cols=COLS,
        rows=ROWS,
        islands=ISLANDS,
        phase=state.phase,
        turn=state.turn,
        max_turns=state.options.max_turns,
        to_move=state.to_move,
        step=state.step,
        admirals=tuple(
            AdmiralView(
                id=admiral.id,
                name=admiral.name,
                status=admiral.status,
                country=None if state.first is None else state.country(admiral.id),
                moves_first=admiral.id == state.first,
                hand_size=len(admiral.hand),
                deck_size=len(admiral.deck),
                discard_count=len(admiral.discards),
                sank=admiral.sank,
            )
            for admiral in state.admirals
        ),
        units=tuple(
            UnitView(
                cell=unit.cell,
                owner=unit.owner,
                owner_name=names[unit.owner],
                face_up=unit.face_up,
                ship=unit.ship if unit.face_up else None,
            )
            for unit in state.units
        ),
        attack=None
        if attack is None
        else AttackView(
            attacker=attack.attacker,
            defender=attack.defender,
            origin=attack.origin,
            target=attack.target,
            supports=tuple(
                SupportView(
                    support.side,
                    support.cell,
                    attack.attacker if support.side is Side.ATTACK else attack.defender,
                )
                for support in attack.supports
            ),
            retreat_squares=attack.retreat_squares,
        ),
        offer=state.offer,
        winners=state.winners,
        reason=state.reason,
        combat=_combat(state),
    )


def _combat(state: SilentShipsState) -> CombatView | None:
    combat = state.combat
    if combat is None:
        return None
    return CombatView(
        attacker=combat.attacker,
        defender=combat.defender,
        origin=combat.origin,
        target=combat.target,
        fighters=tuple(
            FighterView(f.side, f.owner, f.cell, f.ship, f.value) for f in combat.fighters
        ),
        attack=combat.attack,
        defence=combat.defence,
        winner=combat.winner,
        sunk=combat.sunk,
    )


def _own_units(state: SilentShipsState, player: PlayerId) -> tuple[OwnUnitView, ...]:
    return tuple(OwnUnitView(u.cell, u.ship, u.face_up) for u in state.units_of(player))


def private_view(state: SilentShipsState, viewer: PlayerId) -> PrivateView:
    admiral = state.admiral(viewer)
    return PrivateView(
        viewer=viewer,
        viewer_name=admiral.name,
        public=public_view(state),
        hand=admiral.hand,
        discards=admiral.discards,
        units=_own_units(state, viewer),
    )


def revealed_view(state: SilentShipsState) -> RevealedView:
    return RevealedView(
        public=public_view(state),
        cards=tuple(
            CardsView(
                admiral=admiral.id,
                name=admiral.name,
                hand=admiral.hand,
                deck=admiral.deck,
                discards=admiral.discards,
                units=_own_units(state, admiral.id),
            )
            for admiral in state.admirals
        ),
    )


def view_of(state: SilentShipsState, viewer: PlayerId | None) -> PublicView | PrivateView:
    """An admiral's own view; the public one for anyone else (and for ``None``)."""
    if viewer is None or not state.has(viewer):
        return public_view(state)
    return private_view(state, viewer)


view = view_of
"""The Views part (``bot/games/base.py``) is this module: ``view`` and ``reveal``."""
reveal = revealed_view
