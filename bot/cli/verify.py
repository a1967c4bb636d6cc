"""``bst verify RECORD.json [--receipt HEX]``: check a finished game's committed luck
and order receipts from its record alone (README, "Fair play"), saying what it checked
and naming the first thing that does not match."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from bot.host.receipts import SALT_BYTES, merkle_paths, merkle_root, path_root, receipt
from bot.host.seeds import LUCK_PROCEDURE, SECRET_BYTES, mixed_luck


class Mismatch(Exception):
    """The first thing in a record that does not check out (the message names it)."""


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
    that fails. ``wanted``: a player's receipt (or its first 8+ hex digits) to find."""
    luck = record.get("luck")
    if not isinstance(luck, dict):
        say(
            "not checked: this record has no committed luck (a game opened with seed=, "
            "or before bst committed its luck), so there is no seed or receipt to check"
        )
        if wanted:
            raise Mismatch(f"receipt {wanted}: this record has no receipts")
        return
    if luck.get("procedure") != LUCK_PROCEDURE:
        raise Mismatch(
            f"luck: unknown procedure {luck.get('procedure')!r}, expected {LUCK_PROCEDURE}"
        )
    if "secret" not in luck:
        say("not checked: the game is not over, so its secret and salts are not revealed yet")
        if wanted:
            raise Mismatch(f"receipt {wanted}: the game is not over; check it after the end")
        return
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
    say(
        "not checked: replaying the game from its seed and orders (random results and "
        "events are not recomputed yet)"
    )


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
