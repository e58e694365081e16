"""Issue 19, part B, in the test suite: a smaller household of honest players on one
network (benchmarks/households.py; the full one is in docs/benchmarks.md) has none of its
results held, and the evasions 1-3 of one person's one attempt are each refused or held,
all played through the services at a person's pace (the pace check on)."""

from __future__ import annotations

from collections import Counter
from types import ModuleType

import pytest

import benchmarks.households

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def households() -> ModuleType:
    return benchmarks.households


@pytest.fixture(autouse=True)
def pace_check_on(settings) -> None:
    settings.FT_PACE_CHECK = True  # every game here is played at a person's pace


def test_a_household_on_one_network_and_three_browsers_is_not_held(households) -> None:
    rows = households.household(players_count=9, days=1, new=1, seed=3)
    assert len(rows) == 10
    # Every honest persona played, and every later player was linked to earlier ones by
    # the network; none of it holds a result.
    assert {r["persona"] for r in rows} >= {"new"}
    assert [r for r in rows if r["held"]] == []


@pytest.mark.parametrize("kind", ["1", "2a", "2b", "3"])
def test_each_evasion_is_refused_or_held(households, kind: str) -> None:
    (row,) = households.evasions(1, (kind,))
    expected = {"1": "refused", "2a": "refused", "2b": "held", "3": "held"}[kind]
    assert row["verdict"] == expected, row


def test_the_foundations_player_turns_the_stock_and_sends_cards_home(households) -> None:
    import json

    deal = json.loads(households.DEALS.read_text())["deals"][0]
    moves = households.honest_moves("foundations", int(deal["seed"], 16), None)
    counts = Counter("s" if m == "s" else "home" for m in moves)
    assert counts["s"] == 64 and counts["home"] > 0
