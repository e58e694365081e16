"""docs/architecture.md names only what exists.

Its convention (said at its top): in backticks, a dotted name from a project package
(``games.``, ``leaderboards.``, ``ftsite.``) is a module, a module's attribute (a function,
a class, a constant, a method: ``module.Class.method``) or a Celery task's registered name;
a name with a ``/`` is a file or folder of the repository (``games/engine/``,
``ftsite/schedule.py``); ``name()`` is a function or class defined in the project's code;
``Model.field`` names a model of ``games`` or ``leaderboards`` and its attribute. The same
dotted names are checked in its diagram. Each is looked up here: a name that drifted (a
module moved, a function renamed) fails this test.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("games", "leaderboards", "ftsite")

DOTTED = re.compile(r"^(?:games|leaderboards|ftsite)(?:\.[A-Za-z_]\w*)+$")
PATH = re.compile(r"^(?:[\w.-]+/)+[\w.-]*$")
CALL = re.compile(r"^([A-Za-z_]\w*)\(\)$")
MODEL_ATTR = re.compile(r"^([A-Z]\w*)((?:\.[A-Za-z_]\w*)+)$")
DIAGRAM_DOTTED = re.compile(r"\b(?:games|leaderboards|ftsite)(?:\.[A-Za-z_]\w*)+")


def backticked(text: str) -> list[str]:
    """The inline code spans of ``text`` (fenced blocks left out)."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.findall(r"`([^`\n]+)`", prose)


def diagram_names(text: str) -> list[str]:
    return [
        name
        for block in re.findall(r"```(?:text)?\n(.*?)```", text, re.S)
        for name in DIAGRAM_DOTTED.findall(block)
    ]


@cache
def task_names() -> frozenset[str]:
    from ftsite.celery import app

    app.loader.import_default_modules()
    return frozenset(app.tasks)


@cache
def defined_names() -> frozenset[str]:
    """Every function and class (methods included) defined in the project's packages."""
    names: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names.update(
                node.name
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            )
    return frozenset(names)


def dotted_exists(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return name in task_names()
            target = getattr(target, attribute)
        return True
    return name in task_names()


def model_attr_exists(model_name: str, attributes: str) -> bool | None:
    """Whether the model's attribute exists; ``None`` when no model has that name."""
    models = [
        m
        for label in PACKAGES[:2]
        for m in apps.get_app_config(label).get_models()
        if m.__name__ == model_name
    ]
    if not models:
        return None
    target: object = models[0]
    for attribute in attributes.strip(".").split("."):
        if not hasattr(target, attribute):
            return False
        target = getattr(target, attribute)
    return True


def problem_of(name: str) -> str | None:
    """What is wrong with one reference; ``None`` when it exists or is no reference."""
    if DOTTED.match(name):
        return None if dotted_exists(name) else "no such module, attribute or task"
    if PATH.match(name) and not name.startswith(("ws/", "/")) and "…" not in name:
        return None if (ROOT / name).exists() else "no such file or folder"
    if call := CALL.match(name):
        found = call.group(1) in defined_names()
        return None if found else "no such function or class in games, leaderboards, ftsite"
    if model := MODEL_ATTR.match(name):
        exists = model_attr_exists(model.group(1), model.group(2))
        return None if exists in (None, True) else "the model has no such attribute"
    return None


def references(text: str) -> list[str]:
    return backticked(text) + diagram_names(text)


@pytest.mark.django_db
def test_every_module_file_and_function_the_architecture_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = references(text)
    assert len(names) > 200, "the convention found too few references: is it still used?"
    problems = sorted({f"`{n}`: {p}" for n in names if (p := problem_of(n)) is not None})
    assert not problems, "docs/architecture.md names what does not exist:\n" + "\n".join(problems)


def test_a_drifted_name_is_found() -> None:
    text = (
        "`games.realtime.broadcast` `games/realtime/` `check_game_funnel()`"
        " `games.services.game_act` `games/engine/` `check_game_access()`"
    )
    problems = [problem_of(name) for name in references(text)]
    assert [p is not None for p in problems] == [True, True, True, False, False, False]


def test_the_diagram_s_names_are_read_too() -> None:
    assert diagram_names("```\nbrowser -> games.socket.consumers -> x\n```\n") == [
        "games.socket.consumers"
    ]


@pytest.mark.django_db
def test_every_model_is_named() -> None:
    """The rooms list every model of both apps (four were missing once)."""
    text = DOC.read_text(encoding="utf-8")
    named = set(backticked(text))
    missing = [
        m.__name__
        for label in PACKAGES[:2]
        for m in apps.get_app_config(label).get_models()
        if m.__name__ not in named
    ]
    assert not missing, f"docs/architecture.md does not name the models {missing}"


def test_every_folder_of_the_code_map_exists_and_every_package_is_in_it() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = re.findall(r"^\| `([^`]+/)` \|", text, re.M)
    assert table, "no code map table (| `folder/` | what lives there |)"
    assert [f for f in table if not (ROOT / f).is_dir()] == []
    packages = [
        f"{p.parent.relative_to(ROOT).as_posix()}/"
        for package in PACKAGES
        for p in (ROOT / package).rglob("__init__.py")
        if "migrations" not in p.parts
        and "management" not in p.parts
        and "templatetags" not in p.parts
    ]
    assert [p for p in packages if p not in table] == []


def queue_claims(text: str) -> dict[str, list[str]]:
    """The tasks the "Celery queues by urgency" list names under each queue."""
    section = text[text.index("- Celery queues by urgency") :]
    section = section[: section.index("\n\n")]
    claims: dict[str, list[str]] = {}
    for item in re.findall(r"^  - `(\w+)`(.*?)(?=^  - |\Z)", section, re.M | re.S):
        queue, words = item
        claims[queue] = [n for n in backticked(words) if DOTTED.match(n)]
    return claims


@pytest.mark.django_db
def test_every_task_is_said_to_be_on_the_queue_it_is_routed_to() -> None:
    """The day's open was once said to be on ``celery``; it is routed to ``solver``."""
    from ftsite.schedule import TASK_ROUTES

    claims = queue_claims(DOC.read_text(encoding="utf-8"))
    assert set(claims) == {"celery", "solver", "fairplay", "analysis"}, claims
    said = {(task, queue) for queue, tasks in claims.items() for task in tasks}
    routed = {
        (task, TASK_ROUTES.get(task, {}).get("queue", "celery"))
        for task in task_names()
        if not task.startswith("celery.")
    }
    assert sorted(said - routed) == [], "said to be on a queue they are not routed to"
    assert sorted(routed - said) == [], "routed to a queue the list does not name them under"
