"""Order receipts (README, "Fair play"): a commitment to each order as the game read it,
which the player gets in their acknowledgement, and one Merkle root a turn over the
receipts of the orders that stood, in that turn's public post.

* salt: 32 bytes, HMAC-SHA-256(game secret, ``salt/INBOUND_ID``): one per order, never
  reused, as unguessable as the secret until the record reveals it;
* receipt: HMAC-SHA-256 keyed by the salt over the canonical encoding — compact JSON,
  keys sorted, of ``["bst-receipt/1", GAME, TURN, PLAYER, ORDER]``, ORDER the game's
  own encoding of the order;
* root: each receipt's leaf is SHA-256(0x00 ‖ receipt), leaves sorted; a node is
  SHA-256(0x01 ‖ left ‖ right), an odd node last in its row going up as it is;
* path: what a player's DM carries to show their receipt is under the root — the
  siblings from the leaf up, each ``L`` or ``R`` (the side it sits on) and its hex,
  joined by ``,`` (``-`` when the receipt is the root's only leaf).

Only games of committed luck (a secret) have receipts: a game with ``seed=`` has no
secret to salt from, and its posts stay as they were."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

from bot.store import loads, records

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


def _leaf(receipt_hex: str) -> bytes:
    return hashlib.sha256(b"\x00" + bytes.fromhex(receipt_hex)).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def merkle_root(receipts: Iterable[str]) -> str:
    """The root (hex) over receipts (order does not matter: leaves are sorted)."""
    return merkle_paths(receipts)[0]


def merkle_paths(receipts: Iterable[str]) -> tuple[str, dict[str, str]]:
    """The root over ``receipts`` and each receipt's path to it (see the module's
    docstring), in one pass: a turn's post needs the root, each DM its path."""
    leaves = sorted((_leaf(r), r) for r in receipts)
    if not leaves:
        raise ValueError("a root needs at least one receipt")
    row = [leaf for leaf, _ in leaves]
    # Where each receipt's node sits in the row being hashed, and its siblings so far.
    where = {r: index for index, (_, r) in enumerate(leaves)}
    steps: dict[str, list[str]] = {r: [] for r in where}
    while len(row) > 1:
        for r, index in where.items():
            if index % 2:
                steps[r].append("L" + row[index - 1].hex())
            elif index + 1 < len(row):
                steps[r].append("R" + row[index + 1].hex())
            where[r] = index // 2
        paired = [_node(row[i], row[i + 1]) for i in range(0, len(row) - 1, 2)]
        row = paired + ([row[-1]] if len(row) % 2 else [])
    return row[0].hex(), {r: ",".join(path) or "-" for r, path in steps.items()}


def path_root(receipt_hex: str, path: str) -> str:
    """The root a receipt's path leads to (hex); raises ValueError for a path that is
    not one (each step ``L`` or ``R`` and 64 hex digits, ``,`` between them)."""
    node = _leaf(receipt_hex)
    for step in [] if path.strip() == "-" else path.strip().split(","):
        side, sibling = step[:1].upper(), bytes.fromhex(step[1:])
        if side not in ("L", "R") or len(sibling) != 32:
            raise ValueError(f"a path step is L or R and 64 hex digits, got {step!r}")
        node = _node(sibling, node) if side == "L" else _node(node, sibling)
    return node.hex()


def order_receipt(secret: str, game_id: int, row: records.Order) -> str:
    """The receipt of a stored order."""
    return receipt(
        salt_of(secret, row.inbound_id), game_id, row.turn, row.player_key, loads(row.order)
    )


def turn_proofs(
    secret: str, game_id: int, turn: int, standing: Iterable[records.Order]
) -> tuple[str, dict[str, str]]:
    """What a turn's end adds: to its public post, the root over the orders that stood
    ("" if none); to the DM of each player whose order stood, their receipt and its
    path to that root (player key → line)."""
    mine = {row.player_key: order_receipt(secret, game_id, row) for row in standing}
    if not mine:
        return "", {}
    root, paths = merkle_paths(mine.values())
    public = f" Receipts root of the {len(mine)} orders that stood: {root}."
    private = {
        player: f"Turn {turn}: your receipt {r} is counted in the root {root}, "
        f"by the path {paths[r]}."
        for player, r in mine.items()
    }
    return public, private
