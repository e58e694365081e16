"""The engine's boundary: outside ``games/engine`` the engine's state is read through its
public view and changed only by the engine.

Searchers read a position through ``games.engine.view.SearchView`` (``piles``, ``stock``,
``found``, ``home``...) and change it only with the engine's moves and the view's
mutators (``set_position``, ``restock``), so the engine may change its private state
without a search noticing, and no search corrupts a position behind the rules' back.
Every module of the repository outside ``games/engine`` is parsed (ast, never imported)
and each of these is a violation:

* an attribute with a leading underscore that a ``GameState`` has privately (its slots
  and its classes' names, over its whole MRO), read or written on anything but ``self``
  or ``cls`` (another class may have an ``_x`` of its own), ``getattr(game, "_moves")``
  and its kin with the name as a literal included;
* a private name of an engine module (``from games.engine.notation import _CACHE``, or
  ``moves._check_run`` through a module imported from the engine);
* a view name written: rebound (``game.stock = ...``, ``game.home += 1``), an item of it
  assigned or deleted (``game.found[k] = ...``), or changed by a list method
  (``game.piles[3].append(card)``), again on anything but ``self`` or ``cls``, and but a
  parameter annotated as something else (``game: Game``, a model, has a ``score`` of its
  own: other classes share these names, so a write is the engine's unless the code says
  otherwise).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
from functools import cache
from pathlib import Path

import games.engine
from games.engine import GameState
from games.engine.view import SearchView

ROOT = Path(__file__).resolve().parents[2]
ENGINE = "games/engine/"
#: The calls that read or write an attribute named by a string.
BY_NAME = {"getattr", "setattr", "delattr", "hasattr"}
#: The list methods that change the list.
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"}
#: The view's names: read-only outside the engine.
VIEW = frozenset(SearchView.__slots__)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@cache
def engine_private_attributes() -> frozenset[str]:
    """The private names an engine state has: its slots and its classes' attributes."""
    names: set[str] = set()
    for cls in GameState.__mro__:
        names.update(getattr(cls, "__slots__", ()))
        names.update(vars(cls))
    return frozenset(n for n in names if _private(n))


@cache
def engine_modules() -> frozenset[str]:
    found = {"games.engine"}
    for info in pkgutil.iter_modules(games.engine.__path__, "games.engine."):
        found.add(info.name)
    return frozenset(found)


@cache
def engine_module_private(module: str) -> frozenset[str]:
    return frozenset(n for n in vars(importlib.import_module(module)) if _private(n))


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")


def _view_attribute(node: ast.expr) -> ast.Attribute | None:
    """The view name ``node`` is or is an item of (``game.piles``, ``game.piles[3]``)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr in VIEW and not _on_self(node):
        return node
    return None


#: An annotation that may be an engine state.
ENGINE_STATE = re.compile(r"\b(GameState|SearchView)\b")


def _not_engine_states(tree: ast.AST) -> set[int]:
    """The ids of the written expressions (:func:`_written`) of ``tree`` whose view name
    is read off a parameter annotated as something other than an engine state."""
    exempt: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = function.args
        others = {
            a.arg
            for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            if a.annotation is not None and not ENGINE_STATE.search(ast.unparse(a.annotation))
        }
        for target in _written(function):
            attribute = _view_attribute(target)
            if (
                attribute is not None
                and isinstance(attribute.value, ast.Name)
                and attribute.value.id in others
            ):
                exempt.add(id(target))
    return exempt


def _written(tree: ast.AST) -> list[ast.expr]:
    """Every expression ``tree`` assigns to, deletes or changes with a list method."""
    targets: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                targets.extend(_unpacked(target))
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets.append(node.target)
        elif isinstance(node, ast.Delete):
            targets.extend(node.targets)
        elif isinstance(node, ast.For | ast.comprehension):
            targets.extend(_unpacked(node.target))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
        ):
            targets.append(node.func.value)
    return targets


def _unpacked(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        return [t for element in target.elts for t in _unpacked(element)]
    if isinstance(target, ast.Starred):
        return _unpacked(target.value)
    return [target]


def violations(source: str, where: str = "<source>") -> list[str]:
    """Where ``source`` reaches past the engine's view (the module docstring)."""
    tree = ast.parse(source, where)
    private = engine_private_attributes()
    modules = engine_modules()
    # names bound to engine modules: ``from games.engine import moves as _moves`` ...
    aliases: dict[str, str] = {}
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules and alias.asname:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module in modules and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in modules:
                    aliases[alias.asname or alias.name] = full
                elif _private(alias.name):
                    found.append(f"{where}:{node.lineno}: imports {full}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in aliases:
                if node.attr in engine_module_private(aliases[owner.id]):
                    found.append(f"{where}:{node.lineno}: {owner.id}.{node.attr}")
            elif node.attr in private and not _on_self(node):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in BY_NAME
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and (
                node.args[1].value in private
                or node.func.id != "getattr"
                and node.args[1].value in VIEW
            )
        ):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    exempt = _not_engine_states(tree)
    for target in _written(tree):
        if _view_attribute(target) is not None and id(target) not in exempt:
            found.append(f"{where}:{target.lineno}: writes {ast.unparse(target)}")
    return found


