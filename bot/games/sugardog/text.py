"""Sugar Dog in words: reports, the captain's log, the text board, help and rules.

Public sentences are made from public facts only (contacts, impacts, pings,
eliminations, leaves, results, and that an action happened); what only the
acting captain may know (the silent cell, a launch's cell and direction, a
mine's cell, a torpedo lost) is said only in their private report and log.
See ``shared/rules/sugardog.md`` and the contract's "What is public".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Event, PlayerId
from bot.games.sugardog.board import Cell, column_label
from bot.games.sugardog.state import Phase, Status, SugarDogState, UnitKind
from bot.games.sugardog.units import PRIVATE_EVENTS, TimedOutSilence
from bot.games.sugardog.views import (
    CaptainView,
    ContactView,
    EliminatedView,
    FinishedView,
    ImpactView,
    LaunchedView,
    LeftView,
    LostView,
    MineLaidView,
    PingView,
    PrivateView,
    PublicFact,
    PublicTurn,
    PublicView,
    SilentView,
    UnitView,
    blasts,
    last_heard,
    view_of,
)

TITLE = "Sugar Dog"
TAG = "#sugardog"


def _name(names: Mapping[PlayerId, str], player: Any) -> str:
    return names.get(str(player), str(player))


def _unit(names: Mapping[PlayerId, str], entry: Mapping[str, Any]) -> str:
    owner = _name(names, entry["player"])
    if entry["unit"] == "torpedo":
        return f"{owner}'s torpedo {entry['torpedo']}"
    return f"{owner}'s {entry['unit']}"


def _list(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def result_sentence(winners: Sequence[str], draw: bool) -> str:
    if draw and winners:
        return f"Draw between {_list(list(winners))}: their submarines went down together."
    if draw:
        return "The game is over with no winner."
    if winners:
        return f"{winners[0]} wins: the last submarine afloat."
    return "The game is over with no submarine afloat."


def ended_sentence(afloat: Sequence[str]) -> str:
    """The result of a game the host ended: a draw between the submarines still afloat."""
    if afloat:
        return f"No winner: a draw between {_list(list(afloat))}, still afloat."
    return "The game is over with no winner."


# ------------------------------------------------------------------ public


def public_sentence(event: Event, names: Mapping[PlayerId, str]) -> str | None:
    """A public event in words for everyone, or None when it is not public (the private
    events, and ``finished``: the host says the result itself, from :func:`result_sentence`)."""
    data = event.data
    if event.type == "contact":
        return f"Contact at {data['cell']}: {_unit(names, data)}."
    if event.type == "impact":
        destroyed = _list([_unit(names, unit) for unit in data["destroyed"]])
        return f"Impact at {data['cell']}, set off by {_unit(names, data)}. Destroyed: {destroyed}."
    if event.type == "ping":
        report = "; ".join(
            f"{_unit(names, item)} {item['cell']} ({item['distance']})" for item in data["report"]
        )
        return f"Sonar report from {data['cell']}: {report}."
    if event.type == "eliminated":
        who = _name(names, data["player"])
        return f"{who}'s submarine is destroyed: {who} is out."
    if event.type == "left":
        # The host's own headline already says who left or was removed.
        return (
            f"{_name(names, data['player'])}'s submarine is gone from the water; "
            "their mines and torpedoes stay."
        )
    return None


_ACTION_OF_EVENT = {"silent": "silent", "launched": "torpedo", "mine": "mine", "ping": "ping"}


def turn_head(events: Sequence[Event], names: Mapping[PlayerId, str]) -> str | None:
    """Who moved and the name of their action (``ahab: cruise.``), read from the turn's
    events: every action leaves one (a silent stay its ``silent``, a cruise its submarine's
    contacts). Only the action's name is said, never where. None for a change that is not
    a turn (a leave, the host's end)."""
    if any(event.type == "left" for event in events) or all(
        event.type == "finished" for event in events
    ):
        return None
    for event in events:
        action = _ACTION_OF_EVENT.get(event.type)
        if action is None and event.type == "contact" and event.data["unit"] == "submarine":
            action = "cruise"
        if action is not None:
            timeout = isinstance(event, TimedOutSilence)
            return f"{_name(names, event.data['player'])}: {action_words(action, timeout)}."
    # The mover's own torpedoes ran first and ended the hunt before the action.
    mover = next((e.data["player"] for e in events if "player" in e.data), None)
    if mover is None:
        return None
    return f"{_name(names, mover)}'s torpedoes ran first, and the hunt ended before the action."


def public_lines(events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
    """The public report of a change: who moved and their action's name, then every
    public fact in event order (the host adds who moves next and when, or the result)."""
    head = turn_head(events, names)
    facts = [line for event in events if (line := public_sentence(event, names)) is not None]
    return [head, *facts] if head is not None else facts


def action_words(action: str, timeout: bool) -> str:
    if timeout:
        return "time ran out (a silent stay)"
    return {
        "silent": "silent running",
        "cruise": "cruise",
        "ping": "active sonar (ping)",
        "torpedo": "torpedo",
        "mine": "mine",
        "leave": "left the game",
        "end": "the host ended the game",
    }.get(action, action)


# ------------------------------------------------------------------ private


def private_sentence(event: Event) -> str | None:
    data = event.data
    if event.type == "silent":
        return f"You run silent at {data['cell']}."
    if event.type == "launched":
        return (
            f"You fired torpedo {data['torpedo']} from {data['cell']}, heading {data['direction']}."
        )
    if event.type == "mine":
        left = int(data["left"])
        return f"You laid a mine at {data['cell']}: {left} mine{'' if left == 1 else 's'} left."
    if event.type == "lost":
        return f"Your torpedo {data['torpedo']} left the board: it is lost."
    return None


def private_lines(events: Sequence[Event], viewer: PlayerId) -> list[str]:
    return [
        line
        for event in events
        if event.type in PRIVATE_EVENTS and event.data.get("player") == viewer
        if (line := private_sentence(event)) is not None
    ]


# ------------------------------------------------------------------ facts of views


def _unit_view(unit: UnitView) -> str:
    if unit.kind is UnitKind.TORPEDO:
        return f"{unit.owner_name}'s torpedo {unit.torpedo}"
    return f"{unit.owner_name}'s {unit.kind.value}"


def fact_text(fact: PublicFact) -> str:
    if isinstance(fact, ContactView):
        return f"Contact at {fact.cell}: {_unit_view(fact.unit)}."
    if isinstance(fact, ImpactView):
        destroyed = _list([_unit_view(u) for u in fact.destroyed])
        return f"Impact at {fact.cell}, set off by {_unit_view(fact.unit)}. Destroyed: {destroyed}."
    if isinstance(fact, PingView):
        report = "; ".join(f"{_unit_view(s.unit)} {s.cell} ({s.distance})" for s in fact.report)
        return f"Sonar report from {fact.cell}: {report}."
    if isinstance(fact, EliminatedView):
        return f"{fact.name}'s submarine is destroyed: {fact.name} is out."
    if isinstance(fact, LeftView):
        return f"{fact.name} left the game: their submarine is gone."
    if isinstance(fact, FinishedView):
        return result_sentence(fact.winner_names, fact.draw)
    raise TypeError(fact)


def _turn_text(turn: PublicTurn, viewer: PlayerId | None) -> str:
    who = "you" if turn.player == viewer else turn.player_name
    head = f"Turn {turn.number}, {who}: {action_words(turn.action, turn.timeout)}."
    return " ".join([head, *(fact_text(fact) for fact in turn.facts)])


def log_text(view: PrivateView) -> str:
    """The captain's command log: their own turns (order, cell after, mines left, what
    they alone were told) among every turn's public facts."""
    side = view.side
    start = "none yet" if side.start_cell is None else str(side.start_cell)
    if side.random_start:
        start += " (drawn at random)"
    lines = [f"Your log, {view.viewer_name} (starting cell {start}):"]
    own = {turn.number: turn for turn in view.turns}
    for turn in view.public.turns:
        mine = own.get(turn.number) if turn.player == view.viewer else None
        if mine is None:
            lines.append(_turn_text(turn, view.viewer))
            continue
        order = "time ran out (silent)" if mine.timeout else mine.order
        where = "gone" if mine.cell_after is None else str(mine.cell_after)
        if any(isinstance(f, EliminatedView) and f.player == view.viewer for f in turn.facts):
            where = f"destroyed at {where}"
        own_facts = [_private_fact_text(fact) for fact in mine.facts]
        public = [fact_text(fact) for fact in turn.facts]
        lines.append(
            " ".join(
                [
                    f"Turn {turn.number}, you: {order} → {where}, "
                    f"{mine.mines_left_after} mine{'' if mine.mines_left_after == 1 else 's'} left.",
                    *own_facts,
                    *public,
                ]
            )
        )
    if len(lines) == 1:
        lines.append(
            "Nothing yet: the hunt has not begun."
            if view.public.phase is Phase.SETUP
            else "No turn played yet."
        )
    return "\n".join(lines)


def _private_fact_text(fact: SilentView | LaunchedView | MineLaidView | LostView) -> str:
    if isinstance(fact, SilentView):
        return f"Silent at {fact.cell}."
    if isinstance(fact, LaunchedView):
        return f"Torpedo {fact.torpedo} fired from {fact.cell} heading {fact.direction.value}."
    if isinstance(fact, MineLaidView):
        return f"Mine laid at {fact.cell}."
    return f"Torpedo {fact.torpedo} lost off the board."


# ------------------------------------------------------------------ the text board

GRID_LIMIT = 26
"""Boards up to this size get a text grid in the summary (console play)."""

ASCII_LIMIT = 10
"""Boards up to this size (four captains) are drawn in the original's ``+---+`` style."""


def _captain_text(captain: CaptainView, public: PublicView) -> str:
    if captain.status is Status.LEFT:
        return f"{captain.name} (left)"
    if captain.status is Status.ELIMINATED and public.phase is not Phase.SETUP:
        where = f" at {captain.wreck}" if captain.wreck is not None else ""
        return f"{captain.name} (destroyed{where})"
    if public.phase is Phase.SETUP:
        return captain.name
    parts = ["afloat"]
    if captain.silent:
        parts.append("silent")
    left = 3 - captain.mines_laid
    parts.append(f"{left} mine{'' if left == 1 else 's'} left")
    if captain.torpedoes_fired:
        fired = captain.torpedoes_fired
        parts.append(f"{fired} torpedo{'' if fired == 1 else 'es'} fired")
    return f"{captain.name} ({', '.join(parts)})"


def _phase_text(public: PublicView) -> str:
    if public.phase is Phase.SETUP:
        return "setup: join, then DM your secret starting cell"
    if public.phase is Phase.BATTLE:
        return f"turn {public.turn}: {public.current_name} to move"
    return f"finished after turn {public.turn}"


def summary_text(state: SugarDogState, viewer: PlayerId | None) -> str:
    """What ``viewer`` sees (public when None), as text: the caption of a board image, or
    the board on a console."""
    view = view_of(state, viewer)
    public = view.public if isinstance(view, PrivateView) else view
    viewer = view.viewer if isinstance(view, PrivateView) else None
    lines = [f"{TAG} {public.size}×{public.size}, {_phase_text(public)}."]
    names = {c.id: c.name for c in public.captains}
    if public.order:
        lines.append("Turn order: " + ", ".join(names.get(p, p) for p in public.order) + ".")
    if public.captains:
        lines.append(
            "Captains: " + ", ".join(_captain_text(c, public) for c in public.captains) + "."
        )
    if public.phase is Phase.FINISHED:
        lines.append(result_sentence([names.get(p, p) for p in public.winners], public.draw))
    last = public.last_turn
    if last is not None:
        lines.append("Last: " + _turn_text(last, viewer))
    if isinstance(view, PrivateView):
        lines.append(_own_text(view))
    return "\n".join(lines)


def board_text(state: SugarDogState, viewer: PlayerId | None) -> str:
    """The sea ``viewer`` sees as text, for where no picture can be shown ('' in setup or
    when too big)."""
    view = view_of(state, viewer)
    public = view.public if isinstance(view, PrivateView) else view
    if public.size > GRID_LIMIT or public.phase is Phase.SETUP:
        return ""
    private = view if isinstance(view, PrivateView) else None
    key = "Key: c where something was last heard or pinged, x where something blew up"
    if private is not None:
        key += "; yours: s your submarine, t a torpedo, m a mine"
    return _grid(public, private) + "\n" + key + "."


def _own_text(view: PrivateView) -> str:
    side = view.side
    if view.public.phase is Phase.SETUP:
        cell = (
            "none yet (send one by DM, e.g. `C4`)" if side.start_cell is None else side.start_cell
        )
        return f"Your starting cell: {cell}."
    if side.status is Status.ELIMINATED:
        sub = f"destroyed at {side.cell}"
    elif side.status is Status.LEFT:
        sub = "gone (you left)"
    else:
        sub = f"{side.cell}{', silent' if side.silent else ''}"
    mines = ", ".join(map(str, side.mines)) or "none"
    torpedoes = (
        ", ".join(f"{t.number} at {t.cell} heading {t.direction.value}" for t in side.torpedoes)
        or "none"
    )
    return (
        f"Your submarine: {sub}. Mines left to lay: {side.mines_left}; "
        f"your mines: {mines}; your torpedoes: {torpedoes}."
    )


def board_marks(public: PublicView, private: PrivateView | None) -> dict[Cell, str]:
    """The marks of the original's paper map: your ``s`` submarine, ``t`` torpedoes and
    ``m`` mines, a ``c`` where anything else was last heard or pinged, an ``x`` where
    something blew up. Your own things first, since you know where they are now."""
    marks: dict[Cell, str] = {}
    for blast in blasts(public):
        marks[blast.cell] = "x"
    own = None if private is None else private.viewer
    for heard in last_heard(public):
        if heard.unit.owner != own:
            marks[heard.cell] = "c"
    if private is not None:
        side = private.side
        for cell in side.mines:
            marks[cell] = "m"
        for torpedo in side.torpedoes:
            marks[torpedo.cell] = "t"
        if side.cell is not None and side.status is Status.ALIVE:
            marks[side.cell] = "s"
    return marks


def _grid(public: PublicView, private: PrivateView | None) -> str:
    """The board as text, row 1 at the bottom: in the original's ASCII style up to
    :data:`ASCII_LIMIT`, a compact grid beyond (it must still fit a message)."""
    marks = board_marks(public, private)
    size = public.size
    width = len(str(size))
    rows = reversed(range(size))
    if size <= ASCII_LIMIT:
        rule = " " * (width + 1) + "+---" * size + "+"
        lines = [rule]
        for row in rows:
            cells = "|".join(f" {marks.get(Cell(column, row), ' ')} " for column in range(size))
            lines += [f"{row + 1:>{width}} |{cells}|", rule]
        lines.append(" " * (width + 2) + "".join(f"{column_label(c):^4}" for c in range(size)))
        return "\n".join(line.rstrip() for line in lines)
    lines = [
        f"{row + 1:>{width}} "
        + " ".join(f"{marks.get(Cell(column, row), '.'):>2}" for column in range(size))
        for row in rows
    ]
    lines.append(" " * (width + 1) + " ".join(f"{column_label(c):>2}" for c in range(size)))
    return "\n".join(lines)


# ------------------------------------------------------------------ words

HELP_TEXT = f"""\
Sugar Dog ({TAG}): a submarine duel on a small secret grid, one action per turn.
Setup: `join`, then DM me your secret starting cell, e.g. `C4` (columns are letters from the left, rows numbers from the bottom).
On your turn, DM me one order:
  `silent` or `silent up`: stay or move one cell quietly (only "silent" is announced)
  `cruise up left`: move exactly two cells; a contact is announced in each cell entered
  `ping`: active sonar, everyone's position is announced, yours first
  `torpedo down`: fire from your cell; it runs 2 cells now and 2 at each of your turns
  `mine`: leave a mine in your cell (3 per submarine)
Directions: up, down, left, right (or u, d, l, r). If your time runs out you hold position silently.
Also: `log` (your own orders and what you learned), `board`, `status`, `rules`, `leave`."""

RULES_TEXT = """\
Sugar Dog rules, in short:
1. The grid is 6×6 for two captains and grows by 2 each way for every further captain. Columns are letters from the left, rows numbers from the bottom (C4); moves are orthogonal; the board does not wrap.
2. Each captain secretly DMs a starting cell in setup (two may share one); without one, a random cell is drawn at the start.
3. Turns go in join order, from the captain the host names; one action each: silent running (stay or move 1, announced only as "silent"), cruise (exactly 2 steps, a public contact in each cell entered), ping, torpedo (a direction) or mine (3 each). Time running out is a silent stay.
4. A torpedo runs 2 cells when fired and 2 more at the start of each of its owner's later turns; off the board it is lost. A torpedo entering a cell with anything in it is an impact; so is a cruising submarine entering a cell with a mine, a torpedo or a submarine that is not silent. Everything in that cell is destroyed, silent submarines too.
5. A silent submarine (from its silent running until its next action) never sets anything off: cruisers pass it and mines ignore it, torpedoes do not. A mine never hits its layer as it is laid.
6. A ping announces the pinger's position, then their mines and torpedoes, then everything else in the water, nearest first (distance in orthogonal steps; ties in cell order).
7. The last submarine afloat wins; submarines destroyed together as the last ones draw."""
