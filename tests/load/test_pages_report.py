"""load.pages reads wrk's report (requests a second, the p99 in its unit, non-2xx answers)
and tabulates min/median/max over the repeats."""

from __future__ import annotations

import subprocess
from unittest import mock

import pytest

from load import pages

WRK_OUTPUT = """Running 5s test @ https://127.0.0.1:8443/
  2 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    21.30ms   30.12ms 402.11ms   91.20%
    Req/Sec   420.11    101.23   700.00     70.00%
  Latency Distribution
     50%   12.10ms
     75%   20.00ms
     90%   41.00ms
     99%    1.20s
  4201 requests in 5.00s, 80.00MB read
  Non-2xx or 3xx responses: 7
Requests/sec:    840.20
Transfer/sec:     16.00MB
"""


def test_it_reads_the_rate_the_p99_in_ms_and_the_failed_answers() -> None:
    done = subprocess.CompletedProcess([], 0, stdout=WRK_OUTPUT, stderr="")
    with mock.patch.object(pages.subprocess, "run", return_value=done):
        figures = pages.wrk("https://127.0.0.1:8443/", connections=16, duration=5)
    assert figures == {"per_second": 840.2, "p99_ms": 1200.0, "non_2xx": 7.0}


def test_it_refuses_a_report_it_cannot_read() -> None:
    done = subprocess.CompletedProcess([], 0, stdout="unable to connect", stderr="")
    with (
        mock.patch.object(pages.subprocess, "run", return_value=done),
        pytest.raises(RuntimeError, match="unable to connect"),
    ):
        pages.wrk("https://127.0.0.1:8443/", connections=16, duration=5)


def test_the_table_gives_min_median_max_of_each_layout() -> None:
    def run(daphne: float, gunicorn: float) -> dict:
        return {
            "daphne": {"home": {"per_second": daphne, "p99_ms": 100.0}},
            "gunicorn": {"home": {"per_second": gunicorn, "p99_ms": 10.0}},
        }

    table = pages.report([run(50, 500), run(70, 700), run(60, 900)])
    assert "| home | 50 / 60 / 70 | 100.0 | 500 / 700 / 900 | 10.0 |" in table


def test_a_signed_in_page_is_asked_for_with_the_players_cookies() -> None:
    done = subprocess.CompletedProcess([], 0, stdout=WRK_OUTPUT, stderr="")
    with mock.patch.object(pages.subprocess, "run", return_value=done) as run:
        pages.wrk("https://127.0.0.1:8443/", connections=16, duration=5, cookie="sessionid=abc")
        pages.wrk("https://127.0.0.1:8443/", connections=16, duration=5)
    signed_in, visitor = (call.args[0] for call in run.call_args_list)
    assert signed_in[-3:] == ["-H", "Cookie: sessionid=abc", "https://127.0.0.1:8443/"]
    assert not any(arg.startswith("Cookie") for arg in visitor)
