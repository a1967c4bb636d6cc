"""The game's web page: a read-only window on the database for spectators, and private
links for players (``bst web``; ``bst run`` serves it when ``[web] enabled``).

One idea a module: :mod:`~bot.web.pages` writes the HTML (no JavaScript needed, a little
for live updates and zoom), :mod:`~bot.web.pictures` draws and caches the images (ETag),
:mod:`~bot.web.links` finds a private link's holder in constant time,
:mod:`~bot.web.live` tells open pages that a turn resolved (server-sent events),
:mod:`~bot.web.site` decides what each address answers, and :mod:`~bot.web.app` serves it
with aiohttp. Nothing here writes the database: the web's store is read-only.
"""
