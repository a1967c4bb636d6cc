"""Sonar in words: reports of a turn, the text board, help and rules.

The public report says only public facts: where each charge fell and its mark (a hit,
a killer shot, or a miss with its distance), sunk subs with their owners, who is out,
whose subs left the board; never whose sub a charge merely hit. How the game ended is
the host's last sentence of every report (``Game.result``), so it is not repeated here. A private report
tells a player what happened to their own subs. The text board draws a view: the hex
rows from the top, each shifted half a cell from the next, every row starting at the
column where the drawn board starts it (§2), so it never shows more than the view holds.
The rules are ``shared/rules/sonar.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Event, PlayerId
from bot.games.sonar.board import Cell, row_label
from bot.games.sonar.state import Phase, ShotResult, Status
from bot.games.sonar.views import BoardView, OwnSubView, PrivateView, PublicView

HELP_TEXT = """\
Sonar (#sonar): fleets of submarines on a wrapping hex ocean; every sub sails one step \
forward every turn, and a miss tells the distance to the nearest sub.
Setup: `#sonar join` (2 to 4 captains). With placement=given, DM your fleet: \
`2 n19 r, 3 a3 ur` (length, bow cell, facing l r ul ur dl dr), or `random`.
On your turn (in public or by DM): `#sonar f11, a9 g24` (up to one charge per live sub; \
half on the very first turn) or `#sonar random`.
Cells: a row letter from the bottom (a) and a column number, e.g. f11.
Also: `board` (your board), `status`, `rules`, `leave`."""

RULES_TEXT = """\
Sonar rules, in short (Cameron Browne's game):
1. The ocean: n rows (a at the bottom) of 2n hexagons, wrapping on every side: leaving \
the top row upward enters the bottom row half a board further along. Up-right keeps \
the column number, up-left lowers it by one.
2. Fleets: subs of lengths 2, 3, 3, 4, 4, 4, 5, … (the first `ships`), straight lines \
facing one of six directions, placed so that no two subs ever meet. Every sub sails one \
step forward every turn, forever.
3. A turn: all subs move one step; then the player to move fires up to one depth charge \
per live sub (1 with one_shot; half, rounded up, on the game's very first turn), at \
distinct cells. A charge on any sub segment, your own included, is a hit (x); the hit \
that completes a sub sinks it (*X*) and it leaves the board. Any other charge misses \
and shows the distance to the nearest sub segment at that moment.
4. Hits stay visible and move with their subs (not with hide_hits). When your move \
time runs out, your charges go off at random (or, with on_timeout=skip, your turn is \
skipped). `leave` takes effect when the turn in progress ends; your subs leave the board.
5. The last captain with live subs wins; if the last subs of everyone go down in one \
turn, those captains draw."""


def _name(names: Mapping[PlayerId, str], player: object) -> str:
    return names.get(str(player), str(player))


def public_report(events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
    """A turn's events for everyone: public facts only."""
    lines: list[str] = []
    shots = [e for e in events if e.type == "shot"]
    if shots:
        marks = ", ".join(_shot_text(e) for e in shots)
        shooter = _name(names, shots[0].data["player"])
        if shots[0].data.get("random"):
            # The seed's asterisk: random charges never fall on the shooter's own subs.
            lines.append(f"{shooter} fired at random (*: never at {shooter}'s own subs): {marks}.")
        else:
            lines.append(f"{shooter} fired at {marks}.")
    for event in events:
        data = event.data
        if event.type == "sunk":
            lines.append(
                f"{_name(names, data['player'])}'s sub {data['sub']} "
                f"({len(data['cells'])} long) sank at {' '.join(data['cells'])}."
            )
        elif event.type == "eliminated":
            lines.append(f"{_name(names, data['player'])} has no subs left.")
        elif event.type == "left":
            # The host has said "NAME left the game" when the leave was asked for; this
            # says what it does to the board, when it takes effect.
            lines.append(f"{_name(names, data['player'])}'s subs have left the board.")
        # No sentence for "finished": the host closes every report with Game.result.
    return lines


def _shot_text(event: Event) -> str:
    data = event.data
    cell = f"{data['cell']}*" if data.get("random") else str(data["cell"])
    if data["result"] == "miss":
        return f"{cell} (miss, {data['distance']} away)"
    if data["result"] == "sunk":
        return f"{cell} (hit: sunk!)"
    return f"{cell} (hit!)"


def ending_text(winners: Sequence[PlayerId], draw: bool, names: Mapping[PlayerId, str]) -> str:
    """How a game ended, in a sentence."""
    who = " and ".join(_name(names, w) for w in winners)
    if not draw:
        return f"{who} wins: the last captain with subs afloat."
    if len(winners) == 1:
        # A draw of one: their last sub sank in the turn the last other captain left.
        return f"The game ends in a draw: no captain has a sub afloat ({who} was the last)."
    if who:
        return f"The game ends in a draw between {who}."
    return "The game ends in a draw."


def private_report(events: Sequence[Event], viewer: PlayerId) -> list[str]:
    """A turn's events for one player: what happened to their own subs."""
    lines: list[str] = []
    for event in events:
        data = event.data
        if event.type == "shot" and data.get("owner") == viewer and data["result"] == "hit":
            lines.append(f"Your sub {data['sub']} was hit at {data['cell']}.")
        elif event.type == "sunk" and data["player"] == viewer:
            lines.append(f"Your sub {data['sub']} sank at {' '.join(data['cells'])}.")
        elif event.type == "eliminated" and data["player"] == viewer:
            lines.append("You have no subs left: you are out, but you may watch to the end.")
    return lines


# --------------------------------------------------------------------- text board


def summary_text(view: PublicView | PrivateView) -> str:
    """What a view shows, in a few lines: the words beside a board picture (the board
    itself as text is :func:`board_text`)."""
    public = view.public if isinstance(view, PrivateView) else view
    names = {c.id: c.name for c in public.captains}
    lines = [f"#sonar {public.rows}×{public.cols}, {_phase_text(public, names)}"]
    if public.phase is Phase.FINISHED:
        lines.append(ending_text(public.winners, public.draw, names))
    captains = []
    for c in public.captains:
        if c.status is Status.ALIVE and public.phase is not Phase.SETUP:
            captains.append(f"{c.name} {c.subs_left} sub{'s' if c.subs_left != 1 else ''}")
        elif c.status is Status.ALIVE:
            captains.append(c.name)
        else:
            captains.append(f"{c.name} ({c.status.value})")
    lines.append(f"Captains: {', '.join(captains) or 'none yet'}.")
    for board in (public.previous, public.board):
        if board is not None and board.player is not None:
            lines.append(_turn_text(board, names))
    if public.board.sunk:
        sunk = ", ".join(
            f"{s.owner_name}'s sub {s.sub} at {' '.join(map(str, s.cells))}"
            for s in public.board.sunk
        )
        lines.append(f"Sunk: {sunk}.")
    if isinstance(view, PrivateView):
        own = []
        for sub in view.subs:
            text = f"{sub.id}: {sub.length} {' '.join(map(str, sub.cells))} {sub.facing.value}"
            if sub.sunk:
                text += " (sunk)"
            elif sub.hits:
                text += f" (hit at {' '.join(map(str, sub.hits))})"
            own.append(text)
        lines.append(f"Your subs: {'; '.join(own) or 'none yet'}.")
    return "\n".join(lines)


def board_text(view: PublicView | PrivateView) -> str:
    """The ocean as text, for where no picture can be shown: the board once, cut in bands
    of at most :data:`BAND_COLUMNS` cells, each under a header of its top row's columns,
    every row's letter and its first and last columns at its ends (rows are slanted); then
    the turn before
    in words, and the key. '' in setup."""
    public = view.public if isinstance(view, PrivateView) else view
    if public.phase is Phase.SETUP:
        return ""
    mine = view.subs if isinstance(view, PrivateView) else ()
    lines = [_grid(public.rows, public.cols, public.board, mine)]
    if isinstance(view, PrivateView) and public.previous and view.previous_subs is not None:
        # The original shows a player the board of the turn before below the current one;
        # in text its few facts are told, not drawn again (a second grid doubled a turn's
        # message on a text platform).
        lines.append(_turn_before(public.previous, view.previous_subs))
    lines.append(
        "Key: the numbers over a band are its top row's columns (each row below is slanted "
        "half a cell: its letter and the columns of its first and last cells are at its "
        "ends); . water, digits a miss's distance (+ over 9), x a hit, X a killer shot, "
        "# a sunk sub" + (", S your sub." if isinstance(view, PrivateView) else ".")
    )
    return "\n".join(lines)


def _turn_before(board: BoardView, subs: Sequence[OwnSubView]) -> str:
    """The previous turn's board of a player, in a line: their subs then, and its charges."""
    afloat = [f"{sub.id}: {' '.join(map(str, sub.cells))}" for sub in subs if not sub.sunk]
    charges = ", ".join(
        f"{s.cell} miss {s.distance}"
        if s.result is ShotResult.MISS
        else f"{s.cell} {'sunk' if s.result is ShotResult.SUNK else 'hit'}"
        for s in board.shots
    )
    return (
        f"The turn before (after turn {board.after}): your subs {'; '.join(afloat) or 'none'}"
        f"; charges {charges or 'none'}."
    )


def _phase_text(public: PublicView, names: Mapping[PlayerId, str]) -> str:
    if public.phase is Phase.SETUP:
        return "setup: join, and with placement=given send your fleet by DM"
    if public.phase is Phase.BATTLE:
        who = _name(names, public.to_move)
        charges = f"{public.shots_allowed} charge{'s' if public.shots_allowed != 1 else ''}"
        return f"turn {public.turn}: {who} to move ({charges})"
    return f"finished after turn {public.turn}"


def _turn_text(board: BoardView, names: Mapping[PlayerId, str]) -> str:
    who = _name(names, board.player)
    if board.shots:
        marks = ", ".join(
            f"{s.cell} miss {s.distance}"
            if s.result is ShotResult.MISS
            else f"{s.cell} {'sunk' if s.result is ShotResult.SUNK else 'hit'}"
            for s in board.shots
        )
        how = " (at random, time out)" if board.timed_out else ""
        return f"Turn {board.after} ({who}){how}: {marks}."
    if board.timed_out:
        return f"Turn {board.after} ({who}): time ran out, skipped."
    return f"Turn {board.after} ({who}): no charges."


BAND_COLUMNS = 16
"""The most cells a row shows in one band of the text board, as in the picture: a wider
board is cut into bands, one under the other, so that a line stays short."""


def band_places(cols: int) -> tuple[tuple[int, int], ...]:
    """The places (cells counted from each row's first) of each band, ``first`` to
    ``stop`` (exclusive): as few bands as :data:`BAND_COLUMNS` allows, as even as can be."""
    count = -(-cols // BAND_COLUMNS)
    base, extra = divmod(cols, count)
    bands, first = [], 0
    for index in range(count):
        stop = first + base + (1 if index < extra else 0)
        bands.append((first, stop))
        first = stop
    return tuple(bands)


def _grid(rows: int, cols: int, board: BoardView, own: Sequence[OwnSubView]) -> str:
    """A board from the top row down, 3 characters a cell, rows shifted alternately, in
    bands; each band under its top row's column numbers, each row's letter at both ends
    with the column of its first cell and of its last."""
    marks: dict[Cell, str] = {}
    for sunk in board.sunk:
        for cell in sunk.cells:
            marks[cell] = "#"
    for sub in own:
        if not sub.sunk:
            for cell in sub.cells:
                marks[cell] = "x" if cell in sub.hits else "S"
    for cell in board.hits:
        marks[cell] = "x"
    for shot in board.shots:
        if shot.result is ShotResult.MISS:
            distance = shot.distance or 0
            marks[shot.cell] = str(distance) if distance < 10 else "+"
        else:
            marks[shot.cell] = "X" if shot.result is ShotResult.SUNK else "x"
    bands = []
    for first, stop in band_places(cols):
        numbers = "".join(f"{(first + i) % cols + 1:>3}" for i in range(stop - first))
        lines = [f"{'':<4} {numbers}"]
        for row in range(rows - 1, -1, -1):
            start = (rows - 1 - row) // 2 + first
            shift = " " if (rows - 1 - row) % 2 == 0 else ""
            places = range(start, start + stop - first)
            cells = "".join(f"{marks.get(Cell(row, place % cols), '.'):>3}" for place in places)
            name = row_label(row)
            # "p  1" and "p 16", never "p16": a row's ends are its labels, not cells named
            left, right = start % cols + 1, (start + stop - first - 1) % cols + 1
            gap = "" if shift else " "
            lines.append(f"{name} {left:>2}{shift}{cells}{gap}  {name} {right:>2}")
        bands.append("\n".join(lines))
    return "\n\n".join(bands)
