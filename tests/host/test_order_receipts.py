"""Order receipts (issue 31, README "Fair play"): each order that stands in a game of
committed luck is acknowledged with a receipt — HMAC-SHA-256 keyed by a 32-byte salt
over a versioned canonical encoding — each turn's public post carries the Merkle root
over the receipts of the orders that stood, and the record of the finished game the
salts, so anyone can recompute both."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

import pytest
from host_fakes import HostKit

from bot.host.play.receipts import canonical, merkle_paths, merkle_root, path_root, receipt, salt_of
from bot.host.play.record import game_record

SECRET = "5a" * 32


def test_a_receipt_is_the_documented_hmac_recomputed_by_hand() -> None:
    salt = bytes(range(32))
    order = {"action": "shoot", "cell": "F1", "player": "p1"}
    message = b'["bst-receipt/1",7,3,"p1",{"action":"shoot","cell":"F1","player":"p1"}]'
    assert canonical(7, 3, "p1", order) == message
    by_hand = hmac.new(salt, message, hashlib.sha256).hexdigest()
    assert receipt(salt, 7, 3, "p1", order) == by_hand
    assert receipt(salt, 7, 3, "p1", {**order, "cell": "F2"}) != by_hand
    assert receipt(salt, 7, 4, "p1", order) != by_hand


@pytest.mark.parametrize("length", [0, 16, 31, 33, 64])
def test_a_salt_of_any_other_length_is_refused(length: int) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        receipt(bytes(length), 1, 1, "p1", {})


def test_the_merkle_root_by_hand() -> None:
    a, b, c = ("11" * 32, "22" * 32, "33" * 32)

    def leaf(r: str) -> bytes:
        return hashlib.sha256(b"\x00" + bytes.fromhex(r)).digest()

    def node(left: bytes, right: bytes) -> bytes:
        return hashlib.sha256(b"\x01" + left + right).digest()

    assert merkle_root([a]) == leaf(a).hex()
    x, y, z = sorted([leaf(a), leaf(b), leaf(c)])
    assert merkle_root([c, a, b]) == node(node(x, y), z).hex()
    assert merkle_root([a, b, c]) != merkle_root([a, b])
    with pytest.raises(ValueError):
        merkle_root([])


def test_orders_get_receipts_the_turn_post_their_root_and_the_record_the_salts(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.two_player_battle()
    kit.say("alice", "#bst F1", message_id="shot-a")
    kit.say("bob", "#bst C1", message_id="shot-b")
    with kit.store.transaction() as tx:
        standing = tx.standing_orders(1, 1)
    expected = {
        key: receipt(salt_of(SECRET, row.inbound_id), 1, 1, key, json.loads(row.order))
        for key, row in standing.items()
    }
    assert set(expected) == {"p1", "p2"}
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    kit.flush()
    dms = {
        (address.user_name, outbound.text)
        for address, outbound in kit.adapter.sent
        if address.user_id is not None
    }
    public = [outbound.text for address, outbound in kit.adapter.sent if address.user_id is None]
    # Each player's acknowledgement carries their receipt, and nobody else's.
    assert any(f"Receipt: {expected['p1']}" in text for name, text in dms if name == "alice")
    assert not any(expected["p1"] in text for name, text in dms if name != "alice")
    assert not any(expected["p1"] in text for text in public)
    root = merkle_root(expected.values())
    turn_post = next(text for text in public if "Receipts root" in text)
    assert f"Receipts root of the 2 orders that stood: {root}." in turn_post
    kit.say("alice", "end")
    luck = game_record(kit.store, 1)["luck"]
    turn1 = [entry for entry in luck["receipts"] if entry["turn"] == 1]
    assert {entry["player"]: entry["receipt"] for entry in turn1} == expected
    for entry in luck["receipts"]:  # anyone can recompute them from the record alone
        salt = bytes.fromhex(entry["salt"])
        assert len(salt) == 32
        again = receipt(salt, 1, entry["turn"], entry["player"], entry["order"])
        assert again == entry["receipt"]
    assert luck["roots"]["1"] == root
    kit.store.dispose()


def test_receipts_hide_the_order_until_the_end(tmp_path: Path) -> None:
    """Two games apart only in alice's hidden move: the public posts differ only in the
    receipts' root."""
    posts, roots = [], []
    for index, move in enumerate(("move carrier at C1 1 right", "move carrier at C1 2 right")):
        (tmp_path / str(index)).mkdir()
        kit = HostKit(tmp_path / str(index), draw_secret=lambda: SECRET)
        kit.two_player_battle()
        kit.say("alice", move, dm=True, message_id="move-a")
        kit.say("bob", "#bst A1", message_id="shot-b")
        kit.clock.set(kit.game().deadline + 1)
        kit.tick()
        kit.flush()
        public = [o.text for a, o in kit.adapter.sent if a.user_id is None]
        pattern = r"(orders that stood: )(\w+)"
        roots.append([m.group(2) for t in public for m in re.finditer(pattern, t)])
        posts.append([re.sub(pattern, r"\1ROOT", t) for t in public])
        kit.store.dispose()
    assert posts[0] == posts[1]
    assert len(roots[0]) == 1 and roots[0] != roots[1]


