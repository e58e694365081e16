"""Leaderboard models (none yet)."""

from __future__ import annotations
