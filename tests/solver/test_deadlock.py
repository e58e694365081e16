"""The dead-position and lone-draw cuts (games/solver/deadlock.py) against a plain search.

The plain search (tests/support/solver.py: engine moves, whole states, no pruning, no
hashing) decides every position reachable from small late games; for each of them the
probe's answer must hold: a position called dead has no win, and a position whose draw
is searched alone has a win exactly when the position after the draw has one. The
prover, which now uses both cuts at every position it enters, must still agree with the
plain search.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from benchmarks.players import play_greedy
from games.engine import GameState
from games.engine import moves as engine_moves
from games.engine.notation import DRAW_MOVE
from games.solver import _private_copy
from games.solver.deadlock import DEAD, DRAW_ONLY, OPEN, make_probe
from games.solver.key import make_table_key
from games.solver.prove import LostTable, prove
from games.solver.search import Search
from tests.support.engine import random_walk
from tests.support.solver import (
    SMALL_SPACED,
    UNTIMED,
    VARIANTS,
    crowded_game,
    crowded_games,
    endgames,
    naive_winnable,
    reachable_outcomes,
    state_of,
    waste_moves_without_a_draw,
)

#: The variants the cuts apply to (single cards move, no take-back), with a redeal, three
#: decks and nine columns among them.
CUT = [
    v
    for v in [*VARIANTS, "forty-thieves+redeal1", "sixty-thieves", "maria"]
    if make_probe(GameState.from_seed(1, v)) is not None
]
#: The kings-only ones whose crowded games the plain search lists whole (SMALL_SPACED).
LISTED_CUT = [v for v in SMALL_SPACED if make_probe(GameState.from_seed(1, v)) is not None]


def labelled(game: GameState) -> tuple[int, object]:
    """The probe's answer for ``game`` and, for a lone draw, the state after the draw."""
    answer = make_probe(game)(game)
    if answer != DRAW_ONLY:
        return answer, None
    child = GameState.load(game.dump(history=False))
    engine_moves.apply(child, DRAW_MOVE)
    return answer, state_of(child)


def check_every_reachable_position(game: GameState) -> Counter[int]:
    """Check the probe on every position the plain search reaches from ``game``; the
    answers given, counted (empty past the plain search's limit)."""
    outcomes = reachable_outcomes(game, labelled, limit=4000)
    seen: Counter[int] = Counter()
    for winnable, (answer, after_draw) in outcomes.values():
        seen[answer] += 1
        if answer == DEAD:
            assert not winnable
        elif answer == DRAW_ONLY:
            assert outcomes[after_draw][0] == winnable
    return seen


def met_a_cut(seen: Counter[int]) -> bool:
    """Whether a check listed a position the probe calls dead or a lone draw: only those
    positions' answers say something to check (empty: past the plain search's limit)."""
    return bool(seen[DEAD] or seen[DRAW_ONLY])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    crowded_games(CUT, loose=26)
    | crowded_games(LISTED_CUT, loose=26)
    | crowded_games(LISTED_CUT, loose=22)
)
def test_a_dead_position_has_no_win_and_a_lone_draw_keeps_every_win(game: GameState) -> None:
    """Only the examples whose whole space the plain search lists, with a dead position or
    a lone draw in it, are checked (the others rejected): 30 of 78 (38 %). Crowded games
    of every variant the cuts apply to (26 cards out: a fifth listed, with a cut), and of
    the kings-only ones, listed more often (22 and 26 cards out)."""
    assume(met_a_cut(check_every_reachable_position(game)))


@settings(
    max_examples=15,
    deadline=None,
    # about 3 examples in 10 are checked (measured): the filter is the point
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(endgames(LISTED_CUT, lowest=4, stock=6, blocked=True))
def test_the_cuts_hold_on_end_games_too(game: GameState) -> None:
    """Checked only where the plain search lists the whole space and it holds a dead
    position or a lone draw: 15 of 48 examples (31 %), end games of the kings-only
    variants with every column dealt to, high cards over low (of every variant's end
    games with up to five cards a foundation to go, one in 30 was listed, none with a cut
    in it)."""
    assume(met_a_cut(check_every_reachable_position(game)))


def walked(seed: int, share: float, steps: int, walk: int) -> GameState:
    """The greedy player's game of a classic deal after ``share`` of its moves, then
    ``steps`` random legal moves (``walk`` seeds them): the positions a search meets."""
    moves = [m for m in play_greedy(seed, "forty-thieves").moves if m != "resign"]
    game = GameState.from_seed(seed, undo_limit=0)
    game.replay(moves[: int(share * len(moves))])
    return random_walk(game, random.Random(walk), steps)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 5000),
    st.floats(0, 1),
    st.integers(0, 40),
    st.integers(0, 10**6),
)
def test_a_lone_draw_is_searched_only_where_no_move_without_a_draw_frees_the_waste(
    seed: int, share: float, steps: int, walk: int
) -> None:
    # the lemma the lone draw rests on, checked on whole classic games (their draw-free
    # space is small enough for the plain listing, their full space is not)
    game = walked(seed, share, steps, walk)
    if make_probe(game)(game) == DRAW_ONLY:
        assert waste_moves_without_a_draw(game, limit=20_000) is not True


