"""Writes: every change to deals, games and API tokens goes through these functions.

Split by subject (``accounts``, ``analysis``, ``deals``, ``play``, ``starts``,
``sightings``, ``solver_help``, ``tokens``); callers use this package:
``from games import services; services.game_act(...)``.
"""

from __future__ import annotations

from games.accounts.services import (
    UsernameTaken,
    WrongPassword,
    account_create,
    account_delete,
    account_export,
    account_password_reset_mail,
)
from games.accounts.tokens import (
    api_token_authenticate,
    api_token_create,
    api_token_revoke,
    api_tokens_revoke_all,
)
from games.engine import RESIGN
from games.models import PRACTICE_UNDO
from games.outcomes import ActOutcome, DeadEndCheck, HintOutcome
from games.privacy.identity import (
    AttemptUsed,
    deleted_account_keep,
    deleted_accounts_prune,
    ranked_attempt_check,
)
from games.privacy.services import (
    sighting_record,
    sightings_prune,
)
from games.services.analysis import NothingToAnalyse, analysis_request, analysis_run
from games.services.arenas import (
    arena_create,
    arena_finish,
    arena_join,
    arena_leave,
    arena_round_close,
    arena_round_open,
    arena_schedule,
    arena_sweep,
)
from games.services.completions import deal_completions_build
from games.services.deals import (
    DAILY_VARIANT,
    Certificate,
    DealNotCertified,
    certify_daily_seed,
    deal_close_daily,
    deal_close_weekly,
    deal_for_code,
    deal_open_daily,
    deal_open_weekly,
    deal_random,
    deal_rate,
    difficulty_for,
)
from games.services.duel_deals import duel_deal_draw, duel_deal_make, duel_reserve_fill
from games.services.duel_queue import duel_queue_join, duel_queue_leave
from games.services.duels import (
    duel_challenge_accept,
    duel_challenge_create,
    duel_challenge_find,
    duel_game_acted,
    duel_heartbeat,
    duel_presence,
    duel_rematch,
    duel_settle,
    duel_sweep,
    duel_tick,
)
from games.services.guests import (
    NotAGuest,
    guest_convert,
    guest_create,
    guest_merge,
    guests_purge,
)
from games.services.play import (
    ACTION_KINDS,
    game_act,
    game_resign_at_close,
)
from games.services.practice_pool import (
    PoolEmpty,
    practice_pool_draw,
    practice_pool_fill,
    practice_pool_load_starter,
    practice_pool_top_up,
)
from games.services.solver_help import (
    HintJob,
    game_dead_end_record,
    game_hint,
    game_hint_begin,
    game_hint_finish,
)
from games.services.starts import (
    game_discard_unstarted,
    game_start_archive,
    game_start_daily,
    game_start_practice,
    game_start_weekly,
)
from games.services.table import RankedTable, game_new_deal, game_restart
from games.services.table_settings import table_settings_save

__all__ = [
    "arena_create",
    "arena_finish",
    "arena_join",
    "arena_leave",
    "arena_round_close",
    "arena_round_open",
    "arena_schedule",
    "arena_sweep",
    "duel_challenge_accept",
    "duel_challenge_create",
    "duel_challenge_find",
    "duel_deal_draw",
    "duel_deal_make",
    "duel_game_acted",
    "duel_heartbeat",
    "duel_presence",
    "duel_queue_join",
    "duel_queue_leave",
    "duel_rematch",
    "duel_reserve_fill",
    "duel_settle",
    "duel_sweep",
    "duel_tick",
    "table_settings_save",
    "NotAGuest",
    "guest_convert",
    "guest_create",
    "guest_merge",
    "guests_purge",
    "PoolEmpty",
    "practice_pool_draw",
    "practice_pool_fill",
    "practice_pool_load_starter",
    "practice_pool_top_up",
    "RankedTable",
    "game_new_deal",
    "game_restart",
    "game_discard_unstarted",
    "AttemptUsed",
    "deleted_account_keep",
    "deleted_accounts_prune",
    "ranked_attempt_check",
    "WrongPassword",
    "UsernameTaken",
    "account_create",
    "account_delete",
    "account_export",
    "account_password_reset_mail",
    "api_tokens_revoke_all",
    "NothingToAnalyse",
    "analysis_request",
    "analysis_run",
    "ACTION_KINDS",
    "game_act",
    "DAILY_VARIANT",
    "PRACTICE_UNDO",
    "RESIGN",
    "ActOutcome",
    "DeadEndCheck",
    "Certificate",
    "DealNotCertified",
    "HintOutcome",
    "api_token_authenticate",
    "api_token_create",
    "api_token_revoke",
    "certify_daily_seed",
    "deal_close_daily",
    "deal_completions_build",
    "deal_close_weekly",
    "deal_for_code",
    "deal_open_daily",
    "deal_open_weekly",
    "deal_random",
    "deal_rate",
    "difficulty_for",
    "HintJob",
    "game_dead_end_record",
    "game_hint",
    "game_hint_begin",
    "game_hint_finish",
    "game_resign_at_close",
    "game_start_archive",
    "game_start_daily",
    "game_start_practice",
    "game_start_weekly",
    "sighting_record",
    "sightings_prune",
]
