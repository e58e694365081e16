"""The tiers' and the load runs' server: daphne, as compose.yaml deploys it, unless
FT_SERVER=uvicorn asks for the comparison's uvicorn (docs/research/web-server.md);
and ``load.profile`` charges either server's frames to the server's layer."""

from __future__ import annotations

import pytest

from load.profile import layer_of
from tests.support.servers import server_command

SERVER_LAYER = "server: daphne, Twisted, autobahn / uvicorn, websockets"


def test_it_serves_with_daphne_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FT_SERVER", raising=False)
    command = server_command(8123, "ftsite.asgi:application")
    assert command[1:3] == ["-m", "daphne"]
    assert command[-5:] == ["-b", "127.0.0.1", "-p", "8123", "ftsite.asgi:application"]


def test_uvicorn_reads_no_proxy_headers_and_negotiates_no_compression(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FT_SERVER", "uvicorn")
    command = server_command(8123, "load.asgi:application")
    assert command[1:3] == ["-m", "uvicorn"]
    # One trusted-proxy mechanism: the project's own (FT_TRUSTED_PROXIES), never uvicorn's.
    assert "--no-proxy-headers" in command
    # As autobahn under daphne: no permessage-deflate, whatever the client offers.
    assert command[command.index("--ws-per-message-deflate") + 1] == "false"
    assert command[-5:] == ["--host", "127.0.0.1", "--port", "8123", "load.asgi:application"]


@pytest.mark.parametrize(
    "path",
    [
        "/venv/site-packages/daphne/ws_protocol.py",
        "/venv/site-packages/autobahn/websocket/protocol.py",
        "/venv/site-packages/uvicorn/protocols/websockets/websockets_sansio_impl.py",
        "/venv/site-packages/websockets/http11.py",
    ],
)
def test_profiles_charge_either_servers_frames_to_the_server(path: str) -> None:
    assert layer_of(path) == SERVER_LAYER
