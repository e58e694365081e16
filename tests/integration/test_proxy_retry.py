"""When nginx may send a request to a second process (the template's proxy_next_upstream
rules), measured against upstreams of the test's own that count what reaches them: a
refused connection is tried on the other process, a request that timed out reading is not
(issue 37: one slow all-time board ran on both processes for 240 s, then answered 504).

The template's 120 s read timeout is shortened to 4 s here, still longer than the 3 s retry
window, which is the relation the template keeps (tests/test_proxy_config.py)."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.test_proxy import nginx_installed  # noqa: F401 (a module fixture)
from tests.support.proxy import Proxy, start_proxy
from tests.support.servers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

READ_TIMEOUTS = {
    "proxy_read_timeout 120s;": "proxy_read_timeout 4s;",
    "proxy_send_timeout 120s;": "proxy_send_timeout 4s;",
}


class Upstream:
    """A listening socket that counts the requests it reads and answers them (200) or
    never (``hang``)."""

    def __init__(self, *, hang: bool) -> None:
        self.hang, self.requests = hang, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                conn.close()
                return
            data += chunk
        self.requests += 1
        if self.hang:
            self.held.append(conn)  # never answered, closed at the end
            return
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        conn.close()

    def close(self) -> None:
        self.listener.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def upstreams(tmp_path: Path) -> Iterator[tuple[list[Upstream], Path]]:
    made: list[Upstream] = []
    yield made, tmp_path
    for upstream in made:
        upstream.close()


def get(proxy: Proxy, path: str) -> int:
    conn = http.client.HTTPSConnection(
        "127.0.0.1", proxy.port, context=proxy.ssl_context(), timeout=30
    )
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_page_that_timed_out_is_not_sent_to_the_other_process(upstreams) -> None:
    made, folder = upstreams
    made += [Upstream(hang=True), Upstream(hang=True)]
    proxy = start_proxy(
        [free_port()], folder, folder, pages=[u.port for u in made], replace=READ_TIMEOUTS
    )
    try:
        started = time.monotonic()
        assert get(proxy, "/boards/all/") == 504
        assert 3.5 < time.monotonic() - started < 8
        time.sleep(0.5)
        assert sorted(u.requests for u in made) == [0, 1]
    finally:
        proxy.stop()


def test_a_refused_connection_is_tried_on_the_other_process(upstreams) -> None:
    made, folder = upstreams
    made.append(Upstream(hang=False))
    dead = free_port()  # nothing listens there
    proxy = start_proxy([free_port()], folder, folder, pages=[dead, made[0].port])
    try:
        assert all(get(proxy, "/rules/") == 200 for _ in range(4))
        assert made[0].requests == 4
    finally:
        proxy.stop()
