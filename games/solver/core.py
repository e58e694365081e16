"""Which search core runs: the compiled one (``games/solver/csrc``) or the pure-Python one.

The compiled core computes the per-position steps of the depth-first search (the single-card
variants' move list of :mod:`.movegen`, the move order of
:meth:`.heuristics.Knowledge.ordered` and the table key's column and whole hashes of
:mod:`.key`) and returns exactly what the Python code returns: the same moves in the same
order, the restarts' noise drawn from the same ``random.Random`` in the same order, the same
Python hashes (so one table of proofs serves both cores). So a search visits the same
positions, node for node, on either core (``tests/solver/test_core.py``), and the practice
pool's stars, which come from node counts, do not depend on which core runs.

Where single cards move (no runs, no foundation take-back) the compiled core runs the
search loop of :class:`~.search.Search` whole (``csrc/search_*.c``, :func:`compiled_search`):
its own state in C arrays, its moves applied and taken back in place, the same move list,
order, key, probe, sleep set and Tarjan's bookkeeping, one call a search (or a turn of
one); the same positions again, node for node.

``FT_SOLVER_CORE=python`` (read at import) forces the Python core; anything else (the
default, ``auto``) runs the compiled one where it was built (``make venv`` builds it;
where it cannot be built the install still succeeds and the Python core runs).
:data:`BACKEND` names the core in use; ``games.metrics`` exports it as the gauge
``ft_solver_core``. The Python code stays the reference (the tests compare the two at
every step) and the fallback.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from games.engine.cards import KING
from games.engine.safe import next_safe_home

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

    from games.engine import GameState
    from games.engine.notation import Move
    from games.engine.rules import RuleSet

#: The environment variable that forces a core.
ENV = "FT_SOLVER_CORE"
COMPILED, PYTHON = "c", "python"


def _load() -> ModuleType | None:
    try:
        from . import _core  # type: ignore[attr-defined]
    except ImportError:  # not built here: the Python core runs
        return None
    return _core  # type: ignore[no-any-return]


#: The compiled module, where it was built (whatever :data:`ENV` says).
MODULE = _load()
_forced = os.environ.get(ENV, "auto").strip().lower() == PYTHON
#: The core in use: ``"c"`` or ``"python"``.
BACKEND = COMPILED if MODULE is not None and not _forced else PYTHON
_current = [BACKEND]
#: ``FT_SOLVER_LOOP=python`` keeps the search loop in Python on the compiled core (its
#: per-position steps compiled, as in the core's first round): for measuring the loop
#: alone (``benchmarks/search_speed.py --cores``), never needed to run the site.
LOOP_ENV = "FT_SOLVER_LOOP"
_python_loop = os.environ.get(LOOP_ENV, "auto").strip().lower() == PYTHON


def current() -> str:
    """The core the searches made now use (:data:`BACKEND` unless :func:`using` says)."""
    return _current[-1]


@contextmanager
def using(backend: str) -> Iterator[None]:
    """Make the searches made inside run on ``backend`` (the tests compare the two):
    ``ValueError`` for the compiled core where it was not built."""
    if backend not in (COMPILED, PYTHON):
        raise ValueError(f"no core {backend!r}")
    if backend == COMPILED and MODULE is None:
        raise ValueError("the compiled core was not built here")
    _current.append(backend)
    try:
        yield
    finally:
        _current.pop()


def compiled() -> ModuleType | None:
    """The compiled module when the searches made now use it, else ``None``."""
    return MODULE if current() == COMPILED else None


def build_table(rules: RuleSet) -> bytes:
    """The engine's build table (``table[(onto << 6) | card]``) as 4,096 bytes."""
    return bytes(1 if rules.build_table[i] else 0 for i in range(64 * 64))


