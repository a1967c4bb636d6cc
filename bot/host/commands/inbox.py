"""Inbound message → exactly one effect, all or nothing; batches in one commit.

Each message is recorded with its platform id (a redelivery is a no-op: the
unique ``(platform, message_id)`` key decides, inside the database), the game
changes, and every reply is written to the outbox, as one unit: either all of it
happens or none of it does. A message's first word is looked up in the host's verbs
table (:mod:`bot.host.commands.verbs`), whose row says where the verb is heard and sent, who may
use it, how it finds its game and which handler carries it out; any other word is an
order to the message's game (:mod:`bot.host.play.orders`), found by :mod:`bot.host.commands.routing`.

Group commit. :meth:`Commands.handle_many` handles a batch of messages in ONE
transaction (one commit, which is what a message costs on a disk), each message
inside its own SAVEPOINT. (A batch is first tried without the savepoints, which
cost two statements a message; only if a message raises is that attempt rolled
back and the batch handled again with them, so the outcome is the same.) "One
effect per message" then means:

* each message's effect (its inbound row, its game change, its outbox rows) is
  still all or nothing: a message that fails rolls back to its savepoint, taking
  only its own writes with it; the others go on. If the database failed for now
  (locked, gone: :func:`~bot.store.is_passing_failure`) its caller gets the error
  and the platform delivers it again later. Anything else would fail again at every
  delivery and stall the platform's cursor behind it, so the message is recorded as
  ``failed`` and answered with :data:`FAILED_REPLY` (the error is logged): handled
  exactly once, like a refusal;
* a refused message is an effect like any other (its inbound row says
  ``refused``, its reply is in the outbox) and is committed with the batch;
* nothing of a batch is durable, and so nothing may be acknowledged or sent,
  before the batch commits: :meth:`handle_many` returns only after the commit,
  and the relay sends only committed outbox rows. If the commit fails, no
  message of the batch happened (each caller gets the error, and a redelivery
  is handled afresh);
* messages take effect in the order given, each seeing the ones before it (a
  redelivery inside the same batch is a DUPLICATE of the first).

:meth:`Commands.handle` is a batch of one.

Within one transaction the store keeps what it read of games, players and
standing orders (Tx's snapshots: exact on SQLite, whose BEGIN IMMEDIATE shuts
out every other writer, and dropped on any write of this transaction to them;
one message long on PostgreSQL). An inbound row is inserted with the game its
message is most likely about, so an order needs no UPDATE of it afterwards.
"""

from __future__ import annotations

import enum
import logging
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games.base import GameError, GamePhase, OrderSyntaxError, WrongChannelError
from bot.games.catalog import games, get_game
from bot.host.commands import admin, verbs
from bot.host.commands.names import plain_name
from bot.host.commands.routing import (
    NoGameHere,
    Refusal,
    addresses_the_host,
    clean_text,
    command_word,
    find_game,
    game_here,
    tagged_kind,
)
from bot.host.messages import Inbound, InboundKind
from bot.host.outbox import posts
from bot.host.outbox.posts import Cause
from bot.host.play import orders
from bot.host.play.states import Descriptions, States
from bot.host.runtime.clock import Clock
from bot.host.runtime.limits import NO_LIMITS, CommandRates, Limits
from bot.store import Received, Store, Tx, is_passing_failure, records
from bot.store.settings import accounts_of

log = logging.getLogger(__name__)

MAX_TEXT = 2000
FAILED_REPLY = (
    "I could not act on that message: handling it failed on my side (it is logged for "
    "the bot's operator), and nothing changed. Send `help` to see what I understand."
)
_PUBLIC = InboundKind.PUBLIC.value
# A refusal quotes what was typed ('…'): past this many characters, the quote is cut.
QUOTED_AT_MOST = 60
_LONG_QUOTE = re.compile(
    # A quote opens where no word goes on (not the apostrophe of "you're").
    r"""(?<!\w)(['"])((?:\\.|(?!\1)[^\\]){"""
    + str(QUOTED_AT_MOST)
    + r"""})(?:\\.|(?!\1)[^\\]){2,}\1(?!\w)""",
    re.DOTALL,
)


