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
        # A decided duel is rated once its games are verified; the queue reads the ratings.
        from games.signals import duel_finished, duel_ratings_wanted
        from leaderboards.rating.duels import duel_ratings_shown
        from leaderboards.receivers import rate_when_duel_finished

        duel_finished.connect(rate_when_duel_finished, dispatch_uid="leaderboards.rate_duel")
        duel_ratings_wanted.connect(duel_ratings_shown, dispatch_uid="leaderboards.duel_ratings")
        # An arena round's points wait for its games' verdicts, which leaderboards keeps.
        from games.signals import arena_verdicts_wanted
        from leaderboards.receivers import arena_verdicts_of

        arena_verdicts_wanted.connect(arena_verdicts_of, dispatch_uid="leaderboards.arenas")
        # A league's arena is its members': games asks who they are, and the league's name.
        from games.signals import arena_league_wanted
        from leaderboards.receivers import arena_league_of

        arena_league_wanted.connect(arena_league_of, dispatch_uid="leagues.arenas")
        # A deleted account's results leave the boards; a download includes them.
        account_deleting.connect(results_leave_boards, dispatch_uid="leaderboards.delete")
        account_exporting.connect(results_for_export, dispatch_uid="leaderboards.export")
        # A deleted member leaves their leagues; a deleted owner's leagues pass on.
        account_deleting.connect(leagues_on_account_delete, dispatch_uid="leagues.delete")
        account_exporting.connect(leagues_for_export, dispatch_uid="leagues.export")
