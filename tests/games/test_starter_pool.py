"""The proven deals a fresh install starts with: a few of every star, each line a win."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games import services
from games.engine import GameState
from games.models import PracticePoolDeal, User
from games.services.deals import difficulty_for
from games.services.practice_pool import STARTER_POOL


def test_the_shipped_file_has_a_few_deals_of_every_star_and_each_line_wins() -> None:
    entries = json.loads(STARTER_POOL.read_text(encoding="utf-8"))["deals"]
    stars = Counter(difficulty_for("win", e["nodes"]) for e in entries)
    # Every star a practice player can ask for, five (over 100,000 nodes) included.
    assert all(stars[n] >= 2 for n in range(1, 6)), stars
    for entry in entries:
        game = GameState.from_seed(entry["seed"], entry["variant"], undo_limit=0)
        for move in entry["line"].split():
            game.play(move)
        assert game.is_won(), entry["seed"]


@pytest.mark.django_db
def test_loading_them_fills_every_star_once_and_each_draw_is_proven(user: User) -> None:
    first = services.practice_pool_load_starter()
    again = services.practice_pool_load_starter()
    assert first.added == first.tried and again.added == 0 and again.size == first.size
    stars = set(PracticePoolDeal.objects.values_list("stars", flat=True))
    assert stars == {1, 2, 3, 4, 5}
    for n in range(1, 6):
        deal = services.practice_pool_draw(user=user, variant="forty-thieves", stars=n)
        assert deal.difficulty == n and deal.solver_verdict == "win" and deal.solution


@pytest.mark.django_db
def test_a_shipped_line_that_does_not_win_is_refused_and_nothing_is_added(
    tmp_path: Path,
) -> None:
    entries = json.loads(STARTER_POOL.read_text(encoding="utf-8"))["deals"]
    broken = [entries[0], {**entries[1], "line": " ".join(entries[1]["line"].split()[:-1])}]
    path = tmp_path / "pool.json"
    path.write_text(json.dumps({"deals": broken}), encoding="utf-8")
    with pytest.raises(ValueError, match="does not win"):
        services.practice_pool_load_starter(path=path)
    assert not PracticePoolDeal.objects.exists()


def test_the_cheap_deals_are_found_again_by_the_solver_with_the_same_nodes() -> None:
    """The file says what the solver finds: the same nodes and line on a new run (a node
    budget, not a clock, so this holds on any machine)."""
    from games.solver import solve

    entries = json.loads(STARTER_POOL.read_text(encoding="utf-8"))["deals"]
    cheap = [e for e in entries if e["nodes"] <= 20_000]
    assert len(cheap) >= 6
    # And the cheapest five-star deal, which the pool's own budget (FT_POOL_NODES) finds.
    cheap.append(min((e for e in entries if e["stars"] == 5), key=lambda e: e["nodes"]))
    assert cheap[-1]["nodes"] <= 200_000
    for entry in cheap:
        game = GameState.from_seed(entry["seed"], entry["variant"], undo_limit=0)
        result = solve(game, max_seconds=600, max_nodes=200_000)
        assert (result.verdict, result.nodes, " ".join(result.line)) == (
            "win",
            entry["nodes"],
            entry["line"],
        ), entry["seed"]
