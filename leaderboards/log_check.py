"""The log check lives in the engine (:mod:`games.engine.audit`), where the published
day files are checked with the same code; re-exported here for the site's callers."""

from __future__ import annotations

from games.engine.audit import Claim, Logged, Rejected, replay_claim

__all__ = ["Claim", "Logged", "Rejected", "replay_claim"]
