"""§3, §4 and design rule 3 (spanning two sections, so named after the rule): a captain's order is accepted or refused for reasons drawn
from their own ships and the board only — never from where other captains' ships are."""

from __future__ import annotations

import random

from bst_helpers import place
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import Channel, GameError, PlayerRef
from bot.games.bst import BST, BstState

ORDERS = [
    "#bst {cell}",
    "move carrier at {cell} 2 right",
    "move carrier at {cell} 5 left",
    "move carrier at {cell} 1 up",
    "move sub at {cell} 1 down",
    "move sub at {cell} 1 left",
    "rotate carrier at {cell}",
    "rotate sub at {cell}",
    "move cruiser at {cell} 1 up",
]
CELLS = ["A1", "A5", "C3", "E5", "E9", "H1", "J10", "E1", "B2"]


def battle(other_fleet: str) -> BstState:
    state = BST.rules.new_game({"size": "10x10"})
    state = BST.rules.join(state, PlayerRef("id-me", "me"))
    state = BST.rules.join(state, PlayerRef("id-other", "other"))
    state = place(state, "me", "carrier: E1-E5, sub: B2")
    state = place(state, "other", other_fleet)
    return BST.rules.start(state, random.Random(0)).state


def outcome(state: BstState, text: str) -> str:
    try:
        order = BST.rules.parse(text)
        channel = Channel.PUBLIC if text.startswith("#bst") else Channel.PRIVATE
        accepted = BST.rules.accept(state, "id-me", order, channel, random.Random(0))
    except GameError as error:
        return f"refused: {error.message}"
    return f"accepted: {BST.words.describe(accepted.standing) if accepted.standing else '-'}"


OTHER_FLEETS = st.sampled_from(
    [
        "cruiser: G1-G3, cruiser: J8-J10",
        "cruiser: E6-E8, cruiser: A1-A3",  # right next to my carrier
        "carrier: F1-F5, sub: D5",  # under the cells my moves would enter
        "carrier: A6-E6, sub: C3",
        "cruiser: H8-J8, cruiser: D1-D3",
    ]
)


@settings(max_examples=30, deadline=None)
@given(
    first=OTHER_FLEETS,
    second=OTHER_FLEETS,
    template=st.sampled_from(ORDERS),
    cell=st.sampled_from(CELLS),
)
def test_4_an_orders_acceptance_never_depends_on_other_captains_ships(
    first: str, second: str, template: str, cell: str
) -> None:
    text = template.format(cell=cell)
    assert outcome(battle(first), text) == outcome(battle(second), text)


# --- §3 placements that overlap another captain's ships ----------------------

PLACEMENTS = [
    "carrier: E1-E5, sub: B2",
    "cruiser: A4-C4, cruiser: E1-E3",
    "cruiser: F2-H2, cruiser: J8-J10",
    "carrier: A6-E6, sub: H9",
    "sub: D5, carrier: G1-G5",
]
PLACED_FLEETS = st.sampled_from(
    [
        "cruiser: G1-G3, cruiser: J8-J10",
        "carrier: F1-F5, sub: D5",
        "carrier: A6-E6, sub: C3",
        "cruiser: A4-C4, cruiser: E1-E3",
        "carrier: B2-B6, sub: J10",
    ]
)


def placement_answer(other_fleet: str, probes: list[str]) -> tuple[list[str], list[str]]:
    """What ``me`` is told for each placement in turn, with ``other`` placed first; and
    the cells of other's fleet that are not in any of my placements (never to be named)."""
    state = BST.rules.new_game({"size": "10x10"})
    state = BST.rules.join(state, PlayerRef("id-me", "me"))
    state = BST.rules.join(state, PlayerRef("id-other", "other"))
    state = place(state, "other", other_fleet)
    answers = []
    for text in probes:
        try:
            accepted = BST.rules.accept(
                state, "id-me", BST.rules.parse(text), Channel.PRIVATE, random.Random(0)
            )
        except GameError as error:
            answers.append(f"refused: {error.message}")
            continue
        state = accepted.state
        assert [n.to for n in accepted.notices] == ["id-me"]
        answers.append(accepted.notices[0].text)
    mine = {cell for text in probes for cell in _cells(text)}
    secret = sorted(cell for cell in _cells(other_fleet) if cell not in mine)
    return answers, secret


def _cells(fleet: str) -> set[str]:
    other = BST.rules.new_game({"size": "10x10"})
    other = BST.rules.join(other, PlayerRef("id-x", "x"))
    other = place(other, "x", fleet)
    captain = other.captain("id-x")
    assert captain is not None
    return {str(cell) for ship in captain.ships for cell in ship.cells}


@settings(max_examples=40, deadline=None)
@given(
    first=PLACED_FLEETS,
    second=PLACED_FLEETS,
    probes=st.lists(st.sampled_from(PLACEMENTS), min_size=1, max_size=6),
)
def test_3_a_placement_refusal_never_says_where_the_other_fleet_is(
    first: str, second: str, probes: list[str]
) -> None:
    """Whatever the other captain placed, an answer about an overlap is word for word the
    same and names none of their cells: until a probe overlaps in one world and not in the
    other, the two worlds get the same answers; at most 3 are refusals for overlap."""
    answers_first, secret_first = placement_answer(first, probes)
    answers_second, secret_second = placement_answer(second, probes)
    for answers, secret in ((answers_first, secret_first), (answers_second, secret_second)):
        for answer in answers:
            named = set(answer.replace(",", " ").replace(".", " ").replace(")", " ").split())
            assert not named & set(secret), answer
        overlaps = [a for a in answers if "overlap" in a or "placed at random when" in a]
        assert len([a for a in overlaps if a.startswith("Refused")]) <= 3
    for one, other in zip(answers_first, answers_second, strict=True):
        if one.startswith("Fleet placed") != other.startswith("Fleet placed"):
            break  # one world overlapped and the other did not: the one bit a probe gets
        assert one == other
