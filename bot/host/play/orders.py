"""An order to a game: parse it, let the game accept it, keep it, act on it.

The game decides (``game.rules.accept``): an order that stands until the turn's end is
kept with its sender and sending time (the game chooses among a turn's orders
when it resolves: the newest, a crew captain's, …) and acknowledged; an order that
acts at once is stored as a step of the history and posted like a turn's result;
an order that completes its turn is resolved in the same transaction.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Mapping
from typing import Any

from bot.games.base import Channel, GamePhase, Notice, OrderSyntaxError, Resolution
from bot.games.catalog import get_game
from bot.host.commands import substitutes
from bot.host.commands.context import CommandContext
from bot.host.commands.routing import HOST_WORDS, PLAYER_WORDS, Refusal, command_word
from bot.host.messages import Choice, InboundKind
from bot.host.outbox import posts
from bot.host.outbox.posts import Cause
from bot.host.play import journal, lifecycle, receipts
from bot.host.play.seeds import game_rng_on_first_draw
from bot.store import GameChange, Tx, dumps, records
from bot.store.repository import WITHDRAWN

_PUBLIC = InboundKind.PUBLIC.value


def _meant(text: str) -> str | None:
    """The host's word a mistyped one was most likely meant as (``jion`` → ``join``)."""
    word = command_word(text)[0]
    if not word or word in HOST_WORDS | PLAYER_WORDS:
        return None
    found = difflib.get_close_matches(word, sorted(HOST_WORDS | PLAYER_WORDS), n=1, cutoff=0.7)
    return found[0] if found else None


def order(commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game, text: str) -> bool:
    """An order: read, accepted by the game and journaled, kept if it stands, and then
    either answered (the game's history unchanged: :func:`_answer_standing`) or acted on
    (:func:`_act`). Returns whether the order was answered by a reply (not when the game
    tells it later)."""
    game = get_game(game_row.kind)
    game_id = game_row.id
    player = tx.player(game_id, row.platform, row.user_id)
    parsed = _parsed(game, text)
    if player is None:
        substitutes.refuse_the_replaced(tx, row, game_id)
        raise Refusal("you are not in this game: send `join` to play")
    if game_row.paused_remaining is not None and not game.simultaneous:
        raise Refusal("the game is paused: orders wait until its host resumes it")
    state = commands.states.of(game, game_row)
    channel = Channel.PUBLIC if row.kind == _PUBLIC else Channel.PRIVATE
    rng = game_rng_on_first_draw(game_row, "accept", row.platform, row.message_id)
    accepted = game.rules.accept(state, player.key, parsed, channel, rng)
    journal.note(
        tx, game_id, "accept", player=player.key, text=text, channel=channel.value,
        draw=["accept", row.platform, row.message_id], at=row.sent_at,
    )  # fmt: skip
    previous = None
    if accepted.standing is not None:
        previous = tx.new_order(
            game_id=game_id,
            player_key=player.key,
            turn=game_row.turn,
            order=dumps(game.codec.encode_order(accepted.standing)),
            text=row.text,
            inbound_id=row.id or 0,
            sent_at=row.sent_at,
        )
    given = _Given(row, game, player, state, accepted, game_row.turn, previous)
    if _history_unchanged(game, state, accepted):
        return _answer_standing(commands, tx, given, game_row)
    return _act(commands, tx, given, game_row)


@dataclasses.dataclass(frozen=True, slots=True)
class _Given:
    """An order the game accepted, and what answering it needs."""

    row: Cause
    game: Any
    player: records.Player
    state: Any  # the state the order was given in
    accepted: Any
    turn: int
    previous: str | None  # the JSON of the standing order it replaced, if any


def _parsed(game: Any, text: str) -> Any:
    """The game's reading of an order; a host word typed wrong is pointed out."""
    try:
        return game.rules.parse(text)
    except OrderSyntaxError as error:
        guess = _meant(text)
        if guess is None:
            raise
        raise OrderSyntaxError(f"{error} (did you mean `{guess}`?)") from None


def _history_unchanged(game: Any, state: Any, accepted: Any) -> bool:
    """Whether the order leaves the game's history and timers as they were: it stands (or
    changed the state in setup, a placement), so nothing is recorded, posted or armed."""
    if accepted.events or accepted.orders or accepted.resolve_now:
        return False
    changed = accepted.state is not state
    return not changed or game.rules.timers(accepted.state) == game.rules.timers(state)


def _answer_standing(
    commands: CommandContext, tx: Tx, given: _Given, game_row: records.Game
) -> bool:
    """An order that leaves the history as it was: a state it changed is staged (written
    once for the batch: a crowd's placements, see Tx.stage_game_state), then answered."""
    new = given.accepted.state
    if new is not given.state:
        game, game_id = given.game, game_row.id
        game_row = tx.stage_game_state(
            game_row,
            new,
            encode=lambda staged: dumps(game.codec.encode_state(staged)),
            written=lambda digest: commands.states.remember(game_id, digest, new),
        )
        commands.states.remember(game_id, game_row.state_digest, new)
    return _answer(commands, tx, given, game_row)


