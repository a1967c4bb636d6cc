"""The words of Silent Ships: replies, questions, reports and the text board.

Public words name a ship only once it is, or has been, face-up or in a sunk
pile — never a face-down unit's ship, a card in a hand, a discard or a deck —
so the public report reads only the events that reveal a ship (``revealed``,
``sunk``, ``hidden``, ``swapped``) for names, and says "a unit" everywhere else.
Private words tell a player their own cards. See ``shared/rules/silentships.md`` §6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Event, Notice, PlayerId
from bot.games.duration import format_duration
from bot.games.silentships import attacks
from bot.games.silentships.actions import hand_text
from bot.games.silentships.cells import ALL_CELLS, COLUMN_LETTERS, ISLANDS, ROWS, Cell
from bot.games.silentships.changes import Log
from bot.games.silentships.options import FirstPlayer
from bot.games.silentships.orders import Go, Move, OfferDraw, Order, Play, describe_order
from bot.games.silentships.ships import CARDS, Ship
from bot.games.silentships.state import (
    INVADED,
    Phase,
    Reason,
    Side,
    SilentShipsState,
    Status,
    TurnStep,
)

MAX_CHOICES = 25
"""Platforms offer at most this many buttons or menu entries."""

CODES: dict[Ship, str] = {
    Ship.SPEED_BOAT: "SP",
    Ship.SALVAGE_SHIP: "SA",
    Ship.SPECIAL_OPERATIONS_CRAFT: "SO",
    Ship.FIRE_SHIP: "FI",
    Ship.FLAG_SHIP: "FL",
    Ship.FRIGATE: "FR",
    Ship.SUBMARINE: "SU",
    Ship.RAMMING_SHIP: "RA",
    Ship.PATROL_SHIP: "PA",
    Ship.MISSILE_BOAT: "MI",
    Ship.AMMUNITION_SHIP: "AM",
}

HINT = (
    "In your turn, by DM: `play SHIP at CELL` (face-down on your country or beside it), "
    "`move CELL to CELL discard SHIP` (onto an enemy unit: an attack), then "
    "`#silentships end`."
)

HELP = """Silent Ships: two admirals, a 5 × 4 board, ships played face-down.
In your turn (orders by DM unless marked public):
  play SHIP at CELL — from your hand, face-down on your country or beside it
  move CELL to CELL discard SHIP — one square (one ship goes farther); onto an enemy: attack
  swap CELL with SHIP — one ship's ability: bring back a sunk ship
  end (public or DM) — ends your turn
During an attack:
  attacker: support from CELL discard SHIP, then go
  defender: pass, retreat discard SHIP, or support from CELL discard SHIP
  attacker: retreat to CELL (when the target may retreat to several squares)
Any time: reveal CELL, offer stop (the ships sunk decide: the second player wins ties), \
accept.
SHIP is a ship's card name or its short word (the rules list them); CELL is A1 to E4."""

RULES = (
    """Silent Ships (Jorge Zhang, 2021), as this host plays it.
Board: A–E × 1–4. The first player's country is C1 (ships played on B1, C1, D1), the
other's C4 (B4, C4, D4). Islands: A2 and E3. One unit per square; adjacency is orthogonal.
Deck: one of each of 11 ships. Draw 3; each turn draw 2 (3 with a unit on an island).
Turn: any number of plays and moves (each move discards a card of your choice).
Attack: move onto an enemy unit. The attacker adds supports (units next to the target,
a card each), then the defender retreats (a card; the attacker moves in, no battle) or
adds supports. All fighters turn face-up; totals compare; the defence wins ties. A beaten
target is sunk into the attacker's pile and the attacker moves in.
You lose if you end your turn with an enemy unit on your country, or your Flag Ship sinks.
An agreed stop (offer stop / accept) or max_turns: more ships sunk wins; ties go to the
second player.
Ships (attack; ability, only while face-up; * house values):
"""
    # From the card table, so that the printed cards replace the house values in one place.
    + "\n".join(
        f"  {card.name} {card.attack}{'*' if card.house else ''}: {card.ability}"
        for card in CARDS.values()
    )
)

