"""Writes about API tokens: made, revoked, and checked (only their SHA-256 is stored)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from games.access import account_required
from games.errors import BadRequest, Conflict, NotFound
from games.models import ApiToken, User

API_TOKEN_PREFIX = "ft_"
API_TOKENS_PER_USER = 20
# Writing last_used_at on every request would turn each API read into a write.
API_TOKEN_TOUCH_EVERY = timedelta(minutes=1)
_API_TOKEN_MAX_LENGTH = 200  # a real token is 46 characters; longer is junk


def _api_token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def api_token_create(*, user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new API token for ``user``: the row and the raw token, which is shown only now.

    Only the token's SHA-256 is stored (the raw token has 256 random bits, so a plain
    hash is enough: there is nothing to brute-force), plus its first characters so the
    owner can tell tokens apart.
    """
    account_required(user=user, what="an API token")
    name = (name or "").strip()
    if len(name) > (ApiToken._meta.get_field("name").max_length or 0):
        raise BadRequest("a token name is at most 60 characters")
    if ApiToken.objects.filter(user=user).count() >= API_TOKENS_PER_USER:
        raise Conflict(f"you have {API_TOKENS_PER_USER} tokens already; revoke one first")
    raw = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=raw[:8], digest=_api_token_digest(raw)
    )
    return token, raw


def api_token_revoke(*, user: User, token_id: int) -> None:
    """Delete one of ``user``'s tokens; someone else's token is "not found", not "forbidden",
    so token ids reveal nothing."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound(f"you have no token {token_id}")


def api_tokens_revoke_all(*, user_id: int) -> int:
    """Delete every API token of the user (their password changed: whoever held the old
    password may have made tokens with it); returns how many."""
    deleted, _ = ApiToken.objects.filter(user_id=user_id).delete()
    return deleted


def api_token_authenticate(*, raw: str, now: datetime | None = None) -> User | None:
    """The active user a raw token belongs to, else ``None``; notes when it was last used."""
    if not isinstance(raw, str) or not raw.startswith(API_TOKEN_PREFIX):
        return None
    if len(raw) > _API_TOKEN_MAX_LENGTH:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=_api_token_digest(raw)).first()
    if token is None or not token.user.is_active:
        return None
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= API_TOKEN_TOUCH_EVERY:
        # A conditional UPDATE: concurrent requests do not write the same minute twice.
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - API_TOKEN_TOUCH_EVERY)
        ).update(last_used_at=now)
    return token.user
