"""U-Boat Shootout in words: reports, the text board, help and rules (``shared/rules/uboat.md``).

A round's public report says only what the rules make public (§4): every blast's
tile with its shooter and the boats hit with the damage, captures, routes as
directions ("Blue: up, up, left"; "Blue moved" under Fog), each ram's struck tile
and hits, sinkings and freed islands, crew joins and the result. It never names a
cell other than a blast's tile, a ram's struck tile or an island's cell. A crew's
private news (its cell, health, evasions, cancelled or withdrawn orders, Dry dock,
Sonar) travels in notices and in its own board. The text board is built from a
view alone, so it can show nothing the view does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Event, PlayerId
from bot.games.uboat.cells import LETTERS, Cell
from bot.games.uboat.state import Phase
from bot.games.uboat.values import Colour, Power, power_of
from bot.games.uboat.views import PrivateView, PublicView

GRID_LIMIT = 26


def _title(value: str) -> str:
    return Colour(value).title


def _hits_text(hits: Sequence[Mapping[str, Any]]) -> str:
    if not hits:
        return "no U-boat hit"
    return "hit " + ", ".join(f"{_title(hit['boat'])} ({hit['damage']} damage)" for hit in hits)


def public_lines(events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
    """Each public event in words (private ones are left out)."""
    lines: list[str] = []
    previous = ""
    for event in events:
        data = event.data
        kind, previous, after = event.type, event.type, previous
        if kind == "fire":
            lines.append(
                f"{_title(data['boat'])} fired at {data['cell']}: {_hits_text(data['hits'])}."
            )
        elif kind == "captured":
            taken = f" from {_title(data['from'])}" if data["from"] else ""
            lines.append(f"{_title(data['boat'])} captured island {data['island']}{taken}.")
        elif kind == "moved":
            if data["fog"]:
                lines.append(f"{_title(data['boat'])} moved.")
            else:
                lines.append(f"{_title(data['boat'])}: {', '.join(data['route'])}.")
        elif kind == "rammed":
            how = "" if data["fog"] else f" {', '.join(data['route'])}"
            lines.append(
                f"{_title(data['boat'])} rammed{how}, striking {data['struck']}: "
                f"{_hits_text(data['hits'])}."
            )
        elif kind == "destroyed":
            freed = list(data["freed"])
            free = ""
            if freed:
                numbers = " and ".join(map(str, freed))
                free = f" Island{'s' if len(freed) > 1 else ''} {numbers} {'are' if len(freed) > 1 else 'is'} free."
            # A boat its last crew member left (or was removed from) is out, not sunk.
            gone = "is out of the game: no one is left aboard" if after == "left" else "was sunk"
            lines.append(f"{_title(data['boat'])} {gone}.{free}")
        elif kind == "joined":
            name = names.get(data["player"], data["player"])
            default = "" if data["chosen"] else " (the crew with fewest members)"
            lines.append(f"{name} joined {_title(data['crew'])}'s crew{default}.")
        # "left" and "finished" are not told here: the host's own words say who left or
        # was removed, and it adds the game's result (``Game.result``) to the post.
    return lines


def _and(words: Sequence[str]) -> str:
    """``Red``, ``Red and Blue``, ``Red, Blue and Green``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def finished_text(data: Mapping[str, Any], names: Mapping[PlayerId, str]) -> str:
    winners = ", ".join(names.get(p, p) for p in data["winners"]) or "no one"
    boats = _and([_title(colour) for colour in data["boats"]])
    scores = ", ".join(f"{_title(c)} {total}" for c, total in data["scores"].items())
    tally = f" (islands: {scores})" if scores else ""
    if data["draw"]:
        between = f" between {boats}" if boats else ""
        return f"The game ends in a draw{between}: {winners}{tally}."
    return f"{boats} wins: {winners}{tally}.{_awards_text(data, names)}"


def _awards_text(data: Mapping[str, Any], names: Mapping[PlayerId, str]) -> str:
    """`` alice earns a mark of victory; dave is the First Duelist.`` (rules §6, Awards)."""
    said = []
    marks = [names.get(p, p) for p in data.get("marks", ())]
    if marks:
        said.append(f"{_and(marks)} earn{'s' if len(marks) == 1 else ''} a mark of victory")
    duelist = data.get("first_duelist")
    if duelist is not None:
        said.append(f"{names.get(duelist, duelist)} is the First Duelist")
    return f" {'; '.join(said)}." if said else ""


def private_lines(events: Sequence[Event], viewer: PlayerId) -> list[str]:
    """Nothing: a crew's news (its cell, hits, evasions, Sonar, Dry dock, a crew joined)
    reaches it as the resolution's notices, which the host puts in the same message."""
    return []


