"""What anyone may ask of a game: open one (``new``), join, leave, see the status,
their own board, the help and the rules — the same words for every game, answered
with the game's own sentences (``Game.opening``, ``Game.welcome``)."""

from __future__ import annotations

import re
import zlib
from datetime import timedelta
from typing import Any

from bot.games.base import ArgKind, GameError, GamePhase, PlayerRef
from bot.games.catalog import game_of_tag, games, get_game, tag_pattern
from bot.games.duration import format_duration, parse_duration
from bot.host.commands import links, substitutes
from bot.host.commands.context import CommandContext
from bot.host.commands.me import personal_time
from bot.host.commands.new_options import REACH, ROBOTS, SEED, STORED, host_options
from bot.host.commands.routing import (
    Refusal,
    bridged_to,
    player_identity,
    row_community,
    tagged_kind,
)
from bot.host.commands.verb_call import VerbCall
from bot.host.messages import Choice
from bot.host.outbox import posts
from bot.host.outbox.posts import Cause
from bot.host.play import ending, journal, lifecycle, robots, seeds
from bot.host.runtime.clock import format_utc
from bot.store import NewGame, NewPlayer, Tx, dumps, records
from bot.store.settings import accounts_of

# Where ``new`` is sent, as the refusal elsewhere says (the dispatch's, see bot.host.commands.verbs).
OPENED_IN_PUBLIC = "start a game in a public channel: post `{tag} new` there"


def new(commands: CommandContext, tx: Tx, row: Cause, rest: str) -> records.Game:
    """``new [KIND] [key=value …]``: open a game in a public channel; its maker hosts it."""
    tokens = rest.split()
    game = get_game(_kind_to_open(commands, tx, row, tokens))
    options = option_pairs(game, tokens, f"new {game.name}")
    check_clocks(commands, game, options)
    _check_quotas(commands, tx, row)
    # The host's own options, read with their table; the rest are the game's.
    table = host_options(game)
    host = table.parse({key: options.pop(key) for key in table.keys if key in options})
    kept = {key: host[key] for key in STORED if host[key]}
    seed_text = host[SEED]
    given_seed = int(seed_text) if seed_text else None
    if any(arg.name == "turn" for arg in game.option_args):
        # The host's configured turn length, for games that have turns of a set length.
        options.setdefault("turn", commands.default_turn)
    rules_options = dict(options)  # (for the journal: exactly what the rules were given)
    state = game.rules.new_game(options)
    options.update(kept)
    seed = (
        given_seed
        if given_seed is not None
        else zlib.crc32(f"{row.platform}:{row.message_id}".encode())
    )
    # Committed luck (bot.host.play.seeds) for a live game without seed=: a fresh secret, its
    # SHA-256 published below before anyone joins, the secret revealed in the record.
    secret = commands.draw_secret() if commands.draw_secret and not seed_text else ""
    now = commands.clock.now()
    timers = lifecycle.first_timers(game, state, now=now)
    new_game = NewGame(
        kind=game.name,
        platform=row.platform,
        channel=row.channel,
        creator=player_identity(row.platform, row.user_id),
        # The options as given (the seed too, when given: records show it then).
        options=dumps({**options, "seed": seed_text} if seed_text else options),
        seed=seed,
        secret=secret,
        phase=GamePhase.SETUP,
        turn=0,
        state=dumps(game.codec.encode_state(state)),
        created_at=now,
        community=row_community(row),
        open_to_all=host[REACH],
        **timers.values(),
    )
    game_row = tx.add_game(new_game)
    row.game_id = game_row.id
    journal.note(tx, game_row.id, "new", options=rules_options)
    if seated := host[ROBOTS]:
        count, _, level = seated.partition(":")
        state, names = robots.seat_many(tx, game, game_row, state, int(count), level)
        game_row = lifecycle.store_state(tx, game, game_row, state, now=now)
    commands.states.remember(game_row.id, game_row.state_digest, state)
    _announce(commands, tx, row, game, game_row, state, names if seated else None, secret, now)
    return game_row