def _act(commands: CommandContext, tx: Tx, given: _Given, game_row: records.Game) -> bool:
    """An order that changes the game's history: the game read again, locked, its change
    recorded and posted (or its timers armed), the order answered, and the turn resolved
    now if the order completed it."""
    game, row, accepted, state = given.game, given.row, given.accepted, given.state
    now = commands.clock.now()
    loaded = tx.game(game_row.id, lock=True)
    assert loaded is not None
    if accepted.events or accepted.orders:
        # What the game tells a player whose board this change redraws goes in that board's
        # message (one message, not an answer and then a board).
        folded, alone = _split_by_board(game, accepted)
        change = Resolution(
            accepted.state,
            accepted.events,
            accepted.changed,
            notices=folded,
            orders=accepted.orders,
        )
        given = dataclasses.replace(given, accepted=dataclasses.replace(accepted, notices=alone))
        loaded = lifecycle.record_and_post(
            tx, game, loaded, state, change, cause="action", moment=row.sent_at, now=now
        )
    else:
        armed = lifecycle.arm(game, loaded, accepted.state, moment=row.sent_at, now=now)
        new_state = GameChange(state=dumps(game.codec.encode_state(accepted.state)))
        loaded = tx.change_game(loaded, new_state.then(armed))
    answered = _answer(commands, tx, given, loaded)
    if accepted.resolve_now and loaded.phase == GamePhase.RUNNING:
        lifecycle.resolve_now(tx, game, loaded, accepted.state, moment=row.sent_at, now=now)
    return answered


def _split_by_board(game: Any, accepted: Any) -> tuple[tuple[Notice, ...], tuple[Notice, ...]]:
    """An order's notices: those whose every recipient gets a new board from the change
    (told in it), and the rest (told on their own)."""
    folded: list[Notice] = []
    alone: list[Notice] = []
    for notice in accepted.notices:
        boarded = notice.to is not None and set(
            posts.recipients(game, accepted.state, notice)
        ) <= set(accepted.changed)
        (folded if boarded else alone).append(notice)
    return tuple(folded), tuple(alone)


def _answer(commands: CommandContext, tx: Tx, given: _Given, game_row: Any) -> bool:
    """The game's notices, then the acknowledgement of an order that stands; whether the
    sender got a reply."""
    row, game, accepted, player, turn = (
        given.row,
        given.game,
        given.accepted,
        given.player,
        given.turn,
    )
    sender = player.key
    standing = accepted.standing
    if accepted.notices:
        posts.deliver_notices(
            tx, game, game_row, accepted.state, accepted.notices, cause=row,
            sender=sender, players=_addressees(tx, game, game_row.id, accepted, player),
        )  # fmt: skip
    if standing is None:
        return any(
            notice.to == sender or (notice.to is None and row.kind == _PUBLIC and row.channel)
            for notice in accepted.notices
        )
    # The player's receipt for this order (bot.host.play.receipts) in a game of committed
    # luck: the turn's post will carry a root over it, the record the salt to check it.
    mine = ""
    if game_row.secret:
        salt = receipts.salt_of(game_row.secret, row.id or 0)
        order = game.codec.encode_order(standing)
        mine = f"Receipt: {receipts.receipt(salt, game_row.id, turn, sender, order)}"
    if accepted.resolve_now:
        # (A turn resolved now is answered by its report; the receipt still goes to its
        # sender alone.)
        if mine:
            posts.reply(
                tx, game_row.id, row, f"Turn {turn}: your order counted. {mine}", public=False
            )
        return True
    previous = given.previous
    replaced = None if previous is None else commands.described.decoded(game, previous)
    text = game.words.acknowledge(turn, standing, replaced)
    if mine:
        text += f"\n{mine}"
    posts.reply(
        tx,
        game_row.id,
        row,
        text,
        public=False,
        extra=_withdraw_button(game.tag) if game.simultaneous else "",
    )
    return True


def _addressees(
    tx: Tx, game: Any, game_id: int, accepted: Any, sender: records.Player
) -> Mapping[str, records.Player]:
    """The players the order's notices may go to: the sender alone when they answer only
    the sender (a placement's does: reading a crowd's 100,000 players for it was a fifth
    of a placement's time), or else every player."""
    wanted = {
        key
        for notice in accepted.notices
        if notice.to is not None
        for key in posts.recipients(game, accepted.state, notice)
    }
    if wanted <= {sender.key}:
        return {sender.key: sender}
    return {p.key: p for p in tx.players(game_id)}


@functools.cache
def _withdraw_button(tag: str) -> str:
    """In a game whose orders stand until the deadline, one click takes an order back
    (the same extras for every acknowledgement: written once, not per order)."""
    return posts.extras(choices=[Choice("Withdraw", f"{tag} withdraw", private=True)])


def withdraw(tx: Tx, row: Cause, game_row: records.Game) -> None:
    """``withdraw``: take back one's standing order of the turn (the game then resolves
    as if it had not been given); the orders stay in the history."""
    game = get_game(game_row.kind)
    player = tx.player(game_row.id, row.platform, row.user_id)
    if player is None:
        raise Refusal("you are not in this game: send `join` to play")
    if not game.simultaneous or game_row.phase != GamePhase.RUNNING:
        raise Refusal(
            "there is no order to withdraw: in this game an order acts when it is given"
            if not game.simultaneous
            else "there is no order to withdraw before the battle starts"
        )
    turn = game_row.turn
    if tx.standing_order(game_row.id, turn, player.key) is None:
        raise Refusal(
            f"you have no order for turn {turn} to withdraw; send one before the deadline, "
            f"e.g. `{game.words.example()}`"
        )
    journal.note(tx, game_row.id, "withdraw", player=player.key)
    tx.new_order(
        game_id=game_row.id,
        player_key=player.key,
        turn=turn,
        order=WITHDRAWN,
        text=row.text,
        inbound_id=row.id or 0,
        sent_at=row.sent_at,
    )
    posts.reply(
        tx,
        game_row.id,
        row,
        f"Your order for turn {turn} is withdrawn: you have none now. "
        "Send another before the deadline.",
        public=False,
    )
