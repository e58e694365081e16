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
* ``c`` may go home: some foundation of its suit, of height ``h`` now below ``c``'s
  rank, has a free copy of every rank from ``h + 1`` to ``c``'s predecessor (each
  foundation on its own; the searches use a looser rule by default: see "One reach a
  foundation" below); or
* ``c`` may go onto a card ``t`` (the build table says so) that is not home and could
  be a column's top: ``t`` is in a column, not beneath ``c`` in ``c``'s own column, with
  every card above it free; or ``t`` is free and not in a column (it could be moved into
  one).

**Claim.** Under *E*, every card that ever moves is free. By induction on the time of
a card's first move: the cards above it had moved before (free by induction); if it went
home, it went onto a foundation then at its predecessor's rank, whose height ``h`` now is
below its rank (no card leaves a foundation), and the cards of ranks ``h + 1`` up to its
predecessor went onto that foundation since: each was in a pile now and moved before it
(free by induction); if it went onto ``t``, ``t``
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

One reach a foundation
----------------------
With two or three decks a suit has two or three foundations, and a card below the
highest of them can go home only onto a lower one, which must first climb to it on cards
of its own: with clubs home to the jack on one foundation and to the ace on the other, a
ten of clubs needs a free two, three, ... nine of clubs. The rule above says so. The
searches' probe still uses the looser rule it had before session 15 unless
:data:`PER_FOUNDATION` is on (or ``make_probe(game, per_foundation=True)``): "every rank
from the highest foundation of the suit up to ``c``'s predecessor has a copy that is home
or free", which holds for every card below that foundation, so such a card counts as
able to go home whatever buries the cards it waits for. A looser rule frees a superset
(the fixpoint is monotone in its rules), so the claim holds for it too. The rule per
foundation is sharper: in searches of the greedy player's stalled positions, where one
foundation of a suit runs far ahead of the other, it calls dead two in five of the positions
the looser rule leaves ``OPEN``. But those searches do not finish either way, the ones
that finish search the same positions, and on a whole-deal proof it saved 4 % of the
positions for 4-6 % more CPU: it does not pay, so it is off (issue 24, session 15 in
docs/benchmarks.md). With it on, the probe keeps each foundation's reach (its height
grown over the ranks with a free copy) and the ranks a card may go home at, as bits
(``_home_mask``); each foundation climbs on its own, so two may climb on the same free
copy: an over-approximation, as the claim needs. Off, the mask is the highest reach's.

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

An empty column in reach
------------------------
When a column can empty, *E* fails and the cuts above say nothing. A one-slot model
(at most one column ever empty: the cards parked there one at a time folded into the
fixpoint) was sound and tested, and almost never fired on the positions that matter
while costing up to half the search's time (issue 24, rounds five and eight in
docs/benchmarks.md: 5 positions it alone called dead in 12 s of search of four stalled
mid-game positions, at 1-56 % of the positions searched); it was removed in session 12.