def _kind_to_open(commands: CommandContext, tx: Tx, row: Cause, tokens: list[str]) -> str:
    """The kind of game ``new`` opens (taken off ``tokens``), once the channel is one a game
    can open in."""
    kind = tagged_kind(row.text) or commands.default_game
    if tokens and "=" not in tokens[0]:
        kind = tokens.pop(0).lower()
    known = [g.name for g in games()]
    if not kind:
        raise Refusal(f"say which game to open: `new KIND`, with KIND one of {', '.join(known)}")
    if row.kind != "public" or not row.channel:
        tag = get_game(kind).tag if kind in known else "#TAG"
        raise Refusal(OPENED_IN_PUBLIC.format(tag=tag))
    existing = tx.game_in(row.platform, row.channel) or bridged_to(tx, row)
    if existing is not None:
        raise Refusal(
            f"game {existing.id} is already running in this channel; its host can `end` it first"
        )
    return kind


def _announce(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game: Any,
    game_row: records.Game,
    state: Any,
    names: list[str] | None,
    secret: str,
    now: float,
) -> None:
    """The new game's opening post (and its room, where the platform opens one)."""
    text = f"{posts.title(game_row)} {game.words.opening(state)}"
    if names is not None:
        text += f" Robots seated: {', '.join(names)}."
    if game_row.deadline is not None:
        text += f" Setup closes {format_utc(game_row.deadline)}."
    committed = f"Luck committed: SHA-256 {seeds.commitment(secret)}." if secret else ""
    if committed:
        text += f" {committed}"
    if commands.web_base_url and links.listed(game_row.platform, game_row.open_to_all):
        text += f" Follow it on {links.game_page(commands.web_base_url, game_row.id)}"
    join = (Choice("Join", f"{game.tag} join"),)
    shown = posts.extras(choices=join, keep=[committed])
    posts.reply(tx, game_row.id, row, text, public=True, extra=shown)
    if row.platform in commands.room_platforms:
        # The game then plays in a room of its own (a thread), which it opens with the same.
        posts.open_room(tx, game_row, text, now=now, choices=join)


def option_pairs(game: Any, tokens: list[str], command: str) -> dict[str, str]:
    """``key=value`` words as options (keys lower-cased; the game checks them)."""
    options: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            example = " ".join(f"{a.name}=…" for a in game.option_args[:2])
            raise Refusal(
                f"expected options as key=value, such as `{command} {example}`; got {token!r}"
            )
        options[key.lower()] = value
    return options


def _check_quotas(commands: CommandContext, tx: Tx, row: Cause) -> None:
    """Games in setup or battle: at most ``open_games_per_channel`` in one channel (each
    opens a thread there), and ``open_games_per_host`` hosted by one person in one
    community (a server; the whole platform where there is none)."""
    limits = commands.limits
    if limits.open_games_per_channel:
        running = tx.count_open_games(row.platform, channel=row.channel)
        if running >= limits.open_games_per_channel:
            raise Refusal(
                f"this channel has {running} games running, the most it may have here "
                f"({limits.open_games_per_channel}): join one of them, or open yours when "
                "one ends"
            )
    if limits.open_games_per_host:
        mine = tx.count_open_games(
            row.platform,
            creator=player_identity(row.platform, row.user_id),
            community=row_community(row),
        )
        if mine >= limits.open_games_per_host:
            raise Refusal(
                f"you host {mine} games that are still running here, the most one person "
                f"may ({limits.open_games_per_host}): `end` one, or let one finish, first"
            )


