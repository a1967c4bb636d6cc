"""Ratings (issue 30 item 5): OpenSkill per kind of game, updated exactly once when a game
of two or more people ends; `me rating` and `me top KIND`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from host_fakes import HostKit

from bot.games.base import Outcome
from bot.host import ratings
from bot.store.ratings import ratings_of, top_ratings


def _private(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == f"fake:id-{user}"]


class _Ended:
    """A game's end as the host sees it: who won, and who shares a seat."""

    def __init__(self, outcome: Outcome, crews: dict[str, tuple[str, ...]] | None = None) -> None:
        self._outcome = outcome
        self._crews = crews or {}

    @property
    def rules(self) -> _Ended:
        """The only part of a game the ratings read."""
        return self

    def outcome(self, state: Any) -> Outcome:
        return self._outcome

    def crew(self, state: Any, player: str) -> tuple[str, ...]:
        return self._crews.get(player, (player,))


def test_a_game_ended_by_its_host_rates_both_players_once(kit: HostKit) -> None:
    kit.two_player_battle()
    kit.say("alice", "end")
    assert kit.game().phase == "finished"
    kit.say("alice", "end")  # the end retried: refused, nothing rated again
    kit.clock.advance(9 * 3600)
    kit.tick()
    with kit.store.transaction() as tx:
        alice = ratings_of(tx, "fake:id-alice")
        bob = ratings_of(tx, "fake:id-bob")
    assert [r.played for r in alice] == [1] and [r.played for r in bob] == [1]
    assert alice[0].kind == "bst"


def test_the_winner_goes_up_and_the_loser_down(kit: HostKit) -> None:
    kit.two_player_battle()
    game_row = kit.game()
    with kit.store.transaction() as tx:
        rated = ratings.rate_finished(
            tx, _Ended(Outcome(("p1",), False)), game_row, None, kit.clock.now()
        )  # type: ignore[arg-type]
        assert rated == 2
        (alice,) = ratings_of(tx, "fake:id-alice")
        (bob,) = ratings_of(tx, "fake:id-bob")
        board = top_ratings(tx, "bst", 10)
    assert alice.mu > 25 > bob.mu and (alice.won, bob.won) == (1, 0)
    assert [r.person for r in board] == ["fake:id-alice", "fake:id-bob"]
    kit.say("bob", "me rating", dm=True)
    assert "- bst: " in _private(kit, "bob")[-1] and "1 played, 0 won" in _private(kit, "bob")[-1]
    kit.say("bob", "me top bst", dm=True)
    top = _private(kit, "bob")[-1]
    assert top.index("1. alice") < top.index("2. bob")


def test_a_crew_is_one_team(kit: HostKit) -> None:
    kit.two_player_battle()
    game_row = kit.game()
    crews = {"p1": ("p1", "p2"), "p2": ("p1", "p2")}
    with kit.store.transaction() as tx:
        rated = ratings.rate_finished(
            tx, _Ended(Outcome((), True), crews), game_row, None, kit.clock.now()
        )  # type: ignore[arg-type]
    assert rated == 0  # one crew alone is no contest: nobody is rated


def test_me_top_refuses_an_unknown_game_with_an_example(kit: HostKit) -> None:
    effect = kit.say("bob", "me top chess", dm=True)
    assert effect.outcome.value == "refused"
    assert "`me top bst`" in _private(kit, "bob")[-1]
    kit.say("bob", "me rating", dm=True)
    assert "no rating yet" in _private(kit, "bob")[-1]


def test_a_persons_awards_add_up_beside_their_record_in_a_game_that_gives_one(
    kit: HostKit,
) -> None:
    kit.two_player_battle()
    bst_row = kit.game()
    uboat_row = replace(bst_row, kind="uboat")  # U-Boat gives marks of victory
    with kit.store.transaction() as tx:
        for _ in range(2):
            ended = _Ended(Outcome(("p1",), False, awarded=("p1",)))
            ratings.rate_finished(tx, ended, uboat_row, None, kit.clock.now())  # type: ignore[arg-type]
        ratings.rate_finished(tx, _Ended(Outcome(("p1",), False)), bst_row, None, kit.clock.now())  # type: ignore[arg-type]
    kit.say("alice", "me rating", dm=True)
    said = _private(kit, "alice")[-1]
    assert "2 played, 2 won, 2 marks of victory" in said
    assert "1 played, 1 won\n" in said + "\n" and "bst" in said  # bst gives no award
    kit.say("bob", "me rating", dm=True)
    assert "2 played, 0 won, 0 marks of victory" in _private(kit, "bob")[-1]


def test_a_game_ended_before_it_started_is_cancelled_and_rates_nobody(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("alice", "end")
    assert kit.game().phase == "finished"
    with kit.store.transaction() as tx:
        assert ratings_of(tx, "fake:id-alice") == [] and ratings_of(tx, "fake:id-bob") == []


def _robots_game(kit: HostKit, options: str) -> None:
    """alice alone against robots (``options``: how many, of which level); started."""
    kit.say("alice", f"#bst new size=10x10 turn=8h {options}")
    kit.say("alice", "join")
    kit.say("alice", "sub: A2\ncarrier: C1-C5", dm=True)
    kit.say("alice", "start")


def test_a_person_is_rated_against_robots_and_each_level_has_its_own_rating(
    kit: HostKit,
) -> None:
    _robots_game(kit, "robots=2:strong")
    game_row = kit.game()
    with kit.store.transaction() as tx:
        # alice (p3) wins against the two strong robots.
        rated = ratings.rate_finished(
            tx, _Ended(Outcome(("p3",), False)), game_row, None, kit.clock.now()
        )  # type: ignore[arg-type]
        assert rated == 2  # alice, and the strong level (once, though it held two seats)
        (alice,) = ratings_of(tx, "fake:id-alice")
        (strong,) = ratings_of(tx, "robot:strong")
        assert ratings_of(tx, "robot:easy") == []
    assert alice.mu > 25 > strong.mu
    assert (alice.played, alice.robot_games, strong.played, strong.name) == (
        1,
        1,
        1,
        "strong robot",
    )
    kit.say("alice", "me rating", dm=True)
    assert "1 played (1 against robots), 1 won" in _private(kit, "alice")[-1]
    kit.say("alice", "me top bst", dm=True)
    top = _private(kit, "alice")[-1]
    assert top.index("1. alice") < top.index("2. strong robot")


def test_a_game_of_robots_alone_rates_nobody(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h robots=2")
    game_row = kit.game()
    with kit.store.transaction() as tx:
        rated = ratings.rate_finished(
            tx, _Ended(Outcome(("p1",), False)), game_row, None, kit.clock.now()
        )  # type: ignore[arg-type]
        assert rated == 0
        assert ratings_of(tx, "robot:easy") == []
