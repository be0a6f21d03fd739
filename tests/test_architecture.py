"""The domain core never imports the UI or the storage library."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "companion"
DOMAIN = ["village", "small_city", "feudum", "villagers", "scoring", "core"]
FORBIDDEN = ("flet", "flet_charts", "tinydb", "companion.store", "companion.app")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_domain_modules_import_no_ui_and_no_storage() -> None:
    checked = 0
    for pkg in DOMAIN:
        for path in (ROOT / pkg).rglob("*.py"):
            if path.name == "service.py":  # the service layer binds domain and store
                continue
            checked += 1
            bad = {n for n in _imports(path) if n.split(".")[0] in FORBIDDEN
                   or n.startswith(FORBIDDEN)}
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
    assert checked > 20


# Imports inside functions in the Village rules hide import cycles (issue 11). None is
# left; an unavoidable one goes here as ("module.py", "imported.module"), with its reason.
RULES_LOCAL_IMPORTS_ALLOWED: frozenset[tuple[str, str]] = frozenset()


def test_village_rules_import_at_module_level_only() -> None:
    found = set()
    for path in (ROOT / "village" / "rules").glob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import):
                        found |= {(path.name, a.name) for a in node.names}
                    elif isinstance(node, ast.ImportFrom):
                        found.add((path.name, node.module or "."))
    assert found <= RULES_LOCAL_IMPORTS_ALLOWED, sorted(found - RULES_LOCAL_IMPORTS_ALLOWED)


# The shared session core (errors, event log, chance seeding) sits below every game: it
# imports no game, and the two session kinds build on it rather than keeping their own.
GAMES = ("companion.village", "companion.tally", "companion.small_city", "companion.feudum",
         "companion.villagers", "companion.scoring")
CORE_USERS = {
    "village/session.py": "companion.core.log",
    "village/chance.py": "companion.core",
    "village/rules/errors.py": "companion.core.errors",
    "tally/session.py": "companion.core.log",
    "tally/chance.py": "companion.core",
    "tally/errors.py": "companion.core.errors",
}


def test_core_imports_no_game() -> None:
    for path in (ROOT / "core").rglob("*.py"):
        bad = {n for n in _imports(path) if n.startswith(GAMES)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_both_session_kinds_use_the_core() -> None:
    for rel, module in CORE_USERS.items():
        assert module in _imports(ROOT / rel), f"{rel} does not import {module}"
