"""Names that are not ASCII are drawn, not folded away or shown as boxes."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from renderers import style
from renderers.fallback_font import fallback_coverage


def test_the_fallback_font_covers_latin_greek_and_cyrillic_but_not_cjk() -> None:
    covered = fallback_coverage()
    assert all(ord(ch) in covered for ch in "AzëŁñßΑθηνᾶДмитрийÅøœ")
    assert ord("山") not in covered and ord("田") not in covered


def test_names_keep_their_letters_and_lose_only_what_no_font_has() -> None:
    assert style.drawable("Zoë Łukasz") == "Zoë Łukasz"
    assert style.drawable("Дмитрий") == "Дмитрий"
    assert style.drawable("山田 太郎") == "?? ??"
    assert style.drawable("tab\there") == "tab here"


def test_ascii_text_keeps_pillows_font_and_other_text_gets_the_fallback() -> None:
    assert style.font(20, "Zoe") is style.font(20)  # the same pictures as before for ASCII
    assert style.font(20, "Zoë") is not style.font(20)
    assert style.font(20, "Zoë").getname()[0] == "DejaVu Sans"


def _pixels(text: str, size: int = 28) -> bytes:
    image = Image.new("L", (200, 50))
    ImageDraw.Draw(image).text((5, 5), text, font=style.font(size, text), fill=255)
    return image.tobytes()


def test_an_accented_letter_is_drawn_as_itself_not_as_a_box() -> None:
    missing = "\U000f0000"  # a private-use character no font here has: its empty box
    assert _pixels("ë") != _pixels(missing)
    assert _pixels("Д") != _pixels(missing)
    assert _pixels("ë") != _pixels("e")


@given(st.text(max_size=30))
def test_whatever_a_name_holds_every_character_left_has_a_glyph(name: str) -> None:
    covered = fallback_coverage()
    for ch in style.drawable(name):
        assert ch == "?" or ch.isascii() or ord(ch) in covered, (name, ch)
        assert not unicodedata.category(ch).startswith("C") or ch == " "
