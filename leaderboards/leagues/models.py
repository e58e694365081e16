"""A league (a name, an owner, an invite capability) and its memberships.

Imported by :mod:`leaderboards.models`, so Django registers them under the ``leaderboards``
app (one migration, ``0004_leagues``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

NAME_MAX = 60


class League(models.Model):
    name = models.CharField(max_length=NAME_MAX)
    # The owner is also a member (a Membership row); a deleted owner's leagues pass to
    # their oldest other member, or go when there is none (leaderboards.leagues.accounts).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_leagues"
    )
    # The invite token is a capability (whoever holds it may join), so a copy of the
    # database, a backup or an admin page must not hand out working invites: the token is
    # the HMAC of a random nonce under the server's secret (selectors.invite_token), which
    # the owner's page recomputes whenever it is shown; rotating draws a new nonce. Stored:
    # the nonce (useless without the secret) and the token's SHA-256, looked up by index
    # on a join (256-bit tokens: nothing to brute-force, so a fast unsalted hash will do).
    invite_nonce = models.CharField(max_length=32)
    invite_digest = models.CharField(max_length=64, unique=True)
    invite_rotated_at = models.DateTimeField(auto_now_add=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]
        verbose_name = _("league membership")

    def __str__(self) -> str:
        return f"{self.user} in {self.league}"