REASONS = {
    Reason.COUNTRY: "{loser} ended a turn with an enemy unit on their country",
    Reason.FLAG_SHIP: "{loser}'s Flag Ship was sunk",
    Reason.AGREED: "both agreed to stop, and the ships sunk decide",
    Reason.MAX_TURNS: "the last turn is over, and the ships sunk decide",
    Reason.LEFT: "{loser} left the game",
    Reason.ENDED: "the host ended the game, and the ships sunk decide",
}


# ---------------------------------------------------------------- small words


def ship_name(value: Any) -> str:
    return Ship(value).card.name


def with_article(name: str) -> str:
    """``a Frigate``, ``an Ammunition Ship``."""
    return f"an {name}" if name[:1] in "AEIOU" else f"a {name}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _name(names: Mapping[PlayerId, str], player: Any) -> str:
    return names.get(player, str(player))


def _other(names: Mapping[PlayerId, str], player: Any) -> str:
    others = [name for pid, name in names.items() if pid != player]
    return others[0] if len(others) == 1 else "the opponent"


# ---------------------------------------------------------------- game words


def opening(state: SilentShipsState) -> str:
    options = state.options
    first = (
        "a coin toss decides who moves first"
        if options.first is FirstPlayer.COIN
        else "the first to join moves first"
    )
    decks = (
        ""
        if options.deck1 is None and options.deck2 is None
        else " Decks are set in advance (a puzzle or a test)."
    )
    return (
        "is open: a duel of two admirals on a 5 × 4 board, islands on A2 and E3. "
        f"Turns of {format_duration(options.move_time)}, answers to attacks within "
        f"{format_duration(options.response_time)}, {options.max_turns} turns at most; "
        f"{first}.{decks} Send `#silentships join` to join."
    )


def welcome(state: SilentShipsState, player: PlayerId, number: int) -> str:
    name = state.admiral(player).name if state.has(player) else player
    count = len(state.admirals)
    then = (
        "both admirals are here: the host may start" if count == 2 else "one more admiral is needed"
    )
    return f"{name} joined game {number} ({count} of 2 admirals): {then}."


def beginning(state: SilentShipsState, names: Mapping[PlayerId, str]) -> str:
    if state.first is None or state.second is None:
        return "the battle begins!"
    first, second = _name(names, state.first), _name(names, state.second)
    return (
        f"the battle begins! {first} (country C1) moves first against {second} (country C4). "
        "Each admiral holds 3 cards and plays ships face-down by DM."
    )


def result(state: SilentShipsState, names: Mapping[PlayerId, str]) -> str:
    if state.phase is not Phase.FINISHED or not state.winners or state.reason is None:
        return ""
    winner = state.winners[0]
    loser = state.opponent(winner)
    why = REASONS[state.reason].format(loser=_name(names, loser))
    sank = ", ".join(
        f"{_name(names, admiral.id)} {len(admiral.sank)}" for admiral in state.admirals
    )
    return f"{_name(names, winner)} wins: {why} (ships sunk: {sank})."


def attack_waits_for(state: SilentShipsState) -> str:
    """What the turn waits for, in public words (refusals quote it)."""
    attack = state.attack
    if attack is None or state.step is None:
        return "no attack is in progress"
    attacker = state.admiral(attack.attacker).name
    defender = state.admiral(attack.defender).name
    if state.step is TurnStep.SUPPORTS:
        return f"{attacker} is adding supports to the attack on {attack.target}, then `go`"
    if state.step is TurnStep.RESPONSE:
        return f"{defender} is answering the attack on {attack.target}"
    return f"{attacker} is choosing where the target on {attack.target} retreats"


def reminder(state: SilentShipsState, left: str) -> str:
    attack = state.attack
    if state.step is TurnStep.RESPONSE and attack is not None:
        return (
            f"your answer to the attack on {attack.target} is due in {left}: `pass`, "
            "`retreat discard SHIP` or `support from CELL discard SHIP`, by DM"
        )
    if state.step is TurnStep.RETREAT and attack is not None:
        squares = " or ".join(f"`retreat to {cell}`" for cell in attack.retreat_squares)
        return f"choose where the target retreats within {left}: {squares}"
    if state.step is TurnStep.SUPPORTS:
        return f"your attack waits: add supports or send `go` within {left}"
    return f"your turn {state.turn} ends in {left}: play, move, then `end`"


