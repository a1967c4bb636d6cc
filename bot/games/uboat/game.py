"""U-Boat Shootout declared as a game of four parts (rules: ``shared/rules/uboat.md``).

A live match for 2 to 6 players: each commands a U-boat with 3 health on a
wrapping sea with numbered islands. In setup each sends a secret starting cell;
then every round each crew sends one order by DM — fire at a tile within range,
move up to 3 steps unseen (the route is public, the cell is not), ram, or hold —
and at the round's end they all resolve together (resolution.py). Boats damaged
in a round may make an invisible move in the next round's evade window. Sunk
boats' players join other crews. The last boat afloat wins; after ``rounds``
rounds the islands' numbers decide. Orders, options and the record follow
``shared/contracts/uboat.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import (
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
from bot.games.uboat import codec, scoring, text
from bot.games.uboat.cells import Direction
from bot.games.uboat.legality import off_board, problem
from bot.games.uboat.options import OPTIONS, parse_options
from bot.games.uboat.orders import (
    Evade,
    Fire,
    Hold,
    JoinCrew,
    Order,
    StartAt,
    describe_order,
    parse_order,
)
from bot.games.uboat.record import build_record
from bot.games.uboat.resolution import close_round, close_window
from bot.games.uboat.robot import ROBOT
from bot.games.uboat.standings import standings
from bot.games.uboat.state import Boat, Phase, Player, Said, UboatState
from bot.games.uboat.strong_robot import STRONG_ROBOT
from bot.games.uboat.values import COLOURS, MAX_BOATS, MIN_BOATS, Colour
from bot.games.uboat.views import (
    PrivateView,
    PublicView,
    RevealedView,
    private_view,
    public_view,
    revealed_view,
)

_STEPS = tuple(direction.value for direction in Direction)
_COLOUR_NAMES = tuple(colour.value for colour in Colour)


def _slot(order: Order) -> type:
    """Which of a player's standing orders ``order`` takes the place of."""
    if isinstance(order, Evade | JoinCrew | StartAt):
        return type(order)
    return Hold  # fire, move, ram and hold share one slot: the round's action


def _route_args(what: str) -> tuple[Arg, ...]:
    return (
        Arg("step1", ArgKind.CHOICE, f"the {what}'s first step", choices=_STEPS),
        Arg("step2", ArgKind.CHOICE, "a second step", required=False, choices=_STEPS),
        Arg("step3", ArgKind.CHOICE, "a third step", required=False, choices=_STEPS),
    )


