"""Sonar (Cameron Browne, 2007) declared as a game of four parts: see
``shared/rules/sonar.md`` for every rule and ``shared/contracts/sonar.md`` for the
orders and the record.

Two to four captains join; their fleets of subs (lengths 2, 3, 3, 4, …) are placed on
a wrapping hex ocean, at random by the host so that no two subs ever meet, or with
``placement=given`` as each captain sends theirs by DM. Captains then take turns in
join order: every sub sails one step forward, and the captain to move fires up to one
depth charge per live sub (half on the game's first turn, one with ``one_shot``); a
charge on a sub segment is a hit, the one that completes a sub sinks it, and a miss
reports the distance to the nearest sub. A turn that runs out of ``move_time`` fires
at random or is skipped; ``leave`` waits for the turn in progress to end. The last
captain with live subs wins. Everything here is pure and deterministic: randomness
only from the ``random.Random`` the host passes in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.games.base import (
    OVERLAP_REFUSALS,
    Accepted,
    Arg,
    ArgKind,
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
    Verb,
    WrongChannelError,
)
from bot.games.duration import format_duration
from bot.games.sonar import codec, record, text
from bot.games.sonar.encounters import Course
from bot.games.sonar.fleet import (
    FLEET_EXAMPLE,
    Submarine,
    check_fleet,
    fleet_lengths,
    fleet_lines,
    lengths_list,
    lengths_text,
    meets_any,
)
from bot.games.sonar.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    OnTimeout,
    Placement,
    parse_options,
)
from bot.games.sonar.orders import (
    AtRandom,
    Fleet,
    Order,
    Shots,
    check_shots,
    describe_order,
    parse_order,
)
from bot.games.sonar.placement import largest_fleet, place_fleets
from bot.games.sonar.resolution import Play, resolve_turn
from bot.games.sonar.robot import ROBOT
from bot.games.sonar.standings import standings
from bot.games.sonar.state import Action, Captain, Phase, SonarState, Status
from bot.games.sonar.strong_robot import STRONG_ROBOT
from bot.games.sonar.views import (
    PrivateView,
    PublicView,
    RevealedView,
    private_view,
    public_view,
    revealed_view,
)

SHOOT_EXAMPLE = "#sonar f11, a9"


class SonarRules:
    """Sonar's state machine."""

    def new_game(self, options: Mapping[str, str]) -> SonarState:
        return SonarState(options=parse_options(options))

    def options(self, state: SonarState) -> dict[str, str]:
        return state.options.text(state.ships)

    def join(self, state: SonarState, player: PlayerRef) -> SonarState:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: wait for the host to open a new one")
        if state.phase is Phase.BATTLE:
            raise IllegalOrderError("the battle has started, so joining is closed in this game")
        existing = state.captain(player.id)
        if existing is not None and existing.status is not Status.LEFT:
            raise IllegalOrderError("you are already in this game")
        if len(state.present) >= MAX_PLAYERS:
            raise IllegalOrderError(
                f"the game is full: Sonar takes {MIN_PLAYERS} to {MAX_PLAYERS} captains"
            )
        if existing is not None:
            # Leaving during setup costs nothing, so coming back is allowed.
            return _with_captain(state, replace(existing, status=Status.ALIVE, fleet=()))
        return replace(state, captains=(*state.captains, Captain(player.id, player.name)))

    def start(
        self, state: SonarState, rng: random.Random, first: PlayerId | None
    ) -> Resolution[SonarState]:
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError("the battle has already started")
        if first is not None:
            raise IllegalOrderError(
                "in Sonar the first captain to join moves first: start without a name"
            )
        present = state.present
        if len(present) < MIN_PLAYERS:
            raise IllegalOrderError(
                f"starting needs at least {MIN_PLAYERS} captains; {len(present)} "
                f"{'has' if len(present) == 1 else 'have'} joined"
            )
        ships = state.options.ships_for(len(present))
        board = state.board
        given = state.options.placement is Placement.GIVEN
        kept, refused = _first_come(state) if given else ((), frozenset())
        unplaced = [c for c in present if not (given and c.fleet) or c.id in refused]
        result = place_fleets(board, kept, [fleet_lengths(ships)] * len(unplaced), rng)
        if result.fleets is None:
            raise IllegalOrderError(
                _no_room(state, ships, len(present), bool(kept), result.complete, rng)
            )
        placed = {
            c.id: tuple(Submarine(i + 1, course) for i, course in enumerate(fleet))
            for c, fleet in zip(unplaced, result.fleets, strict=True)
        }
        captains = tuple(
            replace(c, fleet=placed[c.id], placed_at_random=True, placed_seq=0)
            if c.id in placed
            else replace(c, placed_seq=0)
            for c in state.captains
        )
        opener = present[0].id
        new_state = replace(
            state,
            phase=Phase.BATTLE,
            captains=captains,
            ships=ships,
            moves=0,
            to_move=opener,
            first=opener,
        )
        notices = [
            Notice(
                f"{_why_at_random(c, refused)}Your fleet, placed at random: "
                f"{fleet_lines(board, placed[c.id])}.",
                to=c.id,
            )
            for c in unplaced
        ]
        allowed = new_state.shots_allowed(opener)
        notices.append(
            Notice(
                f"Turn 1 is yours: fire up to {allowed} charge{'s' if allowed != 1 else ''} "
                f"(e.g. `{SHOOT_EXAMPLE}`) or `#sonar random`.",
                to=opener,
            )
        )
        return Resolution(new_state, (), frozenset(c.id for c in present), notices=tuple(notices))

    def parse(self, text: str) -> Order:
        return parse_order(text)

    def accept(
        self,
        state: SonarState,
        player: PlayerId,
        order: Order,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[SonarState, Order]:
        captain = state.captain(player)
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: no more orders")
        if captain is None:
            raise IllegalOrderError("you are not in this game: send `#sonar join` first")
        if captain.status is Status.LEFT:
            raise IllegalOrderError("you have left this game")
        if state.phase is Phase.SETUP:
            return self._accept_in_setup(state, captain, order, channel)
        if isinstance(order, Fleet):
            raise IllegalOrderError("the battle has started: fleets can no longer be changed")
        if captain.status is Status.ELIMINATED:
            raise IllegalOrderError("you have no subs left: you are out of this battle")
        if state.to_move != player:
            raise IllegalOrderError(
                f"it is not your turn: {state.name_of(state.to_move)} is to move (turn {state.turn})"
            )
        allowed = state.shots_allowed(player)
        if isinstance(order, AtRandom):
            ack = f"Turn {state.turn}: {allowed} charge{'s' if allowed != 1 else ''} at random."
            return Accepted(state, order, (Notice(ack, to=player),), resolve_now=True)
        check_shots(state.board, order, allowed, _charges_rule(state))
        ack = f"Turn {state.turn}: firing at {describe_order(order)}."
        return Accepted(state, order, (Notice(ack, to=player),), resolve_now=True)

    def _accept_in_setup(
        self, state: SonarState, captain: Captain, order: Order, channel: Channel
    ) -> Accepted[SonarState, Order]:
        given = state.options.placement is Placement.GIVEN
        if isinstance(order, Shots):
            what = (
                f"send your fleet by DM, e.g. {FLEET_EXAMPLE}, or wait for the start"
                if given
                else "wait for the host to start it"
            )
            raise IllegalOrderError(f"the battle has not started yet: for now {what}")
        if channel is not Channel.PRIVATE:
            # Never echo a fleet posted in public: the message itself gave it away already.
            raise WrongChannelError(
                "fleets are secret: send yours to me by DM, not in the game channel"
                if isinstance(order, Fleet)
                else "in setup, `random` (the host places your fleet) goes to me by DM"
            )
        if not given:
            raise IllegalOrderError(
                "under placement=random the host places every fleet when the battle starts: "
                "there is nothing to send"
            )
        if isinstance(order, AtRandom):
            withdrawn = _with_captain(state, replace(captain, fleet=(), placed_seq=0))
            return Accepted(
                withdrawn,
                None,
                (
                    Notice(
                        "No fleet of yours stands now: the host places it at random when "
                        "the battle starts.",
                        to=captain.id,
                    ),
                ),
                changed=frozenset({captain.id}),
            )
        assert isinstance(order, Fleet)
        if captain.placed_by_host:
            raise IllegalOrderError(_PLACED_BY_HOST)
        ships = state.options.ships_for(len(state.present))
        fleet = check_fleet(state.board, order.subs, ships)
        # Numbered among the fleets sent, first come; checked against the others' subs only
        # at the start, so that this answer depends on no one else's fleet (§1: no probing).
        seq = 1 + max(c.placed_seq for c in state.captains)
        placed = _with_captain(state, replace(captain, fleet=fleet, placed_seq=seq))
        return Accepted(
            placed,
            None,
            (
                Notice(
                    f"Fleet placed: {fleet_lines(state.board, fleet)}. You may send another "
                    "until the battle starts; the latest valid one stands. (A fleet that "
                    "would meet a sub of one sent before it is refused when the battle "
                    "starts, and placed at random then: you are told.)",
                    to=captain.id,
                ),
            ),
            changed=frozenset({captain.id}),
        )

    def turn(self, state: SonarState) -> int:
        return state.turn

    def timers(self, state: SonarState) -> tuple[Timer, ...]:
        if state.phase is not Phase.BATTLE:
            return ()
        who = state.name_of(state.to_move)
        return (
            Timer(
                f"turn:{state.turn}", float(state.options.move_time), f"Turn {state.turn} ({who})"
            ),
        )

    def to_act(self, state: SonarState) -> frozenset[PlayerId]:
        if state.phase is Phase.BATTLE and state.to_move is not None:
            return frozenset({state.to_move})
        if state.phase is Phase.SETUP and state.options.placement is Placement.GIVEN:
            return frozenset(c.id for c in state.present)
        return frozenset()

    def resolve(
        self, state: SonarState, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[SonarState]:
        if state.phase is not Phase.BATTLE:
            raise IllegalOrderError("there is no turn to resolve: the battle is not on")
        mine = [
            given.order
            for given in sorted(orders, key=lambda g: g.sequence)
            if given.player == state.to_move and isinstance(given.order, Shots | AtRandom)
        ]
        if not mine:
            raise IllegalOrderError(f"{state.name_of(state.to_move)} has given no shots this turn")
        order = mine[-1]
        if isinstance(order, AtRandom):
            return resolve_turn(state, Play(Action.SHOOT, at_random=True), rng)
        assert isinstance(order, Shots)
        return resolve_turn(state, Play(Action.SHOOT, cells=order.cells), rng)

    def expire(
        self, state: SonarState, timer: str, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[SonarState]:
        if state.phase is not Phase.BATTLE or timer != f"turn:{state.turn}":
            return Resolution(state, (), frozenset())
        if state.options.on_timeout is OnTimeout.SKIP:
            return resolve_turn(state, Play(Action.SKIP, timeout=True), rng)
        return resolve_turn(state, Play(Action.SHOOT, at_random=True, timeout=True), rng)

    def remove(self, state: SonarState, player: PlayerId) -> Resolution[SonarState]:
        captain = state.captain(player)
        if captain is None:
            raise IllegalOrderError("that captain is not in this game")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over")
        if captain.status is Status.LEFT:
            raise IllegalOrderError(f"{captain.name} has already left this game")
        if state.phase is Phase.SETUP:
            left = replace(captain, status=Status.LEFT, fleet=())
            return Resolution(_with_captain(state, left), (), frozenset({player}))
        if captain.status is Status.ELIMINATED:
            raise IllegalOrderError(
                f"{captain.name} has no live subs left: there is nothing to leave"
            )
        if captain.leaving:
            raise IllegalOrderError(f"{captain.name} already leaves when turn {state.turn} ends")
        if state.to_move == player:
            # A turn that ends without shots draws nothing: no randomness is needed.
            return resolve_turn(state, Play(Action.LEAVE), random.Random(0))
        waiting = _with_captain(state, replace(captain, leaving=True))
        note = (
            f"You leave when turn {state.turn} ({state.name_of(state.to_move)}'s) ends: "
            "your subs then leave the board."
        )
        return Resolution(waiting, (), frozenset(), notices=(Notice(note, to=player),))

    def finish(self, state: SonarState) -> Resolution[SonarState]:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is already over")
        if state.phase is Phase.BATTLE:
            # The turn in progress resolves with no shots, so it draws nothing at random.
            return resolve_turn(state, Play(Action.END), random.Random(0))
        winners = tuple(c.id for c in state.present)
        ended = replace(state, phase=Phase.FINISHED, winners=winners, draw=True, to_move=None)
        return Resolution(
            ended, (Event("finished", {"winners": list(winners), "draw": True}),), frozenset()
        )

    def outcome(self, state: SonarState) -> Outcome | None:
        if state.phase is not Phase.FINISHED:
            return None
        return Outcome(winners=state.winners, draw=state.draw)

    def standings(self, state: SonarState, history: Sequence[Step]) -> tuple[Standing, ...]:
        return standings(state, history)

    def crew(self, state: SonarState, player: PlayerId) -> tuple[PlayerId, ...]:
        return (player,)


class SonarViews:
    """Sonar's views: what each viewer may see."""

    def view(self, state: SonarState, viewer: PlayerId | None) -> PublicView | PrivateView:
        return _view(state, viewer)

    def reveal(self, state: SonarState) -> RevealedView:
        return revealed_view(state)


class SonarCodec:
    """Sonar's state and orders as JSON, and the record."""

    def encode_state(self, state: SonarState) -> dict[str, Any]:
        return codec.encode_state(state)

    def decode_state(self, data: Mapping[str, Any]) -> SonarState:
        return codec.decode_state(data)

    def encode_order(self, order: Order) -> dict[str, Any]:
        return codec.encode_order(order)

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        return codec.decode_order(data)

    def record(
        self, state: SonarState, history: Sequence[Step], context: RecordContext
    ) -> dict[str, Any]:
        return record.build_record(state, history, context)


class SonarWords(NeutralWords[SonarState, Order]):
    """Sonar's words, where they differ from the neutral ones."""

    def describe(self, order: Order) -> str:
        if isinstance(order, Fleet):
            return f"fleet {describe_order(order)}"
        if isinstance(order, AtRandom):
            return "random"
        return f"fire at {describe_order(order)}"

    def opening(self, state: SonarState) -> str:
        options = state.options
        board = state.board
        ships = (
            f"{options.ships} sub{'s' if options.ships != 1 else ''} each"
            if options.ships is not None
            else "12 subs shared out (6, 4 or 3 each)"
        )
        line = (
            f"is open on a wrapping hex ocean of {board.rows} rows × {board.cols} columns: "
            f"{MIN_PLAYERS} to {MAX_PLAYERS} captains, {ships}, "
            f"{format_duration(timedelta(seconds=options.move_time))} a turn. "
            "Send `#sonar join` to play."
        )
        if options.placement is Placement.GIVEN:
            line += (
                f" Then DM your fleet ({lengths_text(options.ships_for(2))}): the length, bow "
                f"cell and facing of each sub, e.g. {FLEET_EXAMPLE}; or `random` to be "
                "placed by the host."
            )
        return line

    def welcome(self, state: SonarState, player: PlayerId, number: int) -> str:
        count = len(state.present)
        line = f"{state.name_of(player)} joined game {number} ({count} {self.player_word(count)})."
        if state.options.placement is Placement.GIVEN:
            ships = state.options.ships_for(len(state.present))
            line += (
                f" Send me your fleet by DM: {lengths_text(ships)}, each as its length, "
                f"bow cell and facing, e.g. {FLEET_EXAMPLE}; or `random`."
            )
        else:
            line += " The host places every fleet at random when the battle starts."
        return line

    def beginning(self, state: SonarState, names: Mapping[PlayerId, str]) -> str:
        captains = [names.get(c.id, c.name) for c in state.in_battle]
        ships = state.ships or 0
        first = names.get(state.first or "", state.name_of(state.first))
        return (
            f"the hunt begins! {len(captains)} captains: {', '.join(captains)}; "
            f"{ships} sub{'s' if ships != 1 else ''} each ({lengths_list(ships)}) on the "
            f"{state.board.rows}×{state.board.cols} ocean. {first} moves first."
        )

    def hint(self, state: SonarState) -> str:
        charges = "one charge a turn" if state.options.one_shot else "one charge per live sub"
        return (
            f"On your turn fire in public or by DM: `{SHOOT_EXAMPLE}` ({charges}) or "
            "`#sonar random`; a miss tells the distance to the nearest sub."
        )

    def quiet_report(self) -> str:
        return "No charges were fired; every sub sailed on one step."

    def board_heading(self, title: str, turn: int) -> str:
        return f"{title}, as the battle begins:" if turn == 0 else f"{title}, turn {turn}:"

    def result(self, state: SonarState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is not Phase.FINISHED:
            return ""
        return text.ending_text(
            state.winners, state.draw, {**{c.id: c.name for c in state.captains}, **names}
        )

    def reminder(self, state: SonarState, left: str) -> str:
        allowed = state.shots_allowed(state.to_move) if state.to_move else 0
        charges = f"{allowed} charge{'s' if allowed != 1 else ''}"
        otherwise = (
            "your turn is skipped"
            if state.options.on_timeout is OnTimeout.SKIP
            else f"{charges} {'go' if allowed != 1 else 'goes'} off at random"
        )
        return (
            f"turn {state.turn} is yours and closes in {left}: fire up to {charges} "
            f"(`{SHOOT_EXAMPLE}`) or `#sonar random`; otherwise {otherwise}."
        )

    def replay_caption(self) -> str:
        return "the replay of the whole hunt."

    def example(self) -> str:
        return SHOOT_EXAMPLE

    def player_word(self, count: int) -> str:
        return "captain" if count == 1 else "captains"

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        return text.public_report(events, names)

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return text.private_report(events, viewer)

    def summary(self, state: SonarState, viewer: PlayerId | None) -> str:
        return text.summary_text(_view(state, viewer))

    def text_board(self, state: SonarState, viewer: PlayerId | None) -> str:
        return text.board_text(_view(state, viewer))

    def help_text(self) -> str:
        return text.HELP_TEXT

    def running_phase(self) -> str:
        return "hunt"  # a hunt for hidden subs (its replay is "the whole hunt")

    def rules_text(self) -> str:
        return text.RULES_TEXT


# --------------------------------------------------------------------- helpers


_PLACED_BY_HOST = (
    f"after {OVERLAP_REFUSALS} refusals for meeting other captains' subs, your fleet is "
    "placed at random at the start: the host no longer takes your fleets"
)
_PLACED_AT_RANDOM_WHY = f"After {OVERLAP_REFUSALS} refusals for meeting other captains' subs: "
_REFUSED_AT_THE_START = (
    "Your fleet would meet a sub of a fleet sent before it, so it was refused (never where "
    "or when: no probing). "
)


def _why_at_random(captain: Captain, refused: frozenset[PlayerId]) -> str:
    if captain.id in refused:
        return _REFUSED_AT_THE_START
    return _PLACED_AT_RANDOM_WHY if captain.placed_by_host else ""


def _first_come(state: SonarState) -> tuple[tuple[Course, ...], frozenset[PlayerId]]:
    """The given fleets at the start (§1, first come): in the order they were sent, a
    fleet that would ever meet a sub of one kept before it is refused. Returns the kept
    subs and the captains refused. Checking here, not as fleets arrive, keeps every
    answer in setup blind to the others' fleets: answered at once, a fleet placed told
    where their subs were not, so placed answers without limit between three refusals
    pinned a sub (issue 39)."""
    board = state.board
    kept: list[Course] = []
    refused: set[PlayerId] = set()
    sent = sorted(
        (c for c in state.present if c.fleet), key=lambda c: (c.placed_seq, state.index[c.id])
    )
    for captain in sent:
        if meets_any(board, captain.fleet, kept):
            refused.add(captain.id)
        else:
            kept.extend(sub.course for sub in captain.fleet)
    return tuple(kept), frozenset(refused)


def _with_captain(state: SonarState, captain: Captain) -> SonarState:
    captains = list(state.captains)
    captains[state.index[captain.id]] = captain
    return replace(state, captains=tuple(captains))


def _charges_rule(state: SonarState) -> str:
    """How the charges of the turn in progress are counted, for a refusal (§4.2)."""
    rule = "one_shot: one a turn" if state.options.one_shot else "one per live sub"
    if state.moves == 0:
        rule += "; half of that, rounded up, on the game's first turn"
    return rule


def _no_room(
    state: SonarState,
    ships: int,
    players: int,
    around_given: bool,
    complete: bool,
    rng: random.Random,
) -> str:
    """Why a start is refused for want of room, naming the largest ``ships`` that fits."""
    board = state.board
    # Around fleets sent by hand, the same ships may still fit with every fleet at random.
    largest = largest_fleet(board, players, ships if around_given else ships - 1, rng)
    why = "no arrangement exists" if complete else "none was found within the search limit"
    fits = (
        f"at most ships={largest} fits (every fleet placed at random)"
        if largest
        else "not even one sub each fits"
    )
    if around_given:
        return (
            f"the fleets sent leave no room for the other fleets of {ships} subs, placed so "
            f"that no two subs ever meet ({why}): change a fleet, or open a game with fewer "
            f"subs; on this board {fits}"
        )
    return (
        f"{ships} subs each cannot be placed on this board (size={board.rows}, {players} "
        f"captains) so that no two ever meet ({why}): {fits}"
    )


def _view(state: SonarState, viewer: PlayerId | None) -> PublicView | PrivateView:
    if viewer is None:
        return public_view(state)
    return private_view(state, viewer)


SONAR: Game[SonarState, Order] = Game(
    name="sonar",
    tag="#sonar",
    title="Sonar",
    verbs=(
        Verb(
            "shoot",
            "Fire depth charges at these cells (up to one per live sub) on your turn",
            private=False,
            args=(
                Arg(
                    "cells",
                    ArgKind.CELLS,
                    "cells such as f11, a9 (row letter from the bottom, column number)",
                ),
            ),
            words="",
        ),
        Verb(
            "random",
            "Fire every charge you may at random (never at your own subs) on your turn",
            private=False,
        ),
        Verb(
            "fleet",
            "Send your whole fleet during setup (placement=given): length, bow cell and "
            "facing of each sub",
            private=True,
            args=(
                Arg(
                    "subs",
                    ArgKind.TEXT,
                    f"length, bow cell and facing of each sub, e.g. {FLEET_EXAMPLE}",
                ),
            ),
            words="",
        ),
        Verb(
            "withdraw",
            "Withdraw the fleet you sent: the host places yours at random at the start",
            private=True,
            words="random",
        ),
    ),
    option_args=OPTIONS.args,
    rules=SonarRules(),
    views=SonarViews(),
    codec=SonarCodec(),
    words=SonarWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
)
