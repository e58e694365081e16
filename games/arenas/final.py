"""An arena's final table (docs/arenas.md, "The final table"): the record written once at
its finish (:func:`final_table_record`, kept on ``Arena.final_table`` and never rewritten)
and the table as its page shows it (:func:`arena_final_table`).

The record says it was verified: its places come only from results verification accepted
(a round is settled only once every played game has its verdict), and it lists the plays
verification refused, which earned nothing. Players are kept by id, never by name: a
renamed player shows the new name, a deleted account's row stays, unnamed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from games.arenas.models import Arena, ArenaPlay, ArenaRound
from games.arenas.selectors import arena_standings
from games.models import User

#: The record's layout; a later change of layout gets a new number, old records stay.
RECORD_VERSION = 1


def final_table_record(*, arena: Arena) -> dict[str, Any]:
    """The final table of ``arena`` as it is now (called at its finish, every round
    settled): the ranked rows, the plays verification refused, and whether every placed
    result was a verified one (``verified``), with a digest of all of it."""
    rows = [
        {
            "rank": s.rank,
            "player": player_id,
            "points": s.points,
            "rounds_played": s.rounds_played,
            "left": not s.is_in,
        }
        for s, player_id in _standings_with_players(arena)
    ]
    plays = ArenaPlay.objects.filter(round__arena=arena)
    excluded = [
        {"round": number, "player": player}
        for number, player in plays.filter(verdict=ArenaPlay.Verdict.REJECTED)
        .order_by("round__number", "entry__player_id")
        .values_list("round__number", "entry__player_id")
    ]
    unsettled = ArenaRound.objects.filter(arena=arena, settled_at__isnull=True).exists()
    placed_unverified = (
        plays.filter(place__isnull=False).exclude(verdict=ArenaPlay.Verdict.VERIFIED).exists()
    )
    body = {
        "version": RECORD_VERSION,
        "verified": not unsettled and not placed_unverified,
        "rounds": ArenaRound.objects.filter(arena=arena).count(),
        "results_counted": plays.filter(place__isnull=False).count(),
        "rows": rows,
        "excluded": excluded,
    }
    return {**body, "digest": record_digest(body)}


def record_digest(body: dict[str, Any]) -> str:
    """SHA-256 of the record without its digest, keys sorted: a record changed by hand
    no longer matches its digest."""
    content = {k: v for k, v in body.items() if k != "digest"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _standings_with_players(arena: Arena) -> list[tuple[Any, int]]:
    table = arena_standings(arena=arena)
    players = dict(arena.entries.values_list("pk", "player_id"))
    return [(s, players[s.entry]) for s in table]


@dataclass(frozen=True)
class FinalRow:
    rank: int
    name: str
    points: int
    rounds_played: int
    left: bool
    is_viewer: bool


@dataclass(frozen=True)
class Excluded:
    round: int
    name: str


@dataclass(frozen=True)
class FinalTable:
    """The kept table as the page shows it: names read now (a deleted account's is
    empty), and whether the record still matches its digest."""

    verified: bool
    intact: bool
    digest: str
    rounds: int
    results_counted: int
    rows: list[FinalRow]
    excluded: list[Excluded]


def arena_final_table(*, arena: Arena, viewer_id: int | None = None) -> FinalTable | None:
    """The final table kept at ``arena``'s finish; ``None`` before it."""
    record = arena.final_table
    if not isinstance(record, dict):
        return None
    ids = {r["player"] for r in record["rows"]} | {x["player"] for x in record["excluded"]}
    names = {
        row["pk"]: User.public_name_of(**{k: row[k] for k in User.PUBLIC_NAME_FIELDS})
        for row in User.objects.filter(pk__in=ids).values("pk", *User.PUBLIC_NAME_FIELDS)
    }
    return FinalTable(
        verified=bool(record["verified"]),
        intact=record_digest(record) == record.get("digest"),
        digest=str(record.get("digest", "")),
        rounds=int(record["rounds"]),
        results_counted=int(record["results_counted"]),
        rows=[
            FinalRow(
                rank=r["rank"],
                name=names.get(r["player"], ""),
                points=r["points"],
                rounds_played=r["rounds_played"],
                left=r["left"],
                is_viewer=r["player"] == viewer_id,
            )
            for r in record["rows"]
        ],
        excluded=[
            Excluded(round=x["round"], name=names.get(x["player"], "")) for x in record["excluded"]
        ],
    )
