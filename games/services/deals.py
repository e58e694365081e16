"""Writes about deals: opening (and certifying) daily deals and weekly challenges, closing
them, practice deals."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.daily import daily_seed, day_end, day_start
from games.engine import (
    EngineError,
    GameState,
    RuleSet,
    format_code,
    parse_code,
    parse_variant,
)
from games.engine.deal import SHORT_SEED_LIMIT, commitment
from games.errors import (
    BadRequest,
    DayClosed,
    NotFound,
    ServiceError,
)
from games.models import Deal, Game
from games.runtime.live import live_forget_deal
from games.solver import SolveResult, solve
from games.solver.evidence import certification
from games.weekly import week_end, week_start, weekly_seed, weekly_variant

logger = logging.getLogger(__name__)


DAILY_VARIANT = "forty-thieves"


class DealNotCertified(ServiceError):
    """No daily seed candidate was won by the solver within the budget."""

    code, status = "deal_not_certified", 503


@dataclass(frozen=True)
class Certificate:
    """The candidate that became a daily deal and what the solver found for it."""

    candidate: int
    seed: int
    verdict: str = ""  # "" when certification is off
    line: tuple[str, ...] = ()
    nodes: int | None = None
    seconds: float | None = None


Solver = Callable[..., SolveResult]


def certify_daily_seed(
    *,
    day: date,
    variant: str,
    seconds: float,
    max_nodes: int | None = None,
    max_candidates: int = 50,
    solver: Solver = solve,
    secret: str | None = None,
    seed_of: Callable[[int], int] | None = None,
    label: str = "daily",
) -> Certificate:
    """The first seed candidate of ``day`` the solver wins within the budget.

    Candidates ``0, 1, 2, ...`` are tried in order (each is HMAC-derived, so the choice
    is as secret as the seed); ``seconds == 0`` turns certification off (candidate 0,
    unsolved). Raises :class:`DealNotCertified` when none of ``max_candidates`` is won.
    ``solver`` is :func:`games.solver.solve` except in tests of the loop itself.
    ``seed_of(candidate)`` replaces the daily seeds (the weekly challenge's own, see
    :func:`deal_open_weekly`); ``label`` names the deal in the log and the refusal.
    """
    key: str = settings.FT_DAILY_SECRET if secret is None else secret
    if seed_of is None:

        def seed_of(candidate: int) -> int:
            return daily_seed(key, day, variant, candidate)

    if seconds <= 0:
        return Certificate(candidate=0, seed=seed_of(0))
    for candidate in range(max_candidates):
        seed = seed_of(candidate)
        engine = GameState.from_seed(seed, variant, undo_limit=0)
        result = solver(engine, max_seconds=seconds, max_nodes=max_nodes)
        logger.info(
            "%s %s %s candidate %d: %s in %d nodes, %.2f s",
            label,
            day,
            variant,
            candidate,
            result.verdict,
            result.nodes,
            result.seconds,
        )
        if result.verdict == "win":
            return Certificate(
                candidate=candidate,
                seed=seed,
                verdict="win",
                line=tuple(result.line),
                nodes=result.nodes,
                seconds=result.seconds,
            )
    raise DealNotCertified(
        f"no candidate of the {variant} {label} deal of {day} was won by the solver within"
        f" {seconds:g} s each ({max_candidates} tried); the deal stays unopened"
    )


def difficulty_for(verdict: str, nodes: int | None) -> int:
    """Stars from the solver's effort: 1 (easy) to 5, or 0 when no winning line was found.

    >>> difficulty_for("win", 800), difficulty_for("win", 60_000), difficulty_for("lost", 9)
    (1, 4, 0)
    """
    if verdict != "win" or nodes is None:
        return 0
    for stars, limit in enumerate(DIFFICULTY_NODE_LIMITS, start=1):
        if nodes <= limit:
            return stars
    return len(DIFFICULTY_NODE_LIMITS) + 1


#: Upper bounds of solver nodes for 1, 2, 3 and 4 stars; more is 5 stars.
DIFFICULTY_NODE_LIMITS = (1_000, 5_000, 20_000, 100_000)


def deal_open_daily(
    *, day: date, variant: str = DAILY_VARIANT, seconds: float | None = None
) -> Deal:
    """Create the day's deal if it does not exist yet (idempotent).

    The seed comes from the server secret, the date and a candidate number: the first
    candidate the solver wins within ``seconds`` (``FT_DAILY_CERTIFY_SECONDS`` by default;
    0 = no certification). Only the commitment to its code (with a random salt) is public
    until the day closes; the winning line is as secret as the code. Certifying may take
    a while: beat opens each day ahead of time. Raises :class:`DealNotCertified` when no
    candidate is won (nothing is stored; the next run tries again).
    """
    existing = Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, variant=variant).first()
    if existing is not None:
        return existing
    rules = parse_variant(variant)
    return _open_competition(
        kind=Deal.Kind.DAILY,
        rules=rules,
        day=day,
        window=(day_start(day), day_end(day)),
        seconds=seconds,
        lookup={"variant": variant},
    )


def _open_competition(
    *,
    kind: str,
    rules: RuleSet,
    day: date,
    window: tuple[datetime, datetime],
    seconds: float | None,
    lookup: dict[str, str],
    **certify: Any,
) -> Deal:
    """Certify a competition deal's seed, commit to its code with a random salt and store
    it, open and closing at ``window``; ``certify`` goes to :func:`certify_daily_seed`
    (another seed source). A deal opened meanwhile by another process stands."""
    budget = settings.FT_DAILY_CERTIFY_SECONDS if seconds is None else seconds
    nodes = settings.FT_DAILY_CERTIFY_NODES or None
    if nodes is not None and budget > 0:  # deterministic: a function of the deal alone
        certify.setdefault("solver", certification)
    cert = certify_daily_seed(
        day=day,
        variant=rules.spec,
        seconds=budget,
        max_nodes=nodes,
        max_candidates=settings.FT_DAILY_MAX_CANDIDATES,
        **certify,
    )
    code = format_code(rules, cert.seed)
    salt = secrets.token_hex(16)
    deterministic = cert.verdict == "win" and certify.get("solver") is certification
    try:
        with transaction.atomic():
            deal = Deal.objects.create(
                kind=kind,
                variant=rules.spec,
                day=day,
                seed_hex=f"{cert.seed:032x}",
                code=code,
                salt=salt,
                commitment=commitment(code, salt),
                opens_at=window[0],
                closes_at=window[1],
                candidate=cert.candidate,
                solver_verdict=cert.verdict,
                solution=" ".join(cert.line),
                solver_nodes=cert.nodes,
                solver_seconds=cert.seconds,
                difficulty=difficulty_for(cert.verdict, cert.nodes) if cert.verdict else None,
                certify_nodes=nodes if deterministic else None,
            )
            if deal.certify_nodes:  # the sequential test's completions, on the solver queue
                transaction.on_commit(lambda: _enqueue_completions(deal.pk), robust=True)
            return deal
    except IntegrityError:  # opened concurrently: the other one stands
        return Deal.objects.get(kind=kind, day=day, **lookup)


def _enqueue_completions(deal_id: int) -> None:
    from games.tasks import build_completions  # the task calls deal_completions_build

    build_completions.delay(deal_id)


def deal_open_weekly(*, monday: date, seconds: float | None = None) -> Deal:
    """Create the weekly challenge of the ISO week starting ``monday`` if it does not exist
    yet (idempotent): the week's variant from the rotation (``games.weekly``), a seed from
    the HMAC of the server secret and the week, certified by the solver as the daily is
    (same budget settings), a commitment to its code with a random salt. It opens at 00:00
    UTC on the Monday and closes at 00:00 UTC on the next. Raises :class:`BadRequest` for a
    day that is not a Monday and :class:`DealNotCertified` when no candidate is won."""
    if monday.weekday() != 0:
        raise BadRequest(f"{monday.isoformat()} is not a Monday: a weekly deal opens on one")
    existing = Deal.objects.filter(kind=Deal.Kind.WEEKLY, day=monday).first()
    if existing is not None:
        return existing
    rules = parse_variant(weekly_variant(monday))
    assert rules.spec != DAILY_VARIANT, "the daily's variant is never a weekly one"
    secret: str = settings.FT_DAILY_SECRET
    return _open_competition(
        kind=Deal.Kind.WEEKLY,
        rules=rules,
        day=monday,
        window=(week_start(monday), week_end(monday)),
        seconds=seconds,
        lookup={},
        seed_of=lambda candidate: weekly_seed(secret, monday, rules.spec, candidate),
        label="weekly",
    )


def deal_rate(*, deal_id: int, seconds: float | None = None, force: bool = False) -> Deal:
    """Rate a deal's difficulty with the solver (once; ``force`` rates again).

    Used for practice deals (a certified daily deal is rated when it opens). The
    line found is stored too; it is shown only for a daily deal after its day closes.
    """
    deal = Deal.objects.filter(pk=deal_id).first()
    if deal is None:
        raise NotFound(f"there is no deal {deal_id}")
    if deal.is_rated and not force:
        return deal
    budget = settings.FT_RATE_SECONDS if seconds is None else seconds
    if budget <= 0:
        return deal
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=0)
    result = solve(engine, max_seconds=budget)
    fields = {
        "solver_verdict": result.verdict,
        "solver_nodes": result.nodes,
        "solver_seconds": result.seconds,
        "difficulty": difficulty_for(result.verdict, result.nodes),
    }
    if result.verdict == "win":  # else any line found before stays
        fields["solution"] = " ".join(result.line)
    Deal.objects.filter(pk=deal.pk).update(**fields)
    deal.refresh_from_db()
    return deal


def deal_close_daily(*, day: date, now: datetime | None = None) -> int:
    """Reveal the day's deals once the day is over and end their unfinished ranked
    games (as resigned: the day's competition is over). Returns how many deals
    were closed now; closing again changes nothing."""
    now = now or timezone.now()
    deals = Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, revealed_at__isnull=True)
    return _close_deals(deals, now=now)


def deal_close_weekly(*, monday: date, now: datetime | None = None) -> int:
    """Reveal the weekly challenge of the week starting ``monday`` once the week is over
    and end its unfinished ranked games (resigned by the server, as at a daily close).
    Returns how many deals were closed now (0 or 1); closing again changes nothing."""
    now = now or timezone.now()
    deals = Deal.objects.filter(kind=Deal.Kind.WEEKLY, day=monday, revealed_at__isnull=True)
    return _close_deals(deals, now=now)


def _close_deals(deals: QuerySet[Deal], *, now: datetime) -> int:
    from games.services.play import game_resign_at_close  # play builds on deals

    closed = 0
    for deal in deals:
        if deal.closes_at and now < deal.closes_at:
            raise DayClosed(
                f"{deal.competition_label} closes at {deal.closes_at:%Y-%m-%d %H:%M} UTC"
            )
        for game_id in deal.games.filter(
            mode=Game.Mode.RANKED, status=Game.Status.ACTIVE
        ).values_list("id", flat=True):
            game_resign_at_close(game_id=game_id)
        Deal.objects.filter(pk=deal.pk).update(revealed_at=now)
        # other processes catch up by the clock (games.runtime.live)
        live_forget_deal(deal_id=deal.pk)
        closed += 1
    return closed


def deal_for_code(*, code: str) -> Deal:
    """The practice deal a code names (created on first use)."""
    try:
        rules, seed = parse_code(code)
    except EngineError as err:
        raise BadRequest(err.reason) from None
    canonical = format_code(rules, seed)
    deal = Deal.objects.filter(code=canonical).first()
    if deal is not None:
        return deal
    # Another spelling of an open competition deal (the same seed under another variant
    # letter deals the same columns and stock) is that deal: its guards apply, not a fresh
    # practice deal's. Compared by the seed, never by the code's text.
    competition = Deal.objects.filter(
        kind__in=(Deal.Kind.DAILY, Deal.Kind.WEEKLY, Deal.Kind.DUEL),
        seed_hex=f"{seed:032x}",
        revealed_at__isnull=True,
    ).first()
    if competition is not None:
        return competition
    try:
        with transaction.atomic():
            return Deal.objects.create(
                kind=Deal.Kind.PRACTICE, variant=rules.spec, seed_hex=f"{seed:032x}", code=canonical
            )
    except IntegrityError:
        return Deal.objects.get(code=canonical)


def deal_random(*, variant: str) -> Deal:
    """A fresh practice deal of ``variant`` with a short (7-character) code."""
    try:
        rules = parse_variant(variant)
    except EngineError as err:
        raise BadRequest(err.reason) from None
    return deal_for_code(code=format_code(rules, secrets.randbelow(SHORT_SEED_LIMIT)))
