"""A copy of the site at scale, for measuring the read path (issue 37): ``N`` players,
``D`` closed daily deals and about ``R`` verified ranked results, written through the
models the services write (deals as :func:`games.services.deals.deal_open_daily` stores
them, less the certification; games and results as the verifier leaves them).

The shape follows real play: a few regulars play every day, most players a few days;
about 15 % of games are won. Rows go in with ``bulk_create`` in batches, so a million
results take minutes, not hours. Deterministic for a given ``seed``.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.db import connection, transaction

from games.daily import day_end, day_start
from games.engine import format_code, parse_variant
from games.engine.deal import commitment
from games.models import Deal, Game, User
from games.services import DAILY_VARIANT
from leaderboards.models import Result
from leaderboards.ranking import sort_key
from leaderboards.standings.services import standings_rebuild

WIN_SHARE = 0.15
REGULAR_SHARE = 0.005  # players who play every day
BATCH = 5_000


class SeedRefused(Exception):
    """The database already has players: seeding it would mix made-up rows into real ones."""


@dataclass(frozen=True)
class Seeded:
    players: int
    deals: int
    results: int


def scale_seed(
    *,
    players: int,
    days: int,
    results: int,
    seed: int = 0,
    force: bool = False,
    last_day: date | None = None,
    progress: Callable[[str], None] = lambda _line: None,
) -> Seeded:
    """Fill the database; refuses one with users unless ``force`` (never seed production
    by mistake). ``last_day`` is the newest closed day (yesterday by default)."""
    if players < 1 or days < 1 or results < 0:
        raise ValueError("players and days must be at least 1, results at least 0")
    if not force and User.objects.exists():
        raise SeedRefused("the database already has users")
    rng = random.Random(seed)
    last = last_day or (datetime.now(UTC).date() - timedelta(days=1))
    deals = _deals(last=last, days=days, rng=rng)
    progress(f"{len(deals)} deals")
    prefix = f"scale{seed}_{secrets.token_hex(3)}_"
    counts = _plays_per_player(players=players, days=days, results=results, rng=rng)
    written = 0
    password = make_password(None)  # unusable: nobody signs in as a seeded player
    for start in range(0, players, BATCH):
        chunk = range(start, min(players, start + BATCH))
        with transaction.atomic():
            users = User.objects.bulk_create(
                [
                    User(username=f"{prefix}{n}", display_name=f"Player {n}", password=password)
                    for n in chunk
                ]
            )
            written += _play(users, [counts[n] for n in chunk], deals, rng)
        progress(f"{chunk.stop}/{players} players, {written} results")
    # bulk_create skipped the placement that keeps the period boards' standings: all at once.
    progress(f"{standings_rebuild()} standings")
    if connection.vendor == "postgresql":  # fresh statistics, or the planner guesses
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return Seeded(players=players, deals=len(deals), results=written)


def _deals(*, last: date, days: int, rng: random.Random) -> list[Deal]:
    rules = parse_variant(DAILY_VARIANT)
    now = datetime.now(UTC)
    rows = []
    for n in range(days):
        day = last - timedelta(days=days - 1 - n)
        deal_seed = rng.getrandbits(64)
        code = format_code(rules, deal_seed)
        salt = f"{rng.getrandbits(128):032x}"
        rows.append(
            Deal(
                kind=Deal.Kind.DAILY,
                variant=rules.spec,
                day=day,
                seed_hex=f"{deal_seed:032x}",
                code=code,
                salt=salt,
                commitment=commitment(code, salt),
                opens_at=day_start(day),
                closes_at=day_end(day),
                revealed_at=min(now, day_end(day) + timedelta(minutes=5)),
            )
        )
    existing = set(Deal.objects.filter(kind=Deal.Kind.DAILY).values_list("day", flat=True))
    Deal.objects.bulk_create([d for d in rows if d.day not in existing], batch_size=BATCH)
    return list(Deal.objects.filter(kind=Deal.Kind.DAILY, day__in=[d.day for d in rows]))


def _plays_per_player(*, players: int, days: int, results: int, rng: random.Random) -> list[int]:
    """How many days each player plays: regulars every day, the rest a heavy-tailed few
    (most one to five days), scaled so the total is about ``results``."""
    # At most a fifth of the results are the regulars': the rest are the many.
    regulars = min(players, max(1, min(int(players * REGULAR_SHARE), results // (5 * days))))
    counts = [days] * regulars
    rest = players - regulars
    left = max(0, results - regulars * days)
    if rest:
        weights = [rng.paretovariate(1.5) for _ in range(rest)]
        scale = left / sum(weights)
        counts += [min(days, max(1, round(w * scale))) for w in weights]
    return counts


def _play(users: list[User], counts: list[int], deals: list[Deal], rng: random.Random) -> int:
    games: list[Game] = []
    rows: list[Result] = []
    for user, count in zip(users, counts, strict=True):
        for deal in rng.sample(deals, min(count, len(deals))):
            game, result = _one(user, deal, rng)
            games.append(game)
            rows.append(result)
    Game.objects.bulk_create(games, batch_size=BATCH)
    Result.objects.bulk_create(rows, batch_size=BATCH)
    return len(rows)


def _one(user: User, deal: Deal, rng: random.Random) -> tuple[Game, Result]:
    won = rng.random() < WIN_SHARE
    outcome = "won" if won else ("resigned" if rng.random() < 0.3 else "lost")
    score = rng.randint(1200, 1360) if won else rng.randint(100, 1100)
    moves = rng.randint(180, 320) if won else rng.randint(40, 260)
    duration = rng.randint(240_000, 2_400_000)
    assert deal.opens_at is not None
    finished = deal.opens_at + timedelta(seconds=rng.randint(600, 86_000))
    finished = finished.replace(microsecond=finished.microsecond // 1000 * 1000)
    game = Game(
        id=uuid.UUID(int=rng.getrandbits(128), version=4),
        player=user,
        deal=deal,
        mode=Game.Mode.RANKED,
        status=outcome,
        score=score,
        moves=moves,
        version=moves,
        first_action_at=finished - timedelta(milliseconds=duration),
        finished_at=finished,
    )
    result = Result(
        game=game,
        player=user,
        deal=deal,
        day=deal.day,
        variant=deal.variant,
        ranked=True,
        status=Result.Status.VERIFIED,
        outcome=outcome,
        won=won,
        score=score,
        moves=moves,
        duration_ms=duration,
        # bulk_create skips Result.save(), which keeps the key: computed here the same way.
        sort_key=sort_key(won=won, score=score, moves=moves, duration_ms=duration),
        finished_at=finished,
        verified_at=finished + timedelta(seconds=2),
        ranked_at=finished + timedelta(seconds=2),
    )
    return game, result
