"""A plain exhaustive search to check the solver against, and small positions to check it on.

The plain search is meant to be obviously right rather than fast: it lists every legal
move with the engine's own ``moves.legal``, plays it on a fresh copy, and remembers whole
states (every pile, the stock in order, the foundations, the redeals left), with no
pruning, no symmetry and no hashing. The positions are end games of the engine's
variants: most cards on the foundations, a few in the columns, waste and stock.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from games.engine import GameState
from games.engine import moves as engine_moves
from games.engine.cards import KING, format_card
from games.engine.notation import DRAW, REDEAL, WASTE

State = tuple

#: The time budget of a search whose budget is its nodes: no clock at all, so its answer is
#: the same on a loaded machine (a search cut by the clock answers by the machine's speed).
UNTIMED = math.inf


def state_of(game: GameState) -> State:
    """Everything that decides a position's future, as a tuple."""
    return (
        tuple(map(tuple, game.piles)),
        tuple(game.down),
        tuple(game.stock),
        tuple(game.found),
        game.redeals_left,
    )


# What the plain searches found, by position (its dump, which is all they read of it) and
# limit: they are pure. Hypothesis builds most examples by mutating earlier ones, which
# keeps their position and changes the other arguments (a budget, a seed), so the same
# position comes back (120 searches of a test_prove.py run were of 45 positions). An
# answer past the limit is the dearest (every state up to the limit visited): the tests
# reject those examples, and their strategies make few of them (each test's docstring).
_WINNABLE: dict[tuple[str, int], bool | None] = {}
_PAST_LIMIT: set[tuple[str, int]] = set()


def _position(game: GameState, limit: int) -> tuple[str, int]:
    return json.dumps(game.dump(history=False), sort_keys=True), limit


def children(game: GameState) -> list[GameState]:
    out = []
    for move in engine_moves.legal(game):
        child = GameState.load(game.dump(history=False))
        engine_moves.apply(child, move)
        out.append(child)
    return out


def naive_winnable(game: GameState, limit: int = 20_000) -> bool | None:
    """Whether a win is reachable from ``game``: depth-first over every legal move (played
    and taken back by the engine on one copy) with a set of whole states; ``None`` past
    ``limit`` states."""
    known = _position(game, limit)
    if known not in _WINNABLE:
        _WINNABLE[known] = _naive_winnable(game, limit)
    return _WINNABLE[known]


def _naive_winnable(game: GameState, limit: int) -> bool | None:
    g = GameState.load(game.dump(history=False))
    if g.is_won():
        return True
    seen = {state_of(g)}
    frames = [(engine_moves.legal(g), [0])]
    path: list = []
    while frames:
        moves, at = frames[-1]
        if at[0] == len(moves):
            frames.pop()
            if path:
                engine_moves.revert(g, path.pop())
            continue
        record = engine_moves.apply(g, moves[at[0]])
        at[0] += 1
        state = state_of(g)
        if state in seen:
            engine_moves.revert(g, record)
            continue
        if g.is_won():
            return True
        seen.add(state)
        if len(seen) > limit:
            return None
        path.append(record)
        frames.append((engine_moves.legal(g), [0]))
    return False


def reachable_outcomes(
    game: GameState, label: Callable[[GameState], Any], limit: int = 20_000
) -> dict[State, tuple[bool, Any]]:
    """Every position reachable from ``game``, with whether a win is reachable from it
    (wins spread backwards along the moves from the won positions) and ``label`` of it;
    ``{}`` past ``limit`` states."""
    known = _position(game, limit)
    if known in _PAST_LIMIT:
        return {}
    outcomes = _reachable_outcomes(game, label, limit)
    if not outcomes:
        _PAST_LIMIT.add(known)
    return outcomes


