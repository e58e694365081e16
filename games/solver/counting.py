"""A counting cut: positions lost because a waste card's cover cannot all be parked.

It applies where :mod:`.deadlock` does (single cards move, no take-back), where columns
build down in suit (``same-suit``) and where no redeal is left (the waste is a stack
that is never turned over). It asks, for each waste card, whether the cards above it
could all be home or in columns at the moment it leaves, counting columns: each column
holds at most one run of cards that moved.

The snapshot
------------
Let the waste be ``w_0`` (bottom) ... ``w_{k-1}`` (top) and suppose ``w_i`` leaves it.
Just after that move (time ``T``):

* the waste holds exactly ``w_0 .. w_{i-1}`` (a card leaves the waste only as its top,
  and every card drawn since now went on top of ``w_i``); the stock holds a part of
  itself; every other card is home or in a column;
* *a column* is a bottom part of its cards now that never moved (a card below a card
  that never moved never moved either: only a top card moves), then cards that moved:
  each sits on the card it was last put on (nothing under a card moves while it stays),
  which the rule allowed: the same suit, one rank higher, or the table (an empty
  column). So the cards that moved form one *run* per column, consecutive ranks of one
  suit, whose top (highest) card ``b`` sits on a card ``b + 1`` of its suit that never
  moved (an *anchor*: a card in a column now, holding one run) or on the table, in a
  column that is empty now or whose bottom card moved;
* *home*: ``k_r``, the foundations of the suit at rank ``r`` or more, never grows with
  ``r``, is at least its value now and at most the suit's foundations, and at most the
  copies of ``(r, s)`` home now plus those not in ``w_0 .. w_{i-1}`` (the rest of the
  waste, the columns, the stock: ``a_r``). If ``w_i`` is home it tops its foundation,
  and if not it is no home copy: either way ``k_{r+1} <= home now + a_r - 1`` for its
  value.

So, counting by value, with ``m_r`` the copies of ``(r, s)`` in ``w_i .. w_{k-1}`` (each
home or in a run), ``z_r`` the bottom cards of value ``(r, s)`` that moved (each home or in
a run too) and ``y_r`` the run cards of value ``(r, s)``: ``m_r + z_r <= y_r + new home
copies``, ``y_r + new home copies <= a_r``. Runs of one suit with ``y`` cards of each rank
number at least ``sum max(0, y_r - y_{r+1})`` (the runs with top ``r``), and at most
``anchors(r + 1)`` of those with top ``r`` sit on an anchor. Hence, over all suits: the
runs number at most the columns ``n``, and the runs on the table at most the columns
empty now plus the bottom cards that moved. **Claim:** if for some ``i`` no choice of
``k``, ``y`` and ``z`` meets both, ``w_i`` never leaves the waste and never goes home:
the position is lost. The stock's cards are counted as free to be anywhere (drawn or
not), which only loosens the count.

Each suit is a small dynamic programme over the ranks (king down) with ``(k_r, y_r)`` as
its state and the Pareto front of (table runs less bottoms moved, runs) as its value,
remembered by its inputs (:func:`_suit_front`); the suits' fronts are added up. Only
``w_i``'s suit changes from one ``i`` to the next.

Measured and left out
---------------------
Issue 24, session 15 (docs/benchmarks.md): it says "lost" at the root of none of the
stalled positions of the greedy player's games (game 2's positions 89-117, game 3's 57,
game 4's 64-66: not even at game 2's last position, stuck with 38 cards in the waste: a
moved bottom card is only one card, while a column emptied moves them all), on 0-19 % of
the positions the probe leaves open inside their searches, at 3-33 ms a call (the probe:
14 us). With it, game 4's position 64 saw 1.1 M positions in 60 s of CPU instead of about
5 M and stayed open. Not wired into the searches.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from games.engine.cards import KING

if TYPE_CHECKING:
    from games.engine import GameState

_NONE = ((99, 99),)  # the front of a suit with no solution


def applies(game: GameState) -> bool:
    """Whether the argument holds for ``game``'s rules and its redeals now."""
    rules = game.rules
    return (
        not rules.sequences
        and not rules.takeback
        and rules.build == "same-suit"
        and not game._redeals_left
    )


