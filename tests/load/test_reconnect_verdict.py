"""``load.reconnect``'s exit status puts correctness before speed: 1 when a socket failed or
got no hello (however fast the storm), 2 when every socket got its state but a storm was
under the target, 0 otherwise; and ``load.stats.by_second`` puts each answer in the second
it was sent in."""

from __future__ import annotations

from typing import Any

from load.reconnect import verdict
from load.stats import Tally, by_second


def _storm(per_s: float, connected: int = 10, failures: dict[str, int] | None = None) -> dict:
    return {"sockets": 10, "connected": connected, "failures": failures or {}, "per_s": per_s}


def _row(cold: dict[str, Any], warm: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"cold": cold, "warm": warm or _storm(900.0), "echo": _storm(2000.0)}


def test_a_storm_that_lost_a_socket_fails_however_fast() -> None:
    assert verdict([_row(_storm(900.0, failures={"4500": 1}))], 500) == 1
    assert verdict([_row(_storm(900.0, connected=9))], 500) == 1


def test_a_correct_storm_under_the_target_exits_2_and_over_it_0() -> None:
    assert verdict([_row(_storm(900.0)), _row(_storm(499.0))], 500) == 2
    assert verdict([_row(_storm(900.0)), _row(_storm(501.0))], 500) == 0


def test_answers_are_bucketed_by_the_second_they_were_sent_in() -> None:
    tally = Tally()
    for sent, got in ((10.0, 10.002), (10.5, 10.6), (11.2, 11.21), (13.9, 13.95)):
        tally.accepted(sent, got, True, undo=False)
    seconds = by_second(tally)
    assert [s["second"] for s in seconds] == [1, 2, 4]
    assert [s["answers"] for s in seconds] == [2, 1, 1]
    assert seconds[0]["max_ms"] == 100.0 and seconds[0]["over_50_ms"] == 1
