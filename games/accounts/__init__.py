"""Accounts: sign-in, profile, password reset, deletion and export, API tokens."""
