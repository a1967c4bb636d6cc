"""Sugar Dog's final standings: the winner first, then the captains in the order their
submarines went down (the last one best); for each, the torpedoes launched, the mines
laid and the turns their submarine survived."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import PlayerId, Standing, Step
from bot.games.standings import events_of, plural, ranked, survival_key
from bot.games.sugardog.state import Phase, SugarDogState


def standings(state: SugarDogState, history: Sequence[Step]) -> tuple[Standing, ...]:
    if state.phase is not Phase.FINISHED:
        return ()
    players = [c.id for c in state.captains]
    out: dict[PlayerId, int] = {}
    for kind in ("eliminated", "left"):
        for turn, event in events_of(history, kind):
            out.setdefault(str(event["player"]), turn)
    launched = events_of(history, "launched")
    mines = events_of(history, "mine")

    def figures(player: PlayerId) -> tuple[str, ...]:
        torpedoes = sum(1 for _, e in launched if e.get("player") == player)
        laid = sum(1 for _, e in mines if e.get("player") == player)
        end = f"went down in turn {out[player]}" if player in out else "afloat at the end"
        return (plural(torpedoes, "torpedo", "torpedoes"), plural(laid, "mine"), end)

    keys = {p: survival_key(p, state.winners, out) for p in players}
    return ranked(players, keys, figures)
