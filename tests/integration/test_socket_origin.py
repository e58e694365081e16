"""The sockets' origin check on the real servers (``ftsite.origins``, issue 37): a page on
another port of an allowed host (here: the other daphne process) may not open a socket;
the server's own origin may."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.support.servers import Server

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(90),
]


def test_a_socket_opens_only_from_the_server_s_own_origin(servers: tuple[Server, Server]) -> None:
    server, other = servers
    url = f"{server.ws}/ws/boards/daily/{date.today().isoformat()}/"

    async def opens(origin: str) -> bool:
        try:
            async with connect(url, origin=origin, open_timeout=10):  # type: ignore[arg-type]
                return True
        except InvalidStatus as refused:
            assert refused.response.status_code == 403
            return False

    assert asyncio.run(opens(server.http))
    assert not asyncio.run(opens(other.http))  # 127.0.0.1, another port
    assert not asyncio.run(opens(server.http.replace("http://", "https://")))
    assert not asyncio.run(opens(server.http.replace("127.0.0.1", "localhost")))
