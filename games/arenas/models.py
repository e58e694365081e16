"""The arena's rows: ``Arena`` (a window of rounds), ``ArenaEntry`` (a player in it, their
points), ``ArenaRound`` (one fresh deal, one clock) and ``ArenaPlay`` (an entrant's game of
a round, its verdict, place and points). Registered through ``games/models.py`` (imported
at its end), as the games app's own models. A league's arena keeps the league's id as a
plain number: games never depends on leaderboards (docs/architecture.md)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Deal, Game, User


class Arena(models.Model):
    """A window (``starts_at`` to ``ends_at``) cut into rounds of ``round_minutes``.

    Made by the site's schedule (``created_by`` and ``league_id`` empty) or by a league's
    owner. ``finished_at`` is set once its last round is settled, and with it, once and
    for good, ``final_table``: the verified final table (docs/arenas.md, "The final
    table")."""

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=60, default="forty-thieves")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    round_minutes = models.PositiveSmallIntegerField(default=5)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # leaderboards.League's id, unenforced: games must not import leaderboards.
    league_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Written in the same update as finished_at, only while it is empty: never rewritten.
    final_table = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["ends_at", "starts_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["starts_at", "variant"],
                condition=models.Q(created_by__isnull=True, league_id__isnull=True),
                name="one_site_arena_per_start_and_variant",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="arena_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"arena {self.pk} {self.name}"

    @property
    def round_count(self) -> int:
        """How many rounds fit the window (a last partial slot is no round)."""
        return int((self.ends_at - self.starts_at).total_seconds() // (self.round_minutes * 60))


class ArenaEntry(models.Model):
    """A player's entry: joined (again) at ``joined_at``, out since ``left_at`` (empty while
    in). Points and rounds stay through a leave and a rejoin: one entry per player."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(User, on_delete=models.CASCADE, related_name="arena_entries")
    joined_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    points = models.PositiveIntegerField(default=0)
    rounds_played = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "player"], name="one_entry_per_arena_player")
        ]

    def __str__(self) -> str:
        return f"arena {self.arena_id}: {self.player_id} ({self.points})"


class ArenaRound(models.Model):
    """One round: one fresh deal for every entrant at the open, its clock from
    ``opens_at`` (the deal's) to ``closes_at`` (the deal's); ``settled_at`` once its
    verified results are ranked and their points awarded."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    deal = models.OneToOneField(Deal, on_delete=models.PROTECT, related_name="arena_round")
    opens_at = models.DateTimeField()
    closes_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["arena", "number"]
        constraints = [
            models.UniqueConstraint(fields=["arena", "number"], name="one_arena_round_per_number")
        ]

    def __str__(self) -> str:
        return f"arena {self.arena_id} round {self.number}"


class ArenaPlay(models.Model):
    """An entrant's game of a round (made at the round's open, never after), its verdict
    as verification gave it, and once settled its place and points."""

    class Verdict(models.TextChoices):
        PENDING = "", _("pending")
        VERIFIED = "verified", _("verified")
        REJECTED = "rejected", _("rejected")

    round = models.ForeignKey(ArenaRound, on_delete=models.CASCADE, related_name="plays")
    entry = models.ForeignKey(ArenaEntry, on_delete=models.CASCADE, related_name="plays")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="arena_play")
    verdict = models.CharField(max_length=8, choices=Verdict.choices, blank=True, default="")
    place = models.PositiveIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_play_per_round_entry")
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.entry_id}"
