"""Faults during a duel (issue 40), on the real stack: two daphne processes of the test's
own sharing channels_redis and PostgreSQL, and real Celery workers.

* kill -9 of the process one player plays on, mid-duel: both players reconnect (the killed
  one's to the other process), every move acknowledged is in the log exactly once, a
  re-sent frame is answered as a duplicate and never applied twice, and the duel's clock is
  the server's: after the reconnect the time left is the time control less the time since
  the start, never reset.
* kill -9 of the worker while it verifies the duel's games: a new worker (and the sweep,
  as the beat runs it) finish the work, and the duel rating moves exactly once, to the
  values a clean rating of the verified results gives.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games import services
from games.duels.models import Duel, DuelSeat
from leaderboards.models import Result
from leaderboards.rating.duels import duel_ratings_rebuild
from leaderboards.rating.models import DuelRating, RatedDuel
from load.fault_audit import audit_moves
from load.fault_client import FaultSeat, Plan, play_all
from load.faults import sweep_now
from tests.integration.test_live_play import session_cookie

from .conftest import UNPACED, server_env, start_pair

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

KILL_AFTER_S = 4.0  # seconds into play when the first process is killed
PLAY_S = 12.0


@pytest.fixture(autouse=True)
def no_countdown(settings: Any) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 0  # the duel starts in this process, at once
    settings.FT_DAILY_CERTIFY_SECONDS = 0  # its deal uncertified: the same to play


def a_duel(user: Any, bob: Any) -> tuple[Duel, str, str]:
    """A running duel between ada (seat 0) and bob (seat 1), and their games."""
    _, token = services.duel_challenge_create(user=user)
    duel = services.duel_challenge_accept(user=bob, token=token)
    seats = {s.seat: s for s in DuelSeat.objects.filter(duel=duel)}
    return duel, str(seats[0].game_id), str(seats[1].game_id)


def duel_socket(address: str, duel_id: str, cookie: str) -> Any:
    return connect(
        f"ws://{address}/ws/duels/{duel_id}/",
        origin=f"http://{address}",  # type: ignore[arg-type]
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    )


class Heard:
    """Everything a duel socket received (read as it comes, so the socket never backs up),
    with when each message arrived."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.messages = ws, []
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                self.messages.append((json.loads(raw), datetime.now(UTC)))

    async def next_duel(self, after: int = 0) -> tuple[dict[str, Any], datetime]:
        """The first ``duel`` message from index ``after`` on, and when it came."""
        for _ in range(200):
            for message, at in self.messages[after:]:
                if message["type"] == "duel":
                    return message["duel"], at
            await asyncio.sleep(0.05)
        raise AssertionError(f"no duel message: {self.messages[after:]}")


async def send_twice(address: str, game_id: str, cookie: str) -> list[dict[str, Any]]:
    """One new move sent twice as the same frame before any answer (a client re-sending
    what it never saw answered): the two answers to it."""
    async with connect(
        f"ws://{address}/ws/games/{game_id}/",
        origin=f"http://{address}",  # type: ignore[arg-type]
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    ) as ws:
        hello = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
        game = hello["game"]
        move = next(m for m in game["legal_moves"] if m != "r")
        frame = json.dumps(
            {"type": "move", "id": "twice-1", "move": move, "version": game["version"]}
        )
        await ws.send(frame)
        await ws.send(frame)
        answers: list[dict[str, Any]] = []
        while len(answers) < 2:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            if message.get("id") == "twice-1":
                answers.append(message)
    return answers


