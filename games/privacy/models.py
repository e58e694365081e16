"""The privacy models: ``Sighting`` (that a user was seen on a device or a network, as a
keyed hash only) and what fair play keeps of a deleted account (``DeletedAccount``, its
``DeletedSighting`` and ``DeletedPlay`` rows), kept only as long as it is needed
(docs/fairplay.md). Registered through ``games/models.py`` (imported at its end), as the
games app's own models."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Deal, Game, User


class Sighting(models.Model):
    """That a user was seen on a device or a network+browser, as a keyed hash only.

    Fair play links accounts that share one (a scout account turning the daily deal's stock
    for a second one). ``digest`` is an HMAC with a server secret (``games.privacy.sightings``): the
    raw cookie, address and browser string are never stored. Rows not seen for
    ``FT_SIGHTING_DAYS`` days are deleted (``sightings_prune``).
    """

    class Kind(models.TextChoices):
        DEVICE = "device", _("same browser")
        NETWORK = "network", _("same network and browser")
        # The network alone (/24 or /64): a household's or an office's every browser. Never
        # enough to hold a result by itself (leaderboards.fairplay.linked).
        ADDRESS = "address", _("same network")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sightings")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    digest = models.CharField(max_length=64, help_text=_("hex HMAC-SHA256, never the raw value"))
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "digest"], name="one_sighting_per_user_kind_digest"
            ),
        ]
        indexes = [
            # Who else shares a digest (accounts_linked_to), and what prune deletes.
            models.Index(fields=["kind", "digest"]),
            models.Index(fields=["last_seen"]),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.digest[:8]}…"


class DeletedAccount(models.Model):
    """What fair play keeps of a deleted account, and only while it is needed: so that
    deleting an account (and signing up again, under the same name or not) never frees a
    competition deal's one attempt, nor hides a scout from the account it scouted for.

    Made by ``games.services.account_delete`` only when the account had played (ranked) or
    turned cards of a competition deal that was still open; kept until ``keep_until`` (the
    last of those deals' close plus ``FT_SIGHTING_DAYS``), then pruned with the sightings.
    It holds keyed hashes only (``games.privacy.sightings``): of the username, and of the devices
    and networks the account was seen on (``DeletedSighting``), and which open deals it
    played (``DeletedPlay``). No name, address, browser string or move is kept.
    """

    name_digest = models.CharField(max_length=64, db_index=True)
    joined_at = models.DateTimeField()
    deleted_at = models.DateTimeField()
    keep_until = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"deleted account {self.pk} (kept until {self.keep_until:%Y-%m-%d})"


class DeletedSighting(models.Model):
    """A sighting of a deleted account (``Sighting``'s kind and keyed digest, no user)."""

    account = models.ForeignKey(DeletedAccount, on_delete=models.CASCADE, related_name="sightings")
    kind = models.CharField(max_length=8, choices=Sighting.Kind.choices)
    digest = models.CharField(max_length=64)
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["kind", "digest"])]

    def __str__(self) -> str:
        return f"deleted account {self.account_id} {self.kind} {self.digest[:8]}…"


class DeletedPlay(models.Model):
    """One game a deleted account played of a competition deal still open at the deletion:
    its mode and how far it went (stock cards turned, card moves), nothing of the moves."""

    account = models.ForeignKey(DeletedAccount, on_delete=models.CASCADE, related_name="plays")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10, choices=Game.Mode.choices)
    status = models.CharField(max_length=10, choices=Game.Status.choices)
    turned = models.PositiveIntegerField(help_text=_("stock cards turned"))
    card_moves = models.PositiveIntegerField(help_text=_("moves other than turning the stock"))
    started_at = models.DateTimeField()
    first_turn_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["deal", "account"])]

    def __str__(self) -> str:
        return f"deleted account {self.account_id} {self.mode} {self.deal_id} ({self.turned})"
