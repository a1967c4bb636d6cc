"""Inbound message → exactly one effect, all or nothing.

Each message is recorded with its platform id (a redelivery is a no-op: the
unique ``(platform, message_id)`` key decides, inside the database), the game
changes, and every reply is written to the outbox, as one unit: either all of it
happens or none of it does. Permissions are checked here, whatever the platform:
host commands need the game's creator, a configured admin, or someone the
platform says administers the channel.

Group commit. :meth:`Commands.handle_many` handles a batch of messages in ONE
transaction (one commit, which is what a message costs on a disk), each message
inside its own SAVEPOINT. (A batch is first tried without the savepoints, which
cost two statements a message; only if a message raises is that attempt rolled
back and the batch handled again with them, so the outcome is the same.) "One
effect per message" then means:

* each message's effect (its inbound row, its game change, its outbox rows) is
  still all or nothing: a message that fails rolls back to its savepoint, taking
  only its own writes with it, and its caller gets the error; the others go on;
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

Decoded game states are cached (keyed by game id, validated against the exact
state JSON the transaction read), so an order that does not change the state
never decodes it; the cache cannot serve a stale state because it is consulted
only with the stored string in hand.

Within one transaction the store keeps what it read of games, captains and
standing orders (Tx's snapshots: exact on SQLite, whose BEGIN IMMEDIATE shuts
out every other writer, and dropped on any write of this transaction to them;
one message long on PostgreSQL). An inbound row is inserted with the game its
message is most likely about, so an order needs no UPDATE of it afterwards.
"""

from __future__ import annotations

import enum
import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Channel, GameError, PlayerRef, WrongChannelError, get_game
from bot.games.duration import format_duration, humanize, parse_duration
from bot.host import posts
from bot.host.clock import Clock, format_utc
from bot.host.messages import Inbound, InboundKind
from bot.host.posts import Cause
from bot.host.seeds import seeded_on_first_draw
from bot.store import GameRow, OrderRow, PlayerRow, Received, Store, Tx, dumps, loads
from bot.store.repository import GameSnapshot

HOST_WORDS = {"new", "start", "pause", "resume", "extend", "kick", "end"}
PLAYER_WORDS = {"join", "leave", "board", "status", "help", "rules"}
MAX_TEXT = 2000

_TAG = re.compile(r"(^|\s)#bst\b", re.IGNORECASE)
# Only the mentions in front of a command address the bot (an X reply starts
# with them); a mention after the command word is an argument (`kick @carol`).
_LEADING_MENTIONS = re.compile(r"^(\s*@[A-Za-z0-9_]+)+")
STATE_CACHE_SIZE = 64  # decoded game states kept (the games being played right now)
DESCRIBE_CACHE_SIZE = 4096
_PUBLIC = InboundKind.PUBLIC.value


class Outcome(enum.Enum):
    DUPLICATE = "duplicate"
    HANDLED = "handled"
    REFUSED = "refused"
    HELD = "held"


class Refusal(Exception):
    """A command refused for a reason the sender is told; nothing changes."""


class _RetryWithSavepoints(Exception):
    """A message of a batch tried without savepoints raised: roll back, go again."""


@dataclass(frozen=True)
class Effect:
    outcome: Outcome
    game_id: int | None = None


def clean_text(text: str) -> str:
    """Drop the ``#bst`` tag and leading @mentions: any command may carry them or not."""
    if "#" not in text and "@" not in text:
        return text.strip()
    text = _TAG.sub(" ", text).strip()
    text = _LEADING_MENTIONS.sub(" ", text)
    return text.strip()


def command_word(text: str) -> tuple[str, str]:
    """(first word lower-cased, the rest) of a cleaned text."""
    parts = text.split(None, 1)
    if not parts:
        return "", ""
    return parts[0].lower(), (parts[1] if len(parts) > 1 else "")


def player_identity(platform: str, user_id: str) -> str:
    return f"{platform}:{user_id}"


