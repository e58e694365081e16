"""Streak arithmetic: pure functions over (UTC day, won), checked by hand and by hypothesis."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from leaderboards.streaks import Streaks, current_streak, day_outcomes, streaks

D = timedelta(days=1)


def run_of_wins(first: date, count: int) -> list[tuple[date, bool]]:
    return [(first + i * D, True) for i in range(count)]


def test_no_games_means_no_streak() -> None:
    assert streaks([], today=date(2026, 11, 29)) == Streaks(current=0, best=0)


def test_a_win_today_is_a_streak_of_one() -> None:
    assert streaks([(date(2026, 11, 29), True)], today=date(2026, 11, 29)) == (1, 1)


def test_the_current_streak_is_still_alive_when_the_last_win_was_yesterday() -> None:
    days = run_of_wins(date(2026, 11, 26), 3)  # 26, 27, 28
    assert streaks(days, today=date(2026, 11, 29)) == (3, 3)


def test_the_current_streak_ends_when_neither_today_nor_yesterday_was_won() -> None:
    days = run_of_wins(date(2026, 11, 25), 3)  # 25, 26, 27; 28 missed
    assert streaks(days, today=date(2026, 11, 29)) == (0, 3)


def test_a_loss_today_breaks_the_streak_at_once() -> None:
    days = [*run_of_wins(date(2026, 11, 26), 3), (date(2026, 11, 29), False)]
    assert streaks(days, today=date(2026, 11, 29)) == (0, 3)


def test_a_loss_in_the_middle_splits_the_run() -> None:
    days = [
        *run_of_wins(date(2026, 11, 1), 4),
        (date(2026, 11, 5), False),
        *run_of_wins(date(2026, 11, 6), 2),
    ]
    assert streaks(days, today=date(2026, 11, 7)) == (2, 4)


def test_a_missed_day_splits_the_run() -> None:
    days = [*run_of_wins(date(2026, 11, 1), 2), *run_of_wins(date(2026, 11, 4), 5)]
    # Won Nov 1-2 and 4-8: the 3rd is missed.
    assert streaks(days, today=date(2026, 11, 10)) == (0, 5)
    assert streaks(days, today=date(2026, 11, 9)) == (5, 5)


def test_a_streak_runs_across_a_month_boundary() -> None:
    days = run_of_wins(date(2026, 10, 30), 4)  # Oct 30, 31, Nov 1, 2
    assert streaks(days, today=date(2026, 11, 2)) == (4, 4)


def test_a_streak_runs_across_february_in_a_leap_year() -> None:
    days = run_of_wins(date(2028, 2, 27), 4)  # Feb 27, 28, 29, Mar 1
    assert [d for d, _ in days][-1] == date(2028, 3, 1)
    assert streaks(days, today=date(2028, 3, 2)) == (4, 4)


def test_a_missing_february_29th_in_a_leap_year_breaks_the_streak() -> None:
    days = [(date(2028, 2, 28), True), (date(2028, 3, 1), True)]
    assert streaks(days, today=date(2028, 3, 1)) == (1, 1)


def test_a_streak_runs_across_a_year_boundary() -> None:
    days = run_of_wins(date(2026, 12, 30), 4)  # Dec 30, 31, Jan 1, 2
    assert streaks(days, today=date(2027, 1, 3)) == (4, 4)
    assert streaks(days, today=date(2027, 1, 4)) == (0, 4)


def test_the_order_of_the_input_does_not_matter() -> None:
    days = run_of_wins(date(2026, 12, 30), 4)
    assert streaks(reversed(days), today=date(2027, 1, 2)) == (4, 4)


def test_days_after_today_are_ignored() -> None:
    days = run_of_wins(date(2026, 11, 28), 4)  # 28 .. Dec 1
    assert streaks(days, today=date(2026, 11, 29)) == (2, 2)


def test_a_day_with_a_loss_among_several_games_is_a_lost_day() -> None:
    day = date(2026, 11, 29)
    assert day_outcomes([(day, True), (day, False), (day, True)]) == {day: False}
    assert streaks([(day, True), (day, False)], today=day) == (0, 0)


def test_the_best_streak_may_be_older_than_the_current_one() -> None:
    days = [*run_of_wins(date(2026, 1, 1), 10), *run_of_wins(date(2026, 11, 28), 2)]
    assert streaks(days, today=date(2026, 11, 29)) == (2, 10)


# Properties -----------------------------------------------------------------------------

TODAY = date(2027, 1, 5)  # early January: runs cross a year boundary and month ends
history = st.dictionaries(
    keys=st.integers(min_value=0, max_value=120).map(lambda n: TODAY - n * D),
    values=st.booleans(),
    max_size=121,
)


def naive_best(outcomes: dict[date, bool]) -> int:
    """Walk every day from the first to today, counting won days in a row."""
    if not outcomes:
        return 0
    best = run = 0
    day = min(outcomes)
    while day <= TODAY:
        run = run + 1 if outcomes.get(day) else 0
        best = max(best, run)
        day += D
    return best


def naive_current(outcomes: dict[date, bool]) -> int:
    def run_ending(day: date) -> int:
        n = 0
        while outcomes.get(day - n * D):
            n += 1
        return n

    if TODAY in outcomes:
        return run_ending(TODAY)
    return run_ending(TODAY - D)


@given(history)
def test_best_is_the_longest_run_of_won_days(outcomes: dict[date, bool]) -> None:
    assert streaks(outcomes.items(), today=TODAY).best == naive_best(outcomes)


@given(history)
def test_current_is_the_run_ending_today_or_yesterday(outcomes: dict[date, bool]) -> None:
    assert streaks(outcomes.items(), today=TODAY).current == naive_current(outcomes)


@given(history)
def test_best_is_never_less_than_current(outcomes: dict[date, bool]) -> None:
    current, best = streaks(outcomes.items(), today=TODAY)
    assert 0 <= current <= best


@given(history, st.integers(min_value=0, max_value=120))
def test_a_loss_on_a_day_never_lengthens_a_streak(outcomes: dict[date, bool], back: int) -> None:
    day = TODAY - back * D
    before = streaks(outcomes.items(), today=TODAY)
    after = streaks({**outcomes, day: False}.items(), today=TODAY)
    assert after.current <= before.current and after.best <= before.best


@given(history)
def test_current_streak_matches_the_helper(outcomes: dict[date, bool]) -> None:
    assert streaks(outcomes.items(), today=TODAY).current == current_streak(outcomes, today=TODAY)
