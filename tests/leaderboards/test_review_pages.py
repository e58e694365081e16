"""The staff's review pages and what the public sees of fair play: only staff reach the
queue; a reviewer sees the evidence and records a decision with a reason; the daily board
says how many results are under review; the fair-play page explains the checks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from django.test import Client
from django.urls import reverse

from games.models import User
from leaderboards.models import Result, ReviewDecision

from .test_fairplay import scout_then_win  # noqa: TID252

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


@pytest.fixture
def held(user: User, bob: User, now: datetime, django_capture_on_commit_callbacks) -> Result:
    return scout_then_win(user, bob, now, django_capture_on_commit_callbacks)


@pytest.fixture
def staff_client(db: None) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(username="referee", is_staff=True))
    return client


def test_only_staff_reach_the_review_queue(held: Result, user: User, client: Client) -> None:
    url = reverse("leaderboards:review_list")
    assert client.get(url).status_code == 302  # to the admin's sign-in
    client.force_login(user)
    assert client.get(url).status_code == 302
    assert client.get(reverse("leaderboards:review_detail", args=[held.pk])).status_code == 302
    response = client.post(
        reverse("leaderboards:review_detail", args=[held.pk]), {"decision": "cleared"}
    )
    assert response.status_code == 302 and Result.objects.get(pk=held.pk).review == "held"


def test_the_queue_lists_held_results_with_their_reasons(held: Result, staff_client) -> None:
    page = staff_client.get(reverse("leaderboards:review_list")).content.decode()
    assert 'data-testid="review-queue"' in page and "linked" in page and "ada" in page
    cleared = staff_client.get(
        reverse("leaderboards:review_list"), {"state": "cleared"}
    ).content.decode()
    assert 'data-testid="review-empty"' in cleared
    assert (
        staff_client.get(reverse("leaderboards:review_list"), {"state": "nonsense"}).status_code
        == 404
    )


def test_a_reviewer_sees_the_evidence_and_records_a_decision(held: Result, staff_client) -> None:
    url = reverse("leaderboards:review_detail", args=[held.pk])
    page = staff_client.get(url).content.decode()
    assert 'data-testid="linked-accounts"' in page and "bob" in page
    assert 'data-testid="scout-signs"' in page and "stock_only" in page
    assert 'data-testid="timing"' in page and "automatic hold" in page
    response = staff_client.post(url, {"decision": "disqualified", "why": "scout account"})
    assert response.status_code == 302
    held.refresh_from_db()
    assert held.review == "disqualified"
    decision = ReviewDecision.objects.filter(result=held).last()
    assert (decision.by.username, decision.why) == ("referee", "scout account")
    assert "scout account" in staff_client.get(url).content.decode()


def test_a_decision_without_a_reason_is_refused_with_the_form(held: Result, staff_client) -> None:
    url = reverse("leaderboards:review_detail", args=[held.pk])
    response = staff_client.post(url, {"decision": "cleared", "why": ""})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    again = staff_client.post(url, {"decision": "cleared", "why": "ok"})
    assert again.status_code == 302
    twice = staff_client.post(url, {"decision": "cleared", "why": "ok"})
    assert twice.status_code == 200 and "already" in twice.content.decode()
    assert ReviewDecision.objects.filter(result=held, decision="cleared").count() == 1


def test_an_unknown_result_is_a_404(staff_client) -> None:
    assert staff_client.get(reverse("leaderboards:review_detail", args=[999999])).status_code == 404


def test_a_held_result_is_private_until_decided(
    held: Result, user: User, client: Client, staff_client: Client, now: datetime
) -> None:
    # Issue 19: the public board and scorecard show nothing of a held result ...
    url = reverse("leaderboards:daily", args=[now.date().isoformat()])
    card_url = reverse("leaderboards:scorecard", args=[user.username])
    page = client.get(url).content.decode()
    assert "under-review" not in page and "under review" not in page
    public_card = client.get(card_url).content.decode()
    assert "review-held" not in public_card and "kind-daily" not in public_card
    # ... reviewers see how many are held ...
    staff_page = staff_client.get(url).content.decode()
    assert 'data-testid="under-review-count"' in staff_page and "1 result is under" in staff_page
    # ... and the player is told at once that it is being checked, why and what next.
    client.force_login(user)
    mine = client.get(url).content.decode()
    assert 'data-testid="under-review"' in mine and "Your result is being checked" in mine
    assert "had already turned this deal&#x27;s cards" in mine and "A reviewer looks" in mine
    card = client.get(card_url).content.decode()
    assert 'data-testid="review-held"' in card and 'data-testid="review-note"' in card
    share = client.get(
        reverse("leaderboards:share", args=[held.game_id]), headers={"accept": "application/json"}
    ).json()
    assert share["rank"] is None and share["review"]["state"] == "held"
    assert share["review"]["why"] and share["review"]["next"]


def test_the_player_is_told_in_italian(held: Result, user: User, client: Client) -> None:
    client.force_login(user)
    share = client.get(
        reverse("leaderboards:share", args=[held.game_id]),
        headers={"accept": "application/json", "accept-language": "it"},
    ).json()
    assert share["review"]["title"] == "Il tuo risultato è in verifica"


def test_a_disqualification_is_public(
    held: Result, user: User, client: Client, staff_client: Client
) -> None:
    from leaderboards.fairplay.services import result_review_decide

    result_review_decide(
        result_id=held.pk, decision="disqualified", by=User.objects.get(is_staff=True), why="scout"
    )
    card = client.get(reverse("leaderboards:scorecard", args=[user.username])).content.decode()
    assert 'data-testid="review-disqualified"' in card


def test_the_fair_play_page_explains_the_checks(client: Client) -> None:
    page = client.get(reverse("leaderboards:fairplay")).content.decode()
    assert "Foresight" in page and reverse("privacy") in page
