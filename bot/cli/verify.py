"""``bst verify RECORD.json [--receipt HEX]``: check a game from its record alone
(README, "Fair play") — its committed luck, its order receipts, then the whole game
made again through the rules from its options, its luck and its journal of orders,
every event compared — saying what it checked and naming the first thing that does
not match: the turn, the player and what differs."""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.games.base import RecordContext
from bot.games.catalog import get_game
from bot.host.play.journal import JOURNAL_FORMAT, Replayed, ReplayError, replay
from bot.host.play.receipts import SALT_BYTES, merkle_paths, merkle_root, path_root, receipt
from bot.host.play.seeds import LUCK_PROCEDURE, SECRET_BYTES, luck_rng, mixed_luck, seeded


class Mismatch(Exception):
    """The first thing in a record that does not check out (the message names it)."""


class BadRecord(Exception):
    """A file that is not a game record bst can read (the message says what is wrong):
    told apart from a mismatch, which is a record that reads but does not check out."""


MAX_RECORD_BYTES = 256 * 1024 * 1024
"""The largest record read: a crowd's game of 100,000 captains writes some tens of MB;
anything larger is refused before it is read, so a hostile file costs bounded memory."""

MAX_DEPTH = 32
"""The deepest nesting of lists and objects a record may have (a record's deepest part,
an order in a receipt or a journal entry's draw, is about 6 deep)."""


def read_record(path: str | Path) -> dict[str, Any]:
    """The record in the file at ``path``, or BadRecord saying what is wrong with it: too
    large, not UTF-8 JSON, nested too deeply, not an object."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise BadRecord(
                f"{size:,} bytes; a record bst verifies is at most {MAX_RECORD_BYTES:,} bytes"
            )
        with path.open("rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise BadRecord(f"cannot be read: {error.strerror or error}") from None
    if len(raw) > MAX_RECORD_BYTES:  # it grew while read (a pipe, a file being written)
        raise BadRecord(f"more than {MAX_RECORD_BYTES:,} bytes")
    _check_depth(raw)
    try:
        record = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadRecord(
            f"expected a game record (JSON), such as bst export writes: {error}"
        ) from None
    if not isinstance(record, dict):
        raise BadRecord(f"expected a game record (a JSON object), got {_kind(record)}")
    return record


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def _check_depth(raw: bytes) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` before parsing (the parser and every
    comparison after it recurse), over the brackets outside strings."""
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b"", raw)):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise BadRecord(
                    f"nested more than {MAX_DEPTH} deep; a game record is a few levels deep"
                )
        else:
            depth -= 1


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a text", bool: "true or false"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


def _hex(value: Any, size: int, what: str) -> bytes:
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != size:
        raise Mismatch(f"{what}: expected {size} bytes of hex, got {value!r}")
    return raw


def verify(record: dict[str, Any], say: Callable[[str], None], wanted: str = "") -> None:
    """Check ``record``, telling ``say`` each thing checked; raise Mismatch at the first
    that fails, BadRecord when it is not a record bst can read. ``wanted``: a player's
    receipt (or its first 8+ hex digits) to find."""
    _check_shape(record)
    try:
        revealed = _check_luck(record, say, wanted)
        made = _check_replay(record, say)
        if made is not None and revealed:
            _check_receipts_stood(record, made, say)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError, OverflowError) as error:
        # A part of a kind the shape check does not know: still a record bst cannot read,
        # not a mismatch (which is a record that reads and does not check out).
        raise BadRecord(
            f"the record does not read as a game record ({type(error).__name__}: "
            f"{str(error)[:200]})"
        ) from None
    except RecursionError:
        raise BadRecord("the record is nested too deeply to read") from None


# ------------------------------------------------------------ the record's shape

_Kind = type | tuple[type, ...]
_NUMBER = (int, float)


