"""Look-alike letters in every game that takes cells (#42): a cell typed with a Cyrillic or
Greek letter that looks Latin is pointed out, quoting the word as typed and giving the
Latin spelling; a fullwidth one is read as the plain letter."""

from __future__ import annotations

import pytest

from bot.games.base import OrderSyntaxError
from bot.games.catalog import get_game

# One order a game takes with a cell in it, written "{cell}".
CELL_ORDERS = {
    "bst": "{cell}",
    "sonar": "{cell}",
    "sugardog": "{cell}",
    "uboat": "fire {cell}",
    "silentships": "play frigate at {cell}",
}
LOOKALIKES = [
    ("В4", "Cyrillic", "В"),  # Cyrillic Ve
    ("Β4", "Greek", "Β"),  # Greek Beta
    ("С2", "Cyrillic", "С"),  # Cyrillic Es
    ("Α1", "Greek", "Α"),  # Greek Alpha
    ("а1", "Cyrillic", "а"),  # small Cyrillic a, quoted small as typed
]


@pytest.mark.parametrize("kind", sorted(CELL_ORDERS))
@pytest.mark.parametrize(("typed", "script", "letter"), LOOKALIKES)
def test_a_cell_with_a_lookalike_letter_is_pointed_out_as_typed(
    kind: str, typed: str, script: str, letter: str
) -> None:
    game = get_game(kind)
    with pytest.raises(OrderSyntaxError) as refused:
        game.rules.parse(CELL_ORDERS[kind].format(cell=typed))
    message = str(refused.value)
    assert f"'{typed}'" in message
    assert f"{script} letter '{letter}'" in message
    latin = typed.translate(str.maketrans("ВΒСΑа", "BBCAa")).upper()
    assert f"`{latin}`" in message


@pytest.mark.parametrize("kind", sorted(CELL_ORDERS))
def test_a_fullwidth_cell_is_read_as_the_plain_one(kind: str) -> None:
    game = get_game(kind)
    order = CELL_ORDERS[kind]
    assert game.rules.parse(order.format(cell="Ｂ２")) == game.rules.parse(order.format(cell="B2"))


@pytest.mark.parametrize(
    "typed", ["Shoot Somewhere", "Rotate The Big One", "MOVE Cruiser Away", "Hello There"]
)
def test_a_bst_refusal_quotes_the_order_as_typed_not_lower_cased(typed: str) -> None:
    with pytest.raises(OrderSyntaxError) as refused:
        get_game("bst").rules.parse(f"#bst {typed}")
    assert f"got {typed!r}" in str(refused.value)


@pytest.mark.parametrize(
    ("kind", "typed", "quoted"),
    [
        ("sonar", "F11, Zz9", "'Zz9'"),
        ("silentships", "play frigate at Zz", "'Zz'"),
        ("sugardog", "cruise Up Sideways", "'Sideways'"),
        ("uboat", "move Up Sideways", "'Sideways'"),
        ("bst", "Fire At Will", "'Fire At Will'"),
    ],
)
def test_every_games_refusal_quotes_what_was_typed(kind: str, typed: str, quoted: str) -> None:
    with pytest.raises(OrderSyntaxError) as refused:
        get_game(kind).rules.parse(typed)
    assert quoted in str(refused.value)
