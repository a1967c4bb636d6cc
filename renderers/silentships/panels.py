"""The words and small cards around the Silent Ships board: the header (whose turn, the
deadline), the panel of each admiral (cards in hand, deck and discards as counts, the ships
they sank as cards), the attack in progress and the turn's last combat with every fighter's
value and the totals (rules §4 step 4), all from the public view.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.silentships.ships import Ship
from bot.games.silentships.state import Phase, Reason, Side, Status, TurnStep
from bot.games.silentships.views import AdmiralView, CombatView, PublicView
from renderers import header, marks, style
from renderers.avatars import generated_avatar, round_avatar
from renderers.silentships import cards
from renderers.silentships.board import ATTACK, DEFENCE, colour_of
from renderers.style import RGB

PAD = 20
TITLE_SIZE = 30
LINE_SIZE = 22
SMALL_SIZE = 18
HEADER_HEIGHT = 100

REASONS = {
    Reason.COUNTRY: "{loser} ended a turn with an enemy on their country",
    Reason.FLAG_SHIP: "{loser}'s Flag Ship was sunk",
    Reason.AGREED: "both agreed to stop: most ships sunk",
    Reason.MAX_TURNS: "the last turn is over: most ships sunk",
    Reason.LEFT: "{loser} left the game",
    Reason.ENDED: "the host ended the game: most ships sunk",
}


def names_of(view: PublicView) -> dict[str, str]:
    return {admiral.id: admiral.name for admiral in view.admirals}


def status_line(view: PublicView) -> str:
    """Whose move it is, or how the game ended, in a few words."""
    names = names_of(view)
    if view.phase is Phase.SETUP:
        return f"Setup: {len(view.admirals)} of 2 admirals joined"
    if view.phase is Phase.FINISHED:
        return result_line(view)
    mover = names.get(view.to_move or "", "?")
    head = f"Turn {view.turn} of {view.max_turns}"
    attack = view.attack
    if view.step is TurnStep.RESPONSE and attack is not None:
        return f"{head} · {names.get(attack.defender, '?')} answers the attack on {attack.target}"
    if view.step is TurnStep.RETREAT and attack is not None:
        return f"{head} · {mover} chooses where the target retreats"
    if view.step is TurnStep.SUPPORTS and attack is not None:
        return f"{head} · {mover} attacks {attack.target}: supports, then go"
    return f"{head} · {mover} to play"


def result_line(view: PublicView) -> str:
    names = names_of(view)
    if not view.winners:
        return "The game is over"
    winner = names.get(view.winners[0], "?")
    losers = [a.name for a in view.admirals if a.id not in view.winners]
    why = "" if view.reason is None else REASONS[view.reason].format(loser=", ".join(losers))
    return f"{winner} wins: {why}" if why else f"{winner} wins"


def draw_header(
    image: Image.Image,
    *,
    title: str,
    line: str,
    deadline: datetime | None,
    now: datetime | None,
) -> None:
    width = image.width
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, HEADER_HEIGHT - 12), fill=style.PANEL)
    when = style.deadline_text(deadline, now)
    right = "" if when is None else when.replace("Next deadline ", "closes ")
    right_width = style.text_width(right, SMALL_SIZE) if right else 0
    header.draw_title(
        image,
        (PAD, 14),
        title,
        size=TITLE_SIZE,
        max_width=width - 2 * PAD - right_width - 16,
    )
    if right:
        style.draw_text(
            image,
            (width - PAD, 22),
            right,
            size=SMALL_SIZE,
            fill=style.HIT_LIGHT,
            background=style.PANEL,
            anchor="ra",
        )
    style.draw_text(
        image,
        (PAD, 54),
        style.fit_text(line, LINE_SIZE, width - 2 * PAD),
        size=LINE_SIZE,
        fill=style.TEXT_DIM,
        background=style.PANEL,
    )


def _text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """Text on a panel (drawn from a cached patch: the same words come back in every
    picture of a game)."""
    style.draw_text(
        image,
        xy,
        text,
        size=size,
        fill=fill,
        background=style.PANEL,
        anchor=anchor,
        stroke_width=1 if bold else 0,
        stroke_fill=fill if bold else None,
    )


# --- the admirals --------------------------------------------------------------------

ADMIRAL_HEIGHT = 204
AVATAR = 52
MINI = (54, 62)


def _avatar(admiral: AdmiralView, avatars: Mapping[str, Image.Image]) -> Image.Image:
    picture = avatars.get(admiral.id)
    if picture is None:
        return _generated(admiral.id, admiral.name)
    return round_avatar(picture, AVATAR)


@functools.lru_cache(maxsize=64)
def _generated(player: str, name: str) -> Image.Image:
    """The stand-in avatar of a player with none (shared; only composited)."""
    return generated_avatar(player, name, AVATAR)


def _status(view: PublicView, admiral: AdmiralView) -> str:
    if admiral.id in view.winners:
        return "wins"
    if admiral.status is Status.LEFT:
        return "left"
    if admiral.status is Status.ELIMINATED:
        return "lost"
    if view.offer == admiral.id:
        return "offers to stop"
    if view.to_move == admiral.id:
        return "to play"
    return ""


def draw_admiral(
    image: Image.Image,
    box: tuple[int, int, int, int],
    view: PublicView,
    admiral: AdmiralView,
    *,
    avatars: Mapping[str, Image.Image],
    hand: Sequence[Ship] | None = None,
) -> None:
    """One admiral's panel: avatar, name, country; hand, deck and discards; ships sunk.
    ``hand`` (their own picture, or the replay): the cards themselves, small."""
    x0, y0, x1, _ = box
    colour = colour_of(admiral.id)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box, radius=12, fill=style.PANEL, outline=colour, width=3)
    marks.composite(image, _avatar(admiral, avatars), (x0 + 12, y0 + 12))
    name_x = x0 + 12 + AVATAR + 12
    status = _status(view, admiral)
    status_width = style.text_width(status, SMALL_SIZE) + 8 if status else 0
    name = style.fit_text(admiral.name, LINE_SIZE + 2, x1 - name_x - 12 - status_width)
    _text(image, (name_x, y0 + 12), name, LINE_SIZE + 2, style.TEXT)
    if status:
        tone = style.HIT_LIGHT if status in ("wins", "to play", "offers to stop") else style.HIT
        _text(image, (x1 - 12, y0 + 16), status, SMALL_SIZE, tone, anchor="ra")
    seat = "moves first" if admiral.moves_first else "moves second"
    where = f"country {admiral.country} · {seat}" if admiral.country else "joined"
    where = style.fit_text(where, SMALL_SIZE, x1 - name_x - 12)
    _text(image, (name_x, y0 + 44), where, SMALL_SIZE, colour)
    counts = (
        f"hand {admiral.hand_size} · deck {admiral.deck_size} · discards {admiral.discard_count}"
    )
    counts = style.fit_text(counts, SMALL_SIZE, x1 - x0 - 24)
    _text(image, (x0 + 12, y0 + 76), counts, SMALL_SIZE, style.TEXT)
    # The hand: backs (everyone sees how many), or the cards to their owner.
    row_y = y0 + 104
    shown: Sequence[Ship | None] = list(hand) if hand is not None else [None] * admiral.hand_size
    _mini_row(image, x0 + 12, row_y, x1 - 12, shown, colour, len(admiral.sank))
    sank_y = row_y + MINI[1] + 6
    label = "sank:" if admiral.sank else "sank: none"
    _text(image, (x0 + 12, sank_y + 2), label, SMALL_SIZE, style.TEXT_DIM)
    if admiral.sank:
        left = x0 + 12 + style.text_width("sank: ", SMALL_SIZE)
        # The other admiral's ships, in their colour.
        other = next((a.id for a in view.admirals if a.id != admiral.id), admiral.id)
        _mini_names(image, left, sank_y, x1 - 12, admiral.sank, colour_of(other))


def _mini_row(
    image: Image.Image,
    x: int,
    y: int,
    right: int,
    ships: Sequence[Ship | None],
    colour: RGB,
    owner_sank: int,
) -> None:
    """Small cards side by side, overlapping when there are many; each with its attack
    now (``owner_sank``: the ships their owner has sunk, for a Salvage Ship)."""
    if not ships:
        _text(
            image,
            (x, y + MINI[1] // 2),
            "no cards in hand",
            SMALL_SIZE,
            style.TEXT_DIM,
            anchor="lm",
        )
        return
    width, height = MINI
    room = right - x
    step = min(width + 6, (room - width) // max(1, len(ships) - 1)) if len(ships) > 1 else width
    for i, ship in enumerate(ships):
        attack = None if ship is None else ship.card.attack_now(owner_sank)
        cards.mini_card(ship, width, height, colour, attack).put(image, (x + i * step, y))


def _mini_names(
    image: Image.Image, x: int, y: int, right: int, ships: Sequence[Ship], colour: RGB
) -> None:
    """Sunk ships as small labelled chips in a row (the pile, oldest first)."""
    for ship in ships:
        chip = _chip(f"{cards.LABELS[ship]} {ship.card.attack}", colour)
        if x + chip.width > right:
            _text(image, (x, y + 2), style.ELLIPSIS, SMALL_SIZE - 2, style.TEXT)
            return
        image.paste(chip, (x, y))
        x += chip.width + 6


@functools.lru_cache(maxsize=64)
def _chip(text: str, colour: RGB) -> Image.Image:
    """A sunk ship's chip on the panel's colour (shared; only pasted)."""
    size = SMALL_SIZE - 2
    width = style.text_width(text, size) + 15
    chip = Image.new("RGB", (width, size + 11), style.PANEL)
    draw = ImageDraw.Draw(chip)
    draw.rounded_rectangle(
        (0, 0, width - 1, size + 10), radius=8, fill=cards.CARD_FACE, outline=colour, width=2
    )
    draw.text((7, 4), text, font=style.font(size), fill=cards.CARD_INK)
    return chip


# --- the attack and the last combat ----------------------------------------------------

FIGHT_LINE = 26


def attack_lines(view: PublicView) -> list[tuple[str, RGB]]:
    """The attack in progress in words (the board shows it too)."""
    attack = view.attack
    if attack is None:
        return []
    names = names_of(view)
    attacker, defender = names.get(attack.attacker, "?"), names.get(attack.defender, "?")
    lines = [
        (f"{attacker} attacks {defender}'s unit on {attack.target} from {attack.origin}", ATTACK)
    ]
    for side, colour, who in ((Side.ATTACK, ATTACK, attacker), (Side.DEFENCE, DEFENCE, defender)):
        cells = [str(s.cell) for s in attack.supports if s.side is side]
        if cells:
            lines.append((f"{who}'s supports: {', '.join(cells)}", colour))
    if attack.retreat_squares:
        squares = ", ".join(str(cell) for cell in attack.retreat_squares)
        lines.append((f"{defender} retreats: {attacker} chooses {squares}", style.HIT_LIGHT))
    return lines


def combat_height(combat: CombatView) -> int:
    rows = max(
        sum(1 for f in combat.fighters if f.side is Side.ATTACK),
        sum(1 for f in combat.fighters if f.side is Side.DEFENCE),
    )
    return 40 + FIGHT_LINE * (rows + 1) + 44


def draw_combat(
    image: Image.Image, box: tuple[int, int, int, int], view: PublicView, combat: CombatView
) -> None:
    """The last combat: each side's fighters with what they counted, the totals, the result."""
    x0, y0, x1, y1 = box
    names = names_of(view)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=12, fill=style.PANEL)
    style.draw_text(
        image,
        (x0 + 14, y0 + 10),
        style.fit_text(f"Combat on {combat.target}", LINE_SIZE, x1 - x0 - 28),
        size=LINE_SIZE,
        fill=style.TEXT,
        background=style.PANEL,
    )
    half = (x1 - x0 - 42) // 2
    columns = (
        (Side.ATTACK, ATTACK, combat.attacker, combat.attack, x0 + 14),
        (Side.DEFENCE, DEFENCE, combat.defender, combat.defence, x0 + 28 + half),
    )
    for side, colour, player, total, left in columns:
        y = y0 + 42
        head = f"{side.value} · {names.get(player, '?')}"
        head = style.fit_text(head, SMALL_SIZE, half - 60)
        _text(image, (left, y), head, SMALL_SIZE, colour)
        _text(image, (left + half, y - 4), str(total), 28, colour, anchor="ra", bold=True)
        for fighter in (f for f in combat.fighters if f.side is side):
            y += FIGHT_LINE
            role = _role(combat, fighter.cell)
            text = style.fit_text(
                f"{fighter.ship.card.name} ({fighter.cell}{role})", SMALL_SIZE, half - 40
            )
            _text(image, (left, y), text, SMALL_SIZE, style.TEXT)
            _text(image, (left + half, y), str(fighter.value), SMALL_SIZE, style.TEXT, anchor="ra")
    target = next(f for f in combat.fighters if f.cell == combat.target)
    outcome = "the attack wins" if combat.winner is Side.ATTACK else "the defence wins"
    if combat.sunk:
        outcome += f"; {names.get(target.owner, '?')}'s {target.ship.card.name} is sunk"
    style.draw_text(
        image,
        (x0 + 14, y1 - 36),
        style.fit_text(outcome[:1].upper() + outcome[1:], LINE_SIZE, x1 - x0 - 28),
        size=LINE_SIZE,
        fill=style.HIT_LIGHT,
        background=style.PANEL,
    )


def _role(combat: CombatView, cell: object) -> str:
    if cell == combat.origin:
        return ", attacking"
    if cell == combat.target:
        return ", target"
    return ", support"
