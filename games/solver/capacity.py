"""A capacity bound: positions lost by counting (too few places for the waste's cards).

The over-approximation of :mod:`.deadlock` asks, card by card, whether a card could *ever*
leave its place; a card may go onto any card that could be a column's top, as if a top
held any number of cards. Positions with a deep waste are often lost by counting instead:
every card could leave at *some* time, but not all of those above a given waste card at
once. This module counts. It applies where :mod:`.deadlock` does (single cards move, no
take-back), and where no redeal is left (the waste is then a stack that is never turned
over).

The snapshot argument
---------------------
Let the waste be ``w_0`` (bottom) ... ``w_{k-1}`` (top), and fix ``i``. Suppose ``w_i``
leaves the waste at some time ``T``. Just after that move:

* the waste holds exactly ``L = w_0 .. w_{i-1}`` (every card above ``w_i``, and every card
  drawn since now, was on top of ``w_i`` and has left: a card leaves the waste only as its
  top), and the stock holds ``R_j``, its bottom ``len(stock) - j`` cards, for the number
  ``j`` of draws made so far (the stock is dealt from the top, in order, one pass);
* every other card (``M_{i,j}``: the columns' cards, ``w_i .. w_{k-1}``, the ``j`` drawn
  cards, and the foundations) is at home or in a column.

Now count. At time ``T``:

* *Home.* A foundation is a pile from the ace up, and cards never come back from it. For
  suit ``s`` with ``F_s`` foundations, the number of copies of rank ``r`` at home is
  ``#{foundations of s at height >= r}``: it never grows with ``r``, is at most ``F_s``,
  and at most the copies of each lower rank ``x`` outside ``L`` and ``R_j``. So at most
  ``cap(r, s) = min(F_s, min over x <= r of avail(x, s))`` copies of ``(r, s)`` are home,
  where ``avail(x, s)`` counts the copies of ``(x, s)`` in ``M_{i,j}`` (home now
  included). The ones home now are among them.
* *Columns.* Every card in a column sits on exactly one card or on the table, and each
  card holds at most one card; there are ``n`` columns, so at most ``n`` cards are on the
  table. A card ``c`` on a card ``d``: either ``c`` has not moved since now, and then
  ``d`` is the card under it now (its *support*: ``d`` has not moved either, or ``c``
  would have left with it... single cards move, so ``d`` could only move once ``c`` had);
  or ``c``'s last move put it on ``d``, which was then a column's top: the rule set's
  build table allows ``c`` on ``d``. A card put on the table moved into an empty column:
  where only kings fill a space it is a king (or it never moved: it is on the table now).

So, relaxing (a home card is still allowed to hold a card; the order of events is
forgotten), if ``w_i`` ever leaves the waste there is a ``j`` for which the cards of
``M_{i,j}`` that are not home now can each be given a distinct *place*: one of the
``cap(r, s) - home now`` home places of its value, a card of ``M_{i,j}`` that is not home
now and that it may be built on (build table) or its support (each card holds one), or
one of ``n`` table places. That is a bipartite matching (a b-matching: home and table
places hold several cards). **Claim:** if for some ``i`` no ``j`` in ``0 .. len(stock)``
has a matching covering ``M_{i,j}``, then ``w_i`` never leaves the waste, so never goes
home: the position is lost.

The matchings are grown, never rebuilt: from ``(i, 0)`` to ``(i, j + 1)`` a card joins
``M`` (one more card to place, one more place) and the home places only grow (fewer
cards locked), so the matching found stays a matching and only the unplaced cards are
augmented (Kuhn's augmenting paths); the same holds from ``(i + 1, 0)`` to ``(i, 0)``.

First every ``j = len(stock)`` is tried for each ``i`` (one sweep): ``w_i`` can only be
stuck if that fails too, and only for those ``i`` are the smaller ``j`` tried.

Off in the searches
-------------------
:func:`.deadlock.make_probe` asks the bound after the plain probe when ``capacity=True``
(:data:`.deadlock.CAPACITY`, the searches' default, is ``False``). Measured (issue 24,
round six in docs/benchmarks.md): in searches of the greedy player's stalled positions it
calls seven probes in ten lost that the plain probe leaves open (deal 2 at move 89),
but a call costs 0.2-0.4 ms against the plain probe's 14 us, so the searches see 2-8
times fewer positions a second, and no position of the decider's benchmark, nor any of the
28 undecided positions of one honest season game, is decided that was not before (one
proof, 2025-01-02, takes longer than 30 s instead of 17 s; seed 5's whole-deal proof,
81 s without it, sees 16 times fewer positions a second and is not done in 120 s). At the
root of those positions it never fires: the relaxation is too loose there (deal 2 at
move 89 would need 5 table places, not 10, for it to fire). The looseness is known: a
card counted home may still hold a card, and a card left on its support does not force
the cards under it to stay.

``tests/solver/test_capacity.py`` checks the claim against the plain exhaustive search on
every position reachable from small hypothesis-made games, shows that the bound fires
there on positions the probe of :mod:`.deadlock` leaves open, and that a deliberately
wrong bound (two table places too few) is caught.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from games.engine.cards import KING

from .deadlock import _tables

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.engine import GameState
    from games.engine.rules import RuleSet

#: Ids of the places beyond the card instances: a home place of card value ``v`` is
#: ``HOME + v``, the table is ``TABLE``.
_HOME, _TABLE = 0, 64


def make_capacity_bound(
    game: GameState, *, table_places: int = 0
) -> Callable[[GameState], bool] | None:
    """``lost(game)``: ``True`` when the capacity bound shows the position lost, ``None``
    where the argument does not hold (runs move as units, or take-back).
    ``table_places`` changes the number of table places (the tests' wrong bound)."""
    rules = game.rules
    if rules.sequences or rules.takeback:
        return None
    return _bound_for(rules, table_places)


@cache
def _bound_for(rules: RuleSet, table_change: int) -> Callable[[GameState], bool]:  # noqa: C901
    targets, suits = _tables(rules)
    onto = [frozenset(t) for t in targets]  # the values a card value may be built on
    kings_only = rules.space == "kings"

    def lost(g: GameState) -> bool:
        if g._redeals_left:
            return False
        piles, found = g._piles, g._found
        waste, cols, stock = piles[0], piles[1:], g._stock
        k, n_stock = len(waste), len(stock)
        if k < 2:
            return False
        n = len(cols) + table_change
        # card instances: the columns' cards, then the waste's (bottom up), then the
        # stock's in the order drawn (top first)
        value: list[int] = []
        support: list[int] = []
        on_table: list[bool] = []
        for p in cols:
            for at, c in enumerate(p):
                support.append(len(value) - 1 if at else -1)
                on_table.append(at == 0)
                value.append(c)
        first_waste = len(value)
        value += waste
        value += reversed(stock)
        support += [-1] * (k + n_stock)
        on_table += [False] * (k + n_stock)
        total = len(value)
        home_now = [0] * 64
        for s in range(4):
            for f in suits[s]:
                for r in range(1, found[f] + 1):
                    home_now[(r << 2) | s] += 1
        n_found = [len(suits[s]) for s in range(4)]
        # the places each instance may take, cheapest first: home, cards, table
        by_value: dict[int, list[int]] = {}
        for x in range(total):
            by_value.setdefault(value[x], []).append(x)

        # the columns' cards are active from the start, each where it lies now (on its
        # support, or on the table): the position itself is a placement of them
        active = [x < first_waste for x in range(total)]
        avail = home_now[:]  # copies of each value home now or active
        for c in value[:first_waste]:
            avail[c] += 1
        # ``tops[v]``: the most copies of ``v`` home at once; ``cap[v]``: the places of
        # ``HOME + v``, the ones not taken by the cards home now
        tops = [0] * 64
        cap = [0] * 64
        for s in range(4):
            top = n_found[s]
            for r in range(1, KING + 1):
                v = (r << 2) | s
                top = min(top, avail[v])
                tops[v], cap[v] = top, top - home_now[v]
        load = [0] * 65  # cards on each home place and on the table
        holder = [-1] * total  # the card held by each instance (-1: none)
        held: list[list[int]] = [[] for _ in range(65)]  # the cards on home / table
        place = [-1] * total  # each card's place: an instance, or total + _HOME + v ...

        def recap(s: int, r: int) -> None:
            """The home places of suit ``s`` from rank ``r`` up, after ``avail`` grew: the
            bound on the copies home only grows, and stops growing where it is unchanged."""
            top = tops[((r - 1) << 2) | s] if r > 1 else n_found[s]
            while r <= KING:
                v = (r << 2) | s
                if avail[v] < top:
                    top = avail[v]
                if tops[v] == top:
                    return
                tops[v] = top
                cap[v] = top - home_now[v]
                r += 1

        # each card's places but home, cheapest first: the cards it may be built on, its
        # support, the table (made when first asked; kept where active in ``options``)
        static: list[list[int] | None] = [None] * total

        def options(x: int) -> list[int]:
            c = value[x]
            places = static[x]
            if places is None:
                places = [y for t in onto[c] for y in by_value.get(t, ()) if y != x]
                if support[x] >= 0:
                    places.append(support[x])
                if on_table[x] or not kings_only or c >> 2 == KING:
                    places.append(total + _TABLE)
                static[x] = places
            out = [total + _HOME + c] if cap[c] > 0 else []
            out += [p for p in places if p >= total or active[p]]
            return out

        def room(p: int) -> bool:
            if p < total:
                return holder[p] < 0
            q = p - total
            return load[q] < (n if q == _TABLE else cap[q - _HOME])

        log: list[tuple[int, int]] = []  # (card, its place before), to undo a sweep

        def put(x: int, p: int) -> None:
            old = place[x]
            log.append((x, old))
            if old >= 0:
                if old < total:
                    holder[old] = -1
                else:
                    load[old - total] -= 1
                    held[old - total].remove(x)
            place[x] = p
            if p < 0:
                return
            if p < total:
                holder[p] = x
            else:
                load[p - total] += 1
                held[p - total].append(x)

        def augment(x: int, seen: set[int]) -> bool:
            opts = options(x)
            for p in opts:
                if p not in seen and room(p):
                    seen.add(p)
                    put(x, p)
                    return True
            for p in opts:
                if p in seen:
                    continue
                seen.add(p)
                others = [holder[p]] if p < total else list(held[p - total])
                for y in others:
                    if augment(y, seen):
                        put(x, p)
                        return True
            return False

        def add(x: int, unplaced: list[int]) -> list[int]:
            """``x`` joins: one more card to place, one more place, home places grow."""
            active[x] = True
            c = value[x]
            avail[c] += 1
            recap(c & 3, c >> 2)
            left = [y for y in [*unplaced, x] if not augment(y, set())]
            return left

        unplaced: list[int] = []
        for x in range(first_waste):
            if not on_table[x]:
                put(x, support[x])
            elif load[_TABLE] < n:
                put(x, total + _TABLE)
            else:  # fewer table places than columns (the tests' wrong bound)
                unplaced.append(x)

        def undo(saved: tuple[list[bool], list[int], list[int], list[int]]) -> None:
            """Back to the placement and the arrays of before ``log`` began."""
            while log:
                x, old = log.pop()
                put(x, old)
                log.pop()
            active[:], avail[:], cap[:], tops[:] = saved

        # first every draw made (j = len(stock)), for each i: a cheap filter, as w_i is
        # stuck only if that j fails too
        columns_only = (active[:], avail[:], cap[:], tops[:])
        log.clear()
        left = unplaced
        for x in range(first_waste + k, total):
            left = add(x, left)
        candidates = set()
        for i in range(k - 1, 0, -1):  # i = 0 (nothing below) cannot lock a suit
            left = add(first_waste + i, left)
            if left:
                candidates.add(i)
        undo(columns_only)
        if not candidates:
            return False
        for i in range(k - 1, min(candidates) - 1, -1):
            unplaced = add(first_waste + i, unplaced)
            if not unplaced or i not in candidates:  # w_i may leave, as far as counting goes
                continue
            saved = (active[:], avail[:], cap[:], tops[:])
            log.clear()
            left = unplaced
            for j in range(first_waste + k, total - 1):  # one more draw (all: failed above)
                left = add(j, left)
                if not left:
                    break
            else:
                return True  # no number of draws lets w_i leave: lost
            undo(saved)
        return False

    return lost
