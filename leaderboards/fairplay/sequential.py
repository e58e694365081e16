"""Writes of the sequential fair-play test: step a player's e-process with one ranked game,
in the order the games were played, and send their results to review when it crosses.

The maths is in ``leaderboards.fairplay.eprocess`` (pure) and the per-draw factors in
``games.solver.horizon``; docs/fairplay.md ("Evidence over days") argues validity.
Every verified ranked game of a player counts, won or lost, from the first one the test
saw (``PlayerEvidence`` is created then): a game costs seconds of solver work on the
``fairplay`` queue (a loss nothing when ``evidence.LOSSES`` is off: it then bets a factor
0 once per horizon).
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.services.completions import deal_completions_build
from games.solver import evidence, horizon
from leaderboards.fairplay.eprocess import DrawWealth
from leaderboards.fairplay.selectors import played_line
from leaderboards.fairplay.services import _set_review
from leaderboards.models import EvidenceStep, FairPlayCheck, PlayerEvidence, Result

Review = Result.Review


def result_step_evidence(*, result_id: int) -> PlayerEvidence | None:
    """Weigh a verified ranked game (once) and every earlier one of its player still
    unweighed, then apply the weighed steps in the order played; ``None`` for anything that
    is not a verified ranked result."""
    result = (
        Result.objects.select_related("deal")
        .filter(pk=result_id, ranked=True, status=Result.Status.VERIFIED)
        .first()
    )
    if result is None:
        return None
    evidence, _ = PlayerEvidence.objects.get_or_create(
        player_id=result.player_id, defaults={"started_at": result.finished_at}
    )
    for earlier in _unweighed(evidence, up_to=result):
        _weigh(earlier)
    return player_evidence_apply(player_id=result.player_id)


def _counted(evidence: PlayerEvidence):
    """The player's ranked results the test counts: from its start, not rejected."""
    return (
        Result.objects.filter(
            player_id=evidence.player_id, ranked=True, finished_at__gte=evidence.started_at
        )
        .exclude(status=Result.Status.REJECTED)
        .order_by("finished_at", "id")
    )


def _unweighed(evidence: PlayerEvidence, *, up_to: Result) -> list[Result]:
    return list(
        _counted(evidence)
        .filter(status=Result.Status.VERIFIED, evidence_step__isnull=True)
        .filter(finished_at__lte=up_to.finished_at)
        .select_related("deal")
    )


def _weigh(result: Result) -> EvidenceStep:
    """The game's draw factors (``horizon.horizon_survival``), its completions and tails
    drawn as the deal was: a deterministically certified deal's stored ones (drawn now if
    the solver queue has not yet), uniform ones for a deal dealt at random. A deal certified
    by the clock has no calibrated null ("would it have been certified" is not a function of
    the deal): its games step with 1, neither evidence nor cost. The solving order's random
    seed is fresh and kept with the detail so a reviewer can rerun it."""
    value, detail, seconds = _neutral(result)
    deal = result.deal
    calibrated = deal.certify_nodes is not None or not deal.solver_verdict
    if calibrated and (result.won or evidence.LOSSES):
        seed = secrets.randbits(64)
        if deal.certify_nodes is not None:
            drawn = deal_completions_build(deal_id=deal.pk)
            pool = drawn.orders() if drawn is not None else {}
            tails = drawn.tail_orders() if drawn is not None else {}
        else:  # dealt at random: uniform orders (independent of the true one)
            pool, tails = _uniform(deal, random.Random(f"{seed}-pool"))
        moves = played_line(game_id=result.game_id)
        found = horizon.horizon_survival(
            deal.seed, deal.variant, moves, won=result.won, rng=random.Random(seed),
            pool=pool, tails=tails,
        )  # fmt: skip
        value, detail, seconds = found.value, {**found.to_dict(), "rng": seed}, found.seconds
    step, _ = EvidenceStep.objects.get_or_create(
        result=result,
        defaults={
            "player_id": result.player_id,
            "day": result.day,
            "won": result.won,
            "value": value,
            "detail": detail,
            "seconds": seconds,
        },
    )
    return step


