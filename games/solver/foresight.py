"""Foresight analysis: how much a won game's decisions depended on unseen cards.

In classic Forty Thieves every card on the table is face up: the only thing a
player does not know is the order of the stock. A player who learnt it (a
scouting account, a leaked deal) can play a solver's line on the true deal.
This module measures, for one verified game, whether the player's choices
fitted the cards they were about to turn better than anyone could expect
from what they had seen.

The method, decision by decision
--------------------------------
Replay the game. At each *real decision* (cards still in the stock; more than
one sensible move: forced moves and safe foundation moves are skipped, moves
that only permute empty columns are merged) value the chosen move and up to
:data:`MAX_ALTERNATIVES` others against the cards to come: play the move, let
a plain "climb the position score" player settle the position without
drawing, then turn the coming cards one by one, placing each where it fits at
once (a foundation or a column top; foundation moves cascade), and count
``V = 2 x cards sent home - cards left on the waste`` (see
:mod:`.foresight_values`). So ``V(m, cards)`` says how well the position the
move leads to suits those cards.

* **Seen information only**: a move is worth ``E[V(m, .)]``, the mean over
  the cards that could come, drawn from the unseen cards alone. With the
  default horizon of one card this is exact (every unseen card, weighted by
  its copies); with longer horizons it is a mean over random completions.
* **Full knowledge**: it is worth ``V(m, real)``, with the cards really turned.

Let ``b`` be the move the seen information prefers among the others. The
decision's *foresight contrast* is::

    D = [V(chosen, real) - V(b, real)] - [E V(chosen, .) - E V(b, .)]

how much better the chosen move suited the real cards than the alternative
did, beyond what anyone could expect. Luck cancels in the difference: a card
that helps every position helps both moves alike.

The statistic and why it is calibrated
--------------------------------------
The decisions between two draws all wait on the same next card: their
contrasts are summed into one term per draw, ``G``, with the variance ``S2``
of that sum over the unseen cards. The game's statistic is the z-score
``Z = sum(G) / sqrt(sum(S2))``.

For an honest player the next card is, given everything seen so far, a
uniformly random one of the unseen cards, whatever their strategy, because
nothing they did could depend on it. So each ``G`` has mean zero given the
past and variance ``S2``: the ``G`` form a martingale difference sequence and
``Z`` is close to a standard normal for every honest player, weak or strong.
A player who knows the coming cards and uses them picks the positions they
fit, draw after draw, and ``Z`` grows with the number of such decisions.

Two things shift ``Z`` for honest players and are why the threshold
(:data:`THRESHOLD`) is set from measured honest *wins*, not from the normal
table: daily deals are certified winnable (their stocks fit their tableaus
better than a random order), and a win is itself some luck. With a horizon
of several cards the terms of successive draws overlap and ``S2``
understates the variance. ``benchmarks/fairplay.py`` measures both.

What it does not see: a solver's line uses its knowledge mostly far ahead
(keeping a column for a card thirty draws later, steering clear of dead ends),
which a one-card contrast barely registers. See the benchmark's report.

"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.engine import GameState, parse_variant
from games.engine import moves as _moves
from games.engine.cards import format_card
from games.engine.notation import DRAW, Move, format_move, parse_move

from .foresight_values import rollout, settle, undo
from .heuristics import knowledge_for
from .key import make_key_function
from .movegen import make_generator

METHOD = "foresight-1"
#: Above this z-score a won game is held for review (calibrated on honest wins
#: by ``benchmarks/fairplay.py``; see docs/fairplay.md).
THRESHOLD = 3.0
#: Completions of the unseen cards drawn at each draw (half choose the
#: alternative, half value it) and how many coming cards each one plays out.
SAMPLES = 24
HORIZON = 1
#: Moves valued at each decision besides the chosen one, best ordered first.
MAX_ALTERNATIVES = 4
#: Decisions kept as evidence.
MAX_EVIDENCE = 10


@dataclass(frozen=True)
class Decision:
    """One decision that only foresight explains (evidence for a reviewer)."""

    seq: int  # 1-based index of the action in the log
    move: str  # what the player played
    alternative: str  # the move the seen-information analysis preferred
    true_value: float  # value of the chosen move with the real next card
    info_value: float  # value of the chosen move over the unseen cards (seen info only)
    alternative_info_value: float
    board: dict[str, Any]  # engine.view() of the position before the move (what the player saw)
    alternative_true_value: float = 0.0
    next_card: str = ""  # the card really turned next
    contrast: float = 0.0  # D: this decision's share of the statistic's numerator

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        return cls(**data)


@dataclass(frozen=True)
class ForesightReport:
    statistic: float  # z-score: about N(0, 1) for honest play
    threshold: float  # above it: held for review
    suspicious: bool  # statistic > threshold
    decisions: int  # real decision points analysed
    evidence: tuple[Decision, ...]  # most telling first
    seconds: float  # wall seconds spent
    complete: bool  # False if the time budget cut the analysis short
    method: str  # version tag
    draws: int = 0  # draws whose next card was weighed

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["evidence"] = [d.to_dict() for d in self.evidence]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ForesightReport:
        fields = dict(data)
        fields["evidence"] = tuple(Decision.from_dict(d) for d in data.get("evidence", ()))
        return cls(**fields)


@dataclass
class _Scored:
    """One analysed decision, before it is turned into evidence."""

    seq: int
    move: str
    alternative: str
    diff: list[float]  # V(chosen) - V(alternative) on each held-out completion
    true_value: float  # V(chosen) on the real stock
    alt_true: float
    info: float  # mean V(chosen) over the held-out completions
    alt_info: float
    contrast: float = 0.0
    turned: str = ""


class _Analysis:
    def __init__(self, game: GameState, rng: random.Random, samples: int, horizon: int) -> None:
        self.game = game
        self.rng = rng
        self.samples = samples
        self.horizon = horizon
        self.know = knowledge_for(game)
        self.legal = make_generator(game)
        self.key = make_key_function(game)
        self.futures: list[list[int]] = []  # [real coming cards, then the completions]
        self.choose: list[tuple[int, float]] = []  # (future, weight) to pick the alternative
        self.value: list[tuple[int, float]] = []  # (future, weight) to value the moves

    def new_draw(self) -> None:
        """The cards to come: the real ones, and completions made from the unseen
        cards alone (the real order is never used for them).

        With a horizon of one card the expectation is exact: every distinct
        unseen card, weighted by its copies. Otherwise completions are sampled;
        half pick the alternative and the other half value it, since picking
        and valuing on the same completions would favour the alternative by
        chance."""
        game = self.game
        stock = game.stock
        h = min(self.horizon, len(stock))
        # the multiset only: the stock and any face-down cards, which a player
        # cannot tell apart
        unseen = sorted(
            stock + [c for p, d in zip(game.piles, game.down, strict=True) for c in p[:d]]
        )
        if h == 1:
            counts = Counter(unseen)
            self.futures = [[stock[-1]]] + [[c] for c in counts]
            weights = [n / len(unseen) for n in counts.values()]
            self.choose = self.value = list(enumerate(weights, start=1))
            return
        self.futures = [stock[::-1][:h]] + [self.rng.sample(unseen, h) for _ in range(self.samples)]
        half = self.samples // 2
        self.choose = [(i, 1 / half) for i in range(1, half + 1)]
        rest = self.samples - half
        self.value = [(i, 1 / rest) for i in range(half + 1, self.samples + 1)]

    def values(self, move: Move) -> list[float]:
        """``V(move, future)`` for each future (the position is left as it was)."""
        game = self.game
        if move.kind == DRAW:
            return [rollout(game, self.know, f) for f in self.futures]
        record = _moves.apply(game, move)
        records = settle(game, self.know, self.legal)
        values = [rollout(game, self.know, f) for f in self.futures]
        undo(game, records)
        _moves.revert(game, record)
        return values

    def candidates(self, move: Move, last: Move | None) -> tuple[Move, list[Move]] | None:
        """(the chosen move, its distinct alternatives), or None if it is no decision."""
        game = self.game
        kept = self.know.ordered(game, self.legal(game), last)
        if len(kept) == 1 and kept[0] == move:
            return None  # forced, or a safe foundation move
        results: dict[int, Move] = {}
        for m in kept:
            record = _moves.apply(game, m)
            results.setdefault(self.key(game), m)
            _moves.revert(game, record)
        record = _moves.apply(game, move)
        chosen_key = self.key(game)
        _moves.revert(game, record)
        chosen = results.pop(chosen_key, move)  # an equivalent move stands in
        others = list(results.values())[:MAX_ALTERNATIVES]
        return (chosen, others) if others else None

    def decide(self, seq: int, text: str, move: Move, last: Move | None) -> _Scored | None:
        found = self.candidates(move, last)
        if found is None:
            return None
        chosen, others = found
        mine = self.values(chosen)
        best, theirs, best_mean = others[0], self.values(others[0]), -math.inf
        for other in others:
            values = theirs if other is best else self.values(other)
            mean = sum(values[i] * w for i, w in self.choose)
            if mean > best_mean:
                best, theirs, best_mean = other, values, mean
        return _Scored(
            seq=seq,
            move=text,
            alternative=format_move(best),
            diff=[mine[i] - theirs[i] for i, _ in self.value],
            true_value=mine[0],
            alt_true=theirs[0],
            info=sum(mine[i] * w for i, w in self.value),
            alt_info=sum(theirs[i] * w for i, w in self.value),
        )


def analyse_foresight(
    seed: int,
    variant: str,
    log: Sequence[str],
    *,
    max_seconds: float = 60.0,
    rng_seed: int = 0,
    samples: int = SAMPLES,
    horizon: int = HORIZON,
) -> ForesightReport:
    """Replay ``log`` on the deal and measure its foresight (see the module doc).

    ``horizon`` cards to come are weighed at each draw: one (the default) is
    exact and uses no random numbers; more use ``samples`` completions from
    ``random.Random(rng_seed)``. Either way a report repeats exactly. The
    analysis stops when ``max_seconds`` have passed (``complete`` is then
    False and the statistic covers the decisions before). The replay refuses
    an illegal log (``IllegalMove`` / ``InvalidMove``, as the verifier does);
    variants with a redeal are not analysed (a redeal shows the whole stock)."""
    started = time.perf_counter()
    deadline = started + max_seconds
    game = GameState.from_seed(seed, variant, undo_limit=0)
    analysis = _Analysis(game, random.Random(rng_seed), samples, horizon)
    rules = parse_variant(variant) if isinstance(variant, str) else variant
    total = variance = 0.0
    scored: list[_Scored] = []
    pending: list[_Scored] = []  # decisions waiting on the next card
    draws = 0
    complete = True
    last: Move | None = None
    for seq, text in enumerate(log, start=1):
        if time.perf_counter() > deadline:
            complete = False
            break
        move = parse_move(text)
        hidden = bool(game.stock) and not rules.redeals
        if hidden and not analysis.futures:
            analysis.new_draw()
        if hidden:
            item = analysis.decide(seq, text, move, last)
            if item is not None:
                pending.append(item)
        turned = game.stock[-1] if move.kind == DRAW and game.stock else None
        _moves.apply(game, move)
        last = move
        if turned is not None:
            if pending:
                g, s2 = _close_draw(pending, [w for _, w in analysis.value], turned)
                total += g
                variance += s2
                draws += 1
                scored.extend(pending)
            pending, analysis.futures = [], []
    statistic = total / math.sqrt(variance) if variance > 0 else 0.0
    evidence = _evidence(seed, variant, log, scored)
    return ForesightReport(
        statistic=round(statistic, 4),
        threshold=THRESHOLD,
        suspicious=statistic > THRESHOLD,
        decisions=len(scored),
        evidence=evidence,
        seconds=round(time.perf_counter() - started, 4),
        complete=complete,
        method=METHOD,
        draws=draws,
    )


def _close_draw(pending: list[_Scored], weights: list[float], turned: int) -> tuple[float, float]:
    """The draw's term ``G`` (its decisions' contrasts on the real cards, less
    their expectation over the unseen cards) and the variance of that sum."""
    summed = [sum(col) for col in zip(*(p.diff for p in pending), strict=True)]
    mean = sum(x * w for x, w in zip(summed, weights, strict=True))
    s2 = sum(w * (x - mean) ** 2 for x, w in zip(summed, weights, strict=True))
    if len(weights) > 1 and len(set(weights)) == 1:  # sampled: unbiased variance
        s2 *= len(weights) / (len(weights) - 1)
    g = 0.0
    for p in pending:
        p.contrast = (p.true_value - p.alt_true) - (p.info - p.alt_info)
        p.diff = []
        p.turned = format_card(turned)
        g += p.contrast
    return g, s2


def _evidence(
    seed: int, variant: str, log: Sequence[str], scored: list[_Scored]
) -> tuple[Decision, ...]:
    """The decisions only foresight explains, most telling first, with boards."""
    telling = [s for s in scored if s.contrast > 0 and s.info < s.alt_info]
    telling.sort(key=lambda s: -s.contrast)
    telling = telling[:MAX_EVIDENCE]
    boards: dict[int, dict[str, Any]] = {}
    wanted = {s.seq for s in telling}
    if wanted:
        game = GameState.from_seed(seed, variant, undo_limit=0)
        for seq, text in enumerate(log, start=1):
            if seq in wanted:
                boards[seq] = game.view()
            if seq >= max(wanted):
                break
            game.play(text)
    return tuple(
        Decision(
            seq=s.seq,
            move=s.move,
            alternative=s.alternative,
            true_value=round(s.true_value, 3),
            info_value=round(s.info, 3),
            alternative_info_value=round(s.alt_info, 3),
            board=boards[s.seq],
            alternative_true_value=round(s.alt_true, 3),
            next_card=s.turned,
            contrast=round(s.contrast, 3),
        )
        for s in telling
    )