def check_clocks(commands: CommandContext, game: Any, options: dict[str, str]) -> None:
    """On a live host no clock may be shorter than ``limits.min_duration_s``: a game's
    timer posts once per length (a report, a map, a notice), so this bounds its posts
    per hour. The game checks its own bounds (after this) and what a value means."""
    shortest = commands.limits.min_duration_s
    if shortest <= 0:
        return
    for arg in game.option_args:
        value = options.get(arg.name)
        if arg.kind is not ArgKind.DURATION or value is None:
            continue
        try:
            seconds = parse_duration(value).total_seconds()
        except (GameError, OverflowError, ValueError):
            continue  # not a duration ("none"), or past any bound: the game answers that
        if seconds < shortest:
            least = format_duration(timedelta(seconds=shortest))
            raise Refusal(
                f"{arg.name}: at least {least} on this host (its shortest clock), such as "
                f"`new {game.name} {arg.name}={least}`; got {value!r}"
            )


def my_games(commands: CommandContext, tx: Tx, row: Cause) -> None:
    """``games``: the sender's live games on this platform, each with its clock and whether
    their order is in (answered privately)."""
    # The person's games, from every account they linked (``me link``): which account
    # plays each, so its line says whether their order is in.
    playing: dict[int, tuple[str, str]] = {}
    found = []
    for account in accounts_of(tx, row.platform, row.user_id):
        for game_row in tx.games_of(*account):
            if game_row.id not in playing:
                playing[game_row.id] = account
                found.append(game_row)
    found.sort(key=lambda g: g.id)
    if not found:
        posts.reply(
            tx, 0, row, "You are in no game now: send `join` in a game's channel.", public=False
        )
        return
    lines = ["Your games:"]
    yours = personal_time(tx, row.platform, row.user_id)  # (a private answer: their zone)
    for game_row in found:
        game = get_game(game_row.kind)
        state = commands.states.of(game, game_row)
        account = playing[game_row.id]
        player = tx.player(game_row.id, *account)
        # (A channel link works only on its own platform: elsewhere, the platform's name.)
        here = account[0] == row.platform
        where = posts.where_token(game_row.channel) if here else ""
        line = f"- {posts.title(game_row)}{where}: {game_row.phase}"
        if not here:
            line += f" (on {account[0]})"
        if game_row.phase == GamePhase.RUNNING:
            line += f", turn {game_row.turn}"
        if game_row.deadline is not None:
            line += f", closes {yours.format(game_row.deadline)}"
        if game_row.phase == GamePhase.RUNNING and player is not None:
            if player.key not in game.rules.to_act(state):
                line += "; nothing for you to do"
            elif player.key in tx.standing_orders(game_row.id, game_row.turn):
                line += "; your order is in"
            else:
                line += "; no order from you yet"  # (plain text: every platform shows it)
        lines.append(line)
    posts.reply(tx, 0, row, "\n".join(lines), public=False)


def outside_help(
    tx: Tx, row: Cause, verbs_listed: list[str], *, rules: bool, private: bool = False
) -> None:
    """``help`` (``rules``: ``rules``) where no game is: a tagged word asks that game; else
    the list of games and then ``verbs_listed``, the host's verbs as its table lists them.
    ``private``: answered privately even when asked in public."""
    kind = tagged_kind(row.text)
    if kind is not None:
        game = get_game(kind)
        reply = game.words.rules_text() if rules else game.words.help_text()
    else:
        lines = ["I host these games (start one in a channel with `new KIND`):"]
        lines += [f"- {g.name}: {g.title} — tag {g.tag}" for g in games()]
        example = games()[0].tag if games() else "#TAG"
        lines.append(f"Send `help` or `rules` with a game's tag for more, e.g. `{example} help`.")
        lines.append(
            "A seat a game's host offered you (or asked you to hand on): answer me by DM "
            f"`{substitutes.VERB} yes 12` or `{substitutes.VERB} no 12` (12: the game's number)."
        )
        lines += verbs_listed
        reply = "\n".join(lines)
    posts.reply(tx, 0, row, reply, public=row.kind == "public" and not private)


def _answers_in_public(call: VerbCall) -> bool:
    """Whether a question (``help``, ``rules``, ``status``) is answered where it was asked:
    with private answers configured, one person's question is answered to them alone."""
    return call.row.kind == "public" and not call.commands.limits.private_answers


