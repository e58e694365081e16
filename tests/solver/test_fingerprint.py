"""Solver copies: a log that plays this project's solver line from the first move is
recognised; one that parts from it early is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import GameState
from games.solver.fingerprint import THRESHOLD, common_prefix, solver_copy
from tests.support.clock import step_perf_counter

_WIN = json.loads((Path(__file__).parents[1] / "data" / "classic_win.json").read_text())
SEED, LINE = int(_WIN["seed"], 16), _WIN["moves"].split()  # a certified deal, its solver line


def test_it_recognises_the_solvers_own_line_as_a_copy() -> None:
    report = solver_copy(SEED, "forty-thieves", LINE, certified=LINE)
    assert report.share == 1.0 and report.suspicious and report.solves == 0


def test_it_does_not_call_a_log_that_parts_early_a_copy() -> None:
    game = GameState.from_seed(SEED, undo_limit=0)
    other = next(m for m in game.legal_moves() if m != LINE[0])
    report = solver_copy(SEED, "forty-thieves", [other, *LINE[1:]], certified=LINE, max_seconds=1)
    assert report.share < THRESHOLD and not report.suspicious


def test_it_keeps_to_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its clock and the solver's are stepped a millisecond a look (tests/support/clock.py):
    # the first solve gets what is left of 50 ms (not its 100), runs it out, and no other
    # starts; the analysis ends a few looks past its budget, however slow the machine.
    step_perf_counter(monkeypatch, tick=0.001)
    report = solver_copy(SEED, "forty-thieves", ["s"] * 10, max_seconds=0.05)
    assert report.solves == 1 and 0.05 <= report.seconds <= 0.05 + 0.01
    assert common_prefix(["s"], ["t1-t2"]) == 0
