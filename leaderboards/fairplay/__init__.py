"""Fair play on the ranked boards: whether a verified result could have been played by a
person who knew only what a player sees.

``timing`` (machine play, pure), ``linked`` (linked accounts and scouting), ``screen`` (the
checks run when a ranked result is verified), ``review`` (holding, clearing and
disqualifying, with every decision recorded). The foresight analysis itself is a search
over engine positions and lives with the solver (``games.solver.foresight``).
"""
