"""Silent Ships' rules part (``Rules`` in ``bot/games/base.py``): who may act when, what
each order does (the actions in ``actions.py``, attacks in ``attacks.py``, a turn's
end in ``turns.py``) and what a deadline does. The turn, the options' text and one
admiral a seat are the neutral rules'."""

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
    PlayerRef,
    Resolution,
    Timer,
    WrongChannelError,
)
from bot.games.silentships import acknowledgements, attacks, text
from bot.games.silentships.actions import move, play, reveal, swap
from bot.games.silentships.changes import Log
from bot.games.silentships.options import FirstPlayer, parse_options
from bot.games.silentships.orders import (
    PRIVATE_ORDERS,
    AcceptDraw,
    End,
    Go,
    Move,
    OfferDraw,
    Order,
    Pass,
    Play,
    Retreat,
    RetreatTo,
    Reveal,
    Support,
    Swap,
    action_of,
    describe_order,
    order_entry,
    parse_order,
)
from bot.games.silentships.ships import SHIP_ORDER, in_ship_order
from bot.games.silentships.standings import standings
from bot.games.silentships.state import (
    Admiral,
    Phase,
    Reason,
    SilentShipsState,
    Status,
    TurnStep,
)
from bot.games.silentships.turns import OPENING_HAND, begin_turn, decided_by_sinks, end_turn, finish

Change = tuple[SilentShipsState, Log, tuple[Notice, ...]]


def new_game(options: Mapping[str, str]) -> SilentShipsState:
    """A game in setup with these options (raises OptionError naming the known keys)."""
    return SilentShipsState(options=parse_options(options))


_ANSWERS = {
    Go: (TurnStep.SUPPORTS, "`go` sends your attack to the defender after you add supports"),
    Retreat: (TurnStep.RESPONSE, "`{}` answers an attack on your unit"),
    Pass: (TurnStep.RESPONSE, "`{}` answers an attack on your unit"),
    RetreatTo: (TurnStep.RETREAT, "`retreat to` chooses where a retreating target goes"),
}
"""The step of an attack at which each of these orders is given, and what it does."""


def _check_attack_step(state: SilentShipsState, player: PlayerId, order: Order) -> None:
    """Refuse, saying what the order does and what the attack waits for, unless the attack
    is at the order's step and ``player`` is the one it waits for there: the defender
    answers (``RESPONSE``), the attacker sends it (``go``) and chooses a retreat square."""
    step, what = _ANSWERS[type(order)]
    attack = state.attack
    waits_for = (
        None
        if attack is None
        else (attack.defender if step is TurnStep.RESPONSE else attack.attacker)
    )
    if state.step is not step or player != waits_for:
        raise IllegalOrderError(f"{what.format(action_of(order))} ({text.attack_waits_for(state)})")


