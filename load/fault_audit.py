"""What a fault run is judged by: the acknowledgements the clients saw against the move
log in PostgreSQL, the ranked results the verification wrote, and how long the players
took to get going again.

* **lost**: an ``accepted`` (or ``duplicate``) answer whose action is not the row of
  ``games_action`` with that game, that client message id and that version (``seq``).
* **doubled**: a client message id in a game's log more than once; a game whose versions
  are not exactly 1..n; a game whose ``version`` is not its number of actions; an id the
  clients saw accepted (not as a duplicate) twice, or at two versions.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from load.fault_client import PlayerLog


@dataclass
class MoveAudit:
    games: int = 0
    acked: int = 0  # distinct actions acknowledged (accepted or duplicate)
    duplicates: int = 0  # answers flagged duplicate (a re-sent id, applied before)
    rows: int = 0  # actions of these games in the log
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    unacked_rows: list[str] = field(default_factory=list)  # applied, never seen acknowledged


def audit_moves(logs: list[PlayerLog]) -> MoveAudit:
    """Every acknowledgement against the log (see the module's docstring)."""
    from games.models import Action, Game

    game_ids = [log.game_id for log in logs]
    result = MoveAudit(games=len(game_ids))
    at: dict[tuple[str, int], str] = {}
    by_game: dict[str, list[int]] = defaultdict(list)
    ids = Counter[tuple[str, str]]()
    rows = Action.objects.filter(game_id__in=game_ids).values_list("game_id", "seq", "client_id")
    for game_id, seq, client_id in rows.iterator(chunk_size=5000):
        game_id = str(game_id)
        at[(game_id, seq)] = client_id
        by_game[game_id].append(seq)
        if client_id:
            ids[(game_id, client_id)] += 1
        result.rows += 1
    result.doubled += [f"{g}: id {c} in the log {n} times" for (g, c), n in ids.items() if n > 1]
    versions = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    for pk, version in versions.items():
        seqs = sorted(by_game.get(str(pk), []))
        if seqs != list(range(1, len(seqs) + 1)):
            result.doubled.append(f"{pk}: versions {_gaps(seqs)} are not 1..{len(seqs)}")
        if version != len(seqs):
            result.doubled.append(f"{pk}: version {version} with {len(seqs)} actions")
    seen = _check_acks(logs, at, result)
    result.unacked_rows = [
        f"{g}: {c} at {seq}" for (g, seq), c in at.items() if c and (g, c) not in seen
    ]
    return result


def _check_acks(
    logs: list[PlayerLog], at: dict[tuple[str, int], str], result: MoveAudit
) -> set[tuple[str, str]]:
    """Each acknowledgement must be its row; returns the (game, id) pairs acknowledged."""
    versions: dict[tuple[str, str], set[int]] = defaultdict(set)
    applied = Counter[tuple[str, str]]()
    lost: dict[tuple[str, str, int], str] = {}
    for log in logs:
        for ack in log.acks:
            key = (ack.game_id, ack.client_id)
            versions[key].add(ack.version)
            applied[key] += not ack.duplicate
            result.duplicates += ack.duplicate and not ack.recheck
            found = at.get((ack.game_id, ack.version), "no row")
            if found != ack.client_id:  # each acknowledged action once, however often answered
                lost[(ack.game_id, ack.client_id, ack.version)] = found
    result.lost = [f"{g}: {c} acknowledged at {v}; the log: {f}" for (g, c, v), f in lost.items()]
    for (game_id, client_id), seen in versions.items():
        if len(seen) > 1:
            result.doubled.append(f"{game_id}: {client_id} acknowledged at versions {seen}")
        if applied[(game_id, client_id)] > 1:
            result.doubled.append(f"{game_id}: {client_id} accepted as new twice")
    result.acked = len(versions)
    return set(versions)


def _gaps(seqs: list[int]) -> str:
    text = ",".join(map(str, seqs[:5]))
    return text + (",..." if len(seqs) > 5 else "")


@dataclass
class RankedAudit:
    finished: int = 0  # ranked games of the run that ended
    active: int = 0  # ... still active at the end
    results: int = 0
    verified: int = 0
    ranked: int = 0  # verified and put on the board
    held: int = 0  # verified, held by the fair-play screen
    problems: list[str] = field(default_factory=list)


def audit_ranked(game_ids: list[str]) -> RankedAudit:
    """Every finished ranked game: exactly one result, and it verified."""
    from games.models import Game
    from leaderboards.models import Result

    result = RankedAudit()
    games = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "status"))
    rows = Result.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "status", "reason", "ranked_at", "review"
    )
    per_game: dict[Any, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        per_game[row[0]].append(row)
    for pk, status in games.items():
        mine = per_game.get(pk, [])
        if status == Game.Status.ACTIVE:
            result.active += 1
            if mine:
                result.problems.append(f"{pk}: active, yet {len(mine)} result(s)")
            continue
        result.finished += 1
        result.results += len(mine)
        if len(mine) != 1:
            result.problems.append(f"{pk} ({status}): {len(mine)} results, not 1")
            continue
        _, verdict, reason, ranked_at, review = mine[0]
        if verdict != Result.Status.VERIFIED:
            result.problems.append(f"{pk} ({status}): result {verdict} {reason[:80]}")
            continue
        result.verified += 1
        result.ranked += ranked_at is not None
        result.held += review == Result.Review.HELD
    return result


def unverified(game_ids: list[str]) -> int:
    """Finished games of the run without a decided result (what the sweep must catch)."""
    from games.models import Game
    from leaderboards.models import Result

    decided = (Result.Status.VERIFIED, Result.Status.REJECTED)
    finished = Game.objects.filter(pk__in=game_ids).exclude(status=Game.Status.ACTIVE)
    return finished.exclude(result__status__in=decided).count()


def recovery(logs: list[PlayerLog], restored: list[float]) -> dict[str, float | None]:
    """How long play stalled: for each moment a service was back (or a process died, when
    nothing comes back), the time until every player still playing had an action
    accepted again; and the longest gap between two acknowledgements of one player."""
    played = [[a for a in log.acks if not a.recheck] for log in logs]
    worst = None
    for t in restored:
        firsts = [
            min(a.at for a in acks if a.at > t) - t
            for acks in played
            if acks[-1:] and acks[-1].at > t
        ]
        if firsts:
            worst = max(worst or 0.0, max(firsts))
    gaps = [b.at - a.at for acks in played for a, b in zip(acks, acks[1:], strict=False)]
    reconnects = [s for log in logs for s in log.reconnect_s]
    return {
        "recover_s": _round(worst),
        "gap_max_s": _round(max(gaps, default=None)),
        "reconnect_p50_s": _round(statistics.median(reconnects) if reconnects else None),
        "reconnect_max_s": _round(max(reconnects, default=None)),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def client_figures(logs: list[PlayerLog]) -> dict[str, Any]:
    """The clients' side of a run, summed over the players."""
    total = Counter[str]()
    drops, connects, refused, rechecks = (
        Counter[str](),
        Counter[str](),
        Counter[str](),
        Counter[str](),
    )
    anomalies: list[str] = []
    for log in logs:
        total.update(sent=log.sent, resent=log.resent, reconnects=log.reconnects, stuck=log.stuck)
        total.update(reconnected_players=log.reconnects > 0, finished=log.finished is not None)
        total.update(rechecked=log.rechecked)
        rechecks.update(log.recheck_failures)
        drops.update(log.drops)
        connects.update(log.connect_failures)
        refused.update(log.refused)
        anomalies += log.anomalies
        if log.gave_up:
            anomalies.append(f"game {log.game_id}: gave up: {log.gave_up}")
        if log.unresolved:
            anomalies.append(f"game {log.game_id}: {log.unresolved} never answered")
    return {
        **{k: total[k] for k in ("sent", "resent", "reconnects", "reconnected_players")},
        **{k: total[k] for k in ("stuck", "finished", "rechecked")},
        "recheck_connect_failures": dict(rechecks),
        "drops": dict(drops),
        "connect_failures": dict(connects),
        "refused": dict(refused),
        "anomalies": anomalies,
    }
