"""The game contract: what every game hosted by bst declares.

A game is a pure module. It never reads the clock, never does I/O and never
uses the global ``random``; randomness comes in as a seeded ``random.Random``
and time as plain numbers (the moment an order was sent, a timer's length).
The host owns time, storage and platforms, and talks to a game only through
its :class:`Game` value: a frozen declaration of who the game is (name, tag,
title), how players address it (verbs, options), three flags, and four parts,
each a narrow protocol. The host calls the part it needs (``game.rules.accept``,
``game.words.opening``), so each call says what it depends on:

* **rules** (:class:`Rules`): the state machine — ``new_game``, ``options``,
  ``join``, ``start``, ``parse``, ``accept``, ``turn``, ``timers``, ``to_act``,
  ``resolve``, ``expire``, ``remove``, ``finish``, ``outcome``, ``standings``,
  ``crew``.
* **views** (:class:`Views`): ``view`` (what one viewer may see) and ``reveal``
  (everything, once the game is over).
* **codec** (:class:`Codec`): state and orders to and from JSON, and the
  ``record`` (``KIND-record/1``).
* **words** (:class:`Words`): every sentence the host posts about the game, from
  ``opening`` to ``rules_text``, including ``describe``/``acknowledge`` for orders.

A game writes only what differs from every other game. A part may be a module (a
module satisfies a protocol, and mypy checks it): ``codec=codec``, ``views=views``.
:class:`NeutralRules` and :class:`NeutralWords` hold the defaults (the turn in
progress, the options' text, one player a seat; ``turn 3``, ``Nothing to
announce.``, ``player``/``players``…): a game's rules and words subclass them and
say only what is their own, binding the functions of its modules where they already
hold it (``join = staticmethod(lifecycle.join)``) rather than writing a method that
only calls one.

Beside them a game may declare its **robot** (:class:`Robot`), the simulated player
``bst demo`` and ``bst play`` seat. What differs between games is data the host
reads: its tag and verbs (from which every platform builds its commands), its
timers (which deadlines run now, and for how long), its seats (who shares a crew),
and its words.

How the contract serves both kinds of game
-----------------------------------------

* **Simultaneous games** (bst, U-Boat Shootout): orders are *standing*.
  :meth:`Rules.accept` returns the order to keep; the host keeps every order of
  the turn, with its sender and send time, and when the turn's timer runs out
  :meth:`Rules.expire` receives all of them (:class:`Given`) and decides which
  stand (the newest, the captain's first, ``pass``…). The same orders in any
  arrival order give the same result.
* **Alternating games** (Sonar, Sugar Dog, Silent Ships): :meth:`Rules.to_act`
  names the one player (or the defender answering an attack) who may act now.
  An order that completes a turn sets ``resolve_now``, and the host calls
  :meth:`Rules.resolve` in the same transaction as the order; an order that acts
  at once (a card played, an answer to a question) returns its changed state
  with its events, and the host stores, posts and replays them like a turn's.
* **Timers** are declared by :meth:`Rules.timers` after every change: each has a
  key (``turn:3``, ``evade:2``, ``response:7``), a length, and whether it is
  held (a move clock stopped while a defender answers keeps its time left).
  The host arms new keys, keeps running ones, freezes and resumes held ones,
  drops the rest, and calls :meth:`Rules.expire` with a key when its deadline
  falls — exactly once, across restarts and processes.

Secrets leave a game only through :meth:`Views.view`: ``viewer=None`` is the
public view. :meth:`Views.reveal` shows everything and is for finished games
(the replay) and for the host's own records only.
"""

from __future__ import annotations

import abc
import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

PlayerId = str
"""The host's stable key for a player in one game (never a platform handle)."""


class Channel(enum.Enum):
    """Where a message was sent: in the game's public channel or privately."""

    PUBLIC = "public"
    PRIVATE = "private"