def lost_by_counting(game: GameState) -> bool:
    """``True`` when some waste card can never leave the waste by the count above."""
    if not applies(game) or not game._piles[0]:
        return False
    n = game.rules.columns
    found = game._found
    tops: list[list[int]] = [[], [], [], []]
    for k, h in enumerate(found):
        tops[k % 4].append(h)
    cols = game._piles[1:]
    empty = sum(1 for p in cols if not p)
    col = _counts(c for p in cols for c in p)
    bottoms = _counts(p[0] for p in cols if p)
    avail = _counts([*(c for p in cols for c in p), *game._stock])
    need = [[0] * 15 for _ in range(4)]
    waste = game._piles[0]
    for c in waste:
        need[c & 3][c >> 2] += 1
        avail[c & 3][c >> 2] += 1
    homes = [tuple(sum(1 for h in hs if h >= r) for r in range(15)) for hs in tops]
    fixed = [(len(tops[s]), homes[s], tuple(col[s]), tuple(bottoms[s])) for s in range(4)]
    for i in range(len(waste) - 1, -1, -1):
        w = waste[i]
        ws, wr = w & 3, w >> 2
        combined: tuple[tuple[int, int], ...] = ((0, 0),)
        for s in range(4):
            f, home, anchors, bottom = fixed[s]
            front = _suit_front(
                f, home, tuple(need[s]), tuple(avail[s]), anchors, bottom, wr if s == ws else 0
            )
            combined = _pareto([(x + t, y + u) for x, y in combined for t, u in front])
        if not any(t <= empty and runs <= n for t, runs in combined):
            return True
        need[ws][wr] -= 1  # w_i joins the cards below: out of reach at time T
        avail[ws][wr] -= 1
    return False


def _counts(cards) -> list[list[int]]:  # type: ignore[no-untyped-def]
    out = [[0] * 15 for _ in range(4)]
    for c in cards:
        out[c & 3][c >> 2] += 1
    return out


def _pareto(points: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The points not beaten in both coordinates (lower is better)."""
    out: list[tuple[int, int]] = []
    best = 1 << 30
    for t, runs in sorted(points):
        if runs < best:
            out.append((t, runs))
            best = runs
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _suit_front(
    f: int,
    home: tuple[int, ...],
    need: tuple[int, ...],
    avail: tuple[int, ...],
    anchors: tuple[int, ...],
    bottom: tuple[int, ...],
    wr: int,
) -> tuple[tuple[int, int], ...]:
    """The Pareto front of (table runs less bottom cards moved, runs) for one suit: the
    module docstring's count, ``wr`` the rank of ``w_i`` when it is of this suit."""
    states: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {(f, 0): ((0, 0),)}
    for r in range(KING, 0, -1):
        new: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        cap = min(f, home[r] + avail[r])
        held = anchors[r + 1] if r < KING else 0
        for (above, y_above), front in states.items():
            if r == wr and r < KING and above > home[r] + avail[r] - 1:
                continue  # w_i tops its foundation or is no home copy
            for k in range(home[r] if r == KING else max(home[r], above), cap + 1):
                fresh = k - home[r]
                for z in range(bottom[r] + 1):
                    for y in range(max(0, need[r] + z - fresh), avail[r] - fresh + 1):
                        starts = y - y_above if y > y_above else 0
                        table = starts - held if starts > held else 0
                        pts = [(t + table - z, runs + starts) for t, runs in front]
                        new[(k, y)] = _pareto([*new.get((k, y), ()), *pts])
        states = new
        if not states:
            return _NONE
    return _pareto([p for front in states.values() for p in front])
