"""The running host: its service loop, clock, limits, health and threads."""
