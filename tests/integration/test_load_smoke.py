"""The load generator (``load/``, issue 11) end to end, tiny: 10 players at 1 move/s for
5 s against a real daphne serving ``load.asgi``, then the echo baseline on it. Every move
sent must be answered and accepted, and committed: a harness that loses or miscounts moves
would make its tables worthless."""

from __future__ import annotations

from pathlib import Path

import pytest

from load import client, stack
from load.players import make_players, versions
from load.stats import summary

from .conftest import server_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]


def test_ten_players_for_five_seconds_lose_nothing_and_echo_answers(tmp_path: Path) -> None:
    env = {**server_env(), **stack.RAISED_LIMITS}
    (server,) = stack.start_servers(env, 1, tmp_path)
    try:
        players = make_players(10)
        ids = [p.game_id for p in players]
        seats = [client.Seat(f"127.0.0.1:{server.port}", p.game_id, p.cookie) for p in players]
        before = versions(ids)
        played = summary(client.run(seats, client.Phase(duration=5, warmup=1)))
        committed = versions(ids) - before
        echoed = summary(client.run(seats, client.Phase(client.ECHO, duration=2, warmup=0.5)))
    finally:
        server.stop()

    assert played["connected"] == 10, played
    for figures in (played, echoed):
        assert figures["connect_failures"] == {}, figures
        assert (figures["lost"], figures["dropped"], figures["errors"]) == (0, {}, {}), figures
    assert played["refused"] == {}, played
    assert played["finished"] == 0, played
    # About 10 a second for 5 s; the schedule's random phases make it 40 to 60.
    assert 40 <= played["acked"] <= 60, played
    assert committed == played["acked_total"], (committed, played)
    assert 15 <= echoed["acked"] <= 25, echoed