def _uniform(deal, rng: random.Random) -> tuple[evidence.Pool, horizon.Tails]:
    """Completions and tails for a deal dealt at random: every order accepted."""
    pool = evidence.certified_pool(deal.seed, deal.variant, accept=_any, rng=rng)
    tails = horizon.certified_tails(deal.seed, deal.variant, accept=_any, rng=rng)
    return pool, tails


def _any(game) -> bool:
    return True


def _neutral(result: Result) -> tuple[float, dict, float]:
    """The step of a game not weighed: 1 on a clock-certified deal (no calibrated null:
    no factor), a factor 0 once per horizon for a loss when losses are not weighed
    (``evidence.LOSSES``)."""
    if result.deal.solver_verdict and result.deal.certify_nodes is None:
        return 1.0, {"skipped": "deal certified by the clock: no calibrated null"}, 0.0
    if not result.won:
        return 0.0, {"factors": {str(s): [0.0] for s in horizon.HORIZONS}}, 0.0
    return 1.0, {}, 0.0


def _factors(step: EvidenceStep) -> dict[int, list[float]]:
    """A step's draw factors per horizon; a step without them (a game not weighed, or one
    stored as a single e-value before the horizon statistic) bets its value once."""
    stored = step.detail.get("factors") if isinstance(step.detail, dict) else None
    if stored is None:
        return {s: [step.value] for s in horizon.HORIZONS}
    return {int(s): [float(f) for f in factors] for s, factors in stored.items()}


def player_evidence_apply(*, player_id: int) -> PlayerEvidence:
    """Apply the player's weighed steps in the order the games were played, stopping at
    the first game not weighed yet (its own task applies it and the ones after); hold the
    window's results while the wealth is over the threshold."""
    now = timezone.now()
    with transaction.atomic():
        evidence = PlayerEvidence.objects.select_for_update().get(player_id=player_id)
        wealth = DrawWealth.of(evidence.logs, horizon.HORIZONS)
        todo = _counted(evidence).filter(evidence_step__applied_at__isnull=True)
        for result in todo.select_related("evidence_step"):
            step = getattr(result, "evidence_step", None)
            if step is None:  # an earlier game still to be verified or weighed: wait
                break
            wealth = wealth.bet(_factors(step))
            step.wealth_after, step.applied_at = wealth.value, now
            step.save(update_fields=["wealth_after", "applied_at"])
            evidence.games += 1
        evidence.logs, evidence.wealth = list(wealth.logs), wealth.value
        evidence.peak = max(evidence.peak, wealth.value)
        if wealth.crossed(settings.FT_EVIDENCE_THRESHOLD):
            evidence.crossed_at = evidence.crossed_at or now
            _hold_window(evidence, now=now)
        evidence.save()
    return evidence


def _hold_window(evidence: PlayerEvidence, *, now) -> None:
    """Hold the player's won ranked results of the window that nobody has decided yet."""
    since = now - timedelta(days=settings.FT_EVIDENCE_WINDOW_DAYS)
    window = (
        Result.objects.select_for_update()
        .filter(
            player_id=evidence.player_id,
            ranked=True,
            won=True,
            status=Result.Status.VERIFIED,
            review=Review.NONE,
            finished_at__gte=since,
        )
        .order_by("finished_at", "id")
    )
    why = (
        f"automatic hold: sequential evidence {evidence.wealth:.0f} reached the threshold"
        f" {settings.FT_EVIDENCE_THRESHOLD:.0f} after {evidence.games} ranked games"
        f" (since {evidence.started_at:%Y-%m-%d}); the day-by-day evidence is with the result"
    )
    for result in window:
        check, _ = FairPlayCheck.objects.get_or_create(result=result)
        if "evidence" not in check.reasons:
            check.reasons = [*check.reasons, "evidence"]
            check.save(update_fields=["reasons"])
        _set_review(result, Review.HELD, by=None, why=why)
