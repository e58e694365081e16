"""The markdown tables of a load run: the issue's table (one row per player count, the
median with min-max when repeated) and a health table that says whether to trust it."""

from __future__ import annotations

from typing import Any


def figure(spread: dict[str, float | None], digits: int = 1) -> str:
    """``median`` alone for one run, ``median [min-max]`` for several.

    >>> figure({"min": 1.0, "median": 2.0, "max": 3.0}), figure({"min": 2, "median": 2, "max": 2})
    ('2.0 [1.0-3.0]', '2.0')
    """
    mid = spread["median"]
    if mid is None:
        return "-"
    low, high = spread["min"], spread["max"]
    if low == high:
        return f"{mid:.{digits}f}"
    return f"{mid:.{digits}f} [{low:.{digits}f}-{high:.{digits}f}]"


def main_table(report: dict[str, Any]) -> list[str]:
    args = report["args"]
    closed = args["closed"]
    head = "players, closed loop" if closed else f"players x {args['rate']:g} move/s"
    lines = [
        f"| {head} | project: moves/s, ack p50 / p99 | echo: msgs/s, ack p50 / p99 |",
        "|---|---|---|",
    ]
    for entry in report["aggregate"]:
        cells = []
        for side in ("project", "echo"):
            s = entry.get(side)
            cells.append(
                "-"
                if s is None
                else f"{figure(s['per_s'])}/s, {figure(s['p50_ms'])} / {figure(s['p99_ms'])} ms"
            )
        lines.append(f"| {entry['players']} | {cells[0]} | {cells[1]} |")
    return lines


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value} ms"


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) or "0"


def _mismatch(p: dict[str, Any]) -> str:
    """Nothing when every committed move was answered; else what the gap is: answers that
    never came (lost: committed, then the socket waited past the timeout) or worse."""
    if p["durable_ok"]:
        return ""
    if p["durable"] == p["acked_total"] + p["lost"]:
        return f" (+{p['lost']} committed, never answered)"
    return " MISMATCH"


def _echo_health(e: dict[str, Any] | None) -> str:
    if e is None:
        return "-"
    failures = f"{_counts(e['dropped'])} / {_counts(e['connect_failures'])}"
    return f"{e['lost']}, {failures}, {_counts(e['server_log'])}"


def health_table(report: dict[str, Any]) -> list[str]:
    lines = [
        "| players | run | refused | lost | dropped / conn. failures | late | client lag p99"
        " | durable / accepted | server log | watchers: gaps + unarrived / versions, fan-out"
        " p50 / p99 | echo: lost, dropped / failures, server log |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["rows"]:
        p = row["project"]
        watchers = "-"
        if p["watchers"]:
            watchers = (
                f"{p['missed_versions']} + {p['unarrived_versions']} / {p['watched_versions']}"
                f" ({p['watchers']} sockets), {_ms(p['fanout_p50_ms'])} / {_ms(p['fanout_p99_ms'])}"
            )
        failures = f"{_counts(p['dropped'])} / {_counts(p['connect_failures'])}"
        if p["errors"]:
            failures += f"; client errors {_counts(p['errors'])}"
        lines.append(
            f"| {row['players']} | {row['repeat']} | {_counts(p['refused'])} | {p['lost']}"
            f" | {failures} | {p['late']} | {_ms(p['client_lag_p99_ms'])}"
            f" | {p['durable']} / {p['acked_total']}{_mismatch(p)}"
            f" | {_counts(p['server_log'])} | {watchers} | {_echo_health(row.get('echo'))} |"
        )
    return lines


def print_tables(report: dict[str, Any]) -> None:
    args = report["args"]
    print(
        f"\n{args['servers']} server(s), {args['duration']:g} s measured after"
        f" {args['warmup']:g} s warm-up, {len(report['rows'])} phase(s)"
        f" (load average after: {', '.join(f'{x:.1f}' for x in report['load_average_after'])})\n"
    )
    print("\n".join(main_table(report)))
    print()
    print("\n".join(health_table(report)))
    for row in report["rows"]:
        if "profile" in row["project"]:
            print(f"\nprofile ({row['players']} players): {row['project']['profile']}")
            md = row["project"]["profile"].removesuffix(".json") + ".md"
            print(f"  where the time goes (by layer and function): {md}")