def quote_briefly(message: str) -> str:
    """A refusal with every long quote of the player's text cut short: a long post is
    never echoed back (in public, or into a DM, where it would cost a message)."""
    return _LONG_QUOTE.sub(lambda m: f"{m.group(1)}{m.group(2)}…{m.group(1)}", message)


class Outcome(enum.Enum):
    DUPLICATE = "duplicate"
    HANDLED = "handled"
    REFUSED = "refused"
    HELD = "held"
    IGNORED = "ignored"  # public talk that carries no game's tag: not for the host
    FAILED = "failed"  # handling it raised: answered, recorded, never tried again


class _RetryWithSavepoints(Exception):
    """A message of a batch tried without savepoints raised: roll back, go again."""


@dataclass(frozen=True)
class Effect:
    outcome: Outcome
    game_id: int | None = None
    # An order the game acknowledges later (with the player's next answer or board)
    # gets no reply of its own.
    unanswered: bool = False

    @property
    def answered(self) -> bool:
        """Whether anything will be sent in reply: not for a message the host ignored
        (talk not for it, or one past its sender's rate) nor for an order told later, so a
        platform showing a "working on it" placeholder knows to take it away."""
        return self.outcome is not Outcome.IGNORED and not self.unanswered


def _plays_in(tx: Tx, row: Cause, game_row: records.Game) -> bool:
    """Whether the sender plays a seat of the game, from this account or one linked to it."""
    if tx.player(game_row.id, row.platform, row.user_id) is not None:
        return True
    others = accounts_of(tx, row.platform, row.user_id)[1:]
    return any(tx.player(game_row.id, *account) is not None for account in others)


def _is_order(
    tx: Tx, row: Cause, game_row: records.Game, text: str, hosts: Callable[[], bool]
) -> bool:
    """Whether a text that starts with a host word is one of the game's orders: sent by
    one of its players, and read by the game as an order (or, by DM from a player who
    does not host the game, meant as one: the game's answer says what it expected)."""
    game = get_game(game_row.kind)
    word = command_word(text)[0]
    typed = (verb.name if verb.words is None else verb.words for verb in game.verbs)
    if not any(t.split()[:1] == [word] for t in typed):
        return False
    if tx.player(game_row.id, row.platform, row.user_id) is None:
        return False
    try:
        game.rules.parse(text)
    except GameError:
        return row.kind != _PUBLIC and not hosts()
    return True


