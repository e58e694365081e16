"""Database models for the games app."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.weekly import week_label


class User(AbstractUser):
    """The platform's user model (custom from the start, as Django recommends)."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown on leaderboards instead of the username when set."),
    )
    # The table's look and the "send safe cards home" choice, as the settings panel keeps
    # them (validated by games.table_settings; the browser keeps a copy for visitors).
    table_settings = models.JSONField(
        _("table settings"), default=dict, blank=True, help_text=_("card size, card back, ...")
    )
    # A guest (games.services.guests): made by a guest's first practice or archive start,
    # with a generated username, no usable password and no e-mail; signing up turns the
    # same row into an account (its games stay), and an idle guest is purged.
    is_guest = models.BooleanField(
        _("guest"), default=False, help_text=_("played without an account (no ranked play)")
    )
    # The footer picker's choice, applied wherever it signs in (games.accounts.language).
    language = models.CharField(_("language"), max_length=8, blank=True, default="")

    # What public_name reads: a query that lists players loads these (``.only(...)``), or
    # each name costs a query of its own (a 100,000-player board made 100,000; issue 37).
    PUBLIC_NAME_FIELDS = ("username", "display_name", "is_guest")

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        """The name shown to other players: the display name, else the username; a guest's
        generated username is never shown ("Guest")."""
        return self.public_name_of(
            username=self.get_username(), display_name=self.display_name, is_guest=self.is_guest
        )

    @staticmethod
    def public_name_of(*, username: str, display_name: str, is_guest: bool) -> str:
        """:attr:`public_name` from the :data:`PUBLIC_NAME_FIELDS` read as values, for a
        list that loads no model instances."""
        if is_guest:
            return str(_("Guest"))
        return display_name or username


class Deal(models.Model):
    """A deal players can open: a daily deal (one per UTC day and variant), a weekly
    challenge (one per ISO week, ``day`` its Monday, a variant from the rotation) or a
    practice deal named by its code.

    A daily or weekly deal's seed and code stay secret until it closes; until then
    only its commitment is public (see ``docs/deals.md``).
    """

    class Kind(models.TextChoices):
        DAILY = "daily", _("daily")
        PRACTICE = "practice", _("practice")
        WEEKLY = "weekly", _("weekly")
        # Freshly dealt for one duel (games.services.duels): secret until the duel ends.
        DUEL = "duel", _("duel")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    variant = models.CharField(max_length=60)
    day = models.DateField(
        null=True, blank=True, help_text=_("UTC day of a daily deal; a weekly deal's Monday")
    )
    # 128-bit seeds do not fit a bigint: stored as 32 hex digits.
    seed_hex = models.CharField(max_length=32)
    code = models.CharField(max_length=48, unique=True)
    salt = models.CharField(max_length=32, blank=True)
    commitment = models.CharField(max_length=64, blank=True)
    opens_at = models.DateTimeField(null=True, blank=True)
    closes_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # What the solver found (see games.services.deal_open_daily and rate_deal). A daily
    # deal's solution is as secret as its code until the day closes.
    candidate = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("which daily seed candidate became the deal")
    )
    solver_verdict = models.CharField(
        max_length=8, blank=True, help_text=_("win, lost or unknown; blank until solved")
    )
    solution = models.TextField(blank=True, help_text=_("a winning line, moves space-separated"))
    solver_nodes = models.PositiveIntegerField(null=True, blank=True)
    solver_seconds = models.FloatField(null=True, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("1 to 5 stars from the solver's effort, 0 unsolved, blank not rated"),
    )
    # The node cap of a deterministic certification (FT_DAILY_CERTIFY_NODES), blank when the
    # deal was certified by the clock or not at all: the sequential fair-play test draws its
    # completions as this certification drew the deal (DealCompletions).
    certify_nodes = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "variant"],
                condition=models.Q(kind="daily"),
                name="one_daily_deal_per_day_and_variant",
            ),
            models.UniqueConstraint(
                fields=["day"],
                condition=models.Q(kind="weekly"),
                name="one_weekly_deal_per_week",
            ),
        ]
        indexes = [models.Index(fields=["kind", "day"])]

    def __str__(self) -> str:
        if self.kind in (self.Kind.DAILY, self.Kind.WEEKLY):
            return f"{self.kind} {self.day} {self.variant}"
        return self.code

    @property
    def seed(self) -> int:
        return int(self.seed_hex, 16)

    @property
    def is_weekly(self) -> bool:
        return self.kind == self.Kind.WEEKLY

    @property
    def competition_label(self) -> str:
        """How refusals name a competition deal: "the daily deal of 2026-12-01", "the
        weekly challenge of 2026-W49" (so a weekly refusal never says "daily")."""
        if self.is_weekly and self.day is not None:
            return f"the weekly challenge of {week_label(self.day)}"
        return f"the daily deal of {self.day}" if self.day is not None else "this deal"

    @property
    def is_competition(self) -> bool:
        """A deal with a ranked board, a secret code until its close and a commitment:
        the daily deal and the weekly challenge."""
        return self.kind in (self.Kind.DAILY, self.Kind.WEEKLY)

    @property
    def is_duel(self) -> bool:
        return self.kind == self.Kind.DUEL

    @property
    def is_revealed(self) -> bool:
        """Whether the code may be shown: always for practice, after the close for a daily
        or weekly deal, after the end for a duel's."""
        secret = self.is_competition or self.kind == self.Kind.DUEL
        return not secret or self.revealed_at is not None

    @property
    def is_rated(self) -> bool:
        return self.difficulty is not None

    @property
    def difficulty_stars(self) -> str | None:
        """``3`` as ``★★★☆☆``; ``None`` for an unrated or unsolved deal.

        >>> Deal(difficulty=2).difficulty_stars, Deal(difficulty=0).difficulty_stars
        ('★★☆☆☆', None)
        """
        if not self.difficulty:
            return None
        return "★" * self.difficulty + "☆" * (5 - self.difficulty)

    def has_closed(self, now: datetime) -> bool:
        """Whether a daily or weekly deal's competition is over at ``now`` (revealed, or
        past its close even if the beat that reveals it has not run yet); never for
        practice."""
        if not self.is_competition:
            return False
        return self.revealed_at is not None or (
            self.closes_at is not None and now >= self.closes_at
        )

    @property
    def solver_help_open(self) -> bool:
        """Whether hints, the dead-end notice and the solution may be given on this deal:
        always for practice deals, for a daily or weekly deal only once it has closed
        (until then they would be a free solver for the ranked board)."""
        return self.is_revealed

    @property
    def solution_revealed(self) -> bool:
        """Whether "one way to win" may be shown: a daily or weekly deal's line after its
        close."""
        return self.is_competition and self.is_revealed and bool(self.solution)


