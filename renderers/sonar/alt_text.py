"""Alt text for Sonar's pictures: what a screen reader says instead of them.

The same facts as the picture, from the same view, at most :data:`~renderers.alt_text.MAX_ALT_TEXT` characters
(X's limit): the board and the turn first, then the last turn's charges with their marks,
the hits on subs afloat, the sunk subs and the captains, each list cut to what fits with
"and N more". A captain's own board adds their subs; the public one has none to add.
"""

from __future__ import annotations

from datetime import datetime

from bot.games.sonar.state import Phase, ShotResult
from bot.games.sonar.views import BoardView, OwnSubView, PrivateView, PublicView
from renderers.alt_text import Listing, compose_alt_text, deadline_sentences
from renderers.sonar.picture import captains_items, names_of, result_text, turn_text


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


def _compose(head: list[str], lists: list[Listing], tail: list[str]) -> str:
    # an empty list says nothing and takes no share of the room
    return compose_alt_text(head, [listing for listing in lists if listing.items], tail)


def _parts(
    view: PublicView, what: str, deadline: datetime | None, now: datetime | None
) -> tuple[list[str], list[Listing], list[str]]:
    head = [f"{what} of the {view.rows} by {view.cols} hex ocean. {result_text(view)}."]
    names = names_of(view)
    lists: list[Listing] = []
    if view.phase is not Phase.SETUP:
        lists.append(Listing(f"{turn_text(view.board, names)}: ", _shot_words(view.board)))
        lists.append(Listing("Hits on subs afloat: ", [str(cell) for cell in view.board.hits]))
        lists.append(
            Listing(
                "Sunk: ",
                [
                    f"{s.owner_name}'s sub {s.sub} at {' '.join(map(str, s.cells))}"
                    for s in view.board.sunk
                ],
            )
        )
    lists.append(Listing("Captains: ", [words for _, words in captains_items(view)]))
    tail = [] if view.phase is Phase.FINISHED else deadline_sentences(deadline, now)
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
    lists.insert(0, Listing("Your subs: ", [_sub_words(sub) for sub in view.subs] or ["none yet"]))
    return _compose(head, lists, tail)
