"""The leaderboards app (verified daily results); models come later."""
