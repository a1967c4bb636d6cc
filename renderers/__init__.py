"""Pictures of bst games, drawn with Pillow from views only (design rule 8).

Every function here is pure: the same view and options give the same bytes. Nothing in this
package imports the host, the store, an adapter or a platform SDK; avatars are downloaded by
``bot.host.avatar_cache`` and handed in as images.

What repeats between pictures is kept in small bounded caches shared by the drawing threads:
text widths, anti-aliased masks of marks, name tags, header text, round avatars (keyed by the
picture's content, not its identity) and the static layers of a map or replay frame (water,
grid, labels, legend). Each is keyed by everything that decides its pixels and is never
modified once made, so a picture is the same bytes whether the caches are cold or warm
(``tests/renderers/test_caches.py``).
"""

from renderers.alt_text import MAX_ALT_TEXT, private_alt_text, public_alt_text
from renderers.avatars import AvatarError, decode_avatar, generated_avatar, round_avatar
from renderers.encode import EncodeError, encode_mp4
from renderers.private_board import render_private_board
from renderers.public_map import render_public_map
from renderers.replay import Replay, ReplayFrame, render_replay
from renderers.style import owner_colour

__all__ = [
    "MAX_ALT_TEXT",
    "AvatarError",
    "EncodeError",
    "Replay",
    "ReplayFrame",
    "decode_avatar",
    "encode_mp4",
    "generated_avatar",
    "owner_colour",
    "private_alt_text",
    "public_alt_text",
    "render_private_board",
    "render_public_map",
    "render_replay",
    "round_avatar",
]
