"""Silent Ships rules §6: what each player sees — views, text boards and refusals."""

from __future__ import annotations

import random

import pytest
from silentships_helpers import GAME, act, arranged, table

from bot.games.base import Channel, WrongChannelError
from bot.games.silentships.ships import CARDS, Ship
from bot.games.silentships.views import PrivateView, PublicView, RevealedView


def test_6_everyone_sees_owners_of_face_down_units_but_not_their_ships() -> None:
    state = arranged(
        "ahab: C1 frigate up, D2 flag; nemo: C4 sub", hands={"ahab": "ram"}, sank={"nemo": "speed"}
    )
    view = GAME.views.view(state, None)
    assert isinstance(view, PublicView)
    assert [(str(u.cell), u.owner_name, u.face_up, u.ship) for u in view.units] == [
        ("C1", "ahab", True, Ship.FRIGATE),
        ("D2", "ahab", False, None),
        ("C4", "nemo", False, None),
    ]
    ahab, nemo = view.admirals
    assert (ahab.hand_size, ahab.deck_size, ahab.discard_count) == (1, 7, 0)
    assert nemo.sank == (Ship.SPEED_BOAT,)
    assert (str(ahab.country), str(nemo.country)) == ("C1", "C4")
    for hidden in ("FLAG_SHIP", "SUBMARINE", "RAMMING_SHIP"):  # face-down or in a hand
        assert hidden not in repr(view)


def test_6_a_player_also_sees_their_own_hand_discards_and_face_down_ships() -> None:
    state = arranged("ahab: D2 flag; nemo: C4 sub", hands={"ahab": "ram sub"})
    state = act(state, "ahab", "move D2 to D1 discard sub")
    mine = GAME.views.view(state, "p1")
    assert isinstance(mine, PrivateView)
    assert mine.hand == (Ship.RAMMING_SHIP,)
    assert mine.discards == (Ship.SUBMARINE,)
    assert [(str(u.cell), u.ship, u.face_up) for u in mine.units] == [("D1", Ship.FLAG_SHIP, False)]
    theirs = GAME.views.view(state, "p2")
    assert isinstance(theirs, PrivateView)
    assert [u.ship for u in theirs.units] == [Ship.SUBMARINE]
    assert all(u.ship is None for u in theirs.public.units if u.owner == "p1")


def test_6_the_replay_shows_every_card() -> None:
    state = arranged("ahab: D2 flag; nemo: C4 sub", hands={"ahab": "ram"})
    revealed = GAME.views.reveal(state)
    assert isinstance(revealed, RevealedView)
    ahab = revealed.cards[0]
    assert ahab.hand == (Ship.RAMMING_SHIP,) and len(ahab.deck) == 9
    assert ahab.units[0].ship is Ship.FLAG_SHIP


def test_6_a_private_order_posted_in_public_is_refused_without_repeating_it() -> None:
    state = arranged("ahab: C1 frigate; nemo: C4 sub", hands={"ahab": "flag ram"})
    for text in (
        "play flag at D1",
        "move C1 to C2 discard flag",
        "support C3 discard flag",
        "retreat discard flag",
        "pass",
    ):
        with pytest.raises(WrongChannelError) as refused:
            GAME.rules.accept(state, "p1", GAME.rules.parse(text), Channel.PUBLIC, random.Random(0))
        assert "flag" not in refused.value.message.lower()
        assert "by DM" in refused.value.message


def test_6_the_public_text_board_names_face_up_ships_only() -> None:
    state = arranged("ahab: C1 frigate up, D2 flag; nemo: C4 sub", hands={"ahab": "ram"})
    public = GAME.words.summary(state, None) + "\n" + GAME.words.text_board(state, None)
    assert "1FR" in public and "1?" in public and "2?" in public
    for hidden in (Ship.FLAG_SHIP, Ship.SUBMARINE, Ship.RAMMING_SHIP):
        assert CARDS[hidden].name not in public
    mine = GAME.words.summary(state, "p1") + "\n" + GAME.words.text_board(state, "p1")
    assert "1fl" in mine and "Ramming Ship" in mine and "2?" in mine


def test_6_the_first_games_public_words_name_no_hidden_card() -> None:
    t = table(
        "deck1=frigate,salvage,ram,speed,patrol deck2=sub,missile,fire,ammo,flag",
        "ahab dm: play frigate at D1",
        "ahab dm: move D1 to D2 discard patrol",
        "ahab dm: end",
    )
    words = [
        GAME.words.opening(t.game),
        GAME.words.beginning(t.game, t.names),
        GAME.words.hint(t.game),
        GAME.words.example(),
        GAME.words.summary(t.game, None),
        GAME.words.text_board(t.game, None),
        GAME.words.help_text(),
        GAME.words.welcome(t.game, "p1", 1),
    ]
    words += [text for _, text in t.public_notices]
    from bot.games.base import Event

    for step in t.history:
        words += GAME.words.public_report(
            [Event(e["type"], {k: v for k, v in e.items() if k != "type"}) for e in step.events],
            t.names,
        )
    text = "\n".join(words).lower()
    for ship in Ship:
        assert ship.value not in text and ship.card.name.lower() not in text, ship
