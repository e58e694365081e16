"""Blind-survival evidence: one won game's calibrated e-value against foresight (pure).

A per-game statistic for the sequential test of fair play (an e-process that multiplies
evidence across days, ``leaderboards/fairplay/eprocess.py``). It must have expectation at
most one for *every* player who cannot see the stock, whatever their skill or strategy;
then a product of such values over days is a test supermartingale and Ville's
inequality bounds how often an honest player's product ever reaches a threshold.

The statistic, draw by draw
---------------------------
Cut the log after each draw: a *block* is the moves a player made before turning a card,
and the draw. Everything the block's moves touch is face up, so the player chose them
knowing only what they had seen; the draw then reveals the next stock card. At the
block's start, sample ``completions`` random orders of the unseen cards (exactly as an
honest player could imagine them, the unseen cards shuffled), and play the
player's block on each of them and on the true deal. Weigh each of these ``k + 1``
positions with ``h``: 1 when the solver wins it within its budget, ``UNKNOWN_WEIGHT``
when it does not decide it, 0 when it proves it lost. The block's factor is::

    e = h(true) * (k + 1) / (h(true) + h(c_1) + ... + h(c_k))

Why it is calibrated: for a player who cannot see the stock, the block was chosen from
what they had seen, so given what they had seen the true order and the ``k`` sampled ones
are exchangeable (the true one is just one more random completion). Any ratio
``h(x) / mean h`` of exchangeable draws has expectation at most one (exactly one unless
all weights are zero), so each factor has mean <= 1 given what the player had seen. A
player who sees the stock keeps the true deal winnable where most orders consistent with
the table would have died, and collects ``(k + 1) / (1 + survivors)`` at such draws.

The game's value is the **mean** of its draws' factors, not their product. ``h`` reads
the whole rest of the stock, cards that the next weighed draw has not revealed yet, so
the true position's verdicts at successive draws read the same hidden cards (a true deal
that was winnable at one draw is far more often winnable at the next than a fresh
completion: 86 % against 75 % for the strongest honest bot) while each draw's completions
are fresh. Given the earlier factors the true order is then *not* exchangeable with the
next draw's completions, so the product of the factors is not a martingale (a toy whose
verdict reads the stock's last card turns twelve factors of mean one into a product of
mean about 66: ``tests/solver/test_evidence_calibration.py``). An average of e-values
with weights fixed in advance is an e-value whatever their dependence, so the mean over a
fixed number of slots (every stock count that may be weighed; a slot not weighed counts
1) has mean <= 1 for every blind player.

The solver's budgets are counts (nodes, a beam's width), never a clock: ``h`` must be a
function of the position alone, or the machine's load could treat the true position
differently from the others. The ``k + 1`` positions are also solved in a random order.

The server's sequential test no longer uses this mean: it judges the truth on its next
cards and a certified tail (``games.solver.horizon``), whose factors multiply validly; this
module keeps what both use: the draw factor, the decider, the certification and the pool.
The mean itself is ``benchmarks/blind_survival.py``, for the benchmarks and tests that
compare the two.

Only blocks that start with at most ``max_stock`` cards in the stock are weighed (the
solver decides few earlier positions within a small budget, so they carry little
evidence) and, to bound the cost, only every ``stride``-th draw: the slots are chosen by
the stock count alone, before any card is seen.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.engine import GameState
from games.engine.notation import format_move

from . import BEAM_ENDGAME_NODES, SolveResult, _private_copy, beam_over
from .search import Search

#: The weight of a position the solver did not decide within its budget (above zero, so
#: an undecided true position does not wipe out a game's evidence).
UNKNOWN_WEIGHT = 0.25
WEIGHTS = {"w": 1.0, "l": 0.0, "u": UNKNOWN_WEIGHT}
#: Defaults: four completions, a 2,000-node search and a beam 20 wide a position, every
#: fourth draw from 48 cards left in the stock down (12 weighed draws, 60 positions).
COMPLETIONS = 4
NODES = 2000
WIDTH = 20
MAX_STOCK = 48
STRIDE = 4
#: The server's choice (docs/fairplay.md §6): weigh lost games too (their draws count
#: as a won game's do, instead of the game counting 0).
LOSSES = True


#: Far enough that no clock cuts a decision: the budgets are counts, not seconds.
_NO_DEADLINE = 1e12


def decide(
    game: GameState,
    *,
    nodes: int = NODES,
    width: int = WIDTH,
    sleep: bool = False,
    widths: tuple[int, ...] = (),
) -> tuple[str, list[str], int]:
    """The solver's two phases on a position, with fixed budgets so the answer is a
    function of the position alone (a clock would make it depend on the machine's load):
    a depth-first search of ``nodes`` nodes ("w" a win, "l" proved lost), then one beam
    of ``width`` positions a draw layer, each of its endgames searched for
    ``BEAM_ENDGAME_NODES`` nodes ("w" when it finds a win); "u" otherwise. Returns the
    verdict, a winning line when "w", and the nodes spent. ``sleep``: the depth-first
    search puts commuting moves to sleep (:mod:`.sleep`; another function of the position,
    off in the site's certification and statistic, whose cached verdicts it would change).
    ``widths``: on a position still undecided, one more beam of each width in turn
    (:func:`widen`); empty (the default) is the decider the cached verdicts used."""
    if game.is_won():
        return "w", [], 0
    search = Search(_private_copy(game), deadline=_NO_DEADLINE, max_nodes=nodes, sleep=sleep)
    found, moves = search.run()
    spent = search.nodes
    if found == "win":
        return "w", [format_move(m) for m in moves], spent
    if found == "lost":
        return "l", [], spent
    line, used = _beam_win(game, width)
    spent += used
    if line is not None:
        return "w", line, spent
    found, line, used = widen(game, widths)
    return found, line, spent + used


def _beam_win(game: GameState, width: int) -> tuple[list[str] | None, int]:
    """One beam of ``width`` positions a draw layer, then a ``BEAM_ENDGAME_NODES`` search
    from each position it ends with: a winning line, or ``None``; and the nodes spent."""
    work = _private_copy(game)
    beam = beam_over(work, deadline=_NO_DEADLINE, width=width)
    line = beam.run()
    spent = beam.nodes
    if line is not None:
        return [format_move(m) for m in line], spent
    for snap, tail in beam.endgames():
        beam.restore(snap)
        end = Search(work, deadline=_NO_DEADLINE, max_nodes=BEAM_ENDGAME_NODES)
        found, rest = end.run()
        spent += end.nodes
        if found == "win":
            return [format_move(m) for m in beam.line(tail) + rest], spent
    return None, spent


def widen(game: GameState, widths: tuple[int, ...]) -> tuple[str, list[str], int]:
    """The stronger decider's extra phases on a position :func:`decide`'s first two left
    undecided: a beam of each of ``widths`` in turn with its endgame searches, stopping at
    the first win ("w" and its line; "u" when none wins). Beams only find wins, so this
    never turns a verdict into "l". Counts only, never a clock: the verdict stays a
    function of the position (the draw factor's validity needs no more). Not used by the
    server: on the cached games it settled half of the undecided completions as well as the
    foresight player's truths, and the test's evidence a day fell (docs/benchmarks.md,
    "Round ten (session 14): wider beams in the decider")."""
    spent = 0
    for width in widths:
        line, used = _beam_win(game, width)
        spent += used
        if line is not None:
            return "w", line, spent
    return "u", [], spent


def verdict(game: GameState, *, nodes: int = NODES, width: int = WIDTH, sleep: bool = False) -> str:
    """:func:`decide`'s verdict alone."""
    return decide(game, nodes=nodes, width=width, sleep=sleep)[0]


def certification(
    game: GameState, *, max_seconds: float = 0.0, max_nodes: int | None = None
) -> SolveResult:
    """The site's deterministic certification (``FT_DAILY_CERTIFY_NODES``): :func:`decide`
    from the deal's start with a ``max_nodes`` search (``NODES`` when ``None``), never a
    clock (``max_seconds`` is ignored: it is there to stand in for :func:`solve`). Whether a
    deal is certified is then a function of the deal alone, so the completions of the
    sequential test can be drawn exactly as certified deals are (:func:`certified_pool`)."""
    began = time.perf_counter()
    found, line, spent = decide(game, nodes=max_nodes or NODES)
    names = {"w": "win", "l": "lost", "u": "unknown"}
    return SolveResult(names[found], line, spent, time.perf_counter() - began)


def block_factor(true: str, others: str, *, unknown: float = UNKNOWN_WEIGHT) -> float:
    """``h(true) * (k + 1) / sum of all weights`` (0 when the true weight is 0)."""
    weights = {**WEIGHTS, "u": unknown}
    mine = weights[true]
    if mine <= 0:
        return 0.0
    return mine * (len(others) + 1) / (mine + sum(weights[v] for v in others))


def split_blocks(log: list[str]) -> list[list[str]]:
    """The log cut after each draw (``s``); the moves after the last draw are left out."""
    out: list[list[str]] = []
    block: list[str] = []
    for move in log:
        block.append(move)
        if move == "s":
            out.append(block)
            block = []
    return out


def _blind_block(game: GameState) -> bool:
    """Whether a block from here is chosen on face-up cards alone: no face-down card (a
    move could reveal one mid-block) and no redeal (the waste's order would come back).
    The classic daily has neither."""
    return not any(game.down[1:]) and not game.rules.redeals


#: A deal's certified completions: per weighed stock count, orders of the cards still in
#: the stock (bottom first, as ``GameState.stock``), drawn as the certification drew the deal.
Pool = dict[int, list[list[int]]]


def weighed_counts(stock: int, *, max_stock: int = MAX_STOCK, stride: int = STRIDE) -> list[int]:
    """The stock counts at which a block is weighed (from the most cards down)."""
    return [n for n in range(min(stock, max_stock), 0, -1) if n % stride == 0]


def certified_pool(
    seed: int,
    variant: str,
    *,
    accept: Callable[[GameState], bool],
    rng: random.Random,
    completions: int = COMPLETIONS,
    max_stock: int = MAX_STOCK,
    stride: int = STRIDE,
    tries: int = 40,
) -> Pool:
    """The completions of a certified deal, drawn once per deal (they depend on the deal and
    the stock count only, never on the player): at each weighed stock count, ``completions``
    uniformly random orders of the cards still in the stock, each kept only if the whole
    deal it makes (the table as dealt, the cards drawn so far, then this order) passes
    ``accept``, the certification's deterministic test. A count whose completions could not
    all be drawn within ``completions * tries`` orders is left out (its blocks are not
    weighed: a choice made from the deal and cards already seen, so the test stays valid).
    Empty for a variant whose blocks are never blind (face-down cards, redeals)."""
    start = GameState.from_seed(seed, variant, undo_limit=0)
    if not _blind_block(start):
        return {}
    pool: Pool = {}
    for count in weighed_counts(len(start.stock), max_stock=max_stock, stride=stride):
        unseen, drawn = start.stock[:count], start.stock[count:]
        kept: list[list[int]] = []
        deal = _private_copy(start)  # ``accept`` solves copies: one deal serves every try
        for _ in range(completions * tries):
            order = list(unseen)
            rng.shuffle(order)
            deal.restock(order + list(drawn))
            if accept(deal):
                kept.append(order)
                if len(kept) == completions:
                    pool[count] = kept
                    break
    return pool
