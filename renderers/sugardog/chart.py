"""What a Sugar Dog map shows, as values: the marks of a captain's paper map (the original
asks each captain to mark their position, their torpedoes and mines, and every contact
heard), decided from views alone and drawn by :mod:`renderers.sugardog.sea`.

* The public chart: where each unit was last heard (a contact) or seen (a ping), in its
  owner's colour, with the turn it was heard; older marks fade toward the water. Impacts
  are bursts, sunk submarines wrecks, and the last turn's ping shows its sonar rings.
* A captain's chart adds their own submarine, torpedoes (with their heading) and mines,
  exactly where they are, and drops the heard marks of their own things.
* A replay frame shows everything revealed, with the last turn's contacts as rings.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.games.base import PlayerId
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell
from bot.games.sugardog.state import Status, UnitKind
from bot.games.sugardog.views import (
    ContactView,
    ImpactView,
    PingView,
    PrivateView,
    PublicTurn,
    PublicView,
    RevealedView,
    SideView,
    blasts,
    last_heard,
)

MAX_FADE = 0.72
"""How far the oldest marks fade toward the water (1 would hide them)."""
FADE_PER_ROUND = 0.26
"""How much a mark fades for every round of turns since it was heard."""


class Glyph(enum.Enum):
    """What a mark looks like; the value order is the drawing order in a cell."""

    IMPACT = "impact"
    WRECK = "wreck"
    MINE = "mine"
    SUBMARINE = "submarine"
    TORPEDO = "torpedo"
    RING = "ring"  # a contact of the last turn, on a replay frame


_GLYPHS = {
    UnitKind.SUBMARINE: Glyph.SUBMARINE,
    UnitKind.MINE: Glyph.MINE,
    UnitKind.TORPEDO: Glyph.TORPEDO,
}
_ORDER = {glyph: rank for rank, glyph in enumerate(Glyph)}


@dataclass(frozen=True)
class Mark:
    """One thing drawn in a cell: whose (``owner``; None for an impact), how old (``turn``
    heard, shown as a badge; None when known now) and how faded (0 fresh … MAX_FADE);
    ``own``: the viewer's own thing, drawn in the captain's gold; ``direction``: a
    torpedo's heading, when the viewer knows it."""

    cell: Cell
    glyph: Glyph
    owner: PlayerId | None
    turn: int | None = None
    fade: float = 0.0
    own: bool = False
    direction: Direction | None = None
    number: int | None = None
    label: str | None = None
    """A name written under the mark (a replay names each submarine)."""

    @property
    def order(self) -> tuple[Cell, int, str, int]:
        return (self.cell, _ORDER[self.glyph], self.owner or "", self.number or 0)


@dataclass(frozen=True)
class Chart:
    """Everything a map draws: marks, the last turn's sonar origin, and the board."""

    size: int
    marks: tuple[Mark, ...]
    ping: Cell | None
    """The cell the last turn's ping came from (its sonar rings are drawn there)."""


def fade_of(heard: int, public: PublicView) -> float:
    """0 for the last turn played, more for every round since (a round: one turn of
    each captain in the turn order)."""
    last = public.turns[-1].number if public.turns else 0
    rounds = max(0, last - heard) / max(1, len(public.order))
    return min(MAX_FADE, rounds * FADE_PER_ROUND)


def _last_ping(turn: PublicTurn | None) -> Cell | None:
    if turn is None:
        return None
    pings = [fact.cell for fact in turn.facts if isinstance(fact, PingView)]
    return pings[-1] if pings else None


def _public_marks(public: PublicView, hidden_owner: PlayerId | None) -> list[Mark]:
    found = [
        Mark(
            heard.cell,
            _GLYPHS[heard.unit.kind],
            heard.unit.owner,
            turn=heard.turn,
            fade=fade_of(heard.turn, public),
            number=heard.unit.torpedo,
        )
        for heard in last_heard(public)
        if heard.unit.owner != hidden_owner
    ]
    for blast in blasts(public):
        found.append(
            Mark(blast.cell, Glyph.IMPACT, None, turn=blast.turn, fade=fade_of(blast.turn, public))
        )
    for captain in public.captains:
        if captain.wreck is not None:
            found.append(Mark(captain.wreck, Glyph.WRECK, captain.id))
    return found


def _side_marks(side: SideView, *, own: bool, named: bool = False) -> list[Mark]:
    found = [Mark(cell, Glyph.MINE, side.id, own=own) for cell in side.mines]
    found += [
        Mark(t.cell, Glyph.TORPEDO, side.id, own=own, direction=t.direction, number=t.number)
        for t in side.torpedoes
    ]
    if side.cell is not None and side.status is Status.ALIVE:
        label = side.name if named else "you" if own else None
        found.append(Mark(side.cell, Glyph.SUBMARINE, side.id, own=own, label=label))
    return found


def _chart(size: int, marks: list[Mark], ping: Cell | None) -> Chart:
    return Chart(size, tuple(sorted(marks, key=lambda m: m.order)), ping)


def public_chart(public: PublicView) -> Chart:
    return _chart(public.size, _public_marks(public, None), _last_ping(public.last_turn))


def private_chart(view: PrivateView) -> Chart:
    public = view.public
    marks = _public_marks(public, view.viewer) + _side_marks(view.side, own=True)
    return _chart(public.size, marks, _last_ping(public.last_turn))


def revealed_chart(board: RevealedView) -> Chart:
    """A replay frame: every unit where it is, the wrecks, and the last turn's contacts
    and impacts (what was announced as it happened)."""
    public = board.public
    marks: list[Mark] = []
    for side in board.sides:
        marks += _side_marks(side, own=False, named=True)
    for captain in public.captains:
        if captain.wreck is not None:
            marks.append(Mark(captain.wreck, Glyph.WRECK, captain.id, label=captain.name))
    last = public.last_turn
    if last is not None:
        blasted = {fact.cell for fact in last.facts if isinstance(fact, ImpactView)}
        marks += [Mark(cell, Glyph.IMPACT, None) for cell in sorted(blasted)]
        # A contact that ended in an impact is shown by the impact.
        marks += [
            Mark(fact.cell, Glyph.RING, fact.unit.owner, number=fact.unit.torpedo)
            for fact in last.facts
            if isinstance(fact, ContactView) and fact.cell not in blasted
        ]
    return _chart(public.size, marks, _last_ping(last))
