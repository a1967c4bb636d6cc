"""Order receipts (README, "Fair play"): a commitment to each order as the game read it,
which the player gets in their acknowledgement, and one Merkle root a turn over the
receipts of the orders that stood, in that turn's public post.

* salt: 32 bytes, HMAC-SHA-256(game secret, ``salt/INBOUND_ID``): one per order, never
  reused, as unguessable as the secret until the record reveals it;
* receipt: HMAC-SHA-256 keyed by the salt over the canonical encoding — compact JSON,
  keys sorted, of ``["bst-receipt/1", GAME, TURN, PLAYER, ORDER]``, ORDER the game's
  own encoding of the order;
* root: each receipt's leaf is SHA-256(0x00 ‖ receipt), leaves sorted; a node is
  SHA-256(0x01 ‖ left ‖ right), an odd node last in its row going up as it is.

Only games of committed luck (a secret) have receipts: a game with ``seed=`` has no
secret to salt from, and its posts stay as they were."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

from bot.store import OrderRow, loads

RECEIPT_VERSION = "bst-receipt/1"
SALT_BYTES = 32


def salt_of(secret: str, inbound_id: int) -> bytes:
    """The salt of the order that came in as inbound message ``inbound_id``."""
    return hmac.new(bytes.fromhex(secret), f"salt/{inbound_id}".encode(), hashlib.sha256).digest()


def canonical(game_id: int, turn: int, player: str, order: Any) -> bytes:
    """The versioned canonical encoding a receipt commits to (``order``: the game's
    encoded order, as stored)."""
    fields = [RECEIPT_VERSION, game_id, turn, player, order]
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def receipt(salt: bytes, game_id: int, turn: int, player: str, order: Any) -> str:
    """The receipt (hex) of one order. A salt of any other length than 32 bytes is
    refused: a short one would make the receipt guessable."""
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a receipt's salt is {SALT_BYTES} bytes, got {len(salt)}")
    message = canonical(game_id, turn, player, order)
    return hmac.new(salt, message, hashlib.sha256).hexdigest()


def merkle_root(receipts: Iterable[str]) -> str:
    """The root (hex) over receipts (order does not matter: leaves are sorted)."""
    row = sorted(hashlib.sha256(b"\x00" + bytes.fromhex(r)).digest() for r in receipts)
    if not row:
        raise ValueError("a root needs at least one receipt")
    while len(row) > 1:
        paired = [
            hashlib.sha256(b"\x01" + row[i] + row[i + 1]).digest()
            for i in range(0, len(row) - 1, 2)
        ]
        row = paired + ([row[-1]] if len(row) % 2 else [])
    return row[0].hex()


def order_receipt(secret: str, game_id: int, row: OrderRow) -> str:
    """The receipt of a stored order."""
    return receipt(
        salt_of(secret, row.inbound_id), game_id, row.turn, row.player_key, loads(row.order)
    )


def root_text(secret: str, game_id: int, standing: Iterable[OrderRow]) -> str:
    """What a turn's public post adds: the root over the orders that stood ("" if none)."""
    receipts = [order_receipt(secret, game_id, row) for row in standing]
    if not receipts:
        return ""
    return f" Receipts root of the {len(receipts)} orders that stood: {merkle_root(receipts)}."
