"""BattleshipTwitter (bst) declared as a game (``bot/games/base.py``): its four parts
are thin facades over this package's modules. The rules are ``shared/rules/bst.md``
(in short: :data:`~bot.games.bst.text.RULES_TEXT`, and ``RULES.md`` here).

Captains join a shared rectangular board and place two ships each in secret (a
carrier and a submarine, or two cruisers: ``acceptance.py``, ``placement.py``).
Then the battle runs in turns on a clock (``turns.py``): each live captain may shoot
one cell in public, or move or rotate one ship by DM, or pass; the newest order
stands. At the deadline every order resolves at once (``resolution.py``): ships
move together in lock-step (``movement.py``), shots land, wrecks sink, captains with
no ship afloat are eliminated, and the last captain afloat wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import (
    Accepted,
    Channel,
    Event,
    Game,
    Given,
    NeutralWords,
    Outcome,
    PlayerId,
    PlayerRef,
    RecordContext,
    Resolution,
    Standing,
    Step,
    Timer,
)
from bot.games.bst import acceptance, codec, lifecycle, record, reports, text, turns
from bot.games.bst.crowd_captains import CROWD
from bot.games.bst.options import parse_options
from bot.games.bst.orders import Order, describe_order, parse_order
from bot.games.bst.robot import ROBOT
from bot.games.bst.standings import standings
from bot.games.bst.state import BstState
from bot.games.bst.status import Phase
from bot.games.bst.strong_robot import STRONG_ROBOT
from bot.games.bst.verbs import OPTION_ARGS, VERBS
from bot.games.bst.views import PrivateView, PublicView, RevealedView, revealed_view, view_of


class BstRules:
    """bst's state machine."""

    def new_game(self, options: Mapping[str, str]) -> BstState:
        return BstState(options=parse_options(options))

    def options(self, state: BstState) -> dict[str, str]:
        return state.options.text()

    def join(self, state: BstState, player: PlayerRef) -> BstState:
        return lifecycle.join(state, player)

    def start(
        self, state: BstState, rng: random.Random, first: PlayerId | None = None
    ) -> Resolution[BstState]:
        return lifecycle.start(state, rng, first)

    def parse(self, text: str) -> Order:
        return parse_order(text)

    def accept(
        self,
        state: BstState,
        player: PlayerId,
        order: Order,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[BstState, Order]:
        return acceptance.accept_order(state, player, order, channel, rng)

    def turn(self, state: BstState) -> int:
        return state.turn

    def timers(self, state: BstState) -> tuple[Timer, ...]:
        return turns.timers(state)

    def to_act(self, state: BstState) -> frozenset[PlayerId]:
        return turns.to_act(state)

    def resolve(
        self, state: BstState, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[BstState]:
        return turns.resolve_turn(state, orders, rng)

    def expire(
        self, state: BstState, timer: str, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[BstState]:
        return turns.expire(state, timer, orders, rng)

    def remove(self, state: BstState, player: PlayerId) -> Resolution[BstState]:
        return lifecycle.remove(state, player)

    def finish(self, state: BstState) -> Resolution[BstState]:
        return lifecycle.finish(state)

    def outcome(self, state: BstState) -> Outcome | None:
        return lifecycle.outcome(state)

    def standings(self, state: BstState, history: Sequence[Step]) -> tuple[Standing, ...]:
        return standings(state, history)

    def crew(self, state: BstState, player: PlayerId) -> tuple[PlayerId, ...]:
        return (player,)


class BstViews:
    """bst's views: what each viewer may see."""

    def view(self, state: BstState, viewer: PlayerId | None) -> PublicView | PrivateView:
        return view_of(state, viewer)

    def reveal(self, state: BstState) -> RevealedView:
        return revealed_view(state)


class BstCodec:
    """bst's state and orders as JSON, and the record."""

    def encode_state(self, state: BstState) -> dict[str, Any]:
        return codec.encode_state(state)

    def decode_state(self, data: Mapping[str, Any]) -> BstState:
        return codec.decode_state(data)

    def encode_order(self, order: Order) -> dict[str, Any]:
        return codec.encode_order(order)

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        return codec.decode_order(data)

    def record(
        self, state: BstState, history: Sequence[Step], context: RecordContext
    ) -> dict[str, Any]:
        return record.game_record(state, history, context, kind="bst")


class BstWords(NeutralWords[BstState, Order]):
    """bst's words, where they differ from the neutral ones."""

    def describe(self, order: Order) -> str:
        return describe_order(order)

    def acknowledge(self, turn: int, standing: Order, replaced: Order | None) -> str:
        return text.acknowledgement(turn, standing, replaced)

    def opening(self, state: BstState) -> str:
        return text.opening(state)

    def welcome(self, state: BstState, player: PlayerId, number: int) -> str:
        return text.welcome(state, player, number)

    def quick_orders(self, state: BstState, player: PlayerId) -> tuple[str, ...]:
        # A fleet placed at random saves typing five ships' cells.
        return ("random",) if state.phase is Phase.SETUP else ()

    def beginning(self, state: BstState, names: Mapping[PlayerId, str]) -> str:
        in_battle = turns.to_act(state)  # not those who left during setup
        return text.beginning(
            [names.get(c.id, c.name) for c in state.captains if c.id in in_battle]
        )

    def hint(self, state: BstState) -> str:
        return text.BATTLE_HINT

    def quiet_report(self) -> str:
        return text.QUIET_REPORT

    def board_heading(self, title: str, turn: int) -> str:
        return text.board_heading(title, turn)

    def result(self, state: BstState, names: Mapping[PlayerId, str]) -> str:
        return text.result(lifecycle.outcome(state), names)

    def reminder(self, state: BstState, left: str) -> str:
        return text.reminder(state, left)

    def replay_caption(self) -> str:
        return text.REPLAY_CAPTION

    def example(self) -> str:
        return text.EXAMPLE

    def player_word(self, count: int) -> str:
        return text.player_word(count)

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        return reports.public_report(events, names)

    def public_report_in_full(
        self, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> list[str]:
        return reports.public_report(events, names, named=None)

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return reports.private_report(events, viewer)

    def summary(self, state: BstState, viewer: PlayerId | None) -> str:
        return text.summary_text(view_of(state, viewer))

    def text_board(self, state: BstState, viewer: PlayerId | None) -> str:
        return text.board_text(view_of(state, viewer))

    def help_text(self) -> str:
        return text.HELP_TEXT

    def rules_text(self) -> str:
        return text.RULES_TEXT


BST: Game[BstState, Order] = Game(
    name="bst",
    tag="#bst",
    title="BattleshipTwitter",
    verbs=VERBS,
    option_args=OPTION_ARGS,
    rules=BstRules(),
    views=BstViews(),
    codec=BstCodec(),
    words=BstWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
    crowd=CROWD,
    simultaneous=True,
    public_needs_tag=False,  # every message in a bst channel is for the game (rules §4)
)