# --- the text board ---------------------------------------------------------------


def summary_text(view: PublicView | PrivateView) -> str:
    public = view.public if isinstance(view, PrivateView) else view
    private = view if isinstance(view, PrivateView) else None
    lines = [f"#uboat {public.size}x{public.size}, {_phase_text(public)}"]
    names = {p.id: p.name for p in public.players}
    if public.phase is Phase.FINISHED:
        winners = ", ".join(names.get(w, w) for w in public.winners) or "no one"
        lines.append(f"Draw: {winners}." if public.draw else f"Winners: {winners}.")
    if public.islands:
        lines.append(
            "Islands: " + "; ".join(_island_text(island) for island in public.islands) + "."
        )
    if public.boats:
        boats = []
        for boat in public.boats:
            crew = ", ".join(names.get(p, p) for p in boat.crew)
            state = "afloat" if boat.afloat else "sunk"
            window = ", may evade" if boat.evade_window else ""
            boats.append(f"{boat.colour.title} ({crew or 'no crew'}) {state}{window}")
        lines.append("U-boats: " + "; ".join(boats) + ".")
    else:
        joined = ", ".join(f"{p.name} ({p.colour.title})" for p in public.players if p.colour)
        lines.append(f"Joined: {joined or 'no one yet'}.")
    if public.last_round:
        facts = _last_round_lines(public)
        lines.append(f"Round {public.last_round}: " + (" ".join(facts) if facts else "all quiet."))
    if private is not None:
        lines += _private_lines(private)
    return "\n".join(lines)


def board_text(view: PublicView | PrivateView) -> str:
    """The sea as text, for where no picture can be shown ('' when too big)."""
    public = view.public if isinstance(view, PrivateView) else view
    if public.size > GRID_LIMIT:
        return ""
    private = view if isinstance(view, PrivateView) else None
    key = "Key: . water, 1-9 an island by number (# from 10), x a blast, * a ram's struck tile"
    if private is not None:
        key += ", @ your U-boat" + (", S your starting cell" if public.phase is Phase.SETUP else "")
    return _grid(public, private) + "\n" + key + "."


def _phase_text(public: PublicView) -> str:
    if public.phase is Phase.SETUP:
        return "setup: join, then send your starting cell by DM"
    if public.phase is Phase.BATTLE:
        window = " (evade window open)" if public.window_open else ""
        return f"round {public.round} of {public.rounds}{window}"
    return f"finished after round {public.round}"


def _island_text(island: Any) -> str:
    owner = f", {island.owner.title}'s" if island.owner else ""
    power = f" {island.power.label}" if island.power else ""
    return f"{island.number} at {island.cell}{power}{owner}"


def _last_round_lines(public: PublicView) -> list[str]:
    lines = []
    for blast in public.blasts:
        hits = ", ".join(f"{h.boat.title} -{h.damage}" for h in blast.hits) or "no hit"
        lines.append(f"{blast.shooter.title} fired at {blast.cell} ({hits}).")
    for capture in public.captures:
        lines.append(f"{capture.boat.title} captured island {capture.island}.")
    for course in public.courses:
        route = ", ".join(step.value for step in course.route) if not course.fog else ""
        if course.ram:
            hits = ", ".join(f"{h.boat.title} -{h.damage}" for h in course.hits) or "no hit"
            lines.append(
                f"{course.boat.title} rammed{' ' + route if route else ''}, struck {course.struck} ({hits})."
            )
        else:
            lines.append(
                f"{course.boat.title}: {route}." if route else f"{course.boat.title} moved."
            )
    for sinking in public.sinkings:
        lines.append(f"{sinking.boat.title} was sunk.")
    for join in public.joins:
        lines.append(f"{join.name} joined {join.crew.title}'s crew.")
    return lines


def _private_lines(view: PrivateView) -> list[str]:
    lines = []
    if view.public.phase is Phase.SETUP:
        start = (
            f"your starting cell: {view.start}"
            if view.start
            else "no starting cell yet (send `start E2`)"
        )
        lines.append(f"You: {start}.")
    boat = view.boat
    if boat is not None:
        islands = ", ".join(map(str, boat.islands)) or "none"
        lines.append(
            f"Your U-boat {boat.colour.title}: at {boat.cell}, health {boat.health}, "
            f"range {boat.range}, islands {islands}."
        )
        if view.public.phase is Phase.BATTLE:
            lines.append(f"Standing this round: {boat.standing or 'hold'}.")
            if boat.evade_window:
                lines.append(f"Evade window open: {boat.evasion or 'no evasion sent'}.")
        # (An evasion is told once, by the notice as the window closes; the board's cell
        # above already shows where it went.)
        if boat.sonar is not None:
            lines.append(
                f"Sonar: the nearest enemy U-boat was {boat.sonar} away as the round began."
            )
        if boat.cancelled:
            lines.append(f"Last round your {boat.cancelled} was cancelled by a hit.")
        if boat.healed is not None:
            lines.append(f"Last round the Dry dock repaired you to health {boat.healed}.")
    if view.adrift:
        choices = ", ".join(colour.value for colour in view.crew_choices)
        chosen = f" You chose {view.crew_choice.title}." if view.crew_choice else ""
        lines.append(f"You are adrift: send `crew COLOUR` ({choices}).{chosen}")
    return lines


