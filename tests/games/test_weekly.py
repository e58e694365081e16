"""The weekly variant challenge: its calendar and rotation, its deal (seed, commitment,
certification), one ranked attempt, the close (final by the clock) and the beat tasks."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games import services, tasks
from games.engine import VARIANTS, format_code, parse_variant
from games.engine.deal import commitment
from games.errors import BadRequest, DayClosed, Forbidden
from games.models import Deal, Game, User
from games.payloads import deal_payload, game_payload
from games.weekly import (
    DAILY_VARIANT_NAME,
    ONE_WEEK,
    WEEKLY_ROTATION,
    parse_week,
    week_end,
    week_label,
    week_monday,
    week_start,
    weekly_seed,
    weekly_variant,
)
from tests.support.games import game_play, game_resign, game_undo

mondays = st.dates(min_value=date(1900, 1, 1), max_value=date(2900, 1, 1)).map(week_monday)


# The calendar and the rotation ------------------------------------------------------------


@given(mondays)
def test_the_rotation_covers_every_variant_but_the_dailys_within_as_many_weeks(
    monday: date,
) -> None:
    weeks = [weekly_variant(monday + ONE_WEEK * n) for n in range(len(WEEKLY_ROTATION))]
    assert sorted(weeks) == sorted(name for name in VARIANTS if name != DAILY_VARIANT_NAME)


@given(mondays)
def test_the_dailys_variant_is_never_a_weekly_one(monday: date) -> None:
    assert weekly_variant(monday) != services.DAILY_VARIANT == DAILY_VARIANT_NAME
    assert weekly_variant(monday) != weekly_variant(monday + ONE_WEEK)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2900, 1, 1)))
def test_a_week_is_named_by_its_iso_week_and_any_of_its_days(day: date) -> None:
    monday = week_monday(day)
    assert monday.weekday() == 0 and monday <= day < monday + ONE_WEEK
    assert parse_week(week_label(monday)) == monday == parse_week(day.isoformat())
    assert week_end(monday) - week_start(monday) == timedelta(days=7)


@pytest.mark.parametrize("text", ["", "2026-W", "2026-W54", "2026-W00", "26-W01", "2026-13-01"])
def test_it_reads_no_week_from_bad_text(text: str) -> None:
    assert parse_week(text) is None


def test_a_weekly_seed_is_not_the_daily_seed_of_its_monday() -> None:
    from games.daily import daily_seed

    monday = date(2026, 11, 30)
    assert weekly_seed("s", monday, "lucas") != daily_seed("s", monday, "lucas")
    assert weekly_seed("s", monday, "lucas", 1) != weekly_seed("s", monday, "lucas", 0)


# The deal ---------------------------------------------------------------------------------

MONDAY = date(2026, 11, 30)


def test_it_opens_the_weeks_deal_with_its_variant_seed_and_commitment(db: None) -> None:
    deal = services.deal_open_weekly(monday=MONDAY)
    variant = weekly_variant(MONDAY)
    seed = weekly_seed(settings.FT_DAILY_SECRET, MONDAY, variant, 0)
    assert (deal.kind, deal.day, deal.variant, deal.seed) == ("weekly", MONDAY, variant, seed)
    assert deal.code == format_code(parse_variant(variant), seed)
    assert deal.commitment == commitment(deal.code, deal.salt) and len(deal.salt) == 32
    assert (deal.opens_at, deal.closes_at) == (week_start(MONDAY), week_end(MONDAY))
    # Secret until the close: no code, no salt, no solver help.
    assert deal_payload(deal)["code"] is None and deal_payload(deal)["salt"] is None
    assert not deal.solver_help_open and not deal.solution_revealed
    assert services.deal_open_weekly(monday=MONDAY) == deal
    assert Deal.objects.filter(kind="weekly").count() == 1


def test_it_refuses_a_weekly_deal_on_a_day_that_is_not_a_monday(db: None) -> None:
    with pytest.raises(BadRequest, match="not a Monday"):
        services.deal_open_weekly(monday=MONDAY + timedelta(days=2))


def test_the_weekly_deal_is_certified_winnable_by_the_solver(db: None) -> None:
    # A week of an easy variant, so the solver wins within a small budget.
    weeks = [MONDAY + ONE_WEEK * n for n in range(len(WEEKLY_ROTATION))]
    monday = next(m for m in weeks if weekly_variant(m) == "josephine")
    deal = services.deal_open_weekly(monday=monday, seconds=5)
    assert deal.solver_verdict == "win" and deal.solution and deal.difficulty
    variant = weekly_variant(monday)
    assert deal.seed == weekly_seed(settings.FT_DAILY_SECRET, monday, variant, deal.candidate)


# Playing it -------------------------------------------------------------------------------


def test_a_player_gets_one_ranked_attempt_at_this_weeks_challenge(
    user: User, now: datetime
) -> None:
    game = services.game_start_weekly(user=user, now=now)
    assert game.mode == Game.Mode.RANKED and game.deal.kind == "weekly"
    assert game.deal.day == week_monday(now.date())
    assert services.game_start_weekly(user=user, now=now) == game
    game_resign(user=user, game_id=game.pk)
    assert services.game_start_weekly(user=user, now=now) == game  # the same, finished
    payload = game_payload(Game.objects.get(pk=game.pk))
    assert not payload["can_undo"] and not payload["solver_help"]


def test_a_weekly_game_has_no_undo_nor_hints(user: User, now: datetime) -> None:
    game = services.game_start_weekly(user=user, now=now)
    game_play(user=user, game_id=game.pk, move="s")
    with pytest.raises(Forbidden, match="no undo"):
        game_undo(user=user, game_id=game.pk)
    with pytest.raises(Forbidden, match="no hints"):
        services.game_hint_begin(user=user, game_id=game.pk)


def test_the_weekly_deal_is_practised_only_after_the_ranked_attempt(
    user: User, now: datetime
) -> None:
    game = services.game_start_weekly(user=user, now=now)
    with pytest.raises(Forbidden):
        services.game_start_practice(user=user, deal_id=game.deal_id)
    game_resign(user=user, game_id=game.pk)
    practice = services.game_start_practice(user=user, deal_id=game.deal_id)
    assert practice.mode == Game.Mode.PRACTICE


def test_the_close_of_the_week_is_final_by_the_clock(user: User, now: datetime) -> None:
    last_week = now - ONE_WEEK
    game = services.game_start_weekly(user=user, now=last_week)
    assert game.deal.has_closed(now) and game.deal.revealed_at is None
    with pytest.raises(DayClosed) as refused:
        game_play(user=user, game_id=game.pk, move="s")
    assert refused.value.code == "day_closed" and "weekly challenge" in refused.value.reason
    with pytest.raises(DayClosed):
        game_resign(user=user, game_id=game.pk)


def test_closing_the_week_resigns_unfinished_games_by_the_server_and_reveals(
    user: User, now: datetime
) -> None:
    game = services.game_start_weekly(user=user, now=now)
    game_play(user=user, game_id=game.pk, move="s")
    monday = game.deal.day
    with pytest.raises(DayClosed, match="the weekly challenge of"):
        services.deal_close_weekly(monday=monday, now=now)
    assert services.deal_close_weekly(monday=monday, now=week_end(monday)) == 1
    assert services.deal_close_weekly(monday=monday, now=week_end(monday)) == 0
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED
    resign = game.actions.get(seq=2)
    assert (resign.move, resign.client_id, resign.by_system) == ("resign", "", True)
    deal = Deal.objects.get(pk=game.deal_id)
    assert deal.is_revealed and deal.solver_help_open and deal_payload(deal)["code"]


def test_a_weekly_close_leaves_the_daily_deals_alone(user: User, now: datetime) -> None:
    daily = services.game_start_daily(user=user, now=now)
    monday = week_monday(now.date())
    services.deal_open_weekly(monday=monday)
    services.deal_close_weekly(monday=monday, now=week_end(monday))
    daily.refresh_from_db()
    assert daily.status == Game.Status.ACTIVE and daily.deal.revealed_at is None


# The beat tasks ---------------------------------------------------------------------------


def test_open_weekly_deals_opens_this_week_and_the_next(db: None) -> None:
    from django.utils import timezone

    this_week = week_monday(timezone.now().date())
    assert tasks.open_weekly_deals.delay().get() == [
        this_week.isoformat(),
        (this_week + ONE_WEEK).isoformat(),
    ]
    assert Deal.objects.filter(kind="weekly").count() == 2
    tasks.open_weekly_deals.delay()
    assert Deal.objects.filter(kind="weekly").count() == 2


def test_close_due_deals_closes_a_week_that_is_over_by_its_iso_week(
    user: User, now: datetime
) -> None:
    last_week = week_monday(now.date()) - ONE_WEEK
    services.deal_open_weekly(monday=last_week)
    services.deal_open_weekly(monday=last_week + ONE_WEEK)
    assert tasks.close_due_deals.delay().get() == {week_label(last_week): 1}
    assert tasks.close_due_deals.delay().get() == {}


def test_the_beat_schedule_opens_the_weekly_deals() -> None:
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.open_weekly_deals", "games.close_due_deals"} <= schedule


# The home page's entry --------------------------------------------------------------------


def test_the_home_page_offers_this_weeks_challenge(client: Client, user: User) -> None:
    assert b'data-testid="home-weekly"' in client.get("/").content
    client.force_login(user)
    response = client.post("/play/weekly/")
    game = Game.objects.get(deal__kind="weekly")
    assert response["Location"] == f"/games/{game.pk}/"
    page = client.get("/").content.decode()
    assert f"/games/{game.pk}/" in page and game.deal.code not in page
    assert game.deal.commitment in page
    # The hash is one click away, under "How we keep it fair", not the card's first words.
    fairness = page.split('data-testid="home-weekly-fairness"', 1)[1].split("</details>", 1)[0]
    assert game.deal.commitment in fairness


def test_the_weekly_start_sends_visitors_to_sign_in(client: Client, db: None) -> None:
    assert "/accounts/login/" in client.post("/play/weekly/")["Location"]
    assert client.get("/play/weekly/")["Location"] == "/"
