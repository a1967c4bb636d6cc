"""A game's journal (issue 31, README "Fair play"): every call the host made to the game's
rules, in order, with what it gave them — so that the record can make the whole game
again through the rules, and ``bst verify`` check every event it says happened.

One entry a call, JSON, player ids (never names), written after the call succeeded:

* ``{"do": "new", "options": {…}}`` — the options the rules were given;
* ``{"do": "join", "player": ID, "name": NAME}``;
* ``{"do": "accept", "player": ID, "text": T, "channel": "public"|"private",
  "draw": [LABEL…], "at": EPOCH}`` — an order as the game parsed it from ``T``;
* ``{"do": "withdraw", "player": ID}`` — the orders a player gave this turn are taken back;
* ``{"do": "start", "first": ID|null}``; ``{"do": "resolve", "draw": [LABEL…]}``;
* ``{"do": "expire", "timer": KEY}`` (its draw: the key's parts);
* ``{"do": "remove", "player": ID, "cause": "leave"|"kick"}``;
  ``{"do": "finish", "cause": "end"|"cancelled"}``.

A call that may change the history carries ``at`` (epoch seconds): when its step counts
from, which records show; times are the host's, not the rules'.

Every draw is the game's luck at the label ``draw`` names (``bot.host.play.seeds``): the
secret before the start, the mixed key from it on; or the game's ``seed``.

:func:`replay` is the inverse: the game made again, step by step, as the host stored it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.games.base import Channel, Game, Given, PlayerRef, Resolution, Step
from bot.store import Tx, dumps

JOURNAL_FORMAT = "bst-journal/1"


def note(tx: Tx, game_id: int | None, do: str, **fields: Any) -> None:
    """Append one call to the game's journal."""
    assert game_id is not None
    tx.add_journal(game_id, dumps({"do": do, **fields}))


class ReplayError(Exception):
    """The journal cannot be played (an entry the rules refuse, one of no known kind)."""


Draw = Callable[[bool, Sequence[object]], random.Random]
"""(started, label parts) → the draw: the key changes at the start in a game of luck."""


@dataclass
class Replayed:
    """The game made again: its state now and its history, step by step."""

    state: Any
    history: list[Step] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    standing: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Turn → player → the order that stood (for the receipts)."""
    started: bool = False
    finished: bool = False
    opened_at: float | None = None
    """When the turn in progress opened (the ``at`` of the step that began it)."""
    latest_order_at: float | None = None
    """The latest ``at`` of an order accepted in the turn in progress."""


def moment_text(moment: float) -> str:
    """When a step happened, as records write it (``2026-01-01T08:00:00Z``)."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _step(
    game: Game[Any, Any],
    made: Replayed,
    resolution: Resolution[Any],
    cause: str,
    entry: Mapping[str, Any],
    timer: str = "",
) -> None:
    """As lifecycle.commit: the change is a step of the history."""
    at = entry.get("at")
    made.history.append(
        Step(
            turn=game.rules.turn(made.state),
            orders=tuple(dict(o) for o in resolution.orders),
            events=tuple(e.record() for e in resolution.events),
            cause=cause,
            timer=timer,
            at=None if at is None else moment_text(float(at)),
        )
    )
    made.state = resolution.state
    made.finished = game.rules.outcome(made.state) is not None


def _change(
    game: Game[Any, Any],
    made: Replayed,
    resolution: Resolution[Any],
    cause: str,
    entry: Mapping[str, Any],
) -> None:
    """As lifecycle.change: a step only once the game began, and only when it shows."""
    began = made.started and not made.finished
    ends_turn = (
        began
        and game.rules.outcome(resolution.state) is None
        and game.rules.turn(resolution.state) != game.rules.turn(made.state)
    )
    if ends_turn or (began and (resolution.events or resolution.orders)):
        _step(game, made, resolution, cause, entry)
    else:
        made.state = resolution.state
        made.finished = made.finished or game.rules.outcome(made.state) is not None


