"""The searches' table key (games/solver/key.py, "The table key") against the sorted key.

The table key sums the columns' hashes so that the search can update it for the columns a
move touches. A sum is only a sound key if each column's hash is a good one: summing
Python's *tuple* hashes (xxHash lanes, nearly linear in the last element) made
``{X + [a], [b]}`` and ``{X + [b], [a]}`` collide for about a third of random ``X, a, b``
(session 13: it proved the wrong positions lost in a real search), so the columns are
hashed as bytes (SipHash). These checks compare the two keys' partitions of the
positions searches of real deals meet, and the key the search keeps move by move with the
key computed whole.
"""

from __future__ import annotations

import random

from games.engine import GameState
from games.engine import moves as engine_moves
from games.solver import _private_copy
from games.solver.key import make_key_function, make_table_key
from games.solver.prove import LostTable
from games.solver.search import Search

#: every variant of the family, and one with face-down cards and one with redeals
DEALT = ["forty-thieves", "indian", "number-ten", "little-forty", "josephine", "streets"]


def assert_same_partition(pairs: list[tuple[int, int]]) -> None:
    """Each sorted key has one table key and each table key one sorted key."""
    table_of: dict[int, int] = {}
    sorted_of: dict[int, int] = {}
    for old, new in pairs:
        assert table_of.setdefault(old, new) == new
        assert sorted_of.setdefault(new, old) == old


def test_it_does_not_collide_when_two_columns_swap_their_top_cards() -> None:
    # the tuple-hash sum's failure: {X + [a], [b]} against {X + [b], [a]}
    rng = random.Random(13)
    game = GameState.from_seed(7, "forty-thieves", undo_limit=0)
    key = make_table_key(game)
    for _ in range(2000):
        piles = game.piles
        x = [rng.randrange(4, 56) for _ in range(rng.randrange(1, 6))]
        a, b = rng.sample(range(4, 56), 2)
        piles[1], piles[2] = [*x, a], [b]
        first = key(game)
        piles[1], piles[2] = [*x, b], [a]
        assert key(game) != first


def walk(game: GameState, rng: random.Random, steps: int) -> GameState:
    """``game`` after up to ``steps`` random legal moves."""
    for _ in range(steps):
        moves = engine_moves.legal(game)
        if not moves:
            break
        engine_moves.apply(game, rng.choice(moves))
    return game


def test_the_search_keeps_the_key_it_would_compute_whole_and_splits_as_the_sorted_one() -> None:
    # every variant of the family (runs, face-down cards, redeals), positions along
    # random games, each searched for some thousands of nodes: every key the search keeps
    # is the key computed whole, and the keys split the positions met as the sorted key
    # does (the tuple-hash sum fails this on the classic deals: about one position in a
    # thousand shares its key with another)
    for variant in DEALT:
        for seed in range(3):
            rng = random.Random(seed)
            game = walk(GameState.from_seed(seed + 1, variant, undo_limit=0), rng, 30 * seed)
            nodes = 15_000 if variant == "forty-thieves" else 3000
            search = Search(
                _private_copy(game), deadline=1e18, max_nodes=nodes, table=LostTable(), sleep=True
            )
            search.compiled = None  # the Python loop, whose key this test reads as it goes
            whole, key, old = search.whole, make_table_key(game), make_key_function(game)
            pairs: list[tuple[int, int]] = []

            def checking(g: GameState, s: int, whole=whole, key=key, old=old, pairs=pairs) -> int:
                k = whole(g, s)
                assert k == key(g)
                pairs.append((old(g), k))
                return k

            search.whole = checking
            search.run()
            assert len(pairs) > 100, (variant, seed)
            assert_same_partition(pairs)


def test_it_keys_a_resumed_search_from_where_it_stood() -> None:
    # a search cut into turns recomputes the column hashes from the position it stands on
    game = walk(GameState.from_seed(3, "forty-thieves", undo_limit=0), random.Random(3), 50)
    whole_search = Search(_private_copy(game), deadline=1e18, max_nodes=20_000)
    one = whole_search.run()
    turns = Search(_private_copy(game), deadline=1e18, max_nodes=None, resumable=True)
    nodes, verdict = 0, "unknown"
    while verdict == "unknown" and nodes < 20_000:
        turns.max_nodes = min(777, 20_000 - nodes)
        verdict, line = turns.run()
        nodes += turns.nodes
    assert (verdict, nodes) == (one[0], whole_search.nodes)
    assert turns.table.keys == whole_search.table.keys
