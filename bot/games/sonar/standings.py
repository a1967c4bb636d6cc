"""Sonar's final standings: the winner first, then the captains in the order they went
out (the last out best); for each, the charges they fired, their hits and subs sunk,
and how many of their subs were afloat at the end."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import PlayerId, Standing, Step
from bot.games.sonar.state import Phase, SonarState
from bot.games.standings import events_of, plural, ranked, survival_key


def standings(state: SonarState, history: Sequence[Step]) -> tuple[Standing, ...]:
    if state.phase is not Phase.FINISHED:
        return ()
    players = [c.id for c in state.captains if c.fleet]
    out: dict[PlayerId, int] = {}
    for kind in ("eliminated", "left"):
        for turn, event in events_of(history, kind):
            out.setdefault(str(event["player"]), turn)
    shots = events_of(history, "shot")
    afloat = {c.id: len(c.afloat) for c in state.captains}

    def figures(player: PlayerId) -> tuple[str, ...]:
        fired = [e for _, e in shots if e.get("player") == player]
        hits = sum(1 for e in fired if e.get("result") in ("hit", "sunk"))
        kills = sum(1 for e in fired if e.get("result") == "sunk")
        return (
            plural(len(fired), "charge"),
            plural(hits, "hit"),
            plural(kills, "sub") + " sunk",
            f"{afloat.get(player, 0)} afloat at the end" if player not in out else
            f"out in turn {out[player]}",
        )  # fmt: skip

    keys = {p: survival_key(p, state.winners, out) for p in players}
    return ranked(players, keys, figures)
