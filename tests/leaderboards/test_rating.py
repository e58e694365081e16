"""The skill rating from closed deals: once each, in deal order, holds and decisions."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Deal, Game
from leaderboards.fairplay.services import result_review_decide
from leaderboards.models import PlayerRating, RatedMatch, RatingHistory, Result
from leaderboards.rating.maths import Rating, display_value, rate_match
from leaderboards.rating.services import ratings_apply, ratings_rebuild
from leaderboards.tasks import rate_deals

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 29)


def _close(day: date) -> Deal:
    deal = Deal.objects.get(kind=Deal.Kind.DAILY, day=day)
    Deal.objects.filter(pk=deal.pk).update(revealed_at=deal.closes_at)
    deal.refresh_from_db()
    return deal


def _state() -> dict[int, tuple[float, float, int]]:
    return {
        r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.matches)
        for r in PlayerRating.objects.all()
    }


def test_a_closed_deal_is_one_match_in_the_boards_order(make_result) -> None:
    best = make_result(day=DAY, won=True, score=900)
    tied_a = make_result(day=DAY, score=500, duration_ms=60_100)
    tied_b = make_result(day=DAY, score=500, duration_ms=60_900)  # same second: a tie
    last = make_result(day=DAY, score=100)
    _close(DAY)

    assert rate_deals() == 1

    expected = rate_match([Rating()] * 4, [1, 2, 2, 4])
    for result, rating in zip((best, tied_a, tied_b, last), expected, strict=True):
        row = PlayerRating.objects.get(user_id=result.player_id)
        assert (row.mu, row.sigma, row.matches) == pytest.approx((rating.mu, rating.sigma, 1))
    assert list(
        RatingHistory.objects.order_by("place", "user_id").values_list("place", flat=True)
    ) == [1, 2, 2, 4]


def test_rating_again_changes_nothing(make_result) -> None:
    for score in (300, 200):
        make_result(day=DAY, score=score)
    _close(DAY)
    assert ratings_apply() == 1
    before = _state()
    assert ratings_apply() == 0 and rate_deals() == 0
    assert _state() == before and RatingHistory.objects.count() == 2


def test_an_open_deal_is_not_rated(make_result) -> None:
    make_result(day=DAY, score=300)
    make_result(day=DAY, score=200)
    assert ratings_apply() == 0 and not PlayerRating.objects.exists()


def test_it_waits_for_undecided_results_and_keeps_the_deal_order(make_result) -> None:
    first = make_result(day=DAY, score=300)
    make_result(day=DAY, score=200)
    pending = make_result(day=DAY, score=100, status=Result.Status.PENDING)
    later_day = DAY + timedelta(days=1)
    make_result(first.player, day=later_day, score=300)
    make_result(day=later_day, score=200)
    _close(DAY)
    _close(later_day)

    assert ratings_apply() == 0  # the first deal is not final: the second waits behind it

    Result.objects.filter(pk=pending.pk).update(status=Result.Status.VERIFIED)
    assert ratings_apply() == 2
    assert PlayerRating.objects.get(user_id=first.player_id).matches == 2
    order = RatedMatch.objects.order_by("rated_at", "id").values_list("deal__day", flat=True)
    assert list(order) == [DAY, later_day]


def test_an_unfinished_ranked_game_keeps_the_deal_waiting(make_result) -> None:
    result = make_result(day=DAY, score=300)
    make_result(day=DAY, score=200)
    Game.objects.filter(pk=result.game_id).update(status=Game.Status.ACTIVE)
    Result.objects.filter(pk=result.pk).delete()  # not finished: no result yet
    _close(DAY)
    assert ratings_apply() == 0


def test_held_and_disqualified_results_are_not_in_the_match(make_result) -> None:
    kept = [make_result(day=DAY, score=s) for s in (500, 300)]
    held = make_result(day=DAY, score=900, review=Result.Review.HELD)
    gone = make_result(day=DAY, score=800, review=Result.Review.DISQUALIFIED)
    _close(DAY)
    ratings_apply()
    rated = set(PlayerRating.objects.values_list("user_id", flat=True))
    assert rated == {r.player_id for r in kept}
    assert held.player_id not in rated and gone.player_id not in rated


def test_a_release_after_the_rating_replays_from_that_deal(make_result, django_user_model) -> None:
    staff = django_user_model.objects.create(username="staff", is_staff=True)
    a = make_result(day=DAY, score=500)
    b = make_result(day=DAY, score=300)
    held = make_result(day=DAY, score=900, review=Result.Review.HELD)
    later_day = DAY + timedelta(days=1)
    make_result(a.player, day=later_day, score=100)
    make_result(held.player, day=later_day, score=700)
    _close(DAY)
    _close(later_day)
    ratings_apply()
    assert PlayerRating.objects.get(user_id=held.player_id).matches == 1  # the later day only

    result_review_decide(result_id=held.pk, decision=Result.Review.CLEARED, by=staff, why="fine")
    assert RatedMatch.objects.get(deal__day=DAY).stale
    ratings_apply()

    assert PlayerRating.objects.get(user_id=held.player_id).matches == 2
    assert not RatedMatch.objects.filter(stale=True).exists()
    incremental = _state()
    ratings_rebuild()
    assert _state() == incremental
    assert b.player_id in incremental


def test_a_disqualification_after_the_rating_takes_the_result_out(
    make_result, django_user_model
) -> None:
    staff = django_user_model.objects.create(username="staff", is_staff=True)
    cheat = make_result(day=DAY, score=900)
    others = [make_result(day=DAY, score=s) for s in (500, 300)]
    _close(DAY)
    ratings_apply()
    result_review_decide(
        result_id=cheat.pk, decision=Result.Review.DISQUALIFIED, by=staff, why="no"
    )
    ratings_apply()
    assert not PlayerRating.objects.filter(user_id=cheat.player_id).exists()
    assert PlayerRating.objects.filter(user_id__in=[r.player_id for r in others]).count() == 2


def test_rebuild_equals_the_incremental_ratings(make_result) -> None:
    players = [make_result(day=DAY, score=100 * i).player for i in range(1, 6)]
    for offset in range(1, 4):  # three more days, players skipping some, ties on one
        day = DAY + timedelta(days=offset)
        for i, player in enumerate(players):
            if (i + offset) % 3:
                make_result(player, day=day, score=(i * offset * 37) % 500 if offset != 2 else 200)
    weekly = Deal.objects.create(
        kind=Deal.Kind.WEEKLY,
        variant="forty-thieves",
        day=DAY,
        seed_hex="ab" * 16,
        code="weekly-test",
        closes_at=Deal.objects.get(day=DAY + timedelta(days=1)).closes_at,
        revealed_at=None,
    )
    for i, player in enumerate(players[:3]):
        make_result(player, deal=weekly, score=50 * i)
    for offset in range(4):  # each day's close, then a pass, as beat runs it
        _close(DAY + timedelta(days=offset))
        if offset == 1:
            Deal.objects.filter(pk=weekly.pk).update(revealed_at=weekly.closes_at)
        ratings_apply()
    incremental = _state()
    history = RatingHistory.objects.count()

    out = StringIO()
    call_command("rebuild_ratings", stdout=out)

    assert "Rated 5 deals again" in out.getvalue()
    assert _state() == incremental and RatingHistory.objects.count() == history


def test_a_deal_closed_late_behind_a_rated_one_is_put_in_its_place(make_result) -> None:
    a = make_result(day=DAY, score=300)
    make_result(day=DAY, score=200)
    later_day = DAY + timedelta(days=1)
    make_result(a.player, day=later_day, score=100)
    make_result(day=later_day, score=200)
    _close(later_day)  # the earlier day's close failed and runs only later
    ratings_apply()
    _close(DAY)
    ratings_apply()
    incremental = _state()
    ratings_rebuild()
    assert _state() == incremental and PlayerRating.objects.get(user_id=a.player_id).matches == 2


def test_a_replay_from_a_later_deal_keeps_the_ratings_before_it(
    make_result, django_user_model
) -> None:
    staff = django_user_model.objects.create(username="staff", is_staff=True)
    a = make_result(day=DAY, score=500)
    b = make_result(day=DAY, score=300)
    later_day = DAY + timedelta(days=1)
    make_result(a.player, day=later_day, score=100)
    held = make_result(b.player, day=later_day, score=700, review=Result.Review.HELD)
    make_result(day=later_day, score=50)
    _close(DAY)
    _close(later_day)
    ratings_apply()

    result_review_decide(result_id=held.pk, decision=Result.Review.CLEARED, by=staff, why="ok")
    ratings_apply()

    assert PlayerRating.objects.get(user_id=b.player_id).matches == 2
    incremental = _state()
    ratings_rebuild()
    assert _state() == incremental


def test_the_scorecard_shows_the_rating_its_uncertainty_and_chart(client, make_result) -> None:
    import xml.etree.ElementTree as ET

    winner = make_result(day=DAY, won=True, score=900)
    make_result(day=DAY, score=100)
    _close(DAY)
    ratings_apply()
    username = winner.player.username

    html = client.get(f"/players/{username}/").content.decode()

    shown = PlayerRating.objects.get(user_id=winner.player_id)
    value = display_value(Rating(shown.mu, shown.sigma))
    assert f'data-testid="rating-value">{value}</strong>' in html
    assert f"± {round(40 * shown.sigma)}" in html
    assert 'data-testid="rating-provisional"' in html  # one deal: not settled
    svg = html[html.index('<svg xmlns="http://www.w3.org/2000/svg"') :]
    ET.fromstring(svg[: svg.index("</svg>") + 6])  # well-formed
    assert 'aria-labelledby="rating-title rating-desc"' in html


def test_a_player_without_a_rated_deal_has_no_rating_yet(client, make_result) -> None:
    result = make_result(day=DAY, won=True, score=900)
    html = client.get(f"/players/{result.player.username}/").content.decode()
    assert "No rating yet" in html and 'data-testid="rating-value"' not in html


def test_the_models_migration_has_the_next_pass_rate_every_deal_again(make_result) -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("leaderboards.migrations.0012_rating_gaussian_filter")
    a = make_result(day=DAY, score=300)
    b = make_result(day=DAY, score=200)
    later_day = DAY + timedelta(days=1)
    make_result(a.player, day=later_day, score=100)
    make_result(b.player, day=later_day, score=200)
    for day in (DAY, later_day):
        _close(day)
        ratings_apply()
    expected = _state()
    # The ratings as the old model left them, its history too.
    PlayerRating.objects.update(mu=40.0, sigma=8.0, ordinal=16.0)
    RatingHistory.objects.update(mu=40.0, sigma=8.0, ordinal=16.0)

    migration.mark_every_match_stale(apps, None)
    ratings_apply()

    assert _state() == expected
    assert not RatingHistory.objects.filter(mu=40.0).exists()
