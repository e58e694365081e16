"""Replays and the post-game analysis: the frames a replay, an analysis and a solution show."""
