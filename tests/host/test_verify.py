"""``bst verify`` (issue 31): a finished game's record checks out from itself alone — its
luck, its receipts, and the whole game replayed through the rules from its options, luck
and journal — and each way of tampering with it — an order (where the receipt has it,
where the turn has it, where the journal has it), a salt, a receipt, a root, the secret,
the commitment, a join nonce, a random draw, an event, the seed — is caught by a message
that names it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from host_fakes import COMMITTED_SECRET, HostKit, short_finished_game_record
from sqlalchemy import text

from bot.__main__ import main
from bot.cli.verify import Mismatch, verify
from bot.host.play.record import game_record

SECRET = COMMITTED_SECRET


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return short_finished_game_record(tmp_path_factory.mktemp("verify"))


def checked(record: dict[str, Any], wanted: str = "") -> list[str]:
    said: list[str] = []
    verify(record, said.append, wanted)
    return said


def test_a_finished_games_record_checks_out(record: dict[str, Any]) -> None:
    said = checked(record)
    assert said[0].startswith("ok: the secret's SHA-256 is the commitment")
    assert any("receipts recomputed" in line for line in said)
    assert any("turn roots recomputed" in line for line in said)
    assert any(line.startswith("ok: the game replayed through the rules of bst") for line in said)
    assert said[-1] == "ok: every receipt's order is the order that stood when the game is replayed"
    assert not any(line.startswith("not checked") for line in said)
    assert len(record["luck"]["receipts"]) >= 3


def test_a_players_receipt_is_found_by_its_first_digits(record: dict[str, Any]) -> None:
    mine = record["luck"]["receipts"][0]
    said = checked(record, mine["receipt"][:10])
    found = next(line for line in said if mine["receipt"] in line)
    assert f"is {mine['player']}'s order of turn {mine['turn']}" in found
    assert "by the path " in found
    with pytest.raises(Mismatch, match="not among the receipts"):
        checked(record, "00000000")
    with pytest.raises(Mismatch, match="at least 8"):
        checked(record, mine["receipt"][:4])


def _tamper(record: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    luck = bad["luck"]
    entry = next(e for e in luck["receipts"] if e["turn"] == 1)
    if how == "order":
        entry["order"] = {**entry["order"], "cell": "J10"}
    elif how == "salt":
        entry["salt"] = "00" + entry["salt"][2:]
    elif how == "short salt":
        entry["salt"] = entry["salt"][:62]
    elif how == "receipt":
        entry["receipt"] = "0" * 64
    elif how == "root":
        luck["roots"]["1"] = "f" * 64
    elif how == "secret":
        luck["secret"] = "a5" * 32
    elif how == "commitment":
        luck["commitment"] = "0" * 64
    elif how == "nonce":
        luck["nonces"][0] = "fake:someone-else"
    elif how == "journal order":  # alice's shot, as the journal has it
        shot = next(e for e in bad["replay"]["journal"] if e.get("text") == "F1")
        shot["text"] = "F2"
    elif how == "turn order":  # alice's shot, as the turn has it
        next(o for o in bad["turns"][0]["orders"] if o["player"] == "alice")["cell"] = "F2"
    elif how == "event":
        event = next(e for e in bad["turns"][0]["events"] if e["type"] == "shot")
        event["result"] = "miss" if event["result"] == "hit" else "hit"
    elif how == "refused order":
        next(e for e in bad["replay"]["journal"] if e.get("text") == "F1")["text"] = "Z99"
    return bad


@pytest.mark.parametrize(
    ("how", "named"),
    [
        ("order", r"turn 1, p\d: the receipt .* is not that of the order"),
        ("salt", r"turn 1, p\d: the receipt"),
        ("short salt", r"turn 1, p\d: salt: expected 32 bytes"),
        ("receipt", r"turn 1, p\d: the receipt 0{64}"),
        ("root", r"turn 1: the root f{64} is not that of its receipts"),
        ("secret", r"secret: its SHA-256 is .*, not the commitment"),
        ("commitment", r"not the commitment 0{64}"),
        ("nonce", r"key: the secret mixed with the 2 join nonces"),
        ("journal order", r"turn 1, alice: order \d: the record says .*F1.*, the rules give .*F2"),
        ("turn order", r"turn 1, alice: order \d: the record says .*F2.*, the rules give .*F1"),
        ("event", r"turn 1, \w+: event \d: the record says .*, the rules give"),
        ("refused order", r"journal entry \d+ \(accept alice\): the rules refuse it"),
    ],
)
def test_each_tampering_is_caught_and_named(record: dict[str, Any], how: str, named: str) -> None:
    with pytest.raises(Mismatch, match=named):
        checked(_tamper(record, how))


def test_the_command_exits_1_naming_the_mismatch_and_0_when_it_checks_out(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(_tamper(record, "root")))
    assert main(["verify", str(good)]) == 0
    assert "ok: the secret's SHA-256" in capsys.readouterr().out
    assert main(["verify", str(bad)]) == 1
    assert "MISMATCH: turn 1: the root" in capsys.readouterr().err
    (tmp_path / "junk.json").write_text("not json")
    assert main(["verify", str(tmp_path / "junk.json")]) == 2
    assert "expected a game record" in capsys.readouterr().err


def test_a_record_of_an_older_game_says_what_it_cannot_check() -> None:
    """A game from before committed luck and the journal: nothing to check, said so."""
    said = checked({"format": "bst-record/1", "game": {"id": 1}, "turns": []})
    assert said == [
        "not checked: this record has no committed luck (a game opened with seed=, or "
        "before bst committed its luck), so there is no commitment or receipt to check",
        "not checked: this record has no journal of the game (a game from before bst "
        "kept one), so the game is not replayed: its events are taken as written",
    ]
    with pytest.raises(Mismatch, match="no receipts"):
        checked({"format": "bst-record/1"}, "abcdef12")


def test_a_running_game_of_luck_is_not_replayed_until_its_secret_is_revealed(
    tmp_path: Path,
) -> None:
    kit = HostKit(tmp_path, draw_secret=lambda: SECRET)
    kit.two_player_battle()
    running = game_record(kit.store, 1)
    kit.store.dispose()
    said = checked(running)
    assert said == [
        "not checked: the game is not over, so its secret and salts are not revealed yet",
        "not checked: the game is not over, so its luck is secret and it cannot be replayed",
    ]


# --- a game of seed=, with random fleets: the seed and its draws --------------------------


@pytest.fixture(scope="module")
def seeded_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    kit = HostKit(tmp_path_factory.mktemp("seeded"))
    kit.say("alice", "#bst new size=10x10 turn=8h seed=42")
    kit.say("alice", "join")
    kit.say("bob", "join")
    kit.say("alice", "random", dm=True)
    kit.say("bob", "random", dm=True)
    kit.say("alice", "start")
    kit.say("alice", "#bst A1")
    kit.say("bob", "#bst B2")
    kit.clock.set(kit.game().deadline + 1)
    kit.tick()
    found = game_record(kit.store, 1)
    kit.store.dispose()
    return found


def test_a_seeded_games_random_fleets_replay_from_its_seed(seeded_record: dict[str, Any]) -> None:
    said = checked(seeded_record)
    assert "luck" not in seeded_record and seeded_record["replay"]["seed"] == 42
    assert any(line.startswith("ok: the game replayed") for line in said)
    randoms = [e for e in seeded_record["replay"]["journal"] if e.get("text") == "random"]
    assert [e["draw"][0] for e in randoms] == ["accept", "accept"]  # each its own draw


def test_a_changed_random_draw_is_named(seeded_record: dict[str, Any]) -> None:
    bad = copy.deepcopy(seeded_record)
    ship = bad["players"][1]["ships"][0]
    rows = "ABCDEFGHIJ"
    ship["cells"] = [rows[(rows.index(c[0]) + 1) % 10] + c[1:] for c in ship["cells"]]
    with pytest.raises(Mismatch, match=r"player bob: ships: the record says"):
        checked(bad)


def test_a_changed_seed_is_caught_at_the_first_draw_it_changes(
    seeded_record: dict[str, Any],
) -> None:
    """bst's record shows no seed but the replay's: a wrong one gives other draws, and
    the first of them that shows is named (for a game of luck, the secret is checked
    against its commitment first: see ``secret`` above)."""
    bad = copy.deepcopy(seeded_record)
    bad["replay"]["seed"] = 43
    with pytest.raises(Mismatch, match=r"(player \w+: ships|turn 1, \w+: event \d)"):
        checked(bad)


# --- every shared example, and the demo ----------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "examples"
NAMES = sorted(p.name for p in EXAMPLES.glob("*.txt")) if EXAMPLES.is_dir() else []


@pytest.mark.parametrize("name", NAMES)
def test_every_examples_record_replays_through_the_rules(
    run_script_text: Callable[[str], tuple[list[str], dict[str, Any]]], name: str
) -> None:
    _, record = run_script_text((EXAMPLES / name).read_text(encoding="utf-8"))
    said = checked(record)
    assert any(line.startswith("ok: the game replayed through the rules") for line in said)
    assert record["replay"]["journal"][0]["do"] == "new"
    # The seed a record shows is the one the replay draws from.
    if "seed" in record["game"]["options"]:
        bad = copy.deepcopy(record)
        bad["replay"]["seed"] += 1
        with pytest.raises(Mismatch, match=r"^seed: the replay draws from seed \d+, but"):
            checked(bad)


def test_examples_are_there() -> None:
    assert len(NAMES) >= 10, f"the shared examples are missing from {EXAMPLES}"


@pytest.mark.parametrize("kind", ["sugardog"])
def test_the_demos_record_replays_through_the_rules(tmp_path: Path, kind: str) -> None:
    """A whole game of robots (the quickest demo here; every game's demo passes: README)."""
    assert main(["demo", "--game", kind, "--out", str(tmp_path / "demo")]) == 0
    record = json.loads((tmp_path / "demo" / "record.json").read_text(encoding="utf-8"))
    assert record["game"]["phase"] == "finished"
    said = checked(record)
    assert any(line.startswith("ok: the game replayed through the rules") for line in said)


def test_a_game_whose_journal_began_mid_game_has_no_replay(tmp_path: Path) -> None:
    """A game running when the journal began (migration 0009) keeps only its end: its
    record has no replay (verify says so) rather than one that cannot be played."""
    kit = HostKit(tmp_path)
    kit.two_player_battle("size=10x10 turn=8h seed=7")
    with kit.store.transaction() as tx:
        tx.session.execute(text("DELETE FROM journal"))
    kit.say("alice", "#bst F1")
    found = game_record(kit.store, 1)
    kit.store.dispose()
    assert "replay" not in found
    assert checked(found)[-1].startswith("not checked: this record has no journal of the game")


def test_a_game_with_a_substitute_replays_and_says_what_it_did_not_check(
    run_script_text: Callable[[str], tuple[list[str], dict[str, Any]]],
) -> None:
    """Issue 30 meets issue 31: a seat handed on keeps its orders checked by the rules;
    who sat in it is the host's word, and verify says so rather than failing on it."""
    script = Path(__file__).parents[1] / "games" / "sonar" / "scripts" / "sonar-substitute.txt"
    _, record = run_script_text(script.read_text(encoding="utf-8"))
    assert record["substitutes"]
    said = checked(record)
    assert any(line.startswith("ok: the game replayed through the rules") for line in said)
    assert any(line.startswith("not checked: substitutes") for line in said)
