"""Forms of the accounts pages: sign-up, profile, deleting an account.

Forms only parse and validate input; the writes are ``games.accounts.services``'.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from games.models import User


class SignUpForm(UserCreationForm):
    """Username, an optional display name, an optional e-mail address (validated: the
    only way to reset a forgotten password) and the password twice."""

    class Meta(UserCreationForm.Meta):
        # UserCreationForm.Meta names django.contrib.auth's User; ours is custom.
        model = User
        fields = ("username", "display_name", "email")
        labels = {"email": _("E-mail address (optional)")}
        help_texts = {
            "email": _(
                "Only to send you a link if you forget your password: without one, a "
                "forgotten password cannot be reset. Never shown to others."
            )
        }


class ProfileForm(forms.ModelForm):
    """What a player may change about their profile: the public name and the optional
    e-mail address (never shown to others; used only to reset a forgotten password)."""

    class Meta:
        model = User
        fields = ("display_name", "email")
        labels = {"email": _("E-mail address (optional)")}
        help_texts = {
            "email": _(
                "Only to send you a link if you forget your password. Never shown to others."
            )
        }


class AccountDeleteForm(forms.Form):
    """Deleting an account asks for its password."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": _("Enter your password to delete your account.")},
    )
