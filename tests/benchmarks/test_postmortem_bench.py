"""benchmarks/postmortem.py: the certified deals are analysed as the site analyses a daily,
with the deal's winning line known beforehand."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest

import benchmarks.postmortem


@pytest.fixture
def bench() -> ModuleType:
    return benchmarks.postmortem


def test_it_gives_a_certified_deal_its_winning_line(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(bench.CERTIFIED.read_text())
    second = data["deals"][1]
    seen: list[dict[str, Any]] = []
    real = bench.analyse

    def spy(start: Any, log: Any, **kwargs: Any) -> Any:
        seen.append({"seed": start.seed, **kwargs})
        return real(start, log, **{**kwargs, "total_seconds": 0.5, "position_seconds": 0.1})

    monkeypatch.setattr(bench, "analyse", spy)
    bench.main(["--certified", "2-2"])
    assert [call["seed"] for call in seen] == [int(second["seed"], 16)]
    assert seen[0]["start_line"] == second["line"].split()
    row = next(line for line in capsys.readouterr().out.splitlines() if second["day"] in line)
    assert "no_win_found" not in row and "never" not in row  # the deal's win is known


def test_numbered_deals_are_analysed_without_a_known_line(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, Any]] = []

    def stub(start: Any, log: Any, **kwargs: Any) -> _Stub:
        seen.append(kwargs)
        return _Stub()

    monkeypatch.setattr(bench, "analyse", stub)
    bench.main(["--seeds", "2-3"])
    assert seen and all(call["start_line"] is None for call in seen)


class _Stub:
    def to_dict(self) -> dict[str, Any]:
        return {"verdict": "between", "win_step": 1, "lost_step": 9, "undecided": 7, "checked": 3}
