"""Daily boards: the sort key, the member names, and the database and Redis boards agreeing."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import ranking
from leaderboards import services
from leaderboards.boards import (
    FINISH_DIGITS,
    ID_DIGITS,
    MAX_MOVES,
    MAX_SCORE,
    MAX_TIME,
    DatabaseBoard,
    Entry,
    RedisBoard,
    board_for,
    member,
    result_id_of,
    sort_key,
)
from leaderboards.models import Result

VARIANT = "forty-thieves"
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

MakeResult = Callable[..., Result]

# The sort key ------------------------------------------------------------------------------

scores = st.integers(0, MAX_SCORE)
move_counts = st.integers(0, MAX_MOVES)
times = st.integers(0, MAX_TIME)
anything = st.fixed_dictionaries(
    {"won": st.booleans(), "score": scores, "moves": move_counts, "duration_ms": times}
)


def key(fields: dict[str, object]) -> int:
    return sort_key(**fields)  # type: ignore[arg-type]


@given(anything, anything)
def test_a_win_always_beats_a_loss(a: dict[str, object], b: dict[str, object]) -> None:
    assert key({**a, "won": True}) > key({**b, "won": False})


@given(st.booleans(), scores, scores, move_counts, move_counts, times, times)
def test_with_equal_won_the_higher_score_ranks_higher(
    won: bool, s1: int, s2: int, m1: int, m2: int, t1: int, t2: int
) -> None:
    if s1 != s2:
        k1 = sort_key(won=won, score=s1, moves=m1, duration_ms=t1)
        k2 = sort_key(won=won, score=s2, moves=m2, duration_ms=t2)
        assert (k1 > k2) == (s1 > s2)


@given(st.booleans(), scores, move_counts, move_counts, times, times)
def test_then_fewer_moves_rank_higher(
    won: bool, score: int, m1: int, m2: int, t1: int, t2: int
) -> None:
    if m1 != m2:
        k1 = sort_key(won=won, score=score, moves=m1, duration_ms=t1)
        k2 = sort_key(won=won, score=score, moves=m2, duration_ms=t2)
        assert (k1 > k2) == (m1 < m2)


@given(st.booleans(), scores, move_counts, times, times)
def test_then_less_time_ranks_higher(won: bool, score: int, moves: int, t1: int, t2: int) -> None:
    k1 = sort_key(won=won, score=score, moves=moves, duration_ms=t1)
    k2 = sort_key(won=won, score=score, moves=moves, duration_ms=t2)
    assert (k1 > k2) == (t1 < t2) and (k1 == k2) == (t1 == t2)


@given(anything, anything)
def test_the_key_orders_exactly_as_the_board_rules_within_range(
    a: dict[str, object], b: dict[str, object]
) -> None:
    def rules(f: dict[str, object]) -> tuple[object, ...]:
        return (f["won"], f["score"], -f["moves"], -f["duration_ms"])  # type: ignore[operator]

    assert (key(a) > key(b)) == (rules(a) > rules(b))
    assert (key(a) == key(b)) == (rules(a) == rules(b))


@given(
    st.booleans(),
    st.integers(0, 10**6),
    st.integers(0, 10**9),
    st.integers(0, 10**13),
)
def test_the_key_fits_a_double_exactly_even_out_of_range(
    won: bool, score: int, moves: int, duration_ms: int
) -> None:
    k = sort_key(won=won, score=score, moves=moves, duration_ms=duration_ms)
    assert 0 <= k < 2**53
    assert int(float(k)) == k


# Member names ------------------------------------------------------------------------------

ids = st.integers(1, 10**ID_DIGITS - 1)
finishes = st.integers(0, 10**FINISH_DIGITS - 1)


@given(ids, finishes)
def test_a_member_names_its_result(result_id: int, finished_ms: int) -> None:
    name = member(result_id, finished_ms)
    assert result_id_of(name) == result_id
    assert result_id_of(name.encode()) == result_id  # as redis-py returns it
    assert len(name) == FINISH_DIGITS + 1 + ID_DIGITS


@given(ids, ids, finishes, finishes)
def test_on_equal_keys_the_earlier_finish_then_the_lower_id_comes_first(
    id1: int, id2: int, f1: int, f2: int
) -> None:
    # ZREVRANGE lists equal scores by member, greatest first.
    first = member(id1, f1) > member(id2, f2)
    assert first == ((f1, id1) < (f2, id2)) or (f1, id1) == (f2, id2)


entries = st.fixed_dictionaries(
    {
        "won": st.booleans(),
        "score": st.integers(0, 3),
        "moves": st.integers(0, 3),
        "duration_ms": st.integers(0, 3),
        "finished_ms": st.integers(0, 3),
        "result_id": ids,
    }
)


@given(st.lists(entries, max_size=12, unique_by=lambda e: e["result_id"]))
def test_the_engines_board_order_is_the_redis_boards(board: list[dict[str, int]]) -> None:
    """The day files rank with the engine's ``board_order``; the site's Redis board lists
    by score, then member name, both greatest first (ZREVRANGE). Same order, ties included."""
    by_engine = sorted(board, key=lambda e: ranking.board_order(**e))
    by_redis = sorted(
        board,
        key=lambda e: (
            sort_key(
                won=e["won"], score=e["score"], moves=e["moves"], duration_ms=e["duration_ms"]
            ),
            member(e["result_id"], e["finished_ms"]),
        ),
        reverse=True,
    )
    assert by_engine == by_redis


# Boards over real rows -------------------------------------------------------------------


def rank_all(results: Iterable[Result]) -> None:
    """What the verifier does for each: ranking refuses what is not a verified ranked result."""
    for result in results:
        services.result_rank(result_id=result.pk)


def board_order(results: Iterable[Result]) -> list[Result]:
    return sorted(
        results, key=lambda r: (not r.won, -r.score, r.moves, r.duration_ms, r.finished_at, r.pk)
    )


@pytest.fixture
def hand_made(make_result: MakeResult, board_day: date) -> dict[str, Result]:
    """One result per tie-break, plus results that must never be on the board."""
    at = NOON
    r: dict[str, Result] = {}
    r["win_top"] = make_result(won=True, score=1000, moves=200, duration_ms=100_000)
    r["win_lower_score"] = make_result(won=True, score=900, moves=150, duration_ms=100_000)
    r["win_more_moves_slow"] = make_result(won=True, score=900, moves=160, duration_ms=100_000)
    r["win_more_moves_fast"] = make_result(won=True, score=900, moves=160, duration_ms=90_000)
    r["loss_high_score"] = make_result(won=False, score=1300, moves=10, duration_ms=1)
    r["loss_late"] = make_result(score=500, duration_ms=5000, finished_at=at + timedelta(seconds=5))
    r["loss_early"] = make_result(
        score=500, duration_ms=5000, finished_at=at + timedelta(seconds=3)
    )
    r["loss_late_higher_id"] = make_result(
        score=500, duration_ms=5000, finished_at=at + timedelta(seconds=5)
    )
    r["pending"] = make_result(won=True, score=1360, status=Result.Status.PENDING)
    r["rejected"] = make_result(won=True, score=1360, status=Result.Status.REJECTED)
    r["practice"] = make_result(won=True, score=1360, ranked=False, mode="practice")
    r["other_day"] = make_result(won=True, score=1360, day=board_day + timedelta(days=1))
    return r


ON_BOARD = [
    "win_top",
    "win_lower_score",
    "win_more_moves_fast",
    "win_more_moves_slow",
    "loss_high_score",
    "loss_early",
    "loss_late",
    "loss_late_higher_id",
]
OFF_BOARD = ["pending", "rejected", "practice", "other_day"]


def test_the_board_orders_by_each_tie_break_in_turn(
    board_kind: str, hand_made: dict[str, Result], board_day: date
) -> None:
    rank_all(hand_made.values())
    board = board_for(board_day, VARIANT)
    assert isinstance(board, RedisBoard if board_kind == "redis" else DatabaseBoard)
    expected = [hand_made[name].pk for name in ON_BOARD]
    assert board_order(hand_made[n] for n in ON_BOARD) == [hand_made[n] for n in ON_BOARD]
    assert board.size() == len(ON_BOARD)
    # The three equal losses (same score, moves and time) share rank 6: "1, 1, 3" ranking.
    ranks = [1, 2, 3, 4, 5, 6, 6, 6]
    assert board.page(0, 100) == [Entry(pk, k) for pk, k in zip(expected, ranks, strict=True)]
    middle = zip(expected[2:5], ranks[2:5], strict=True)
    assert board.page(2, 3) == [Entry(pk, k) for pk, k in middle]
    # A page that starts inside a tie keeps the tie's rank.
    assert board.page(6, 5) == [Entry(pk, 6) for pk in expected[6:]]
    assert board.page(len(expected), 10) == []
    for place, (name, rank) in enumerate(zip(ON_BOARD, ranks, strict=True)):
        result = Result.objects.get(pk=hand_made[name].pk)
        assert board.rank(result) == rank, name
        assert board.place(result) == place, name  # the order itself still breaks ties


def test_results_not_verified_ranked_and_of_the_day_are_absent(
    board_kind: str, hand_made: dict[str, Result], board_day: date
) -> None:
    rank_all(hand_made.values())
    board = board_for(board_day, VARIANT)
    listed = {entry.result_id for entry in board.page(0, 100)}
    for name in OFF_BOARD:
        assert board.rank(hand_made[name]) is None, name
        assert hand_made[name].pk not in listed, name
    assert not Result.objects.filter(
        pk__in=[hand_made[n].pk for n in OFF_BOARD if n != "other_day"], ranked_at__isnull=False
    ).exists()
    next_day = board_for(board_day + timedelta(days=1), VARIANT)
    assert next_day.rank(hand_made["other_day"]) == 1 and next_day.size() == 1


def random_results(make_result: MakeResult, count: int, seed: int) -> list[Result]:
    """Results from small ranges so that every tie-break is exercised (finishes on whole
    milliseconds, and often equal)."""
    rng = random.Random(seed)
    finishes = [NOON + timedelta(milliseconds=rng.randrange(0, 5000)) for _ in range(8)]
    return [
        make_result(
            won=rng.random() < 0.3,
            score=rng.choice([0, 10, 20, 500, 1300]),
            moves=rng.choice([80, 81, 200]),
            duration_ms=rng.choice([1000, 1001, 60_000]),
            finished_at=rng.choice(finishes),
        )
        for _ in range(count)
    ]


def test_the_database_and_redis_boards_agree_on_every_rank(
    redis_boards: None, settings, make_result: MakeResult, board_day: date
) -> None:
    results = random_results(make_result, 200, seed=20261129)
    rank_all(results)
    fresh = list(Result.objects.filter(pk__in=[r.pk for r in results]))
    ordered = board_order(fresh)
    assert len({(r.won, r.score, r.moves, r.duration_ms) for r in fresh}) < 100  # many ties

    # The shown rank, worked out plainly: one more than the results strictly better
    # (won, score, fewer moves, less time in whole seconds); equal ones share it.
    def worth(r: Result) -> tuple:
        return (r.won, r.score, -r.moves, -(r.duration_ms // 1000))

    expected = {r.pk: 1 + sum(worth(o) > worth(r) for o in fresh) for r in fresh}
    assert len(set(expected.values())) < 200  # ties share ranks

    redis_board = RedisBoard(board_day, VARIANT)
    database_board = DatabaseBoard(board_day, VARIANT)
    assert redis_board.size() == database_board.size() == 200
    for place, result in enumerate(ordered):
        assert database_board.rank(result) == expected[result.pk]
        assert redis_board.rank(result) == expected[result.pk]
        assert database_board.place(result) == redis_board.place(result) == place
    want = [Entry(r.pk, expected[r.pk]) for r in ordered]
    assert redis_board.page(0, 200) == database_board.page(0, 200) == want
    assert redis_board.page(37, 50) == database_board.page(37, 50) == want[37:87]


def assert_progress(calls: list[tuple[int, int]], total: int) -> None:
    """Progress is reported, never goes back or past the total, and ends complete."""
    assert calls and calls[-1] == (total, total)
    assert all(t == total and 0 < n <= total for n, t in calls)
    assert [n for n, _ in calls] == sorted(n for n, _ in calls)


def test_rebuilding_restores_a_cleared_redis_board(
    redis_boards: None, make_result: MakeResult, board_day: date
) -> None:
    results = random_results(make_result, 30, seed=7)
    results.append(make_result(won=True, day=board_day - timedelta(days=1)))
    results.append(make_result(won=True, status=Result.Status.REJECTED))
    rank_all(results)
    board = board_for(board_day, VARIANT)
    before = board.page(0, 100)
    assert len(before) == 30
    board.clear()
    board_for(board_day - timedelta(days=1), VARIANT).clear()
    assert board.size() == 0

    calls: list[tuple[int, int]] = []
    done = services.boards_rebuild(progress=lambda n, total: calls.append((n, total)), batch=8)
    assert done == 31
    assert_progress(calls, 31)
    assert board.page(0, 100) == before
    assert board_for(board_day - timedelta(days=1), VARIANT).size() == 1
    for result in results[:30]:
        assert board.rank(result) == DatabaseBoard(board_day, VARIANT).rank(result)


def test_rebuilding_drops_what_no_longer_belongs(
    redis_boards: None, make_result: MakeResult, board_day: date
) -> None:
    kept, dropped = make_result(won=True), make_result(score=10)
    rank_all([kept, dropped])
    Result.objects.filter(pk=dropped.pk).update(status=Result.Status.REJECTED)
    services.boards_rebuild()
    board = board_for(board_day, VARIANT)
    assert board.page(0, 10) == [Entry(kept.pk, 1)]
    assert board.rank(dropped) is None


def test_rebuilding_the_database_board_changes_nothing(
    settings, make_result: MakeResult, board_day: date
) -> None:
    settings.REDIS_URL = None
    results = [make_result(score=s) for s in (10, 30, 20)]
    calls: list[tuple[int, int]] = []
    assert services.boards_rebuild(progress=lambda n, total: calls.append((n, total))) == 3
    assert_progress(calls, 3)
    assert [e.result_id for e in board_for(board_day, VARIANT).page(0, 5)] == [
        results[1].pk,
        results[2].pk,
        results[0].pk,
    ]


# Where the two boards could part ---------------------------------------------------------


def assert_boards_agree(board_day: date, results: list[Result]) -> None:
    database, redis = DatabaseBoard(board_day, VARIANT), RedisBoard(board_day, VARIANT)
    fresh = [Result.objects.get(pk=r.pk) for r in results]
    assert [database.rank(r) for r in fresh] == [redis.rank(r) for r in fresh]
    assert database.page(0, 10) == redis.page(0, 10)


@pytest.mark.parametrize(
    "field,fewer,more",
    [("moves", MAX_MOVES + 1, MAX_MOVES + 10), ("duration_ms", MAX_TIME + 1, MAX_TIME + 60_000)],
)
def test_the_boards_agree_past_the_key_limits(
    redis_boards: None, make_result: MakeResult, board_day: date, field: str, fewer: int, more: int
) -> None:
    slow = make_result(**{field: more}, finished_at=NOON)  # finished first, but worse
    fast = make_result(**{field: fewer}, finished_at=NOON + timedelta(seconds=1))
    rank_all([slow, fast])
    assert_boards_agree(board_day, [slow, fast])


def test_the_boards_agree_on_finishes_within_one_millisecond(
    redis_boards: None, make_result: MakeResult, board_day: date
) -> None:
    later = make_result(finished_at=NOON + timedelta(microseconds=900))  # the lower id
    earlier = make_result(finished_at=NOON + timedelta(microseconds=100))
    rank_all([later, earlier])
    assert_boards_agree(board_day, [later, earlier])
