"""Live servers for the browser and integration tiers: a free port, a real ``daphne``
process (as compose.yaml's socket services run) or ``gunicorn`` (its pages service),
waiting until it answers, and stopping it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASGI_APP = "ftsite.asgi:application"

# uvicorn in place of daphne, for the comparison in docs/research/web-server.md: the
# same application on asyncio (uvloop), httptools and websockets' sans-I/O protocol, with
# no compression (autobahn under daphne negotiates none) and no proxy headers (the project
# reads X-Forwarded-For itself). Not a project dependency: `.venv/bin/pip install uvicorn
# httptools uvloop`, then FT_SERVER=uvicorn for any tier or load run.
UVICORN = [
    "-m", "uvicorn", "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio",
    "--ws-per-message-deflate", "false", "--lifespan", "off", "--no-proxy-headers",
]  # fmt: skip


# The socket processes' allocator, as compose.yaml's web services set it (x-web; a test
# compares the two): jemalloc, preloaded, for Python's objects too (ftsite/allocator.py
# says why). Only where Debian's libjemalloc2 is installed (redis-server depends on it);
# elsewhere the process runs on glibc's allocator, as a bare checkout does.
JEMALLOC = Path("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2")
WEB_ALLOCATOR_ENV = {
    "LD_PRELOAD": "libjemalloc.so.2",
    "PYTHONMALLOC": "malloc",
    "MALLOC_CONF": "background_thread:true,dirty_decay_ms:1000",
}


def web_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` for a socket process: :data:`WEB_ALLOCATOR_ENV` where jemalloc is installed,
    unless ``env`` sets those names itself (a benchmark comparing allocators)."""
    if not JEMALLOC.exists():
        return env
    return WEB_ALLOCATOR_ENV | env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self, timeout: float = 10) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()


def server_command(port: int, app: str) -> list[str]:
    """The server process's command: daphne, as deployed, unless FT_SERVER=uvicorn."""
    if os.environ.get("FT_SERVER", "daphne") == "uvicorn":
        return [sys.executable, *UVICORN, "--host", "127.0.0.1", "--port", str(port), app]
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app]


def pages_command(port: int) -> list[str]:
    """The pages' server (gunicorn's threaded workers on ``ftsite.wsgi``), as compose.yaml's
    pages service runs it; its workers and threads come from ``FT_PAGES_*`` in the env."""
    return [
        sys.executable, "-m", "gunicorn", "-c", "python:ftsite.gunicorn",
        "--bind", f"127.0.0.1:{port}", "ftsite.wsgi:application",
    ]  # fmt: skip


def start_pages(env: dict[str, str], log_dir: Path, *, port: int | None = None) -> Server:
    """A ``gunicorn`` pages server with ``env`` (``FT_PAGES_WORKERS``, ``FT_PAGES_THREADS``),
    started and awaited as :func:`start_server` starts daphne."""
    port = port or free_port()
    return start_server(env, log_dir, port=port, command=pages_command(port), name="gunicorn")


def start_server(
    env: dict[str, str],
    log_dir: Path,
    *,
    ready_path: str = "/healthz",
    app: str = ASGI_APP,
    port: int | None = None,
    command: list[str] | None = None,
    name: str = "daphne",
) -> Server:
    """A ``daphne`` process serving ``app`` on ``port`` (a free one by default) with
    ``env`` (or ``command``, another server on that port); returns once ``ready_path``
    answers (within 30 s), or raises with the end of its log."""
    port = port or free_port()
    log = log_dir / f"{name}-{port}-{time.time_ns() % 10**6}.log"
    process = subprocess.Popen(
        command or server_command(port, app),
        cwd=ROOT,
        env=env if command else web_env(env),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    server = Server(port, process, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited early:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(f"{server.http}{ready_path}", timeout=2).close()
            return server
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{name} did not answer within 30 s:\n{log.read_text()[-3000:]}")
