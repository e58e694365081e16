"""A solver for Forty Thieves and its variants, in pure Python over the engine.

``solve(game)`` searches the position with every card known (the server knows
the stock) and answers "win" with a line of canonical moves, "lost" when the
whole reachable space was exhausted without a win (a proof), or "unknown"
when the budget ran out. ``hint`` gives one move; ``is_dead`` decides
endgames (stock empty, no redeal left).

The search is in :mod:`.search` (depth-first with a transposition table,
restarted with a perturbed move order, see :func:`solve`) and :mod:`.beam`
(a beam search over draw layers that can only find wins),
the pruning and move ordering in :mod:`.heuristics` (each pruning rule is
argued safe there), the dead positions and lone draws of the exhaustive search in
:mod:`.deadlock`, the position keys in :mod:`.key`. The one search loop
keeps the positions it proves lost in a table that outlives it, shared by the
restarts of one solve and by the searches of one game (:mod:`.search`); the
soundness argument, the exhaustive mode and the fast decider are in
:mod:`.prove`. The engine is the only
judge of the rules: moves come from ``moves.legal`` (or :mod:`.movegen`, a
faster generator tested to list exactly the same moves) and are played with
``moves.apply``; nothing here restates a rule. No Django is imported.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass, field

from games.engine import GameState
from games.engine import moves as _moves
from games.engine.notation import Move, format_move

from .beam import WEIGHTS, Beam, Weights
from .heuristics import evaluate, knowledge_for
from .movegen import make_generator
from .search import LostTable, Search

__all__ = ["SolveResult", "dead_end_decidable", "hint", "is_dead", "solve"]


@dataclass
class SolveResult:
    verdict: str  # "win" | "lost" | "unknown"
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


def _private_copy(game: GameState) -> GameState:
    """A copy that shares nothing with ``game`` and keeps no undo history."""
    copy = GameState(
        game.rules,
        [list(p) for p in game.piles[1:]],
        list(reversed(game.stock)),
        waste=list(game.piles[0]),
        foundations=list(game.found),
        down=list(game.down[1:]),
        undo_limit=0,
        redeals_left=game.redeals_left,
        score=game.score,
    )
    return copy


#: Nodes of the first restart; restart ``i`` gets ``luby(i)`` times this.
RESTART_NODES = 2000
#: The beam phase runs from this share of the time budget ...
BEAM_FROM = 0.1
#: ... to at most this share (the restarts resume after it).
BEAM_UNTIL = 0.9
#: Positions kept per draw layer by the first beam, per second of the budget
#: (each next beam is as wide as the time left allows), and positions listed
#: from each between draws. A classic deal takes about 4 ms per unit of width.
BEAM_WIDTH_PER_SECOND = 40
BEAM_CLOSURE = 60
#: Nodes of the exact search from each position the beam ends with (stock empty).
BEAM_ENDGAME_NODES = 2000
#: The beams of the portfolio, in turn (see :func:`_beams`): score weights, and the share
#: of the width that may hold positions with the same foundations (0: no cap, see
#: :func:`.beam._keep`). The tuned weights first; then the same with at most a tenth of
#: the beam on any one foundation state; then the tuned weights with the cards the
#: foundations need next weighing twice as much. A beam drops different positions under
#: other weights or caps, so it wins different deals: on classic deals that one beam of
#: width 400 left undecided, each of the others won some at that width where a wider beam
#: under the first won none (docs/benchmarks.md, rounds five to seven).
BEAM_PORTFOLIO: tuple[tuple[Weights, float], ...] = (
    (WEIGHTS, 0.0),
    (WEIGHTS, 0.1),
    ((20.0, 12.0, 0.25, 6.0, 10.0), 0.0),
)
#: The narrowest beam of the portfolio's first round, as a share of the first beam's width.
BEAM_NARROWEST = 0.25


def luby(i: int) -> int:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (``i`` from 1)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def solve(
    game: GameState,
    *,
    max_seconds: float = 10.0,
    max_nodes: int | None = None,
    table: LostTable | None = None,
) -> SolveResult:
    """Search ``game`` (never changed) for a win within the budget.

    Once the stock is empty and no redeal is left the space is small: one
    complete depth-first search gets the whole budget. Otherwise the search
    is restarted: run ``i`` is a complete depth-first search cut off after
    ``luby(i) * RESTART_NODES`` nodes, run 0 with the plain move order, the
    others with a randomly perturbed one (seeded, so results repeat). Deep
    mistakes near the root are what sinks a single depth-first search in this
    game (the waste is a stack: an early draw order is paid for fifty moves
    later); restarts revisit the early choices while each run still digs deep.
    Any run that ends without hitting its cut-off has exhausted the space
    (the perturbation changes the order of the moves, never which are kept),
    so its "lost" is a proof. The Luby schedule makes the cut-offs grow
    without bound, so with time every position is eventually decided.

    Without a node budget, a stock to play and no redeal, the restarts give
    way from ``BEAM_FROM`` to ``BEAM_UNTIL`` of the time to beams over draw
    layers (:mod:`.beam`), the first ``BEAM_WIDTH_PER_SECOND`` times the budget
    in seconds wide, then one under each other score weights or cap of
    ``BEAM_PORTFOLIO`` (as wide, or as wide as fits), then beams as wide
    as the time left allows. A beam
    drops positions by a score, so it can only find wins (replayed by the
    engine like any other); "lost" still comes only from an exhausted
    restart. On classic deals the beams find most of the wins that take more
    than a fraction of a second.

    Every restart and every end game of the beams reads and fills one
    :class:`~.search.LostTable` (``table``, of the same game, when given: a
    caller deciding several positions of one game passes one): a later run
    stops at once wherever an earlier one proved a loss. The perturbed order
    never changes which positions are lost, so the proofs hold for every run.
    """
    start = time.perf_counter()
    if table is None:
        table = LostTable()
    deadline = start + max_seconds
    nodes = 0
    endgame = not game.stock and not (game.redeals_left and game.piles[0])
    run = 0
    verdict, line = "unknown", []
    beam_at = None
    if not endgame and max_nodes is None and not game.rules.redeals:
        beam_at = start + BEAM_FROM * max_seconds
    while True:
        if beam_at is not None and time.perf_counter() >= beam_at:
            beam_at = None
            width = max(20, int(BEAM_WIDTH_PER_SECOND * max_seconds))
            moves, used = _beams(game, start + BEAM_UNTIL * max_seconds, width, table)
            nodes += used
            if moves is not None:
                verdict, line = "win", [format_move(m) for m in moves]
                if not _replays_to_win(game, line):  # the engine is the judge
                    raise AssertionError("solver line does not replay to a win")
                break
        remaining = None if max_nodes is None else max_nodes - nodes
        if remaining is not None and remaining <= 0:
            break
        if endgame:
            limit = remaining
        else:
            limit = luby(run + 1) * RESTART_NODES
            if remaining is not None:
                limit = min(limit, remaining)
        search = Search(
            _private_copy(game),
            deadline=deadline,
            max_nodes=limit,
            noise=random.Random(run) if run else None,
            table=table,
            lone_draws=False,  # searching the draw alone reorders the search: wins come later
        )
        verdict, moves = search.run()
        nodes += search.nodes
        if verdict == "win":
            line = [format_move(m) for m in moves]
            if not _replays_to_win(game, line):  # the engine is the judge
                raise AssertionError("solver line does not replay to a win")
            break
        if verdict == "lost" or endgame or time.perf_counter() >= deadline:
            break
        run += 1
    return SolveResult(verdict, line, nodes, time.perf_counter() - start)


def beam_over(
    work: GameState,
    *,
    deadline: float,
    width: int,
    weights: Weights = WEIGHTS,
    spread: float = 0.0,
) -> Beam:
    """A beam of ``width`` positions a draw layer from ``work`` (which it plays on), with
    the solver's knowledge, move generator and position keys; at most ``spread`` of the
    width on any one foundation state (0: no cap)."""
    return Beam(
        work,
        know=knowledge_for(work),
        legal=make_generator(work),
        deadline=deadline,
        width=width,
        closure=BEAM_CLOSURE,
        weights=weights,
        spread=max(1, int(spread * width)) if spread else 0,
    )


def _beams(
    game: GameState, deadline: float, width: int, table: LostTable | None = None
) -> tuple[list[Move] | None, int]:
    """The beam phase (see :mod:`.beam`): a beam of ``width`` as the first entry of
    ``BEAM_PORTFOLIO`` says, one as each of the others says (as wide, or as wide as the
    time left allows, down to ``BEAM_NARROWEST`` of it), then beams as wide as the
    time left allows (the entries still in turn), until one wins or no beam that wide fits;
    returns (winning move list or ``None``, nodes)."""
    nodes = 0
    first = width
    for turn in itertools.count():
        began = time.perf_counter()
        # a fresh copy each time: a beam and its end games leave their copy anywhere
        # (a wider beam started from there, the last end game, searched nothing)
        work = _private_copy(game)
        weights, spread = BEAM_PORTFOLIO[turn % len(BEAM_PORTFOLIO)]
        beam = beam_over(work, deadline=deadline, width=width, weights=weights, spread=spread)
        moves = beam.run()
        nodes += beam.nodes
        if moves is not None:
            return moves, nodes
        for snap, tail in beam.endgames():
            if time.perf_counter() >= deadline:
                break
            beam.restore(snap)
            search = Search(work, deadline=deadline, max_nodes=BEAM_ENDGAME_NODES, table=table)
            verdict, rest = search.run()
            nodes += search.nodes
            if verdict == "win":
                return beam.line(tail) + rest, nodes
        if not beam.dropped:  # it kept every position: no other beam finds more
            return None, nodes
        # the time grows about linearly with the width: ``fit`` is the width of a beam
        # that would take three quarters of the time left
        now = time.perf_counter()
        fit = width * 0.75 * (deadline - now) / max(now - began, 1e-3)
        unrun = len(BEAM_PORTFOLIO) - turn - 1
        if unrun > 0:
            # the portfolio's first round: every entry once, each as wide as the first
            # beam if the time left allows, else as wide as fits (each other entry wins
            # deals the first leaves, a wider beam of the same seldom does; the earlier
            # entries win more, so they are not narrowed to share the time with the
            # later ones), but not so narrow that it is hopeless
            width = min(first, int(fit))
            if width < first * BEAM_NARROWEST:
                return None, nodes
            continue
        # then beams as wide as fits, the entries still in turn; none if barely wider
        if fit < first * 1.25:
            return None, nodes
        width = int(min(fit, first * 16))
    raise AssertionError("unreachable")  # itertools.count never ends


def _replays_to_win(game: GameState, line: list[str]) -> bool:
    check = _private_copy(game)
    check.replay(line)
    return check.is_won()


def hint(game: GameState, *, max_seconds: float = 1.0) -> str | None:
    """The first move of a winning line if one is found in time, else the
    legal move leading to the best-scored position; ``None`` without moves."""
    legal = _moves.legal(game)
    if not legal:
        return None
    result = solve(game, max_seconds=max_seconds)
    texts = [format_move(m) for m in legal]
    if result.verdict == "win" and result.line and result.line[0] in texts:
        return result.line[0]
    work = _private_copy(game)
    know = knowledge_for(work)
    order = know.ordered(work, legal, None) or legal
    best, best_score = order[0], None
    for rank, move in enumerate(order):
        record = _moves.apply(work, move)
        score = evaluate(work) - 0.01 * rank
        _moves.revert(work, record)
        if best_score is None or score > best_score:
            best, best_score = move, score
    return format_move(best)


def dead_end_decidable(game: GameState) -> bool:
    """Whether :func:`is_dead` can decide the position: the stock spent and no redeal
    left (before that it answers ``None`` at once, so a caller need not ask)."""
    return not (game.stock or (game.redeals_left and game.piles[0]))


def is_dead(
    game: GameState, *, max_seconds: float = 5.0, max_nodes: int | None = None
) -> bool | None:
    """Exact dead-end test once the stock is empty and no redeal is left:
    True when no win is possible, False when one exists, None when the budget
    ran out (or the stock is not yet empty)."""
    if game.stock or (game.redeals_left and game.piles[0]):
        return None
    if game.is_won():
        return False
    result = solve(game, max_seconds=max_seconds, max_nodes=max_nodes)
    return {"win": False, "lost": True}.get(result.verdict)