def compiled_legal(
    core: Any,
    rules: RuleSet,
    npiles: int,
    homes: list[tuple[tuple[int, int], ...]],
    to_space: list[bool],
    found_move: list[list[Move]],
    col_move: list[list[Move]],
) -> Callable[[Any], list[Move]]:
    """The compiled ``legal(game)`` of :mod:`.movegen`, from the tables it made."""
    from games.engine.notation import DRAW_MOVE, REDEAL_MOVE

    gen = core.Legal(
        npiles,
        build_table(rules),
        bytes(to_space),
        list(homes),
        found_move,
        col_move,
        DRAW_MOVE,
        REDEAL_MOVE,
    )
    legal: Callable[[Any], list[Move]] = gen.legal
    return legal


def compiled_ordered(
    core: Any,
    rules: RuleSet,
    home_from: list[tuple[tuple[int, int], ...]],
    safe_if: list[tuple[tuple[int, int], ...]],
    never_safe: bool,
    waste_unsafe_on_redeal: bool,
    noise: float,
) -> Callable[..., list[Move]]:
    """The compiled :meth:`.heuristics.Knowledge.ordered`, from the knowledge's tables."""
    order = core.Order(
        build_table(rules),
        list(home_from),
        list(safe_if),
        never_safe,
        waste_unsafe_on_redeal,
        noise,
        next_safe_home,
    )
    ordered: Callable[..., list[Move]] = order.ordered
    return ordered


def compiled_key(
    rules: RuleSet,
) -> tuple[Callable[[Any, int], int], Callable[[Any, int], int]] | None:
    """The compiled ``(column, whole)`` of :func:`.key.make_table_key_parts` for ``rules``
    (``None`` where the compiled core was not built)."""
    if MODULE is None:
        return None
    key = MODULE.Key(bool(rules.face_down), bool(rules.redeals))
    return key.column, key.whole


def compiled_search(
    game: GameState,
    lost: set[int],
    *,
    noise: random.Random | None,
    cuts: bool,
    lone_draws: bool,
    sleep: bool,
    resumable: bool,
) -> Any | None:
    """The whole search loop of :class:`~.search.Search` in C (``csrc/search_*.c``) over a copy
    of ``game``'s state, reading and filling ``lost`` (the :class:`~.search.LostTable`'s
    keys), or ``None`` where the Python loop runs: the compiled core not in use, or a
    variant where runs move or foundations give cards back (the loop serves the variants
    :mod:`.movegen`, :mod:`.deadlock` and :mod:`.sleep` serve alike). Every table it reads
    is the engine's, made here."""
    rules = game.rules
    if compiled() is None or _python_loop or rules.sequences or rules.takeback:
        return None
    if len(game.piles) > 32:  # more piles than the loop's arrays hold (no variant has)
        return None
    config = _search_config(rules, len(game.piles))
    state = (game.piles, game.down, game.found, game.stock, game.redeals_left)
    from .search import TABLE_LIMIT

    options = (cuts, lone_draws, sleep, resumable, TABLE_LIMIT)
    assert MODULE is not None
    return MODULE.Search(config, state, options, lost, noise)


@cache
def _search_config(rules: RuleSet, npiles: int) -> tuple[Any, ...]:
    """The rules' tables :func:`compiled_search` hands the loop (made once per rule set:
    the beam's end games and the restarts make many searches)."""
    from .heuristics import NOISE, Knowledge

    know = Knowledge(rules)
    return (
        npiles,
        rules.foundations,
        rules.deck_size,
        rules.draw,
        bool(rules.face_down),
        bool(rules.redeals),
        know.waste_unsafe_on_redeal,
        NOISE,
        build_table(rules),
        space_table(rules),
        list(know.home_from),
        list(know.safe_if),
        [rules.foundation_suit(k) for k in range(rules.foundations)],
        [tuple(ks) for ks in know.by_suit],
    )


def space_table(rules: RuleSet) -> bytes:
    """``table[card]``: whether ``card`` may fill an empty column (the engine's
    ``rules.space``: any card, or kings only), as 64 bytes."""
    kings_only = rules.space == "kings"
    return bytes(0 if kings_only and c >> 2 != KING else 1 for c in range(64))
