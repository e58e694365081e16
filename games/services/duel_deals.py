"""The deals duels are played on: freshly dealt from a random 128-bit seed, certified
winnable by the solver, never shown to anyone before their duel (docs/deals.md, "A duel's
deal"). The solver queue keeps a reserve ready (``games.fill_duel_reserve``); a duel
draws one deal from it once, or certifies one on the spot when the reserve is empty."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.daily import utc_today
from games.engine import EngineError, format_code, parse_variant
from games.engine.deal import commitment
from games.errors import BadRequest
from games.models import Deal
from games.services.deals import certify_daily_seed, difficulty_for
from games.solver.evidence import certification

logger = logging.getLogger(__name__)


def duel_deal_make(*, variant: str) -> Deal:
    """A new reserve deal of ``variant``: random 128-bit seed candidates until the solver
    wins one within the daily's budget (``FT_DAILY_CERTIFY_SECONDS``, deterministic with
    ``FT_DAILY_CERTIFY_NODES``), committed to with a random salt, unopened (``opens_at``
    empty until a duel draws it)."""
    try:
        rules = parse_variant(variant)
    except EngineError as err:
        raise BadRequest(err.reason) from None
    budget = settings.FT_DAILY_CERTIFY_SECONDS
    nodes = settings.FT_DAILY_CERTIFY_NODES or None
    extra: dict[str, Any] = {"solver": certification} if nodes is not None and budget > 0 else {}
    seeds: dict[int, int] = {}

    def seed_of(candidate: int) -> int:
        # A fresh random seed per candidate, from the operating system's generator: no
        # secret, date or counter could let anyone compute it, and it is drawn only here.
        return seeds.setdefault(candidate, secrets.randbits(128))

    cert = certify_daily_seed(
        day=utc_today(timezone.now()),
        variant=rules.spec,
        seconds=budget,
        max_nodes=nodes,
        max_candidates=settings.FT_DAILY_MAX_CANDIDATES,
        seed_of=seed_of,
        label="duel",
        **extra,
    )
    code = format_code(rules, cert.seed)
    salt = secrets.token_hex(16)
    return Deal.objects.create(
        kind=Deal.Kind.DUEL,
        variant=rules.spec,
        seed_hex=f"{cert.seed:032x}",
        code=code,
        salt=salt,
        commitment=commitment(code, salt),
        candidate=cert.candidate,
        solver_verdict=cert.verdict,
        solution=" ".join(cert.line),
        solver_nodes=cert.nodes,
        solver_seconds=cert.seconds,
        difficulty=difficulty_for(cert.verdict, cert.nodes) if cert.verdict else None,
    )


def duel_deal_draw(*, variant: str, opens_at: datetime, closes_at: datetime) -> Deal:
    """One unopened deal of ``variant`` for a duel that opens and closes then: taken from
    the reserve by a conditional update (two duels can never take the same one), else
    made now. Drawn in the duel's own transaction by the caller."""
    for deal_id in (
        Deal.objects.filter(kind=Deal.Kind.DUEL, variant=variant, opens_at__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)[:5]
    ):
        taken = Deal.objects.filter(pk=deal_id, opens_at__isnull=True).update(
            opens_at=opens_at, closes_at=closes_at
        )
        if taken:
            return Deal.objects.get(pk=deal_id)
    logger.info("the duel reserve of %s is empty: certifying a deal now", variant)
    deal = duel_deal_make(variant=variant)
    deal.opens_at, deal.closes_at = opens_at, closes_at
    deal.save(update_fields=["opens_at", "closes_at"])
    return deal


def duel_reserve_fill(*, variant: str, target: int | None = None) -> int:
    """Top the reserve of ``variant`` up to ``target`` (``FT_DUEL_RESERVE``) unopened
    deals; returns how many were made. Run by ``games.fill_duel_reserve`` (solver queue)."""
    target = settings.FT_DUEL_RESERVE if target is None else target
    ready = Deal.objects.filter(kind=Deal.Kind.DUEL, variant=variant, opens_at__isnull=True)
    made = 0
    for _ in range(max(0, target - ready.count())):
        with transaction.atomic():
            duel_deal_make(variant=variant)
        made += 1
    return made
