"""The load generator of issue 11: real websocket clients with session cookies against real
``daphne`` processes, the bare echo baseline in the same run, and a profile of a move.

Benchmark-only: nothing in the site imports this package. ``python -m load.run --help``.
"""
