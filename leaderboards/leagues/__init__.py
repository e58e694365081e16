"""Leagues: private groups of players with their own boards, built on the verified results.

``models`` (League, Membership; registered through ``leaderboards.models``), ``access``
(the one permission check), ``services`` (every write), ``selectors`` (reads: the league
boards, the compare page, the home page's summary), ``views`` + ``urls`` (thin pages),
``consumers`` (the league board's live socket), ``broadcast`` (nudging it after a change).
"""
