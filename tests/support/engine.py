"""Positions for engine and solver tests: a game walked at random from a deal."""

from __future__ import annotations

import random

from games.engine import GameState


def random_walk(game: GameState, rng: random.Random, steps: int) -> GameState:
    """``game`` after up to ``steps`` legal moves chosen by ``rng`` (fewer when none is
    left); the same game, changed in place."""
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game
