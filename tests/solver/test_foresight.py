"""Foresight analysis: its report, its budget, what it flags, and honest players' blindness.

The games are short and made here (no benchmark data): the greedy honest player on
fixed seeds, and a "peeker" that picks, at each decision, the move the next stock card
fits best: foresight of one card, exactly what the statistic measures.
"""

from __future__ import annotations

import json
import random

import pytest

from benchmarks.players import Determinized, Seen, greedy, play_greedy, play_honest
from games.engine import GameState
from games.engine.notation import DRAW, format_move
from games.solver.foresight import (
    THRESHOLD,
    Decision,
    ForesightReport,
    _Analysis,
    analyse_foresight,
)

VARIANT = "forty-thieves"
SEEDS = (3, 11, 29)


def peeker_log(seed: int, limit: int = 400) -> list[str]:
    """A cheat of one card's foresight: among the sensible moves, the one whose
    position the real next card fits best (the greedy move when all tie)."""
    game = GameState.from_seed(seed, VARIANT, undo_limit=0)
    analysis = _Analysis(game, random.Random(0), samples=0, horizon=1)
    log: list[str] = []
    streak = 0
    while game.stock and len(log) < limit:
        analysis.futures = [[game.stock[-1]]]
        kept = analysis.know.ordered(game, analysis.legal(game), None)
        honest = greedy(Seen.from_view(game.view())) or "s"
        best, best_value = honest, analysis.values(_parse(honest))[0]
        for move in kept:
            value = analysis.values(move)[0]
            if value > best_value + 1e-9:
                best, best_value = format_move(move), value
        if streak >= 20:  # never circle between columns: turn a card
            best = "s"
        streak = 0 if best == "s" else streak + 1
        game.play(best)
        log.append(best)
    return log


def _parse(text: str):
    from games.engine import parse_move

    return parse_move(text)


# The report --------------------------------------------------------------------------


def test_it_round_trips_the_report_through_json() -> None:
    log = peeker_log(SEEDS[0], limit=150)
    report = analyse_foresight(SEEDS[0], VARIANT, log)
    again = ForesightReport.from_dict(json.loads(json.dumps(report.to_dict())))
    assert again == report
    assert report.method == "foresight-1"
    assert all(isinstance(d, Decision) for d in again.evidence)


def test_it_gives_the_same_report_for_the_same_seed() -> None:
    log = play_greedy(SEEDS[1], VARIANT).moves
    for horizon in (1, 4):  # exact, then sampled completions
        one = analyse_foresight(SEEDS[1], VARIANT, log, rng_seed=5, horizon=horizon).to_dict()
        two = analyse_foresight(SEEDS[1], VARIANT, log, rng_seed=5, horizon=horizon).to_dict()
        one.pop("seconds"), two.pop("seconds")
        assert one == two


def test_it_stops_at_its_time_budget() -> None:
    log = play_greedy(SEEDS[2], VARIANT).moves
    report = analyse_foresight(SEEDS[2], VARIANT, log, max_seconds=0.0)
    assert not report.complete
    assert report.decisions == 0
    assert not report.suspicious


def test_it_refuses_an_illegal_log() -> None:
    with pytest.raises(ValueError):
        analyse_foresight(SEEDS[0], VARIANT, ["t1-f1", "t1-f1", "t1-f1"] * 3)


# What it flags -----------------------------------------------------------------------


def test_it_scores_a_player_who_peeks_at_the_next_card_above_honest_play() -> None:
    # one card of foresight used greedily is a weak cheat: on single deals its
    # z-score ranges from about 1 to 4, so the test compares four deals' means
    seeds = (1, 2, 3, 4)
    peeks = [analyse_foresight(s, VARIANT, peeker_log(s)) for s in seeds]
    honest = [analyse_foresight(s, VARIANT, play_greedy(s, VARIANT).moves) for s in seeds]
    mean = sum(r.statistic for r in peeks) / len(seeds)
    assert mean > 1.0 + sum(r.statistic for r in honest) / len(seeds)
    telling = max(peeks, key=lambda r: r.statistic)
    assert telling.evidence
    first = telling.evidence[0]
    assert first.contrast > 0 and first.info_value < first.alternative_info_value
    assert first.board["stock"] > 0 and "columns" in first.board


@pytest.mark.parametrize("seed", SEEDS)
def test_it_does_not_flag_the_greedy_player(seed: int) -> None:
    report = analyse_foresight(seed, VARIANT, play_greedy(seed, VARIANT).moves)
    assert not report.suspicious, report.statistic
    assert report.statistic < THRESHOLD


# Honest players see only what a player sees ---------------------------------------------


def _with_stock_reordered(seed: int, moves: list[str]) -> tuple[GameState, GameState]:
    """The same position twice, the second with the unseen stock shuffled."""
    game = GameState.from_seed(seed, VARIANT, undo_limit=0)
    game.replay(moves)
    other = GameState.from_seed(seed, VARIANT, undo_limit=0)
    other.replay(moves)
    stock = list(other.stock)
    random.Random(1).shuffle(stock)
    other.restock(stock)
    return game, other


def test_it_does_not_let_honest_players_see_the_stock_order() -> None:
    game, other = _with_stock_reordered(SEEDS[0], ["s", "s", "s"])
    assert game.stock != other.stock
    seen, seen_other = Seen.from_view(game.view()), Seen.from_view(other.view())
    assert seen == seen_other  # the view carries the unseen cards as a sorted multiset only
    assert greedy(seen) == greedy(seen_other)
    first = Determinized(7, seconds=0.2)(seen)
    assert first == Determinized(7, seconds=0.2)(seen_other)


def test_it_drives_honest_players_with_the_view_alone() -> None:
    shown: list[object] = []

    def spy(seen: Seen) -> str | None:
        shown.append(seen)
        return "s" if seen.stock else None

    played = play_honest(SEEDS[1], VARIANT, spy)
    assert played.moves == ["s"] * 64
    assert all(isinstance(s, Seen) for s in shown)
    assert not any(hasattr(s, "_stock") for s in shown)
    assert {len(s.unseen) for s in shown[:1]} == {64}
    assert DRAW == 0  # the notation's draw, as the spy plays it
