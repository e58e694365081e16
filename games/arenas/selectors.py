"""Reads of arenas: one arena, its rounds' slots, the lists of the arenas page, the
standings table and what a visitor sees of an arena (their entry, their round's game)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.arenas.messages import StandingRow, StandingsMessage
from games.arenas.models import Arena, ArenaEntry, ArenaPlay, ArenaRound
from games.engine.ranking import competition_ranks
from games.errors import NotFound
from games.models import User


def arena_read(*, arena_id: object) -> Arena:
    """The arena ``arena_id`` names; ``NotFound`` for any other value."""
    try:
        pk = int(str(arena_id))
    except ValueError:
        raise NotFound(f"{arena_id!r} is not an arena id") from None
    arena = Arena.objects.filter(pk=pk).first()
    if arena is None:
        raise NotFound("there is no such arena")
    return arena


def arena_slot(arena: Arena, number: int) -> tuple[datetime, datetime]:
    """Round ``number``'s slot: it opens at the start (unless the sweep came late) and
    closes at the end; rounds follow each other without a gap."""
    step = timedelta(minutes=arena.round_minutes)
    start = arena.starts_at + step * (number - 1)
    return start, start + step


def arena_state(arena: Arena, *, now: datetime) -> str:
    """``upcoming`` before its start, ``running`` until its last round is settled (the
    last results are verified after its end), then ``finished``."""
    if arena.finished_at is not None:
        return "finished"
    return "upcoming" if now < arena.starts_at else "running"


def arena_lists(
    *, now: datetime | None = None, limit: int = 20, league_id: int | None = None
) -> dict[str, list[Arena]]:
    """The three lists of the site's arenas (``league_id`` empty: the arenas page; a
    league's are only on the league's page) or of one league's: upcoming (soonest first),
    running, finished (latest first)."""
    now = now or timezone.now()
    arenas = Arena.objects.filter(league_id=league_id)
    return {
        "running": list(
            arenas.filter(finished_at__isnull=True, starts_at__lte=now).order_by("starts_at")[
                :limit
            ]
        ),
        "upcoming": list(arenas.filter(starts_at__gt=now).order_by("starts_at")[:limit]),
        "finished": list(arenas.filter(finished_at__isnull=False).order_by("-starts_at")[:limit]),
    }


@dataclass(frozen=True)
class Standing:
    """One row of an arena's table."""

    entry: int
    rank: int
    name: str
    points: int
    rounds_played: int
    is_in: bool
    is_viewer: bool


def arena_standings(*, arena: Arena, viewer_id: int | None = None) -> list[Standing]:
    """The table: most points first, then more rounds played; equal on both share a rank
    ("1, 1, 3"). Players who left stay, marked."""
    entries = list(
        ArenaEntry.objects.filter(arena=arena)
        .select_related("player")
        .order_by("-points", "-rounds_played", "joined_at", "pk")
    )
    ranks = competition_ranks([(e.points, e.rounds_played) for e in entries])
    return [
        Standing(
            entry=e.pk,
            rank=rank,
            name=e.player.public_name,
            points=e.points,
            rounds_played=e.rounds_played,
            is_in=e.left_at is None,
            is_viewer=e.player_id == viewer_id,
        )
        for rank, e in zip(ranks, entries, strict=True)
    ]


def arena_view(
    *, user: User | AnonymousUser | None, arena: Arena, now: datetime | None = None
) -> dict[str, Any]:
    """What the arena's page shows ``user``: the state, the rounds so far, the viewer's
    entry and their latest round's game, and whether they may join or leave now."""
    now = now or timezone.now()
    viewer = user if isinstance(user, User) and user.is_authenticated else None
    entry = ArenaEntry.objects.filter(arena=arena, player=viewer).first() if viewer else None
    state = arena_state(arena, now=now)
    rounds = list(ArenaRound.objects.filter(arena=arena).order_by("number"))
    last_open, _ = arena_slot(arena, arena.round_count)
    lead = timedelta(seconds=settings.FT_ARENA_LEAD_SECONDS)
    joinable = (
        state != "finished"
        and now < last_open - lead
        and now < arena.ends_at
        and not any(r.number >= arena.round_count for r in rounds)
    )
    play = None
    if entry is not None:
        play = (
            ArenaPlay.objects.filter(entry=entry)
            .select_related("round", "game")
            .order_by("-round__number")
            .first()
        )
    live = play if play is not None and not play.game.is_finished else None
    return {
        "state": state,
        "rounds": rounds,
        "round_count": arena.round_count,
        "entry": entry,
        "is_in": entry is not None and entry.left_at is None,
        "may_join": joinable and (entry is None or entry.left_at is not None),
        "may_leave": state != "finished"
        and now < arena.ends_at
        and entry is not None
        and entry.left_at is None,
        # The table is offered from the round's open (its games are made a little ahead:
        # before the open the page says when, rather than a table that refuses moves).
        "play": live if live is not None and live.round.opens_at <= now else None,
        "next_play": live if live is not None and live.round.opens_at > now else None,
        "standings": _shown(arena_standings(arena=arena, viewer_id=viewer.pk if viewer else None)),
        "socket_path": f"/ws/arenas/{arena.pk}/",
    }