def _reachable_outcomes(
    game: GameState, label: Callable[[GameState], Any], limit: int
) -> dict[State, tuple[bool, Any]]:
    g = GameState.load(game.dump(history=False))
    root = state_of(g)
    labels = {root: label(g)}
    parents: dict[State, list[State]] = {}
    won = {root} if g.is_won() else set()
    frames = [(root, engine_moves.legal(g), [0])]
    path: list = []
    while frames:
        here, moves, at = frames[-1]
        if at[0] == len(moves):
            frames.pop()
            if path:
                engine_moves.revert(g, path.pop())
            continue
        record = engine_moves.apply(g, moves[at[0]])
        at[0] += 1
        there = state_of(g)
        parents.setdefault(there, []).append(here)
        if there in labels:
            engine_moves.revert(g, record)
            continue
        if len(labels) >= limit:
            return {}
        labels[there] = label(g)
        if g.is_won():
            won.add(there)
        path.append(record)
        frames.append((there, engine_moves.legal(g), [0]))
    winnable = set(won)
    todo = list(won)
    while todo:
        for parent in parents.get(todo.pop(), ()):
            if parent not in winnable:
                winnable.add(parent)
                todo.append(parent)
    return {s: (s in winnable, labels[s]) for s in labels}


VARIANTS = [
    "forty-thieves",
    "josephine",
    "streets",
    "forty-thieves+kings",
    "indian",
    "little-forty",
    "streets+kings",
]


@st.composite
def endgames(
    draw,
    variants: list[str] | None = None,
    lowest: int = 10,
    stock: int = 2,
    cards: int | None = None,
    blocked: bool = False,
):
    """An end game: each foundation at a rank from ``lowest`` to the king, the cards above
    spread at random over the stock (at most ``stock``), the waste and a few columns; at
    most ``cards`` of them, and ``blocked`` (see :func:`endgame`)."""
    variant = draw(st.sampled_from(variants or VARIANTS[:5]))
    seed = draw(st.integers(0, 10**9))
    return endgame(variant, seed, lowest=lowest, stock=stock, cards=cards, blocked=blocked)


def endgame(
    variant: str,
    seed: int,
    *,
    lowest: int = 10,
    stock: int = 2,
    cards: int | None = None,
    blocked: bool = False,
) -> GameState:
    """The end game :func:`endgames` makes from ``seed`` (a plain function, for loops). With
    ``cards``, the lowest foundations climb until at most that many cards are off them:
    the plain search lists every position of an end game only when it is that small
    (with four cards out and spaces for any card, the ten columns already hold some
    10,000 arrangements of them). ``blocked``: always the layout where games get lost,
    every column dealt to in turn and high cards over low ones."""
    rng = random.Random(seed)
    rules = GameState.from_seed(1, variant).rules
    ranks = []
    # half the time one suit low and the others nearly home: its cards crowd the columns
    low_suit = rng.randrange(4) if rng.random() < 0.5 else None
    for k in range(rules.foundations):
        suit = k % 4
        if low_suit is None:
            rank = rng.choice([lowest, lowest + 1, 12, 12, 13, 13])
        else:
            rank = rng.randint(lowest - 3, lowest) if suit == low_suit else rng.choice([12, 13])
        ranks.append(rank)
    while cards is not None and sum(KING - r for r in ranks) > cards:
        ranks[min(range(len(ranks)), key=lambda k: (ranks[k], k))] += 1
    tops, loose = [], []
    for k, rank in enumerate(ranks):
        tops.append(format_card(rank << 2 | (k % 4)))
        loose += [format_card(r << 2 | (k % 4)) for r in range(rank + 1, 14)]
    rng.shuffle(loose)
    stock_n = min(len(loose), rng.choice([0, 1, 2, stock, stock]))
    in_stock, loose = loose[:stock_n], loose[stock_n:]
    waste_n = min(len(loose), rng.choice([0, 1, 2, 4]))
    waste, loose = loose[:waste_n], loose[waste_n:]
    columns: list[list[str]] = [[] for _ in range(rules.columns)]
    if rng.random() < 0.5 and not blocked:
        used = rng.randint(1, rules.columns)
        for card in loose:
            columns[rng.randrange(used)].append(card)
    else:  # every column dealt to in turn: no space to start with, where games get lost
        for i, card in enumerate(loose):
            columns[i % rules.columns].append(card)
    if rng.random() < 0.5 or blocked:  # high cards over low ones: the blocks that lose games
        columns = [sorted(c, key=lambda card: "A23456789TJQK".index(card[0])) for c in columns]
    return GameState.from_layout(columns, in_stock, variant, waste=waste, foundations=tops)


@st.composite
def crowded_games(draw, variants: list[str] | None = None, loose: int = 22, stock: int = 6):
    """A crowded late game (see :func:`crowded_game`), of one of ``variants``."""
    variant = draw(st.sampled_from(variants or VARIANTS))
    return crowded_game(variant, draw(st.integers(0, 10**9)), loose=loose, stock=stock)


