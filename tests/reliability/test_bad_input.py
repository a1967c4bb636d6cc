"""Bad input never gets past a refusal: hypothesis over every text parser and
Commands.handle. Parsers raise only GameError (OrderSyntaxError, OptionError…),
in bounded time; through Commands.handle a bad message gets a refusal reply and
leaves the game exactly as it was (state, orders, players)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_kit import MultiKit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import GameError
from bot.games.bst import BST
from bot.games.bst.cells import parse_cell
from bot.games.duration import parse_duration
from bot.host.commands.inbox import MAX_TEXT, Outcome
from bot.host.commands.routing import (
    HOST_WORDS,
    PLAYER_WORDS,
    addresses_the_host,
    clean_text,
    command_word,
)
from bot.store.models import OrderRow, PlayerRow

VALID = [
    "H14", "#bst H14", "shoot H14", "fire at B2", "@bst fire A1", "pass", "random",
    "move cruiser at G7 3 up", "my sub at A2 1 down", "rotate carrier at E8",
    "turn my cruiser at F2", "sub: A2, carrier: C1-C5", "cruiser: B2-B4, cruiser: E5-G5",
    "place aircraft carrier: C1 to C5\nsub: A2", "AB12", "move cv at C1 2 backwards",
]  # fmt: skip
ODD = [
    "\x00", "\u202e", "\u200f", "\u200e", "\u2066", "\ufeff", "\u00a0", "\u3000", "\t",
    "\r", "\n", "\x1b[31m", "\x7f", "\u0301", "🚢", "💥", "👩‍👩‍👧", "🇫🇷", "Ⅻ", "٣", "𝟕",
    "ＡＢ", "-", "–", ":", ",", "#", "@", "99999999999999999999", "0", "-1", "ß", "İ",
]  # fmt: skip

any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)


@st.composite
def near_valid(draw: st.DrawFn) -> str:
    """A valid command, mutated: characters inserted, deleted, replaced, swapped, doubled."""
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "double", "case", "strip"]))
        odd = draw(st.sampled_from(ODD) | st.characters(codec="utf-8", exclude_categories=("Cs",)))
        if how == "insert":
            text = text[:where] + odd + text[where:]
        elif how == "delete":
            text = text[:where] + text[where + 1 :]
        elif how == "replace":
            text = text[:where] + odd + text[where + 1 :]
        elif how == "double":
            text = text[:where] + text[where:] * 2
        elif how == "case":
            text = text.swapcase()
        else:
            text = text.replace(" ", "")
    return text


@st.composite
def huge(draw: st.DrawFn) -> str:
    """About 100 KB: a valid command or an odd character repeated."""
    piece = draw(st.sampled_from(VALID + ODD))
    return (piece + draw(st.sampled_from(["", " ", "\n", ","]))) * (100_000 // (len(piece) + 1))


hostile = st.one_of(any_text, near_valid(), st.lists(st.sampled_from(ODD + VALID)).map("".join))


def _parse_refuses_cleanly(text: str) -> None:
    # How long a parse may take is measured in benchmarks/hostile.py, never asserted here.
    try:
        BST.rules.parse(text)
    except GameError as error:
        assert error.message and isinstance(error.message, str)
        assert len(error.message) < 1000, "a refusal does not echo a huge message"


def fast(examples: int) -> settings:
    """Seeded (derandomized), no deadline flakiness, no example database on disk."""
    return settings(
        derandomize=True,
        deadline=None,
        database=None,
        max_examples=examples,
        suppress_health_check=list(HealthCheck),
    )


@fast(4000)
@given(any_text)
def test_parse_random_text_raises_only_game_errors(text: str) -> None:
    _parse_refuses_cleanly(text)


@fast(4000)
@given(near_valid())
def test_parse_mutated_valid_orders_raises_only_game_errors(text: str) -> None:
    _parse_refuses_cleanly(text)


@fast(1500)
@given(st.lists(st.sampled_from(ODD + VALID), max_size=40).map("".join))
def test_parse_control_characters_rtl_emoji_and_nul(text: str) -> None:
    _parse_refuses_cleanly(text)


@fast(100)
@given(huge())
def test_parse_100_kb_texts_refused(text: str) -> None:
    assert len(text) >= 50_000
    _parse_refuses_cleanly(text)
    with pytest.raises(GameError):
        BST.rules.parse(text)


@fast(800)
@given(hostile)
def test_other_parsers_raise_only_game_errors(text: str) -> None:
    for parser in (parse_cell, parse_duration):
        with contextlib.suppress(GameError):
            parser(text)
    with contextlib.suppress(GameError):
        BST.rules.new_game({"size": text[:20], "turn": text[20:40] or "8h"})
    with contextlib.suppress(GameError):
        BST.rules.new_game({text[:30] or "x": text[30:60] or "y"})
    word, _rest = command_word(clean_text(text))
    assert word == word.lower()


# --- through the host -------------------------------------------------------


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MultiKit]:
    kit = MultiKit(Path(tmp_path_factory.mktemp("bad-input")), ["discord"])
    kit.battle("discord", "c")
    yield kit
    kit.close()


def _snapshot(kit: MultiKit) -> tuple[object, ...]:
    from sqlmodel import select

    with kit.store.transaction() as tx:
        game = tx.game(1)
        assert game is not None
        orders = [
            (o.id, o.player_key, o.turn, o.order) for o in tx.session.exec(select(OrderRow)).all()
        ]
        players = [(p.key, p.user_id, p.name) for p in tx.session.exec(select(PlayerRow)).all()]
        return (game.state, game.phase, game.turn, game.deadline, game.paused_remaining,
                orders, players)  # fmt: skip


def _last_outbox_id(kit: MultiKit) -> int:
    from sqlmodel import func, select

    from bot.store.models import OutboxRow

    with kit.store.transaction() as tx:
        return int(tx.session.exec(select(func.max(OutboxRow.id))).one() or 0)


def _outbox_after(kit: MultiKit, last_id: int) -> list:
    from sqlmodel import select

    from bot.store.models import OutboxRow

    with kit.store.transaction() as tx:
        return list(tx.session.exec(select(OutboxRow).where(OutboxRow.id > last_id)).all())


def _is_command_word(text: str) -> bool:
    word, _ = command_word(clean_text(text))
    return word in HOST_WORDS | PLAYER_WORDS


@settings(
    derandomize=True, deadline=None, database=None, max_examples=300,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
@given(
    text=st.one_of(hostile, huge()),
    who=st.sampled_from(["alice", "bob", "mallory"]),
    dm=st.booleans(),
)
def test_commands_handle_refuses_bad_input_with_a_reply_and_no_change(
    battle: MultiKit, text: str, who: str, dm: bool
) -> None:
    kit = battle
    try:
        # The host drops NUL characters as it takes a message in (bot/host/commands/inbox.py).
        BST.rules.parse(clean_text(text.replace("\x00", "")))
        parses = True
    except GameError:
        parses = False
    before = _snapshot(kit)
    replies_before = _last_outbox_id(kit)
    inbound = kit.inbound("discord", who, text, channel="c", dm=dm)
    effect = kit.host.commands.handle(inbound)
    kept = text[: MAX_TEXT * 2].replace("\x00", "")  # (as the host takes it in)
    bystander_talk = (
        who == "mallory" and not dm and not addresses_the_host(text) and len(kept) <= MAX_TEXT
    )
    if bystander_talk and not _is_command_word(text):
        # Untagged words in the game's channel from someone who plays no seat there: talk,
        # unanswered (issue 39 item 5), and nothing changes.
        assert effect.outcome is Outcome.IGNORED, (text[:80], effect)
        assert _snapshot(kit) == before and _outbox_after(kit, replies_before) == []
    elif not parses and not _is_command_word(text):
        assert effect.outcome is Outcome.REFUSED, (text[:80], effect)
    if effect.outcome is Outcome.REFUSED:
        assert _snapshot(kit) == before, f"a refused {text[:80]!r} changed the game"
        rows = _outbox_after(kit, replies_before)
        # A secret posted in public (a move) is also taken down: a row that says nothing.
        withdrawn = [r for r in rows if r.kind.startswith("withdraw:")]
        assert all(r.text == "" for r in withdrawn) and (not withdrawn or not dm), withdrawn
        rows = [r for r in rows if r not in withdrawn]
        assert len(rows) == 1 and rows[0].kind.startswith("reply:"), rows
        assert rows[0].recipient == f"discord:id-{who}", "refusals are private"
        assert len(rows[0].text) < 1000
