"""Thin views of the accounts people manage: the profile (with the optional e-mail
address), password reset by e-mail, deleting the account and downloading its data.

Every form here is CSRF-protected (Django's middleware) and throttled: password reset
requests per address and per e-mail address asked about (``FT_RATE_PASSWORD_RESETS``),
the signed-in forms per user (``FT_RATE_ACCOUNT_FORMS``). A reset request always answers
the same, so it never tells whether an address has an account.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import services, tasks
from games.access import account_view, is_guest, signed_in
from games.accounts.forms import AccountDeleteForm, ProfileForm, SignUpForm
from games.errors import ServiceError
from games.models import User
from games.privacy.middleware import DEVICE_COOKIE
from games.privacy.sightings import device_digest, device_token_valid, request_address
from games.responses import refusal_page, with_retry_after
from games.throttles import RateLimited, throttle_check, who


def _refusal(err: RateLimited) -> str:
    minutes = max(1, math.ceil(err.retry_after / 60))
    return ngettext(
        "Too many attempts: try again in %(minutes)d minute.",
        "Too many attempts: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def limited(
    request: HttpRequest, form: BaseForm, err: RateLimited, template: str, **context: object
) -> HttpResponse:
    """The form again, saying when to retry: 429 with ``Retry-After``."""
    form.add_error(None, _refusal(err))
    response = render(request, template, {"form": form, **context}, status=429)
    return with_retry_after(response, err.retry_after)


def signup_count(*, request: HttpRequest) -> None:
    """Count a sign-up try against its address (``FT_RATE_SIGNUPS_ADDRESS``) and its
    browser's device cookie (``FT_RATE_SIGNUPS_DEVICE``), both as keyed hashes;
    :class:`RateLimited` once either is used up. Every try counts, a refused one too: each
    answers whether a username is taken."""
    address = request_address(request=request)
    throttle_check(
        name="signup_address",
        rate=settings.FT_RATE_SIGNUPS_ADDRESS,
        ident=who(address=address),
        what="sign-ups from this network",
    )
    token = request.COOKIES.get(DEVICE_COOKIE)
    if token and device_token_valid(token=token):
        throttle_check(
            name="signup_device",
            rate=settings.FT_RATE_SIGNUPS_DEVICE,
            ident=who(address=f"device:{device_digest(token=token)}"),
            what="sign-ups from this browser",
        )


class LoginView(auth_views.LoginView):
    """Django's sign-in page, which sends a signed-in visitor away, except a guest: a guest
    may sign in to an existing account, and the guest's games come to it
    (``services.guest_merge``)."""

    redirect_authenticated_user = True

    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        self.redirect_authenticated_user = not is_guest(request.user)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        guest_id = request_guest_id(self.request)
        response = super().form_valid(form)  # signs in: the session is the account's now
        if guest_id is not None:
            services.guest_merge(guest_id=guest_id, into=form.get_user())
        return response


def request_guest_id(request: HttpRequest) -> int | None:
    """The session's guest, before a sign-in replaces it."""
    return request.user.pk if is_guest(request.user) else None


