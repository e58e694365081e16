"""The beam's search loop as it was before round ten (docs/research/beam-speed.md), for comparison.

Every position keyed, snapshotted and scored whole (:func:`games.solver.key.make_key_function`,
:func:`games.solver.beam.score`): what :class:`games.solver.beam.Beam` computes from the
piles a move touched must keep exactly the same positions in every layer."""

from __future__ import annotations

from typing import Any

from games.engine import GameState
from games.engine import moves as engine_moves
from games.engine.notation import DRAW, DRAW_MOVE
from games.solver.beam import WEIGHTS, Weights, _keep, _snapshot, _unlink, score
from games.solver.heuristics import knowledge_for
from games.solver.key import make_key_function
from games.solver.movegen import make_generator


def reference_layers(
    game: GameState,
    width: int,
    closure: int,
    weights: Weights = WEIGHTS,
    spread: int = 0,
) -> tuple[list[list[tuple[Any, ...]]], list[str] | None]:
    """(the (score, key, snapshot, line) kept in each layer, the winning line or None)."""
    ordered, legal = knowledge_for(game).ordered, make_generator(game)
    key = make_key_function(game)
    deck = game.rules.deck_size
    stock0 = list(game.stock)
    layers: list[list[tuple[Any, ...]]] = []
    layer: list[tuple[Any, Any]] = [(_snapshot(game), None)]
    draw = False
    while layer:
        pool: dict[int, tuple[Any, ...]] = {}
        for snap, line in layer:
            piles, found, down, stock, home, points = snap
            game.set_position(
                [list(p) for p in piles],
                list(found),
                list(down),
                stock0[:stock],
                home=home,
                score=points,
            )
            if draw:
                engine_moves.apply(game, DRAW_MOVE)
                line = (DRAW_MOVE, line)
            budget, path, lines = closure, [], [line]
            frames: list[list[Any]] = [[ordered(game, legal(game), None), 0]]
            k = key(game)
            if k not in pool:
                pool[k] = (score(game, weights), k, _snapshot(game), line)
            while frames and budget > 0:
                frame = frames[-1]
                children, i = frame
                if i >= len(children):
                    frames.pop()
                    lines.pop()
                    if path:
                        engine_moves.revert(game, path.pop())
                    continue
                frame[1] = i + 1
                move = children[i]
                if move[0] == DRAW:
                    continue
                record = engine_moves.apply(game, move)
                budget -= 1
                here = (move, lines[-1])
                if game.home == deck:
                    return layers, _unlink(here)
                k = key(game)
                if k in pool:
                    engine_moves.revert(game, record)
                    continue
                pool[k] = (score(game, weights), k, _snapshot(game), here)
                path.append(record)
                lines.append(here)
                frames.append([ordered(game, legal(game), move), 0])
        best = _keep(pool, width, spread)
        layers.append([(s, k, snap, _unlink(line)) for s, k, snap, line in best])
        layer = [(snap, line) for _, _, snap, line in best if snap[3]]
        draw = True
    return layers, None
