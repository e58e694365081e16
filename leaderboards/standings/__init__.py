"""Per-player standings over each week, month and all time: what the period boards read."""
