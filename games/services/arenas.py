"""Writes about arenas (docs/arenas.md): making one (the site's schedule, or a league's
owner through ``leaderboards.leagues.services``),
joining and leaving, each round's open (one fresh deal, one game per entrant, one
instant), its close (the server resigns what is unfinished at the close) and its settling
once verification has decided every played game (places by the board's order, points),
and the sweep that does all of it on time (``games.arena_sweep``, every 15 s).

Each entrant's round game is an ordinary game of mode ``arena`` played through
``game_act`` (its clock is checked there: ``round_not_started``, ``time_up``) and
verified by replay like any other; only verified results earn points.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.access import access_arena, account_required
from games.arenas.final import final_table_record
from games.arenas.models import Arena, ArenaEntry, ArenaPlay, ArenaRound
from games.arenas.points import RoundResult, round_places
from games.arenas.selectors import arena_slot, arena_standings_message
from games.engine import EngineError, parse_variant
from games.errors import AlreadyEntered, ArenaClosed, BadRequest, NotEntered
from games.logs import compact_logs
from games.models import Action, Deal, Game, User
from games.runtime.broadcast import arena_event
from games.runtime.live import live_forget_deal
from games.services.deals import DAILY_VARIANT
from games.services.duel_deals import duel_deal_draw
from games.services.play import game_resign_at_close
from games.services.starts import game_build
from games.signals import arena_league, arena_verdicts
from games.throttles import throttle_check, who

logger = logging.getLogger(__name__)


def arena_create(
    *,
    starts_at: datetime,
    minutes: int,
    round_minutes: int,
    name: str = "",
    variant: str = DAILY_VARIANT,
    created_by: User | None = None,
    league_id: int | None = None,
) -> Arena:
    """An arena from ``starts_at`` for ``minutes``, in rounds of ``round_minutes``
    (a window shorter than one round is refused). A blank ``name``: the site's arena,
    named by its start on the pages."""
    if round_minutes < 1 or minutes < round_minutes:
        raise BadRequest("an arena lasts at least one round of a minute or more")
    try:
        spec = parse_variant(variant).spec
    except EngineError as err:
        raise BadRequest(err.reason) from None
    return Arena.objects.create(
        name=name[:80],
        variant=spec,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        round_minutes=round_minutes,
        created_by=created_by,
        league_id=league_id,
    )


def _count(*, user: User, what: str) -> None:
    """A join or a leave: an account's (guests and visitors are refused), limited per
    player by ``FT_RATE_ARENA_ACTIONS``."""
    account_required(user=user, what="arenas")
    throttle_check(
        name="arena", rate=settings.FT_RATE_ARENA_ACTIONS, ident=who(user_id=user.pk), what=what
    )


def _check_open(arena: Arena, *, now: datetime) -> None:
    """Refuse an entry past the close (``arena_closed``): once the last round has opened
    (or is being made: within ``FT_ARENA_LEAD_SECONDS`` of its open), or the arena ended."""
    last_open, _ = arena_slot(arena, arena.round_count)
    lead = timedelta(seconds=settings.FT_ARENA_LEAD_SECONDS)
    if (
        arena.finished_at is not None
        or now >= arena.ends_at
        or now >= last_open - lead
        or arena.rounds.filter(number__gte=arena.round_count).exists()
    ):
        raise ArenaClosed("this arena takes no more entries: its last round has opened")


def arena_join(*, user: User, arena_id: object, now: datetime | None = None) -> ArenaEntry:
    """``user`` enters the arena (or comes back after leaving: their points stay). From the
    next round that opens on they get its game. Refused past the close (``arena_closed``)
    and to a player already in it (``already_entered``); a league's arena only to its
    members (``not_found`` to anyone else, as the league's pages: ``access_arena``)."""
    now = now or timezone.now()
    _count(user=user, what="arena joins and leaves")
    arena = access_arena(user=user, arena_id=arena_id).arena
    _check_open(arena, now=now)
    entry = ArenaEntry.objects.filter(arena=arena, player=user).first()
    if entry is not None:
        back = ArenaEntry.objects.filter(pk=entry.pk, left_at__isnull=False).update(
            left_at=None, joined_at=now
        )
        if not back:
            raise AlreadyEntered("you are in this arena already")
        entry.refresh_from_db()
        return entry
    try:
        with transaction.atomic():
            return ArenaEntry.objects.create(arena=arena, player=user, joined_at=now)
    except IntegrityError:  # a second join raced this one
        raise AlreadyEntered("you are in this arena already") from None


def arena_leave(*, user: User, arena_id: object, now: datetime | None = None) -> ArenaEntry:
    """``user`` leaves: no game of the rounds that open from now on (a round's game they
    hold is theirs to finish, and counts). Refused to a player not in it (``not_entered``)
    and once the arena is over (``arena_closed``)."""
    now = now or timezone.now()
    _count(user=user, what="arena joins and leaves")
    arena = access_arena(user=user, arena_id=arena_id).arena
    if arena.finished_at is not None or now >= arena.ends_at:
        raise ArenaClosed("this arena is over")
    entry = ArenaEntry.objects.filter(arena=arena, player=user).first()
    if entry is None or not ArenaEntry.objects.filter(pk=entry.pk, left_at__isnull=True).update(
        left_at=now
    ):
        raise NotEntered("you are not in this arena")
    entry.refresh_from_db()
    return entry


def arena_round_open(
    *, arena: Arena, number: int, now: datetime | None = None
) -> ArenaRound | None:
    """Round ``number`` of ``arena``: one fresh certified deal nobody has seen (a duel's,
    ``duel_deal_draw``) and a game of it for every entrant in the arena now, all in one
    transaction, every clock from the same instant: the round's slot start, or
    ``FT_DUEL_COUNTDOWN_SECONDS`` from now if the sweep came late, to the slot's end.
    Opening it again returns it: no game is ever made for a round after its open. With
    nobody in the arena there is no round (``None``): no certified deal is spent on it."""
    now = now or timezone.now()
    existing = ArenaRound.objects.filter(arena=arena, number=number).first()
    if existing is not None:
        return existing
    if arena.league_id is not None:
        _out_of_league(arena, now=now)
    if not arena.entries.filter(left_at__isnull=True).exists():
        return None
    start, end = arena_slot(arena, number)
    opens = max(start, _ms(now) + timedelta(seconds=settings.FT_DUEL_COUNTDOWN_SECONDS))
    try:
        with transaction.atomic():
            deal = duel_deal_draw(variant=arena.variant, opens_at=opens, closes_at=end)
            played = ArenaRound.objects.create(
                arena=arena, number=number, deal=deal, opens_at=opens, closes_at=end
            )
            # In bulk: two inserts whatever the entrant count, so that a round of thousands
            # commits (and every board can load) within its countdown (docs/benchmarks.md).
            # Of each player, only what a new game takes (``game_build``: their settings).
            entries = list(
                arena.entries.filter(left_at__isnull=True)
                .select_related("player")
                .only("arena_id", "player__table_settings")
                .order_by("pk")
            )
            games = Game.objects.bulk_create(
                [game_build(user=e.player, deal=deal, mode=Game.Mode.ARENA) for e in entries]
            )
            ArenaPlay.objects.bulk_create(
                ArenaPlay(round=played, entry=e, game=g)
                for e, g in zip(entries, games, strict=True)
            )
            _tell(arena.pk)
    except IntegrityError:  # another sweep opened it first
        return ArenaRound.objects.get(arena=arena, number=number)
    return played


def _out_of_league(arena: Arena, *, now: datetime) -> None:
    """A league's arena is its members': an entrant no longer in the league (removed,
    left, or the league deleted) is marked as having left, and gets no more rounds."""
    entries = dict(arena.entries.filter(left_at__isnull=True).values_list("player_id", "pk"))
    league = arena_league(arena.league_id or 0, list(entries))
    members = league.members if league is not None else frozenset()
    gone = [pk for player, pk in entries.items() if player not in members]
    if gone:
        ArenaEntry.objects.filter(pk__in=gone, left_at__isnull=True).update(left_at=now)


def arena_round_close(*, round_id: int, now: datetime | None = None) -> bool:
    """Close a round from its close on (the server resigns every game still active,
    stamped with the close), then settle it once verification has decided every played
    game: places by the board's order among the verified results, points, the deal
    revealed. Returns whether the round is settled; idempotent (the sweep asks again)."""
    now = now or timezone.now()
    played = ArenaRound.objects.select_related("arena").get(pk=round_id)
    if played.settled_at is not None:
        return True
    if now < played.closes_at:
        return False
    plays = list(played.plays.select_related("game", "entry"))
    if played.closed_at is None:
        for play in plays:
            if not play.game.is_finished:
                game_resign_at_close(game_id=play.game_id)
        ArenaRound.objects.filter(pk=played.pk, closed_at__isnull=True).update(closed_at=now)
        plays = list(played.plays.select_related("game", "entry"))
    moved = _played_games(plays)
    counted = [p for p in plays if p.game_id in moved]
    if not _verdicts_in(counted):
        return False
    return _settle(played, counted, now=now)


def _played_games(plays: list[ArenaPlay]) -> set[object]:
    """The games whose player made a move: a game nobody touched is no result. Read from
    the rows, else from a packed log (a round waiting a day for a verdict may see its
    other games compacted: ``games.logs``)."""
    ids = [p.game_id for p in plays]
    played: set[object] = set(
        Action.objects.filter(game_id__in=ids, by_system=False)
        .values_list("game_id", flat=True)
        .distinct()
    )
    packed = compact_logs(game_ids=[i for i in ids if i not in played])
    played.update(k for k, log in packed.items() if any(not e.by_system for e in log))
    return played


def _verdicts_in(plays: list[ArenaPlay]) -> bool:
    """Record the verdicts decided since last asked; whether every play has one."""
    pending = [p for p in plays if p.verdict == ArenaPlay.Verdict.PENDING]
    if not pending:
        return True
    decided = arena_verdicts([str(p.game_id) for p in pending])
    for play in pending:
        verdict = decided.get(str(play.game_id))
        if verdict is not None:
            ArenaPlay.objects.filter(pk=play.pk).update(verdict=verdict)
            play.verdict = verdict
    return all(p.verdict != ArenaPlay.Verdict.PENDING for p in plays)


def _settle(played: ArenaRound, counted: list[ArenaPlay], *, now: datetime) -> bool:
    verified = [p for p in counted if p.verdict == ArenaPlay.Verdict.VERIFIED]
    results = [
        RoundResult(
            won=p.game.status == Game.Status.WON,
            score=p.game.score,
            moves=p.game.moves,
            duration_ms=_duration_ms(played, p.game),
        )
        for p in verified
    ]
    with transaction.atomic():
        if not ArenaRound.objects.filter(pk=played.pk, settled_at__isnull=True).update(
            settled_at=now
        ):
            return True  # another sweep settled it
        for play, (place, points) in zip(verified, round_places(results), strict=True):
            ArenaPlay.objects.filter(pk=play.pk).update(place=place, points=points)
            ArenaEntry.objects.filter(pk=play.entry_id).update(
                points=F("points") + points, rounds_played=F("rounds_played") + 1
            )
        _tell(played.arena_id)
        rejected = [p.pk for p in counted if p.verdict == ArenaPlay.Verdict.REJECTED]
        ArenaPlay.objects.filter(pk__in=rejected).update(points=0)
        if Deal.objects.filter(pk=played.deal_id, revealed_at__isnull=True).update(revealed_at=now):
            deal_id = played.deal_id
            transaction.on_commit(lambda: live_forget_deal(deal_id=deal_id), robust=True)
    return True


def _duration_ms(played: ArenaRound, game: Game) -> int:
    """A game's time in the round: from the round's open (one instant for all) to its
    finish; the whole round for a game without one."""
    end = game.finished_at or played.closes_at
    return max(0, int((end - played.opens_at).total_seconds() * 1000))


def arena_schedule(*, now: datetime | None = None) -> int:
    """The site's schedule: an arena every ``FT_ARENA_EVERY_MINUTES`` (aligned to the UTC
    day), made ``FT_ARENA_AHEAD_MINUTES`` before its start. Idempotent (one site arena
    per start and variant, a constraint); returns how many it made."""
    every = settings.FT_ARENA_EVERY_MINUTES
    if every <= 0:
        return 0
    now = now or timezone.now()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    step = timedelta(minutes=every)
    start = midnight + step * ((now - midnight) // step + 1)
    made = 0
    while start <= now + timedelta(minutes=settings.FT_ARENA_AHEAD_MINUTES):
        exists = Arena.objects.filter(
            starts_at=start, variant=DAILY_VARIANT, created_by=None, league_id=None
        ).exists()
        if not exists:
            try:
                with transaction.atomic():
                    arena_create(
                        starts_at=start,
                        minutes=settings.FT_ARENA_MINUTES,
                        round_minutes=settings.FT_ARENA_ROUND_MINUTES,
                    )
                made += 1
            except IntegrityError:  # another sweep made it
                pass
        start += step
    return made


def arena_sweep(*, now: datetime | None = None) -> int:
    """The beat's pass (``games.arena_sweep``, every 15 s): the site's schedule kept
    ahead; every arena's due round opened ``FT_ARENA_LEAD_SECONDS`` before its slot (a
    slot the sweep missed altogether is skipped, never played late); every round past
    its close closed and, once its verdicts are in, settled; an ended arena whose rounds
    are all settled finished. Returns how many rounds it opened or settled."""
    now = now or timezone.now()
    arena_schedule(now=now)
    lead = timedelta(seconds=settings.FT_ARENA_LEAD_SECONDS)
    done = 0
    for arena in Arena.objects.filter(
        finished_at__isnull=True, starts_at__lte=now + lead, ends_at__gt=now
    )[:200]:
        number = _due_round(arena, now=now + lead)
        if number is None or arena.rounds.filter(number=number).exists():
            continue
        try:
            done += int(arena_round_open(arena=arena, number=number, now=now) is not None)
        except Exception:
            logger.exception("the sweep's open of arena %s round %s failed", arena.pk, number)
    due = ArenaRound.objects.filter(settled_at__isnull=True, closes_at__lte=now)
    for round_id in due.values_list("pk", flat=True)[:500]:
        try:
            done += int(arena_round_close(round_id=round_id, now=now))
        except Exception:
            logger.exception("the sweep's close of arena round %s failed", round_id)
    unsettled = ArenaRound.objects.filter(arena=OuterRef("pk"), settled_at__isnull=True)
    over = Arena.objects.filter(finished_at__isnull=True, ends_at__lte=now).exclude(
        Exists(unsettled)
    )
    for arena_id in list(over.values_list("pk", flat=True)[:200]):
        try:
            arena_finish(arena_id=arena_id, now=now)
        except Exception:
            logger.exception("the sweep's finish of arena %s failed", arena_id)
    return done


def arena_finish(*, arena_id: int, now: datetime | None = None) -> bool:
    """Finish an arena past its end whose rounds are all settled: ``finished_at`` and the
    final table's record (games.arenas.final) in one conditional update, so the record
    is written once and never again (a second call, a second sweep, finds it finished
    and changes nothing). Returns whether this call finished it."""
    now = now or timezone.now()
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        if arena is None or arena.finished_at is not None or now < arena.ends_at:
            return False
        if arena.rounds.filter(settled_at__isnull=True).exists():
            return False  # a round still waits for its verdicts: no place is final yet
        record = final_table_record(arena=arena)
        if not Arena.objects.filter(pk=arena_id, finished_at__isnull=True).update(
            finished_at=now, final_table=record
        ):
            return False
        _tell(arena_id)  # the table's final state
    return True


def _tell(arena_id: int) -> None:
    """The live table to the arena's sockets once the caller's transaction commits."""
    transaction.on_commit(lambda: _told(arena_id), robust=True)


def _told(arena_id: int) -> None:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is not None:
        arena_event(arena_id, arena_standings_message(arena=arena))


def _due_round(arena: Arena, *, now: datetime) -> int | None:
    """The round whose slot has begun by ``now`` and still has a minute to run, if any."""
    step = timedelta(minutes=arena.round_minutes)
    if now < arena.starts_at:
        return None
    number = int((now - arena.starts_at) // step) + 1
    if number > arena.round_count:
        return None
    _, end = arena_slot(arena, number)
    return number if end - now >= timedelta(minutes=1) else None


def _ms(at: datetime) -> datetime:
    return at.replace(microsecond=at.microsecond // 1000 * 1000)
