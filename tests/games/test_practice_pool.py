"""The pool of proven-winnable practice deals: only deals whose winning line replays to a
win join, node budgets make the verdict and the stars repeat, random practice draws from
it on request (by stars too), and an empty pool says so and offers an unfiltered deal.
Small node budgets throughout (little-forty deals are won in about 250 nodes)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import services, tasks
from games.engine import GameState
from games.models import Deal, Game, PracticePoolDeal, User
from games.services import PoolEmpty
from games.services import practice_pool as pool
from games.services.deals import difficulty_for
from games.solver import SolveResult

pytestmark = pytest.mark.django_db

EASY = "little-forty"
#: little-forty seeds: 1-5 won within 400 nodes, 6 not.
WON, NOT_WON = [1, 2, 3, 4, 5], 6


def test_a_deal_joins_only_with_a_line_the_engine_replays_to_a_win() -> None:
    fill = services.practice_pool_fill(
        variant=EASY, count=3, max_nodes=400, seeds=[NOT_WON, 1, 2, 3]
    )
    assert (fill.tried, fill.added, fill.size) == (4, 3, 3)
    for entry in PracticePoolDeal.objects.select_related("deal"):
        replay = GameState.from_seed(entry.deal.seed, entry.deal.variant, undo_limit=0)
        for move in entry.deal.solution.split():
            replay.play(move)
        assert replay.is_won()
        assert entry.stars == difficulty_for("win", entry.nodes) == entry.deal.difficulty
    # A seed not won within the budget makes no deal row at all.
    assert not Deal.objects.filter(seed_hex=f"{NOT_WON:032x}").exists()


def test_a_line_that_does_not_replay_to_a_win_is_not_a_proof(monkeypatch) -> None:
    def lying_solver(game, **budget):  # noqa: ANN001, ANN003, ANN202
        return SolveResult("win", ["s"], nodes=10, seconds=0.0)

    monkeypatch.setattr(pool, "solve", lying_solver)
    assert pool.proven_win(seed=1, variant=EASY, max_nodes=400) is None
    fill = services.practice_pool_fill(variant=EASY, count=1, max_nodes=400, seeds=[1])
    assert fill.added == 0 and not PracticePoolDeal.objects.exists()


def test_node_budgets_make_the_verdict_and_stars_repeat() -> None:
    first = pool.proven_win(seed=4, variant="forty-thieves", max_nodes=5_000)
    again = pool.proven_win(seed=4, variant="forty-thieves", max_nodes=5_000)
    assert first is not None and first == again
    assert difficulty_for("win", first[0]) == 2
    # Under a smaller budget the same seed is simply not proven.
    assert pool.proven_win(seed=4, variant="forty-thieves", max_nodes=1_000) is None


def test_a_seed_already_in_the_pool_is_not_added_twice() -> None:
    services.practice_pool_fill(variant=EASY, count=1, max_nodes=400, seeds=[1])
    fill = services.practice_pool_fill(variant=EASY, count=1, max_nodes=400, seeds=[1])
    assert (fill.added, fill.size) == (0, 1)


def test_winnable_practice_draws_only_from_the_pool_and_not_a_deal_played(user: User) -> None:
    services.practice_pool_fill(variant=EASY, count=2, max_nodes=400, seeds=[1, 2])
    proven = set(PracticePoolDeal.objects.values_list("deal_id", flat=True))
    first = services.game_start_practice(user=user, variant=EASY, winnable=True)
    second = services.game_start_practice(user=user, variant=EASY, winnable=True)
    assert {first.deal_id, second.deal_id} == proven
    with pytest.raises(PoolEmpty) as empty:
        services.game_start_practice(user=user, variant=EASY, winnable=True)
    assert empty.value.code == "pool_empty" and empty.value.status == 404
    assert "random deal" in empty.value.reason


def test_stars_filter_the_pool(user: User) -> None:
    services.practice_pool_fill(variant="forty-thieves", count=1, max_nodes=5_000, seeds=[4])
    game = services.game_start_practice(user=user, variant="forty-thieves", stars=2)
    assert game.deal.pool_entry.stars == 2
    with pytest.raises(PoolEmpty) as empty:
        services.game_start_practice(user=user, variant="forty-thieves", stars=5)
    assert "deal of 5 stars is ready" in empty.value.reason
    with pytest.raises(PoolEmpty) as empty:
        services.game_start_practice(user=user, variant="forty-thieves", stars=1)
    assert empty.value.reason.startswith("No proven-winnable Forty Thieves deal of 1 star is")


def test_the_page_offers_an_unfiltered_deal_when_the_pool_is_empty(user: User) -> None:
    client = Client()
    client.force_login(user)
    form = {"action": "random", "variant": EASY, "winnable": "on"}
    response = client.post(reverse("practice"), form)
    assert response.status_code == 404
    page = response.content.decode()
    assert 'data-testid="pool-empty"' in page and "Play a random deal instead" in page
    # Said once, as a sentence of the page's language, not also as the API's reason.
    assert page.count("proved winnable is ready") == 1 and "proven-winnable" not in page
    assert not Game.objects.exists()
    played = client.post(reverse("practice"), {"action": "random", "variant": EASY})
    assert played.status_code == 302 and Game.objects.get().deal.variant == EASY


def test_the_page_starts_a_proven_deal_of_the_stars_asked(user: User) -> None:
    services.practice_pool_fill(variant=EASY, count=1, max_nodes=400, seeds=[3])
    client = Client()
    client.force_login(user)
    form = {"action": "random", "variant": EASY, "winnable": "on", "stars": "1"}
    response = client.post(reverse("practice"), form)
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/" and game.deal.pool_entry.stars == 1
    assert "solver" in client.get(reverse("practice")).content.decode()  # what stars measure


def test_a_bad_difficulty_is_refused_naming_what_is_expected(user: User) -> None:
    client = Client()
    client.force_login(user)
    response = client.post(reverse("practice"), {"action": "random", "stars": "9"})
    assert response.status_code == 400 and "stars" in response.content.decode()


def test_the_command_and_the_task_fill_the_pool(settings, capsys) -> None:
    settings.FT_POOL_NODES = 400
    call_command("fill_practice_pool", "--variant", EASY, "--count", "2", "--nodes", "400")
    assert "2 added" in capsys.readouterr().out
    settings.FT_POOL_TARGET = 3
    done = tasks.fill_practice_pool.apply(kwargs={}).get()
    assert any(f["variant"] == EASY and f["size"] == 3 for f in done)
    assert PracticePoolDeal.objects.filter(variant=EASY).count() == 3


def test_the_fill_runs_on_the_solver_queue() -> None:
    from ftsite.schedule import BEAT_SCHEDULE, TASK_ROUTES

    assert TASK_ROUTES["games.fill_practice_pool"] == {"queue": "solver"}
    assert any(e["task"] == "games.fill_practice_pool" for e in BEAT_SCHEDULE.values())
