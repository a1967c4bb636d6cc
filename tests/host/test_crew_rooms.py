"""A crew's news once in the crew's own room where the platform has group rooms (a Discord
private thread: ``GroupAdapter``), each member's DM elsewhere (issue #16, "crews on every
platform").

The game (U-Boat Shootout, rules §5) says who shares a seat (``Game.crew``); the host
names the crew on each member's copy of the crew's board and news, and the relay posts
it once in the crew's room and skips the other copies.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from host_fakes import HostKit, RecordingAdapter

from bot.host.messages import Address, Capabilities, Outbound


class GroupRecordingAdapter(RecordingAdapter):
    """A platform with group rooms."""

    capabilities = Capabilities(group_rooms=True)

    def __init__(self, platform: str = "fake") -> None:
        super().__init__(platform)
        self.to_groups: list[tuple[Address, Outbound]] = []

    async def send_to_group(self, address: Address, outbound: Outbound) -> str:
        self.to_groups.append((address, outbound))
        return f"group-{len(self.to_groups)}"


def crews_game(kit: HostKit) -> None:
    """Four boats; Blue is sunk in round 1 and ben joins Red's crew with ann in round 2;
    round 3 is played with a crew of two (tests/games/uboat/scripts/uboat-crews.txt)."""
    kit.say("ann", "#uboat new islands=none rounds=5")
    for user, cell in (("ann", "C4"), ("ben", "E5"), ("cy", "G6"), ("dee", "D6")):
        kit.say(user, "join", dm=True)
        kit.say(user, f"start {cell}", dm=True)
    kit.say("ann", "#uboat host start")
    kit.say("ann", "fire E5", dm=True)
    kit.say("cy", "fire E5", dm=True)
    for _ in range(2):  # rounds 1 and 2
        kit.clock.set(kit.game().deadline)
        kit.tick()
    kit.say("ann", "fire D6", dm=True)
    kit.say("cy", "fire D6", dm=True)
    kit.clock.set(kit.game().deadline)
    kit.tick()
    kit.flush()


@pytest.fixture
def group_kit(tmp_path: Path) -> HostKit:
    kit = HostKit(tmp_path)
    kit.adapter = GroupRecordingAdapter()
    kit.host.relay.adapters["fake"] = kit.adapter
    kit.host.adapters["fake"] = kit.adapter
    return kit


def test_5_a_crews_round_board_goes_once_to_its_room(group_kit: HostKit) -> None:
    crews_game(group_kit)
    adapter = group_kit.adapter
    assert isinstance(adapter, GroupRecordingAdapter)
    boards = [(a, o) for a, o in adapter.to_groups if "Round 3" in o.text or "round 3" in o.text]
    assert boards, "round 3's news went to the crew's room"
    address = boards[0][0]
    assert address.group.startswith("crew:")
    assert {name for _, name in address.members} == {"ann", "ben"}
    assert address.group_name.endswith("ann's crew")
    # Every row written for a crew went out once: one copy posted, the others skipped.
    rows = [r for r in group_kit.outbox() if '"group"' in r.address]
    by_key: dict[tuple[int, str], list[str]] = {}
    for row in rows:
        by_key.setdefault((row.turn, row.kind), []).append(row.status)
    assert by_key and all(sorted(s) == ["sent", "skipped"] for s in by_key.values())
    # Nothing for the crew went by DM to ann or ben.
    assert not [a for a, _ in adapter.sent if a.group]


def test_5_without_group_rooms_each_member_gets_the_crews_board_by_dm(tmp_path: Path) -> None:
    kit = HostKit(tmp_path)
    crews_game(kit)
    crew_rows = [r for r in kit.outbox() if '"group"' in r.address]
    assert crew_rows and all(r.status == "sent" for r in crew_rows)
    sent_to = {a.user_name for a, _ in kit.adapter.sent if a.group}
    assert sent_to == {"ann", "ben"}
