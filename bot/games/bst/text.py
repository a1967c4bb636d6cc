"""Everything bst says in words: help, the rules in short, the text of a board, and
every sentence the host posts for a bst game (openings, welcomes, acknowledgements,
headings, results, reminders).

The host composes these with its own parts (``#bst game 12``, deadlines in UTC);
each function's docstring shows the sentence it ends up in. Words never depend on
a hidden fact: they are drawn from views, options and outcomes only.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.base import PlayerId
from bot.games.bst.cells import Cell, row_label
from bot.games.bst.lifecycle import outcome
from bot.games.bst.orders import Order, describe_order, range_text
from bot.games.bst.state import BstState
from bot.games.bst.turns import to_act
from bot.games.bst.views import CaptainStatus, Phase, PrivateView, PublicView, view_of

GRID_LIMIT = 30
"""Boards up to this many rows and columns get a text grid in the summary (console play)."""


def summary_text(state: BstState, viewer: PlayerId | None) -> str:
    """What ``viewer`` sees (public when None), in a few lines: the words beside a board
    picture (the board itself as text is :func:`board_text`)."""
    view = view_of(state, viewer)
    public = view.public if isinstance(view, PrivateView) else view
    lines = list(_public_summary(public))
    if isinstance(view, PrivateView):
        own = []
        for ship in view.ships:
            text = f"{ship.kind.value} {range_text(ship.cells)}"
            if ship.destroyed:
                text += " (destroyed)"
            elif ship.damaged:
                text += f" (hit at {', '.join(map(str, sorted(ship.damaged)))})"
            own.append(text)
        lines.append(f"Your ships: {', '.join(own) or 'none placed yet'}.")
    return "\n".join(lines)


LISTED = 100
"""A summary names up to this many captains afloat, shots or wrecks; a longer list (a
crowd's) is told as a count, as the turn's report is (``reports.DIGEST_SHOTS``)."""

_PUBLIC_SUMMARY = "_public_summary"
"""Where a public view keeps its summary lines once written (not a field)."""


def _public_summary(public: PublicView) -> tuple[str, ...]:
    """The public lines of every summary of one view, written once: a turn's boards
    share one public view, so a crowd's 100,000 summaries each add only their own
    fleet, not another pass over the crowd (issue 33)."""
    cached: tuple[str, ...] | None = public.__dict__.get(_PUBLIC_SUMMARY)
    if cached is None:
        cached = public.__dict__[_PUBLIC_SUMMARY] = tuple(_public_lines(public))
    return cached


def _public_lines(public: PublicView) -> list[str]:
    lines = [f"#bst {public.rows}x{public.cols}, {_phase_text(public)}"]
    if public.phase is Phase.FINISHED:
        names = {c.id: c.name for c in public.captains}
        winners = ", ".join(names.get(w, w) for w in public.winners) or "no one"
        lines.append(f"Draw between {winners}." if public.draw else f"Winner: {winners}.")
    alive = public.alive
    if len(alive) > LISTED:
        lines.append(f"Captains afloat: {len(alive):,} of {len(public.captains):,}.")
    else:
        lines.append(f"Captains afloat: {', '.join(c.name for c in alive) or 'none'}.")
    if len(public.shots) > LISTED:
        hits = sum(1 for s in public.shots if s.hit)
        lines.append(
            f"Shots last turn: {len(public.shots):,}, {hits:,} {'hit' if hits == 1 else 'hits'}."
        )
    elif public.shots:
        shots = ", ".join(
            f"{s.shooter_name} {s.cell} {'hit' if s.hit else 'miss'}" for s in public.shots
        )
        lines.append(f"Shots last turn: {shots}.")
    if len(public.wrecks) > LISTED:
        lines.append(f"Wrecks: {len(public.wrecks):,} ships.")
    elif public.wrecks:
        wrecks = ", ".join(
            f"{w.owner_name}'s {w.kind.value} {range_text(w.cells)}" for w in public.wrecks
        )
        lines.append(f"Wrecks: {wrecks}.")
    return lines


def board_text(state: BstState, viewer: PlayerId | None) -> str:
    """The board ``viewer`` sees as text, for where no picture can be shown: a column
    header, the grid and its key ('' on a board too big to read as text)."""
    view = view_of(state, viewer)
    public = view.public if isinstance(view, PrivateView) else view
    if public.rows > GRID_LIMIT or public.cols > GRID_LIMIT:
        return ""
    private = view if isinstance(view, PrivateView) else None
    key = "Key: . water, o a miss, x a hit, # a wreck"
    if private is not None:
        key += ", S your ship, * your ship damaged"
    return _grid(public, private) + "\n" + key + "."


def _phase_text(public: PublicView) -> str:
    if public.phase is Phase.SETUP:
        return "setup: join and place your fleet"
    if public.phase is Phase.BATTLE:
        return f"turn {public.turn}"
    return f"finished after turn {public.turn}"


def _grid(public: PublicView, private: PrivateView | None) -> str:
    """A text board: `.` water, `o` miss, `x` hit, `#` wreck; your ships `S`, damaged `*`."""
    marks: dict[Cell, str] = {}
    if private is not None:
        for ship in private.ships:
            for cell in ship.cells:
                marks[cell] = "*" if cell in ship.damaged else "S"
    for wreck in public.wrecks:
        for cell in wreck.cells:
            marks[cell] = "#"
    for shot in public.shots:
        marks[shot.cell] = "x" if shot.hit else "o"
    rows, cols = public.rows, public.cols
    # Squares written into a grid of rows rather than a lookup per square: every board
    # of every captain of a storm's thousand games is drawn so (issue 45).
    grid = [[" ."] * cols for _ in range(rows)]
    for cell, mark in marks.items():
        if 0 <= cell.row < rows and 0 <= cell.col < cols:
            grid[cell.row][cell.col] = f"{mark:>2}"
    width = len(row_label(rows - 1))
    header = " " * (width + 1) + " ".join(f"{col + 1:>2}" for col in range(cols))
    lines = [f"{row_label(row):>{width}} " + " ".join(grid[row]) for row in range(rows)]
    return "\n".join([header, *lines])


HELP_TEXT = """\
BattleshipTwitter (#bst): one shared board, two secret ships each, turns that close on a deadline.
Setup: `join`, then DM your fleet: `sub: A2, carrier: C1-C5` or `cruiser: B2-B4, cruiser: E5-G5`, or `random`.
Each turn, one action (a new one replaces the last):
  shoot (public): `#bst H14`
  move (DM): `move cruiser at G7 3 up` (along its length, 1 to its length; a sub moves 1 any way)
  rotate (DM): `rotate carrier at E8` (a quarter turn about its centre)
  `pass` withdraws your action.
Rows are letters from the top (A, B, … Z, AA…), columns numbers from the left.
Also: `board` (your private board), `status`, `rules`, `leave`."""

RULES_TEXT = """\
BattleshipTwitter rules, in short:
1. Board: rows A, B, C… from the top, columns 1, 2, 3… from the left; a cell is row then column, e.g. H14.
2. Fleet: an aircraft carrier (5 cells) and a submarine (1 cell), or two cruisers (3 cells each); straight lines.
3. Setup: `join`, then place your fleet by DM (`sub: A2, carrier: C1-C5` or `random`); resend to change it. \
A placement overlapping a ship already placed is refused without saying where, at most 3 times (then your \
fleet is placed at random); with placement_conflicts=both_retry, both placements are withdrawn. Captains without a placement are placed at random when the battle starts.
4. Each turn you may take one action: shoot one cell in public (`#bst H14`), or by DM move one ship \
1 to its length along its axis (`move cruiser at G7 3 up`; a sub moves 1 cell any way) or rotate it a \
quarter turn about its centre (`rotate carrier at E8`; subs cannot rotate). Name a ship by any cell it occupies.
5. At the deadline all ships move together one cell at a time. A ship stops for the turn if it would run \
into a ship that stays put, a cell another ship also wants, a ship that is itself stopped, or pass through \
a ship coming the other way; following a ship that moves away is fine. Collisions do no damage: you are \
told where your ship collided, not whose ship it was.
6. Then shots land (by default after the moves, so moving can dodge): a shot on any ship segment, yours and \
wrecks included, is a hit and damages that segment for good. A ship with every segment hit is a wreck, shown \
to all with its owner; it never moves again and still blocks.
7. A captain whose two ships are wrecks is eliminated. The last captain afloat wins; if the last ships sink \
together, those captains draw. `leave` turns your ships into wrecks."""


BATTLE_HINT = "Shoot in public (`#bst H14`); move or rotate by DM."
EXAMPLE = "`#bst H14` or `move cruiser at G7 3 up`"
PLACEMENT_EXAMPLES = "`sub: A2, carrier: C1-C5`, `cruiser: B2-B4, cruiser: E5-G5`, or `random`"


def opening(state: BstState) -> str:
    """``#bst game 12 is open on a board of 10×10 (turn 8h, …). Captains: …``"""
    options = state.options
    settings = ", ".join(f"{k} {v}" for k, v in options.text().items() if v not in ("none", ""))
    return (
        f"is open on a board of {options.rows}×{options.cols} ({settings}). "
        "Captains: send `join` here, then your fleet by DM, e.g. "
        "`sub: A2, carrier: C1-C5` or `random`. "
        "The host starts the battle with `start`."
    )


def welcome(state: BstState, player: PlayerId, number: int) -> str:
    """The reply to ``join``: ``ahab joined game 1 (1 captain). Send your fleet…``, or
    for a late joiner ``… placed at random when turn 4 closes.``"""
    captain = state.captain(player)
    name = captain.name if captain is not None else player
    if state.phase is Phase.SETUP:
        count = sum(1 for c in state.captains if c.status is CaptainStatus.ALIVE)
        return (
            f"{name} joined game {number} ({count} {player_word(count)}). "
            f"Send your fleet to me by DM, e.g. {PLACEMENT_EXAMPLES}."
        )
    return f"{name} joined game {number}: placed at random when turn {state.turn} closes."


def beginning(state: BstState, names: Mapping[PlayerId, str]) -> str:
    """``#bst game 1: the battle begins! 2 captains: ahab, nemo. Turn 1 closes …`` (not
    those who left during setup)."""
    in_battle = to_act(state)
    captains = [names.get(c.id, c.name) for c in state.captains if c.id in in_battle]
    return f"the battle begins! {len(captains)} captains: {', '.join(captains)}."


def acknowledgement(turn: int, standing: Order, replaced: Order | None) -> str:
    """The private reply to a battle order: ``Turn 3: shoot H14 (replaces: pass)``."""
    described = describe_order(standing)
    text = f"Turn {turn}: no action (pass)" if described == "pass" else f"Turn {turn}: {described}"
    if replaced is not None:
        text += f" (replaces: {describe_order(replaced)})"
    return text


def report_title(turn: int) -> str:
    """``#bst game 1, turn 3:`` heads a turn's public report."""
    return f"turn {turn}"


QUIET_REPORT = "No shots this turn."


def board_heading(title: str, turn: int) -> str:
    """The first line of a captain's board: the turn it shows (the picture's "Turn 4"),
    or as the battle begins."""
    if turn:
        return f"{title}, turn {turn}:"
    return f"{title}: your fleet as the battle begins."


def result(state: BstState, names: Mapping[PlayerId, str]) -> str:
    """How the battle ended ('' while it runs): ``nemo wins the battle!``, or a draw."""
    ended = outcome(state)
    if ended is None:
        return ""
    winners = [names.get(k, k) for k in ended.winners]
    if ended.draw:
        if winners:
            return "The battle ends in a draw between " + ", ".join(winners) + "."
        return "The battle ends in a draw."
    if winners:
        return f"{winners[0]} wins the battle!"
    return "The battle is over."


def reminder(state: BstState, left: str) -> str:
    """``#bst game 1: turn 3 closes in 2 h and you have no order yet (…).``"""
    return (
        f"turn {state.turn} closes in {left} and "
        "you have no order yet (shoot in public, move or rotate by DM)."
    )


REPLAY_CAPTION = "the replay of the whole battle."


def player_word(count: int) -> str:
    return "captain" if count == 1 else "captains"