@method_decorator(account_view, name="dispatch")  # a guest has no password to change
class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's change-password form, counted per user (``FT_RATE_PASSWORD_CHANGES``):
    each try says whether the old password is right, so a stolen session must not make
    it an oracle. The count is taken before the form is checked."""

    # Django's own template, named here so the throttle's answer renders it too.
    template_name = "registration/password_change_form.html"

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        try:
            throttle_check(
                name="password_change",
                rate=settings.FT_RATE_PASSWORD_CHANGES,
                ident=who(user_id=request.user.pk),
                what="password changes",
            )
        except RateLimited as err:
            return limited(request, self.get_form(), err, self.template_name)
        return super().post(request, *args, **kwargs)


def _count_account_form(request: HttpRequest, what: str) -> None:
    throttle_check(
        name=f"account_{what}",
        rate=settings.FT_RATE_ACCOUNT_FORMS,
        ident=who(user_id=request.user.pk),
        what=f"account {what} requests",
    )


@account_view
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """The player's profile: the display name and the optional e-mail address."""
    template = "accounts/profile.html"
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        try:
            _count_account_form(request, "profile")
        except RateLimited as err:
            return limited(request, form, err, template)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your profile is saved."))
            return redirect("profile")
    return render(request, template, {"form": form})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request, counted per address and per e-mail address asked about
    (whether or not an account has it) before any mail is sent."""

    # Django's own template, named here so the throttle's answer renders it too.
    template_name = "registration/password_reset_form.html"

    def form_valid(self, form: BaseForm) -> HttpResponse:
        rate = settings.FT_RATE_PASSWORD_RESETS
        email = form.cleaned_data["email"].strip().lower()
        address = request_address(request=self.request)
        try:
            throttle_check(
                name="reset_address", rate=rate, ident=who(address=address), what="resets"
            )
            # A keyed hash of the e-mail address, never the address itself.
            throttle_check(
                name="reset_email", rate=rate, ident=who(address=f"email:{email}"), what="resets"
            )
        except RateLimited as err:
            return limited(self.request, form, err, self.template_name)
        # The mail leaves the request, so its time is the same for any address (the
        # request writes nothing, so there is no commit to wait for).
        request = self.request
        tasks.password_reset_mail.delay(
            email, request.get_host(), request.is_secure(), translation.get_language()
        )
        return HttpResponseRedirect(self.get_success_url())


@never_cache
@account_view
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """Delete the account, once its password is given."""
    template = "accounts/delete.html"
    form = AccountDeleteForm(request.POST or None)
    if request.method == "POST":
        try:
            _count_account_form(request, "delete")
        except RateLimited as err:
            return limited(request, form, err, template)
        if form.is_valid():
            try:
                services.account_delete(
                    user=signed_in(request.user), password=form.cleaned_data["password"]
                )
            except services.WrongPassword as err:
                form.add_error("password", err.reason)
                return render(request, template, {"form": form}, status=err.status)
            logout(request)
            messages.success(request, _("Your account and everything kept about it are deleted."))
            return redirect("home")
        return render(request, template, {"form": form}, status=400)
    return render(request, template, {"form": form})


@never_cache
@account_view
@require_POST
def account_export(request: HttpRequest) -> HttpResponse:
    """Download everything kept about the account, as one JSON file."""
    try:
        _count_account_form(request, "export")
    except RateLimited as err:
        messages.error(request, _refusal(err))
        return redirect("profile")
    data = services.account_export(user=signed_in(request.user))
    name = f"forty-thieves-{request.user.get_username()}-{timezone.now():%Y%m%d}.json"
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# Accounts --------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and sign straight in. A guest's sign-up turns its own row into
    the account (``services.guest_convert``), so the guest's games stay its own."""
    guest = signed_in(request.user) if is_guest(request.user) else None
    if request.user.is_authenticated and guest is None:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    next_url = _next_url(request) or ""
    if request.method == "POST":
        try:
            signup_count(request=request)
        except RateLimited as err:
            return limited(request, form, err, "registration/signup.html", next=next_url)
    if request.method == "POST" and form.is_valid():
        try:
            user = _signup_save(form.cleaned_data, guest)
        except services.UsernameTaken as err:  # lost a race for the name: the form says so
            form.add_error("username", err.reason)
            return render(request, "registration/signup.html", {"form": form, "next": next_url})
        except ServiceError as err:
            return refusal_page(request, err)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.public_name})
        return redirect(_next_url(request) or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def _signup_save(data: dict[str, Any], guest: User | None) -> User:
    """The sign-up form's account: a new one, or the session's guest turned into it."""
    display_name = data.get("display_name") or ""
    if guest is None:
        return services.account_create(
            username=data["username"],
            display_name=display_name,
            email=data.get("email") or "",
            password=data["password1"],
        )
    return services.guest_convert(
        user=guest, username=data["username"], display_name=display_name, password=data["password1"]
    )


def _next_url(request: HttpRequest) -> str | None:
    """The ``next`` parameter when it stays on this site (no open redirects)."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def login_locked_out(
    request: HttpRequest, original_response: object = None, credentials: object = None
) -> HttpResponse:
    """django-axes' answer to a locked-out sign-in (``AXES_LOCKOUT_CALLABLE``): 429 with
    the wait in minutes, on the page and in ``Retry-After``."""
    minutes = settings.FT_LOGIN_COOLOFF_MINUTES
    response = render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
    return with_retry_after(response, minutes * 60)
