from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Public profile", {"fields": ("display_name",)}),
    )
    add_fieldsets = (
        *BaseUserAdmin.add_fieldsets,
        ("Public profile", {"fields": ("display_name",)}),
    )
