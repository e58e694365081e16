"""A password-reset request takes the same time for a known and an unknown address (issue
21: 52-83 ms against 9-20 ms while the mail was sent in the request). Measured against a
real daphne process with the mail on a real Celery worker: the medians of interleaved
requests within 5 ms (the median of the paired differences, robust to the shared machine's
drifting load), and the mail still reaches the known address (and only it)."""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import pytest
import requests

from games.models import User
from tests.integration.conftest import server_env
from tests.support.servers import start_server

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

ROUNDS, WARM_UP = 40, 5
KNOWN, UNKNOWN = "ada@example.org", "nobody@example.org"


def _reset(http: requests.Session, url: str, email: str) -> float:
    page = http.get(url, timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, page.text[:500]
    started = time.perf_counter()
    answer = http.post(
        url,
        data={"email": email, "csrfmiddlewaretoken": token.group(1)},
        allow_redirects=False,
        timeout=30,
    )
    elapsed = time.perf_counter() - started
    assert answer.status_code == 302, answer.text[:500]
    return elapsed


def test_a_reset_request_takes_as_long_for_a_known_address_as_for_an_unknown_one(
    user: User, workers, static_collected: None, tmp_path: Path
) -> None:
    user.email = "ada@example.org"
    user.save()
    worker = workers(EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")
    env = {**server_env(), "FT_RATE_PASSWORD_RESETS": "100000/h"}
    server = start_server(env, tmp_path, ready_path="/rules/")
    try:
        url = f"{server.http}/accounts/password/reset/"
        pairs: list[tuple[float, float]] = []
        with requests.Session() as http:
            for n in range(WARM_UP + ROUNDS):
                # Back to back, in alternating order: a pair shares the machine's load of
                # the moment (other engineers' runs share it), which drifts over a run.
                first, second = (KNOWN, UNKNOWN) if n % 2 else (UNKNOWN, KNOWN)
                times = {first: _reset(http, url, first), second: _reset(http, url, second)}
                if n >= WARM_UP:
                    pairs.append((times[KNOWN], times[UNKNOWN]))
    finally:
        server.stop()
    known = statistics.median(k for k, _ in pairs) * 1000
    unknown = statistics.median(u for _, u in pairs) * 1000
    paired = statistics.median(k - u for k, u in pairs) * 1000
    print(
        f"median known {known:.1f} ms, unknown {unknown:.1f} ms, paired difference {paired:.1f} ms"
    )
    assert abs(paired) < 5.0, (known, unknown, paired)
    # The mails went out from the worker: one per request for the known address only.
    deadline = time.monotonic() + 60
    while worker.text().count("To: ada@example.org") < WARM_UP + ROUNDS:
        assert time.monotonic() < deadline, worker.text()[-3000:]
        time.sleep(0.5)
    assert "nobody@example.org" not in worker.text()
