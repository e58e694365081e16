"""Reads for fair play: how many results a day's board has under review, the review queue
and everything a reviewer needs to decide one result."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.engine import RESIGN
from games.errors import NotFound
from games.logs import game_log
from leaderboards.models import EvidenceStep, FairPlayCheck, PlayerEvidence, Result, ReviewDecision
from leaderboards.replays.frames import card_label

REVIEW_STATES = ("held", "cleared", "disqualified")


def played_line(*, game_id: uuid.UUID | str) -> list[str]:
    """A game's moves as they were played from the deal, for the analyses that replay a
    win (foresight, the solver's copy, blind survival): the player's, and the server's
    safe cards sent home, which later moves build on (the analyses skip safe home moves
    as no choice of the player's). Never a resign: not a move of the rules."""
    return [entry.move for entry in game_log(game_id=game_id) if entry.move != RESIGN]


def under_review_count(*, day: date, variant: str, weekly: bool = False) -> int:
    """Verified ranked results of a day (or a week) held for review (off the board until
    cleared)."""
    return Result.objects.filter(
        day=day,
        variant=variant,
        weekly=weekly,
        ranked=True,
        status=Result.Status.VERIFIED,
        review=Result.Review.HELD,
    ).count()


def review_queue(*, state: str = "held", limit: int = 200) -> QuerySet[Result]:
    """Results in one review state, oldest first (the queue staff work through)."""
    if state not in REVIEW_STATES:
        raise NotFound(f"no review state {state!r}; one of {', '.join(REVIEW_STATES)}")
    return (
        Result.objects.filter(ranked=True, status=Result.Status.VERIFIED, review=state)
        .select_related("player", "deal", "fairplay")
        .order_by("finished_at", "id")[:limit]
    )


@dataclass(frozen=True)
class ReviewCase:
    result: Result
    check: FairPlayCheck | None
    decisions: list[ReviewDecision]
    foresight: dict[str, Any] | None
    decisions_shown: list[dict[str, Any]]
    evidence: PlayerEvidence | None = None
    evidence_days: list[EvidenceStep] | None = None
    evidence_threshold: float = 100.0


def review_case(*, result_id: int) -> ReviewCase:
    """One result with its evidence: linked accounts and what they saw, the pace, the
    foresight statistic with each decision only foresight explains (and the board the
    player saw then), and the decisions taken so far."""
    result = (
        Result.objects.select_related("player", "deal", "game")
        .filter(pk=result_id, ranked=True)
        .first()
    )
    if result is None:
        raise NotFound(f"there is no ranked result {result_id}")
    check = FairPlayCheck.objects.filter(result=result).first()
    foresight = check.foresight if check is not None else None
    shown = [_decision_view(d) for d in (foresight or {}).get("evidence", [])]
    return ReviewCase(
        result=result,
        check=check,
        decisions=list(result.decisions.select_related("by")),
        foresight=foresight,
        decisions_shown=shown,
        evidence=PlayerEvidence.objects.filter(player_id=result.player_id).first(),
        evidence_days=evidence_days(player_id=result.player_id),
        evidence_threshold=settings.FT_EVIDENCE_THRESHOLD,
    )


def evidence_days(*, player_id: int, limit: int = 400) -> list[EvidenceStep]:
    """The player's sequential test, game by game in the order applied (the newest
    ``limit``): each day's e-value and the wealth after it."""
    steps = (
        EvidenceStep.objects.filter(player_id=player_id, applied_at__isnull=False)
        .select_related("result")
        .order_by("-result__finished_at", "-result_id")[:limit]
    )
    return list(reversed(steps))


def _decision_view(decision: dict[str, Any]) -> dict[str, Any]:
    """A foresight decision with its board laid out for a page: columns as card labels."""
    board = decision.get("board") or {}
    columns = [
        {"number": i + 1, "cards": [card_label(c) for c in col.get("cards", [])]}
        for i, col in enumerate(board.get("columns", []))
    ]
    foundations = [f.get("top") or "—" for f in board.get("foundations", [])]
    return {
        **decision,
        "columns": columns,
        "foundations": foundations,
        "waste": [card_label(c) for c in board.get("waste", [])[-5:]],
        "stock": board.get("stock"),
    }


def player_evidence_wealth(*, player_id: int) -> float | None:
    """The player's wealth in the sequential test (an e-value: its evidence so far), or
    ``None`` while the test is off (``FT_EVIDENCE``) or has not seen the player."""
    if not settings.FT_EVIDENCE:
        return None
    row = PlayerEvidence.objects.filter(player_id=player_id).values_list("wealth").first()
    return row[0] if row is not None else None


def held_explanation(*, result: Result) -> dict[str, Any] | None:
    """What the player of a held result is told, in their language: that it is being
    checked, why in plain words (one sentence per check that held it) and what happens
    next. ``None`` for a result that is not held. Only the player and reviewers see it."""
    if result.review != Result.Review.HELD:
        return None
    check = FairPlayCheck.objects.filter(result=result).first()
    reasons = check.reasons if check is not None else []
    why = [_HELD_WHY[reason]() for reason in reasons if reason in _HELD_WHY]
    if not why:
        why = [_("A reviewer asked to look at this result.")]
    return {
        "state": "held",
        "title": _("Your result is being checked"),
        "why": why,
        "next": _(
            "A reviewer looks at it: if it is cleared it joins the board with its rank; if"
            " not, it is disqualified and shown so. Until then nobody else sees it."
        ),
    }


_HELD_WHY = {
    "linked": lambda: _(
        "Another account on the same browser or network had already turned this deal's"
        " cards before you finished."
    ),
    "machine": lambda: _("Your moves came faster or more regularly than a person plays."),
    "foresight": lambda: _(
        "Your moves suited the cards still hidden in the stock more often than luck explains."
    ),
    "solver_copy": lambda: _("Your moves followed this site's solver's winning line."),
    "evidence": lambda: _(
        "Over your recent ranked games your winning moves suited the hidden cards more often"
        " than luck explains, so your wins of those days are checked together."
    ),
}