class Commands:
    """The host's command handling, the same for every platform and every game."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        admins: frozenset[str] = frozenset(),
        default_turn: str = "8h",
        default_game: str = "",
        room_platforms: frozenset[str] = frozenset(),
        card_platforms: frozenset[str] = frozenset(),
        confirm_platforms: frozenset[str] = frozenset(),
        web_base_url: str = "",
        limits: Limits = NO_LIMITS,
        paid_answer_platforms: frozenset[str] = frozenset(),
        draw_secret: Callable[[], str] | None = None,
    ) -> None:
        self.store = store
        self.draw_secret = draw_secret
        self.limits = limits
        self.rates = CommandRates(limits.commands_per_minute)
        self.paid_answer_platforms = paid_answer_platforms
        self.clock = clock
        self.admins = admins
        self.room_platforms = room_platforms
        self.card_platforms = card_platforms
        self.confirm_platforms = confirm_platforms
        self.web_base_url = web_base_url
        self.default_turn = default_turn
        self.default_game = default_game
        self.states = States()
        self.described = Descriptions()

    # ------------------------------------------------------------------

    def handle(self, inbound: Inbound) -> Effect:
        """Record and carry out one inbound message (a batch of one)."""
        (result,) = self.handle_many([inbound])
        if isinstance(result, Exception):
            raise result
        return result

    def handle_many(self, inbounds: Sequence[Inbound]) -> list[Effect | Exception]:
        """Record and carry out a batch of messages, in order, in one transaction with a
        savepoint per message (see the module docstring). Returns, per message, its
        effect or the error that rolled it back; returns only once the batch has
        committed. Raises (and nothing of the batch happened) if the transaction as a
        whole fails."""
        if len(inbounds) > 1:
            try:
                return self._handle_all_or_retry(inbounds)
            except _RetryWithSavepoints:
                pass  # nothing of that attempt stayed: go again, message by message
        return self._handle_with_savepoints(inbounds)

    def _handle_all_or_retry(self, inbounds: Sequence[Inbound]) -> list[Effect | Exception]:
        """The batch without savepoints (two statements a message fewer): a message that
        raises is rare (a refusal is an effect, not an error), so try the batch as it
        comes and, if one does raise, roll the whole attempt back and let the caller
        handle the batch again with a savepoint per message, which gives the same
        results as if that had been done from the start."""
        results: list[Effect | Exception] = []
        with self.store.transaction() as tx:
            for inbound in inbounds:
                try:
                    results.append(self._handle_one(tx, inbound))
                    tx.flush()  # what the ORM holds of this message, before end_message
                except Exception as error:
                    raise _RetryWithSavepoints from error  # (rolls the transaction back)
                tx.end_message()
            try:
                tx.write_later()  # (the batch's rows made to go together: a failure is theirs)
            except Exception as error:
                raise _RetryWithSavepoints from error
        return results

    def _handle_with_savepoints(self, inbounds: Sequence[Inbound]) -> list[Effect | Exception]:
        results: list[Effect | Exception] = []
        with self.store.transaction() as tx:
            for inbound in inbounds:
                try:
                    with tx.savepoint():
                        results.append(self._handle_one(tx, inbound))
                except Exception as error:
                    if not tx.is_active:
                        raise  # the transaction itself is lost: the whole batch is
                    if is_passing_failure(error):
                        results.append(error)
                    else:
                        results.append(self._answer_failure(tx, inbound, error))
                # No ORM copy outlives its message (see Tx.end_message).
                tx.end_message()
        return results

    def _answer_failure(self, tx: Tx, inbound: Inbound, error: Exception) -> Effect | Exception:
        """A message whose handling raised (and was rolled back): record it as ``failed``
        and answer it, so that it is never handled again and nothing waits behind it."""
        log.error(
            "%s message %s could not be handled; answered and recorded as failed",
            inbound.platform,
            inbound.message_id,
            exc_info=error,
        )
        try:
            with tx.savepoint():
                row = self._received(tx, inbound)
                row.outcome = Outcome.FAILED.value
                if not tx.record_inbound(row):
                    return Effect(Outcome.DUPLICATE)
                posts.reply(tx, 0, row, FAILED_REPLY, public=False)
        except Exception as second:
            if not tx.is_active:
                raise
            log.exception("recording the failed message %s failed too", inbound.message_id)
            return second if is_passing_failure(second) else error
        return Effect(Outcome.FAILED)

    def _received(self, tx: Tx, inbound: Inbound) -> Received:
        sender = inbound.sender
        return Received(
            platform=inbound.platform,
            message_id=inbound.message_id,
            channel=_channel_of(tx, inbound),
            user_id=sender.user_id,
            user_name=plain_name(sender.display_name),
            avatar_url=sender.avatar_url,
            is_channel_admin=sender.is_channel_admin,
            kind=inbound.kind.value,
            text=inbound.text[: MAX_TEXT * 2].replace("\x00", ""),
            sent_at=inbound.sent_at.timestamp(),
            received_at=self.clock.now(),
            community=inbound.community,
            communities=sender.communities,
        )

    def _handle_one(self, tx: Tx, inbound: Inbound) -> Effect:
        tx.begin_message()
        row = self._received(tx, inbound)
        # Recorded with the game it is most likely about (the one _carry_out finds for an
        # order; a snapshot, read once), so that usually no UPDATE has to follow.
        guess = find_game(tx, row, required=False)
        guessed = None if guess is None else guess.id
        if not tx.record_inbound(row, game_id=guessed):
            return Effect(Outcome.DUPLICATE)
        effect = self._carry_out(tx, row, guess)
        if row.game_id != guessed or row.outcome != "handled":
            tx.update_inbound(row)
        return effect

    def rehandle_held(self, tx: Tx, row: Cause) -> Effect:
        """Handle a message that was held until its turn opened. One that makes the host
        fail is answered and recorded as ``failed`` (see the module docstring): it must
        not stop its game's turns from resolving."""
        row.outcome = "handled"
        tx.begin_message()
        tx.flush()  # the resolution's own writes stay, whatever happens to this message
        try:
            with tx.savepoint():
                effect = self._carry_out(tx, row)
                tx.update_inbound(row)
        except Exception as error:
            if not tx.is_active or is_passing_failure(error):
                raise
            log.error("held message %s could not be handled", row.message_id, exc_info=error)
            row.outcome = Outcome.FAILED.value
            tx.update_inbound(row)
            posts.reply(tx, row.game_id or 0, row, FAILED_REPLY, public=False)
            return Effect(Outcome.FAILED, row.game_id)
        return effect

    # ------------------------------------------------------------------

    def _carry_out(self, tx: Tx, row: Cause, guess: records.Game | None = None) -> Effect:
        """``guess``: the game the message's place finds, if it was looked for already."""
        about = _About(guess)
        try:
            return self._answer(tx, row, about)
        except (Refusal, GameError) as error:
            return self._refused(tx, row, about.game_row, error)

    def _answer(self, tx: Tx, row: Cause, about: _About) -> Effect:
        """What the message asks, carried out (a refusal raises); ``about`` learns the
        message's game as soon as it is found. The host's verbs are found in their table
        (bot.host.commands.verbs); any other word is an order to the message's game."""
        if len(row.text) > MAX_TEXT:
            raise Refusal(
                f"that message is {len(row.text)} characters long; orders are short, "
                f"such as {self._example(tx, row)}"
            )
        text = clean_text(row.text)
        word, rest = command_word(text)
        # Every message counts toward its sender's rate (a reply whose leading mention
        # the platform's adapter took off reaches the host bare, and is as costly); only
        # one that speaks to the host is told to slow down. (`addressed`: read once.)
        addressed = row.kind == _PUBLIC and addresses_the_host(row.text)
        throttled = self._throttle(row, answer=self._counts(row, word, addressed))
        if throttled is not None:
            return throttled
        prefixed = verbs.after_host_prefix(word, rest)
        if prefixed is not None:
            # `host end`: the host's verb, where the game has an order of that name.
            text = rest
            word, rest = prefixed
        verb = verbs.find(word)
        if verb is not None and verb.on_room is not None:
            answered = self._before_any_game(tx, row, verb, rest, after_host=prefixed is not None)
            if answered is not None:
                return answered
        if verb is not None:
            game_row = verb.finds(tx, row, rest)
        else:  # (an order: the game of its place, found already if it has one)
            game_row = about.guess or game_here(tx, row, rest)
        about.game_row = game_row
        set_aside = self._set_aside(tx, row, game_row, verb, addressed)
        if set_aside is not None:
            return set_aside
        if verb is not None and verb.hosts_a_game and prefixed is None:
            hosts = lambda: admin.is_host(self, tx, row, game_row)  # noqa: E731 - if needed
            if _is_order(tx, row, game_row, text, hosts):
                # The game has an order of that name (U-Boat's `start E6`, Silent Ships'
                # `end`): from one of its players, and readable as that order, it is the
                # player's order. The host's verb is then `host end`.
                verb = None
        late = self._late(row, game_row, verb)
        if late is not None:
            return late
        row.game_id = game_row.id
        if verb is None or verb.on_game is None:
            if not orders.order(self, tx, row, game_row, text):
                return Effect(Outcome.HANDLED, game_row.id, unanswered=True)
            return Effect(Outcome.HANDLED, game_row.id)
        verbs.refuse_elsewhere(verb, row, get_game(game_row.kind).tag)
        if verb.asks_the_game:
            # These may change more than an order does: the game is read again, locked
            # (a game found to join by DM was read without a lock).
            loaded = tx.game(game_row.id, lock=True)
            assert loaded is not None
            game_row = loaded
        verbs.run_game_verb(self, tx, row, game_row, verb, rest)
        return Effect(Outcome.HANDLED, game_row.id)

    def _before_any_game(
        self, tx: Tx, row: Cause, verb: verbs.HostVerb, rest: str, *, after_host: bool
    ) -> Effect | None:
        """A verb answered before any game is found (the message names what it acts on,
        or it acts on none), where the table says it is heard; None: the message is
        about a game."""
        if not verbs.is_heard(verb, verbs.Hearing(tx, row, rest, after_host)):
            return None
        verbs.refuse_elsewhere(verb, row, self._tag_named(row, rest))
        return Effect(Outcome.HANDLED, verbs.run_room_verb(self, tx, row, verb, rest))

    def _tag_named(self, row: Cause, rest: str) -> str:
        """The tag of the game a message names (by its tag, its first word, or this host's
        default game), for an example."""
        kind = tagged_kind(row.text) or self.default_game
        first = rest.split()[:1]
        if first and "=" not in first[0]:
            kind = first[0].lower()
        known = {game.name: game.tag for game in games()}
        return known.get(kind, "#TAG")

    def _set_aside(
        self,
        tx: Tx,
        row: Cause,
        game_row: records.Game,
        verb: verbs.HostVerb | None,
        addressed: bool,
    ) -> Effect | None:
        """People's talk in a game's channel: recorded, not for the host (no reply).
        ``addressed``: a public message that is for the host (``addresses_the_host``)."""
        hosts_a_game = verb is not None and verb.hosts_a_game
        asks = verb is not None and verb.asks_the_game
        if (
            row.kind == _PUBLIC
            and not hosts_a_game
            and not addressed
            and get_game(game_row.kind).public_needs_tag
        ):
            # Talk in the game's channel: in a game whose public orders carry its tag,
            # a message without it is people chatting, not for the host (no reply).
            row.outcome = "ignored"
            row.game_id = game_row.id
            return Effect(Outcome.IGNORED, game_row.id)
        if row.kind == _PUBLIC and not asks and not addressed and not _plays_in(tx, row, game_row):
            # Untagged words in a game's channel (a reply, whose mention of the bot the
            # platform's adapter took off) from someone who plays no seat there: talk,
            # not an order. No answer: a bystander's replies cost nothing to send.
            row.outcome = "ignored"
            row.game_id = game_row.id
            return Effect(Outcome.IGNORED, game_row.id)
        return None

    def _late(
        self, row: Cause, game_row: records.Game, verb: verbs.HostVerb | None
    ) -> Effect | None:
        """A message past its turn's deadline (held for the next turn), or sent in a turn
        that has resolved since (refused)."""
        battle = game_row.phase == GamePhase.RUNNING
        deadline = game_row.deadline
        if (
            battle
            and deadline is not None
            and row.sent_at >= deadline
            and not (verb is not None and verb.answered_any_time)
        ):
            # Sent after this turn's deadline: it belongs to the next turn,
            # which opens when this one resolves. Keep it until then.
            row.outcome = "held"
            row.game_id = game_row.id
            return Effect(Outcome.HELD, game_row.id)
        opened_at = game_row.turn_opened_at
        if (
            battle
            and opened_at is not None
            and row.sent_at < opened_at
            and not (verb is not None and verb.asks_the_game)
        ):
            # Fetched late (an X poll can lag): it was sent during a turn that
            # has already resolved, and orders count for the turn they were sent in.
            raise Refusal(
                f"your order was sent before turn {game_row.turn - 1} closed but reached "
                "me only after it resolved, so it was not counted; send it again for "
                f"turn {game_row.turn}"
            )
        return None

    def _refused(
        self,
        tx: Tx,
        row: Cause,
        game_row: records.Game | None,
        error: Refusal | GameError,
    ) -> Effect:
        """A refusal answered privately, recorded with the game it was about; chatter that
        mentions the bot where every answer is paid goes unanswered."""
        if (
            row.kind == _PUBLIC
            and row.platform in self.paid_answer_platforms
            and isinstance(error, OrderSyntaxError | NoGameHere)
        ):
            # Chatter that mentions the bot, where every answer is paid (X): no
            # answer (it is recorded, and the cursor moves past it).
            row.outcome = "ignored"
            return Effect(Outcome.IGNORED, game_row.id if game_row is not None else None)
        row.outcome = "refused"
        game_id = game_row.id if game_row is not None else (row.game_id or 0)
        if game_row is not None:
            # A refusal about a game is part of that game's history (and its audit).
            row.game_id = game_row.id
        message = quote_briefly(error.message if isinstance(error, GameError) else str(error))
        if isinstance(error, WrongChannelError) and row.kind == _PUBLIC:
            # A secret posted in public (a move, a placement): not executed, and
            # taken down where the platform lets the host (rules §4), before the
            # private answer goes out.
            posts.withdraw(tx, game_id or 0, row)
        posts.reply(tx, game_id or 0, row, message, public=False)
        return Effect(Outcome.REFUSED, game_id)

    def _counts(self, row: Cause, word: str, addressed: bool) -> bool:
        """Whether a message speaks to the host, so that past its sender's rate it is told
        to slow down: anything sent to the bot privately, and in public what addresses
        the host (not people's talk, which counts toward the rate unanswered)."""
        return row.kind != _PUBLIC or verbs.find(word) is not None or addressed

    def _throttle(self, row: Cause, *, answer: bool) -> Effect | None:
        """Past the sender's command rate: the first message answered once with when to
        send again (if it spoke to the host: ``answer``), the rest of that minute recorded
        and not answered."""
        now = row.received_at
        verdict = self.rates.check(row.platform, row.user_id, now, warn=answer)
        if verdict == "ok":
            return None
        if verdict == "quiet":
            row.outcome = "ignored"
            return Effect(Outcome.IGNORED, row.game_id)
        wait = max(1, math.ceil(self.rates.wait_s(row.platform, row.user_id, now)))
        raise Refusal(
            f"slow down: at most {self.rates.per_minute} messages a minute to me; I read "
            f"none of yours for the next {wait} s, so send this one again after that"
        )

    def _example(self, tx: Tx, row: Cause) -> str:
        """An order of the game the message is about (or of the default game)."""
        found = find_game(tx, row, required=False)
        kind = found.kind if found is not None else self.default_game
        return get_game(kind).words.example() if kind else "`join` or `help`"


@dataclass(slots=True)
class _About:
    """The game a message turned out to be about, once found (a refusal is recorded with
    it)."""

    guess: records.Game | None = None  # the game the message's place finds, if looked for
    game_row: records.Game | None = None


def _channel_of(tx: Tx, inbound: Inbound) -> str:
    """The channel a message belongs to: where a platform carried the number of the game
    it is about (a button), that game's channel, wherever it was clicked (a DM, the lobby
    a game's thread was opened from), so the click is about that game and no other. A
    number of no game of this platform, or of a game the sender could not reach by
    typing, is ignored: the message finds its game as any other does."""
    if inbound.game:
        named = tx.game(inbound.game)
        if named is not None and named.platform == inbound.platform and _reaches(named, inbound):
            return named.channel
    return inbound.channel


def _reaches(game_row: records.Game, inbound: Inbound) -> bool:
    """Whether the sender could reach the game by typing (see routing.reachable): a
    button's number is no way around a game's reach (a DM `join` of another server's
    game)."""
    if not game_row.community or game_row.open_to_all:
        return True
    if inbound.community == game_row.community:
        return True
    return game_row.community in (inbound.sender.communities or ())
