"""#42, Silent Ships floods no more: one board and one answer a turn (or a combat).

A turn's plays and moves get no "Done:" each: they are told with the player's next
answer (the prompt of the attack they open, the reply to their `end`); a board comes as
a player's turn begins and with each combat, the game's words for a player folded into
it; the public hears of an attack once, when it goes to the defender.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent / "scripts"
Run = Callable[[str], tuple[list[str], dict[str, Any]]]


def _first_game(run_script_text: Run) -> list[str]:
    transcript, _ = run_script_text(
        (SCRIPTS / "silentships-first-game.txt").read_text(encoding="utf-8")
    )
    return transcript


def _between(transcript: list[str], start: str, end: str, who: str) -> list[str]:
    """``who``'s DMs from the first line holding ``start`` to the first after it holding
    ``end`` (both included)."""
    first = next(i for i, line in enumerate(transcript) if start in line)
    last = next(i for i, line in enumerate(transcript) if i > first and end in line)
    return [line for line in transcript[first : last + 1] if line.startswith(f"-> dm {who}: ")]


def test_a_turn_of_plays_and_moves_is_answered_once_when_it_ends(run_script_text: Run) -> None:
    transcript = _first_game(run_script_text)
    turn_1 = _between(
        transcript,
        "-> dm ahab: #silentships game 1, as the battle begins",
        "Turn 1: you end",
        "ahab",
    )
    # The turn's board, the refused play (refusals are answered at once), the end.
    assert len(turn_1) == 3, turn_1
    assert not any(line.startswith("-> dm ahab: Done: ") for line in turn_1)
    assert turn_1[-1] == (
        "-> dm ahab: Turn 1: you end your turn. Done before it: play frigate at D1; "
        "move D1 to D2 discard patrol; play ram at C1."
    )


def test_a_combat_brings_one_prompt_and_one_board_to_each_side(run_script_text: Run) -> None:
    transcript = _first_game(run_script_text)
    attacker = _between(
        transcript, "-> dm ahab: #silentships game 1, turn 3:", "Turn 3: you end", "ahab"
    )
    # The turn's board, the attack's prompt (with the moves before it), the combat's
    # board (with the support and `go`), the end.
    assert len(attacker) == 4, attacker
    assert attacker[1].startswith(
        "-> dm ahab: Done: move C1 to C2 discard salvage; move C2 to C3 discard specops; "
        "move D2 to D3 discard speed. You attack D3:"
    )
    assert "Combat: attack 7 against defence 3" in attacker[2]
    assert "Done: support from C3 discard fire; go." in attacker[2]
    defender = _between(
        transcript, "-> dm ahab: #silentships game 1, turn 3:", "Turn 3: you end", "nemo"
    )
    # The question, then the combat's board (which answers the `pass`).
    assert len(defender) == 2, defender
    assert defender[0].startswith("-> dm nemo: ahab attacks your unit on D3 from D2 with 1 support")
    assert "Combat: attack 7 against defence 3: you lose." in defender[1]


def test_the_public_hears_of_an_attack_once_it_goes_to_the_defender(run_script_text: Run) -> None:
    transcript = _first_game(run_script_text)
    public = [line for line in transcript if line.startswith("-> public: ")]
    attack = [line for line in public if "attacks nemo" in line or "supports the" in line]
    assert attack == [
        "-> public: ahab attacks nemo's unit on D3 from D2 with 1 support: nemo answers within 10m."
    ]
