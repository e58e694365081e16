"""The duel rating: leaderboards listens to games' decided duels, waits for both games'
verified results and rates the duel once (openskill, two players a match)."""

from __future__ import annotations

import io
import re

import pytest

from games import services
from games.duels.models import DuelSeat
from games.signals import duel_ratings
from leaderboards.models import Result
from leaderboards.rating.duels import duel_rate, duels_needing_rating
from leaderboards.rating.models import DuelRating, RatedDuel
from tests.games.duels.conftest import act, seat_game, start_duel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def duel_settings(settings) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0


def _play_out(user, bob):
    """A duel ada wins on score: she turns a card and moves, bob resigns at once."""
    duel = start_duel(user, bob)
    act(seat_game(duel, 1), kind="resign")
    game = seat_game(duel, 0)
    act(game, move="s")
    act(game, kind="resign")
    return duel


def test_a_decided_duel_moves_both_ratings_once_its_results_are_verified(user, bob) -> None:
    duel = _play_out(user, bob)
    # Celery runs eagerly here: the games were verified and the duel rated on commit.
    assert Result.objects.filter(status=Result.Status.VERIFIED).count() == 2
    assert RatedDuel.objects.get(duel=duel).places in ([1, 2], [2, 1])
    ada, bob_rating = DuelRating.objects.get(user=user), DuelRating.objects.get(user=bob)
    winner_seat = DuelSeat.objects.get(duel=duel, place=1)
    winner = ada if winner_seat.player == user else bob_rating
    loser = bob_rating if winner is ada else ada
    assert winner.mu > loser.mu and ada.duels == bob_rating.duels == 1
    shown = duel_ratings([user.pk, bob.pk])
    assert shown[winner.user_id] > shown[loser.user_id]
    assert not duel_rate(duel_id=duel.pk)  # once
    assert duels_needing_rating() == []


def test_no_rating_moves_before_both_games_are_verified(user, bob) -> None:
    duel = _play_out(user, bob)
    RatedDuel.objects.all().delete()
    DuelRating.objects.all().delete()
    Result.objects.filter(game=seat_game(duel, 1)).update(status=Result.Status.PENDING)
    assert not duel_rate(duel_id=duel.pk)
    assert not DuelRating.objects.exists()
    assert duels_needing_rating() == [str(duel.pk)]


def test_a_rejected_result_loses_the_duel_for_the_rating(user, bob) -> None:
    duel = _play_out(user, bob)
    RatedDuel.objects.all().delete()
    DuelRating.objects.all().delete()
    winner = DuelSeat.objects.get(duel=duel, place=1)
    Result.objects.filter(game_id=winner.game_id).update(status=Result.Status.REJECTED)
    assert duel_rate(duel_id=duel.pk)
    places = RatedDuel.objects.get(duel=duel).places
    assert places[winner.seat] == 2


def test_an_unrated_duel_moves_nothing(user, bob) -> None:
    from tests.games.duels.conftest import link_accounts

    link_accounts(user, bob)
    duel = _play_out(user, bob)
    assert not duel.rated or not RatedDuel.objects.exists()
    assert not DuelRating.objects.exists()
    services.duel_sweep()


def _thrown_duel(winner, thrower, line):
    """A duel ``thrower`` resigns at once while ``winner`` plays the known line until she
    scores, then resigns: the cheapest way to hand over a win."""
    duel = start_duel(winner, thrower)
    act(seat_game(duel, 1), kind="resign")
    game = seat_game(duel, 0)
    for move in line:
        act(game, move=move)
        game.refresh_from_db()
        if game.score > 0:
            break
    act(game, kind="resign")
    return duel


def _tie(user, bob):
    duel = start_duel(user, bob)
    act(seat_game(duel, 0), kind="resign")
    act(seat_game(duel, 1), kind="resign")
    return duel


def test_a_second_thrown_duel_to_the_same_winner_within_a_week_is_not_rated(
    user, bob, reserve_deal, classic_win
) -> None:
    reserve_deal()
    reserve_deal()
    first = _thrown_duel(user, bob, classic_win[1])
    assert first.rated and RatedDuel.objects.get(duel=first).skipped == ""
    assert DuelSeat.objects.get(duel=first, player=user).place == 1
    mu = DuelRating.objects.get(user=user).mu
    second = _thrown_duel(user, bob, classic_win[1])
    assert RatedDuel.objects.get(duel=second).skipped == "trading"
    assert DuelRating.objects.get(user=user).mu == mu  # nothing gained the second time


def test_at_most_three_duels_of_one_pair_count_a_day(user, bob) -> None:
    for _ in range(4):
        _tie(user, bob)
    skipped = list(RatedDuel.objects.order_by("rated_at").values_list("skipped", flat=True))
    assert skipped == ["", "", "", "trading"]
    assert DuelRating.objects.get(user=user).duels == 3


def test_the_rebuild_equals_the_incremental_duel_ratings(user, bob, carol) -> None:
    from django.core.management import call_command

    from leaderboards.rating.duels import duel_ratings_rebuild

    for _ in range(4):  # the fourth is over the pair's daily count
        _tie(user, bob)
    _play_out(carol, bob)
    before = {
        r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.duels) for r in DuelRating.objects.all()
    }
    skipped = sorted(RatedDuel.objects.values_list("skipped", flat=True))
    assert duel_ratings_rebuild() == 4
    after = {
        r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.duels) for r in DuelRating.objects.all()
    }
    assert after == before
    assert sorted(RatedDuel.objects.values_list("skipped", flat=True)) == skipped
    out = io.StringIO()
    call_command("rebuild_duel_ratings", stdout=out)
    assert "Rated 4 duels again" in out.getvalue()
    assert DuelRating.objects.count() == 3


def test_the_scorecard_shows_the_duel_rating_the_record_and_the_latest_duels(
    user, bob, client
) -> None:
    duel = _play_out(user, bob)
    duel.refresh_from_db()
    winner, loser = (user, bob) if duel.winner_id == user.pk else (bob, user)
    page = client.get(f"/players/{winner.username}/").content.decode()
    section = page.split('data-testid="scorecard-duels"', 1)[1].split("</section>", 1)[0]
    shown = duel_ratings([winner.pk])[winner.pk]
    assert f'data-testid="duel-rating-value">{shown}<' in section
    assert "From 1 rated duel." in section
    record = section.split('data-testid="duel-record"', 1)[1].split("</dl>", 1)[0]
    numbers = [int(n) for n in re.findall(r"<dd>(\d+)</dd>", record)]
    assert numbers == [1, 1, 0, 0]  # played, won, lost, tied
    assert f"/duels/{duel.pk}/replay/" in section and f"against {loser.public_name}" in section
    # The duel's game in the history is a duel's, not a practice game.
    assert 'data-testid="kind-duel">Duel<' in page and 'data-testid="kind-practice"' not in page
    # The loser's card says lost; a player who never finished a duel has no such section.
    lost = client.get(f"/players/{loser.username}/").content.decode()
    assert "· lost" in " ".join(lost.split('data-testid="scorecard-duels"', 1)[1].split())


def test_a_scorecard_without_duels_has_no_duel_section(user, client) -> None:
    assert (
        'data-testid="scorecard-duels"'
        not in client.get(f"/players/{user.username}/").content.decode()
    )
