"""Many concurrent HTTP clients on one asyncio loop: each a keep-alive HTTP/1.1 connection
that asks for one page after another (as fast as it is answered) until the phase ends.

A client of its own rather than requests in threads: 200 threads of requests took most of
a core of this 2-core machine away from the servers being measured; a bare asyncio client
costs a fraction of that. It speaks only what daphne answers: a status line, headers, and a
body of a ``Content-Length``, chunked, or up to the end of the connection.
"""

from __future__ import annotations

import asyncio
import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

#: Pages a visitor reads, each a query or more: the health check, the home page, today's
#: board, the rules and the archive.
PAGES = ("/healthz", "/", "/boards/daily/", "/rules/", "/archive/")


@dataclass
class HttpTally:
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # the client's: reset, timeout
    latencies: list[float] = field(default_factory=list)  # ms, request sent -> body read
    busy: int = 0  # 503s with Retry-After: no database connection in time (ftsite.dbpool)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        answered = sum(self.statuses.values())
        ordered = sorted(self.latencies)
        return {
            "requests": answered,
            "per_second": round(answered / self.seconds, 1) if self.seconds else 0.0,
            "statuses": dict(sorted(self.statuses.items())),
            # Every 5xx but the busy 503 (a health check's 503 "database unavailable" has no
            # Retry-After: it counts here).
            "server_errors": sum(n for code, n in self.statuses.items() if code >= 500) - self.busy,
            "busy": self.busy,
            "client_errors": dict(self.errors),
            "p50_ms": round(statistics.median(ordered), 1) if ordered else None,
            "p99_ms": round(ordered[int(len(ordered) * 0.99)], 1) if ordered else None,
            "max_ms": round(ordered[-1], 1) if ordered else None,
        }


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bool]:
    """The status, the headers (lower-case names) and whether the server closes after."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionResetError("closed before the status line")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    closes = headers.get("connection", "").lower() == "close"
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while size := int((await reader.readline()).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readline()  # the empty trailer's line
    else:
        await reader.read()  # to the end of the connection
        closes = True
    return status, headers, closes


async def _client(
    host: str,
    port: int,
    pages: tuple[str, ...],
    stop_at: float,
    tally: HttpTally,
    rng: random.Random,
    timeout: float,
) -> None:
    writer: asyncio.StreamWriter | None = None
    reader: asyncio.StreamReader | None = None
    while perf_counter() < stop_at:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port)
            assert reader is not None
            path = rng.choice(pages)
            request = (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept-Language: en\r\n"
                "User-Agent: load.http_load\r\n\r\n"
            )
            sent = perf_counter()
            writer.write(request.encode())
            status, headers, closes = await asyncio.wait_for(_read_response(reader), timeout)
            tally.latencies.append((perf_counter() - sent) * 1000)
            tally.statuses[status] += 1
            if status == 503 and "retry-after" in headers:
                tally.busy += 1
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
            tally.errors[type(error).__name__] += 1
            closes = True
            await asyncio.sleep(0.05)  # no tight loop against a server that refuses
        if closes and writer is not None:
            writer.close()
            writer, reader = None, None
    if writer is not None:
        writer.close()


async def _drive(
    ports: list[int],
    clients: int,
    seconds: float,
    seed: int,
    timeout: float,
    pages: tuple[str, ...],
) -> HttpTally:
    tally = HttpTally(seconds=seconds)
    rng = random.Random(seed)
    start = perf_counter()
    stop_at = start + seconds
    await asyncio.gather(
        *(
            _client(
                "127.0.0.1",
                ports[n % len(ports)],
                pages,
                stop_at,
                tally,
                random.Random(rng.random()),
                timeout,
            )
            for n in range(clients)
        )
    )
    tally.seconds = perf_counter() - start
    return tally


def drive(
    ports: list[int],
    *,
    clients: int,
    seconds: float,
    seed: int = 1,
    timeout: float = 60.0,
    pages: tuple[str, ...] = PAGES,
) -> HttpTally:
    """``clients`` clients, spread evenly over the servers on ``ports``, each asking for
    ``pages`` at random for ``seconds``; a request unanswered after ``timeout`` seconds
    counts as a client error (and its connection is dropped)."""
    return asyncio.run(_drive(ports, clients, seconds, seed, timeout, pages))