def _check_shape(record: Any) -> None:
    """The parts ``verify`` reads, each of the kind a record has, or BadRecord naming the
    first that is not (before anything is compared: a wrong kind is not a mismatch)."""
    _expect(record, dict, "the record")
    for key, kind in (("game", dict), ("players", list), ("turns", list), ("luck", dict)):
        if record.get(key) is not None:
            _expect(record[key], kind, key)
    for index, item in enumerate(record.get("players") or []):
        _expect(item, dict, f"players[{index}]")
    for index, item in enumerate(record.get("turns") or []):
        _expect(item, dict, f"turns[{index}]")
        for part in ("orders", "events"):
            if item.get(part) is not None:
                _expect(item[part], list, f"turns[{index}].{part}")
    game = record.get("game") or {}
    _fields(game, "game", {"kind": str, "phase": str, "options": dict, "id": int})
    luck = record.get("luck")
    if luck is not None:
        _fields(
            luck,
            "luck",
            {"procedure": str, "secret": str, "commitment": str, "key": str, "game": int,
             "nonces": list, "receipts": list, "roots": dict},
        )  # fmt: skip
        for index, entry in enumerate(luck.get("receipts") or []):
            where = f"luck.receipts[{index}]"
            _expect(entry, dict, where)
            _fields(entry, where, {"turn": int, "player": str, "salt": str, "receipt": str})
            if entry.get("order") is not None:
                _expect(entry["order"], dict, f"{where}.order")
        for turn, root in (luck.get("roots") or {}).items():
            if not turn.isdigit():
                raise BadRecord(f"luck.roots: expected turn numbers as keys, got {turn!r}")
            _expect(root, str, f"luck.roots.{turn}")
    section = record.get("replay")
    if section is None:
        return
    _expect(section, dict, "replay")
    _fields(section, "replay", {"format": str, "journal": list, "deadlines": dict, "seed": int})
    for key, deadline in (section.get("deadlines") or {}).items():
        _expect(deadline, str, f"replay.deadlines.{key}")
    kinds: dict[str, _Kind] = {
        "do": str, "player": str, "name": str, "text": str, "channel": str, "draw": list,
        "options": dict, "timer": str, "cause": str, "at": _NUMBER,
    }  # fmt: skip
    for index, entry in enumerate(section.get("journal") or []):
        where = f"replay.journal[{index}]"
        _expect(entry, dict, where)
        _fields(entry, where, kinds)
        if "do" not in entry:
            raise BadRecord(f"{where}: expected a call (`do`), got none")
        at = entry.get("at")
        if at is not None and not math.isfinite(at):
            raise BadRecord(f"{where}.at: expected a moment (epoch seconds), got {at!r}")
        for part in entry.get("draw") or []:
            _expect(part, (str, int), f"{where}.draw")
        for value in (entry.get("options") or {}).values():
            _expect(value, (str, int), f"{where}.options")
        if entry.get("first") is not None:
            _expect(entry["first"], str, f"{where}.first")


def _fields(part: dict[str, Any], where: str, kinds: dict[str, _Kind]) -> None:
    for key, kind in kinds.items():
        if part.get(key) is not None:
            _expect(part[key], kind, f"{where}.{key}")


def _expect(value: Any, kind: _Kind, where: str) -> None:
    # true and false are ints to Python, never to a record
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        wanted = " or ".join(_kind_name(k) for k in _kinds(kind))
        raise BadRecord(f"{where}: expected {wanted}, got {_kind(value)} ({_shown(value)})")


def _kinds(kind: _Kind) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type) -> str:
    return {dict: "an object", list: "a list", str: "a text", int: "a whole number",
            float: "a number", bool: "true or false"}.get(kind, kind.__name__)  # fmt: skip


def _check_luck(record: dict[str, Any], say: Callable[[str], None], wanted: str) -> bool:
    """The luck and the receipts; True when the game's secret is revealed and checked."""
    luck = record.get("luck")
    if not isinstance(luck, dict):
        say(
            "not checked: this record has no committed luck (a game opened with seed=, "
            "or before bst committed its luck), so there is no commitment or receipt to check"
        )
        if wanted:
            raise Mismatch(f"receipt {wanted}: this record has no receipts")
        return False
    if luck.get("procedure") != LUCK_PROCEDURE:
        raise Mismatch(
            f"luck: unknown procedure {luck.get('procedure')!r}, expected {LUCK_PROCEDURE}"
        )
    if "secret" not in luck:
        say("not checked: the game is not over, so its secret and salts are not revealed yet")
        if wanted:
            raise Mismatch(f"receipt {wanted}: the game is not over; check it after the end")
        return False
    secret = _hex(luck["secret"], SECRET_BYTES, "secret")
    if hashlib.sha256(secret).hexdigest() != luck.get("commitment"):
        raise Mismatch(
            f"secret: its SHA-256 is {hashlib.sha256(secret).hexdigest()}, "
            f"not the commitment {luck.get('commitment')}"
        )
    say(f"ok: the secret's SHA-256 is the commitment {luck['commitment']}")
    nonces = luck.get("nonces")
    if not isinstance(nonces, list) or not all(isinstance(n, str) for n in nonces):
        raise Mismatch(f"nonces: expected a list of texts, got {nonces!r}")
    key = luck.get("key")
    # A game that never started has no mixed key (its draws used the secret alone).
    if key and mixed_luck(luck["secret"], nonces) != key:
        raise Mismatch(f"key: the secret mixed with the {len(nonces)} join nonces is not {key}")
    say(f"ok: the key is the secret mixed with the {len(nonces)} join nonces")
    game = luck.get("game")
    if not isinstance(game, int):
        raise Mismatch(f"game: expected the game's number, got {game!r}")
    by_turn: dict[str, list[str]] = {}
    found = None
    for entry in luck.get("receipts", []):
        turn, player = entry.get("turn"), entry.get("player")
        where = f"turn {turn}, {player}"
        salt = _hex(entry.get("salt"), SALT_BYTES, f"{where}: salt")
        again = receipt(salt, game, turn, player, entry.get("order"))
        if again != entry.get("receipt"):
            raise Mismatch(
                f"{where}: the receipt {entry.get('receipt')} is not that of the order "
                f"{entry.get('order')} with its salt (that is {again})"
            )
        by_turn.setdefault(str(turn), []).append(again)
        if wanted and again.startswith(wanted.lower()):
            found = entry
    say(f"ok: {sum(map(len, by_turn.values()))} receipts recomputed from their orders and salts")
    roots = luck.get("roots", {})
    for turn in sorted(set(by_turn) | set(roots), key=lambda t: int(t)):
        if turn not in roots or turn not in by_turn:
            raise Mismatch(f"turn {turn}: a root without receipts, or receipts without a root")
        again = merkle_root(by_turn[turn])
        if again != roots[turn]:
            raise Mismatch(
                f"turn {turn}: the root {roots[turn]} is not that of its receipts ({again})"
            )
    say(f"ok: {len(roots)} turn roots recomputed from the receipts")
    if wanted:
        if len(wanted) < 8 or found is None:
            raise Mismatch(f"receipt {wanted}: not among the receipts (give at least 8 hex digits)")
        root, paths = merkle_paths(by_turn[str(found["turn"])])
        say(
            f"ok: receipt {found['receipt']} is {found['player']}'s order of turn "
            f"{found['turn']}, {found['order']}, counted in that turn's root {root} "
            f"by the path {paths[found['receipt']]}"
        )
    return True


