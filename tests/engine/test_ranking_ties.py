"""Equal results share a rank on every board ("1, 1, 3"): the one function that numbers
them (games.engine.ranking.competition_ranks over tie_floor), against a plain count."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine.ranking import competition_ranks, sort_key, tie_floor

results = st.lists(
    st.tuples(
        st.booleans(),
        st.integers(0, 40),  # score: few values, so ties are common
        st.integers(1, 6),  # moves
        st.integers(0, 5_000),  # time, ms: several results in one second
    ),
    min_size=1,
    max_size=40,
)


def key(r: tuple[bool, int, int, int]) -> int:
    return sort_key(won=r[0], score=r[1], moves=r[2], duration_ms=r[3])


@given(results, st.data())
def test_each_rank_is_one_more_than_the_results_strictly_better(
    board: list[tuple[bool, int, int, int]], data: st.DataObject
) -> None:
    board.sort(key=key, reverse=True)
    worth = [(r[0], r[1], -r[2], -(r[3] // 1000)) for r in board]
    want = [1 + sum(o > w for o in worth) for w in worth]
    ties = [tie_floor(key(r)) for r in board]
    assert competition_ranks(ties) == want
    # A page anywhere in the board, given the rank of its first entry, agrees.
    start = data.draw(st.integers(0, len(board) - 1))
    assert competition_ranks(ties[start:], start=start, first=want[start]) == want[start:]


def test_the_issue_case_two_equal_results_are_both_first() -> None:
    same = tie_floor(sort_key(won=True, score=1185, moves=210, duration_ms=300_400))
    ties = [same, same, tie_floor(sort_key(won=True, score=1185, moves=211, duration_ms=1))]
    assert competition_ranks(ties) == [1, 1, 3]