class Commands:
    """The host's command handling, the same for every platform."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        admins: frozenset[str] = frozenset(),
        default_turn: str = "8h",
    ) -> None:
        self.store = store
        self.clock = clock
        self.admins = admins
        self.default_turn = default_turn
        # game id → (the state JSON as stored, its decoded state). States are immutable.
        self._states: OrderedDict[int, tuple[str, Any]] = OrderedDict()
        self._described: dict[tuple[str, str], str] = {}
        self._cache_lock = threading.Lock()  # the worker thread and the turn clock share it

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
        return results

    def _handle_with_savepoints(self, inbounds: Sequence[Inbound]) -> list[Effect | Exception]:
        results: list[Effect | Exception] = []
        with self.store.transaction() as tx:
            for inbound in inbounds:
                try:
                    with tx.savepoint():
                        results.append(self._handle_one(tx, inbound))
                except Exception as error:
                    if not tx.session.is_active:
                        raise  # the transaction itself is lost: the whole batch is
                    results.append(error)
                # No ORM copy outlives its message (see Tx.end_message).
                tx.end_message()
        return results

    def _handle_one(self, tx: Tx, inbound: Inbound) -> Effect:
        tx.begin_message()
        sender = inbound.sender
        row = Received(
            platform=inbound.platform,
            message_id=inbound.message_id,
            channel=inbound.channel,
            user_id=sender.user_id,
            user_name=sender.display_name,
            avatar_url=sender.avatar_url,
            is_channel_admin=sender.is_channel_admin,
            kind=inbound.kind.value,
            text=inbound.text[: MAX_TEXT * 2],
            sent_at=inbound.sent_at.timestamp(),
            received_at=self.clock.now(),
        )
        # Recorded with the game it is most likely about (the one _carry_out finds for an
        # order; a snapshot, read once), so that usually no UPDATE has to follow.
        guess = self._find_game(tx, row, required=False)
        guessed = None if guess is None else guess.id
        if not tx.record_inbound(row, game_id=guessed):
            return Effect(Outcome.DUPLICATE)
        effect = self._carry_out(tx, row)
        if row.game_id != guessed or row.outcome != "handled":
            tx.update_inbound(row)
        return effect

    def rehandle_held(self, tx: Tx, row: Cause) -> Effect:
        """Handle a message that was held until its turn opened."""
        row.outcome = "handled"
        tx.begin_message()
        effect = self._carry_out(tx, row)
        tx.save(row)
        return effect

    # --- caches --------------------------------------------------------

    def _state(self, game: Any, game_row: GameRow | GameSnapshot) -> Any:
        """The decoded state of the game row as read in this transaction."""
        stored = game_row.state
        assert game_row.id is not None
        key = game_row.id
        with self._cache_lock:
            cached = self._states.get(key)
            if cached is not None and (cached[0] is stored or cached[0] == stored):
                self._states.move_to_end(key)
                return cached[1]
        state = game.decode_state(loads(stored))
        self._remember(key, stored, state)
        return state

    def _remember(self, game_id: int, stored: str, state: Any) -> None:
        with self._cache_lock:
            self._states[game_id] = (stored, state)
            self._states.move_to_end(game_id)
            while len(self._states) > STATE_CACHE_SIZE:
                self._states.popitem(last=False)

    def _describe_stored(self, game: Any, order_json: str) -> str:
        """The description of a stored order (a pure function of its JSON)."""
        key = (game.name, order_json)
        described = self._described.get(key)
        if described is None:
            described = game.describe(game.decode_order(loads(order_json)))
            if len(self._described) >= DESCRIBE_CACHE_SIZE:
                self._described.clear()
            self._described[key] = described
        return described

    # ------------------------------------------------------------------

    def _carry_out(self, tx: Tx, row: Cause) -> Effect:
        game_row: GameRow | GameSnapshot | None = None
        try:
            if len(row.text) > MAX_TEXT:
                raise Refusal(
                    f"that message is {len(row.text)} characters long; orders are short, "
                    "such as `#bst H14` or `move cruiser at G7 3 up`"
                )
            text = clean_text(row.text)
            word, rest = command_word(text)
            if word == "new":
                game_row = self._new(tx, row, rest)
                return Effect(Outcome.HANDLED, game_row.id)
            if word in ("help", "rules") and not self._find_game(tx, row, required=False):
                game = get_game("bst")
                reply = game.help_text() if word == "help" else game.rules_text()
                posts.reply(tx, 0, row, reply, public=row.kind == "public")
                return Effect(Outcome.HANDLED)
            if word == "join" and row.kind != _PUBLIC and not row.channel:
                game_row = self._game_to_join_by_dm(tx, row, rest)
            else:
                game_row = self._find_game(tx, row, required=True)
            assert game_row is not None
            battle = game_row.phase == "battle"
            deadline = game_row.deadline
            if (
                battle
                and deadline is not None
                and row.sent_at >= deadline
                and word not in HOST_WORDS | {"status", "help", "rules", "board"}
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
                and word not in HOST_WORDS | PLAYER_WORDS
            ):
                # Fetched late (an X poll can lag): it was sent during a turn that
                # has already resolved, and orders count for the turn they were sent in.
                raise Refusal(
                    f"your order was sent before turn {game_row.turn - 1} closed but reached "
                    "me only after it resolved, so it was not counted; send it again for "
                    f"turn {game_row.turn}"
                )
            row.game_id = game_row.id
            if word in HOST_WORDS or word in PLAYER_WORDS:
                # These may change the game through the ORM: load the row into the session.
                assert game_row.id is not None
                loaded = tx.game(game_row.id, lock=True)
                assert loaded is not None
                game_row = loaded
                if word in HOST_WORDS:
                    self._host_command(tx, row, loaded, word, rest)
                else:
                    self._player_command(tx, row, loaded, word)
            else:
                assert isinstance(game_row, GameSnapshot)  # (only `join` finds a GameRow)
                self._order(tx, row, game_row, text)
            return Effect(Outcome.HANDLED, game_row.id)
        except (Refusal, GameError) as error:
            row.outcome = "refused"
            game_id = game_row.id if game_row is not None else (row.game_id or 0)
            if game_row is not None:
                # A refusal about a game is part of that game's history (and its audit).
                row.game_id = game_row.id
            message = error.message if isinstance(error, GameError) else str(error)
            if isinstance(error, WrongChannelError) and row.kind == _PUBLIC:
                # A secret posted in public (a move, a placement): not executed, and
                # taken down where the platform lets the host (rules §4), before the
                # private answer goes out.
                posts.withdraw(tx, game_id or 0, row)
            posts.reply(tx, game_id or 0, row, message, public=False)
            return Effect(Outcome.REFUSED, game_id)

    def _find_game(self, tx: Tx, row: Cause, *, required: bool) -> GameSnapshot | None:
        """The game a message is about, as a snapshot (read-only; see Tx.peek_game_in)."""
        if row.channel:
            game = tx.peek_game_in(row.platform, row.channel)
            if game is not None or row.kind == "public":
                if game is None and required:
                    raise Refusal(
                        "there is no game in this channel: a host starts one with "
                        "`new` (for example `new size=10x10 turn=8h`)"
                    )
                return game
        games = tx.peek_games_of(row.platform, row.user_id)
        if len(games) == 1:
            return games[0]
        if not required:
            return None
        if not games:
            raise Refusal("you are not in a game: send `join` in a game's channel (or `#bst join`)")
        raise Refusal("you are in several games; send this from the game's channel so I know which")

    def _game_to_join_by_dm(self, tx: Tx, row: Cause, rest: str) -> GameRow | GameSnapshot:
        """`join` by DM where a DM belongs to no channel (Discord), rules §7: the game
        named by its number (`join 12`), else the one game open for joining there."""
        number = rest.strip().removeprefix("#")
        if number.isdigit():
            named = tx.game(int(number))
            if named is None or named.platform != row.platform or named.phase == "finished":
                raise Refusal(f"there is no game {number} to join here")
            return named
        if tx.peek_games_of(row.platform, row.user_id):
            found = self._find_game(tx, row, required=True)  # already in one ("already in")
            assert found is not None
            return found
        open_games = tx.games_in_setup(row.platform)
        if len(open_games) == 1:
            return open_games[0]
        if not open_games:
            raise Refusal(
                "no game is open for joining right now: a host starts one with `new` in a "
                "channel, and you send `join` there"
            )
        numbers = ", ".join(str(g.id) for g in open_games[:5])
        raise Refusal(
            f"several games are open for joining ({numbers}{'…' if len(open_games) > 5 else ''}): "
            f"send `join` in the game's channel, or here `join {open_games[0].id}` with its number"
        )

    # --- new -----------------------------------------------------------

    def _new(self, tx: Tx, row: Cause, rest: str) -> GameRow:
        if row.kind != "public" or not row.channel:
            raise Refusal("start a game in a public channel: post `#bst new` there")
        existing = tx.peek_game_in(row.platform, row.channel)
        if existing is not None:
            raise Refusal(
                f"game {existing.id} is already running in this channel; "
                "its host can `end` it first"
            )
        kind = "bst"
        tokens = rest.split()
        if tokens and "=" not in tokens[0]:
            kind = tokens.pop(0).lower()
        options: dict[str, str] = {}
        for token in tokens:
            key, sep, value = token.partition("=")
            if not sep or not key or not value:
                raise Refusal(
                    f"expected options as key=value, such as `new size=10x10 turn=8h`; "
                    f"got {token!r}"
                )
            options[key.lower()] = value
        seed_text = options.pop("seed", "")
        if seed_text and not seed_text.isdigit():
            raise Refusal(f"seed: expected a whole number such as seed=42, got {seed_text!r}")
        options.setdefault("turn", self.default_turn)
        game = get_game(kind)
        state = game.new_game(options)
        canonical = game.options(state)
        turn_seconds = parse_duration(canonical.get("turn", self.default_turn)).total_seconds()
        seed = (
            int(seed_text) if seed_text else zlib.crc32(f"{row.platform}:{row.message_id}".encode())
        )
        now = self.clock.now()
        setup_deadline = canonical.get("setup_deadline", "none")
        deadline = None
        if setup_deadline not in ("", "none"):
            deadline = now + parse_duration(setup_deadline).total_seconds()
        game_row = tx.add_game(
            GameRow(
                kind=game.name,
                platform=row.platform,
                channel=row.channel,
                creator=player_identity(row.platform, row.user_id),
                options=dumps(options),
                seed=seed,
                phase="setup",
                turn=0,
                turn_seconds=turn_seconds,
                deadline=deadline,
                state=dumps(game.encode_state(state)),
                created_at=now,
            )
        )
        assert game_row.id is not None
        row.game_id = game_row.id
        self._remember(game_row.id, game_row.state, state)
        board = game.record_board(state)
        size = f"{board.get('rows')}×{board.get('cols')}" if board else ""
        settings = ", ".join(f"{k} {v}" for k, v in canonical.items() if v not in ("none", ""))
        text = (
            f"{posts.title(game_row)} is open on a board of {size} ({settings}). "
            "Captains: send `join` here, then your fleet by DM, e.g. "
            "`sub: A2, carrier: C1-C5` or `random`. "
            f"The host starts the battle with `start`."
        )
        if deadline is not None:
            text += f" Setup closes {format_utc(deadline)}."
        posts.reply(tx, game_row.id, row, text, public=True)
        return game_row

    # --- host commands -------------------------------------------------

    def _is_host(self, row: Cause, game_row: GameRow) -> bool:
        who = player_identity(row.platform, row.user_id)
        return who == game_row.creator or who in self.admins or row.is_channel_admin

    def _host_command(self, tx: Tx, row: Cause, game_row: GameRow, word: str, rest: str) -> None:
        if not self._is_host(row, game_row):
            raise Refusal(
                f"only the game's host can `{word}`: the captain who made the game, or an admin"
            )
        game = get_game(game_row.kind)
        state = self._state(game, game_row)
        now = self.clock.now()
        assert game_row.id is not None
        if word == "start":
            if game_row.phase != "setup":
                raise Refusal("the battle has already started")
            posts.start_battle(tx, game, game_row, state, now=now, cause=row)
            return
        if game_row.phase == "finished":
            raise Refusal("this game has finished")
        if word == "pause":
            if game_row.deadline is None:
                raise Refusal("nothing to pause: no deadline is running")
            game_row.paused_remaining = max(0.0, game_row.deadline - now)
            game_row.deadline = None
            tx.save(game_row)
            left = humanize(parse_duration(f"{int(game_row.paused_remaining) or 1}s"))
            posts.reply(
                tx,
                game_row.id,
                row,
                f"Game {game_row.id} paused with {left} left on the clock. `resume` to go on.",
                public=True,
            )
            return
        if word == "resume":
            if game_row.paused_remaining is None:
                raise Refusal("the game is not paused")
            game_row.deadline = now + game_row.paused_remaining
            game_row.paused_remaining = None
            tx.save(game_row)
            posts.reply(
                tx,
                game_row.id,
                row,
                f"Game {game_row.id} resumed: turn {game_row.turn} closes {format_utc(game_row.deadline)}.",
                public=True,
            )
            return
        if word == "extend":
            try:
                extra = parse_duration(rest).total_seconds()
            except GameError:
                raise Refusal("expected how long to extend by, such as `extend 2h`") from None
            if game_row.paused_remaining is not None:
                game_row.paused_remaining += extra
                tx.save(game_row)
                posts.reply(
                    tx,
                    game_row.id,
                    row,
                    f"Extended by {format_duration(parse_duration(rest))} (the game is paused).",
                    public=True,
                )
                return
            if game_row.deadline is None:
                raise Refusal("nothing to extend: no deadline is running")
            game_row.deadline += extra
            tx.save(game_row)
            posts.reply(
                tx,
                game_row.id,
                row,
                f"Turn {game_row.turn} extended: it now closes {format_utc(game_row.deadline)}.",
                public=True,
            )
            return
        if word == "kick":
            target = self._find_player(tx, game_row, rest)
            resolution = game.remove(state, target.key)
            posts.apply_change(
                tx,
                game,
                game_row,
                resolution,
                now=now,
                cause=row,
                headline=f"{target.name} was removed from the game by the host.",
            )
            return
        if word == "end":
            resolution = game.finish(state)
            posts.apply_change(
                tx,
                game,
                game_row,
                resolution,
                now=now,
                cause=row,
                headline=f"The host ended game {game_row.id}.",
            )
            return

    def _find_player(self, tx: Tx, game_row: GameRow, rest: str) -> PlayerRow:
        assert game_row.id is not None
        wanted = rest.strip()
        mention = re.fullmatch(r"<@!?(\d+)>", wanted)
        players = tx.players(game_row.id)
        for player in players:
            if mention and player.user_id == mention.group(1):
                return player
            if not mention and player.name.lower().lstrip("@") == wanted.lower().lstrip("@"):
                return player
        if not wanted:
            raise Refusal("expected who to kick, such as `kick @carol`")
        raise Refusal(f"no captain called {wanted!r} in this game")

    # --- player commands -----------------------------------------------

    def _player_command(self, tx: Tx, row: Cause, game_row: GameRow, word: str) -> None:
        game = get_game(game_row.kind)
        state = self._state(game, game_row)
        assert game_row.id is not None
        public = row.kind == "public"
        player = tx.player_by_user(game_row.id, row.platform, row.user_id)
        if word == "help":
            posts.reply(tx, game_row.id, row, game.help_text(), public=public)
        elif word == "rules":
            posts.reply(tx, game_row.id, row, game.rules_text(), public=public)
        elif word == "status":
            posts.reply(
                tx,
                game_row.id,
                row,
                posts.status_text(game, game_row, state, self.clock.now()),
                public=public,
            )
        elif word == "join":
            if player is not None:
                # Back after leaving during setup (the game decides; else "already in").
                name = player.name
                state = game.join(state, PlayerRef(player.key, name))
            else:
                players = tx.players(game_row.id)
                key = f"p{len(players) + 1}"
                name = _unique_name(row.user_name, {p.name for p in players})
                state = game.join(state, PlayerRef(key, name))
                tx.add_player(
                    PlayerRow(
                        game_id=game_row.id,
                        key=key,
                        platform=row.platform,
                        user_id=row.user_id,
                        name=name,
                        avatar_url=row.avatar_url,
                        join_order=len(players) + 1,
                    )
                )
            game_row.state = dumps(game.encode_state(state))
            tx.save(game_row)
            self._remember(game_row.id, game_row.state, state)
            count = len(game.to_act(state))  # the captains in (not those who left)
            if game_row.phase == "setup":
                text = (
                    f"{name} joined game {game_row.id} ({count} captain{'s' if count != 1 else ''}). "
                    "Send your fleet to me by DM, e.g. `sub: A2, carrier: C1-C5`, "
                    "`cruiser: B2-B4, cruiser: E5-G5`, or `random`."
                )
            else:
                text = f"{name} joined game {game_row.id}: placed at random when turn {game_row.turn} closes."
            posts.reply(tx, game_row.id, row, text, public=public)
        elif word == "leave":
            if player is None:
                raise Refusal("you are not in this game")
            resolution = game.remove(state, player.key)
            posts.apply_change(
                tx,
                game,
                game_row,
                resolution,
                now=self.clock.now(),
                cause=row,
                headline=f"{player.name} left the game.",
            )
        elif word == "board":
            if player is None:
                raise Refusal("you are not in this game: send `join` to play")
            posts.send_board(tx, game, game_row, state, player, cause=row, now=self.clock.now())

    # --- orders ----------------------------------------------------------

    def _order(self, tx: Tx, row: Cause, game_row: GameSnapshot, text: str) -> None:
        """An order: ``game_row`` is a snapshot, written through Tx.set_game_state."""
        game = get_game(game_row.kind)
        game_id = game_row.id  # (each read of a row's field costs: read them once)
        assert game_id is not None
        player = tx.peek_player(game_id, row.platform, row.user_id)
        order = game.parse(text)
        if player is None:
            raise Refusal("you are not in this game: send `join` to play")
        player_key = player.key
        state = self._state(game, game_row)
        channel = Channel.PUBLIC if row.kind == _PUBLIC else Channel.PRIVATE
        rng = seeded_on_first_draw(game_row.seed, "accept", row.platform, row.message_id)
        accepted = game.accept(state, player_key, order, channel, rng)
        if accepted.state is not state:
            game_row.state = dumps(game.encode_state(accepted.state))
            tx.set_game_state(game_id, game_row.state)
            self._remember(game_id, game_row.state, accepted.state)
        if accepted.notices:
            names = {p.key: p for p in tx.peek_players(game_id)}
            for index, notice in enumerate(accepted.notices):
                target = names.get(notice.to) if notice.to else None
                if notice.to is None:
                    posts.reply(tx, game_id, row, notice.text, public=True, kind_suffix=f"n{index}")
                elif target is not None and target.key == player_key:
                    posts.reply(
                        tx, game_id, row, notice.text, public=False, kind_suffix=f"n{index}"
                    )
                elif target is not None:
                    posts.notify(tx, game_row, target, notice.text, kind=f"notice:{row.id}:{index}")
        standing = accepted.standing
        if standing is None:
            return
        turn = game_row.turn
        previous = tx.new_order(
            game_id=game_id,
            player_key=player_key,
            turn=turn,
            order=dumps(game.encode_order(standing)),
            text=row.text,
            inbound_id=row.id or 0,
            sent_at=row.sent_at,
        )
        now_text = game.describe(standing)
        ack = f"Turn {turn}: {now_text}"
        if now_text == "pass":
            ack = f"Turn {turn}: no action (pass)"
        if previous is not None:
            ack += f" (replaces: {self._describe_stored(game, previous)})"
        posts.reply(tx, game_id, row, ack, public=False)


def _unique_name(name: str, taken: set[str]) -> str:
    name = re.sub(r"\s+", " ", name).strip()[:40] or "captain"
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"


def order_records(rows: dict[str, OrderRow]) -> list[dict[str, Any]]:
    return [{"player": key, **loads(r.order)} for key, r in sorted(rows.items())]