def modules_outside_the_engine() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [ROOT / name for name in listed if not name.startswith(ENGINE)]


def test_no_module_outside_the_engine_reaches_past_its_view() -> None:
    paths = modules_outside_the_engine()
    assert len(paths) > 300  # the whole repository, not a corner of it
    found = [
        v
        for path in paths
        if path.exists()
        for v in violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    advice = "read the engine's view (games/engine/view.py), change it by its mutators:\n"
    assert found == [], advice + "\n".join(found)


def test_it_knows_the_state_it_guards() -> None:
    assert {"_moves", "_history", "_table"} <= engine_private_attributes()
    assert {"piles", "down", "stock", "found", "fsuit", "home", "score", "redeals_left"} == VIEW
    assert not VIEW & engine_private_attributes()


def test_it_flags_private_names_of_the_engine() -> None:
    source = """
from games.engine import moves as _moves
from games.engine.notation import _CACHE
import games.engine.game as engine_game

def peek(game, other):
    count = game._moves
    other.state._history = None
    value = getattr(game, "_table")
    _moves._check_run(game, None)
    return engine_game._cached_deal, count, value
"""
    assert sorted(v.split(": ", 1)[1] for v in violations(source)) == sorted(
        [
            "imports games.engine.notation._CACHE",
            "game._moves",
            "other.state._history",
            "getattr(game, '_table')",
            "_moves._check_run",
            "engine_game._cached_deal",
        ]
    )


def test_it_flags_writes_to_the_view() -> None:
    source = """
def cheat(game, other, card, state: GameState | None, row: Game):
    state.score = 0
    row.score = 0  # a model's score: not the engine's
    game.stock = [card]
    game.home += 1
    other.game.found[0] = 13
    del game.piles[0][-1]
    game.piles[3].append(card)
    game.stock.sort()
    game.score, game.redeals_left = 0, 0
    setattr(game, "down", [])
"""
    assert sorted(v.split(": ", 1)[1] for v in violations(source)) == sorted(
        [
            "writes game.stock",
            "writes game.home",
            "writes other.game.found[0]",
            "writes game.piles[0][-1]",
            "writes game.piles[3]",
            "writes game.stock",
            "writes game.score",
            "writes game.redeals_left",
            "writes state.score",
            "setattr(game, 'down', [])",
        ]
    )


def test_it_lets_reads_mutators_and_other_classes_state_pass() -> None:
    source = """
from games.engine import moves as _moves

class Table:
    def __init__(self, game):
        self._moves = game.score
        self.stock = list(game.stock)
        self.stock.append(game.home)

    def step(self, game, move, order):
        record = _moves.apply(game, move)
        game.restock(order)
        top = game.piles[0][-1] if game.piles[0] else None
        cards = sorted(game.stock)
        cards.append(top)
        return game.redeals_left, game.found[:], record, cards, getattr(game, "stock")
"""
    assert violations(source) == []
