"""Installs that repeat: every install comes from the lock files (docs/install.md).

``requirements.lock`` pins what the site runs on, ``requirements-dev.lock`` the same pins
plus the tools; pip installs them with ``--require-hashes``. These tests read the files as
pip and the Makefile do: a package the code imports but pyproject.toml does not declare, a
pin without a hash, a runtime pin that differs between the two files, or an install path
that bypasses the lock fails here. ``make lock-check`` (run by .ci/run) checks the other
half: that the locks are what ``make lock`` writes from pyproject.toml now.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)")
# Names as PEP 503 compares them.
_NORMAL = re.compile(r"[-_.]+")


def normal(name: str) -> str:
    return _NORMAL.sub("-", name).lower()


def lock_pins(path: Path) -> dict[str, tuple[str, list[str]]]:
    """{name: (version, [hashes])} as pip reads a hashed requirements file. A name pinned
    twice under different markers (cbor2 for PyPy and CPython) keeps its last entry."""
    pins: dict[str, tuple[str, list[str]]] = {}
    current: str | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        match = PIN.match(line)
        if match:
            current = normal(match.group(1))
            pins[current] = (match.group(2), [])
        if current and "--hash=sha256:" in line:
            pins[current][1].append(line.split("--hash=sha256:", 1)[1].split()[0])
    return pins


def declared(extra: str | None = None) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return {normal(re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0]) for spec in specs}


RUNTIME = lock_pins(ROOT / "requirements.lock")
DEV = lock_pins(ROOT / "requirements-dev.lock")


def test_every_declared_dependency_is_pinned_in_its_lock() -> None:
    assert declared() <= set(RUNTIME), declared() - set(RUNTIME)
    assert declared() | declared("dev") <= set(DEV), (declared() | declared("dev")) - set(DEV)


def test_every_pin_carries_the_hash_of_its_files() -> None:
    for path, pins in (("requirements.lock", RUNTIME), ("requirements-dev.lock", DEV)):
        unhashed = [name for name, (_, hashes) in pins.items() if not hashes]
        assert not unhashed, f"{path}: pins without a hash: {unhashed}"
        for name, (_, hashes) in pins.items():
            assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), (path, name)


def test_the_dev_lock_pins_the_runtime_packages_to_the_same_files() -> None:
    for name, pin in RUNTIME.items():
        assert DEV.get(name) == pin, f"{name}: {pin[0]} at run time, {DEV.get(name)} in dev"


def test_the_locks_name_no_index_or_host() -> None:
    # Plain requirements files: pip takes them from whatever index the machine is set up
    # with. A URL would tie the install to one host.
    for path in ("requirements.lock", "requirements-dev.lock"):
        text = (ROOT / path).read_text()
        assert "://" not in text and "--index-url" not in text, path


def test_the_build_back_end_is_locked_too() -> None:
    # The project installs with --no-build-isolation, so setuptools comes from the lock.
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    for spec in build:
        name = normal(re.split(r"[<>=!~ ]", spec, maxsplit=1)[0])
        assert name in RUNTIME and name in DEV, name


@pytest.mark.parametrize(
    ("path", "lock"),
    [("Makefile", "requirements-dev.lock"), ("Dockerfile", "requirements.lock")],
)
def test_installs_go_through_the_lock_with_hashes_required(path: str, lock: str) -> None:
    text = (ROOT / path).read_text()
    installs = [line for line in text.splitlines() if "pip install" in line]
    assert installs, f"{path} installs nothing"
    assert any(f"--require-hashes --no-deps -r {lock}" in line for line in installs), installs
    for line in installs:
        # Anything else pip installs is the project itself, without its dependencies.
        assert "--require-hashes" in line or "--no-deps" in line, line
        assert "--upgrade" not in line, line


def third_party_imports() -> set[str]:
    """Top-level modules imported by the product packages (tests and tools aside)."""
    stdlib = set(sys.stdlib_module_names)
    first = {"ftsite", "games", "leaderboards"}
    found: set[str] = set()
    for package in first:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(), str(path))
            typing_only = {
                id(inner)
                for node in ast.walk(tree)
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                for inner in ast.walk(node)
            }
            for node in ast.walk(tree):
                if id(node) in typing_only:
                    continue
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                found.update(name.split(".")[0] for name in names)
    return found - stdlib - first - {"__future__"}


def test_every_library_the_product_imports_is_declared_directly() -> None:
    # redis was imported in six modules while it came only through celery[redis] and
    # channels-redis: a range there could move it under the code's feet.
    distributions = metadata.packages_distributions()
    direct = declared()
    missing = {}
    for module in third_party_imports():
        names = {normal(name) for name in distributions.get(module, [module])}
        if not names & direct:
            missing[module] = sorted(names)
    assert not missing, f"imported but not declared in [project] dependencies: {missing}"
