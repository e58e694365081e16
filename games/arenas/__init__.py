"""Arenas (issue 40, part C; docs/arenas.md): scheduled windows of rounds, one fresh deal
per round for every entrant at one instant, points per round by place."""
