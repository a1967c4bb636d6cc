"""A game in play: orders, turns, the clock's timers, robots, endings and records."""