def test_the_checks_above_meet_both_cuts_many_times() -> None:
    # the property tests cannot pass by never meeting a cut: on fixed samples each cut
    # comes up many times
    seen: Counter[int] = Counter()
    for seed in range(8):
        for variant in ("streets", "indian", "maria", "streets+kings"):
            seen += check_every_reachable_position(crowded_game(variant, seed))
    assert seen[DEAD] >= 20 and seen[DRAW_ONLY] >= 1 and seen[OPEN] >= 100
    lone = 0
    for seed in range(1, 4):
        for share in (0.1, 0.3, 0.5):
            game = walked(seed, share, 0, 0)
            if make_probe(game)(game) == DRAW_ONLY and game.piles[0]:
                assert waste_moves_without_a_draw(game) is False
                lone += 1
    assert lone >= 3


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_games(VARIANTS, loose=18))
def test_the_prover_with_the_cuts_agrees_with_the_plain_search(game: GameState) -> None:
    """Checked where the plain search decides: 30 of 32 examples (94 %); its table too
    where the plain search lists the whole space."""
    truth = naive_winnable(game, limit=5000)
    assume(truth is not None)
    table = LostTable()
    result = prove(game, max_seconds=UNTIMED, max_nodes=1_000_000, table=table)  # no clock
    assert result.verdict == ("win" if truth else "lost"), game.dump()
    outcomes = reachable_outcomes(game, make_table_key(game), limit=5000)
    if outcomes:
        assert table.keys <= {k for won, k in outcomes.values() if not won}


def test_the_cuts_shrink_the_search_of_real_positions_and_keep_the_verdict() -> None:
    # late positions of the greedy player's lost games of deals 1 and 5: the plain
    # search proves them lost too, with many times the positions
    for seed, at in ((1, 43), (1, 67), (5, 49), (5, 67)):
        game = walked(seed, 0, 0, 0)
        moves = [m for m in play_greedy(seed, "forty-thieves").moves if m != "resign"]
        game.replay(moves[:at])
        plain = Search(_private_copy(game), deadline=1e18, max_nodes=200_000, cuts=False)
        cut = Search(_private_copy(game), deadline=1e18, max_nodes=200_000)
        assert plain.run()[0] == cut.run()[0] == "lost"
        assert cut.nodes < plain.nodes * 0.8


def test_the_variants_with_runs_or_take_back_get_no_cuts() -> None:
    for spec in ("josephine", "forty-thieves+takeback"):
        assert make_probe(GameState.from_seed(1, spec)) is None


def test_a_dead_real_position_is_proved_lost_with_no_position_searched() -> None:
    # deal 1's greedy game after 43 moves: 31 cards in the stock, and every column keeps
    # a card that can never move (the plain search needs 35,000 positions to agree, above)
    moves = [m for m in play_greedy(1, "forty-thieves").moves if m != "resign"]
    game = GameState.from_seed(1, undo_limit=0)
    game.replay(moves[:43])
    assert game.stock_count == 31
    assert make_probe(game)(game) == DEAD
    result = prove(game)
    assert result.verdict == "lost" and result.nodes == 0


class _Forgetful(set[int]):
    """A memo that never remembers: the probe asked in full every time."""

    def add(self, item: int) -> None:
        pass


def test_it_searches_the_same_with_the_open_layouts_remembered() -> None:
    # the memo of layouts whose columns alone said OPEN changes no answer of the probe:
    # the searches with and without it visit the same positions and prove the same ones
    seen = 0
    for seed in (1, 2, 5):
        game = GameState.from_seed(seed, "forty-thieves", undo_limit=0)
        moves = [m for m in play_greedy(seed, "forty-thieves").moves if m != "resign"]
        game.replay(moves[: len(moves) // 2])
        searches = []
        for forgetful in (False, True):
            search = Search(_private_copy(game), deadline=1e18, max_nodes=10_000, sleep=True)
            search.compiled = None  # the Python loop, whose memo this test replaces
            if forgetful:
                search.layouts = _Forgetful()
            searches.append((search.run(), search.nodes, search.table.keys, search.layouts))
        (one, nodes, keys, layouts), (other, nodes2, keys2, _) = searches
        assert (one, nodes, keys) == (other, nodes2, keys2)
        seen += len(layouts)
    assert seen > 300  # the memo was used
