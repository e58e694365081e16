from __future__ import annotations

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        # Games announces finished games; leaderboards listens (never the reverse).
        from games.signals import account_deleting, account_exporting, game_finished
        from leaderboards.accounts import results_for_export, results_leave_boards
        from leaderboards.leagues.accounts import leagues_for_export, leagues_on_account_delete
        from leaderboards.receivers import verify_when_finished

        game_finished.connect(verify_when_finished, dispatch_uid="leaderboards.verify")
        # A deleted account's results leave the boards; a download includes them.
        account_deleting.connect(results_leave_boards, dispatch_uid="leaderboards.delete")
        account_exporting.connect(results_for_export, dispatch_uid="leaderboards.export")
        # A deleted member leaves their leagues; a deleted owner's leagues pass on.
        account_deleting.connect(leagues_on_account_delete, dispatch_uid="leagues.delete")
        account_exporting.connect(leagues_for_export, dispatch_uid="leagues.export")
