"""The season model of benchmarks/season.py on a synthetic cache: a player whose every game
gives evidence is held within days, one whose games give none never is, and a weak person
plays only some days and may leave."""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sim() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))
    load("season")
    return load("season_sim")


def row(kind: str, won: bool, value: float) -> dict:
    return {"kind": kind, "won": won, "value": value, "eval_cpu": 1.0 if won else 0.0}


CACHE = {
    "determinized": [row("determinized", False, 0.0), row("determinized", True, 1.5)],
    "greedy": [row("greedy", False, 0.0)],
    "mixed-30": [row("mixed-30", True, 4.0)],
}


def test_a_player_whose_every_game_gives_four_to_one_is_held_within_days(sim) -> None:
    day, cpu, games = sim.season(sim.cheat, CACHE, random.Random(1), 365)
    assert day is not None and day <= 7 and games == day and cpu == day


def test_a_player_who_never_wins_is_never_held_and_costs_nothing(sim) -> None:
    day, cpu, games = sim.season(sim.weak_person(), CACHE, random.Random(1), 365)
    assert day is None and cpu == 0 and 0 < games < 365 * sim.PLAYS


def test_the_report_runs_on_a_cache_file(sim, tmp_path: Path, capsys) -> None:
    cache = tmp_path / "cache.jsonl"
    cache.write_text("\n".join(json.dumps(r) for rows in CACHE.values() for r in rows))
    sim.simulate(argparse.Namespace(cache=cache, days=60, players=40, seed=1))
    out = capsys.readouterr().out
    assert "foresight every day (mixed-30): ever held 200 / 200" in out
    assert "weak honest people" in out and "ever held 0 / 40" in out
