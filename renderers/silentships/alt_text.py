"""The words beside the Silent Ships pictures, for people who cannot see them: the same
facts as the picture, from the same view (public units by owner only, a player's own ships
only in their own picture), within the platforms' limit."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.games.silentships.cells import Cell
from bot.games.silentships.ships import Ship
from bot.games.silentships.views import PrivateView, PublicView
from renderers.alt_text import MAX_ALT_TEXT, deadline_sentences
from renderers.silentships import panels


def _units(view: PublicView, own: Mapping[Cell, Ship]) -> str:
    """Each admiral's units, cards and sunk ships; ``own``: the viewer's own units' ships."""
    parts = []
    for admiral in sorted(view.admirals, key=lambda a: not a.moves_first):
        units = []
        for unit in (u for u in view.units if u.owner == admiral.id):
            if unit.face_up and unit.ship is not None:
                units.append(f"{unit.cell} {unit.ship.card.name}")
            elif unit.cell in own:
                units.append(f"{unit.cell} {own[unit.cell].card.name} (face-down)")
            else:
                units.append(f"{unit.cell} face-down")
        sank = ", ".join(ship.card.name for ship in admiral.sank) or "none"
        parts.append(
            f"{admiral.name} (country {admiral.country}): "
            f"{'; '.join(units) or 'no units'}; hand {admiral.hand_size}, deck "
            f"{admiral.deck_size}, discards {admiral.discard_count}; sank {sank}."
        )
    return " ".join(parts)


def _tail(view: PublicView) -> str:
    names = panels.names_of(view)
    if view.attack is not None:
        return " ".join(text for text, _ in panels.attack_lines(view)) + "."
    combat = view.combat
    if combat is None:
        return ""
    winner = "attack" if combat.winner.value == "attack" else "defence"
    return (
        f"Last combat on {combat.target}: {names.get(combat.attacker, '?')} {combat.attack} "
        f"against {names.get(combat.defender, '?')} {combat.defence}, the {winner} wins"
        f"{', a ship sunk' if combat.sunk else ''}."
    )


def public_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    text = " ".join(
        part
        for part in (
            f"{title}, Silent Ships board: {panels.status_line(view)}.",
            *deadline_sentences(deadline, now),
            _units(view, {}),
            _tail(view),
        )
        if part
    )
    return text[:MAX_ALT_TEXT]


def private_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    own = {unit.cell: unit.ship for unit in view.units}
    hand = ", ".join(ship.card.name for ship in view.hand) or "empty"
    text = " ".join(
        part
        for part in (
            f"{title}, {view.viewer_name}'s private Silent Ships board: "
            f"{panels.status_line(view.public)}.",
            *deadline_sentences(deadline, now),
            f"Your hand: {hand}.",
            _units(view.public, own),
            _tail(view.public),
        )
        if part
    )
    return text[:MAX_ALT_TEXT]
