"""games/dates.py: the one parse of a day, week or month a client names. Properties: any
text at all gives a date the site serves or None (never an exception), and every date the
site serves round-trips through its canonical spelling."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from games.dates import FIRST_DAY, parse_day, parse_month, parse_week
from games.weekly import week_label, week_monday

TODAY = date(2026, 12, 1)
served_days = st.dates(min_value=FIRST_DAY, max_value=TODAY)
any_text = st.one_of(
    st.text(max_size=12),
    st.dates().map(date.isoformat),
    st.dates().map(lambda d: f"{d.isocalendar()[0]:04d}-W{d.isocalendar()[1]:02d}"),
    st.dates().map(lambda d: f"{d.year:04d}-{d.month:02d}"),
)


@given(any_text)
def test_any_text_gives_a_served_date_or_none(text: str) -> None:
    day, monday, first = (
        parse_day(text, today=TODAY),
        parse_week(text, today=TODAY),
        parse_month(text, today=TODAY),
    )
    assert day is None or FIRST_DAY <= day <= TODAY
    assert monday is None or (FIRST_DAY <= monday <= TODAY and monday.weekday() == 0)
    assert first is None or (FIRST_DAY.replace(day=1) <= first <= TODAY and first.day == 1)
    # Whatever the page links to from a served date is a date too (no overflow).
    for served in (d for d in (day, monday, first) if d is not None):
        assert served - timedelta(days=7) < served < served + timedelta(days=31)


@given(served_days)
def test_every_served_date_round_trips(day: date) -> None:
    assert parse_day(day.isoformat(), today=TODAY) == day
    assert parse_week(week_label(week_monday(day)), today=TODAY) == week_monday(day)
    assert parse_month(f"{day:%Y-%m}", today=TODAY) == day.replace(day=1)


@given(st.dates(max_value=FIRST_DAY - timedelta(days=1)))
def test_no_date_before_the_first_day_is_served(day: date) -> None:
    assert parse_day(day.isoformat(), today=TODAY) is None
    assert parse_week(day.isoformat(), today=TODAY) in (None, FIRST_DAY)