class GamePhase(enum.StrEnum):
    """The host's phase of a game. The values are those the store and every record keep
    (``shared/contracts``): a running game is ``battle`` in every game's record, and
    players read each game's own word for it (:meth:`Words.running_phase`)."""

    SETUP = "setup"
    RUNNING = "battle"
    FINISHED = "finished"


class GameError(Exception):
    """A refusal meant for a person: ``str(error)`` is the reply to send."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OptionError(GameError):
    """A game option is unknown or out of range."""


class OrderSyntaxError(GameError):
    """The text is not an order at all; the message says what was expected."""


class IllegalOrderError(GameError):
    """The order is understood but not allowed now (phase, ship, board edge…)."""


class WrongChannelError(IllegalOrderError):
    """The order was sent where it must not be (a shot by DM, a move in public)."""


class PlacementError(IllegalOrderError):
    """A fleet placement is refused; the message names the exact problem."""


OVERLAP_REFUSALS = 3
"""How often a player may be refused, in one setup, for a placement that meets another
player's (bst §3, Sonar placement): the refusal never says where, and past this the
player's fleet is placed at random when setup closes, so nobody can map a fleet by DM."""


@dataclass(frozen=True)
class PlayerRef:
    """A player as a game knows them: the host's key and a display name."""

    id: PlayerId
    name: str


