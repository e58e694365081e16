from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from ftsite.patches import patches_apply_on_ready

        # The library internals every process leans on, checked against their versions.
        patches_apply_on_ready()

        from games.accounts.receivers import revoke_tokens_on_password_change
        from games.models import User

        post_save.connect(revoke_tokens_on_password_change, sender=User, dispatch_uid="ft-tokens")
