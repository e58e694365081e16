"""The survival experiment of benchmarks/fairplay_survival.py on a known win: it cuts the
log at the draws, counts completions within bounds and multiplies factors of at least one
(the game was won, so the true deal is winnable after every block)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fairplay_survival.py"


@pytest.fixture(scope="module")
def survival() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fairplay_survival", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fairplay_survival", module)
    spec.loader.exec_module(module)
    return module


def test_it_cuts_the_log_after_each_draw_and_drops_the_endgame(survival) -> None:
    log = ["c1f", "s", "s", "w3", "c2c5", "s", "c4f", "c5f"]
    assert survival.blocks(log) == [("c1f", "s"), ("s",), ("w3", "c2c5", "s")]


def test_a_won_line_gets_finite_factors_of_at_least_one(survival, classic_win) -> None:
    seed, line = classic_win
    result = survival.analyse(seed, line, completions=3, seconds=0.05, rng_seed=1, max_stock=3)
    score, agreement, terms = result
    assert [t[0] for t in terms] == [3, 2, 1]  # the blocks starting with 3, 2, 1 cards left
    for _, n_a, n_ab, _ in terms:
        assert 0 <= n_ab <= n_a <= 3
    assert score >= 0 and math.isfinite(score) and math.isfinite(agreement)


def test_the_report_names_each_kind_and_the_cpu(survival, capsys) -> None:
    rows = [
        {"kind": "determinized", "won": True, "survival": 1.0, "agreement": 0.0, "cpu": 2.0},
        {"kind": "clairvoyant", "won": True, "survival": 5.0, "agreement": 1.0, "cpu": 3.0},
        {"kind": "mixed-30", "won": False},
    ]
    survival.report(rows)
    out = capsys.readouterr().out
    assert "2 won games analysed (3 played)" in out
    assert "above every honest game: 1  AUC vs honest 1.00" in out
    assert "CPU per analysed win: min 2.0 / median 2.5 / max 3.0 s" in out
