"""Issue 21's competition findings: the daily's ranked start is refused after its close by
the clock (as the weekly's was), refusals name the competition they are about (a weekly
refusal never says "daily"), and the open-deal guard recognises the deal by its seed, not
by its code's spelling (another variant letter deals the same columns and stock)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import format_code, parse_variant
from games.errors import DayClosed, Forbidden, SolverLocked
from games.models import Deal, User
from games.weekly import week_label, week_monday
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db


def test_a_ranked_daily_start_after_its_close_is_refused_before_the_reveal(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date(), revealed=False)
    Deal.objects.filter(pk=deal.pk).update(closes_at=now - timedelta(seconds=1))
    with pytest.raises(DayClosed, match=f"the daily deal of {now.date()} has closed"):
        services.game_start_daily(user=user, now=now)


def test_weekly_refusals_name_the_weekly_challenge(user: User, bob: User, now: datetime) -> None:
    label = f"the weekly challenge of {week_label(week_monday(now.date()))}"
    done = services.game_start_weekly(user=bob, now=now)
    game_resign(user=bob, game_id=done.pk)
    practice = services.game_start_practice(user=bob, deal_id=done.deal_id)
    with pytest.raises(SolverLocked, match=label):
        services.game_hint(user=bob, game_id=practice.pk)
    game = services.game_start_weekly(user=user, now=now)
    with pytest.raises(Forbidden, match=f"practise {label}"):
        services.game_start_practice(user=user, code=game.deal.code)
    # A move is checked against the real clock (``now`` is noon of today, still ahead of it
    # before midday UTC): the week closed a second ago.
    Deal.objects.filter(pk=game.deal_id).update(closes_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(DayClosed) as refused:
        game_play(user=user, game_id=game.pk, move="s")
    assert label in refused.value.reason and "daily" not in refused.value.reason


@pytest.mark.parametrize("variant", ["josephine", "streets", "forty-thieves"])
def test_another_spelling_of_an_open_daily_deal_is_that_deal(
    user: User, now: datetime, make_daily_deal, variant: str
) -> None:
    deal = make_daily_deal(now.date(), revealed=False)
    spelling = format_code(parse_variant(variant), deal.seed)
    assert services.deal_for_code(code=spelling) == deal
    with pytest.raises(Forbidden, match=f"practise the daily deal of {now.date()}"):
        services.game_start_practice(user=user, code=spelling)
    assert not Deal.objects.filter(kind=Deal.Kind.PRACTICE).exists()


def test_once_revealed_another_spelling_is_a_practice_deal(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date() - timedelta(days=1), revealed=True)
    spelling = format_code(parse_variant("josephine"), deal.seed)
    game = services.game_start_practice(user=user, code=spelling)
    assert game.deal.kind == Deal.Kind.PRACTICE and game.deal.seed == deal.seed
