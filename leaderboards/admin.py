"""Admin for verified results: for looking, never writing.

Results are written only by the verifier (``leaderboards.services``): editing one here
would put the database and the Redis boards out of step, so every field is read-only.
Deleting stays allowed, as in the games admin, so that deleting a user is not blocked by
their results (boards skip ids they no longer find; ``rebuild_boards`` tidies Redis).

Leagues likewise: looked at, and deleted when one must go (an offensive name), as its
owner would (``league_delete`` deletes the row, the memberships cascade). Their invite
nonce and digest are never shown: with the secret they make a working invite.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.display import format_duration
from leaderboards.leagues.models import League, Membership
from leaderboards.models import Result


class ReadOnly:
    """No adding, no changing (deleting stays, see the module's docstring)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(ReadOnly, admin.ModelAdmin):
    list_display = (
        "player",
        "day",
        "variant",
        "ranked",
        "status",
        "outcome",
        "score",
        "moves",
        "duration",
        "verified_at",
        "ranked_at",
        "shown_reason",
    )
    list_filter = ("status", "ranked", "day")
    list_select_related = ("player",)
    # "=game__id": an exact match (a game id is pasted whole), as in the games admin.
    search_fields = ("player__username", "=game__id")
    ordering = ("-created_at",)
    date_hierarchy = "created_at"
    fields = (
        "game",
        "player",
        "deal",
        "day",
        "variant",
        "ranked",
        "status",
        "shown_reason",
        "outcome",
        "won",
        "score",
        "moves",
        "duration",
        "finished_at",
        "verified_at",
        "ranked_at",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(description=_("duration"), ordering="duration_ms")
    def duration(self, result: Result) -> str:
        return format_duration(result.duration_ms)

    @admin.display(description=_("reason"))
    def shown_reason(self, result: Result) -> str:
        # A rejection is what an admin comes here to investigate: make it stand out.
        if result.status == Result.Status.REJECTED:
            return format_html(
                '<strong style="color: #b3261e">{}</strong>', result.reason or _("(no reason)")
            )
        return result.reason or "-"


class MembershipInline(ReadOnly, admin.TabularInline):
    model = Membership
    fields = ("user", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(League)
class LeagueAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "owner", "members", "created_at", "invite_rotated_at")
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username")
    ordering = ("-created_at",)
    date_hierarchy = "created_at"
    fields = ("name", "owner", "created_at", "invite_rotated_at")
    readonly_fields = fields
    inlines = (MembershipInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[League]:
        return super().get_queryset(request).annotate(member_count=Count("memberships"))

    @admin.display(description=_("members"), ordering="member_count")
    def members(self, league: League) -> int:
        # Annotated by get_queryset above; the model has no such field for mypy to see.
        return league.member_count  # type: ignore[attr-defined]  # get_queryset annotates it
