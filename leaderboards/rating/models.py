"""A skill rating per player from the ranked daily and weekly results (``docs/ratings.md``).

``PlayerRating`` is the current state, ``RatingHistory`` one row per player per rated deal
(what the scorecard's chart draws), ``RatedMatch`` one row per rated deal: its presence
makes rating a deal idempotent, and ``stale`` marks a deal whose standing results changed
after it was rated (a hold, a release, a disqualification): the next pass replays the
ratings from that deal on. Everything here is recomputable from the results
(``manage.py rebuild_ratings``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leaderboards.rating.maths import MODEL, Rating


class PlayerRating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="skill_rating"
    )
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    # Rating.ordinal (mu - sigma), kept so the rating board orders by an index.
    ordinal = models.FloatField(default=Rating().ordinal, db_index=True)
    matches = models.PositiveIntegerField(default=0, help_text=_("rated deals played"))
    updated_at = models.DateTimeField(auto_now=True)
    # The rating board's order as the last pass left it (services.ratings_place): the
    # 0-based place (ordinal, then more matches, then the earlier user id) and the shared
    # rank (1 + the ratings with a higher ordinal). None until the pass has placed it.
    board_place = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    board_rank = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} {self.mu:.2f}±{self.sigma:.2f}"


class RatedMatch(models.Model):
    deal = models.OneToOneField("games.Deal", on_delete=models.CASCADE, related_name="rated_match")
    # The deal's close: matches are applied in (closes_at, deal id) order.
    closes_at = models.DateTimeField()
    players = models.PositiveIntegerField(default=0)
    stale = models.BooleanField(default=False)
    rated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["closes_at", "deal"], name="rated_match_order")]

    def __str__(self) -> str:
        return f"{self.deal} ({self.players})"


class RatingHistory(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_history"
    )
    match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="history")
    deal = models.ForeignKey("games.Deal", on_delete=models.CASCADE, related_name="+")
    closes_at = models.DateTimeField()
    place = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    # The player's rated deals with this one: the last row is the whole current rating,
    # so the scorecard reads the rating and its chart in one query.
    matches = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "deal"], name="rating_history_once"),
        ]
        indexes = [models.Index(fields=["user", "closes_at"], name="rating_history_chart")]

    def __str__(self) -> str:
        return f"{self.user} {self.deal_id} {self.mu:.2f}"


class DuelRating(models.Model):
    """A player's duel rating (docs/ratings.md, "The duel rating"): the same model as the
    skill rating, apart from it, one two-player match per rated duel."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="duel_rating"
    )
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    ordinal = models.FloatField(default=MODEL.mu - 3 * MODEL.sigma, db_index=True)
    duels = models.PositiveIntegerField(default=0, help_text=_("rated duels played"))
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} duel {self.mu:.2f}±{self.sigma:.2f}"


class RatedDuel(models.Model):
    """A duel the duel rating has taken (once: its presence makes rating idempotent), with
    the places it used, read from the verified results."""

    duel = models.OneToOneField("games.Duel", on_delete=models.CASCADE, related_name="rating_done")
    places = models.JSONField(default=list, help_text=_("seat order; [] when nothing moved"))
    # Why nothing moved, when nothing did (leaderboards.rating.duels: "trading" for a
    # duel the win-trading rules leave unrated, "forfeits" when both lost).
    skipped = models.CharField(max_length=16, blank=True, default="")
    rated_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"rated {self.duel_id} {self.places}"