def _asker(call: VerbCall) -> records.Player | None:
    return call.tx.player(call.game_id, call.row.platform, call.row.user_id)


def help_verb(call: VerbCall) -> None:
    """``help``: how to play the game."""
    posts.reply(
        call.tx, call.game_id, call.row, call.game.words.help_text(),
        public=_answers_in_public(call), every_room=False,
    )  # fmt: skip


def rules_verb(call: VerbCall) -> None:
    """``rules``: the game's rules in short."""
    posts.reply(
        call.tx, call.game_id, call.row, call.game.words.rules_text(),
        public=_answers_in_public(call), every_room=False,
    )  # fmt: skip


def status_verb(call: VerbCall) -> None:
    """``status``: phase, turn, clocks and who still plays (a card where the platform shows
    one, with the latest public picture)."""
    tx, game, game_row, state, row = call.tx, call.game, call.game_row, call.state, call.row
    public = _answers_in_public(call)
    players = tx.players(call.game_id)
    in_ = set(tx.standing_orders(call.game_id, game_row.turn))
    card = posts.status_card(game, game_row, state, players, in_)
    # Where the card shows, the latest public picture goes in it (once there is one).
    shows = row.platform in call.commands.card_platforms and game_row.phase != GamePhase.SETUP
    stored = tx.last_turn(call.game_id) if shows else None
    render = None
    if stored is not None:
        extra = {"step": stored.step} if stored.step else {}
        render = posts.render_spec("public_map", game_row, stored.number, call.now, **extra)
    posts.reply(
        tx,
        call.game_id,
        row,
        posts.status_text(
            game,
            game_row,
            state,
            call.now,
            # Answered privately: in the asker's zone (in public, UTC for everyone).
            format_utc if public else personal_time(tx, row.platform, row.user_id).format,
        ),
        public=public,
        every_room=False,  # (the asker's room: each room can ask its own)
        render=render,
        extra=posts.extras(card=card, board=game.words.text_board(state, None)),
    )


def join_verb(call: VerbCall) -> None:
    """``join``: a seat in the game (see _join)."""
    _refuse_another_games_tag(call.row, call.game_row, call.game)
    _join(
        call.commands, call.tx, call.row, call.game_row, call.game, call.state, _asker(call),
        public=call.row.kind == "public", now=call.now,
    )  # fmt: skip


def leave_verb(call: VerbCall) -> None:
    """``leave``: the player leaves the game (confirmed first where a person types)."""
    game, game_row, tx, row, now = call.game, call.game_row, call.tx, call.row, call.now
    player = _asker(call)
    if player is None:
        raise Refusal("you are not in this game: `leave` is for its players")
    if not game.players_may_leave:
        raise Refusal(
            f"there is no `leave` in {game.title}: a game runs to its end "
            "(its host can remove a player with `kick`)"
        )
    refuse_while_paused(game, game_row, "leave")
    if _asks_to_confirm_leaving(call.commands, tx, row, game_row, call.rest):
        return
    left = game.rules.remove(call.state, player.key)
    journal.note(tx, call.game_id, "remove", player=player.key, cause="leave", at=now)
    _change_and_say(
        tx, game, game_row, call.state, left, cause="leave",
        row=row, now=now, headline=f"{player.name} left the game.",
    )  # fmt: skip
    if row.platform in call.commands.room_platforms:
        posts.room_member(tx, game_row, row, player.user_id, present=False, now=now)


def board_verb(call: VerbCall) -> None:
    """``board``: the player's private board again (and their own page's link)."""
    tx, game_row, row, now = call.tx, call.game_row, call.row, call.now
    player = _asker(call)
    if player is None:
        substitutes.refuse_the_replaced(tx, row, call.game_id)
        raise Refusal("you are not in this game: send `join` to play")
    last = None
    if game_row.phase != GamePhase.SETUP:
        stored = tx.last_turn(call.game_id)
        if stored is not None:
            last = (stored.number, stored.step)
    posts.send_board(tx, call.game, game_row, call.state, player, cause=row, now=now, last=last)
    if call.commands.web_base_url:
        url = links.own_page(tx, call.commands.web_base_url, call.game_id, player.key, now=now)
        posts.reply(tx, call.game_id, row, links.own_page_line(url), public=False,
                    kind_suffix="link")  # fmt: skip


