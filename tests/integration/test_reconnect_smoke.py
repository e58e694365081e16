"""The front door's load checks (``load/reconnect.py``, ``load/coldstart.py``, issue 22),
tiny, for CI: a storm of 40 sockets 10 at a time on a fresh daphne, cold, warm and echo,
every socket getting its hello with its game's state (half the games mid-play); and
players on a process that has just started, playing from their first second, with
nothing lost. Speed is measured by
the commands in docs/benchmarks.md, never here."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from load import client, stack
from load.players import make_players, stock_turned, versions
from load.reconnect import storm
from load.stats import summary

from .conftest import server_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]


def test_a_small_reconnect_storm_gets_every_socket_its_state(tmp_path: Path) -> None:
    env = {**server_env(), **stack.RAISED_LIMITS}
    (server,) = stack.start_servers(env, 1, tmp_path)
    try:
        players = make_players(40)
        played = players[::2]  # half of them mid-play: their hellos read and replay a log
        stock_turned([p.game_id for p in played], 5)
        targets = [(p.game_id, p.cookie) for p in players]
        address = f"127.0.0.1:{server.port}"
        storms = {
            name: asyncio.run(storm(address, targets, 10, echo))
            for name, echo in (("cold", False), ("warm", False), ("echo", True))
        }
        hellos = asyncio.run(_hellos(address, [(p.game_id, p.cookie) for p in players[:4]]))
    finally:
        server.stop()
    for name, figures in storms.items():
        assert (figures["connected"], figures["failures"]) == (40, {}), (name, figures)
        assert figures["per_s"] > 0, figures
    # The state each socket got is its own game's, at its version.
    for player, hello in zip(players[:4], hellos, strict=True):
        turned = 5 if player in played else 0
        assert hello["game"]["id"] == player.game_id and hello["role"] == "player"
        assert hello["game"]["version"] == turned and hello["game"]["board"]["stock"] == 64 - turned


async def _hellos(address: str, targets: list[tuple[str, str]]) -> list[dict[str, Any]]:
    async def one(game_id: str, cookie: str) -> dict[str, Any]:
        ws = await client.open_socket(address, f"/ws/games/{game_id}/", cookie)
        try:
            hello: dict[str, Any] = await client.hello_of(ws, 30)
            return hello
        finally:
            await ws.close()

    return list(await asyncio.gather(*(one(g, c) for g, c in targets)))


def test_players_on_a_fresh_process_lose_nothing_from_their_first_move(tmp_path: Path) -> None:
    env = {**server_env(), **stack.RAISED_LIMITS}
    (server,) = stack.start_servers(env, 1, tmp_path)
    try:
        players = make_players(20)
        ids = [p.game_id for p in players]
        seats = [client.Seat(f"127.0.0.1:{server.port}", p.game_id, p.cookie) for p in players]
        before = versions(ids)
        played = summary(client.run(seats, client.Phase(duration=3, warmup=0)))
        committed = versions(ids) - before
    finally:
        server.stop()
    assert played["connected"] == 20 and played["connect_failures"] == {}, played
    assert (played["lost"], played["dropped"], played["refused"]) == (0, {}, {}), played
    assert 40 <= played["acked"] <= 80, played
    assert committed == played["acked_total"], (committed, played)


def test_a_storms_closed_sockets_are_collected_by_the_real_process(tmp_path: Path) -> None:
    """ftsite.closed_sockets on a real daphne: once the closed sockets reach the minimum and
    outnumber the open ones, the process runs a full collection and says so in its log; with
    the minimum above the storm, none."""
    players = make_players(30)
    targets = [(p.game_id, p.cookie) for p in players]
    logs = {}
    for minimum in (20, 1000):
        env = {**server_env(), **stack.RAISED_LIMITS, "FT_GC_CLOSED_SOCKETS": str(minimum)}
        (server,) = stack.start_servers(env, 1, tmp_path / str(minimum))
        try:
            figures = asyncio.run(storm(f"127.0.0.1:{server.port}", targets, 10, False))
            assert figures["connected"] == 30, figures
            asyncio.run(asyncio.sleep(3))  # the collection comes a second after the closes
        finally:
            server.stop()
        logs[minimum] = server.log.read_text(errors="replace")
    collected = [line for line in logs[20].splitlines() if "a full collection freed" in line]
    assert len(collected) == 1, logs[20][-3000:]
    assert "30 closed, 0 open" in collected[0]
    assert "a full collection freed" not in logs[1000]
