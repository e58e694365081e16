"""The duel's rows: ``Duel`` (two seats, one deal, one clock), ``DuelSeat`` (a player, the
game, presence) and ``DuelQueueEntry`` ("play someone now"). Registered through
``games/models.py`` (imported at its end), as the games app's own models."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Deal, Game, User

#: The time control a duel has unless its challenger chose another (seconds).
DEFAULT_TIME_CONTROL = 600
#: The time controls a challenger may choose (seconds): 5, 10 and 15 minutes.
TIME_CONTROLS = (300, 600, 900)


class Duel(models.Model):
    """Two players, the same freshly dealt deal, one clock.

    ``waiting``: a challenge (or a rematch offer) with one seat taken; ``running``: both
    seats taken, each seat's ``Game`` created, the clock from ``started_at`` (the deal's
    ``opens_at``) to ``ends_at`` (the deal's ``closes_at``: the flag); ``finished``: decided
    (``winner``, or none for a tie); ``cancelled``: a challenge nobody accepted in time.
    """

    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    class Outcome(models.TextChoices):
        NONE = "", _("not decided")
        ORDER = "order", _("by the board's order")
        TIE = "tie", _("tie")
        FORFEIT = "forfeit", _("forfeit")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    rated = models.BooleanField(default=True, help_text=_("counts for the duel rating"))
    time_control = models.PositiveIntegerField(default=DEFAULT_TIME_CONTROL)
    variant = models.CharField(max_length=60, default="forty-thieves")
    # Drawn when the duel starts (games.services.duels), never before: one deal, one duel.
    deal = models.OneToOneField(
        Deal, null=True, blank=True, on_delete=models.PROTECT, related_name="duel"
    )
    # A challenge by link: only the token's SHA-256 is stored, the link shown once.
    challenge_digest = models.CharField(max_length=64, blank=True, db_index=True)
    challenge_expires_at = models.DateTimeField(null=True, blank=True)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text=_("the flag"))
    ended_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, blank=True, default="")
    winner = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["state", "ends_at"])]

    def __str__(self) -> str:
        return f"duel {self.pk} ({self.state})"


class DuelSeat(models.Model):
    """One player of a duel: seat 0 (the challenger, or the first paired), seat 1."""

    duel = models.ForeignKey(Duel, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(User, on_delete=models.CASCADE, related_name="duel_seats")
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="duel_seat"
    )
    # Presence, from the duel sockets: how many are open, and since when none is (a seat
    # away past the grace period forfeits; games.services.duels.duel_tick).
    sockets = models.IntegerField(default=0)
    away_since = models.DateTimeField(null=True, blank=True)
    # The last sign of life from one of the seat's duel sockets (a connect, a ping every
    # 25 s): a count left behind by a server process that died is outlived by it.
    seen_at = models.DateTimeField(null=True, blank=True)
    forfeited = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("1 or 2"))

    class Meta:
        ordering = ["duel", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["duel", "seat"], name="one_player_per_duel_seat"),
            models.UniqueConstraint(fields=["duel", "player"], name="one_seat_per_duel_player"),
            models.CheckConstraint(condition=models.Q(seat__lte=1), name="two_duel_seats"),
        ]

    def __str__(self) -> str:
        return f"{self.duel_id} seat {self.seat}: {self.player_id}"


class DuelQueueEntry(models.Model):
    """A player waiting to be paired ("play someone now"): the rating when they joined and
    when their page last asked (an entry not asked about for a while is dropped)."""

    player = models.OneToOneField(User, on_delete=models.CASCADE, related_name="duel_queue")
    rating = models.IntegerField()
    variant = models.CharField(max_length=60, default="forty-thieves")
    time_control = models.PositiveIntegerField(default=DEFAULT_TIME_CONTROL)
    joined_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["variant", "time_control", "joined_at"])]

    def __str__(self) -> str:
        return f"queue {self.player_id} ({self.rating})"
