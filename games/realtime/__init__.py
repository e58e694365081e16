"""The realtime path: the game socket, its groups, threads, live games and solver pool."""
