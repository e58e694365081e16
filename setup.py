"""The solver's optional compiled core (games/solver/csrc, docs/research/solver-core.md).

Everything else is in pyproject.toml. The extension is ``optional``: where it cannot be
built (no compiler, no Python headers) the install still succeeds and the solver runs
its pure-Python search (games/solver/core.py says which one runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.solver._core",
            sources=[
                "games/solver/csrc/_core.c",
                "games/solver/csrc/search_map.c",
                "games/solver/csrc/search_moves.c",
                "games/solver/csrc/search_probe.c",
                "games/solver/csrc/search_walk.c",
                "games/solver/csrc/search_type.c",
            ],
            depends=["games/solver/csrc/search.h"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
