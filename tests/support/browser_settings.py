"""The browser tier's live server: the embedded defaults (``ftsite.settings``, as ``make run``
starts them) with one change, the unit tier's: a fast password hash. Every browser test
signs up a new player through the form, and the real hash (PBKDF2, a million rounds) is
the slowest step of a sign-up by far; no browser test is about the hash."""

from ftsite.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
