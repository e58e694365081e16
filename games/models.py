"""Database models for the games app."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """The platform's user model (custom from the start, as Django recommends)."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown on leaderboards instead of the username when set."),
    )

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        """The name shown to other players: the display name, else the username."""
        return self.display_name or self.get_username()