@dataclass(frozen=True)
class Notice:
    """A message a game wants delivered: to one player, or public when ``to`` is None.

    ``crew``: deliver to everyone who shares ``to``'s seat (:meth:`Rules.crew`), as
    a group where the platform has one. ``choices``: the short answers the
    recipient may give (a defender's ``pass``, ``retreat``), which a platform
    may offer as buttons; typing them works everywhere."""

    text: str
    to: PlayerId | None = None
    crew: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Event:
    """Something that happened in a resolution, in the record's vocabulary.

    ``data`` holds the record's keys other than ``type`` exactly as the game's
    record writes them (player ids where the record has names: the host names them).
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winners`` are player ids; ``awarded`` the players
    who earn the game's award (:attr:`Game.award`), one each."""

    winners: tuple[PlayerId, ...]
    draw: bool
    awarded: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One player's line in a finished game's standings: ``place`` (1: won; players who
    share a place share its number, as in 1, 2, 2, 4) and the game's own figures for
    them, in words (``12 shots``, ``5 hits``, ``survived 9 turns``)."""

    player: PlayerId
    place: int
    figures: tuple[str, ...] = ()


StateT = TypeVar("StateT")
OrderT = TypeVar("OrderT")
StateIn = TypeVar("StateIn", contravariant=True)
OrderIn = TypeVar("OrderIn", contravariant=True)


@dataclass(frozen=True)
class Given(Generic[OrderT]):
    """An order as a player gave it: who sent it, when (epoch seconds, the
    platform's stamp) and its place among the turn's orders (``sequence``
    breaks ties between orders stamped in the same second)."""

    player: PlayerId
    order: OrderT
    sent_at: float
    sequence: int


@dataclass(frozen=True)
class Accepted(Generic[StateT, OrderT]):
    """What :meth:`Rules.accept` decided about one order.

    ``state`` is the (possibly unchanged) state, ``standing`` the order that
    now waits for the turn's end (None when the order took effect at once),
    ``notices`` the messages to send (the sender's acknowledgement first), and
    ``resolve_now`` whether the host should resolve the turn now, in the same
    transaction, with the turn's orders (this one included).

    An order that acts at once returns what it did: ``events`` (in the
    record's vocabulary), ``orders`` (its record entries, with ``player`` ids)
    and ``changed`` (players whose private board changed); the host stores
    them in the turn's history and posts them as it posts a resolution.
    """

    state: StateT
    standing: OrderT | None
    notices: tuple[Notice, ...]
    resolve_now: bool = False
    events: tuple[Event, ...] = ()
    orders: tuple[Mapping[str, Any], ...] = ()
    changed: frozenset[PlayerId] = frozenset()


@dataclass(frozen=True)
class Resolution(Generic[StateT]):
    """The result of a change: the new state, its events in record order, the
    players whose private board changed (they get a new one), private notices,
    and the record entries of the orders that stood (``player`` ids; the host
    stores them with the turn)."""

    state: StateT
    events: tuple[Event, ...]
    changed: frozenset[PlayerId]
    notices: tuple[Notice, ...] = ()
    orders: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Timer:
    """A deadline the game wants running now.

    ``key`` names this timer for as long as it runs (``turn:3``); a key the host
    has not seen is armed, one it has is left alone, and one no longer declared
    is dropped. ``seconds`` is its length. A new timer starts at the moment of
    the change that declared it — the deadline that fell, or the arrival of the
    order — so a schedule never drifts however late the host runs. ``held``: the
    timer is stopped with the time it had left and runs on from the moment it is
    no longer held. ``label`` says what ends, for people (``Turn 3``, ``bob's answer``).
    """

    key: str
    seconds: float
    label: str
    held: bool = False


class ArgKind(enum.Enum):
    """What an argument of a verb holds, so a platform can offer the right input."""

    TEXT = "text"
    CELL = "cell"  # a cell of the board: platforms may autocomplete it
    CELLS = "cells"  # several cells, separated by commas
    NUMBER = "number"
    CHOICE = "choice"  # one of ``choices``
    PLAYER = "player"  # a player of the game (a mention on Discord)
    DURATION = "duration"  # 8h, 30m, 1h30m


@dataclass(frozen=True)
class Arg:
    """One argument of a verb, in the order the typed text takes it."""

    name: str
    kind: ArgKind
    description: str
    required: bool = True
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Verb:
    """A command of a game: ``/sonar shoot cells:…`` on Discord, typed text anywhere.

    The typed text is ``words`` followed by the arguments' values in order,
    separated by spaces (``words`` may be empty: bst's shot is just the cell).
    ``private``: given by DM (answered only to its sender); a public verb is
    posted in the game's channel."""

    name: str
    description: str
    private: bool
    args: tuple[Arg, ...] = ()
    words: str | None = None  # None: the verb's name

    def text(self, values: Sequence[str]) -> str:
        """The text a player would type for these argument values."""
        head = self.name if self.words is None else self.words
        return " ".join(part for part in (head, *values) if part)


@dataclass(frozen=True)
class Step:
    """One stored change of a game's history, for its record: the turn it
    belongs to, the order records it consumed and its event records (both with
    player ids), in the order they happened, and what made it (``cause``): the
    ``start``, the ``turn``'s orders resolving, a ``timer`` running out (``timer``
    names it), an ``action`` that acted at once, a player's ``leave``, the host's
    ``kick`` or ``end``."""

    turn: int
    orders: tuple[Mapping[str, Any], ...]
    events: tuple[Mapping[str, Any], ...]
    cause: str = "turn"
    timer: str = ""
    at: str | None = None
    """When the change happened, as ``YYYY-MM-DDTHH:MM:SSZ`` (the moment it counts
    from: the deadline that fell, or the order's sending)."""


@dataclass(frozen=True)
class RecordContext:
    """What the host knows of a game that its record shows: the game's number,
    the players' names by id, the host's phase, the timers pending (key →
    deadline as ``YYYY-MM-DDTHH:MM:SSZ``) and the game's seed when one was given."""

    number: int
    names: Mapping[PlayerId, str]
    phase: str
    deadlines: Mapping[str, str]
    seed: str | None = None


class Rules(Protocol[StateT, OrderT]):
    """A game's state machine: setup, orders, time, the host's verbs and seats.
    :class:`NeutralRules` holds the defaults; a game's rules subclass it and write the rest."""

    def new_game(self, options: Mapping[str, str]) -> StateT:
        """A game in setup with the given options (raises OptionError naming the known keys)."""
        ...

    def options(self, state: StateT) -> dict[str, str]:
        """The game's options in canonical text form, for records and status."""
        ...

    def join(self, state: StateT, player: PlayerRef) -> StateT:
        """Add a player (raises IllegalOrderError when joining is closed)."""
        ...

    def start(
        self, state: StateT, rng: random.Random, first: PlayerId | None
    ) -> Resolution[StateT]:
        """Close setup and begin the first turn (raises IllegalOrderError if it can't).
        ``first``: the player the host named to move first (refused where the
        rules give the host no such choice)."""
        ...

    def parse(self, text: str) -> OrderT:
        """Text → order. Raises OrderSyntaxError saying what was expected, with an example."""
        ...

    def accept(
        self,
        state: StateT,
        player: PlayerId,
        order: OrderT,
        channel: Channel,
        rng: random.Random,
    ) -> Accepted[StateT, OrderT]:
        """Validate an order for a player now; raise IllegalOrderError or decide it.

        ``rng`` is seeded by the host from the game's seed and the message, for
        orders that draw at once (``random`` placement)."""
        ...

    def turn(self, state: StateT) -> int:
        """The turn (round) in progress; 0 in setup. Orders are kept per turn."""
        ...

    def timers(self, state: StateT) -> tuple[Timer, ...]:
        """The deadlines that run now (see :class:`Timer`); none in a finished game."""
        ...

    def to_act(self, state: StateT) -> frozenset[PlayerId]:
        """Who may give an order now (reminders go to those of them with none yet)."""
        ...

    def resolve(
        self, state: StateT, orders: Sequence[Given[OrderT]], rng: random.Random
    ) -> Resolution[StateT]:
        """Close the turn in progress with every order given in it, in the order given."""
        ...

    def expire(
        self, state: StateT, timer: str, orders: Sequence[Given[OrderT]], rng: random.Random
    ) -> Resolution[StateT]:
        """The timer ``timer`` ran out: apply the rules' timeout (close the turn,
        skip, a random shot, no retreat). ``orders`` as for :meth:`resolve`."""
        ...

    def remove(self, state: StateT, player: PlayerId) -> Resolution[StateT]:
        """A player leaves or is kicked."""
        ...

    def finish(self, state: StateT) -> Resolution[StateT]:
        """The host ends the game at once."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """None while the game runs."""
        ...

    def standings(self, state: StateT, history: Sequence[Step]) -> tuple[Standing, ...]:
        """Every player of a finished game, best place first, with the game's figures
        (from its state now and its stored history, as for :meth:`record`); empty while
        the game runs."""
        ...

    def crew(self, state: StateT, player: PlayerId) -> tuple[PlayerId, ...]:
        """Everyone who shares ``player``'s seat, ``player`` included (one, in most games)."""
        ...


class Described(Protocol):
    """A game's options as its state keeps them: their canonical text (``turn`` → ``8h``)."""

    def text(self) -> dict[str, str]: ...


class NeutralState(Protocol):
    """What the neutral rules read of a game's state: the turn in progress and the options."""

    @property
    def turn(self) -> int: ...

    @property
    def options(self) -> Described: ...


NeutralStateT = TypeVar("NeutralStateT", bound=NeutralState)


class NeutralRules(Generic[NeutralStateT, OrderT]):
    """The rules every game shares unless it says otherwise: a game's ``rules`` subclass
    this and write only the rest of :class:`Rules` (``mypy`` checks that it is all there
    where the :class:`Game` is declared). Its state keeps ``turn`` and ``options``."""

    def options(self, state: NeutralStateT) -> dict[str, str]:
        return state.options.text()

    def turn(self, state: NeutralStateT) -> int:
        return state.turn

    def crew(self, state: NeutralStateT, player: PlayerId) -> tuple[PlayerId, ...]:
        return (player,)  # one player a seat, unless the game seats crews


class Views(Protocol[StateIn]):
    """What a viewer may see, and what the end reveals: the only way secrets leave a game."""

    def view(self, state: StateIn, viewer: PlayerId | None) -> Any:
        """What ``viewer`` may see; ``None`` is the public view."""
        ...

    def reveal(self, state: StateIn) -> Any:
        """Everything, for the replay of a finished game."""
        ...


class Codec(Protocol[StateT, OrderT]):
    """A game's state and orders to and from JSON (the store), and its record."""

    def encode_state(self, state: StateT) -> dict[str, Any]:
        """JSON-ready form of a state (the store keeps it)."""
        ...

    def decode_state(self, data: Mapping[str, Any]) -> StateT:
        """Inverse of encode_state."""
        ...

    def encode_order(self, order: OrderT) -> dict[str, Any]:
        """JSON-ready form of an order (without ``player``)."""
        ...

    def decode_order(self, data: Mapping[str, Any]) -> OrderT:
        """Inverse of encode_order."""
        ...

    def record(
        self, state: StateT, history: Sequence[Step], context: RecordContext
    ) -> dict[str, Any]:
        """The game's whole record (``KIND-record/1``, shared/contracts), from its
        state now and its stored history."""
        ...


class Words(Protocol[StateIn, OrderIn]):
    """Every sentence the host posts about a game. :class:`NeutralWords` holds the
    defaults; a game's words subclass it and say only what differs."""

    def describe(self, order: OrderIn) -> str:
        """The canonical text of an order (``shoot H14``), for acknowledgements."""
        ...

    def acknowledge(self, turn: int, standing: OrderIn, replaced: OrderIn | None) -> str:
        """The reply to a standing order (``Turn 3: shoot H14 (replaces: pass)``)."""
        ...

    def opening(self, state: StateIn) -> str:
        """What the post that opens a game says after its title: the board, the
        options, how to join and what to send (``is open on a board of 10×10 …``)."""
        ...

    def welcome(self, state: StateIn, player: PlayerId, number: int) -> str:
        """The reply to a join (``alice joined game 3 (2 captains). Send your fleet…``)."""
        ...

    def quick_orders(self, state: StateIn, player: PlayerId) -> tuple[str, ...]:
        """Orders ``player`` may give now as they are, with one click where the platform
        has buttons (bst's ``random`` fleet in setup); offered with the welcome."""
        ...

    def beginning(self, state: StateIn, names: Mapping[PlayerId, str]) -> str:
        """What the post that starts the game says after its title and before the
        first deadline (``the battle begins! 4 captains: …``)."""
        ...

    def hint(self, state: StateIn) -> str:
        """One line on how to play a turn, after the first deadline."""
        ...

    def report_title(self, turn: int) -> str:
        """The heading of a turn's public report, after the game's title (``turn 3``)."""
        ...

    def quiet_report(self) -> str:
        """The public report of a turn in which nothing public happened."""
        ...

    def pictured(self, events: Sequence[Event]) -> bool:
        """Whether the public report of a change within a turn carries the public
        picture (the start, each turn's end and the game's end always do): a game whose
        turns hold many actions pictures only what changes the board's story, so its
        channel gets one picture a turn, not one an action."""
        ...

    def board_heading(self, title: str, turn: int) -> str:
        """The first line of a player's board showing ``turn`` (the turn open after the
        change, as the picture's status says it; the last turn once the game is over;
        0: as the game begins), for the game called ``title`` (``#bst game 3, turn 3:``)."""
        ...

    def result(self, state: StateIn, names: Mapping[PlayerId, str]) -> str:
        """How the game ended, in a sentence ('' while it runs)."""
        ...

    def reminder(self, state: StateIn, left: str) -> str:
        """The reminder to a player with no order yet, ``left`` before the deadline
        (``turn 3 closes in 2 h and you have no order yet (shoot in public, …)``)."""
        ...

    def replay_caption(self) -> str:
        """The words beside the end-of-game replay (``the replay of the whole battle.``)."""
        ...

    def example(self) -> str:
        """A short order, to show someone whose message was not one."""
        ...

    def player_word(self, count: int) -> str:
        """The game's word for players (``captain``/``captains``), for ``count`` of them."""
        ...

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        """A turn's events in words for everyone (public facts only)."""
        ...

    def public_report_in_full(
        self, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> list[str]:
        """The same, with nothing summed up: what the turn's web page shows, where a crowd's
        chat post is a digest that names only some (bst past 100 shots)."""
        ...

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        """A turn's events in words for one player (their own facts only)."""
        ...

    def summary(self, state: StateIn, viewer: PlayerId | None) -> str:
        """A few lines of what ``viewer`` sees (public when None): the text beside every
        board picture. The board itself is :meth:`text_board`."""
        ...

    def text_board(self, state: StateIn, viewer: PlayerId | None) -> str:
        """The board ``viewer`` sees as text — a column header, the grid and a key — for
        where no picture can be shown (the console, a text-only platform); '' when there
        is no board to show yet, or it is too big to read as text."""
        ...

    def help_text(self) -> str:
        """Short help for players."""
        ...

    def rules_text(self) -> str:
        """The rules summary."""
        ...

    def running_phase(self) -> str:
        """The game's word for its running phase, as players read it in a status and on
        the web page (``battle``, ``hunt``); records keep ``battle`` whatever it is."""
        ...


class NeutralWords(abc.ABC, Generic[StateIn, OrderIn]):
    """The words every game shares unless it says otherwise: a game's ``words`` subclass
    this and write only the sentences that are its own (the rest of :class:`Words`)."""

    @abc.abstractmethod
    def describe(self, order: OrderIn) -> str:
        """The canonical text of an order: every game writes its own."""

    @abc.abstractmethod
    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        """A turn's events in words for everyone: every game writes its own."""

    def public_report_in_full(
        self, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> list[str]:
        return self.public_report(events, names)  # a game that never sums up says it all

    def acknowledge(self, turn: int, standing: OrderIn, replaced: OrderIn | None) -> str:
        line = f"Turn {turn}: {self.describe(standing)}"
        if replaced is not None:
            line += f" (replaces: {self.describe(replaced)})"
        return line

    def quick_orders(self, state: StateIn, player: PlayerId) -> tuple[str, ...]:
        return ()

    def private_report(self, events: Sequence[Event], viewer: PlayerId) -> list[str]:
        return []  # a game whose events are all public tells nobody more

    def report_title(self, turn: int) -> str:
        return f"turn {turn}"

    def quiet_report(self) -> str:
        return "Nothing to announce."

    def pictured(self, events: Sequence[Event]) -> bool:
        return True

    def board_heading(self, title: str, turn: int) -> str:
        if turn == 0:
            return f"{title}, as the game begins:"
        return f"{title}, turn {turn}:"  # the turn the board shows, as its picture names it

    def replay_caption(self) -> str:
        return "the replay of the whole game."

    player_words: tuple[str, str] = ("player", "players")
    """The game's word for one player and for several: a game's words set only this
    (``("captain", "captains")``) to say :meth:`player_word` its own way."""

    def player_word(self, count: int) -> str:
        return self.player_words[0] if count == 1 else self.player_words[1]

    def running_phase(self) -> str:
        return "battle"


@dataclass(frozen=True)
class Said:
    """A message a simulated player sends: its text, in the channel or by DM."""

    text: str
    public: bool


ROBOT_LEVELS = ("easy", "strong")
"""The robots' levels, weakest first: ``easy`` plays with some sense, ``strong`` makes the
most of everything its player's view has shown it."""


class Robot(Protocol):
    """A simulated player for ``bst demo``: a game's ``robot.py`` makes it, its
    :class:`Game` value declares it.

    It sees only what its player sees (``game.views.view(state, player)``) and decides, with
    its own seeded random source, what to send when it may act: in setup (a placement,
    a starting cell) and whenever the game names it in ``to_act``. Pure, like the rules."""

    demo_players: int
    """How many players a demo seats unless told (the game as its seed played it)."""

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        """What to send now; an empty list waits (the timer decides)."""
        ...


class Crowd(Protocol):
    """How a game is played by a crowd of simulated players, for ``bst demo --players N
    --turns T``: each decides from its own view alone, in a time that does not grow with
    the crowd (the :class:`Robot` of a table game may remember every shot it has seen,
    which a crowd cannot afford). Pure, like the rules."""

    setup_order: str
    """What every player sends in setup, first come (bst: ``random``, a fleet at random)."""

    def size_for(self, players: int) -> str | None:
        """The ``size`` option of the board a crowd of ``players`` is played on unless told
        (None: no board of the game is big enough)."""
        ...

    def room(self, state: Any) -> int:
        """How many players a game in setup (as ``new_game`` made it) has room for."""
        ...

    def order(self, view: Any, rng: random.Random) -> tuple[str, bool]:
        """A player's order this turn, from its own view: the text and whether it is said
        in public (else by DM)."""
        ...


@dataclass(frozen=True)
class Game(Generic[StateT, OrderT]):
    """A game, declared: who it is (name, tag, title), how players address it (verbs,
    options), three flags the host reads, and its parts. The host calls the part it
    needs: ``game.rules.accept(…)``, ``game.views.view(…)``, ``game.codec.record(…)``,
    ``game.words.opening(…)``. Frozen: a game is a value, registered once."""

    name: str
    """The registry name (``bst``)."""

    tag: str
    """The hashtag players write and the host's posts carry (``#sonar``)."""

    title: str
    """The game's name for people (``Sonar``)."""

    verbs: tuple[Verb, ...]
    """The game's own commands (the host adds join, leave, board, status, help,
    rules and its host verbs)."""

    option_args: tuple[Arg, ...]
    """The options ``new`` takes, with their kinds and choices (for platforms)."""

    rules: Rules[StateT, OrderT]
    views: Views[StateT]
    codec: Codec[StateT, OrderT]
    words: Words[StateT, OrderT]

    robot: Robot | None = None
    """The game's simulated player, for ``bst demo`` and ``bst play`` (None: it has none):
    its ``easy`` level."""

    robots: Mapping[str, Robot] = field(default_factory=dict, hash=False, compare=False)
    """The game's robots by level (``{"easy": …, "strong": …}``), each deciding from its own
    player's view alone; ``robot`` is the ``easy`` one (see :meth:`robot_at`). Left out of
    the game's hash and equality (a game is a value; a mapping cannot be hashed)."""

    crowd: Crowd | None = None
    """How a crowd of simulated players plays it, for ``bst demo --turns`` (None: the game is
    for a table, not a crowd)."""

    simultaneous: bool = False
    """True: orders stand until the turn's timer runs out and resolve together (bst,
    U-Boat). False: players act in turn and each order acts at once; while the host has
    paused the game such orders are refused, since no clock runs to answer them."""

    players_may_leave: bool = True
    """False where the rules have no ``leave`` (U-Boat Shootout: a boat stays in to the
    end); the host then refuses it, and only a host's ``kick`` removes a player."""

    award: tuple[str, str] | None = None
    """The award a game may give a player as it ends, in the singular and the plural
    (U-Boat: ``("mark of victory", "marks of victory")``); the host adds a person's up
    beside their record. None: the game gives none."""

    public_needs_tag: bool = True
    """True: in the game's channel, a message without the game's tag (or a mention of
    the bot) is people talking, and the host does not answer it; the host's own verbs
    need no tag. False (bst): every message in the game's channel is for the game."""

    def robot_at(self, level: str) -> Robot | None:
        """The robot of ``level`` (None: the game has no robot of that level); ``easy`` is
        ``robot`` where the levels do not name it."""
        if level in self.robots:
            return self.robots[level]
        return self.robot if level == ROBOT_LEVELS[0] else None

    def phase_word(self, phase: str) -> str:
        """A stored phase as players read it: the game's own word for its running phase."""
        return self.words.running_phase() if phase == GamePhase.RUNNING else phase