class UboatRules:
    """U-Boat's state machine."""

    def new_game(self, options: Mapping[str, str]) -> UboatState:
        parsed = parse_options(options)
        return UboatState(options=parsed, owners=tuple(None for _ in parsed.islands))

    def options(self, state: UboatState) -> dict[str, str]:
        return state.options.text()

    def join(self, state: UboatState, player: PlayerRef) -> UboatState:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: wait for the next one")
        if state.phase is Phase.BATTLE:
            raise IllegalOrderError(
                "the hunt has begun, so joining is closed: wait for the next game"
            )
        existing = state.player(player.id)
        if existing is not None and not existing.left:
            assert existing.colour is not None
            raise IllegalOrderError(f"you are already in this game, with {existing.colour.title}")
        taken = {p.colour for p in state.present}
        free = [colour for colour in COLOURS if colour not in taken]
        if not free:
            raise IllegalOrderError(f"this game is full: {MAX_BOATS} U-boats at most")
        colour = free[0]
        if existing is not None:  # left during setup, which costs nothing: back on board
            return state.with_player(replace(existing, colour=colour, crew=colour, left=False))
        joined = Player(player.id, player.name, colour, crew=colour)
        return replace(state, players=(*state.players, joined))

    def start(
        self, state: UboatState, rng: random.Random, first: PlayerId | None
    ) -> Resolution[UboatState]:
        if first is not None:
            raise IllegalOrderError(
                "in U-Boat Shootout everyone acts at once, so no one moves first: start without a name"
            )
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError("the hunt has already started")
        present = state.present
        if len(present) < MIN_BOATS:
            raise IllegalOrderError(
                f"starting needs at least {MIN_BOATS} players; {len(present)} "
                f"{'has' if len(present) == 1 else 'have'} joined"
            )
        water = state.sea.water()
        boats: list[Boat] = []
        notices: list[Notice] = []
        for player in present:
            assert player.colour is not None
            cell = player.start
            if cell is None:
                cell = rng.choice(water)
                notices.append(
                    Notice(
                        f"You sent no starting cell, so {player.colour.title} was placed at "
                        f"random: it starts at {cell}.",
                        to=player.id,
                    )
                )
            boats.append(Boat(player.colour, player.id, cell, player.start is None, cell))
        boats.sort(key=lambda boat: boat.colour.index)
        new_state = replace(state, phase=Phase.BATTLE, turn=1, boats=tuple(boats))
        return Resolution(new_state, (), frozenset(p.id for p in present), tuple(notices))

    def parse(self, text: str) -> Order:
        return parse_order(text)

    def accept(
        self,
        state: UboatState,
        player: PlayerId,
        order: Order,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[UboatState, Order]:
        if channel is Channel.PUBLIC:
            # Never echo the order: the message itself may already have given a cell away.
            raise WrongChannelError(
                "orders are secret: send them to me by DM (only `#uboat join` is public)"
            )
        found = state.player(player)
        if found is None:
            if state.phase is Phase.FINISHED:
                raise IllegalOrderError("this game is over")
            raise IllegalOrderError("you are not in this game: send `join` to play")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over: no more orders")
        if found.left:
            raise IllegalOrderError("you have left this game")
        if isinstance(order, StartAt):
            return self._starting_cell(state, found, order)
        if state.phase is Phase.SETUP:
            raise IllegalOrderError(
                "the hunt has not started yet: for now send your secret starting cell, "
                f"e.g. `start {state.sea.example_cell()}`"
            )
        if isinstance(order, JoinCrew):
            return self._crew_choice(state, found, order)
        boat = state.boat_of(player)
        if boat is None:
            afloat = ", ".join(b.colour.value for b in state.afloat)
            raise IllegalOrderError(
                "your U-boat was sunk, so you give no orders until you join a crew: "
                f"send `crew {state.afloat[0].colour.value}` (any of {afloat})"
            )
        if isinstance(order, Evade) and not (state.window_open and boat.colour in state.evaders):
            raise IllegalOrderError(
                f"no evade window is open for {boat.colour.title}: only a U-boat damaged in the "
                "last round may evade, until its window closes. Send `fire E6`, `move up`, "
                "`ram left` or `hold` instead"
            )
        reason = problem(state, boat, order)
        if reason is not None:
            raise IllegalOrderError(reason)
        assert not isinstance(order, StartAt | JoinCrew)
        said = tuple(
            s
            for s in state.said
            if not (s.player == player and isinstance(s.order, Evade) == isinstance(order, Evade))
        )
        new_state = replace(state, said=(*said, Said(player, order)))
        notices = (
            *_own_blast_warning(state, boat, player, order),
            *self._crew_notices(new_state, boat, player, order),
        )
        return Accepted(new_state, order, notices)

    def _crew_notices(
        self, state: UboatState, boat: Boat, player: PlayerId, order: Order
    ) -> tuple[Notice, ...]:
        """What the crew hears of an order. The sender's acknowledgement is the host's
        (``acknowledge``); the sender hears more only when the captain's order stands over
        theirs. Everyone else aboard hears what now stands."""
        crew = state.crew_of(boat.colour)
        evasion = isinstance(order, Evade)
        same_kind = [
            s
            for s in state.said
            if s.player in {p.id for p in crew} and isinstance(s.order, Evade) == evasion
        ]
        captains = [s for s in same_kind if s.player == boat.captain]
        stands = captains[0] if captains else same_kind[-1]
        names = {p.id: p.name for p in state.players}
        what = "evasion" if evasion else "order"
        head = f"Round {state.turn}, {boat.colour.title}"
        stood = (
            f"captain {names.get(boat.captain, boat.captain)}'s `{describe_order(stands.order)}`"
        )
        notices: list[Notice] = []
        if stands.player != player:
            notices.append(
                Notice(
                    f"{head}: {stood} stands over yours: the captain's {what} comes first.",
                    to=player,
                )
            )
        sender = names.get(player, player)
        if player == boat.captain:
            sender = f"captain {sender}"
        for member in crew:
            if member.id == player:
                continue
            if stands.player == player:
                text = f"{head}: {sender}'s {what} `{describe_order(order)}` now stands."
            else:
                text = f"{head}: {sender} sent `{describe_order(order)}`; {stood} stands."
            notices.append(Notice(text, to=member.id))
        return tuple(notices)

    def _starting_cell(
        self, state: UboatState, player: Player, order: StartAt
    ) -> Accepted[UboatState, Order]:
        sea = state.sea
        if state.phase is not Phase.SETUP:
            raise IllegalOrderError("starting cells are sent in setup, and the hunt is on")
        outside = off_board(sea, order.cell)
        if outside:
            raise IllegalOrderError(f"{outside}: e.g. `start {sea.example_cell()}`")
        if order.cell in sea.islands:
            raise IllegalOrderError(
                f"{order.cell} is island {state.island_number[order.cell]}: start on water, "
                f"e.g. `start {sea.example_cell()}`"
            )
        new_state = state.with_player(replace(player, start=order.cell))
        return Accepted(
            new_state,
            None,
            (
                Notice(
                    f"Your starting cell is {order.cell}. You may send another until the hunt "
                    "begins; the latest stands.",
                    to=player.id,
                ),
            ),
            changed=frozenset({player.id}),
        )

    def _crew_choice(
        self, state: UboatState, player: Player, order: JoinCrew
    ) -> Accepted[UboatState, Order]:
        if player.crew is not None:
            raise IllegalOrderError(
                f"you are on {player.crew.title}'s crew: `crew` is only for a player whose "
                "U-boat was sunk"
            )
        afloat = ", ".join(b.colour.value for b in state.afloat)
        boat = state.boat(order.boat)
        if boat is None:
            raise IllegalOrderError(
                f"there is no {order.boat.title} U-boat in this game: choose one afloat ({afloat})"
            )
        if not boat.afloat:
            raise IllegalOrderError(
                f"{order.boat.title} was sunk: choose a U-boat afloat ({afloat})"
            )
        choices = tuple((p, c) for p, c in state.crew_choices if p != player.id)
        new_state = replace(state, crew_choices=(*choices, (player.id, order.boat)))
        return Accepted(new_state, order, ())  # the acknowledgement says it all

    def turn(self, state: UboatState) -> int:
        return state.turn

    def timers(self, state: UboatState) -> tuple[Timer, ...]:
        if state.phase is not Phase.BATTLE:
            return ()
        number = state.turn
        round_timer = Timer(
            f"round:{number}", float(state.options.round_seconds), f"Round {number}"
        )
        if state.window_open:
            window = Timer(
                f"evade:{number}",
                float(state.options.evade_seconds),
                f"Round {number}'s evade window",
            )
            return (window, round_timer)
        return (round_timer,)

    def to_act(self, state: UboatState) -> frozenset[PlayerId]:
        if state.phase is Phase.SETUP:
            return frozenset(p.id for p in state.present)
        if state.phase is Phase.BATTLE:
            return frozenset(p.id for p in state.present if state.boat_of(p.id) is not None)
        return frozenset()

    def resolve(
        self, state: UboatState, orders: Sequence[Given[Order]], rng: random.Random
    ) -> Resolution[UboatState]:
        if state.phase is not Phase.BATTLE:
            raise IllegalOrderError("there is no round to resolve: the hunt is not on")
        return close_round(state, orders)

    def expire(
        self,
        state: UboatState,
        timer: str,
        orders: Sequence[Given[Order]],
        rng: random.Random,
    ) -> Resolution[UboatState]:
        if state.phase is Phase.BATTLE:
            if timer == f"evade:{state.turn}" and state.window_open:
                return close_window(state, orders)
            if timer == f"round:{state.turn}":
                return close_round(state, orders)
        return Resolution(state, (), frozenset())  # a timer no longer running: nothing to do

    def remove(self, state: UboatState, player: PlayerId) -> Resolution[UboatState]:
        found = state.player(player)
        if found is None:
            raise IllegalOrderError("that player is not in this game")
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is over")
        if found.left:
            return Resolution(state, (), frozenset())
        if state.phase is Phase.SETUP:
            gone = replace(found, left=True, colour=None, crew=None, start=None)
            return Resolution(state.with_player(gone), (), frozenset())
        crew = found.crew
        events = [Event("left", {"player": player})]
        new_state = state.with_player(replace(found, left=True, crew=None))
        new_state = replace(
            new_state,
            said=tuple(s for s in new_state.said if s.player != player),
            crew_choices=tuple(c for c in new_state.crew_choices if c[0] != player),
        )
        changed = {p.id for p in new_state.crew_of(crew)} if crew else set()
        boat = new_state.boat(crew) if crew else None
        if boat is not None and boat.afloat and not new_state.crew_of(boat.colour):
            # No one left aboard: the boat is scuttled, and its islands are freed.
            freed = [island.number for island in new_state.islands_of(boat.colour)]
            owners = tuple(None if o is boat.colour else o for o in new_state.owners)
            new_state = replace(
                new_state.with_boat(replace(boat, health=0)),
                owners=owners,
                evaders=new_state.evaders - {boat.colour},
            )
            events.append(Event("destroyed", {"boat": boat.colour.value, "freed": freed}))
            if len(new_state.afloat) <= 1:
                # The boat taken out is the losing one when it leaves one afloat.
                ending = (
                    scoring.with_awards(
                        new_state, scoring.last_boat_standing(new_state), boat.colour
                    )
                    if new_state.afloat
                    else scoring.sunk_together((), (boat.colour,))
                )
                new_state = replace(
                    new_state, phase=Phase.FINISHED, ending=ending, window_open=False
                )
                events.append(Event("finished", scoring.finished_event_data(ending)))
                changed |= {p.id for p in new_state.present}
        return Resolution(new_state, tuple(events), frozenset(changed))

    def finish(self, state: UboatState) -> Resolution[UboatState]:
        if state.phase is Phase.FINISHED:
            raise IllegalOrderError("this game is already over")
        ending = scoring.host_ends(state)
        new_state = replace(state, phase=Phase.FINISHED, ending=ending, window_open=False)
        event = Event("finished", scoring.finished_event_data(ending))
        return Resolution(new_state, (event,), frozenset(p.id for p in state.present))

    def outcome(self, state: UboatState) -> Outcome | None:
        if state.phase is not Phase.FINISHED or state.ending is None:
            return None
        ending = state.ending
        return Outcome(winners=ending.winners, draw=ending.draw, awarded=ending.marks)

    def standings(self, state: UboatState, history: Sequence[Step]) -> tuple[Standing, ...]:
        return standings(state, history)

    def crew(self, state: UboatState, player: PlayerId) -> tuple[PlayerId, ...]:
        found = state.player(player)
        if found is None or found.crew is None or found.left:
            return (player,)
        return tuple(p.id for p in state.crew_of(found.crew))


class UboatViews:
    """U-Boat's views: what each viewer may see."""

    def view(self, state: UboatState, viewer: PlayerId | None) -> PublicView | PrivateView:
        return _view(state, viewer)

    def reveal(self, state: UboatState) -> RevealedView:
        return revealed_view(state)


class UboatCodec:
    """U-Boat's state and orders as JSON, and the record."""

    def encode_state(self, state: UboatState) -> dict[str, Any]:
        return codec.encode_state(state)

    def decode_state(self, data: Mapping[str, Any]) -> UboatState:
        return codec.decode_state(data)

    def encode_order(self, order: Order) -> dict[str, Any]:
        return codec.encode_order(order)

    def decode_order(self, data: Mapping[str, Any]) -> Order:
        return codec.decode_order(data)

    def record(
        self, state: UboatState, history: Sequence[Step], context: RecordContext
    ) -> dict[str, Any]:
        return build_record(state, history, context)


class UboatWords(NeutralWords[UboatState, Order]):
    """U-Boat's words, where they differ from the neutral ones."""

    def describe(self, order: Order) -> str:
        return describe_order(order)

    def acknowledge(self, turn: int, standing: Order, replaced: Order | None) -> str:
        # The host names the sender's previous order of the round, whatever its kind; an
        # evasion and a round order are separate slots, so one never replaces the other.
        if replaced is not None and _slot(replaced) != _slot(standing):
            replaced = None
        again = f" (replaces `{describe_order(replaced)}`)" if replaced is not None else ""
        said = f"`{describe_order(standing)}`"
        if isinstance(standing, JoinCrew):
            return (
                f"Round {turn}: you chose {said}{again}: you join {standing.boat.title}'s crew "
                "when this round ends (if it is still afloat; otherwise the crew with fewest "
                "members)."
            )
        if isinstance(standing, Evade):
            return (
                f"Round {turn}: your evasion is {said}{again}: an unseen move when the evade "
                "window closes. A new evasion replaces it."
            )
        if isinstance(standing, Hold):
            return f"Round {turn}: your order is {said}{again}: nothing this round."
        return f"Round {turn}: your order is {said}{again}. A new order replaces it."

    def opening(self, state: UboatState) -> str:
        opts = state.options
        islands = (
            f"islands {text.island_list(opts.islands, opts.island_powers)}"
            if opts.islands
            else "no islands"
        )
        texts = opts.text()
        return (
            f"is open on a {opts.size}x{opts.size} sea that wraps around, with "
            f"{islands}; {opts.rounds} rounds of {texts['round']} (evade window "
            f"{texts['evade_window']}). 2 to 6 players: send `#uboat join`, then your secret "
            f"starting cell by DM: {text.START_PATTERN}."
        )

    def welcome(self, state: UboatState, player: PlayerId, number: int) -> str:
        found = state.player(player)
        name = found.name if found else player
        colour = found.colour.title if found and found.colour else "a U-boat"
        count = len(state.present)
        return (
            f"{name} joined game {number} as captain of {colour} ({count} "
            f"{self.player_word(count)}). Send your secret starting cell by DM: "
            f"{text.START_PATTERN}; send none and you are placed at random."
        )

    def beginning(self, state: UboatState, names: Mapping[PlayerId, str]) -> str:
        boats = ", ".join(
            f"{boat.colour.title} ({names.get(boat.captain, boat.captain)})" for boat in state.boats
        )
        return (
            f"the hunt begins! {len(state.boats)} U-boats: {boats}. "
            f"{state.options.rounds} rounds; the islands' numbers decide if more than one is left."
        )

    def hint(self, state: UboatState) -> str:
        return f"Each round send one order by DM: {text.ORDER_PATTERNS}."

    def report_title(self, turn: int) -> str:
        return f"round {turn}"

    def quiet_report(self) -> str:
        return "All quiet: no U-boat fired, moved or rammed."

    def board_heading(self, title: str, turn: int) -> str:
        if turn == 0:
            return f"{title}: your U-boat as the hunt begins."
        # ``turn`` is the round the board shows: the one just opened (its evade window
        # included), or the last once the hunt is over.
        return f"{title}, round {turn}:"

    def result(self, state: UboatState, names: Mapping[PlayerId, str]) -> str:
        if state.ending is None:
            return ""
        return text.finished_text(scoring.finished_event_data(state.ending), names)

    def reminder(self, state: UboatState, left: str) -> str:
        orders = "(by DM: `fire E6`, `move up up left`, `ram right right` or `hold`)"
        if state.window_open:
            # The earliest deadline, which the host counts ``left`` to, is the window's.
            return (
                f"round {state.turn}'s evade window closes in {left}, the round later, and "
                f"your U-boat has no order yet {orders}."
            )
        return f"round {state.turn} closes in {left} and your U-boat has no order yet {orders}."

    def replay_caption(self) -> str:
        return "the replay of the whole hunt."

    def example(self) -> str:
        return "fire E6"

    def player_word(self, count: int) -> str:
        return "captain" if count == 1 else "captains"

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        return text.public_lines(events, names)

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return text.private_lines(events, viewer)

    def summary(self, state: UboatState, viewer: PlayerId | None) -> str:
        return text.summary_text(_view(state, viewer))

    def text_board(self, state: UboatState, viewer: PlayerId | None) -> str:
        return text.board_text(_view(state, viewer))

    def help_text(self) -> str:
        return text.HELP_TEXT

    def running_phase(self) -> str:
        return "match"  # "a live match for four" (the rules' opening)

    def rules_text(self) -> str:
        return text.rules_text()


def _own_blast_warning(
    state: UboatState, boat: Boat, player: PlayerId, order: Order
) -> tuple[Notice, ...]:
    """A blast hits every U-boat in its cross, the shooter's own included (rules §3):
    legal, and sometimes meant, but said before the round ends, with the order's
    acknowledgement, so that nobody hits their own boat by a slip of the cell."""
    if not isinstance(order, Fire):
        return ()
    cross = state.sea.cross(order.cell)
    if boat.cell == cross[0]:
        warning = (
            f"Careful: {order.cell} is your own tile: your blast will hit your own U-boat directly."
        )
    elif boat.cell in cross:
        warning = (
            f"Careful: your U-boat is beside {order.cell}, in the blast's cross: it will "
            "take an indirect hit from your own blast."
        )
    else:
        return ()
    return (Notice(f"{warning} Send another order to change it.", to=player),)


def _view(state: UboatState, viewer: PlayerId | None) -> PublicView | PrivateView:
    if viewer is None:
        return public_view(state)
    return private_view(state, viewer)


UBOAT: Game[UboatState, Order] = Game(
    name="uboat",
    tag="#uboat",
    title="U-Boat Shootout",
    verbs=(
        Verb(
            # Typed `start E2`; named apart from the host's `start` (which begins the game).
            "position",
            "Your secret starting cell (setup; not an island)",
            private=True,
            args=(Arg("cell", ArgKind.CELL, "the starting cell, e.g. E2"),),
            words="start",
        ),
        Verb(
            "fire",
            "Fire at a tile within range: 2 damage on it, 1 beside it",
            private=True,
            args=(Arg("cell", ArgKind.CELL, "the target tile, e.g. E6"),),
        ),
        Verb("move", "Move 1 to 3 steps, unseen", private=True, args=_route_args("move")),
        Verb(
            "ram",
            "Move 1 to 3 steps, then strike the tile one further (2 damage)",
            private=True,
            args=_route_args("ram"),
        ),
        Verb("hold", "Do nothing this round", private=True),
        Verb(
            "evade",
            "An invisible move while your damaged U-boat's evade window is open",
            private=True,
            args=_route_args("evasion"),
        ),
        Verb(
            "crew",
            "Your U-boat was sunk: join another's crew at the round's end",
            private=True,
            args=(Arg("boat", ArgKind.CHOICE, "the U-boat to join", choices=_COLOUR_NAMES),),
        ),
    ),
    option_args=OPTIONS.args,
    rules=UboatRules(),
    views=UboatViews(),
    codec=UboatCodec(),
    words=UboatWords(),
    robot=ROBOT,
    robots={"easy": ROBOT, "strong": STRONG_ROBOT},
    simultaneous=True,
    award=("mark of victory", "marks of victory"),
    players_may_leave=False,  # a boat stays in to the end: the rules have no `leave`
)