def _apply(
    game: Game[Any, Any],
    made: Replayed,
    entry: Mapping[str, Any],
    index: int,
    given: dict[int, list[Given[Any]]],
    draw: Draw,
) -> None:
    do, state = entry["do"], made.state
    if do == "join":
        made.state = game.rules.join(state, PlayerRef(entry["player"], entry["name"]))
        made.names[entry["player"]] = entry["name"]
    elif do == "accept":
        player, turn = entry["player"], game.rules.turn(state)
        order = game.rules.parse(entry["text"])
        luck = draw(made.started, entry["draw"])
        accepted = game.rules.accept(state, player, order, Channel(entry["channel"]), luck)
        if accepted.standing is not None:
            given.setdefault(turn, []).append(
                Given(player, accepted.standing, float(entry["at"]), index)
            )
            made.standing.setdefault(turn, {})[player] = accepted.standing
        if accepted.events or accepted.orders:
            acted = Resolution(
                accepted.state, accepted.events, accepted.changed, orders=accepted.orders
            )
            _step(game, made, acted, "action", entry)
        else:
            made.state = accepted.state
    elif do == "withdraw":
        turn, player = game.rules.turn(state), entry["player"]
        given[turn] = [g for g in given.get(turn, []) if g.player != player]
        made.standing.get(turn, {}).pop(player, None)
    elif do == "start":
        made.started = True  # (the start draws from the mixed key)
        started = game.rules.start(state, draw(True, ["start"]), entry.get("first"))
        _step(game, made, started, "start", entry)
    elif do == "resolve":
        orders = given.get(game.rules.turn(state), [])
        resolved = game.rules.resolve(state, orders, draw(made.started, entry["draw"]))
        _step(game, made, resolved, "turn", entry)
    elif do == "expire":
        key = entry["timer"]
        luck = draw(made.started, key.split(":"))
        if not made.started:  # a setup timer: the game says what happens; no step
            made.state = game.rules.expire(state, key, (), luck).state
        else:
            orders = given.get(game.rules.turn(state), [])
            expired = game.rules.expire(state, key, orders, luck)
            _step(game, made, expired, "timer", entry, timer=key)
    elif do == "remove":
        removed = game.rules.remove(state, entry["player"])
        _change(game, made, removed, entry.get("cause", "leave"), entry)
    elif do == "finish":
        _change(game, made, game.rules.finish(state), entry.get("cause", "end"), entry)
    else:
        raise ReplayError(f"journal entry {index + 1}: unknown kind {do!r}")


def _check_time(made: Replayed, entry: Mapping[str, Any], index: int) -> None:
    """An entry's ``at`` against the host's own rules of time, so that an edited ``at``
    does not pass (records of most games show no order's time): the host counts no
    order sent before its turn opened (a late fetch is refused) nor at or after its
    deadline (held for the next turn), and a timer falls at the deadline, after every
    order it closes on."""
    at = entry.get("at")
    if at is None or made.opened_at is None or made.finished:
        return
    at = float(at)
    do = entry.get("do")
    where = f"journal entry {index + 1} ({do})"
    if do in ("accept", "expire", "resolve") and at < made.opened_at:
        raise ReplayError(
            f"{where}: at {moment_text(at)}, before its turn opened at "
            f"{moment_text(made.opened_at)}: the host takes nothing of a turn before it opens"
        )
    if do == "accept":
        made.latest_order_at = max(at, made.latest_order_at or at)
    elif do == "expire" and made.latest_order_at is not None and made.latest_order_at > at:
        raise ReplayError(
            f"{where}: the turn closed at {moment_text(at)}, but an order it counted is "
            f"dated {moment_text(made.latest_order_at)}: the host holds an order sent after "
            "a deadline for the next turn"
        )


def replay(game: Game[Any, Any], entries: Sequence[Mapping[str, Any]], draw: Draw) -> Replayed:
    """Play ``entries`` through the rules of ``game`` as the host did (see the module's
    docstring), with a step wherever the host stored one."""
    made: Replayed | None = None
    given: dict[int, list[Given[Any]]] = {}
    for index, entry in enumerate(entries):
        do = entry.get("do")
        try:
            if do == "new":
                made, given = Replayed(game.rules.new_game(dict(entry["options"]))), {}
            elif made is None:
                raise ReplayError("the journal does not begin with the game's options")
            else:
                turn = game.rules.turn(made.state)
                _check_time(made, entry, index)
                _apply(game, made, entry, index, given, draw)
                if game.rules.turn(made.state) != turn and entry.get("at") is not None:
                    made.opened_at, made.latest_order_at = float(entry["at"]), None
        except ReplayError:
            raise
        except Exception as error:  # the rules refuse what the host says they took
            names = {} if made is None else made.names
            who = f" {names.get(entry['player'], entry['player'])}" if "player" in entry else ""
            raise ReplayError(
                f"journal entry {index + 1} ({do}{who}): the rules refuse it: "
                f"{type(error).__name__}: {error}"
            ) from None
    if made is None:
        raise ReplayError("the journal is empty")
    return made
