"""Away (issue 30 item 3): `me away 3d` / `me back`, and what it means in a game: by
default nothing; with the host's `away=N`, a turn that falls while a player it waits
for is away waits for them, up to N, once a turn, announced without naming them."""

from __future__ import annotations

from host_fakes import HostKit

from bot.store import loads


def _private(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if r.recipient == f"fake:id-{user}"]


def _away_posts(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.kind == "away"]


def test_me_away_and_back_answer_with_what_now_stands(kit: HostKit) -> None:
    kit.say("bob", "me away 3d", dm=True)
    assert "away until 2026-01-04 00:00 UTC" in _private(kit, "bob")[-1]
    kit.say("bob", "me back", dm=True)
    assert "not away" in _private(kit, "bob")[-1]


def test_me_away_refuses_what_is_no_length_and_changes_nothing(kit: HostKit) -> None:
    for bad in ("me away soon", "me away 90d", "me away"):
        effect = kit.say("bob", bad, dm=True)
        assert effect.outcome.value == "refused"
        assert "`me away 3d`" in _private(kit, "bob")[-1]
    kit.say("bob", "me", dm=True)
    assert "not away" in _private(kit, "bob")[-1]


def test_by_default_away_changes_nothing_the_turn_falls_on_time(kit: HostKit) -> None:
    kit.two_player_battle()
    kit.say("bob", "me away 3d", dm=True)
    kit.clock.set(kit.game().deadline)
    kit.tick()
    assert kit.game().turn == 2
    assert _away_posts(kit) == []


def test_with_away_option_a_turn_waits_once_for_an_away_player_and_names_nobody(
    kit: HostKit,
) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    kit.say("bob", "me away 3d", dm=True)
    kit.say("alice", "#bst B2")
    first = kit.game().deadline
    kit.clock.set(first)
    kit.tick()
    kit.tick()
    game = kit.game()
    assert game.turn == 1  # it waits for bob
    assert game.deadline == first + 12 * 3600
    (said,) = _away_posts(kit)
    assert "waits up to 12 h " in said and "2026-01-01 20:00 UTC" in said
    assert "bob" not in said
    kit.clock.set(game.deadline)  # bob is still away: the turn waited once, it falls now
    kit.tick()
    assert kit.game().turn == 2
    assert len(_away_posts(kit)) == 1


def test_a_turn_waits_only_until_the_away_player_is_back(kit: HostKit) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    kit.say("bob", "me away 10h", dm=True)  # back at 10:00 UTC, the turn falls at 08:00
    first = kit.game().deadline
    kit.clock.set(first)
    kit.tick()
    assert kit.game().deadline == first + 2 * 3600


def test_no_wait_for_an_away_player_whose_order_is_in(kit: HostKit) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=12h")
    kit.say("bob", "me away 3d", dm=True)
    kit.say("bob", "#bst C3")
    kit.clock.set(kit.game().deadline)
    kit.tick()
    assert kit.game().turn == 2
    assert _away_posts(kit) == []


def test_the_away_option_is_refused_with_an_example_when_it_is_no_length(kit: HostKit) -> None:
    effect = kit.say("alice", "#bst new away=soon")
    assert effect.outcome.value == "refused"
    assert "`new away=12h`" in _private(kit, "alice")[-1]
    assert kit.game() is None


