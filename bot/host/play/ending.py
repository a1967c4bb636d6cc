"""What the host posts when a game ends, the post people share: the standings with the
final map that reveals what was hidden, each player's own place privately ("you came
2nd of 4"), then the replay. The game gives the standings (``Game.standings``: places
and its own figures, in its words); the host writes them out in its neutral words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Game, Standing, Step
from bot.host.outbox import posts
from bot.host.outbox.wire import STANDINGS, PostKind
from bot.store import Tx, loads, records

FINAL_MAP = "final_map"
"""The render kind of the standings post's picture: the game's last replay frame."""


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def history_of(turns: Sequence[records.Step]) -> list[Step]:
    """The stored steps as the game reads them (see ``Codec.record``)."""
    steps = []
    for turn in turns:
        cause, _, timer = turn.cause.partition(":")
        steps.append(
            Step(
                turn=turn.number,
                orders=tuple(loads(turn.orders)),
                events=tuple(loads(turn.events)),
                cause=cause,
                timer=timer,
            )
        )
    return steps


def standings_text(title: str, standings: Sequence[Standing], names: Mapping[str, str]) -> str:
    """``#sonar game 3 is over. Final standings:`` then one line a player, best first:
    ``1st nemo: 6 shots, 4 hits, afloat at the end``. (The result itself was said by the
    post that ended the game, just before.) Places are ordinals, not ``1.``: a numbered
    line is a Markdown list, which renumbers shared places (1, 2, 2 shows as 1, 2, 3)."""
    lines = [f"{title} is over. Final standings:"]
    for standing in standings:
        figures = ", ".join(standing.figures)
        name = names.get(standing.player, standing.player)
        lines.append(f"{ordinal(standing.place)} {name}" + (f": {figures}" if figures else ""))
    return "\n".join(lines)


def place_text(standing: Standing, standings: Sequence[Standing], title: str) -> str:
    """The private word to one player: ``#sonar game 3 is over: you won!``, ``… you came 4th
    of 12``, or a place shared (``you share 1st place with 2 others``)."""
    sharing = sum(1 for s in standings if s.place == standing.place) - 1
    total = len(standings)
    if standing.place == 1 and not sharing:
        said = "you won!"
    elif sharing:
        others = "1 other" if sharing == 1 else f"{sharing} others"
        said = f"you share {ordinal(standing.place)} place of {total} with {others}."
    else:
        said = f"you came {ordinal(standing.place)} of {total}."
    figures = ", ".join(standing.figures)
    return f"{title} is over: {said}" + (f" Your game: {figures}." if figures else "")


def post_end(tx: Tx, game: Game[Any, Any], game_row: records.Game, turn: int, now: float) -> None:
    """The standings (with the final map), each player's place, then the replay."""
    state = game.codec.decode_state(loads(game_row.state))
    players = tx.players(game_row.id)
    names = posts.names_of(players)
    standings = game.rules.standings(state, history_of(tx.turns(game_row.id)))
    title = posts.title(game_row)
    if standings:
        text = standings_text(title, standings, names)
        posts.announce(
            tx, game_row, kind=PostKind(STANDINGS), text=text,
            render=posts.render_spec(FINAL_MAP, game_row, turn, now), now=now,
        )  # fmt: skip
        by_key = {p.key: p for p in players}
        for standing in standings:
            player = by_key.get(standing.player)
            if player is not None:
                text = place_text(standing, standings, title)
                posts.notify(tx, game_row, player, text, kind=PostKind("place"))
    posts.post_replay(tx, game, game_row, turn, now)
