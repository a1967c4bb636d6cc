"""Every public post about a game's turn or end links the game's web page when the page
has a public address (``[web] base_url``, issue 28), as the message's ``link``: each
platform shows it its own way. Nothing changes when no address is configured."""

from __future__ import annotations

from pathlib import Path

from host_fakes import HostKit

BASE = "https://bst.example.org"


def _played(kit: HostKit, options: str = "size=10x10 turn=8h reach=all") -> None:
    kit.two_player_battle(options)
    kit.say("alice", "#bst F3")
    kit.say("bob", "#bst A2")
    kit.clock.advance(8 * 3600)
    kit.tick()
    kit.say("alice", "#bst end", admin=True)
    kit.tick()
    kit.flush()


def _sent(kit: HostKit) -> list[tuple[str, str, str]]:
    """(outbox kind, recipient, link) of everything the platform was sent."""
    by_key = {f"outbox-{row.id}": row for row in kit.outbox()}
    return [
        (by_key[outbound.key].kind, by_key[outbound.key].recipient, outbound.link)
        for _address, outbound in kit.adapter.sent
    ]


def test_turn_and_end_posts_link_the_games_page_and_nothing_private_does(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path, admins=frozenset({"fake:id-alice"}), web_base_url=BASE + "/")
    _played(kit)
    sent = _sent(kit)
    linked = {kind for kind, _to, link in sent if link}
    assert {"map", "standings", "replay"} <= linked, sent
    # A turn's report links that turn's page (its report in full); the end, the game's.
    for kind, _to, link in sent:
        if kind == "map" and link != f"{BASE}/games/1":
            assert link.startswith(f"{BASE}/games/1/turn/"), (kind, link)
        elif link:
            assert link == f"{BASE}/games/1", (kind, link)
    assert any(link.startswith(f"{BASE}/games/1/turn/") for kind, _to, link in sent if link)
    # Boards, notices to one player, and answers to commands carry none.
    assert all(to == "public" for _kind, to, link in sent if link)
    assert not any(link for kind, _to, link in sent if kind.startswith("board"))
    kit.store.dispose()


def test_without_a_public_address_no_post_carries_a_link(tmp_path: Path) -> None:
    kit = HostKit(tmp_path, admins=frozenset({"fake:id-alice"}))
    _played(kit)
    sent = _sent(kit)
    assert {"map", "standings", "replay"} <= {kind for kind, _to, _link in sent}
    assert not any(link for _kind, _to, link in sent)
    kit.store.dispose()


def test_an_unlisted_games_posts_link_no_page(tmp_path: Path) -> None:
    """A game of a server (not opened ``reach=all``) has no public page (issue 39): its
    posts link none, rather than one that answers 404."""
    kit = HostKit(tmp_path, admins=frozenset({"fake:id-alice"}), web_base_url=BASE + "/")
    _played(kit, "size=10x10 turn=8h")
    sent = _sent(kit)
    assert {"map", "standings", "replay"} <= {kind for kind, _to, _link in sent}
    assert not any(link for _kind, _to, link in sent)
    assert not any(BASE in row.text for row in kit.outbox() if row.recipient == "public")
    kit.store.dispose()