def test_a_process_killed_mid_duel_loses_no_move_and_keeps_the_clock(
    static_collected: None, tmp_path: Path, user: Any, bob: Any
) -> None:
    first, second = start_pair(server_env() | UNPACED, tmp_path)
    try:
        duel, ada_game, bob_game = a_duel(user, bob)
        ada, bobs = session_cookie(user), session_cookie(bob)
        one, two = f"127.0.0.1:{first.port}", f"127.0.0.1:{second.port}"
        # Ada on the first process (the one killed), bob on the second; each knows both.
        seats = [FaultSeat(ada_game, ada, (one, two)), FaultSeat(bob_game, bobs, (two, one))]
        killed: list[float] = []

        async def inject() -> None:
            await asyncio.sleep(KILL_AFTER_S)
            first.process.kill()  # SIGKILL: no disconnect, no answer in flight sent
            first.process.wait(timeout=10)
            killed.append(time.monotonic())

        async def scenario() -> tuple[Any, ...]:
            # Both duel sockets open, as the pages hold them, each on its player's process.
            async with (
                duel_socket(one, str(duel.pk), ada) as ada_first,
                duel_socket(two, str(duel.pk), bobs) as bob_duel,
            ):
                ada_heard, bob_heard = Heard(ada_first), Heard(bob_duel)
                before, _ = await ada_heard.next_duel()
                await bob_heard.next_duel()
                plan = Plan(PLAY_S, rate=2.0, ranked=True)
                logs, _ = await play_all(seats, plan, inject, [None, None])
                # Ada's duel socket died with her process: her page opens it again on the
                # other; bob's, never cut, asks for the duel again (sync).
                async with duel_socket(two, str(duel.pk), ada) as ada_again:
                    ada_view = await Heard(ada_again).next_duel()
                    mark = len(bob_heard.messages)
                    await bob_duel.send(json.dumps({"type": "sync"}))
                    bob_view = await bob_heard.next_duel(mark)
                twice = await send_twice(two, ada_game, ada)
            progress = [m for m, at in bob_heard.messages if m["type"] == "progress"]
            return before, logs, [ada_view, bob_view], twice, progress, ada_heard.task.done()

        before, logs, after, twice, heard, ada_cut = asyncio.run(scenario())
    finally:
        for server in (first, second):
            if server.process.poll() is None:
                server.stop()

    ada_log, bob_log = logs
    assert killed, "the first process was never killed"
    # Ada's socket died under her and she carried on on the survivor; bob never noticed.
    assert ada_log.reconnects >= 1 and ada_log.gave_up is None, ada_log
    assert bob_log.gave_up is None and bob_log.anomalies == [], bob_log
    assert ada_log.anomalies == [], ada_log.anomalies
    # Both played on after the kill (at 2 a second, 8 s of play remained).
    after_kill = [a for log in logs for a in log.acks if a.at > killed[0] and not a.recheck]
    assert {a.game_id for a in after_kill} == {ada_game, bob_game}, after_kill
    # Every acknowledgement is its row of the log, once; nothing applied unacknowledged
    # but the frame sent twice below (its own socket, not the players' logs), once.
    audit = audit_moves(logs)
    assert (audit.lost, audit.doubled) == ([], []), audit
    assert audit.unacked_rows == [f"{ada_game}: twice-1 at {twice[0]['version']}"], audit
    assert audit.acked == audit.rows - 1 > 2 * PLAY_S, audit
    # A frame sent twice before its answer is applied once: accepted, then a duplicate.
    assert [a["type"] for a in twice] == ["accepted", "accepted"], twice
    assert [bool(a.get("duplicate")) for a in twice] == [False, True], twice
    assert twice[0]["version"] == twice[1]["version"], twice
    from games.models import Action

    assert Action.objects.filter(game_id=ada_game, client_id="twice-1").count() == 1
    # The clock: the same start and flag as before the kill, the time control less the
    # time since the start left (by the server's own clock), not a new ten minutes.
    started = datetime.fromisoformat(before["started_at"])
    for view, seen_at in after:
        assert view["state"] == "running" and view["outcome"] == "", view
        assert (view["started_at"], view["ends_at"]) == (before["started_at"], before["ends_at"])
        left = datetime.fromisoformat(view["ends_at"]) - datetime.fromisoformat(view["server_now"])
        expected = timedelta(seconds=duel.time_control) - (seen_at - started)
        assert abs(left - expected) < timedelta(seconds=2), (left, expected)
        assert left < timedelta(seconds=duel.time_control) - timedelta(seconds=PLAY_S)
        assert [s["connected"] for s in view["seats"]] == [True, True], view
        assert [s["forfeited"] for s in view["seats"]] == [False, False], view
    stored = Duel.objects.get(pk=duel.pk)
    assert stored.started_at == started and stored.state == Duel.State.RUNNING
    # Bob's duel socket heard ada's moves before the kill (across the two processes) and
    # after it (from the survivor), up to her last acknowledged version.
    assert ada_cut, "ada's first duel socket outlived its process"
    ada_versions = [m["version"] for m in heard if m["seat"] == 0]
    acked = max(a.version for a in ada_log.acks)
    assert acked in ada_versions, (acked, ada_versions)


def resign_both(user: Any, bob: Any, ada_game: str, bob_game: str) -> None:
    """Both players resign (ada after a draw, so the places are decided by the board)."""
    services.game_act(user=user, game_id=ada_game, kind="move", move="s", client_id="a1", version=0)
    services.game_act(user=user, game_id=ada_game, kind="resign", client_id="a2", version=1)
    services.game_act(user=bob, game_id=bob_game, kind="resign", client_id="b1", version=0)


def wait_until(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s")
        time.sleep(0.05)


def test_a_worker_killed_during_the_verification_moves_the_rating_once(
    workers: Any, user: Any, bob: Any
) -> None:
    doomed = workers()
    duel, ada_game, bob_game = a_duel(user, bob)
    resign_both(user, bob, ada_game, bob_game)
    # The kill lands as the worker takes the first verification: what it finished by then,
    # if anything, stays done; what it held unacknowledged stays in the broker's unacked
    # set (acks_late), handed out again only after the visibility timeout (an hour).
    doomed.wait_for("leaderboards.verify_game[", timeout=30)
    doomed.kill()
    workers()
    # The beat's sweep, at once instead of a minute later: it re-enqueues the games left
    # without a verdict and the duel left unrated.
    swept = sweep_now()
    wait_until(lambda: RatedDuel.objects.filter(duel=duel).exists(), 60, "the duel was rated")
    # The killed worker's messages, delivered again once their visibility timeout is over,
    # and the sweep's own again: each finds the work done and changes nothing.
    from leaderboards.tasks import rate_duel, rate_duel_of_game, verify_game

    for game_id in (ada_game, bob_game):
        verify_game.apply(args=[game_id])
        rate_duel_of_game.apply(args=[game_id])
    rate_duel.apply(args=[str(duel.pk)])
    sweep_now()
    time.sleep(2)  # what the sweep enqueued runs on the new worker meanwhile

    results = Result.objects.filter(game_id__in=[ada_game, bob_game])
    assert sorted(results.values_list("status", flat=True)) == [Result.Status.VERIFIED] * 2
    rated = RatedDuel.objects.get(duel=duel)
    places = dict(DuelSeat.objects.filter(duel=duel).values_list("seat", "place"))
    assert rated.places == [places[0], places[1]] and rated.skipped == "", (rated, swept)
    after = {r.user_id: (r.mu, r.sigma, r.duels) for r in DuelRating.objects.all()}
    assert sorted(after) == sorted([user.pk, bob.pk])
    assert [d for *_, d in after.values()] == [1, 1], after
    # A clean rating of the same verified results (every rating forgotten, the duel rated
    # again from its results) gives the same values: the duel counted once.
    assert duel_ratings_rebuild() == 1
    clean = {r.user_id: (r.mu, r.sigma, r.duels) for r in DuelRating.objects.all()}
    assert clean == after, (after, clean)