class SilentShipsRules(NeutralRules[SilentShipsState, Order]):
    """Silent Ships' state machine, where it differs from the neutral rules."""

    new_game = staticmethod(new_game)
    parse = staticmethod(parse_order)
    standings = staticmethod(standings)

    def join(self, state: SilentShipsState, player: PlayerRef) -> SilentShipsState:
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError("this game has begun: joining is closed")
        if state.has(player.id):
            raise IllegalOrderError("you are in this game already")
        if len(state.admirals) >= 2:
            raise IllegalOrderError("Silent Ships is for two, and two have joined")
        return replace(state, admirals=(*state.admirals, Admiral(player.id, player.name)))

    def start(
        self, state: SilentShipsState, rng: random.Random, first: PlayerId | None
    ) -> Resolution[SilentShipsState]:
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError("this game has started already")
        if first is not None:
            raise IllegalOrderError(
                "in Silent Ships a coin toss (or the option first=joined) decides who moves "
                "first: send the start command without a name"
            )
        if len(state.admirals) != 2:
            raise IllegalOrderError(
                f"Silent Ships needs exactly two players, and {len(state.admirals)} joined"
            )
        ids = [admiral.id for admiral in state.admirals]
        opener = ids[0] if state.options.first is FirstPlayer.JOINED else ids[rng.randrange(2)]
        second = ids[1] if opener == ids[0] else ids[0]
        dealt = []
        for player, listed in ((opener, state.options.deck1), (second, state.options.deck2)):
            deck = list(listed) if listed is not None else list(SHIP_ORDER)
            if listed is None:
                rng.shuffle(deck)
            dealt.append((player, tuple(deck)))
            state = state.with_admiral(
                replace(
                    state.admiral(player),
                    hand=in_ship_order(deck[:OPENING_HAND]),
                    deck=tuple(deck[OPENING_HAND:]),
                )
            )
        state = replace(state, first=opener, dealt=tuple(dealt))
        log = Log()
        state = begin_turn(state, 1, rng, log)
        return Resolution(state, tuple(log.events), frozenset(ids))

    def accept(
        self,
        state: SilentShipsState,
        player: PlayerId,
        order: Order,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[SilentShipsState, Order]:
        self._check_player(state, player)
        if isinstance(order, PRIVATE_ORDERS) and channel is Channel.PUBLIC:
            # Never echo the order: it may name a card of the sender's hand.
            raise WrongChannelError(
                f"`{action_of(order)}` orders are private: send them to me by DM (nothing was done)"
            )
        if isinstance(order, End):
            self._check_actions(state, player, "end your turn")
            if state.invader(player) is not None and state.end_warned != state.turn:
                # Once a turn: ending it now loses, and a player should know before.
                warned = replace(state, end_warned=state.turn)
                return Accepted(warned, None, (Notice(text.end_warning(state, player), to=player),))
            ack = Notice(acknowledgements.turn_ended(state, player), to=player)
            return Accepted(state, order, (ack,), resolve_now=True)
        new_state, log, notices = self._act(state, player, order, rng)
        if new_state.phase is not Phase.FINISHED:
            # (an order that ends the game, `accept`, is answered by the end's posts: a
            # "Done" would arrive after them)
            new_state, answers = acknowledgements.answer(new_state, player, order, log)
            notices = (*answers, *notices)
        return Accepted(
            new_state,
            None,
            notices,
            events=tuple(log.events),
            orders=tuple(log.orders),
            changed=frozenset(log.changed),
        )

    def _check_player(self, state: SilentShipsState, player: PlayerId) -> None:
        if not state.has(player):
            raise IllegalOrderError("you are not in this game (send `join` while it is open)")
        if state.phase is Phase.SETUP:
            raise IllegalOrderError("the game has not started yet: wait for the host to start it")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: no more orders")
        if state.admiral(player).status is not Status.ALIVE:
            raise IllegalOrderError("you have left this game")

    def _check_actions(self, state: SilentShipsState, player: PlayerId, what: str) -> None:
        """Refuse unless it is ``player``'s turn and no attack is in progress."""
        mover = state.to_move
        assert mover is not None
        if player != mover:
            raise IllegalOrderError(
                f"it is {state.admiral(mover).name}'s turn: you may {what} in your own turn"
            )
        if state.step is not TurnStep.ACTIONS:
            raise IllegalOrderError(f"an attack is in progress: {text.attack_waits_for(state)}")

    def _act(
        self, state: SilentShipsState, player: PlayerId, order: Order, rng: random.Random
    ) -> Change:
        log = Log()
        notices: tuple[Notice, ...] = ()
        attack = state.attack
        if isinstance(order, Play):
            self._check_actions(state, player, "play a ship")
            state = play(state, player, order, log)
        elif isinstance(order, Move):
            self._check_actions(state, player, "move")
            state = move(state, player, order, log)
        elif isinstance(order, Swap):
            self._check_actions(state, player, "swap")
            state = swap(state, player, order, log)
        elif isinstance(order, Reveal):
            state = reveal(state, player, order, log)
        elif isinstance(order, Support):
            allowed = attack is not None and (
                (state.step is TurnStep.SUPPORTS and player == attack.attacker)
                or (state.step is TurnStep.RESPONSE and player == attack.defender)
            )
            if not allowed:
                raise IllegalOrderError(
                    "supports are added during an attack: by the attacker before `go`, by the "
                    f"defender while answering ({text.attack_waits_for(state)})"
                )
            state = attacks.support(state, player, order, log)
            if state.step is TurnStep.RESPONSE:
                notices = (text.question(state),)
        elif isinstance(order, Go):
            _check_attack_step(state, player, order)
            state = attacks.go(state, player, log)
            notices = (text.question(state), text.answer_awaited(state))
        elif isinstance(order, Retreat | Pass):
            _check_attack_step(state, player, order)
            if isinstance(order, Pass):
                state = attacks.answer_pass(state, player, rng, log)
            else:
                state = attacks.retreat(state, player, order, rng, log)
                if state.step is TurnStep.RETREAT:
                    notices = (text.retreat_question(state),)
        elif isinstance(order, RetreatTo):
            _check_attack_step(state, player, order)
            state = attacks.choose_retreat(state, player, order, rng, log)
        elif isinstance(order, OfferDraw):
            if state.offer is not None:
                who = state.admiral(state.offer).name
                raise IllegalOrderError(
                    f"{who}'s offer stands already: "
                    + (
                        "it lasts until the end of this turn"
                        if state.offer == player
                        else "`accept` it"
                    )
                )
            log.order(player, order_entry(order))
            state = replace(state, offer=player)
            notices = (text.offer_made(state, player),)
        elif isinstance(order, AcceptDraw):
            if state.offer is None or state.offer == player:
                raise IllegalOrderError(
                    "there is no offer to accept: "
                    + (
                        "yours waits for your opponent"
                        if state.offer == player
                        else "send `offer stop` to make one"
                    )
                )
            log.order(player, order_entry(order))
            state = finish(state, decided_by_sinks(state), Reason.AGREED, log)
        else:  # pragma: no cover - End is handled by accept
            raise IllegalOrderError(f"`{describe_order(order)}` cannot be given now")
        return state, log, notices

    def timers(self, state: SilentShipsState) -> tuple[Timer, ...]:
        player = state.to_move
        if player is None:
            return ()
        clock = Timer(
            f"move:{state.turn}",
            state.options.move_time.total_seconds(),
            f"{state.admiral(player).name}'s turn {state.turn}",
            held=state.step is TurnStep.RESPONSE,
        )
        if state.step is not TurnStep.RESPONSE:
            return (clock,)
        attack = attacks.current(state)
        answer = Timer(
            f"response:{attack.number}",
            state.options.response_time.total_seconds(),
            f"{state.admiral(attack.defender).name}'s answer",
        )
        # Once the move time has run out there is no clock to stop and resume.
        return (answer,) if state.out_of_time else (clock, answer)

    def to_act(self, state: SilentShipsState) -> frozenset[PlayerId]:
        player = state.to_move
        if player is None:
            return frozenset()
        if state.step is TurnStep.RESPONSE:
            return frozenset({attacks.current(state).defender})
        return frozenset({player})

    def resolve(
        self,
        state: SilentShipsState,
        orders: Sequence[Given[Order]],
        rng: random.Random,
    ) -> Resolution[SilentShipsState]:
        """The turn player's ``end`` completes the turn."""
        if state.phase is not Phase.BATTLE or state.step is not TurnStep.ACTIONS:
            return Resolution(state, (), frozenset())
        log = Log()
        state = end_turn(state, rng, log)
        return self._resolution(state, log)

    def expire(
        self,
        state: SilentShipsState,
        timer: str,
        orders: Sequence[Given[Order]],
        rng: random.Random,
    ) -> Resolution[SilentShipsState]:
        if timer not in {t.key for t in self.timers(state) if not t.held}:
            return Resolution(state, (), frozenset())
        log = Log()
        notices: tuple[Notice, ...] = ()
        mover = state.to_move
        assert mover is not None
        if timer.startswith("response:"):
            state = attacks.answer_pass(
                state, attacks.current(state).defender, rng, log, timeout=True
            )
        elif state.step is TurnStep.ACTIONS:
            notices = acknowledgements.timed_out(state)
            state = end_turn(state, rng, log, timeout=True)
        elif state.step is TurnStep.SUPPORTS:
            # The attack goes on without more supports; the turn ends once it is over.
            state = attacks.go(replace(state, out_of_time=True), mover, log, timeout=True)
            notices = (text.question(state), text.answer_awaited(state))
        elif state.step is TurnStep.RETREAT:
            first_square = attacks.current(state).retreat_squares[0]
            log.order(mover, order_entry(RetreatTo(first_square)), timeout=True)
            state = attacks.retreat_to(replace(state, out_of_time=True), first_square, rng, log)
        return self._resolution(state, log, notices)

    @staticmethod
    def _resolution(
        state: SilentShipsState, log: Log, notices: tuple[Notice, ...] = ()
    ) -> Resolution[SilentShipsState]:
        return Resolution(
            state,
            tuple(log.events),
            frozenset(log.changed),
            notices,
            tuple(log.orders),
        )

    def remove(self, state: SilentShipsState, player: PlayerId) -> Resolution[SilentShipsState]:
        if not state.has(player):
            raise IllegalOrderError("that player is not in this game")
        if state.phase is Phase.SETUP:
            # Leaving during setup costs nothing: the player may join again.
            kept = tuple(a for a in state.admirals if a.id != player)
            return Resolution(replace(state, admirals=kept), (), frozenset())
        if state.phase is Phase.FINISHED:
            return Resolution(state, (), frozenset())
        log = Log()
        log.order(player, {"action": "leave"})
        state = finish(state, state.opponent(player), Reason.LEFT, log, loser_status=Status.LEFT)
        return self._resolution(state, log)

    def finish(self, state: SilentShipsState) -> Resolution[SilentShipsState]:
        if state.phase is Phase.SETUP:
            return Resolution(replace(state, phase=Phase.FINISHED), (), frozenset())
        if state.phase is Phase.FINISHED:
            return Resolution(state, (), frozenset())
        log = Log()
        state = finish(state, decided_by_sinks(state), Reason.ENDED, log)
        return self._resolution(state, log)

    def outcome(self, state: SilentShipsState) -> Outcome | None:
        if state.phase is not Phase.FINISHED:
            return None
        return Outcome(state.winners, draw=False)
