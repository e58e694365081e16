"""The duels' load run (``load/duels.py``, issue 40) end to end, tiny: 3 duels on two real
daphne processes, each player one move a second for 4 s, then the echo baseline. Both
seats of a duel are on one deal; every move is acknowledged, committed, and heard by the
opponent on the other process: a harness that loses or miscounts moves or progress
updates would make its table worthless. The speed is not asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from ftsite.rates import Rate
from load import client, stack
from load.duels import DUEL_ENV, make_duels, run_duel_phase, same_deals
from load.players import versions
from load.stats import summary

from .conftest import server_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(150),
]


@pytest.fixture(autouse=True)
def duels_as_the_run_makes_them(settings) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0
    settings.FT_DAILY_CERTIFY_SECONDS = 0
    settings.FT_RATE_DUELS = Rate.parse(DUEL_ENV["FT_RATE_DUELS"])


def test_three_duels_lose_no_move_and_every_opponent_hears_every_move(tmp_path: Path) -> None:
    env = {**server_env(), **stack.RAISED_LIMITS, **DUEL_ENV}
    servers = stack.start_servers(env, 2, tmp_path)
    try:
        pairs = make_duels(3, [f"127.0.0.1:{s.port}" for s in servers])
        ids = [p.game_id for pair in pairs for p in pair]
        before = versions(ids)
        phase = client.Phase(duration=4, warmup=1, strict=True)
        tally = client.run(pairs, phase, runner=run_duel_phase)
        played = summary(tally)
        committed = versions(ids) - before
        seats = [client.Seat(p.server, p.game_id, p.cookie) for pair in pairs for p in pair]
        echoed = summary(client.run(seats, client.Phase(client.ECHO, duration=2, warmup=0.5)))
    finally:
        stack.stop_all(servers)

    assert same_deals(pairs)
    assert all(first.server != second.server for first, second in pairs)
    assert played["connected"] == 6 and played["watchers"] == 6, played
    for figures in (played, echoed):
        assert figures["connect_failures"] == {}, figures
        assert (figures["lost"], figures["dropped"], figures["errors"]) == (0, {}, {}), figures
    assert played["refused"] == {} and played["finished"] == 0, played
    # About 6 a second for 4 s; the schedule's random phases make it 18 to 30.
    assert 18 <= played["acked"] <= 30, played
    assert committed == played["acked_total"], (committed, played)
    # Every move sent in the window reached the opponent's duel socket, on the other process.
    assert len(tally.fanout) == played["acked"], played
    assert (played["missed_versions"], played["unarrived_versions"]) == (0, 0), played
    assert 9 <= echoed["acked"] <= 15, echoed
