"""Robots are honest (issue 44), tested under hypothesis: a robot seated in a live game
(``robots=1:strong``) decides from its own seat's view alone, so two games that differ
only in another player's hidden fleet give the robot identical orders — its placement,
and every turn's shot for as long as the public history of the two games is the same."""

from __future__ import annotations

from pathlib import Path

from host_kit import MultiKit
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sqlmodel import select
from test_no_leak import LETTERS, fleet

from bot.store.models import InboundRow

TURNS = 4


def _play(folder: Path, alice_fleet: str, shots: list[str]) -> MultiKit | None:
    """The robot (p1) and alice (p2): alice places ``alice_fleet`` and fires ``shots``."""
    kit = MultiKit(folder, ["discord"])
    say = kit.say
    say("discord", "alice", "#bst new size=10x10 turn=1h robots=1:strong", channel="c",
        message_id="n")  # fmt: skip
    say("discord", "alice", "join", channel="c", message_id="j")
    say("discord", "alice", alice_fleet, channel="c", dm=True, message_id="f")
    say("discord", "alice", "start", channel="c", message_id="s")
    if kit.game(1).phase != "battle":
        kit.close()
        return None
    for turn, shot in enumerate(shots):
        say("discord", "alice", f"#bst {shot}", channel="c", message_id=f"a{turn}")
        kit.clock.advance(3600)
        kit.tick()
    return kit


def _robot_orders(kit: MultiKit) -> dict[str, str]:
    """What the robot sent, by message id (game, turn, step, seat, index)."""
    with kit.store.transaction() as tx:
        rows = tx.session.exec(select(InboundRow).order_by(InboundRow.id)).all()
        return {r.message_id: r.text for r in rows if r.message_id.startswith("robot:")}


def _public_reports(kit: MultiKit) -> list[str]:
    """Each resolved turn's public report, in order."""
    return [r.text for r in kit.outbox(1) if r.recipient == "public" and r.kind.startswith("map")]


def _turn_of(message_id: str) -> int:
    moment = message_id.split(":")[2]
    return 0 if moment.startswith("setup") else int(moment)


@settings(
    derandomize=True, deadline=None, database=None, max_examples=6,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
@given(first=fleet(), second=fleet(), data=st.data())
def test_a_robot_orders_the_same_whatever_another_players_hidden_fleet(
    tmp_path_factory, first, second, data
) -> None:
    assume(first[1] != second[1])
    water = [f"{letter}{n}" for letter in LETTERS for n in range(1, 11)]
    shots = data.draw(st.lists(st.sampled_from(water), min_size=TURNS, max_size=TURNS))
    folder = tmp_path_factory.mktemp("robot-leak")
    one = _play(folder / "one", first[0], shots)
    assume(one is not None)
    two = _play(folder / "two", second[0], shots)
    if two is None:
        one.close()
        assume(False)
    try:
        orders_one, orders_two = _robot_orders(one), _robot_orders(two)
        reports_one, reports_two = _public_reports(one), _public_reports(two)
        # The robot's order of turn t is decided on the public history before it: the
        # start's post and the reports of turns 1 to t-1 (the first t posts). Compared
        # for every turn whose history the two games share.
        shared = 0
        while (
            shared < min(len(reports_one), len(reports_two))
            and reports_one[shared] == reports_two[shared]
        ):
            shared += 1
        compared = {m: t for m, t in orders_one.items() if _turn_of(m) <= shared}
        assert any(_turn_of(m) == 0 for m in compared)  # its placement
        assert any(_turn_of(m) == 1 for m in compared)  # its first shot
        assert len(reports_one) == TURNS + 1  # the start's post, then each turn's
        for message_id, text in compared.items():
            assert orders_two.get(message_id) == text, (
                f"the robot's {message_id} depends on alice's hidden fleet"
            )
    finally:
        one.close()
        two.close()
