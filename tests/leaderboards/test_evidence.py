"""The sequential test on the platform: every verified ranked game steps its player's
e-process on the fairplay queue, in the order played, never reset by a loss; a crossing
sends the window's won results to review with the day-by-day evidence.

The per-draw factors (seconds of solver work a game) are replaced here by fixed values:
``tests/solver/test_horizon.py`` tests the real ones, the integration tier runs them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Deal, DealCompletions, User
from games.services.starts import game_create
from games.solver import evidence, horizon
from games.solver.horizon import Draw, HorizonEvidence
from leaderboards import services
from leaderboards.fairplay import sequential
from leaderboards.fairplay.eprocess import DRAW_BETS
from leaderboards.fairplay.selectors import review_case
from leaderboards.models import EvidenceStep, FairPlayCheck, PlayerEvidence, Result, ReviewDecision
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

MakeResult = Callable[..., Result]
WIN = json.loads((Path(__file__).parents[1] / "data" / "classic_win.json").read_text())


@pytest.fixture
def weigh(monkeypatch) -> list[int]:
    """Every win brings one draw of factor ``weigh.value`` per horizon (10 unless a test
    says otherwise), a loss one of 0; the calls are recorded (the moves' count), so a test
    can see what was solved."""
    calls: list[int] = []

    def fake(seed, variant, moves, *, won, rng, **kwargs) -> HorizonEvidence:
        calls.append(len(moves))
        return one_draw(fake.value if won else 0.0, won=won)

    fake.value = 10.0
    monkeypatch.setattr(horizon, "horizon_survival", fake)
    return calls


def one_draw(factor: float, *, won: bool) -> HorizonEvidence:
    truths = {s: "w" for s in horizon.HORIZONS}
    factors = {s: factor for s in horizon.HORIZONS}
    return HorizonEvidence(won=won, draws=[Draw(48, "wwww", truths, factors)], seconds=0.01)


def days_ago(n: int) -> date:
    return (timezone.now() - timedelta(days=n)).date()


def ranked(make_result: MakeResult, user: User, n: int, **kwargs) -> Result:
    """``user``'s ranked daily of ``n`` days ago, finished that day."""
    finished = timezone.now() - timedelta(days=n)
    return make_result(user, days_ago(n), finished_at=finished, **kwargs)


def mixture(*factors: float) -> float:
    """The wealth after draws with these factors, the same in every horizon."""
    return sum(math.prod(1 - lam + lam * f for f in factors) for lam in DRAW_BETS) / len(DRAW_BETS)


def test_a_loss_is_weighed_too_and_steps_the_test_with_its_value(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    lost = ranked(make_result, user, 3)
    found = sequential.result_step_evidence(result_id=lost.pk)
    assert len(weigh) == 1 and found.games == 1
    assert math.isclose(found.wealth, mixture(0.0))
    step = EvidenceStep.objects.get(result=lost)
    assert step.value == 0.0 and step.applied_at is not None and not step.won


def test_without_weighing_losses_a_loss_costs_the_fraction_bet_and_no_solving(
    user: User, make_result: MakeResult, weigh: list[int], monkeypatch
) -> None:
    monkeypatch.setattr(evidence, "LOSSES", False)
    lost = ranked(make_result, user, 3)
    found = sequential.result_step_evidence(result_id=lost.pk)
    assert weigh == [] and math.isclose(found.wealth, mixture(0.0))


def test_a_game_on_a_clock_certified_deal_steps_with_one(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    win = ranked(make_result, user, 3, won=True)
    Deal.objects.filter(pk=win.deal_id).update(solver_verdict="win", certify_nodes=None)
    found = sequential.result_step_evidence(result_id=win.pk)
    assert weigh == [] and math.isclose(found.wealth, 1.0)
    assert "clock" in EvidenceStep.objects.get(result=win).detail["skipped"]


def test_a_deterministically_certified_deal_is_weighed_on_its_stored_completions(
    user: User, make_result: MakeResult, monkeypatch
) -> None:
    seen: list[tuple[dict, dict]] = []

    def fake(seed, variant, moves, *, won, rng, pool, tails, **kwargs) -> HorizonEvidence:
        seen.append((pool, tails))
        return one_draw(2.0, won=won)

    monkeypatch.setattr(horizon, "horizon_survival", fake)
    win = ranked(make_result, user, 3, won=True)
    Deal.objects.filter(pk=win.deal_id).update(solver_verdict="win", certify_nodes=2000)
    DealCompletions.objects.create(
        deal_id=win.deal_id, nodes=2000, rng="r", pool={"8": [[1, 2]]}, tails={"4": [1]}
    )
    found = sequential.result_step_evidence(result_id=win.pk)
    assert seen == [({8: [[1, 2]]}, {4: [1]})] and math.isclose(found.wealth, mixture(2.0))
    assert EvidenceStep.objects.get(result=win).detail["factors"] == {"4": [2.0], "8": [2.0]}


def test_evidence_builds_over_days_and_a_loss_never_resets_it(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    for n, won in ((5, True), (4, False), (3, True)):
        result = ranked(make_result, user, n, won=won)
        found = sequential.result_step_evidence(result_id=result.pk)
    assert math.isclose(found.wealth, mixture(10.0, 0.0, 10.0))
    assert found.wealth > mixture(10.0) > 1 and found.peak == found.wealth


def test_steps_wait_for_an_earlier_game_and_apply_in_the_order_played(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    first = ranked(make_result, user, 4, won=True, status=Result.Status.PENDING)
    second = ranked(make_result, user, 3)
    # The first game started the test (its verification is slow); the second is weighed
    # but waits for it.
    PlayerEvidence.objects.create(player=user, started_at=first.finished_at)
    found = sequential.result_step_evidence(result_id=second.pk)
    assert found.games == 0 and found.wealth == 1.0
    assert EvidenceStep.objects.get(result=second).applied_at is None
    Result.objects.filter(pk=first.pk).update(status=Result.Status.VERIFIED)
    found = sequential.result_step_evidence(result_id=first.pk)
    assert found.games == 2 and math.isclose(found.wealth, mixture(10.0, 0.0))
    steps = EvidenceStep.objects.order_by("result__finished_at")
    assert [s.result_id for s in steps] == [first.pk, second.pk]
    assert steps[0].wealth_after < steps[1].wealth_after * 10  # the path, in order
    assert math.isclose(steps[1].wealth_after, found.wealth)


def test_a_lost_message_is_made_up_by_the_next_game_and_a_redelivery_changes_nothing(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    first = ranked(make_result, user, 4, won=True)
    PlayerEvidence.objects.create(player=user, started_at=first.finished_at)
    second = ranked(make_result, user, 3, won=True)
    found = sequential.result_step_evidence(result_id=second.pk)  # first's task was lost
    assert found.games == 2 and len(weigh) == 2
    again = sequential.result_step_evidence(result_id=second.pk)
    assert again.games == 2 and again.wealth == found.wealth and len(weigh) == 2


def test_games_before_the_test_started_and_rejected_or_practice_games_do_not_count(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    before = ranked(make_result, user, 9, won=True)
    PlayerEvidence.objects.create(player=user, started_at=timezone.now() - timedelta(days=5))
    ranked(make_result, user, 4, status=Result.Status.REJECTED)
    practice = make_result(user, None, won=True)
    assert sequential.result_step_evidence(result_id=practice.pk) is None
    current = ranked(make_result, user, 3, won=True)
    found = sequential.result_step_evidence(result_id=current.pk)
    assert found.games == 1 and not EvidenceStep.objects.filter(result=before).exists()


def test_a_crossing_holds_the_windows_wins_with_the_day_by_day_evidence(
    user: User, make_result: MakeResult, weigh: list[int], django_capture_on_commit_callbacks
) -> None:
    weigh_value = 60.0
    horizon.horizon_survival.value = weigh_value
    old = ranked(make_result, user, 90, won=True)
    PlayerEvidence.objects.create(player=user, started_at=old.finished_at)
    cleared = ranked(make_result, user, 6, won=True, review=Result.Review.CLEARED)
    lost = ranked(make_result, user, 5)
    wins = [ranked(make_result, user, n, won=True) for n in (4, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        found = sequential.result_step_evidence(result_id=wins[-1].pk)
    assert found.wealth >= 100 and found.crossed_at is not None
    for win in wins:
        win.refresh_from_db()
        assert win.review == "held" and not win.on_board
        assert "evidence" in FairPlayCheck.objects.get(result=win).reasons
        why = ReviewDecision.objects.filter(result=win).last().why
        assert why.startswith("automatic hold: sequential evidence") and "threshold 100" in why
    old.refresh_from_db(), cleared.refresh_from_db(), lost.refresh_from_db()
    # Outside the window, already decided by staff, or not a win: left as they were.
    assert (old.review, cleared.review, lost.review) == ("", "cleared", "")
    case = review_case(result_id=wins[0].pk)
    assert case.evidence.games == 5
    assert [s.result_id for s in case.evidence_days] == [old.pk, cleared.pk, lost.pk] + [
        w.pk for w in wins
    ]
    # A later win while the wealth stays over the threshold is held too.
    later = ranked(make_result, user, 1, won=True)
    sequential.result_step_evidence(result_id=later.pk)
    later.refresh_from_db()
    assert later.review == "held"


def test_the_review_page_shows_the_evidence_over_days(
    user: User, make_result: MakeResult, weigh: list[int]
) -> None:
    horizon.horizon_survival.value = 400.0
    win = ranked(make_result, user, 2, won=True)
    sequential.result_step_evidence(result_id=win.pk)
    client = Client()
    client.force_login(User.objects.create_user(username="referee", is_staff=True))
    page = client.get(reverse("leaderboards:review_detail", args=[win.pk])).content.decode()
    assert 'data-testid="evidence-days"' in page and days_ago(2).isoformat() in page
    assert "400.00" in page  # the game's e-value, beside the wealth after it


def ranked_play(user: User, deal, moves: list[str], capture) -> Result:
    """``user`` plays ``moves`` on ``deal`` ranked, through the play services."""
    game = game_create(user=user, deal=deal, mode="ranked")
    with capture(execute=True):
        for move in moves:
            if move == "resign":
                game_resign(user=user, game_id=game.pk)
            else:
                game_play(user=user, game_id=game.pk, move=move)
    return Result.objects.get(game=game)


def test_every_verified_ranked_game_enqueues_its_step_when_the_test_is_on(
    user: User, bob: User, now, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.FT_EVIDENCE = True
    queued: list[int] = []
    monkeypatch.setattr(services, "_enqueue_evidence", queued.append)
    deal = game_services.deal_open_daily(day=now.date(), variant=WIN["variant"])
    Deal.objects.filter(pk=deal.pk).update(seed_hex=WIN["seed"])
    deal.refresh_from_db()
    capture = django_capture_on_commit_callbacks
    won = ranked_play(user, deal, WIN["moves"].split(), capture)
    lost = ranked_play(bob, deal, ["s", "resign"], capture)
    assert won.won and queued == [won.pk, lost.pk]
    settings.FT_EVIDENCE = False
    queued.clear()
    ranked_play(User.objects.create_user(username="cy"), deal, ["resign"], capture)
    assert queued == []
