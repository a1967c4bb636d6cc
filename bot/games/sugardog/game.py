"""Sugar Dog (``#sugardog``) declared as a game of four parts (shared/rules/sugardog.md).

Two or more captains each hide a submarine on a small grid (6 × 6 for two, 2
more each way for every further captain) and take turns, one action each, by
DM: silent running (stay or move one cell, announced only by name), cruise
(two cells, a public contact in each), active sonar (everyone's position
announced), a torpedo (runs two cells now and two at each of its owner's later
turns) or a mine (three each). Contacts and impacts are announced the moment
they happen; everything in a cell where something runs into something is
destroyed; the last submarine afloat wins. The host names who moves first,
play goes on in join order, and a captain whose ``move_time`` runs out holds
position silently. This module declares the game; the rules live in
``setup.py`` and ``resolution.py``, the words in ``text.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.games.base import (
    Accepted,
    Channel,
    Event,
    Game,
    Given,
    IllegalOrderError,
    NeutralWords,
    Notice,
    Outcome,
    PlayerId,
    PlayerRef,
    RecordContext,
    Resolution,
    Standing,
    Step,
    Timer,
    WrongChannelError,
)
from bot.games.duration import humanize
from bot.games.sugardog import codec, setup, text
from bot.games.sugardog.board import Cell, board_text
from bot.games.sugardog.options import OPTION_ARGS, parse_options
from bot.games.sugardog.orders import (
    EXAMPLES,
    VERBS,
    Action,
    Cruise,
    FireTorpedo,
    LayMine,
    Leave,
    Order,
    Ping,
    ShowLog,
    SilentRunning,
    StartingCell,
    describe_order,
    order_record,
    parse_order,
)
from bot.games.sugardog.record import build_record
from bot.games.sugardog.resolution import Change, end_game, leave_battle, resolve_turn
from bot.games.sugardog.robot import ROBOT
from bot.games.sugardog.standings import standings
from bot.games.sugardog.state import Captain, Phase, Status, SugarDogState
from bot.games.sugardog.strong_robot import STRONG_ROBOT
from bot.games.sugardog.units import TimedOutSilence
from bot.games.sugardog.views import (
    PrivateView,
    PublicView,
    RevealedView,
    private_view,
    public_view,
    revealed_view,
)

_ACTIONS = (SilentRunning, Cruise, Ping, FireTorpedo, LayMine)


def _is_action(order: Order) -> bool:
    return isinstance(order, _ACTIONS)


class SugarDogRules:
    """Sugar Dog's state machine."""

    def new_game(self, options: Mapping[str, str]) -> SugarDogState:
        return SugarDogState(options=parse_options(options))

    def options(self, state: SugarDogState) -> dict[str, str]:
        return state.options.text()

    def join(self, state: SugarDogState, player: PlayerRef) -> SugarDogState:
        return setup.join(state, player)

    def start(
        self, state: SugarDogState, rng: random.Random, first: PlayerId | None
    ) -> Resolution[SugarDogState]:
        started = setup.begin(state, rng, first)
        notices = []
        for player in started.random:
            captain = started.state.captain(player)
            assert captain is not None
            notices.append(
                Notice(
                    f"You sent no starting cell on the {board_text(started.state.size)} board, so "
                    f"one was drawn at random: your submarine starts at {captain.start_cell}.",
                    to=player,
                )
            )
        return Resolution(
            started.state,
            (),
            frozenset(started.state.order),
            notices=(*notices, *_your_move(started.state)),
        )

    def parse(self, text: str) -> Order:
        return parse_order(text)

    def accept(
        self,
        state: SugarDogState,
        player: PlayerId,
        order: Order,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[SugarDogState, Order]:
        captain = state.captain(player)
        if captain is None:
            raise IllegalOrderError("you are not in this game: send `join` to play")
        if isinstance(order, ShowLog):
            # Not an action: answered by DM wherever it was asked, changing nothing.
            return Accepted(state, None, (Notice(self._log(state, player), to=player),))
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: no more orders (`log` still works)")
        if captain.status is Status.LEFT:
            raise IllegalOrderError("you have left this game")
        if isinstance(order, StartingCell):
            return self._accept_cell(state, captain, order, channel)
        if state.phase is Phase.SETUP:
            raise IllegalOrderError(
                "the hunt has not begun: for now, DM me your secret starting cell, e.g. `C4`"
            )
        if captain.status is Status.ELIMINATED:
            raise IllegalOrderError(
                "your submarine is destroyed: you are out of this game (`log` still works)"
            )
        if channel is not Channel.PRIVATE:
            # Never repeat the order: the message itself already said too much.
            raise WrongChannelError(
                "orders are private: DM me your order, e.g. `silent up` (nothing was done)"
            )
        if state.current != player:
            mover = "nobody's" if state.current is None else f"{state.name(state.current)}'s"
            raise IllegalOrderError(f"it is {mover} turn: wait for yours")
        _check_action(state, captain, order)
        ack = Notice(f"Turn {state.turn}: {describe_order(order)}.", to=player)
        return Accepted(state, order, (ack,), resolve_now=True)

    def _accept_cell(
        self, state: SugarDogState, captain: Captain, order: StartingCell, channel: Channel
    ) -> Accepted[SugarDogState, Order]:
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError(
                "the hunt has begun and your submarine is at sea: on your turn DM me an order, "
                "e.g. `silent up`"
            )
        if channel is not Channel.PRIVATE:
            raise WrongChannelError("your starting cell is secret: send it by DM")
        size = state.board
        if not order.cell.on_board(size):
            raise IllegalOrderError(
                f"{order.cell} is off the {board_text(size)} board: send a cell from A1 to "
                f"{_corner(size)}, e.g. `C4`"
            )
        placed = state.with_captain(replace(captain, start_cell=order.cell))
        return Accepted(
            placed,
            None,
            (
                Notice(
                    f"Your submarine will start at {order.cell}. Until the hunt begins you may "
                    "send another cell; the latest one stands.",
                    to=captain.id,
                ),
            ),
        )

    def turn(self, state: SugarDogState) -> int:
        return state.turn

    def timers(self, state: SugarDogState) -> tuple[Timer, ...]:
        if state.phase is not Phase.BATTLE or state.current is None:
            return ()
        label = f"{state.name(state.current)}'s move (turn {state.turn})"
        return (Timer(_move_key(state), float(state.options.move_time), label),)

    def to_act(self, state: SugarDogState) -> frozenset[PlayerId]:
        if state.phase is Phase.SETUP:
            return frozenset(c.id for c in state.present)
        if state.phase is Phase.BATTLE and state.current is not None:
            return frozenset({state.current})
        return frozenset()

    def resolve(
        self, state: SugarDogState, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[SugarDogState]:
        if state.phase is not Phase.BATTLE or state.current is None:
            raise IllegalOrderError("there is no turn to resolve: the hunt is not on")
        given = [g for g in orders if g.player == state.current and _is_action(g.order)]
        if not given:
            raise IllegalOrderError("the captain to move has given no order this turn")
        order = max(given, key=lambda g: g.sequence).order
        captain = state.captain(state.current)
        assert captain is not None
        _check_action(state, captain, order)
        assert not isinstance(order, (StartingCell, ShowLog))
        return self._turn(state, resolve_turn(state, order), order, timeout=False)

    def expire(
        self, state: SugarDogState, timer: str, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[SugarDogState]:
        if state.phase is not Phase.BATTLE or timer != _move_key(state):
            return Resolution(state, (), frozenset())  # a deadline that no longer runs
        timeout = SilentRunning(None)
        return self._turn(state, resolve_turn(state, timeout, timeout=True), timeout, timeout=True)

    def _turn(
        self, before: SugarDogState, change: Change, order: Action, timeout: bool
    ) -> Resolution[SugarDogState]:
        """A resolved turn. Its one notice is "your move" to the captain whose turn
        begins; the host posts the public report (:meth:`public_report`) and each changed
        captain's board with their private report (:meth:`private_report`) from the
        events, once each."""
        assert before.current is not None
        player = before.current
        events = change.events
        if timeout:
            events = tuple(
                TimedOutSilence.of(event)
                if event.type == "silent" and event.data.get("player") == player
                else event
                for event in events
            )
        return Resolution(
            change.state,
            events,
            change.changed,
            notices=_your_move(change.state),
            orders=(order_record(order, player, timeout),),
        )

    def remove(self, state: SugarDogState, player: PlayerId) -> Resolution[SugarDogState]:
        captain = state.captain(player)
        if captain is None:
            raise IllegalOrderError("that captain is not in this game")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over")
        if state.phase is Phase.SETUP:
            return Resolution(setup.leave_setup(state, player), (), frozenset())
        if captain.status is not Status.ALIVE:
            return Resolution(state, (), frozenset())
        change = leave_battle(state, player)
        # The host says who left, then this game's public report of the events.
        # Leaving on one's own turn passes the turn: its new mover is told.
        moved_on = change.state.current != state.current
        return Resolution(
            change.state,
            change.events,
            change.changed,
            notices=_your_move(change.state) if moved_on else (),
            orders=(order_record(Leave(), player),),
        )

    def finish(self, state: SugarDogState) -> Resolution[SugarDogState]:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is already over")
        change = end_game(state)
        return Resolution(change.state, change.events, change.changed)

    def outcome(self, state: SugarDogState) -> Outcome | None:
        if state.phase is not Phase.FINISHED:
            return None
        return Outcome(winners=state.winners, draw=state.draw)

    def standings(self, state: SugarDogState, history: Sequence[Step]) -> tuple[Standing, ...]:
        return standings(state, history)

    def crew(self, state: SugarDogState, player: PlayerId) -> tuple[PlayerId, ...]:
        return (player,)

    def _log(self, state: SugarDogState, player: PlayerId) -> str:
        private = private_view(state, player)
        assert private is not None
        return text.log_text(private)


class SugarDogViews:
    """Sugar Dog's views: what each viewer may see."""

    def view(self, state: SugarDogState, viewer: PlayerId | None) -> PublicView | PrivateView:
        return _view(state, viewer)

    def reveal(self, state: SugarDogState) -> RevealedView:
        return revealed_view(state)


class SugarDogCodec:
    """Sugar Dog's state and orders as JSON, and the record."""

    def encode_state(self, state: SugarDogState) -> dict[str, Any]:
        return codec.encode_state(state)

    def decode_state(self, data: Mapping[str, Any]) -> SugarDogState:
        return codec.decode_state(data)

    def encode_order(self, order: Order) -> dict[str, Any]:
        return codec.encode_order(order)

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        order = codec.decode_order(data)
        if isinstance(order, Leave):
            raise ValueError("`leave` is the host's word, not a stored Sugar Dog order")
        return order

    def record(
        self, state: SugarDogState, history: Sequence[Step], context: RecordContext
    ) -> dict[str, Any]:
        options = state.options.text()
        # RecordContext has no seed yet; the host strips it from the options it passes.
        seed = getattr(context, "seed", None)
        if seed is not None and "seed" not in options:
            options["seed"] = str(seed)
        return build_record(state, history, context, options)


class SugarDogWords(NeutralWords[SugarDogState, Order]):
    """Sugar Dog's words, where they differ from the neutral ones."""

    def describe(self, order: Order) -> str:
        return describe_order(order)

    def opening(self, state: SugarDogState) -> str:
        size = board_text(state.board)
        move_time = humanize(timedelta(seconds=state.options.move_time))
        return (
            f"is open: a submarine duel on a {size} board (2 more each way for every captain "
            f"past two). Join with `{text.TAG} join` (or `join` by DM), then DM me your secret "
            f"starting cell, e.g. `C4`. Each captain has {move_time} to move."
        )

    def welcome(self, state: SugarDogState, player: PlayerId, number: int) -> str:
        count = len(state.present)
        return (
            f"{state.name(player)} joined game {number} ({count} "
            f"{self.player_word(count)}, board {board_text(state.board)} so far). DM me your "
            "secret starting cell, e.g. `C4` (columns are letters from the left, rows numbers "
            "from the bottom); the latest one you send before the start stands."
        )

    def beginning(self, state: SugarDogState, names: Mapping[PlayerId, str]) -> str:
        order = [names.get(p, state.name(p)) for p in state.order]
        first = order[0] if order else "nobody"
        return (
            f"the hunt begins! {len(order)} captains on a {board_text(state.size)} board. "
            f"Turn order: {', '.join(order)}. {first} moves first."
        )

    def hint(self, state: SugarDogState) -> str:
        return f"On your turn DM me one order: {EXAMPLES}. `log` shows your own log."

    def board_heading(self, title: str, turn: int) -> str:
        if turn:  # the turn the board shows, as its picture names it
            return f"{title}, turn {turn}:"
        return f"{title}: your submarine as the hunt begins."

    def result(self, state: SugarDogState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is not Phase.FINISHED:
            return ""
        winners = [names.get(p, state.name(p)) for p in state.winners]
        ended_by_host = bool(state.history) and state.history[-1].order is None
        if ended_by_host:
            return text.ended_sentence(winners)
        return text.result_sentence(winners, state.draw)

    def reminder(self, state: SugarDogState, left: str) -> str:
        return (
            f"it is your turn ({state.turn}) and your time runs out in {left}: DM me {EXAMPLES}. "
            "If it runs out, you hold position silently."
        )

    def replay_caption(self) -> str:
        return "the replay of the whole hunt."

    def example(self) -> str:
        return "silent up"

    def player_word(self, count: int) -> str:
        return "captain" if count == 1 else "captains"

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        return text.public_lines(events, names)

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return text.private_lines(events, viewer)

    def summary(self, state: SugarDogState, viewer: PlayerId | None) -> str:
        return text.summary_text(_view(state, viewer))

    def text_board(self, state: SugarDogState, viewer: PlayerId | None) -> str:
        return text.board_text(_view(state, viewer))

    def help_text(self) -> str:
        return text.HELP_TEXT

    def running_phase(self) -> str:
        return "duel"  # "a submarine duel" (the rules' first line)

    def rules_text(self) -> str:
        return text.RULES_TEXT


def _view(state: SugarDogState, viewer: PlayerId | None) -> PublicView | PrivateView:
    """A captain's own view; the public one for anyone else (and for ``None``)."""
    if viewer is not None:
        private = private_view(state, viewer)
        if private is not None:
            return private
    return public_view(state)


def _move_key(state: SugarDogState) -> str:
    return f"move:{state.turn}"


def _corner(size: int) -> str:
    return str(Cell(size - 1, size - 1))


def _check_action(state: SugarDogState, captain: Captain, order: Order) -> None:
    """Refuse what the rules refuse, judged from the captain's own submarine and the
    board's edges only (never from anything of anyone else)."""
    cell = captain.cell
    assert cell is not None
    if isinstance(order, SilentRunning) and order.direction is not None:
        if not cell.step(order.direction).on_board(state.size):
            raise IllegalOrderError(f"that leaves the board: you are at {cell}")
    elif isinstance(order, Cruise):
        first = cell.step(order.first)
        if not first.on_board(state.size) or not first.step(order.second).on_board(state.size):
            raise IllegalOrderError(f"that leaves the board: you are at {cell}")
    elif isinstance(order, LayMine) and captain.mines_left <= 0:
        raise IllegalOrderError(
            "you have no mines left (3 per submarine): choose another action, e.g. `silent`"
        )
    elif not _is_action(order):
        raise IllegalOrderError(f"that is not an action: on your turn DM me {EXAMPLES}")


def _your_move(state: SugarDogState) -> tuple[Notice, ...]:
    """The captain whose turn begins is told so (turns are long: a day by default)."""
    if state.phase is not Phase.BATTLE or state.current is None:
        return ()
    return (
        Notice(
            f"Turn {state.turn} is yours: DM me one order, e.g. {EXAMPLES}.",
            to=state.current,
        ),
    )


SUGARDOG: Game[SugarDogState, Order] = Game(
    name="sugardog",
    tag=text.TAG,
    title=text.TITLE,
    verbs=VERBS,
    option_args=OPTION_ARGS,
    rules=SugarDogRules(),
    views=SugarDogViews(),
    codec=SugarDogCodec(),
    words=SugarDogWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
)
