"""Verified outcomes of finished games: what leaderboards and scorecards are built from.

A finished game is only a claim. Its :class:`Result` starts ``pending``; the
verifier replays the move log with the engine and marks it ``verified`` (and,
for a ranked daily or weekly game, ranks it) or ``rejected`` with the reason.
PostgreSQL is the source of truth; Redis boards are rebuilt from here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leaderboards.ranking import sort_key


class Result(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        VERIFIED = "verified", _("verified")
        REJECTED = "rejected", _("rejected")

    class Review(models.TextChoices):
        NONE = "", _("not held")
        HELD = "held", _("under review")
        CLEARED = "cleared", _("cleared")
        DISQUALIFIED = "disqualified", _("disqualified")

    class Outcome(models.TextChoices):
        WON = "won", _("won")
        LOST = "lost", _("lost")
        RESIGNED = "resigned", _("resigned")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results"
    )
    deal = models.ForeignKey("games.Deal", on_delete=models.PROTECT, related_name="results")
    # Denormalised from the deal and game so boards and scorecards need no joins.
    day = models.DateField(null=True, blank=True, help_text=_("UTC day of a daily deal"))
    variant = models.CharField(max_length=60)
    ranked = models.BooleanField(default=False)
    # A result of the weekly challenge (its deal's kind): ``day`` is then the week's Monday,
    # and its board is the week's, never the daily board of that Monday.
    weekly = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    # Boards rank a win above any loss; lost and resigned rank alike.
    won = models.BooleanField(default=False)
    score = models.PositiveIntegerField()
    moves = models.PositiveIntegerField()
    duration_ms = models.PositiveBigIntegerField(help_text=_("first action to finish"))
    # leaderboards.ranking.sort_key of the fields above, kept by save(): the database
    # board orders by exactly the integer the Redis board scores with.
    sort_key = models.PositiveBigIntegerField(default=0, editable=False)
    finished_at = models.DateTimeField()
    reason = models.TextField(blank=True, help_text=_("why the log was rejected"))
    # Fair play (leaderboards.fairplay): a held result is verified but stays off the
    # public boards until staff clear it; a disqualified one never returns.
    review = models.CharField(max_length=12, choices=Review.choices, default="", blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    ranked_at = models.DateTimeField(null=True, blank=True, help_text=_("added to the board"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            # The daily board in PostgreSQL: its order, as the Redis sorted set keeps it.
            models.Index(
                "day",
                "variant",
                models.F("sort_key").desc(),
                "finished_at",
                "id",
                name="daily_board_order",
                condition=models.Q(ranked=True, status="verified"),
            ),
            models.Index(fields=["player", "day"], name="player_days"),
            models.Index(fields=["status", "created_at"], name="pending_sweep"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.outcome} {self.score} ({self.status})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.sort_key = sort_key(
            won=self.won, score=self.score, moves=self.moves, duration_ms=self.duration_ms
        )
        # Redis keeps the finish in whole milliseconds; so does the database, or the
        # two boards would order finishes within one millisecond differently.
        if self.finished_at is not None:
            self.finished_at = self.finished_at.replace(
                microsecond=self.finished_at.microsecond // 1000 * 1000
            )
        fields = kwargs.get("update_fields")
        if fields is not None:
            kwargs["update_fields"] = {*fields, "sort_key", "finished_at"}
        super().save(*args, **kwargs)

    @property
    def on_board(self) -> bool:
        """Whether the result belongs on the public board: ranked, verified, not held."""
        return (
            self.ranked
            and self.status == self.Status.VERIFIED
            and self.review in (self.Review.NONE, self.Review.CLEARED)
        )


class FairPlayCheck(models.Model):
    """The evidence the fair-play checks gathered about one ranked result."""

    result = models.OneToOneField(Result, on_delete=models.CASCADE, related_name="fairplay")
    # Why it was held: any of "linked", "machine", "foresight"; empty when nothing was found.
    reasons = models.JSONField(default=list, blank=True)
    # [{"user_id", "username", "via": ["device"|"network"], "games": [...], "scouting": n}]
    linked = models.JSONField(default=list, blank=True)
    timing = models.JSONField(default=dict, blank=True)  # fairplay.timing.Timing.to_dict()
    # games.solver.foresight.ForesightReport.to_dict(), once analysed (wins only).
    foresight = models.JSONField(null=True, blank=True)
    foresight_statistic = models.FloatField(null=True, blank=True)
    # games.solver.fingerprint.CopyReport.to_dict(): how much of the log, from move 1, is a
    # line of this project's solver on the true deal (analysed with the foresight).
    solver_copy = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    analysed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"fair play of {self.result_id}: {', '.join(self.reasons) or 'nothing found'}"


class ReviewDecision(models.Model):
    """Every change of a result's review state: who (``None``: the automatic checks),
    when, and why. Never edited; the latest one is the result's state."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="decisions")
    decision = models.CharField(max_length=12, choices=Result.Review.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    why = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["result", "at", "id"]

    def __str__(self) -> str:
        return f"{self.decision} by {self.by or 'the checks'}: {self.why[:60]}"


class ScoutingPattern(models.Model):
    """A ranked attempt that turned most of the stock and then gave up quickly: what an
    account that only scouts the deal for another one looks like."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scouting"
    )
    deal = models.ForeignKey("games.Deal", on_delete=models.CASCADE, related_name="+")
    turned = models.PositiveIntegerField(help_text=_("stock cards turned"))
    stock = models.PositiveIntegerField(help_text=_("stock cards at the deal"))
    seconds = models.FloatField(help_text=_("first action to the end"))
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.player} turned {self.turned}/{self.stock} in {self.seconds:.0f} s"


# Leagues live in their own subpackage; importing them here registers them with the app.
from leaderboards.leagues.models import League, Membership  # noqa: E402

__all__ = ["FairPlayCheck", "League", "Membership", "Result", "ReviewDecision", "ScoutingPattern"]


class PlayerEvidence(models.Model):
    """A player's sequential fair-play test (``leaderboards.fairplay.eprocess``): the
    log-wealth of each betting fraction after every ranked game applied so far, in order.
    Never reset: evidence builds over days, and a loss only costs the fraction bet."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_evidence"
    )
    logs = models.JSONField(default=list, blank=True)
    wealth = models.FloatField(default=1.0)
    peak = models.FloatField(default=1.0)
    games = models.PositiveIntegerField(default=0)
    # The finish of the first game the test saw: games before it are not counted (a start
    # fixed before any game it counts keeps the test valid).
    started_at = models.DateTimeField()
    # The first time the wealth reached the threshold (the player's results went to review).
    crossed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"evidence of {self.player_id}: {self.wealth:.3g} after {self.games} games"


class EvidenceStep(models.Model):
    """One ranked game's step of its player's test: the game's e-value (computed on the
    ``fairplay`` queue; a loss's is 0) and, once applied in the order games were played,
    the wealth after it. The day-by-day evidence a reviewer sees."""

    result = models.OneToOneField(Result, on_delete=models.CASCADE, related_name="evidence_step")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField(null=True, blank=True)
    won = models.BooleanField(default=False)
    value = models.FloatField()
    # games.solver.evidence.Evidence.to_dict() for a win (the weighed draws), {} for a loss.
    detail = models.JSONField(default=dict, blank=True)
    seconds = models.FloatField(default=0.0)
    wealth_after = models.FloatField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["player", "applied_at"], name="evidence_steps")]

    def __str__(self) -> str:
        return f"step of result {self.result_id}: e={self.value:.3g}"
