"""What games does when Django's own models change: a new password revokes API tokens."""

from __future__ import annotations

from typing import Any

from games import services
from games.models import User


def revoke_tokens_on_password_change(sender: type[User], instance: User, **kwargs: Any) -> None:
    """``post_save`` of a user: when the save carried a new password (a change, a reset, the
    admin, ``changepassword``), every API token of the account is revoked, as the other
    sessions are by Django. ``_password`` is the raw password Django keeps from
    ``set_password`` until the save has run its validators' ``password_changed``; a
    transparent hash upgrade at sign-in clears it before saving, so it revokes nothing."""
    if kwargs.get("created") or getattr(instance, "_password", None) is None:
        return
    services.api_tokens_revoke_all(user_id=instance.pk)