def defender_choices(state: SilentShipsState) -> tuple[str, ...]:
    """The defender's possible answers, as texts they may type (at most MAX_CHOICES)."""
    attack = attacks.current(state)
    hand = state.admiral(attack.defender).hand
    choices = ["pass"]
    if not attack.sides(Side.DEFENCE) and attacks.retreat_squares(state):
        choices += [f"retreat discard {ship.card.short}" for ship in hand]
    for unit in state.units_of(attack.defender):
        if not attacks.can_support(state, unit):
            continue
        if attacks.free_support(unit):
            choices.append(f"support from {unit.cell}")
        else:
            choices += [f"support from {unit.cell} discard {ship.card.short}" for ship in hand]
    return tuple(choices[:MAX_CHOICES])


def question(state: SilentShipsState) -> Notice:
    """The defender's question (step ``response``), by DM, with the answers as choices."""
    attack = attacks.current(state)
    attacker = state.admiral(attack.attacker).name
    added = len(attack.sides(Side.ATTACK))
    mine = len(attack.sides(Side.DEFENCE))
    squares = attacks.retreat_squares(state)
    retreat = (
        f" `retreat discard SHIP` (to {', '.join(map(str, squares))}),"
        if squares and not mine
        else ""
    )
    return Notice(
        f"{attacker} attacks your unit on {attack.target} from {attack.origin} with "
        f"{plural(added, 'support')} (you have {plural(mine, 'support')}). Answer by DM within "
        f"{format_duration(state.options.response_time)}: `pass`,{retreat} or "
        "`support from CELL discard SHIP`. No answer: no retreat and no more supports.",
        to=attack.defender,
        choices=defender_choices(state),
    )


def answer_awaited(state: SilentShipsState) -> Notice:
    """The public word that the defender is answering (nothing of the cards)."""
    attack = attacks.current(state)
    added = len(attack.sides(Side.ATTACK))
    return Notice(
        f"{state.admiral(attack.attacker).name} attacks {state.admiral(attack.defender).name}'s "
        f"unit on {attack.target} from {attack.origin} with {plural(added, 'support')}: "
        f"{state.admiral(attack.defender).name} answers within "
        f"{format_duration(state.options.response_time)}."
    )


def stop_terms(state: SilentShipsState, offered_by: PlayerId) -> str:
    """What accepting a stop now gives (rules §5: more ships sunk wins, the second
    player wins ties), e.g. ``if bob accepts, bob wins: 0–0, ties go to the second player``."""
    first, second = state.seats
    counts = {seat: len(state.admiral(seat).sank) for seat in (first, second)}
    winner = first if counts[first] > counts[second] else second
    loser = state.opponent(winner)
    accepter = state.admiral(state.opponent(offered_by)).name
    terms = f"if {accepter} accepts, {state.admiral(winner).name} wins: {counts[winner]}–{counts[loser]}"
    if counts[first] == counts[second]:
        return f"{terms}, ties go to the second player"
    return f"{terms} in ships sunk"


def offer_made(state: SilentShipsState, player: PlayerId) -> Notice:
    other = state.admiral(state.opponent(player)).name
    return Notice(
        f"{state.admiral(player).name} offers to stop here, the ships sunk decide "
        f"({stop_terms(state, player)}): {other} may `accept` until the end of this turn."
    )


def retreat_question(state: SilentShipsState) -> Notice:
    attack = attacks.current(state)
    squares = attack.retreat_squares
    return Notice(
        f"{state.admiral(attack.defender).name} retreats from {attack.target}: choose the "
        f"square, {' or '.join(f'`retreat to {cell}`' for cell in squares)}.",
        to=attack.attacker,
        choices=tuple(f"retreat to {cell}" for cell in squares),
    )