def _check_replay(record: dict[str, Any], say: Callable[[str], None]) -> Replayed | None:
    """The game made again through its rules from the record's journal and luck, and
    the record made again from that, compared part by part."""
    section = record.get("replay")
    if not isinstance(section, dict) or not section.get("journal"):
        say(
            "not checked: this record has no journal of the game (a game from before bst "
            "kept one), so the game is not replayed: its events are taken as written"
        )
        return None
    if section.get("format") != JOURNAL_FORMAT:
        raise Mismatch(
            f"replay: unknown format {section.get('format')!r}, expected {JOURNAL_FORMAT}"
        )
    found = record.get("game")
    game_part: dict[str, Any] = found if isinstance(found, dict) else {}
    try:
        game = get_game(str(game_part.get("kind")))
    except Exception:
        raise Mismatch(f"game.kind: no game called {game_part.get('kind')!r}") from None
    draw = _draws(record, section)
    if draw is None:
        say("not checked: the game is not over, so its luck is secret and it cannot be replayed")
        return None
    entries = section["journal"]
    try:
        made = replay(game, entries, draw)
    except ReplayError as error:
        raise Mismatch(str(error)) from None
    context = RecordContext(
        number=int(game_part.get("id") or (record.get("luck") or {}).get("game") or 0),
        names=made.names,
        phase=str(game_part.get("phase")),
        deadlines=dict(section.get("deadlines") or {}),
        seed=(game_part.get("options") or {}).get("seed"),
    )
    again = game.codec.record(made.state, made.history, context)
    _compare(record, again)
    turns = record.get("turns") or []
    events = sum(len(t.get("events", ())) for t in turns if isinstance(t, dict))
    say(
        f"ok: the game replayed through the rules of {game.name} from its options, "
        f"{'luck' if 'luck' in record else 'seed'} and the {len(entries)} calls of its journal: "
        f"every order and all {events} events of its {len(turns)} turns are the rules' own"
    )
    say("ok: the players, the start and the game's state now are what the rules give")
    if record.get("substitutes"):
        say(
            "not checked: substitutes (who played a seat from which turn is the host's "
            "word; the seat's orders above are checked whoever sent them)"
        )
    return made


Draw = Callable[[bool, Sequence[object]], random.Random]


def _draws(record: dict[str, Any], section: dict[str, Any]) -> Draw | None:
    """The game's draws as the host made them (``bot.host.play.seeds``); None while secret."""
    luck = record.get("luck")
    if isinstance(luck, dict):
        if "secret" not in luck:
            return None
        secret, key = str(luck["secret"]), str(luck.get("key") or luck["secret"])
        return lambda started, parts: luck_rng(key if started else secret, *parts)
    seed = section.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise Mismatch(f"replay.seed: expected the game's seed, a whole number, got {seed!r}")
    given = ((record.get("game") or {}).get("options") or {}).get("seed")
    if given is not None and str(given) != str(seed):
        raise Mismatch(
            f"seed: the replay draws from seed {seed}, but the game was opened with seed={given}"
        )
    return lambda started, parts: seeded(seed, *parts)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 240 else text[:239] + "…"


