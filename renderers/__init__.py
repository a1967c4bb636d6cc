"""Pictures of the hosted games, drawn with Pillow from views only (design rule 8).

Every function here is pure: the same view and options give the same bytes. Nothing in this
package imports the host, the store, an adapter or a platform SDK; avatars are downloaded by
``bot.host.outbox.avatar_cache`` and handed in as images.

The shared parts are at the top: ``style`` (palette, fonts, text), ``avatars``, ``marks``
(anti-aliased hulls, shots, name tags), ``grid`` (a labelled square board), ``header`` (a
picture's title, status and lines of facts), ``legend`` (icons and their words in rows under a
board), ``alt_text`` (the limit of the words beside a picture, and long lists cut to fit),
``encode`` (PNG, MP4) and ``replay`` (cards, timing and limits of the end-of-game video). Each game with pictures has its package
(``renderers/bst/``): its drawing code (Sonar's hex geometry, which no other game draws, is
``renderers/sonar/hexgrid.py``) and one declaration, ``PICTURES``, a
:class:`~renderers.game_pictures.GamePictures` naming its drawing functions and the views
they are drawn from (it follows :class:`~renderers.pictures.Pictures`).
:mod:`renderers.catalog` lists each game's declaration by the game's name; the host finds it
with :func:`~renderers.catalog.pictures_for`.

What repeats between pictures is kept in small bounded caches shared by the drawing threads:
text widths, anti-aliased masks of marks, name tags, header text, round avatars (keyed by the
picture's content, not its identity) and the static layers of a map or replay frame (water,
grid, labels, legend). Each is keyed by everything that decides its pixels and is never
modified once made, so a picture is the same bytes whether the caches are cold or warm
(``tests/renderers/test_caches.py``).

Nothing here but the catalog names a game, and the catalog loads the games' pictures on the
first look-up, so importing any renderer loads no game's drawing code
(``tests/renderers/test_no_game_loaded.py``).
"""

from renderers.alt_text import MAX_ALT_TEXT
from renderers.avatars import AvatarError, decode_avatar, generated_avatar, round_avatar
from renderers.catalog import pictures_for
from renderers.encode import EncodeError, encode_mp4
from renderers.pictures import Picture, Pictures, Replay
from renderers.style import owner_colour

__all__ = [
    "MAX_ALT_TEXT",
    "AvatarError",
    "EncodeError",
    "Picture",
    "Pictures",
    "Replay",
    "decode_avatar",
    "encode_mp4",
    "generated_avatar",
    "owner_colour",
    "pictures_for",
    "round_avatar",
]