def test_a_game_with_seed_has_no_receipts(tmp_path: Path) -> None:
    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.two_player_battle("size=10x10 turn=8h seed=42")
    kit.say("alice", "#bst F1")
    kit.flush()
    assert not any("Receipt" in text for text in kit.adapter.texts())
    kit.store.dispose()


def test_an_order_that_resolves_its_turn_at_once_still_gets_its_receipt(tmp_path: Path) -> None:
    """Sonar: a volley resolves its turn as it is given; its sender still gets the
    receipt (alone), and the turn's post the root over it."""
    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.say("ahab", "#sonar new size=12 ships=2 placement=given")
    kit.say("ahab", "#sonar join")
    kit.say("ahab", "2 l5 ur\n3 c20 ur", dm=True)
    kit.say("nemo", "join", dm=True)
    kit.say("nemo", "3 h3 dl, 2 f10 dl", dm=True)
    kit.say("ahab", "start")
    kit.say("ahab", "#sonar e10", message_id="volley-1")
    assert kit.game().turn == 2
    with kit.store.transaction() as tx:
        (row,) = tx.standing_orders(1, 1).values()
    mine = receipt(salt_of(SECRET, row.inbound_id), 1, 1, row.player_key, json.loads(row.order))
    kit.flush()
    to_ahab = [o.text for a, o in kit.adapter.sent if a.user_name == "ahab" and a.user_id]
    public = [o.text for a, o in kit.adapter.sent if a.user_id is None]
    assert f"Turn 1: your order counted. Receipt: {mine}" in to_ahab
    assert not any(mine in o.text for a, o in kit.adapter.sent if a.user_name != "ahab")
    assert any(f"orders that stood: {merkle_root([mine])}." in text for text in public)
    kit.store.dispose()


def _by_hand(receipt_hex: str, path: str) -> str:
    """The README's few lines: a receipt's path to its root, recomputed by hand."""
    node = hashlib.sha256(b"\x00" + bytes.fromhex(receipt_hex)).digest()
    for step in [] if path == "-" else path.split(","):
        sibling = bytes.fromhex(step[1:])
        pair = sibling + node if step[0] == "L" else node + sibling
        node = hashlib.sha256(b"\x01" + pair).digest()
    return node.hex()


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 13])
def test_every_receipts_path_leads_to_the_root(count: int) -> None:
    receipts = [hashlib.sha256(bytes([i])).hexdigest() for i in range(count)]
    root, paths = merkle_paths(receipts)
    assert root == merkle_root(receipts)
    for r in receipts:
        assert _by_hand(r, paths[r]) == root == path_root(r, paths[r])
        assert paths[r].count(",") + 1 <= max(1, (count - 1).bit_length())
    if count > 1:  # another receipt's path does not lead there
        assert path_root(receipts[0], paths[receipts[1]]) != root
    with pytest.raises(ValueError, match="L or R"):
        path_root(receipts[0], "X" + "00" * 32)


def test_each_players_turn_dm_carries_their_receipt_and_its_path_to_the_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.two_player_battle()
    kit.say("alice", "#bst F1", message_id="shot-a")
    kit.say("bob", "#bst C1", message_id="shot-b")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    kit.flush()
    public = [o.text for a, o in kit.adapter.sent if a.user_id is None]
    (root,) = [m for t in public for m in re.findall(r"orders that stood: (\w+)\.", t)]
    proofs = {}
    for address, outbound in kit.adapter.sent:
        for mine, path in re.findall(
            r"your receipt (\w+) is counted in the root \w+, by the path ([LR\w,-]+)\.",
            outbound.text,
        ):
            assert address.user_id is not None  # a DM, never the channel
            proofs[address.user_name] = (mine, path)
    assert set(proofs) == {"alice", "bob"}
    assert proofs["alice"][0] != proofs["bob"][0]
    for mine, path in proofs.values():
        assert _by_hand(mine, path) == root
        assert main(["verify", "--receipt", mine, "--path", path, "--root", root]) == 0
        assert f"ok: receipt {mine} is counted in the root {root}" in capsys.readouterr().out
    mine, path = proofs["alice"]
    assert main(["verify", "--receipt", proofs["bob"][0], "--path", path, "--root", root]) == 1
    assert "its path leads to the root" in capsys.readouterr().err
    assert main(["verify", "--receipt", mine, "--path", "Q12", "--root", root]) == 1
    assert "such as R0a1b" in capsys.readouterr().err
    assert main(["verify", "--receipt", mine, "--path", path]) == 2
    assert "--root HEX" in capsys.readouterr().err
    kit.store.dispose()