Positions lost by counting (too few places for a deep waste's cards) had a sound bound
of their own (session 10, removed in session 11: it decided no position this probe
leaves open, at 20 times its cost; docs/benchmarks.md "Round six ... a capacity bound").
A tighter one (one run of moved cards a column, anchors and spaces counted, a dynamic
programme per suit) was built and measured in session 15 and left out too: it fires at
the root of no stalled position and, inside their searches, only where the prover proves
the loss in seconds anyway, at 0.3-30 ms a call (docs/benchmarks.md "Session 15").

Both cuts keep the search's argument (:mod:`.prove`): a dead position is lost, so it
may be treated as one proved lost; a draw searched alone leads to a position with a
win exactly one move shorter whenever the position has a win (same length, draw first).
``tests/solver/test_deadlock.py`` checks both against a plain exhaustive search.

The columns' verdict, remembered
--------------------------------
Most probes end in the first phase (the columns and foundations alone free a whole
column: ``OPEN``), and that phase reads nothing but the columns and the foundations, which
a draw leaves as they were: the exhaustive search meets the same column layout again after
each draw (in a 50,000-node search of a decider position, up to 81 % of the probes had a
layout and foundations seen before). So the probe takes an optional ``memo``, a set of
``layout`` keys (the search passes its column key and the foundations) whose first phase
said ``OPEN``, and answers ``OPEN`` at once for them. A wrong ``OPEN`` (a key shared by two
layouts) would only leave a position to be searched: ``OPEN`` cuts nothing, so the memo
cannot make a proof wrong.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Protocol

from games.engine.cards import KING

if TYPE_CHECKING:
    from games.engine import GameState
    from games.engine.rules import RuleSet


class Probe(Protocol):
    """``probe(game, memo=None, layout=0) -> OPEN | DRAW_ONLY | DEAD`` (``memo`` and
    ``layout``: see "The columns' verdict, remembered")."""

    def __call__(self, g: GameState, memo: set[int] | None = None, layout: int = 0) -> int: ...


#: What :func:`make_probe`'s probe answers.
OPEN, DRAW_ONLY, DEAD = 0, 1, 2


#: Whether the searches' probe climbs each foundation on its own (see "One reach a
#: foundation"): sound and sharper, but off: it cost 4-6 % more CPU on a whole-deal proof
#: for 4 % fewer positions and decided nothing new (issue 24, session 15).
PER_FOUNDATION = False


def make_probe(game: GameState, *, per_foundation: bool | None = None) -> Probe | None:
    """``probe(game) -> OPEN | DRAW_ONLY | DEAD`` for the game's variant, or ``None``
    where the argument does not hold (runs move as units, or foundation take-back).
    ``per_foundation`` (default :data:`PER_FOUNDATION`): the home rule per foundation,
    else the highest foundation's reach for every card of the suit."""
    if per_foundation is None:
        per_foundation = PER_FOUNDATION
    return _plain_probe_for(game.rules, per_foundation)


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
def _plain_probe_for(rules: RuleSet, per_foundation: bool = False) -> Probe | None:  # noqa: C901
    if rules.sequences or rules.takeback:
        return None
    targets, suits = _tables(rules)
    start_mask, home_mask = (
        (_start_mask, _home_mask) if per_foundation else (_start_highest, _highest_mask)
    )
    # each suit's foundations read at once (the index twice for a single deck, so every
    # getter gives a tuple): a quarter of the probe's set-up was a max over a generator
    heights = [itemgetter(*ks, *ks) if len(ks) == 1 else itemgetter(*ks) for ks in suits]

    def probe(g: GameState, memo: set[int] | None = None, layout: int = 0) -> int:
        piles, found = g.piles, g.found
        if memo is not None and layout in memo:  # the columns alone said OPEN before
            return OPEN
        cols = piles[1:]
        for p in cols:
            if not p:  # an empty column: E fails at once
                return OPEN
        n = len(cols)
        # each foundation's own reach (``bottom``: its height now): a card goes home only
        # onto a foundation between the two (see "One reach a foundation")
        bottom = [get(found) for get in heights]
        reach = [list(b) for b in bottom]
        home = [start_mask(b) for b in bottom]
        free = [0] * n  # the free cards of each column: its top ``free[ci]`` cards
        lens = [len(p) for p in cols]
        # the free cards (any copy), and the cards that could be a column's top: each
        # column's first card below its free ones, the free ones, the free loose cards.
        # A card's own column never offers a card beneath it: only the cards above
        # the first non-free one are in ``exposed``, and a card never goes onto itself.
        freed: set[int] = set()
        exposed = {p[-1] for p in cols}

        def movable(c: int) -> bool:
            if home[c & 3] >> (c >> 2) & 1:
                return True
            return not exposed.isdisjoint(targets[c])

        def grow(c: int) -> None:
            """``c`` is free now: each foundation waiting for it climbs as far as the
            free cards go (a reach is always the top of its run of free ranks)."""
            s, r = c & 3, c >> 2
            rs = reach[s]
            climbed = False
            for f in range(len(rs)):
                if rs[f] + 1 == r:
                    x = r
                    while x < KING and ((x + 1) << 2) | s in freed:
                        x += 1
                    rs[f] = x
                    climbed = True
            if climbed:
                home[s] = home_mask(bottom[s], rs)

        def settle() -> bool:
            """Grow the free cards of the columns to the fixpoint; False once a whole
            column is free (E is not shown)."""
            changed = True
            while changed:
                changed = False
                for ci in range(n):
                    p, f, size = cols[ci], free[ci], lens[ci]
                    while f < size and movable(p[size - 1 - f]):
                        c = p[size - 1 - f]
                        if c not in freed:
                            freed.add(c)
                            grow(c)
                        f += 1
                        if f < size:
                            exposed.add(p[size - 1 - f])
                        changed = True
                    if f == size:
                        return False
                    free[ci] = f
            return True

        if not settle():
            if memo is not None:
                memo.add(layout)
            return OPEN
        waste, stock = piles[0], g.stock
        draw_only = bool(stock) and (not waste or not movable(waste[-1]))
        # phase two: the waste and the stock join; if every column still holds a card
        # that is not free, E holds for good and those cards never move: lost
        loose = list(stock)
        if g.redeals_left:
            loose += waste
            pile: list[int] = []
        else:
            pile = list(waste)
        changed = True
        while changed:
            changed = False
            while pile and movable(pile[-1]):
                c = pile.pop()
                if c not in freed:
                    freed.add(c)
                    grow(c)
                exposed.add(c)
                changed = True
            rest = []
            for c in loose:
                if movable(c):
                    if c not in freed:
                        freed.add(c)
                        grow(c)
                    exposed.add(c)
                    changed = True
                else:
                    rest.append(c)
            loose = rest
            if changed and not settle():
                return DRAW_ONLY if draw_only else OPEN
        return DEAD

    return probe


def _highest_mask(bottom: tuple[int, ...], reach: list[int] | tuple[int, ...]) -> int:
    """The rule before session 15 (``PER_FOUNDATION`` off): a card may go home at any
    rank up to one above the highest reach of its suit (the highest foundation's reach:
    a lower one that passes it follows the same free ranks, so never goes beyond)."""
    return (4 << max(reach)) - 2


@cache
def _start_highest(bottom: tuple[int, ...]) -> int:
    """:func:`_highest_mask` before any card is free."""
    return _highest_mask(bottom, bottom)


@cache
def _start_mask(bottom: tuple[int, ...]) -> int:
    """:func:`_home_mask` before any card is free (each reach its foundation's height)."""
    return _home_mask(bottom, bottom)


def _home_mask(bottom: tuple[int, ...], reach: list[int] | tuple[int, ...]) -> int:
    """The ranks a card of the suit may go home at, as bits: ``h + 1`` to ``r + 1`` for
    each foundation of height ``h`` now whose reach is ``r``."""
    mask = 0
    for h, r in zip(bottom, reach, strict=True):
        mask |= (4 << r) - (2 << h)
    return mask