def acknowledgement(
    state: SilentShipsState, player: PlayerId, order: Order, log: Log, held: Sequence[str] = ()
) -> str:
    """The sender's reply to an order that acted at once, after the orders ``held`` since
    their last answer (see bot.games.silentships.acknowledgements)."""
    lines = [f"Done: {'; '.join((*held, describe_order(order)))}."]
    attack = state.attack
    if isinstance(order, Move) and state.step is TurnStep.SUPPORTS and attack is not None:
        lines.append(
            f"You attack {attack.target}: add supports (`support from CELL discard SHIP`) "
            "or send `go`."
        )
    elif isinstance(order, Go) and attack is not None:
        lines.append(f"{state.admiral(attack.defender).name} answers now; your clock is stopped.")
    elif isinstance(order, OfferDraw):
        lines.append(f"The offer stands until the end of this turn: {stop_terms(state, player)}.")
    spent = isinstance(order, Play | Move) or any(e.type == "support" for e in log.events)
    if spent and state.has(player):
        lines.append(f"Your hand: {hand_text(state.admiral(player).hand)}.")
    return " ".join(lines)


# ---------------------------------------------------------------- reports


def public_report(events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
    """The events in words for everyone: ships named only when they are public."""
    lines = []
    for event in events:
        data = event.data
        who = _name(names, data.get("player"))
        kind = event.type
        if kind == "drew":
            count = len(data["cards"])
            lines.append(
                f"{who} draws {plural(count, 'card')}."
                if count
                else f"{who} draws nothing: deck and discards are empty."
            )
        elif kind == "reshuffled":
            lines.append(f"{who} shuffles their discards into a new deck of {len(data['deck'])}.")
        elif kind == "played":
            lines.append(f"{who} plays a ship face-down on {data['cell']}.")
        elif kind == "moved":
            lines.append(f"{who}'s unit moves from {data['from']} to {data['to']}.")
        elif kind == "attack":
            lines.append(
                f"{who} attacks {_other(names, data['player'])}'s unit on {data['to']} "
                f"from {data['from']}!"
            )
        elif kind == "support":
            lines.append(f"{who} supports the {data['side']} from {data['cell']}.")
        elif kind == "retreated":
            lines.append(f"{who}'s unit retreats from {data['from']} to {data['to']}.")
        elif kind == "revealed":
            lines.append(
                f"{who}'s unit on {data['cell']} is {with_article(ship_name(data['ship']))}."
            )
        elif kind == "combat":
            lines.append(
                f"Combat: {_name(names, data['attacker'])} {data['attack']} against "
                f"{_name(names, data['defender'])} {data['defence']}: the {data['winner']} wins."
            )
        elif kind == "sunk":
            lines.append(
                f"{who}'s {ship_name(data['ship'])} on {data['cell']} is sunk by "
                f"{_name(names, data['by'])}."
            )
        elif kind == "hidden":
            lines.append(
                f"{who}'s {ship_name(data['ship'])} on {data['cell']} dives: face-down again."
            )
        elif kind == "swapped":
            lines.append(
                f"{who}'s Special Operations Craft on {data['cell']} swaps with the "
                f"{ship_name(data['ship'])}, back from the sunk ships (face-down)."
            )
        elif kind == INVADED:
            lines.append(
                f"{_name(names, data['by'])}'s unit is on {who}'s country {data['cell']}: "
                f"{who} must dislodge it this turn or lose."
            )
        # ``finished`` is not said here: the host closes every final post with
        # Game.result, and saying it twice would post the winner twice.
    return lines


def private_report(events: Sequence[Event], viewer: PlayerId) -> list[str]:
    """The events in words for one admiral: their own cards by name, the rest as in public."""
    lines = []
    for event in events:
        data = event.data
        kind = event.type
        if data.get("player") != viewer or kind not in _OWN_WORDS:
            lines += _as_seen_by(event, viewer)
            continue
        words = dict(data)
        if kind == "drew":
            words["cards"] = ", ".join(ship_name(value) for value in data["cards"]) or "nothing"
        if "ship" in data:
            words["ship"] = ship_name(data["ship"])
        if kind == "reshuffled":
            words["deck"] = len(data["deck"])
        lines.append(
            _OWN_WORDS[kind].format(**{k.replace("from", "origin"): v for k, v in words.items()})
        )
    return lines


_OWN_WORDS = {
    "drew": "You draw {cards}.",
    "reshuffled": "Your discards become your new deck ({deck} cards).",
    "played": "You play your {ship} face-down on {cell}.",
    "moved": "Your {ship} moves from {origin} to {to}.",
    "attack": "Your {ship} attacks {to} from {origin}.",
    "support": "Your {ship} on {cell} supports the {side}.",
    "retreated": "Your {ship} retreats from {origin} to {to}.",
    "revealed": "Your {ship} on {cell} is face-up.",
    "sunk": "Your {ship} on {cell} is sunk.",
    "hidden": "Your {ship} on {cell} dives: face-down again.",
    "swapped": "Your {ship} is back on {cell}, face-down, in place of your Special Operations Craft.",
}


def _as_seen_by(event: Event, viewer: PlayerId) -> list[str]:
    """An event that is not the viewer's own, in public words with "you" for the viewer."""
    data = event.data
    if event.type == "combat":
        side = "attack" if data["attacker"] == viewer else "defence"
        outcome = "win" if data["winner"] == side else "lose"
        return [
            f"Combat: attack {data['attack']} against defence {data['defence']}: you {outcome}."
        ]
    if event.type == "finished":
        return ["You win!" if viewer in data["winners"] else "You lose."]
    if event.type == "attack":
        return [f"Your opponent attacks your unit on {data['to']} from {data['from']}!"]
    if event.type == INVADED:
        return []  # the board's summary beside it says so, with names
    if event.type == "sunk" and data.get("by") == viewer:
        return [f"You sink your opponent's {ship_name(data['ship'])} on {data['cell']}."]
    names = {viewer: "you", str(data.get("player")): "Your opponent"}
    return public_report([event], names)


# ---------------------------------------------------------------- the text board


def _token(state: SilentShipsState, cell: Cell, viewer: PlayerId | None) -> str:
    unit = state.unit_at(cell)
    if unit is None:
        if cell in ISLANDS:
            return "~"
        if state.first is not None and cell in (state.country(p) for p in state.seats):
            return "*"
        return "."
    side = "1" if unit.owner == state.first else "2"
    if unit.face_up:
        return side + CODES[unit.ship]
    if unit.owner == viewer:
        return side + CODES[unit.ship].lower()
    return side + "?"


def _who_acts(state: SilentShipsState) -> str:
    """Who the game waits for, in the text board's first line."""
    attack = state.attack
    mover = state.to_move
    assert mover is not None
    if state.step is TurnStep.RESPONSE and attack is not None:
        return f"{state.admiral(attack.defender).name} to answer the attack on {attack.target}"
    if state.step is TurnStep.RETREAT and attack is not None:
        return f"{state.admiral(mover).name} to choose where the target retreats"
    if state.step is TurnStep.SUPPORTS:
        return f"{state.admiral(mover).name} to add supports, then `go`"
    return f"{state.admiral(mover).name} to play"


def board(state: SilentShipsState, viewer: PlayerId | None) -> str:
    """The sea as text, for where no picture can be shown: the column letters, the rows
    and the key ('' in setup)."""
    if state.phase is Phase.SETUP:
        return ""
    lines = ["    " + "".join(f"{letter:<5}" for letter in COLUMN_LETTERS).rstrip()]
    for row in range(ROWS):
        tokens = [_token(state, cell, viewer) for cell in ALL_CELLS if cell.row == row]
        lines.append(f"{row + 1:<4}" + "".join(f"{token:<5}" for token in tokens).rstrip())
    codes = sorted(
        {unit.ship for unit in state.units if unit.face_up or unit.owner == viewer},
        key=lambda ship: ship.order,
    )
    legend = "Key: ? face-down, ~ island, * country"
    if codes:
        legend += "; " + ", ".join(f"{CODES[ship]} {ship.card.name}" for ship in codes)
    if viewer is not None and any(u.owner == viewer and not u.face_up for u in state.units):
        legend += " (lower case: yours, face-down)"
    lines.append(legend)
    return "\n".join(lines)


def _invasion(state: SilentShipsState, player: PlayerId, viewer: PlayerId | None) -> str:
    """``lars's unit is on your country C1: dislodge it this turn or you lose.``"""
    invader = state.invader(player)
    assert invader is not None
    by = state.admiral(invader.owner).name
    when = "this turn" if state.to_move == player else "in your next turn"
    if viewer == player:
        return f"{by}'s unit is on your country {invader.cell}: dislodge it {when} or you lose."
    name = state.admiral(player).name
    when = "this turn" if state.to_move == player else "in their next turn"
    return f"{by}'s unit is on {name}'s country {invader.cell}: {name} must dislodge it {when} or lose."


def end_warning(state: SilentShipsState, player: PlayerId) -> str:
    """What ``end`` answers, once a turn, when ending the turn now loses (rules §5)."""
    invader = state.invader(player)
    assert invader is not None
    by = state.admiral(invader.owner).name
    return (
        f"{by}'s unit is on your country {invader.cell}: if you end your turn now, you lose "
        f"(rules §5). Dislodge it first (move a unit onto {invader.cell} to attack it), or send "
        "`end` again to end your turn and lose."
    )


def status_word(state: SilentShipsState, player: PlayerId) -> str:
    """An admiral's status as players read it: the loser of a stop (agreed, the host's
    ``end``, the last turn) lost on the count of ships sunk and was never eliminated,
    whatever the record's ``status`` says."""
    status = state.admiral(player).status
    if status is Status.ELIMINATED and state.reason not in (Reason.COUNTRY, Reason.FLAG_SHIP):
        return "lost at the stop"
    return status.value


def summary(state: SilentShipsState, viewer: PlayerId | None) -> str:
    """Public facts in a few lines, plus the viewer's own cards (the board itself as
    text is :func:`board`)."""
    if state.phase is Phase.SETUP:
        joined = ", ".join(admiral.name for admiral in state.admirals) or "nobody yet"
        return f"Silent Ships, setup: {joined} joined ({len(state.admirals)} of 2)."
    head = f"Silent Ships · turn {state.turn} of {state.options.max_turns}"
    if state.phase is Phase.BATTLE and state.to_move is not None and state.step is not None:
        head += f" · {_who_acts(state)}"
    elif state.phase is Phase.FINISHED:
        head += " · finished"
    lines = [head]
    for number, player in enumerate(state.seats, start=1):
        admiral = state.admiral(player)
        sank = ", ".join(ship.card.name for ship in admiral.sank) or "none"
        lines.append(
            f"{number} = {admiral.name} ({state.country(player)}, {status_word(state, player)}): "
            f"hand {len(admiral.hand)}, deck {len(admiral.deck)}, "
            f"discards {len(admiral.discards)}; sank: {sank}"
        )
    if state.attack is not None:
        attack = state.attack
        supports = ", ".join(f"{s.cell} ({s.side.value})" for s in attack.supports) or "none"
        lines.append(
            f"Attack: {state.admiral(attack.attacker).name} from {attack.origin} on "
            f"{attack.target}; supports: {supports}; {attack_waits_for(state)}."
        )
    if state.phase is Phase.BATTLE:
        lines += [
            _invasion(state, player, viewer) for player in state.seats if state.invader(player)
        ]
    if state.offer is not None:
        lines.append(
            f"{state.admiral(state.offer).name} offers to stop "
            f"({stop_terms(state, state.offer)}; `accept`)."
        )
    if state.phase is Phase.FINISHED:
        names = {admiral.id: admiral.name for admiral in state.admirals}
        lines.append(result(state, names))
    if viewer is not None and state.has(viewer):
        admiral = state.admiral(viewer)
        lines.append(f"Your hand: {', '.join(s.card.name for s in admiral.hand) or 'empty'}.")
        if admiral.discards:
            lines.append(f"Your discards: {', '.join(s.card.name for s in admiral.discards)}.")
    return "\n".join(lines)
