"""Blind-survival evidence: the per-game e-value of the sequential fair-play test.

The calibration rests on one exact property of the block factor: whichever of the k + 1
exchangeable positions is the true one, the factors average to at most one. That is
checked for every multiset of verdicts (hypothesis); the rest checks the game-level
value on a real win and that a loss costs no solving.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import blind_survival as survival
from benchmarks.blind_survival import blind_survival
from benchmarks.players import Seen
from games.engine import GameState
from games.solver import evidence
from games.solver.evidence import block_factor, split_blocks, verdict
from tests.support.clock import step_perf_counter

WIN = json.loads((Path(__file__).parents[1] / "data" / "classic_win.json").read_text())
SEED, MOVES = int(WIN["seed"], 16), WIN["moves"].split()


@settings(deadline=None)  # pure arithmetic; the shared machine's load is not its concern
@given(st.lists(st.sampled_from("wlu"), min_size=2, max_size=9))
def test_the_block_factor_averages_to_at_most_one_over_which_position_is_true(
    verdicts: list[str],
) -> None:
    # Exchangeability: for a blind player the true position is a uniformly random one of
    # the k + 1, so the factor's mean is this average.
    factors = [
        block_factor(v, "".join(verdicts[:i] + verdicts[i + 1 :])) for i, v in enumerate(verdicts)
    ]
    mean = sum(factors) / len(factors)
    assert mean <= 1 + 1e-12
    if any(v != "l" for v in verdicts):
        assert abs(mean - 1) < 1e-12  # exactly one: no evidence is wasted


def test_the_block_factor_pays_for_a_true_position_that_survived_where_others_died() -> None:
    assert block_factor("w", "llll") == 5.0
    assert block_factor("w", "wwww") == 1.0
    assert block_factor("l", "wwww") == 0.0
    assert block_factor("u", "uuuu") == 1.0


def test_a_lost_game_is_worth_nothing_and_costs_no_solving(monkeypatch) -> None:
    monkeypatch.setattr(evidence, "verdict", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
    found = blind_survival(SEED, WIN["variant"], MOVES[:40], won=False, rng=random.Random(1))
    assert found.value == 0.0 and found.blocks == [] and not found.won


def test_a_real_win_is_weighed_at_the_chosen_draws_only_and_repeats_with_its_seed() -> None:
    first = blind_survival(SEED, WIN["variant"], MOVES, won=True, rng=random.Random(7), max_stock=8)
    again = blind_survival(SEED, WIN["variant"], MOVES, won=True, rng=random.Random(7), max_stock=8)
    stocks = [b.stock for b in first.blocks]
    assert stocks and all(s <= 8 and s % evidence.STRIDE == 0 for s in stocks)
    assert all(len(b.others) == evidence.COMPLETIONS for b in first.blocks)
    assert first.value > 0 and first.to_dict() == {
        **again.to_dict(),
        "seconds": first.to_dict()["seconds"],
    }
    # the mean over every stock count that could be weighed (8 and 4), a slot not weighed 1
    assert first.slots == 2
    mean = (sum(b.factor for b in first.blocks) + 2 - len(first.blocks)) / 2
    assert abs(mean - first.value) < 1e-9


def test_the_verdict_is_a_function_of_the_position_not_of_the_clock() -> None:
    game = GameState.from_seed(SEED, WIN["variant"], undo_limit=0)
    for block in split_blocks(MOVES)[:40]:
        game.replay(block)
    assert verdict(game, nodes=500, width=5) == verdict(game, nodes=500, width=5)
    game.replay(MOVES[sum(len(b) for b in split_blocks(MOVES)[:40]) :])
    assert game.is_won() and verdict(game) == "w"


def test_the_log_is_cut_after_each_draw_and_the_endgame_left_out() -> None:
    assert split_blocks(["t1-t2", "s", "s", "w-f1", "s", "t3-f2"]) == [
        ["t1-t2", "s"],
        ["s"],
        ["w-f1", "s"],
    ]


def test_certified_completions_keep_the_turned_cards_and_pass_the_certifications_test() -> None:
    start = GameState.from_seed(SEED, WIN["variant"], undo_limit=0)
    game = start.copy()
    for block in split_blocks(MOVES)[:20]:
        game.replay(block)
    turned = start.stock[len(game.stock) :]
    seen_deals = []

    def accept(deal: GameState) -> bool:
        seen_deals.append(list(deal.stock))
        return deal.stock[0] % 3 == 0  # any test of the whole deal will do

    sample = survival.certified_sampler(start, accept, tries=200)
    other = sample(game, Seen.from_view(game.view()), random.Random(3))
    assert other is not None and sorted(other.stock) == sorted(game.stock)
    assert seen_deals[-1] == list(other.stock) + list(turned)  # the deal as it was dealt
    assert seen_deals[-1][0] % 3 == 0 and all(d[0] % 3 for d in seen_deals[:-1])


def test_a_block_whose_completions_cannot_be_certified_is_not_weighed() -> None:
    found = blind_survival(
        SEED, WIN["variant"], MOVES, won=True, rng=random.Random(1), max_stock=8,
        accept=lambda deal: False, tries=3,
    )  # fmt: skip
    assert found.value == 1.0 and found.blocks == []


def test_a_games_value_is_the_mean_of_its_slots_not_the_product_of_its_factors() -> None:
    # two of four slots weighed, each worth 3: (3 + 3 + 1 + 1) / 4, where a product gave 9
    assert survival.game_value([3.0, 3.0], won=True, losses=False, slots=4) == 2.0
    assert survival.game_value([3.0, 0.0], won=False, losses=True, slots=2) == 1.5
    assert survival.game_value([3.0], won=False, losses=False, slots=2) == 0.0
    assert survival.game_value([], won=True, losses=False, slots=0) == 1.0
    with pytest.raises(ValueError):
        survival.game_value([1.0, 1.0], won=True, losses=False, slots=1)


def test_a_positions_verdict_does_not_depend_on_what_was_solved_before_it() -> None:
    # No table, move-ordering history or other state may outlive a decision: the true
    # position's successive draws share its stock, so state carried from earlier solves
    # would favour it over the completions. Same verdict, line and node count, fresh or
    # after solving the game's other positions (one of them the same deal a draw earlier).
    game = GameState.from_seed(SEED, WIN["variant"], undo_limit=0)
    positions = []
    for block in split_blocks(MOVES)[:36]:
        game.replay(block)
        positions.append(game.copy())
    fresh = evidence.decide(positions[-1], nodes=600, width=4)
    for earlier in positions[-6:-1]:
        evidence.decide(earlier, nodes=600, width=4)
    assert evidence.decide(positions[-1], nodes=600, width=4) == fresh
    assert fresh[2] > 0  # it searched: the node count is a fingerprint of the whole search


class _Search:
    """A stand-in for the depth-first phase: answers ``_Search.answer``, spends 7 nodes."""

    answer: tuple[str, list] = ("unknown", [])

    def __init__(self, game: GameState, **budget: object) -> None:
        self.nodes = 7

    def run(self) -> tuple[str, list]:
        return _Search.answer


@pytest.mark.parametrize(
    ("answer", "wins_at", "beams", "found"),
    [
        (("win", []), None, [], "w"),  # the search decides: no beam at all
        (("lost", []), None, [], "l"),
        (("unknown", []), 20, [20], "w"),  # the 20-wide beam wins: no wider one
        (("unknown", []), 100, [20, 100], "w"),  # a wider beam only after a narrower failed
        (("unknown", []), None, [20, 100, 400], "u"),
    ],
)
def test_it_runs_a_wider_beam_only_on_a_position_still_undecided(
    monkeypatch, answer: tuple[str, list], wins_at: int | None, beams: list[int], found: str
) -> None:
    run: list[int] = []

    def beam_win(game: GameState, width: int) -> tuple[list[str] | None, int]:
        run.append(width)
        return ([] if width == wins_at else None), 3

    monkeypatch.setattr(_Search, "answer", answer)
    monkeypatch.setattr(evidence, "Search", _Search)
    monkeypatch.setattr(evidence, "_beam_win", beam_win)
    game = GameState.from_seed(SEED, WIN["variant"], undo_limit=0)
    verdict_, _line, nodes = evidence.decide(game, widths=(100, 400))
    assert (verdict_, run, nodes) == (found, beams, 7 + 3 * len(beams))


def _after_blocks(count: int) -> GameState:
    game = GameState.from_seed(SEED, WIN["variant"], undo_limit=0)
    for block in split_blocks(MOVES)[:count]:
        game.replay(block)
    return game


def test_a_wider_beam_wins_a_position_the_narrow_phases_left_undecided() -> None:
    game = _after_blocks(40)  # the deal is won: the win is there to find
    assert verdict(game, nodes=200, width=2) == "u"
    found, line, _nodes = evidence.decide(game, nodes=200, width=2, widths=(8, 30))
    assert found == "w"
    game.replay(line)  # the engine judges the line
    assert game.is_won()


def test_the_wider_verdict_is_a_function_of_the_position_not_of_the_clock(monkeypatch) -> None:
    game = _after_blocks(40)
    calm = evidence.decide(game, nodes=200, width=2, widths=(8, 30))
    # a machine so loaded that every look at the clock finds another hour gone
    clock = step_perf_counter(monkeypatch, tick=3600.0)
    assert evidence.decide(game, nodes=200, width=2, widths=(8, 30)) == calm
    assert clock.reads > 0  # the searches did read the (slow) clock