#: Take-backs a practice game keeps (ranked games have none).
PRACTICE_UNDO = 100


class PracticePoolDeal(models.Model):
    """A practice deal the solver proved winnable, for "winnable deals only".

    Filled by ``games.services.practice_pool.practice_pool_fill`` (the ``solver`` queue's
    ``fill_practice_pool`` task, or ``manage.py fill_practice_pool``) with node budgets, so a
    seed's verdict and stars repeat. A deal joins only when the solver's winning line,
    replayed move by move through the engine, wins. ``stars`` are ``difficulty_for`` of the
    nodes the solver needed (docs/deals.md, "Difficulty").
    """

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="pool_entry")
    variant = models.CharField(max_length=60)
    stars = models.PositiveSmallIntegerField(help_text=_("1 to 5, from the solver's effort"))
    nodes = models.PositiveIntegerField(help_text=_("solver nodes to the winning line"))
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["variant", "stars"])]

    def __str__(self) -> str:
        return f"pool {self.variant} {self.stars}★ {self.deal_id}"


class Game(models.Model):
    """One player's play of one deal: its deal and its log of actions are the game (the
    position is the deal replayed through the log, ``games.runtime.live``); the rest is a summary
    kept by each action's write."""

    class Mode(models.TextChoices):
        RANKED = "ranked", _("ranked")
        PRACTICE = "practice", _("practice")
        # A closed daily deal played again from the archive: unranked, with undo and hints
        # like practice (the deal is revealed), marked "archive" on the scorecard.
        ARCHIVE = "archive", _("archive")
        # One player's game of a duel (games.duels): no undo, no hints, one clock.
        DUEL = "duel", _("duel")
        # One entrant's game of an arena's round (games.arenas): strict, one clock.
        ARENA = "arena", _("arena")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WON = "won", _("won")
        LOST = "lost", _("lost")
        RESIGNED = "resigned", _("resigned")

    # Unguessable: a practice game's link is what lets others watch it.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(User, on_delete=models.CASCADE, related_name="games")
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    score = models.PositiveIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0, help_text=_("actions taken, undos included"))
    version = models.PositiveIntegerField(default=0, help_text=_("accepted actions so far"))
    hints = models.PositiveIntegerField(default=0, help_text=_("hints taken (practice only)"))
    dead_end = models.BooleanField(
        default=False, help_text=_("no win is possible any more (decided after the last action)")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    first_action_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Fixed at the start from the player's setting, so the log's automatic moves are judged
    # by the rule the game was played under (games.engine.audit).
    auto_home = models.BooleanField(
        default=False, help_text=_("the server sends safe cards home after each move")
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "deal"],
                condition=models.Q(mode="ranked"),
                name="one_ranked_attempt_per_player_and_deal",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-created_at"]),
            models.Index(fields=["deal", "mode", "status"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.mode} {self.deal} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.ACTIVE

    @property
    def is_strict(self) -> bool:
        """A ranked, duel or arena game: no undo, no hints, no restart (one attempt)."""
        return self.mode in (self.Mode.RANKED, self.Mode.DUEL, self.Mode.ARENA)

    @property
    def undo_limit(self) -> int:
        """How deep the engine's take-back history is: none in a ranked game."""
        return self.undo_limit_for(self.mode)

    @classmethod
    def undo_limit_for(cls, mode: str) -> int:
        return 0 if mode in (cls.Mode.RANKED, cls.Mode.DUEL, cls.Mode.ARENA) else PRACTICE_UNDO

    @property
    def duration(self) -> timedelta | None:
        """Server-measured time from the first action to the finish."""
        if self.first_action_at and self.finished_at:
            return self.finished_at - self.first_action_at
        return None


class Action(models.Model):
    """One accepted action of a game, in order: the move log replayed to verify it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text=_("1 for the first action"))
    # A move in the engine's notation, "undo" or "resign".
    move = models.CharField(max_length=16)
    client_id = models.CharField(max_length=64, blank=True)
    # The server's own actions (the close of a day; safe cards sent home) carry no client
    # id, so nothing a client sends can ever be taken for one; this flag tells them apart.
    by_system = models.BooleanField(
        default=False,
        help_text=_("taken by the server itself (the close of the day, a safe card sent home)"),
    )
    score = models.PositiveIntegerField(help_text=_("score after this action"))
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
            models.UniqueConstraint(
                fields=["game", "client_id"],
                condition=~models.Q(client_id=""),
                name="client_message_applied_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seq}. {self.move}"


class CompactLog(models.Model):
    """A finished game's whole move log packed into one blob (``games.logcodec``), in place
    of its ``Action`` rows: written by ``games.services.compaction`` in the transaction that
    deletes them, read through ``games.selectors.game_log``."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="compact_log"
    )
    data = models.BinaryField()
    actions = models.PositiveIntegerField()  # how many it packs
    compacted_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.game_id}: {self.actions} actions"


