"""The strong robot against today's (``easy``) robots, in every game at its default options.

The issue's goals (#44), each with the number of games it was measured on:

* ``robot_strong_winrate_bst``: one strong captain among eleven easy ones on the default
  20 × 20 board wins at least a quarter of the games (a fair share is 1/12);
* ``robot_strong_winrate_uboat``: one strong crew against three easy ones, at least half;
* ``robot_strong_winrate_sonar``, ``_sugardog``, ``_silentships``: one against one, at
  least 70%;
* ``robot_think_ms_KIND``: the strong robot's mean CPU time a decision (one call of its
  ``orders``, waiting included), at most 50 ms.

A draw counts half for each player it names. The games are seeded (game ``i`` by seed
``i``) and played by the pure rules alone (:mod:`benchmarks.robots_play`); the strong
robot takes each seat in turn, so moving first favours nobody. ``--quick`` plays fewer
games on the same boards.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.robots_play import fresh, play
from benchmarks.timing import Figure
from bot.games.catalog import get_game


@dataclass(frozen=True)
class Match:
    """How a game's benchmark is played: the seats (one strong robot among easy ones), the
    win rate wanted and the games of a full and of a quick run."""

    kind: str
    seats: int
    goal: float
    games: int = 200
    quick_games: int = 40


MATCHES = (
    Match("bst", 12, 0.25, quick_games=30),
    Match("uboat", 4, 0.50, quick_games=60),
    Match("sonar", 2, 0.70, quick_games=30),
    Match("sugardog", 2, 0.70, quick_games=100),
    Match("silentships", 2, 0.70, quick_games=100),
)
"""The full run takes about 3 minutes on the shared 2-core machine (bst's twelve
captains and Sonar's long games take most of it); ``--quick`` about 2."""
THINK_MS_GOAL = 50.0


def measure(match: Match, games: int) -> list[Figure]:
    game = get_game(match.kind)
    strong, easy = game.robot_at("strong"), game.robot_at("easy")
    assert strong is not None and easy is not None, f"{match.kind} has no strong robot"
    score = think = 0.0
    decisions = 0
    for seed in range(games):
        seat = seed % match.seats
        seats = [fresh(strong if i == seat else easy) for i in range(match.seats)]
        played = play(game, seats, seed)
        player = played.players[seat]
        score += played.score(player)
        think += played.think_seconds[player]
        decisions += played.decisions[player]
    rate = score / games
    fair = 1 / match.seats
    think_ms = 1000 * think / max(decisions, 1)
    return [
        Figure(
            f"robot_strong_winrate_{match.kind}",
            rate,
            match.goal,
            at_most=False,
            detail=f"{games} games, 1 strong vs {match.seats - 1} easy (fair share {fair:.3f})",
        ),
        Figure(
            f"robot_think_ms_{match.kind}",
            think_ms,
            THINK_MS_GOAL,
            unit=" ms",
            detail=f"{decisions} decisions in {games} games",
        ),
    ]


def run(quick: bool = False) -> list[Figure]:
    figures: list[Figure] = []
    for match in MATCHES:
        figures += measure(match, match.quick_games if quick else match.games)
    return figures