def link_verb(call: VerbCall) -> None:
    """``link``: see _link."""
    _link(call.commands, call.tx, call.row, call.game_row, _asker(call), call.rest, now=call.now)


def _asks_to_confirm_leaving(
    commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game, rest: str
) -> bool:
    """Where a person types (not a script: its `leave` acts at once, as the contracts
    say), leaving a battle, which cannot be undone, is confirmed first: `leave` is
    answered with what it will do, `leave yes` leaves. Whether it asked."""
    if game_row.phase != GamePhase.RUNNING or row.platform not in commands.confirm_platforms:
        return False
    answer = rest.strip().lower()
    if answer == "yes":
        return False
    if answer:
        raise Refusal(f"expected `leave yes` to leave the game, got `leave {rest.strip()[:40]}`")
    ends = " With two players, leaving ends it." if len(tx.players(game_row.id)) == 2 else ""
    posts.reply(
        tx,
        game_row.id,
        row,
        f"Leaving game {game_row.id} is final: you cannot join it again.{ends} "
        "Send `leave yes` to leave; nothing changes until you do.",
        public=False,
        extra=posts.extras(
            choices=[Choice("Leave", f"{get_game(game_row.kind).tag} leave yes", private=True)]
        ),
    )
    return True


def _link(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game_row: records.Game,
    player: records.Player | None,
    rest: str,
    *,
    now: float,
) -> None:
    """``link``: the player's private link to their own page, by DM; ``link revoke``: a
    new one, the old one no longer works."""
    if player is None:
        raise Refusal("you are not in this game: send `join` to play")
    if not commands.web_base_url:
        raise Refusal("this bot has no web page, so there is no link to give")
    choice = rest.strip().lower()
    if choice not in ("", "revoke"):
        raise Refusal(f"expected `link` or `link revoke`, got `link {rest.strip()[:40]}`")
    if choice == "revoke":
        url = links.renewed_page(tx, commands.web_base_url, game_row.id, player.key, now=now)
        text = "Your old link no longer works. " + links.own_page_line(url)
    else:
        url = links.own_page(tx, commands.web_base_url, game_row.id, player.key, now=now)
        text = links.own_page_line(url)
    posts.reply(tx, game_row.id, row, text, public=False)


def _refuse_another_games_tag(row: Cause, game_row: records.Game, game: Any) -> None:
    """A join tagged for one kind of game where a game of another kind plays: not a join of
    that game."""
    found = tag_pattern().search(row.text)
    if found is None:
        return
    named = game_of_tag(found.group(2))
    if named is not None and named.name != game.name:
        raise Refusal(
            f"game {game_row.id} here is {game.title} ({game.tag}), not {named.title}: "
            f"send `{game.tag} join` to join it"
        )


