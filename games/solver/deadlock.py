"""Two sound cuts for the exhaustive search: dead positions, and draws that commute.

Both come from one cheap over-approximation of which cards can *ever* leave the place
they hold now. They apply where single cards move (no runs) and the foundations never
give a card back (no take-back): there a card leaves a pile only as its top card, to a
foundation (its predecessor showing there), onto a column whose top it may go on (the
rule set's build table), or into an empty column; and a card at home stays home.

The over-approximation (``free``)
---------------------------------
Suppose for now that no column is ever empty (hypothesis *E*). A card ``c`` is *free*
when, in the least fixpoint of these rules,

* every card above ``c`` in its pile is free (the waste: the cards above it in the
  waste; the stock: none, a card can be played the moment it is drawn; a column: the
  cards above it), and
* ``c`` may go home: every rank of its suit from the highest foundation of the suit up
  to ``c``'s predecessor has a copy that is home or free; or
* ``c`` may go onto a card ``t`` (the build table says so) that is not home and could
  be a column's top: ``t`` is in a column, not beneath ``c`` in ``c``'s own column, with
  every card above it free; or ``t`` is free and not in a column (it could be moved into
  one).

**Claim.** Under *E*, every card that ever moves is free. By induction on the time of
a card's first move: the cards above it had moved before (free by induction); if it went
home, each rank between the suit's foundation and its predecessor went home before it
(each such card moved before, or was home: free or home); if it went onto ``t``, ``t``
was then a column's top: either ``t`` never moved, so it is still in its first column
with every card that was above it moved (free), and not beneath ``c`` (``c`` was there
until now); or ``t`` moved before (free) from the waste or the stock (a column card
that moved has every card above it moved as well, the first case's condition).
An empty column is the one other way to move, excluded by *E*.

*E* itself: if no column is empty now and every column holds a card that is not free,
no column ever becomes empty. At the first moment one did, all its cards would have
moved with no empty column before: all free by the claim, a contradiction.

**Dead positions.** If *E* holds, each column keeps a card that is not free: it never
moves, so it never goes home, and the position is lost whatever is searched. With
redeals left the waste is turned over and drawn again, so its cards are treated like
the stock's (nothing above them).

Draws that commute (a persistent set)
-------------------------------------
A draw changes only the stock and the waste; a move between columns, or from a column
to a foundation, changes neither: the two commute, and neither enables or disables the
other. Only a move of the waste's top depends on the draw. So if no sequence of moves
*without a draw* can ever move the waste's top card, every winning line can play its
first draw first (the moves before it commute with the draw and stay legal, in the
same number of moves: the line keeps its length), and the draw may be searched alone.
A win always needs a draw while the stock holds a card, so the winning line has one.

When does the waste's top ``w`` never move without a draw? Take the same fixpoint over
the columns alone (the waste and the stock frozen: nothing leaves them before ``w``
does). At the first moment a column emptied or ``w`` moved, only column cards had moved
before, with no empty column: all free (the claim). So if every column holds a card
that is not free, and ``w`` is neither able to go home nor onto a possible column top
by the same rules, ``w`` never moves before a draw: the draw alone is searched. With an
empty waste no move but the draw touches the waste, and the draw is searched alone too.

One empty column in reach (the one-slot model, ``make_probe(slot=True)``)
------------------------------------------------------------------------
When a column can empty, *E* fails and the cuts above say nothing. A bound instead of
all-or-nothing: call a move of a card into an empty column a *parking*, and let ``F(S)``
be the fixpoint above with the cards of ``S`` taken as free (moved, and able to be a
column's top). Leave out moves of a column's only card into an empty column: they only
swap two columns, so a line without them wins whenever one with them does.

*Claim.* Suppose at most one column is ever empty (the *space*). Order the parkings;
``p_j`` stays in the space until it leaves by an ordinary move (home or onto a top), and
no other card can be parked meanwhile (no other column is empty). By induction on time,
as in the claim above: every card moved up to the end of ``p_j``'s stay is in
``F_j = F(F_{j-1} ∪ {p_j})`` (``F_0 = F(∅)``), the cards built on ``p_j`` included
(``p_j`` is a top); ``p_j`` was a top when parked (the cards above it moved: in
``F_{j-1}``), and its leaving is an ordinary move justified by cards moved before, so
``p_j`` passes the fixpoint's test for moving in ``F_j``. The model computes ``F*``: from
``F(∅)``, add ``F(F* ∪ {p})`` for any card ``p`` on top of ``F*``'s free cards (its
cards above free; may fill a space; not a column's last) that passes the test in it,
until none does. ``F_j ⊆ F*`` for every ``j`` (each ``p_j`` is such a card for
``F_{j-1} ⊆ F*``, and ``F`` is monotone). The last parked card may stay for good:
every card that ever moves is in ``U = F* ∪ ⋃_p F(F* ∪ {p})``.

*At most one space.* Count the columns empty now or whose every card is in ``U``. If
there is one, the hypothesis holds: at the first moment a second column emptied, every
card it held had moved under one space, so it would be in ``U`` and counted.

*Dead.* With one such column, if a card is not in ``U`` it never moves, so never goes
home: lost. Measured on the greedy player's stalled mid-game positions (issue 24, round
five in docs/benchmarks.md), the over-approximation frees two or more columns in most
probes, and parking one card frees a second in the rest: it almost never fires there
and costs up to half the search's time, so the searches leave it off.

Positions lost by counting (too few places for a deep waste's cards) had a sound bound
of their own (session 10, removed in session 11: it decided no position this probe
leaves open, at 20 times its cost; docs/benchmarks.md "Round six ... a capacity bound").

Both cuts keep the search's argument (:mod:`.prove`): a dead position is lost, so it
may be treated as one proved lost; a draw searched alone leads to a position with a
win exactly one move shorter whenever the position has a win (same length, draw first).
``tests/solver/test_deadlock.py`` checks both against a plain exhaustive search.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from games.engine.cards import KING

if TYPE_CHECKING:
    from collections.abc import Callable

    from games.engine import GameState
    from games.engine.rules import RuleSet

#: What :func:`make_probe`'s probe answers.
OPEN, DRAW_ONLY, DEAD = 0, 1, 2


def make_probe(game: GameState, *, slot: bool = False) -> Callable[[GameState], int] | None:
    """``probe(game) -> OPEN | DRAW_ONLY | DEAD`` for the game's variant, or ``None``
    where the argument does not hold (runs move as units, or foundation take-back).
    ``slot=True``: with the one-slot model where a column can empty (off in the
    searches: see the module docstring)."""
    return _plain_probe_for(game.rules, slot)


def make_slot_model(game: GameState) -> Callable[[GameState], bool] | None:
    """``dead(game)``: the one-slot model alone (``True``: lost), or ``None`` where the
    argument does not hold."""
    if game.rules.sequences or game.rules.takeback:
        return None
    targets, suits = _tables(game.rules)
    return _slot_model_for(game.rules, targets, suits)


@cache
def _tables(rules: RuleSet) -> tuple[list[tuple[int, ...]], tuple[tuple[int, ...], ...]]:
    """``targets[c]``: the cards ``c`` may go onto in a column; ``suits[s]``: the
    foundations of suit ``s``."""
    table = rules.build_table
    cards = [(r << 2) | s for r in range(1, KING + 1) for s in range(4)]
    targets = [tuple(o for o in cards if table[(o << 6) | c]) for c in range(64)]
    suits = tuple(
        tuple(k for k in range(rules.foundations) if rules.foundation_suit(k) == s)
        for s in range(4)
    )
    return targets, suits


@cache
def _plain_probe_for(rules: RuleSet, slot: bool) -> Callable[[GameState], int] | None:  # noqa: C901
    if rules.sequences or rules.takeback:
        return None
    targets, suits = _tables(rules)
    #: with an empty column in reach: the one-slot model (off: never dead)
    spaced = _slot_model_for(rules, targets, suits) if slot else _never
    # each suit's foundations read at once (the index twice for a single deck, so every
    # getter gives a tuple): a quarter of the probe's set-up was a max over a generator
    heights = [itemgetter(*ks, *ks) if len(ks) == 1 else itemgetter(*ks) for ks in suits]

    def probe(g: GameState) -> int:
        piles, found = g._piles, g._found
        cols = piles[1:]
        for p in cols:
            if not p:  # an empty column: E fails at once
                return DEAD if spaced(g) else OPEN
        n = len(cols)
        reach = [max(get(found)) for get in heights]
        free = [0] * n  # the free cards of each column: its top ``free[ci]`` cards
        lens = [len(p) for p in cols]
        # the free cards (any copy), and the cards that could be a column's top: each
        # column's first card below its free ones, the free ones, the free loose cards.
        # A card's own column never offers a card beneath it: only the cards above
        # the first non-free one are in ``exposed``, and a card never goes onto itself.
        freed: set[int] = set()
        exposed = {p[-1] for p in cols}

        def movable(c: int) -> bool:
            return c >> 2 <= reach[c & 3] + 1 or not exposed.isdisjoint(targets[c])

        def settle() -> bool:
            """Grow the free cards of the columns to the fixpoint; False once a whole
            column is free (E is not shown)."""
            changed = True
            while changed:
                changed = False
                for s in range(4):
                    r = reach[s]
                    while r < KING and ((r + 1) << 2) | s in freed:
                        r += 1
                    reach[s] = r
                for ci in range(n):
                    p, f, size = cols[ci], free[ci], lens[ci]
                    while f < size and movable(p[size - 1 - f]):
                        freed.add(p[size - 1 - f])
                        f += 1
                        if f < size:
                            exposed.add(p[size - 1 - f])
                        changed = True
                    if f == size:
                        return False
                    free[ci] = f
            return True

        if not settle():
            return DEAD if spaced(g) else OPEN
        waste, stock = piles[0], g._stock
        draw_only = bool(stock) and (not waste or not movable(waste[-1]))
        # phase two: the waste and the stock join; if every column still holds a card
        # that is not free, E holds for good and those cards never move: lost
        loose = list(stock)
        if g._redeals_left:
            loose += waste
            pile: list[int] = []
        else:
            pile = list(waste)
        changed = True
        while changed:
            changed = False
            while pile and movable(pile[-1]):
                c = pile.pop()
                freed.add(c)
                exposed.add(c)
                changed = True
            rest = []
            for c in loose:
                if movable(c):
                    freed.add(c)
                    exposed.add(c)
                    changed = True
                else:
                    rest.append(c)
            loose = rest
            if changed and not settle():
                if spaced(g):
                    return DEAD
                return DRAW_ONLY if draw_only else OPEN
        return DEAD

    return probe


def _never(game: GameState) -> bool:
    return False


# The one-slot model (an empty column in reach) -----------------------------------------

#: A state of the one-slot fixpoint: the free cards of each column (from the top), of
#: the waste (from the top), which loose cards are free, the free card values, the values
#: that could be a column's top, and each suit's reach (highest rank home or free).
_State = tuple[list[int], list[int], list[bool], set[int], set[int], list[int]]


def _slot_model_for(  # noqa: C901 - one fixpoint, its seeds and the count, kept together
    rules: RuleSet,
    targets: list[tuple[int, ...]],
    suits: tuple[tuple[int, ...], ...],
) -> Callable[[GameState], bool]:
    """``dead(game)``: the one-slot argument of the module's docstring (``True``: lost)."""
    kings_only = rules.space == "kings"

    def dead(g: GameState) -> bool:
        piles, found = g._piles, g._found
        cols = piles[1:]
        n = len(cols)
        lens = [len(p) for p in cols]
        if g._redeals_left:
            waste: list[int] = []
            loose = list(g._stock) + list(piles[0])
        else:
            waste, loose = piles[0], list(g._stock)
        nloose = len(loose)

        def settle(s: _State) -> None:
            free, wf, lf, freed, exposed, reach = s

            def movable(c: int) -> bool:
                return c >> 2 <= reach[c & 3] + 1 or not exposed.isdisjoint(targets[c])

            changed = True
            while changed:
                changed = False
                for su in range(4):
                    r = reach[su]
                    while r < KING and ((r + 1) << 2) | su in freed:
                        r += 1
                    reach[su] = r
                for ci in range(n):
                    p, f, size = cols[ci], free[ci], lens[ci]
                    while f < size and movable(p[size - 1 - f]):
                        freed.add(p[size - 1 - f])
                        f += 1
                        if f < size:
                            exposed.add(p[size - 1 - f])
                        changed = True
                    free[ci] = f
                w, size = wf[0], len(waste)
                while w < size and movable(waste[size - 1 - w]):
                    c = waste[size - 1 - w]
                    freed.add(c)
                    exposed.add(c)
                    w += 1
                    changed = True
                wf[0] = w
                for i in range(nloose):
                    if not lf[i] and movable(loose[i]):
                        lf[i] = True
                        freed.add(loose[i])
                        exposed.add(loose[i])
                        changed = True

        def spaces(s: _State) -> int:
            """Columns empty now or whose every card is free: the columns that can be
            empty at some time."""
            return sum(1 for ci in range(n) if s[0][ci] == lens[ci])

        def parked(s: _State) -> list[tuple[_State, int]]:
            """The states with one more card put into the space, each with the card: any
            card whose cards above are free and that may fill a space, but not a
            column's last card (that move only swaps two columns)."""
            free, wf, lf, freed, exposed, reach = s
            out: list[tuple[_State, int]] = []
            for ci in range(n):
                f, size = free[ci], lens[ci]
                if f < size - 1:
                    t = (free[:], wf[:], lf[:], set(freed), set(exposed), reach[:])
                    t[0][ci] = f + 1
                    t[4].add(cols[ci][size - 2 - f])
                    out.append((t, cols[ci][size - 1 - f]))
            if wf[0] < len(waste):
                t = (free[:], [wf[0] + 1], lf[:], set(freed), set(exposed), reach[:])
                out.append((t, waste[len(waste) - 1 - wf[0]]))
            seen: set[int] = set()
            for i in range(nloose):
                if not lf[i] and loose[i] not in seen:
                    seen.add(loose[i])
                    t = (free[:], wf[:], lf[:], set(freed), set(exposed), reach[:])
                    t[2][i] = True
                    out.append((t, loose[i]))
            if kings_only:
                out = [(t, c) for t, c in out if c >> 2 == KING]
            for t, c in out:  # in the space, the card is free and a column's top
                t[3].add(c)
                t[4].add(c)
            return out

        def leaves(s: _State, c: int) -> bool:
            reach, exposed = s[5], s[4]
            return c >> 2 <= reach[c & 3] + 1 or not exposed.isdisjoint(targets[c])

        current: _State = (
            [0] * n,
            [0],
            [False] * nloose,
            set(),
            {p[-1] for p in cols if p},
            [max(found[k] for k in suits[su]) for su in range(4)],
        )
        settle(current)
        if spaces(current) != 1:  # none: the plain argument's case; two or more: no bound
            return spaces(current) == 0 and (
                current[0] != lens or current[1][0] < len(waste) or not all(current[2])
            )
        grown = True
        while grown:  # park a card that can leave again, for as long as one grows the set
            grown = False
            for t, c in parked(current):
                settle(t)
                if spaces(t) > 1:
                    return False
                if leaves(t, c):
                    current, grown = t, True
                    break
        # the last card parked stays: what any one of them frees, together
        most_free, most_waste, loose_free = current[0][:], current[1][0], current[2][:]
        for t, _ in parked(current):
            settle(t)
            if spaces(t) > 1:
                return False
            most_free = [max(a, b) for a, b in zip(most_free, t[0], strict=True)]
            most_waste = max(most_waste, t[1][0])
            loose_free = [a or b for a, b in zip(loose_free, t[2], strict=True)]
        return most_free != lens or most_waste < len(waste) or not all(loose_free)

    return dead