class ApiToken(models.Model):
    """A per-user token for scripts and bots; only its SHA-256 is stored."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    prefix = models.CharField(max_length=8, help_text=_("first characters, to tell tokens apart"))
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"


class GameAnalysis(models.Model):
    """The post-game analysis of one finished game (``games.solver.postmortem``): where a
    win was last possible, the move that lost it and a winning line from there.

    Made on request (``games.services.analysis_request``) by the ``games.analyse_game``
    task on the ``analysis`` queue, and kept: a second request reads this row. ``done`` and
    ``total`` are the task's progress (positions decided, of about how many).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text=_("positions decided so far"))
    total = models.PositiveIntegerField(
        default=0, help_text=_("positions the analysis expects to decide (an estimate)")
    )
    # games.solver.postmortem.Postmortem.to_dict(), once done.
    result = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True, help_text=_("why it failed"))
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of {self.game_id} ({self.status})"


class DealCompletions(models.Model):
    """A certified competition deal's completions for the sequential fair-play test
    (``games.solver.evidence.certified_pool``): per weighed stock count, orders of the
    cards still in the stock that the deal's own deterministic certification would have
    accepted. Drawn once per deal on the ``solver`` queue; as secret as the deal's code
    (staff only), kept with the deal. ``rng`` seeds the draw, so a reviewer can redo it."""

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="completions")
    nodes = models.PositiveIntegerField()
    rng = models.CharField(max_length=32)
    # {"48": [[card, ...], ...], "44": ...}: card ints, the stock's bottom first.
    pool = models.JSONField(default=dict)
    # The horizon statistic's tails (games.solver.horizon.certified_tails), drawn with the
    # random seed ``rng + "-tails"``: {"44": [card, ...], ...}; empty for a draw from
    # before them (filled in on first use).
    tails = models.JSONField(default=dict, blank=True)
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"completions of {self.deal}"

    def orders(self) -> dict[int, list[list[int]]]:
        return {int(count): orders for count, orders in self.pool.items()}

    def tail_orders(self) -> dict[int, list[int]]:
        return {int(count): order for count, order in self.tails.items()}


# The duel's models live in their room (games/duels/models.py), registered here.
# The arenas' models likewise (games/arenas/models.py), and the privacy models
# (games/privacy/models.py).
from games.arenas.models import Arena, ArenaEntry, ArenaPlay, ArenaRound  # noqa: E402, F401
from games.duels.models import Duel, DuelQueueEntry, DuelSeat  # noqa: E402, F401
from games.privacy.models import (  # noqa: E402, F401
    DeletedAccount,
    DeletedPlay,
    DeletedSighting,
    Sighting,
)