def far_from_home(rng: random.Random, foundations: int, loose: int) -> tuple[list[str], list[str]]:
    """Up to ``loose`` cards of one or two suits taken from the top of their foundations
    down (kings first, never an ace), and the foundations' tops then: a late game whose
    chosen suits are far from home."""
    ranks = [KING] * foundations
    suits = rng.sample(range(4), rng.randint(1, 2))
    low = [k for k in range(foundations) if k % 4 in suits]
    cards: list[str] = []
    while len(cards) < loose and any(ranks[k] > 1 for k in low):
        k = rng.choice(low)
        if ranks[k] > 1:
            cards.append(format_card(ranks[k] << 2 | (k % 4)))
            ranks[k] -= 1
    return cards, [format_card(r << 2 | (k % 4)) for k, r in enumerate(ranks)]


def crowded_game(variant: str, seed: int, *, loose: int = 22, stock: int = 6) -> GameState:
    """A late game where one or two suits are far from home and every column holds a few
    of their cards, mostly high over low: the positions where games are lost (and where
    dead positions and lone draws show up). Up to ``stock`` cards in the stock, up to 3
    in the waste, the rest dealt to the columns in turn."""
    rng = random.Random(seed)
    rules = GameState.from_seed(1, variant).rules
    cards, tops = far_from_home(rng, rules.foundations, loose)
    rng.shuffle(cards)
    n_stock, n_waste = rng.randint(0, stock), rng.randint(0, 3)
    in_stock, waste, rest = (
        cards[:n_stock],
        cards[n_stock : n_stock + n_waste],
        cards[n_stock + n_waste :],
    )
    columns: list[list[str]] = [[] for _ in range(rules.columns)]
    for i, card in enumerate(rest):
        columns[i % rules.columns].append(card)
    if rng.random() < 0.7:  # high cards over low ones
        columns = [sorted(c, key=lambda card: "A23456789TJQK".index(card[0])) for c in columns]
    return GameState.from_layout(columns, in_stock, variant, waste=waste, foundations=tops)


#: Kings-only spaces, and builds that leave a crowded late game blocked (alternate colours,
#: another suit), with a redeal, draws of three, nine columns among them: of their crowded
#: games (:func:`small_spaces`) the plain search lists the whole space of about half (7 in
#: 12 within 5,000 positions), many of them lost. With spaces for any card it lists few:
#: four cards out already make some 10,000 arrangements of the ten columns.
SMALL_SPACED = [
    "streets+kings",
    "indian+kings",
    "little-forty+kings",
    "streets+kings+redeal1",
    "maria+kings",
]


def small_spaces(variants: list[str] | None = None):
    """Crowded late games (:func:`crowded_games`) of ``variants`` (``SMALL_SPACED``): the
    positions with lost ones in them that the plain search lists whole."""
    return crowded_games(variants or SMALL_SPACED, loose=18, stock=4)


def waste_moves_without_a_draw(game: GameState, limit: int = 20_000) -> bool | None:
    """Whether some sequence of moves without a draw (or redeal) from ``game`` reaches a
    position where the waste's top card may move: every such position listed by the
    engine, whole states remembered; ``None`` past ``limit`` states."""
    g = GameState.load(game.dump(history=False))
    seen = {state_of(g)}
    todo = [g]
    while todo:
        here = todo.pop()
        for move in engine_moves.legal(here):
            if move.kind in (DRAW, REDEAL):
                continue
            if move.src == WASTE:
                return True
            child = GameState.load(here.dump(history=False))
            engine_moves.apply(child, move)
            state = state_of(child)
            if state not in seen:
                seen.add(state)
                if len(seen) > limit:
                    return None
                todo.append(child)
    return False


ALL_KINGS = ["KS", "KH", "KD", "KC"] * 2


def layout(tableau, stock=(), variant="forty-thieves", waste=(), foundations=ALL_KINGS):
    """A hand-made position: up to ten columns, the stock, the waste, the foundations."""
    columns = [list(c) for c in tableau] + [[] for _ in range(10 - len(tableau))]
    return GameState.from_layout(
        columns, list(stock), variant, waste=list(waste), foundations=list(foundations)
    )
