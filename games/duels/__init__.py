"""Duels: two players, one freshly dealt deal each playing an ordinary server-validated game
of it at the same instant, with one clock on the server (docs/duels.md)."""
