"""Sugar Dog's rules part (``Rules`` in ``bot/games/base.py``): who may order when, what
an order does and what a deadline does. Setup lives in ``setup.py``, a turn's
resolution in ``resolution.py``; the turn, the options' text and one captain a seat
are the neutral rules'."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.games.base import (
    Accepted,
    Channel,
    Given,
    IllegalOrderError,
    NeutralRules,
    Notice,
    Outcome,
    PlayerId,
    Resolution,
    Timer,
    WrongChannelError,
)
from bot.games.sugardog import setup, text
from bot.games.sugardog.board import Cell, board_text
from bot.games.sugardog.options import parse_options
from bot.games.sugardog.orders import (
    EXAMPLES,
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
from bot.games.sugardog.resolution import Change, end_game, leave_battle, resolve_turn
from bot.games.sugardog.standings import standings
from bot.games.sugardog.state import Captain, Phase, Status, SugarDogState
from bot.games.sugardog.units import TimedOutSilence
from bot.games.sugardog.views import private_view

_ACTIONS = (SilentRunning, Cruise, Ping, FireTorpedo, LayMine)


def _is_action(order: Order) -> bool:
    return isinstance(order, _ACTIONS)


def new_game(options: Mapping[str, str]) -> SugarDogState:
    """A hunt in setup with these options (raises OptionError naming the known keys)."""
    return SugarDogState(options=parse_options(options))


def _log(state: SugarDogState, player: PlayerId) -> str:
    """A captain's own log (``log``): from their private view only."""
    private = private_view(state, player)
    assert private is not None
    return text.log_text(private)


class SugarDogRules(NeutralRules[SugarDogState, Order]):
    """Sugar Dog's state machine, where it differs from the neutral rules."""

    new_game = staticmethod(new_game)
    join = staticmethod(setup.join)
    parse = staticmethod(parse_order)
    standings = staticmethod(standings)

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
            return Accepted(state, None, (Notice(_log(state, player), to=player),))
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