def _shown(table: list[Standing]) -> list[Standing]:
    """The table as the page and the live table show it: the top :data:`LIVE_ROWS`, then
    the viewer's own row when it is further down."""
    top = table[:LIVE_ROWS]
    mine = [s for s in table[LIVE_ROWS:] if s.is_viewer]
    return top + mine


def arena_finishes_for_player(*, user: User, limit: int = 5) -> dict[str, Any] | None:
    """The player's finished arenas (those where they played a round), newest first, each
    with the final place and points (the table's: most points, then more rounds played;
    equal on both share a place) and whether they won it (first place with points: a
    table of zeros has no winner); and how many they played and won. ``None`` for a
    player who has played in none. One query, however many arenas."""
    ahead = (
        ArenaEntry.objects.filter(arena=OuterRef("arena"))
        .filter(
            Q(points__gt=OuterRef("points"))
            | Q(points=OuterRef("points"), rounds_played__gt=OuterRef("rounds_played"))
        )
        .values("arena")
        .annotate(n=Count("pk"))
        .values("n")
    )
    entries = list(
        ArenaEntry.objects.filter(
            player=user, rounds_played__gt=0, arena__finished_at__isnull=False
        )
        .select_related("arena")
        .annotate(ahead=Coalesce(Subquery(ahead), 0))
        .order_by("-arena__starts_at")
    )
    if not entries:
        return None
    rows = [
        {
            "arena": e.arena,
            "place": 1 + e.ahead,  # the annotation
            "points": e.points,
            "won": e.ahead == 0 and e.points > 0,
        }
        for e in entries
    ]
    return {"played": len(rows), "won": sum(r["won"] for r in rows), "recent": rows[:limit]}


#: How many rows of the table the live standings carry (the viewer's own after them).
LIVE_ROWS = 100


def _row(standing: Standing) -> StandingRow:
    return StandingRow(
        entry=standing.entry,
        rank=standing.rank,
        name=standing.name,
        points=standing.points,
        rounds_played=standing.rounds_played,
        left=not standing.is_in,
    )


def arena_standings_message(*, arena: Arena, now: datetime | None = None) -> StandingsMessage:
    """The live table (``standings``): the top :data:`LIVE_ROWS` rows, the same for every
    socket of the arena (each adds its viewer's row: :func:`arena_viewer_row`)."""
    table = arena_standings(arena=arena)
    return StandingsMessage(
        type="standings",
        state=arena_state(arena, now=now or timezone.now()),  # type: ignore[typeddict-item]
        rounds=ArenaRound.objects.filter(arena=arena).count(),
        entrants=len(table),
        top=min(len(table), LIVE_ROWS),
        rows=[_row(s) for s in table[:LIVE_ROWS]],
    )


def arena_viewer_row(*, arena_id: int, viewer_id: int | None) -> StandingRow | None:
    """The viewer's own row of the table (rank as the table ranks), ``None`` without an
    entry. Read when the viewer is not among the live rows: one query for the entry, one
    for the rank."""
    if viewer_id is None:
        return None
    entry = ArenaEntry.objects.filter(arena_id=arena_id, player_id=viewer_id).first()
    if entry is None:
        return None
    better = ArenaEntry.objects.filter(arena_id=arena_id).filter(
        Q(points__gt=entry.points) | Q(points=entry.points, rounds_played__gt=entry.rounds_played)
    )
    return StandingRow(
        entry=entry.pk,
        rank=1 + better.count(),
        name=entry.player.public_name,
        points=entry.points,
        rounds_played=entry.rounds_played,
        left=entry.left_at is not None,
    )
