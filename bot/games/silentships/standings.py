"""Silent Ships' final standings: the winner first; for each admiral, the enemy ships
they sank and the turns they played."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import PlayerId, Standing, Step
from bot.games.silentships.state import Phase, SilentShipsState
from bot.games.standings import plural, ranked


def standings(state: SilentShipsState, history: Sequence[Step]) -> tuple[Standing, ...]:
    if state.phase is not Phase.FINISHED:
        return ()
    players = [a.id for a in state.admirals]
    sank = {a.id: len(a.sank) for a in state.admirals}
    turns = {p: len({s.turn for s in history if _played(s, p)}) for p in players}

    def figures(player: PlayerId) -> tuple[str, ...]:
        return (plural(sank[player], "ship") + " sunk", plural(turns[player], "turn") + " played")

    keys = {p: (1 if p in state.winners else 0, sank[p]) for p in players}
    return ranked(players, keys, figures)


_OWN_TURN_ACTIONS = frozenset(
    {"play", "move", "go", "retreat_to", "reveal", "swap", "end", "offer_draw"}
)
"""Actions only the turn's player gives: a defence's answers (``support``, ``retreat``,
``pass``) and an ``accept`` come in the other admiral's turn, which they do not play."""


def _played(step: Step, player: PlayerId) -> bool:
    return step.cause in ("turn", "action") and any(
        o.get("player") == player and o.get("action") in _OWN_TURN_ACTIONS for o in step.orders
    )