def _who(*items: Any) -> str:
    """The player an order or event is about (its ``player``, else its ``seat``)."""
    for item in items:
        if isinstance(item, dict):
            for key in ("player", "seat", "captain"):
                if isinstance(item.get(key), str):
                    return str(item[key])
    return ""


def _compare(record: dict[str, Any], again: dict[str, Any]) -> None:
    """Raise Mismatch at the first part of ``record`` that is not ``again``'s (the
    record the rules give): turn by turn, order by order, event by event first."""
    given_turns, rules_turns = record.get("turns") or [], again.get("turns") or []
    for given, rules in zip(given_turns, rules_turns, strict=False):
        if given == rules:
            continue
        number = given.get("number", "?") if isinstance(given, dict) else "?"
        given = given if isinstance(given, dict) else {}
        for part in ("orders", "events"):
            mine, theirs = list(given.get(part) or []), list(rules.get(part) or [])
            for index in range(max(len(mine), len(theirs))):
                a = mine[index] if index < len(mine) else None
                b = theirs[index] if index < len(theirs) else None
                if a != b:
                    who = _who(a, b) or rules.get("player", "")
                    what = "order" if part == "orders" else "event"
                    raise Mismatch(
                        f"turn {number}{', ' + who if who else ''}: {what} {index + 1}: "
                        f"the record says {_shown(a)}, the rules give {_shown(b)}"
                    )
        for key in sorted(set(given) | set(rules)):
            if given.get(key) != rules.get(key):
                raise Mismatch(
                    f"turn {number}: {key}: the record says {_shown(given.get(key))}, "
                    f"the rules give {_shown(rules.get(key))}"
                )
    if len(given_turns) != len(rules_turns):
        raise Mismatch(
            f"turns: the record has {len(given_turns)}, the rules give {len(rules_turns)}"
        )
    given_players, rules_players = record.get("players") or [], again.get("players") or []
    for given, rules in zip(given_players, rules_players, strict=False):
        if given != rules:
            name = _who(rules) or (rules.get("name") if isinstance(rules, dict) else "")
            keys = sorted(set(given) | set(rules)) if isinstance(given, dict) else []
            part = next((k for k in keys if given.get(k) != rules.get(k)), "")
            raise Mismatch(
                f"player {name}: {part or 'the entry'}: the record says "
                f"{_shown(given.get(part) if part else given)}, "
                f"the rules give {_shown(rules.get(part) if part else rules)}"
            )
    if len(given_players) != len(rules_players):
        raise Mismatch(
            f"players: the record has {len(given_players)}, the rules give {len(rules_players)}"
        )
    # Not the rules': the luck and the journal are checked on their own; substitutes are
    # the host's account of who sat in a seat.
    beside_the_rules = {"turns", "players", "luck", "replay", "substitutes"}
    for key in sorted((set(record) | set(again)) - beside_the_rules):
        given, rules = record.get(key), again.get(key)
        if given == rules:
            continue
        if isinstance(given, dict) and isinstance(rules, dict):
            part = next(k for k in sorted(set(given) | set(rules)) if given.get(k) != rules.get(k))
            raise Mismatch(
                f"{key}.{part}: the record says {_shown(given.get(part))}, "
                f"the rules give {_shown(rules.get(part))}"
            )
        raise Mismatch(f"{key}: the record says {_shown(given)}, the rules give {_shown(rules)}")


def _check_receipts_stood(
    record: dict[str, Any], made: Replayed, say: Callable[[str], None]
) -> None:
    """Each receipt's order is the order that stood in the game made again."""
    game = get_game(str(record["game"]["kind"]))
    for entry in record["luck"].get("receipts", []):
        turn, player = entry["turn"], entry["player"]
        stood = made.standing.get(turn, {}).get(player)
        order = None if stood is None else game.codec.encode_order(stood)
        if order != entry["order"]:
            raise Mismatch(
                f"turn {turn}, {player}: the receipt's order {_shown(entry['order'])} is not "
                f"the order that stood in the replay ({_shown(order)})"
            )
    say("ok: every receipt's order is the order that stood when the game is replayed")


def verify_path(receipt_hex: str, path: str, root: str, say: Callable[[str], None]) -> None:
    """Check that a receipt's path (as a player's DM gives it) leads to a turn's root
    (as the turn's public post gives it), with no record: the receipt was counted."""
    _hex(receipt_hex, 32, "receipt")
    _hex(root, 32, "root")
    try:
        again = path_root(receipt_hex.lower(), path)
    except ValueError as error:
        raise Mismatch(f"path: {error}, such as R0a1b…,L2c3d… (64 hex digits a step)") from None
    if again != root.lower():
        raise Mismatch(f"receipt {receipt_hex}: its path leads to the root {again}, not {root}")
    say(f"ok: receipt {receipt_hex} is counted in the root {root.lower()}")
