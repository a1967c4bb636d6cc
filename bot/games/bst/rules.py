"""bst's rules part (``Rules`` in ``bot/games/base.py``): the state machine as the host
calls it, each member bound to the module that holds that rule — setup and the game's
end in ``lifecycle.py``, orders in ``acceptance.py``, the turns in ``turns.py``. The
turn, the options' text and one captain a seat are the neutral rules'."""

from __future__ import annotations

from bot.games.base import NeutralRules
from bot.games.bst import acceptance, lifecycle, turns
from bot.games.bst.orders import Order, parse_order
from bot.games.bst.standings import standings
from bot.games.bst.state import BstState


class BstRules(NeutralRules[BstState, Order]):
    """bst's state machine, where it differs from the neutral rules."""

    new_game = staticmethod(lifecycle.new_game)
    join = staticmethod(lifecycle.join)
    start = staticmethod(lifecycle.start)
    parse = staticmethod(parse_order)
    accept = staticmethod(acceptance.accept_order)
    timers = staticmethod(turns.timers)
    to_act = staticmethod(turns.to_act)
    resolve = staticmethod(turns.resolve_turn)
    expire = staticmethod(turns.expire)
    remove = staticmethod(lifecycle.remove)
    finish = staticmethod(lifecycle.finish)
    outcome = staticmethod(lifecycle.outcome)
    standings = staticmethod(standings)
