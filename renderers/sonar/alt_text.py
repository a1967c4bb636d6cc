"""Alt text for Sonar's pictures: what a screen reader says instead of them.

The same facts as the picture, from the same view, at most :data:`MAX_ALT_TEXT` characters
(X's limit): the board and the turn first, then the last turn's charges with their marks,
the hits on subs afloat, the sunk subs and the captains, each list cut to what fits with
"and N more". A captain's own board adds their subs; the public one has none to add.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.games.sonar.state import Phase, ShotResult
from bot.games.sonar.views import BoardView, OwnSubView, PrivateView, PublicView
from renderers.sonar.picture import captains_items, names_of, result_text, turn_text
from renderers.style import ELLIPSIS, deadline_text

MAX_ALT_TEXT = 1000


def _limited(items: Sequence[str], budget: int) -> str:
    """``a, b, c and 4 more`` within ``budget`` characters (all of them when they fit)."""
    full = ", ".join(items)
    if len(full) <= budget:
        return full
    for shown in range(len(items) - 1, -1, -1):
        text = ", ".join(items[:shown]) + (" and " if shown else "") + f"{len(items) - shown} more"
        if len(text) <= budget:
            return text
    return f"{len(items)}"


def _shot_words(board: BoardView) -> list[str]:
    words = []
    for shot in board.shots:
        if shot.result is ShotResult.MISS:
            words.append(f"{shot.cell} missed, {shot.distance} from the nearest sub")
        elif shot.result is ShotResult.SUNK:
            words.append(f"{shot.cell} sank a sub")
        else:
            words.append(f"{shot.cell} hit")
    return words


def _sub_words(sub: OwnSubView) -> str:
    cells = " ".join(map(str, sub.cells))
    text = f"sub {sub.id} ({sub.length} long, sailing {sub.facing.word}) at {cells}"
    if sub.sunk:
        return text + ", sunk"
    if sub.hits:
        return text + f", hit at {' '.join(map(str, sub.hits))}"
    return text


def _compose(head: list[str], lists: list[tuple[str, list[str]]], tail: list[str]) -> str:
    fixed = " ".join(head + tail)
    room = MAX_ALT_TEXT - len(fixed) - 1
    sentences = []
    filled = [(prefix, items) for prefix, items in lists if items]
    for index, (prefix, items) in enumerate(filled):
        share = room // (len(filled) - index)
        sentence = f"{prefix}{_limited(items, max(8, share - len(prefix) - 2))}."
        sentences.append(sentence)
        room -= len(sentence) + 1
    text = " ".join(part for part in [*head, *sentences, *tail] if part)
    if len(text) > MAX_ALT_TEXT:
        text = text[: MAX_ALT_TEXT - 1].rstrip() + ELLIPSIS
    return text


def _parts(
    view: PublicView, what: str, deadline: datetime | None, now: datetime | None
) -> tuple[list[str], list[tuple[str, list[str]]], list[str]]:
    head = [f"{what} of the {view.rows} by {view.cols} hex ocean. {result_text(view)}."]
    names = names_of(view)
    lists: list[tuple[str, list[str]]] = []
    if view.phase is not Phase.SETUP:
        lists.append((f"{turn_text(view.board, names)}: ", _shot_words(view.board)))
        lists.append(("Hits on subs afloat: ", [str(cell) for cell in view.board.hits]))
        lists.append(
            (
                "Sunk: ",
                [
                    f"{s.owner_name}'s sub {s.sub} at {' '.join(map(str, s.cells))}"
                    for s in view.board.sunk
                ],
            )
        )
    lists.append(("Captains: ", [words for _, words in captains_items(view)]))
    tail: list[str] = []
    if view.phase is not Phase.FINISHED:
        when = deadline_text(deadline, now)
        if when:
            tail.append(when + ".")
    return head, lists, tail


def public_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    head, lists, tail = _parts(view, f"{title}: the public board", deadline, now)
    return _compose(head, lists, tail)


def private_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    head, lists, tail = _parts(
        view.public, f"{title}: {view.viewer_name}'s own board", deadline, now
    )
    lists.insert(0, ("Your subs: ", [_sub_words(sub) for sub in view.subs] or ["none yet"]))
    return _compose(head, lists, tail)