def _join(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game_row: records.Game,
    game: Any,
    state: Any,
    player: records.Player | None,
    *,
    public: bool,
    now: float,
) -> None:
    if player is not None:
        # Back after leaving during setup (the game decides; else "already in").
        key = player.key
        state = game.rules.join(state, PlayerRef(key, player.name))
        journal.note(tx, game_row.id, "join", player=key, name=player.name)
    else:
        _refuse_a_second_seat(tx, row, game_row)
        # (Not every player row: a join costs the same in a game of any size.)
        seat = tx.seats_taken(game_row.id) + 1
        key = f"p{seat}"
        wanted = _name_of(row.user_name)
        name = _unique_name(wanted, tx.names_like(game_row.id, wanted))
        state = game.rules.join(state, PlayerRef(key, name))
        journal.note(tx, game_row.id, "join", player=key, name=name)
        tx.add_player(
            NewPlayer(
                game_id=game_row.id,
                key=key,
                platform=row.platform,
                user_id=row.user_id,
                name=name,
                avatar_url=row.avatar_url,
                join_order=seat,
                # Mixed into the game's luck at its start (bot.host.play.seeds.mixed_luck).
                nonce=f"{row.platform}:{row.message_id}"
                if game_row.phase == GamePhase.SETUP
                else "",
            )
        )
    game_row = lifecycle.store_state(tx, game, game_row, state, now=now)
    commands.states.remember(game_row.id, game_row.state_digest, state)
    quick = posts.choices_of(game, game.words.quick_orders(state, key), private=True)
    posts.reply(
        tx,
        game_row.id,
        row,
        game.words.welcome(state, key, game_row.id),
        public=public,
        every_room=False,
        extra=posts.extras(choices=quick),
    )
    if commands.web_base_url:
        url = links.own_page(tx, commands.web_base_url, game_row.id, key, now=now)
        posts.reply(tx, game_row.id, row, links.own_page_line(url), public=False,
                    kind_suffix="link")  # fmt: skip
    if row.platform in commands.room_platforms:
        # Into the game's room (a Discord thread): its news then shows them unread.
        posts.room_member(tx, game_row, row, row.user_id, present=True, now=now)


def _refuse_a_second_seat(tx: Tx, row: Cause, game_row: records.Game) -> None:
    """One person, one seat: refused when another account they linked plays the game."""
    for platform, user_id in accounts_of(tx, row.platform, row.user_id)[1:]:
        seated = tx.player(game_row.id, platform, user_id)
        if seated is not None:
            raise Refusal(
                f"you already play in game {game_row.id} as {seated.name}, from your linked "
                f"account on {platform}: one person has one seat; send your orders from "
                "there (or `me unlink` this account to play it as someone else)"
            )


def _change_and_say(
    tx: Tx,
    game: Any,
    game_row: records.Game,
    state: Any,
    resolution: Any,
    *,
    cause: str,
    row: Cause,
    now: float,
    headline: str,
    with_result: bool = True,
) -> None:
    """A change between deadlines (leave, kick, end), said in public with what the
    public may know of it (``with_result``: and how the game ended, if it did)."""
    ended_turn = game_row.turn
    game_row, replay_turn = lifecycle.change(
        tx, game, game_row, state, resolution, cause=cause, now=now
    )
    players = {p.key: p for p in tx.players(game_row.id)}
    names = posts.names_of(players.values())
    if game_row.turn == ended_turn:
        # (A change that ended the turn posted its notices with the turn's report.)
        posts.deliver_notices(
            tx, game, game_row, resolution.state, resolution.notices, cause=row,
            sender=next((k for k, p in players.items() if p.user_id == row.user_id), ""),
            players=players,
        )  # fmt: skip
    lines = [headline, *game.words.public_report(resolution.events, names)]
    result = game.words.result(resolution.state, names) if with_result else ""
    if result:
        lines.append(result)
    elif (
        with_result
        and game_row.turn == ended_turn
        and game_row.phase == GamePhase.RUNNING
        and not game.simultaneous
    ):
        # In a game played in turn, say whose move it is now, and until when.
        lines.append(posts.deadlines_text(game_row))
    text = " ".join(line for line in lines if line)
    revealed = lifecycle.luck_revealed(game_row) if game_row.phase == GamePhase.FINISHED else ""
    text += revealed
    posts.reply(tx, game_row.id, row, text, public=True, extra=posts.extras(keep=[revealed]))
    if replay_turn is not None:
        # The replay ends on the game's final state (stored on the game row).
        ending.post_end(tx, game, game_row, replay_turn, now)


def refuse_while_paused(game: Any, game_row: records.Game, word: str) -> None:
    """In a game played in turn, nothing changes hands while its host has paused it."""
    if game_row.paused_remaining is not None and not game.simultaneous:
        raise Refusal(f"the game is paused: `{word}` waits until its host resumes it")


def _name_of(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip()[:40] or "player"


def _unique_name(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"


change_and_say = _change_and_say
