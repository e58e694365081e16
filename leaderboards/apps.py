from __future__ import annotations

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        # Games announces finished games; leaderboards listens (never the reverse).
        from games.signals import game_finished
        from leaderboards.receivers import verify_when_finished

        game_finished.connect(verify_when_finished, dispatch_uid="leaderboards.verify")
