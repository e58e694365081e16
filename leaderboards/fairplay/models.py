"""Fair play's rows: each ranked result's screen, every review decision, the scouting
patterns, and each player's sequential test with its steps.

Imported by :mod:`leaderboards.models`, so Django registers them under the ``leaderboards``
app (their migrations stay the app's).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leaderboards.models import Result


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


class PlayerEvidence(models.Model):
    """A player's sequential fair-play test (``leaderboards.fairplay.eprocess.DrawWealth``):
    the log-wealth of each (horizon, betting fraction) pair after every ranked game applied
    so far, in order. Never reset: evidence builds over days, and a draw against the player
    only costs the fraction bet."""

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
    """One ranked game's step of its player's test: its draw factors (computed on the
    ``fairplay`` queue) and the game's e-value shown beside them (the mean over the
    horizons of their factors' product) and, once applied in the order games were played,
    the wealth after it. The day-by-day evidence a reviewer sees."""

    result = models.OneToOneField(Result, on_delete=models.CASCADE, related_name="evidence_step")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField(null=True, blank=True)
    won = models.BooleanField(default=False)
    value = models.FloatField()
    # games.solver.horizon.HorizonEvidence.to_dict() (the weighed draws, the factors per
    # horizon the wealth bets on), or why the game was not weighed.
    detail = models.JSONField(default=dict, blank=True)
    seconds = models.FloatField(default=0.0)
    wealth_after = models.FloatField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["player", "applied_at"], name="evidence_steps")]

    def __str__(self) -> str:
        return f"step of result {self.result_id}: e={self.value:.3g}"

    @property
    def draws_weighed(self) -> int:
        """How many draws the game's step weighed (the horizon statistic's ``draws``, or
        the per-game statistic's ``blocks`` in a step stored before it)."""
        detail: dict = self.detail if isinstance(self.detail, dict) else {}
        weighed: list = detail.get("draws") or detail.get("blocks") or []
        return len(weighed)
