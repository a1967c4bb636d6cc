"""bst's final standings (rules §5.3): the winner first, then the captains in the order
they went out, the last out best (those out in the same turn share a place); for each,
their shots, their hits and the turns they survived."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import PlayerId, Standing, Step
from bot.games.bst.lifecycle import outcome
from bot.games.bst.state import BstState
from bot.games.standings import events_of, plural, ranked, removed_at, survival_key


def standings(state: BstState, history: Sequence[Step]) -> tuple[Standing, ...]:
    ended = outcome(state)
    if ended is None:
        return ()
    # A captain who left during setup never sailed: they are not in the standings.
    players = [c.id for c in state.captains if c.ships]
    out = {str(e["player"]): turn for turn, e in events_of(history, "eliminated")}
    for player, turn in removed_at(history).items():
        out.setdefault(player, turn)
    last = max((step.turn for step in history), default=0)
    shots = events_of(history, "shot")

    def figures(player: PlayerId) -> tuple[str, ...]:
        fired = [e for _, e in shots if e.get("player") == player]
        hits = sum(1 for e in fired if e.get("result") == "hit")
        survived = out.get(player, last)
        return (
            plural(len(fired), "shot"),
            plural(hits, "hit"),
            f"survived {plural(survived, 'turn')}" if player in out else "afloat at the end",
        )

    keys = {p: survival_key(p, ended.winners, out) for p in players}
    return ranked(players, keys, figures)
