"""Writes of the fair-play checks: the screen a ranked result passes when it is verified,
the foresight analysis of a win, holding, clearing and disqualifying.

A held result is verified as usual but stays off the public boards until staff clear it;
a disqualified one leaves them for good. Every change is a :class:`ReviewDecision`.
Boards are told after the commit, like every other board change.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import GameState
from games.errors import BadRequest, Conflict, NotFound
from games.models import Game, User
from games.solver.fingerprint import CopyReport, solver_copy
from games.solver.foresight import ForesightReport, analyse_foresight
from leaderboards.fairplay.linked import link_verdict, linked_evidence, scouting_record
from leaderboards.fairplay.selectors import played_line, player_evidence_wealth
from leaderboards.fairplay.timing import timing_of
from leaderboards.models import FairPlayCheck, Result, ReviewDecision
from leaderboards.placement import board_leave, board_return
from leaderboards.rating.services import ratings_mark_stale

Review = Result.Review
DECISIONS = (Review.CLEARED, Review.DISQUALIFIED)


def fairplay_screen(*, result: Result, game: Game, log: list[tuple[str, datetime]]) -> list[str]:
    """The checks a verified ranked result passes inside its verification's transaction:
    linked accounts that saw the stock, machine pace, and (recorded, not held) a scouting
    pattern. Returns the reasons it was held for (empty: it goes on the board).

    ``log`` is the player's own actions, ``(move, created_at)`` in order, as verification
    read them with the rest of the game's log. Evidence is written only when there is some
    to keep (a link, a hold) or a win to analyse: the common result costs no write here.
    """
    stamps = [int(at.timestamp() * 1000) for _, at in log]
    timing = timing_of(stamps)
    finished = game.finished_at or timezone.now()
    stock = GameState.from_seed(game.deal.seed, game.deal.variant, undo_limit=0).stock_count
    linked = linked_evidence(player_id=game.player_id, deal=game.deal, before=finished, stock=stock)
    # The player's own evidence so far (the sequential test's wealth before this game, which
    # steps only after verification): with it a network link without a scout sign can hold.
    own = player_evidence_wealth(player_id=game.player_id) if linked else None
    verdict = link_verdict(linked, own_evidence=own)
    reasons = []
    if verdict.hold:
        reasons.append("linked")
    if timing.machine and settings.FT_PACE_CHECK:
        reasons.append("machine")
    if reasons or linked or result.won:
        FairPlayCheck.objects.update_or_create(
            result=result,
            defaults={"reasons": reasons, "linked": linked, "timing": timing.to_dict()},
        )
    scouting_record(
        game=game, turned=sum(move == "s" for move, _ in log), stock=stock, seconds=timing.seconds
    )
    if reasons:
        _set_review(result, Review.HELD, by=None, why=_why(reasons, verdict.holding, timing.reason))
    return reasons


def _why(reasons: list[str], linked: list[dict], pace: str) -> str:
    parts = []
    if "linked" in reasons:
        names = ", ".join(
            f"{x['username']} (same {'/'.join(x['via'])}; {x['turned']} cards"
            + (f"; {', '.join(x['signs'])}" if x["signs"] else "")
            + ")"
            for x in linked
        )
        parts.append(f"linked accounts had turned this deal's stock before the finish: {names}")
    if "machine" in reasons:
        parts.append(f"machine pace: {pace}")
    return "automatic hold: " + "; ".join(parts)


def _set_review(result: Result, review: str, *, by: User | None, why: str) -> None:
    """Change the review state and record the decision (inside the caller's transaction);
    after the commit, the board gains or loses the result and its page is told."""
    was_on_board = result.on_board
    result.review = review
    result.save(update_fields=["review"])
    ReviewDecision.objects.create(result=result, decision=review, by=by, why=why)
    if was_on_board != result.on_board:  # a rated deal's match changed: replay from it
        ratings_mark_stale(deal_id=result.deal_id)
    if was_on_board and not result.on_board:
        transaction.on_commit(lambda: board_leave(result), robust=True)
    elif result.on_board and not was_on_board:
        transaction.on_commit(lambda: board_return(result), robust=True)


def result_analyse_foresight(*, result_id: int, max_seconds: float | None = None) -> Result | None:
    """Analyse a verified ranked win for foresight (once) and hold it when the statistic is
    over the threshold. Runs for up to ``FT_FORESIGHT_SECONDS`` outside any transaction;
    ``None`` for anything that is not a verified ranked win."""
    result = (
        Result.objects.select_related("deal")
        .filter(pk=result_id, ranked=True, won=True, status=Result.Status.VERIFIED)
        .first()
    )
    if result is None:
        return None
    check, _ = FairPlayCheck.objects.get_or_create(result=result)
    if check.foresight is not None:
        return result
    moves = played_line(game_id=result.game_id)
    budget = settings.FT_FORESIGHT_SECONDS if max_seconds is None else max_seconds
    report = analyse_foresight(
        result.deal.seed, result.deal.variant, moves, max_seconds=budget, rng_seed=result.pk
    )
    copy = solver_copy(
        result.deal.seed,
        result.deal.variant,
        moves,
        certified=result.deal.solution.split(),
        max_seconds=min(10.0, budget),
    )
    with transaction.atomic():
        result = Result.objects.select_for_update().get(pk=result.pk)
        check = FairPlayCheck.objects.select_for_update().get(result=result)
        if check.foresight is not None:  # another delivery finished first
            return result
        check.foresight, check.foresight_statistic = report.to_dict(), report.statistic
        check.solver_copy = copy.to_dict()
        check.analysed_at = timezone.now()
        found = _analysis_reasons(report, copy)
        check.reasons = [*check.reasons, *found]
        check.save()
        if found and result.review == Review.NONE:
            _set_review(result, Review.HELD, by=None, why=_analysis_why(report, copy))
    return result


def _analysis_reasons(report: ForesightReport, copy: CopyReport) -> list[str]:
    found = (("foresight", report.suspicious), ("solver_copy", copy.suspicious))
    return [name for name, hit in found if hit]


def _analysis_why(report: ForesightReport, copy: CopyReport) -> str:
    parts = []
    if report.suspicious:
        parts.append(
            f"foresight statistic {report.statistic:.2f} over {report.threshold:.2f}"
            f" ({len(report.evidence)} decisions only foresight explains)"
        )
    if copy.suspicious:
        parts.append(
            f"{copy.share:.0%} of the moves, from the first, are this site's solver's line"
            " on the true deal"
        )
    return "automatic hold: " + "; ".join(parts)


def result_review_decide(*, result_id: int, decision: str, by: User, why: str) -> Result:
    """A reviewer's decision on a ranked result: ``cleared`` (back on the board) or
    ``disqualified`` (off every board, shown so on the player's scorecard)."""
    if decision not in DECISIONS:
        raise BadRequest(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
    why = (why or "").strip()
    if not why:
        raise BadRequest("say why: the reason is recorded with the decision")
    with transaction.atomic():
        result = Result.objects.select_for_update().filter(pk=result_id, ranked=True).first()
        if result is None or result.status != Result.Status.VERIFIED:
            raise NotFound(f"there is no verified ranked result {result_id}")
        if result.review == decision:
            raise Conflict(f"the result is already {result.get_review_display()}")
        _set_review(result, decision, by=by, why=why[:2000])
    return result
