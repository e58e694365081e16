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
            # The archive's winners a day (leaderboards.archive): the daily wins alone.
            models.Index(
                fields=["day", "variant"],
                name="archive_winners",
                condition=models.Q(ranked=True, status="verified", won=True, weekly=False),
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


# Fair play's rows and the leagues live in their own subpackages; importing them here
# registers them with the app.
from leaderboards.fairplay.models import (  # noqa: E402
    EvidenceStep,
    FairPlayCheck,
    PlayerEvidence,
    ReviewDecision,
    ScoutingPattern,
)
from leaderboards.leagues.models import League, Membership  # noqa: E402
from leaderboards.rating.models import (  # noqa: E402
    DuelRating,
    PlayerRating,
    RatedDuel,
    RatedMatch,
    RatingHistory,
)
from leaderboards.standings.models import PeriodStanding  # noqa: E402

__all__ = [
    "DuelRating",
    "RatedDuel",
    "EvidenceStep",
    "FairPlayCheck",
    "League",
    "Membership",
    "PeriodStanding",
    "PlayerEvidence",
    "PlayerRating",
    "RatedMatch",
    "RatingHistory",
    "Result",
    "ReviewDecision",
    "ScoutingPattern",
]
