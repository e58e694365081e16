"""Admin: users editable; deals, games, the move log and API tokens for looking, not writing.

Deals, games and actions are written by ``games.services`` only (commitments, the
row lock, the move log); editing them here would bypass that, so they are read-only.
A daily deal's code, seed and salt stay masked until the day closes, so that an
admin's screen (or a screenshot of it) does not leak the day's deal.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import Action, ApiToken, Deal, Game, User

SECRET = _("(secret)")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Public profile", {"fields": ("display_name",)}),
    )
    add_fieldsets = (
        *BaseUserAdmin.add_fieldsets,
        ("Public profile", {"fields": ("display_name",)}),
    )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable (and deletable) but never added or edited through the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = (
        "kind",
        "day",
        "variant",
        "shown_code",
        "commitment",
        "difficulty",
        "revealed_at",
    )
    list_filter = ("kind", "variant", ("revealed_at", admin.EmptyFieldListFilter), "day")
    search_fields = ("code",)
    date_hierarchy = "created_at"
    ordering = ("-day", "-created_at")
    fields = (
        "kind",
        "variant",
        "day",
        "shown_code",
        "shown_seed",
        "shown_salt",
        "commitment",
        "opens_at",
        "closes_at",
        "revealed_at",
        "created_at",
        "candidate",
        "solver_verdict",
        "solver_nodes",
        "solver_seconds",
        "difficulty",
        "shown_solution",
    )
    readonly_fields = fields

    @admin.display(description=_("code"), ordering="code")
    def shown_code(self, deal: Deal) -> str:
        return deal.code if deal.is_revealed else str(SECRET)

    @admin.display(description=_("seed"))
    def shown_seed(self, deal: Deal) -> str:
        return deal.seed_hex if deal.is_revealed else str(SECRET)

    @admin.display(description=_("salt"))
    def shown_salt(self, deal: Deal) -> str:
        return (deal.salt or "-") if deal.is_revealed else str(SECRET)

    @admin.display(description=_("solution"))
    def shown_solution(self, deal: Deal) -> str:
        """The solver's winning line: as secret as the code until a daily deal closes."""
        return (deal.solution or "-") if deal.is_revealed else str(SECRET)


class ActionInline(admin.TabularInline):
    model = Action
    fields = ("seq", "move", "score", "client_id", "created_at")
    readonly_fields = fields
    ordering = ("seq",)
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "player",
        "deal",
        "mode",
        "status",
        "score",
        "moves",
        "version",
        "created_at",
        "finished_at",
    )
    list_filter = ("mode", "status", "deal__kind", "created_at")
    list_select_related = ("player", "deal")
    search_fields = ("=id", "player__username", "player__display_name")
    ordering = ("-created_at",)
    inlines = (ActionInline,)
    # Everything is read-only: games change only through the services.
    readonly_fields = (
        "id",
        "player",
        "deal",
        "mode",
        "status",
        "score",
        "moves",
        "version",
        "hints",
        "dead_end",
        "created_at",
        "first_action_at",
        "finished_at",
    )
    fieldsets = ((None, {"fields": readonly_fields}),)


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "move", "score", "client_id", "created_at")
    list_select_related = ("game__player", "game__deal")
    search_fields = ("=game__id",)
    ordering = ("-created_at",)
    fields = ("game", "seq", "move", "score", "client_id", "created_at")
    readonly_fields = fields


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are issued by the API (the plain token is shown once); here they are
    listed, renamed or revoked (deleted). The digest is never shown or editable."""

    list_display = ("prefix", "user", "name", "created_at", "last_used_at")
    list_select_related = ("user",)
    search_fields = ("prefix", "name", "user__username")
    ordering = ("-created_at",)
    fields = ("prefix", "user", "name", "created_at", "last_used_at")
    readonly_fields = ("prefix", "user", "created_at", "last_used_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