def test_the_host_sets_the_away_option_in_setup_and_the_game_keeps_its_own(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 turn=8h")
    kit.say("alice", "join")
    kit.say("alice", "options away=6h")
    assert '"away":"6h"' in kit.game().options
    assert '"size":"10x10"' in kit.game().options
    effect = kit.say("alice", "options away=forever")
    assert effect.outcome.value == "refused"
    assert '"away":"6h"' in kit.game().options


# --- away=pass: the away player's order is `pass` ---------------------------------------


def _passes(kit: HostKit) -> list[str]:
    return [r.text for r in kit.outbox() if r.kind == "away-pass"]


def _standing(kit: HostKit, turn: int) -> dict[str, str]:
    with kit.store.transaction() as tx:
        return {key: o.text for key, o in tx.standing_orders(1, turn).items()}


def test_with_away_pass_an_away_players_order_is_pass_each_turn_they_are_away(
    kit: HostKit,
) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=pass")
    kit.say("bob", "me away 3d", dm=True)
    kit.tick()
    kit.tick()  # (once: the pass is a message with an id of its own)
    assert _standing(kit, 1) == {"p2": "pass"}
    (said,) = _passes(kit)
    assert (
        said
        == "#bst game 1: turn 1 counts `pass` for a player who is away (this game's `away=pass`)."
    )
    assert "bob" not in said
    kit.say("alice", "#bst B2")
    kit.clock.set(kit.game().deadline)
    kit.tick()  # the turn falls on time: pass waits for nobody
    assert kit.game().turn == 2
    kit.clock.advance(60)
    kit.tick()
    assert _standing(kit, 2) == {"p2": "pass"}
    assert len(_passes(kit)) == 2  # once a turn
    kit.say("bob", "me back", dm=True)
    kit.clock.set(kit.game().deadline)
    kit.tick()
    kit.clock.advance(60)
    kit.tick()
    assert _standing(kit, 3) == {}  # back: bob orders for himself again
    with kit.store.transaction() as tx:
        stored = [loads(t.orders) for t in tx.turns(1) if t.number in (1, 2)]
    # In bst `pass` is "nothing" (rules: the default), so the turns resolved with no
    # action of bob's, and the record replays from its orders as before.
    assert stored == [[{"player": "p1", "action": "shoot", "cell": "B2"}], []]


def test_away_pass_leaves_an_order_given_before_alone(kit: HostKit) -> None:
    kit.two_player_battle("size=10x10 turn=8h away=pass")
    kit.say("bob", "#bst C1")
    kit.say("bob", "me away 3d", dm=True)
    kit.tick()
    assert _standing(kit, 1) == {"p2": "#bst C1"}
    assert _passes(kit) == []


def test_without_the_pass_option_nobody_passes_for_an_away_player(kit: HostKit) -> None:
    for options in ("size=10x10 turn=8h", "size=10x10 turn=8h away=12h"):
        kit.two_player_battle(options)
        kit.say("bob", "me away 3d", dm=True)
        kit.tick()
        assert _standing(kit, 1) == {}
        kit.say("alice", "end")
    assert _passes(kit) == []


def test_away_pass_is_refused_where_the_game_has_no_pass_order(kit: HostKit) -> None:
    effect = kit.say("alice", "#sonar new away=pass")
    assert effect.outcome.value == "refused"
    assert "sonar has no `pass` order" in _private(kit, "alice")[-1]
    assert "`new away=12h`" in _private(kit, "alice")[-1]
    assert kit.game() is None


SILENT_SHIPS_DECKS = (
    "deck1=submarine,frigate,flag_ship,ramming_ship,patrol_ship,speed_boat,salvage_ship,"
    "special_operations_craft,fire_ship,missile_boat,ammunition_ship "
    "deck2=ramming_ship,ammunition_ship,missile_boat,speed_boat,salvage_ship,"
    "special_operations_craft,fire_ship,flag_ship,frigate,submarine,patrol_ship"
)


def test_with_away_pass_an_away_defender_answers_pass_at_once_not_at_the_timeout(
    kit: HostKit,
) -> None:
    """Silent Ships: the defender's `pass` fights with the supports so far. Away, the
    defender passes as soon as the attack reaches them: the attacker does not wait out
    the response time (the contract's example game, shared/contracts/silentships.md)."""
    kit.say("alice", f"#silentships new first=joined away=pass {SILENT_SHIPS_DECKS}")
    kit.say("alice", "#silentships join")
    kit.say("bob", "#silentships join")
    kit.say("alice", "start")
    for text in ("play submarine at C1", "move C1 to C2 discard flag_ship",
                 "play frigate at C1", "end"):  # fmt: skip
        assert kit.say("alice", text, dm=True).outcome.value == "handled", text
    kit.say("alice", "me away 3d", dm=True)
    for text in ("play ramming_ship at C4", "move C4 to C3 discard speed_boat",
                 "move C3 to C2 discard salvage_ship", "go"):  # fmt: skip
        assert kit.say("bob", text, dm=True).outcome.value == "handled", text
    window = kit.game().deadline
    kit.clock.advance(30)
    kit.tick()
    assert kit.clock.now() < window
    from bot.host.play.record import game_record

    passes = [
        o
        for t in game_record(kit.store, 1)["turns"]
        for o in t["orders"]
        if o.get("action") == "pass"
    ]
    assert passes and passes[0]["player"] == "alice" and not passes[0].get("timeout")
    assert len(_passes(kit)) == 1
