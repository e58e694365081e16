"""What the game socket and the solver pool tell the operator (Prometheus, prometheus_client).

Each web process counts its own: the numbers live in the process's default registry and
``ftsite.metrics`` serves them on the process's metrics port, one scrape target per
process (Prometheus adds the ``instance`` label, and ``sum``/``histogram_quantile`` over
``rate(...)`` combine the processes; docs/operations.md). Updating one is a few hundred
nanoseconds under a lock of its own: nothing here touches the database or Redis.

Label values are always the server's own, bounded sets: a close code a client chose is
counted as ``other`` unless the protocol knows it, so no client can make new series.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from games.solver import core as solver_core

# Seconds: a warm action is ~2 ms, a first one after a start ~0.3 s (docs/benchmarks.md).
ACK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

MOVE_ACK = Histogram(
    "ft_move_ack_seconds",
    "From a move, undo or resign frame's arrival to its answer being sent (socket)",
    ["kind"],
    buckets=ACK_BUCKETS,
)
CONNECT = Histogram(
    "ft_socket_connect_seconds",
    "From a game socket's handshake to its hello (session, access, group, state)",
    buckets=ACK_BUCKETS,
)
CONNECTS = Counter("ft_socket_connects", "Game sockets opened (handshakes accepted)")
DISCONNECTS = Counter("ft_socket_disconnects", "Game sockets closed, by close code", ["code"])
OPEN = Gauge("ft_sockets_open", "Game sockets open now, past their hello")
REFUSALS = Counter("ft_refusals", "Refusals sent on game sockets, by protocol code", ["code"])
SOLVER_JOBS = Gauge("ft_solver_pool_jobs", "Solver pool searches running or queued", ["kind"])
SOLVER_WAITING = Gauge(
    "ft_solver_pool_waiting", "Dead-end checks waiting for a free solver process"
)
SOLVER_SKIPPED = Counter(
    "ft_solver_pool_skipped", "Dead-end checks skipped because the pool's queue was full"
)
SOLVER_CORE = Gauge(
    "ft_solver_core",
    "The solver's search core in this process: 1 for the one running (c or python)",
    ["backend"],
)
for _backend in (solver_core.COMPILED, solver_core.PYTHON):
    SOLVER_CORE.labels(_backend).set(1 if _backend == solver_core.BACKEND else 0)

# Every series an operator graphs from the start exists from the start (at 0).
for _kind in ("move", "undo", "resign"):
    MOVE_ACK.labels(_kind)
for _kind in ("hint", "dead_end"):
    SOLVER_JOBS.labels(_kind)
for _code in ("1000", "1001", "1006", "4500"):  # left, went away, vanished, try again
    DISCONNECTS.labels(_code)

# Close codes worth a series of their own (RFC 6455 and docs/protocol.md).
KNOWN_CLOSE_CODES = frozenset(
    {1000, 1001, 1005, 1006, 1011, 1012, 4008, 4009, 4401, 4403, 4404, 4500}
)


def close_code_label(code: object) -> str:
    """The label of a close code: known codes as themselves, anything else ``other``.

    >>> close_code_label(1001), close_code_label(4123), close_code_label(None)
    ('1001', 'other', 'other')
    """
    return str(code) if code in KNOWN_CLOSE_CODES else "other"