def _grid(public: PublicView, private: PrivateView | None) -> str:
    """Islands by number (``#`` from 10), ``x`` blast tiles, ``*`` rams' struck tiles,
    ``@`` your U-boat (``S`` your starting cell in setup), ``.`` water."""
    marks: dict[Cell, str] = {}
    for blast in public.blasts:
        marks[blast.cell] = "x"
    for course in public.courses:
        if course.struck is not None:
            marks[course.struck] = "*"
    for island in public.islands:
        marks[island.cell] = str(island.number) if island.number < 10 else "#"
    if private is not None:
        if private.boat is not None:
            marks[private.boat.cell] = "@"
        elif private.start is not None and public.phase is Phase.SETUP:
            marks[private.start] = "S"
    size = public.size
    rows = ["   " + " ".join(LETTERS[:size])]
    for row in range(size):
        rows.append(
            f"{row + 1:>2} " + " ".join(marks.get(Cell(row, col), ".") for col in range(size))
        )
    return "\n".join(rows)


# --- help and rules ---------------------------------------------------------------


def powers_text() -> str:
    return "; ".join(f"{power.value} {power.label}: {power.effect}" for power in Power)


# What the host may post in public names no cell but an island's (rules §4): a boat may
# be sitting on any cell an example would name, so public words show patterns instead.
START_PATTERN = "`start <cell>` (a cell of water: its column letter, then its row number)"
ORDER_PATTERNS = "`fire <tile>`, `move up up left`, `ram right right` or `hold`"

HELP_TEXT = """\
U-Boat Shootout (#uboat): a live hunt for 2 to 6 U-boats on a wrapping sea with numbered islands.
Setup: `join` (public `#uboat join`), then your secret starting cell by DM: `start <cell>`.
Each round, one order by DM (a new one replaces the last; the captain's stands first):
  `fire <tile>` (a tile up to 3 away; -1 for each round in a row you fired)
  `move up up left` (1 to 3 steps, not through islands)
  `ram right right` (move, then strike the tile one further)
  `hold` (or `pass`)
Damaged last round? `evade down left` while the evade window is open: an unseen move.
Sunk? `crew blue` joins that crew at the round's end.
A cell is its column letter from the left, then its row number from the top. The sea wraps around."""


def rules_text() -> str:
    return f"""\
U-Boat Shootout rules, in short:
1. A wrapping square sea (default 9x9) with numbered islands (default 1@C3, 2@G3, 3@C7, 4@G7, 5@E5); \
islands block movement. Distance is Manhattan distance, wrapping. Each U-boat has 3 health.
2. Setup: each player sends a secret starting cell by DM (`start <cell>`, not an island); the host places \
anyone who sent none at random. 2 to 6 players; boats are Red, Blue, Green, Yellow, Purple, Orange.
3. Each round every crew sends one order by DM: fire at a tile within range (3, minus 1 for each round \
in a row it fired, never below 0), move up to 3 steps, ram (move, then strike one tile further), or hold.
4. At the round's end: all fire at once on the positions as the round began (a cross: 2 damage on the \
tile, 1 beside it; every boat in it is hit, your own too; a direct hit on an island captures it unless \
two boats hit it directly); boats hit by fire do not move; then all moves; then all rams move and strike \
(2 damage); boats at 0 health sink and free their islands.
5. A boat damaged in a round may make an invisible move (`evade`) in the next round's evade window.
6. Public: blasts and hits, captures, routes as directions (not cells), rams' struck tiles, sinkings. \
Your crew alone sees its cell and health.
7. A sunk boat's players join another crew (`crew blue`, or the crew with fewest members). The captain's \
order stands first, else the latest from the crew.
8. The last U-boat afloat wins; after the last round the highest island sum wins (ties: the largest \
island); boats sinking together draw.
Island powers (house; off with island_powers=none), for the owner as the round began: {powers_text()}."""


def island_list(state_islands: Sequence[Any], powers: bool) -> str:
    parts = []
    for island in state_islands:
        power = power_of(island.number) if powers else None
        parts.append(f"{island.number}@{island.cell}" + (f" ({power.label})" if power else ""))
    return ", ".join(parts) or "no islands"
